use actlut::dequant_table;

dequant_table!(static T: i32 -> f32 = gelu, scale = 0.1, zero_point = 0);

fn main() {}
