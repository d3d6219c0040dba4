fn main() {
    println!("fenced as rust");
}
