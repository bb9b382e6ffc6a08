# A fresh uninformed BFS from every input line (after the parity check): correct, but each deep line visits ~10^5 states in CPython -> TLE on the bigger files.
import gc
import sys
from collections import deque

GOAL = "12345678x"


def neighbours(pos):
    row, col = divmod(pos, 3)
    if row > 0:
        yield "u", pos - 3
    if row < 2:
        yield "d", pos + 3
    if col > 0:
        yield "l", pos - 1
    if col < 2:
        yield "r", pos + 1


def swap(s, i, j):
    cells = list(s)
    cells[i], cells[j] = cells[j], cells[i]
    return "".join(cells)


def solvable(s):
    tiles = [c for c in s if c != "x"]
    inversions = sum(1 for i in range(8) for j in range(i + 1, 8) if tiles[i] > tiles[j])
    return inversions % 2 == 0


def bfs(start):
    parent = {start: None}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        if s == GOAL:
            path = []
            while parent[s] is not None:
                s, letter = parent[s]
                path.append(letter)
            return "".join(reversed(path))
        blank = s.index("x")
        for letter, cell in neighbours(blank):
            t = swap(s, blank, cell)
            if t not in parent:
                parent[t] = (s, letter)
                queue.append(t)
    return "unsolvable"


def main():
    tokens = sys.stdin.read().split()
    for i in range(0, len(tokens) - 8, 9):
        s = "".join(tokens[i:i + 9])
        print(bfs(s) if solvable(s) else "unsolvable")
        gc.collect()  # PyPy's collector would let each line's BFS pile up: MLE, not TLE


main()
