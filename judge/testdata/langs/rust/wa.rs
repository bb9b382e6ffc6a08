fn main() { println!("1 2 3"); }
