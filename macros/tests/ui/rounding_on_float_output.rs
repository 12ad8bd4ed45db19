use actlut_macros::dequant_table;

dequant_table!(static T: i8 -> f32 = gelu, scale = 0.1, zero_point = 0, rounding = ties_away);

fn main() {}
