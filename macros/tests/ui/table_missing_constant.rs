use actlut::table;

table!(static T: softcap -> bf16);

fn main() {}
