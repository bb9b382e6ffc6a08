fun main() { println(missing) }
