fn main() { println!("{}", missing); }
