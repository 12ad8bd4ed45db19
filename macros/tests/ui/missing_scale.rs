use actlut::dequant_table;

dequant_table!(static T: i8 -> f32 = gelu, zero_point = 0);

fn main() {}
