use actlut::dequant_table;

dequant_table!(static T: i8 -> f32 = gelux, scale = 0.1, zero_point = 0);

fn main() {}
