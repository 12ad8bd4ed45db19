use actlut::dequant_table;

dequant_table!(static T: u4 -> f32 = exp, scale = 0.25, zero_point = 16);

fn main() {}
