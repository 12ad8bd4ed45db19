use actlut::table;

table!(static T: softcap(cap = 30.0f32) -> f16);

fn main() {}
