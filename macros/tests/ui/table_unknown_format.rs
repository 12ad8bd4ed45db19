use actlut::table;

table!(static T: softcap(cap = 30) -> f17);

fn main() {}
