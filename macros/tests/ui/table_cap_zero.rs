use actlut::table;

table!(static T: softcap(cap = 0) -> bf16);

fn main() {}
