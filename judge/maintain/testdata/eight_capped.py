# Eight-puzzle by a breadth-first search from the goal that stops at 12 moves:
# right up to 12 moves, "unsolvable" for every board farther (wrong).
import sys

CAP = 12
GOAL = "12345678x"
STEP = {"u": -3, "d": 3, "l": -1, "r": 1}
UNDO = {"u": "d", "d": "u", "l": "r", "r": "l"}


def moves(s):
    b = s.index("x")
    for m, d in STEP.items():
        if m == "l" and b % 3 == 0 or m == "r" and b % 3 == 2 or not 0 <= b + d < 9:
            continue
        t = list(s)
        t[b], t[b + d] = t[b + d], t[b]
        yield m, "".join(t)


# back[s] is the move that takes s one step closer to the goal.
back = {GOAL: ""}
frontier = [GOAL]
for _ in range(CAP):
    nxt = []
    for s in frontier:
        for m, t in moves(s):
            if t not in back:
                back[t] = UNDO[m]
                nxt.append(t)
    frontier = nxt

out = []
for line in sys.stdin:
    s = "".join(line.split())
    path = []
    if s not in back:
        out.append("unsolvable")
        continue
    while s != GOAL:
        m = back[s]
        path.append(m)
        s = dict(moves(s))[m]
    out.append("".join(path))
print("\n".join(out))
