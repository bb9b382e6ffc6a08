# Tower of Hanoi, accepted: no search. Discs larger than the largest disc
# that is not where it must be never move; that disc k moves once (the
# smaller ones go to the third peg first) or twice (they go to its goal
# peg, it moves to the third, they come back onto its start, it moves to
# its goal), whichever is shorter. The distance of gathering discs onto one
# peg is a sum of powers of two (the classic recursion), so each distance
# is computed in O(n); the answer takes, from each arrangement, the first
# move in the order 12 13 21 23 31 32 that brings the goal one move closer.
import sys


def gather(pegs, k, peg):
    """Moves that bring discs 0..k-1 of pegs onto peg."""
    cost = 0
    for i in range(k - 1, -1, -1):
        if pegs[i] != peg:
            cost += 1 << i
            peg = 3 - pegs[i] - peg
    return cost


def dist(a, b, n):
    k = n - 1
    while k >= 0 and a[k] == b[k]:
        k -= 1
    if k < 0:
        return 0
    p, q = a[k], b[k]
    r = 3 - p - q
    once = gather(a, k, r) + 1 + gather(b, k, r)
    twice = gather(a, k, q) + 1 + ((1 << k) - 1) + 1 + gather(b, k, p)
    return min(once, twice)


def main():
    out = []
    for line in sys.stdin:
        v = list(map(int, line.split()))
        n = v[0]
        a = [x - 1 for x in v[1:n + 1]]
        b = [x - 1 for x in v[n + 1:2 * n + 1]]
        d = dist(a, b, n)
        moves = []
        while d > 0:
            tops = [n, n, n]
            for k in range(n - 1, -1, -1):
                tops[a[k]] = k
            for x in range(3):
                found = False
                for y in range(3):
                    if x == y or tops[x] == n or tops[y] < tops[x]:
                        continue
                    k = tops[x]
                    a[k] = y
                    if dist(a, b, n) == d - 1:
                        moves.append("%d%d" % (x + 1, y + 1))
                        d -= 1
                        found = True
                        break
                    a[k] = x
                if found:
                    break
        out.append(" ".join(moves))
    print("\n".join(out))


main()
