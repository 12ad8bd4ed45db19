use actlut::dequant_table;

dequant_table!(static T: i8 -> u8 = sigmoid, scale = 0.1, zero_point = 0, out_scale = 0.004, out_zero_point = 256);

fn main() {}
