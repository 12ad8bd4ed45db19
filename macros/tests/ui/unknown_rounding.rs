use actlut_macros::dequant_table;

dequant_table!(static T: i8 -> i8 = gelu, scale = 0.1, zero_point = 0, out_scale = 0.1, out_zero_point = 0, rounding = nearest);

fn main() {}
