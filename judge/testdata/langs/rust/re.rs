fn main() { let v: Vec<i32> = Vec::new(); std::process::exit(v.len() as i32 + 3); }
