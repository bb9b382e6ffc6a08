# Chooses how often moves 1-3 are used (64 ways); each later move is then forced by a dial only it can still fix; the fewest-moves plan that clears every dial is the answer -> AC.
import sys

# dials turned by each move, as indices A=0 .. I=8
MOVES = ["ABDE", "ABC", "BCEF", "ADG", "BDEFH", "CFI", "DEGH", "GHI", "EFHI"]
TURNS = [[ord(ch) - ord("A") for ch in m] for m in MOVES]
# once moves 1-3 are fixed, move k+1 is decided by dial FORCING[k] (its other moves are known by then)
FORCING = {3: 0, 4: 1, 5: 2, 6: 3, 8: 5, 7: 6}  # move 4 by A, 5 by B, 6 by C, 7 by D, 9 by F, 8 by G


def solve(dials):
    best = None
    for a in range(4):
        for b in range(4):
            for c in range(4):
                count = [a, b, c, 0, 0, 0, 0, 0, 0]
                for move in (3, 4, 5, 6, 8, 7):
                    dial = FORCING[move]
                    turned = dials[dial] + sum(count[m] for m in range(9) if dial in TURNS[m] and m != move)
                    count[move] = -turned % 4
                state = list(dials)
                for m in range(9):
                    for dial in TURNS[m]:
                        state[dial] += count[m]
                if all(v % 4 == 0 for v in state) and (best is None or sum(count) < sum(best)):
                    best = count
    return best


def main():
    dials = [int(t) for t in sys.stdin.read().split()[:9]]
    count = solve(dials)
    print(" ".join(str(m + 1) for m in range(9) for _ in range(count[m])))


main()
