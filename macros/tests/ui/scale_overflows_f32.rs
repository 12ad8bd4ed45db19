use actlut::dequant_table;

dequant_table!(static T: i8 -> f32 = gelu, scale = 1e39, zero_point = 0);

fn main() {}
