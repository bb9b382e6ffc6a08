# Lights Out: light chasing. Once the presses of the top row are chosen, each
# lit cell of a row can only be put out by the press below it; so each of the
# 32 choices for the top row gives one press set, which clears the board when
# the bottom row ends dark. Keep the fewest presses, then the smallest
# ascending list.
import sys


def solve(board):
    best = None
    for top in range(32):
        b = [row[:] for row in board]
        presses = []

        def press(r, c):
            for y, x in ((r, c), (r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if 0 <= y < 5 and 0 <= x < 5:
                    b[y][x] ^= 1
            presses.append(5 * r + c + 1)

        for c in range(5):
            if top >> c & 1:
                press(0, c)
        for r in range(1, 5):
            for c in range(5):
                if b[r - 1][c]:
                    press(r, c)
        if any(b[4]):
            continue
        key = (len(presses), presses)
        if best is None or key < best:
            best = key
    if best is None:
        return "unsolvable"
    return " ".join(map(str, best[1]))


def main():
    rows = [line.strip() for line in sys.stdin if line.strip()]
    out = []
    for i in range(0, len(rows) - 4, 5):
        out.append(solve([[int(ch) for ch in row] for row in rows[i:i + 5]]))
    sys.stdout.write("".join(x + "\n" for x in out))


main()
