// The Clocks: moves 1-3 are tried in all 64 ways; each later move is then
// forced by a dial only it can still turn; the fewest moves win.
val COVER = listOf("110110000", "111000000", "011011000", "100100100", "010111010",
    "001001001", "000110110", "000000111", "000011011")
val FORCED = listOf(3 to 0, 4 to 1, 5 to 2, 6 to 3, 8 to 5, 7 to 6)

fun main() {
    val dial = generateSequence(::readLine).joinToString(" ").trim().split(Regex("\\s+")).map { it.toInt() }
    var best: IntArray? = null
    for (k in 0 until 64) {
        val cnt = intArrayOf(k % 4, k / 4 % 4, k / 16, 0, 0, 0, 0, 0, 0)
        for ((mv, d) in FORCED) {
            var t = dial[d]
            for (m in 0 until 9) if (m != mv && COVER[m][d] == '1') t += cnt[m]
            cnt[mv] = (4 - t % 4) % 4
        }
        val ok = (0 until 9).all { d -> (dial[d] + (0 until 9).filter { COVER[it][d] == '1' }.sumBy { cnt[it] }) % 4 == 0 }
        if (ok && (best == null || cnt.sum() < best.sum())) best = cnt
    }
    val b = best!!
    println((0 until 9).flatMap { m -> List(b[m]) { m + 1 } }.joinToString(" "))
}
