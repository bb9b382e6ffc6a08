object Wrong { def main(args: Array[String]): Unit = println("1 2 3") }
