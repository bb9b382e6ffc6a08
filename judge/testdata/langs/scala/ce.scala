object Broken { def main(args: Array[String]): Unit = println(missing) }
