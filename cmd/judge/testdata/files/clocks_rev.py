# The right moves, printed in descending order: WA on the order.
import itertools
import sys

MOVES = ["ABDE", "ABC", "BCEF", "ADG", "BDEFH", "CFI", "DEGH", "GHI", "EFHI"]
dials = [int(t) for t in sys.stdin.read().split()]
best = None
for counts in itertools.product(range(4), repeat=9):
    state = list(dials)
    for m, c in enumerate(counts):
        for d in MOVES[m]:
            state[ord(d) - 65] += c
    if all(v % 4 == 0 for v in state) and (best is None or sum(counts) < sum(best)):
        best = counts
moves = [m + 1 for m in range(9) for _ in range(best[m])]
print(" ".join(map(str, reversed(moves))))
