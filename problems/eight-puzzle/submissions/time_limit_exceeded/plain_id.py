# Plain iterative deepening from every input line (after the parity check),
# without a heuristic and without remembering states: correct, but a board
# 31 moves from the goal (data/secret/20-deepest) takes about 2^31 nodes,
# hours even on PyPy -> TLE at any limit. (A fresh breadth-first search per
# line, about 0.1 s a line on PyPy here, was the example before: only 1.5 to
# 3 times over the raised limit on the 300-line file, too close on a faster
# machine.)
import sys

GOAL = "12345678x"
MOVES = (("d", 3), ("l", -1), ("r", 1), ("u", -3))
UNDO = {"d": "u", "u": "d", "l": "r", "r": "l"}


def solvable(s):
    tiles = [c for c in s if c != "x"]
    inversions = sum(1 for i in range(8) for j in range(i + 1, 8) if tiles[i] > tiles[j])
    return inversions % 2 == 0


def search(cells, blank, depth, last, path):
    if depth == 0:
        return "".join(cells) == GOAL
    for letter, step in MOVES:
        t = blank + step
        if t < 0 or t > 8 or step in (1, -1) and t // 3 != blank // 3 or UNDO[letter] == last:
            continue
        cells[blank], cells[t] = cells[t], cells[blank]
        path.append(letter)
        if search(cells, t, depth - 1, letter, path):
            return True
        path.pop()
        cells[blank], cells[t] = cells[t], cells[blank]
    return False


def solve(s):
    for depth in range(32):
        path = []
        if search(list(s), s.index("x"), depth, "", path):
            return "".join(path)
    return "unsolvable"


def main():
    tokens = sys.stdin.read().split()
    for i in range(0, len(tokens) - 8, 9):
        s = "".join(tokens[i:i + 9])
        print(solve(s) if solvable(s) else "unsolvable")
        sys.stdout.flush()


main()
