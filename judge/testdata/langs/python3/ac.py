# The Clocks: moves 1-3 are tried in all 64 ways; each later move is then
# forced by a dial only it can still turn; the fewest moves win.
import sys

COVER = ["110110000", "111000000", "011011000", "100100100", "010111010",
         "001001001", "000110110", "000000111", "000011011"]
FORCED = [(3, 0), (4, 1), (5, 2), (6, 3), (8, 5), (7, 6)]


def main():
    dial = [int(t) for t in sys.stdin.read().split()[:9]]
    best = None
    for k in range(64):
        cnt = [k % 4, k // 4 % 4, k // 16, 0, 0, 0, 0, 0, 0]
        for mv, d in FORCED:
            t = dial[d] + sum(cnt[m] for m in range(9) if m != mv and COVER[m][d] == "1")
            cnt[mv] = (4 - t % 4) % 4
        ok = all((dial[d] + sum(cnt[m] for m in range(9) if COVER[m][d] == "1")) % 4 == 0 for d in range(9))
        if ok and (best is None or sum(cnt) < sum(best)):
            best = cnt
    sys.stdout.write(" ".join(str(m + 1) for m in range(9) for _ in range(best[m])) + "\n")


main()
