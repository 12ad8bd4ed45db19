use actlut::table;

table!(static T: log_derivative -> fp4_e2m1);

fn main() {}
