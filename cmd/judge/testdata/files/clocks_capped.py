# The clocks by trying every answer of at most 5 moves: right up to 5 moves,
# no moves at all for every position farther (wrong).
import itertools
import sys

CAP = 5
GROUPS = ["ABDE", "ABC", "BCEF", "ADG", "BDEFH", "CFI", "DEGH", "GHI", "EFHI"]

dials = [int(t) for t in sys.stdin.read().split()]
best = None
for counts in itertools.product(range(4), repeat=9):
    if sum(counts) > CAP:
        continue
    d = dials[:]
    for k, c in enumerate(counts):
        for letter in GROUPS[k]:
            d[ord(letter) - ord("A")] += c
    if all(x % 4 == 0 for x in d) and (best is None or sum(counts) < sum(best)):
        best = counts
moves = [str(k + 1) for k, c in enumerate(best or ()) for _ in range(c)]
print(" ".join(moves))
