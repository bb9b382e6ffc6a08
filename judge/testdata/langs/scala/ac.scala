// The Clocks: moves 1-3 are tried in all 64 ways; each later move is then
// forced by a dial only it can still turn; the fewest moves win.
object Clocks {
  val Cover = Array("110110000", "111000000", "011011000", "100100100", "010111010",
    "001001001", "000110110", "000000111", "000011011")
  val Forced = List((3, 0), (4, 1), (5, 2), (6, 3), (8, 5), (7, 6))

  def main(args: Array[String]): Unit = {
    val dial = scala.io.Source.stdin.mkString.trim.split("\\s+").take(9).map(_.toInt)
    var best: Array[Int] = null
    for (k <- 0 until 64) {
      val cnt = Array(k % 4, k / 4 % 4, k / 16, 0, 0, 0, 0, 0, 0)
      for ((mv, d) <- Forced) {
        val t = dial(d) + (0 until 9).filter(m => m != mv && Cover(m)(d) == '1').map(cnt(_)).sum
        cnt(mv) = (4 - t % 4) % 4
      }
      val ok = (0 until 9).forall(d => (dial(d) + (0 until 9).filter(m => Cover(m)(d) == '1').map(cnt(_)).sum) % 4 == 0)
      if (ok && (best == null || cnt.sum < best.sum)) best = cnt
    }
    println((0 until 9).flatMap(m => Seq.fill(best(m))(m + 1)).mkString(" "))
  }
}
