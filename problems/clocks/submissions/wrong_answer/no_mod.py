# Adds up, per dial, the known move counts that turn only that dial, but never reduces the totals mod 4: every dial ends at 12 yet the list is far too long -> WA.
import sys

# TURN_ONE[d][m]: how often move m+1 is made to turn dial d (A..I) a quarter and leave the rest alone
TURN_ONE = [
    (3, 3, 3, 3, 3, 2, 3, 2, 0),
    (2, 3, 2, 3, 2, 3, 1, 0, 1),
    (3, 3, 3, 2, 3, 3, 0, 2, 3),
    (2, 3, 1, 3, 2, 0, 2, 3, 1),
    (2, 3, 2, 3, 1, 3, 2, 3, 2),
    (1, 3, 2, 0, 2, 3, 1, 3, 2),
    (3, 2, 0, 3, 3, 2, 3, 3, 3),
    (1, 0, 1, 3, 2, 3, 2, 3, 2),
    (0, 2, 3, 2, 3, 3, 3, 3, 3),
]


def main():
    dials = [int(t) for t in sys.stdin.read().split()[:9]]
    count = [0] * 9
    for d, value in enumerate(dials):
        need = (4 - value) % 4
        for m in range(9):
            count[m] += need * TURN_ONE[d][m]
    print(" ".join(str(m + 1) for m in range(9) for _ in range(count[m])))


main()
