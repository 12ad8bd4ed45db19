use actlut::table;

table!(static T: softcap(capp = 30) -> f16);

fn main() {}
