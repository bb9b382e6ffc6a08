# Skewb: iterative deepening A* over whole positions, its heuristic a
# table of the positions within 6 moves of the solved skewb (71,625 of
# them). The tables below are skewb.tws's and puzzle.yaml's: per cell
# (corner or centre place) its stickers in input order and the colours of
# its solved piece; per move where each cell's piece comes from.
import sys

BASE = ['R', 'U', 'L', 'B']
SET_OF = [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2]
MOD = [3, 3, 3, 3, 3, 3, 3, 3, 1, 1, 1, 1, 1, 1]
FACELET = [[4, 5, 11], [19, 9, 28], [0, 20, 26], [15, 24, 13], [1, 25, 6], [16, 14, 8], [18, 29, 23], [3, 10, 21], [2], [7], [12], [17], [22], [27]]
COLOURS = ['WRG', 'YRB', 'WOB', 'YOG', 'WBR', 'YGR', 'YBO', 'WGO', 'W', 'R', 'G', 'Y', 'O', 'B']
# Per base move, state form: cell i receives the piece of cell PERM[m][i], its twist raised by TWIST[m][i].
PERM = [[0, 1, 2, 3, 5, 6, 4, 7, 8, 11, 10, 13, 12, 9], [0, 1, 2, 3, 6, 5, 7, 4, 13, 9, 10, 11, 8, 12], [0, 1, 2, 3, 4, 7, 5, 6, 8, 9, 12, 10, 11, 13], [0, 3, 1, 2, 4, 5, 6, 7, 8, 9, 10, 12, 13, 11]]
TWIST = [[0, 1, 0, 0, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0], [0, 0, 1, 0, 2, 0, 2, 2, 0, 0, 0, 0, 0, 0], [0, 0, 0, 1, 0, 2, 2, 2, 0, 0, 0, 0, 0, 0], [0, 2, 2, 2, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]]

DEPTH = 6  # the table from the solved puzzle reaches this far


def moves_list():
    # Each base move turned once (m) and twice (m', a third of a turn the
    # other way): cell i receives the piece of cell p[i].
    out = []
    for b in range(len(BASE)):
        p, t = PERM[b], TWIST[b]
        p2 = [p[p[i]] for i in range(len(p))]
        t2 = [(t[p[i]] + t[i]) % MOD[i] for i in range(len(p))]
        out.append((BASE[b], p, t))
        out.append((BASE[b] + "'", p2, t2))
    return out


MOVES = [m for m in moves_list() if not False]
KEEP = [i for i in range(len(MOD)) if not i == 0]


def apply(s, m):
    _, p, t = m
    return tuple((s[p[i]][0], (s[p[i]][1] + t[i]) % MOD[i]) for i in range(len(s)))


def key(s):
    return tuple(s[i] for i in KEEP)


def build():
    goal = tuple((i, 0) for i in range(len(MOD)))
    dist = {key(goal): 0}
    layer = [goal]
    for d in range(1, DEPTH + 1):
        nxt = []
        for s in layer:
            for m in MOVES:
                n = apply(s, m)
                k = key(n)
                if k not in dist:
                    dist[k] = d
                    nxt.append(n)
        layer = nxt
    return dist


def solve(s, dist):
    # Iterative deepening A*: the table's distance, or DEPTH+1 beyond it,
    # never overestimates. Trying the moves in their order, the first
    # sequence found at the optimal length is the smallest; two moves about
    # one axis in a row are never optimal (they make one move or none).
    path = []

    def search(s, g, bound, last):
        h = dist.get(key(s), DEPTH + 1)
        if g + h > bound:
            return False
        if h == 0:
            return True
        for i, m in enumerate(MOVES):
            if i // 2 == last:
                continue
            path.append(m[0])
            if search(apply(s, m), g + 1, bound, i // 2):
                return True
            path.pop()
        return False

    bound = dist.get(key(s), DEPTH + 1)
    while not search(s, 0, bound, -1):
        bound += 1
    return path


def read(line):
    s = []
    for i in range(len(MOD)):
        k = MOD[i]
        read = [line[f] for f in FACELET[i]]
        found = None
        for j in range(len(MOD)):
            if SET_OF[j] != SET_OF[i]:
                continue
            for t in range(k):
                if all(read[(t + c) % k] == COLOURS[j][c] for c in range(k)):
                    found = (j, t)
        s.append(found)
    return tuple(s)


def main():
    dist = build()
    out = []
    for line in sys.stdin.read().split("\n"):
        line = line.strip()
        if not line:
            continue
        s = read(line)
        moves = solve(s, dist)
        out.append(" ".join(moves))
    sys.stdout.write("".join(o + "\n" for o in out))


main()
