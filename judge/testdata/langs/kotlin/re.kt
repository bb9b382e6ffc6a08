fun main() { throw IllegalStateException("broken") }
