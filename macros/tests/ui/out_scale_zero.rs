use actlut::dequant_table;

dequant_table!(static T: u8 -> i8 = silu, scale = 0.1, zero_point = 0, out_scale = 0, out_zero_point = 0);

fn main() {}
