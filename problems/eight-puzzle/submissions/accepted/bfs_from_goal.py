# One BFS from the solved frame (the 181440 reachable arrangements, as strings) stores a blank move toward the goal for each; every line follows those moves; ~0.3 s -> AC.
import sys

GOAL = "12345678x"
STEP = {"u": -3, "d": 3, "l": -1, "r": 1}
OPPOSITE = {"u": "d", "d": "u", "l": "r", "r": "l"}


def neighbours(pos):
    """(letter, cell) for each way the blank at pos can move."""
    row, col = divmod(pos, 3)
    if row > 0:
        yield "u", pos - 3
    if row < 2:
        yield "d", pos + 3
    if col > 0:
        yield "l", pos - 1
    if col < 2:
        yield "r", pos + 1


MOVES_FROM = [list(neighbours(p)) for p in range(9)]


def swap(s, i, j):
    if i > j:
        i, j = j, i
    return s[:i] + s[j] + s[i + 1:j] + s[i] + s[j + 1:]


def build():
    toward = {GOAL: ""}
    frontier = [GOAL]
    while frontier:
        nxt = []
        for s in frontier:
            blank = s.index("x")
            for letter, cell in MOVES_FROM[blank]:
                t = swap(s, blank, cell)
                if t not in toward:
                    toward[t] = OPPOSITE[letter]  # undoing the move walks back to the goal
                    nxt.append(t)
        frontier = nxt
    return toward


def main():
    tokens = sys.stdin.read().split()
    toward = build()
    out = []
    for i in range(0, len(tokens) - 8, 9):
        s = "".join(tokens[i:i + 9])
        if s not in toward:
            out.append("unsolvable")
            continue
        path = []
        while s != GOAL:
            letter = toward[s]
            blank = s.index("x")
            s = swap(s, blank, blank + STEP[letter])
            path.append(letter)
        out.append("".join(path))
    sys.stdout.write("".join(line + "\n" for line in out))


main()
