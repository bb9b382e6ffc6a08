# Tower of Hanoi, wrong: valid but too long. Gather every disc onto peg 1
# (or the peg of the largest disc), then build the goal disc by disc from
# the largest, each time moving the smaller discs out of the way: every
# move is legal and the discs end where they must, but going through one
# peg costs far more than the fewest moves.
import sys


def solve(pegs, goal, n):
    moves = []

    def move_tower(k, src, dst):
        """Moves discs 0..k-1, all on src, onto dst."""
        if k == 0 or src == dst:
            return
        other = 3 - src - dst
        move_tower(k - 1, src, other)
        moves.append((src, dst))
        pegs[k - 1] = dst
        move_tower(k - 1, other, dst)

    def gather(k, dst):
        """Moves discs 0..k-1, anywhere, onto dst."""
        if k == 0:
            return
        if pegs[k - 1] == dst:
            gather(k - 1, dst)
            return
        other = 3 - pegs[k - 1] - dst
        gather(k - 1, other)
        moves.append((pegs[k - 1], dst))
        pegs[k - 1] = dst
        move_tower(k - 1, other, dst)

    gather(n, pegs[n - 1])
    for k in range(n, 0, -1):
        # discs 0..k-1 are all on pegs[k-1]; put disc k-1 on its goal
        src, dst = pegs[k - 1], goal[k - 1]
        if src != dst:
            other = 3 - src - dst
            move_tower(k - 1, src, other)
            moves.append((src, dst))
            pegs[k - 1] = dst
            move_tower(k - 1, other, dst)
        # the smaller discs are together; bring them above disc k-1
        if k > 1:
            move_tower(k - 1, pegs[k - 2], dst)
    return moves


def main():
    out = []
    for line in sys.stdin:
        v = list(map(int, line.split()))
        n = v[0]
        pegs = [x - 1 for x in v[1:n + 1]]
        goal = [x - 1 for x in v[n + 1:2 * n + 1]]
        out.append(" ".join("%d%d" % (a + 1, b + 1) for a, b in solve(pegs, goal, n)))
    print("\n".join(out))


main()
