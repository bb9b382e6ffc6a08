object Crash { def main(args: Array[String]): Unit = throw new IllegalStateException("broken") }
