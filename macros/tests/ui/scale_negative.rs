use actlut::dequant_table;

dequant_table!(static T: i8 -> f32 = gelu, scale = -0.5, zero_point = 0);

fn main() {}
