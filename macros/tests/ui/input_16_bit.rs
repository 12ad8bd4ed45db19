use actlut_macros::dequant_table;

dequant_table!(static T: i16 -> i16 = sigmoid, scale = 0.000244140625, zero_point = 0);

fn main() {}
