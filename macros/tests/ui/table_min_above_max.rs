use actlut::table;

table!(static T: hardtanh(min = 2, max = 1) -> f16);

fn main() {}
