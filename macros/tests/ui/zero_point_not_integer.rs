use actlut::dequant_table;

dequant_table!(static T: i8 -> f32 = gelu, scale = 0.1, zero_point = 1.5);

fn main() {}
