# Pyraminx: the tips turn on their own (a tip move changes nothing else
# and commutes with every move), so the rest is solved first, by iterative
# deepening A* with a table of the positions within 6 moves of solved
# (tips left out; 63,777 of them) as its heuristic, then each tip still
# twisted against its centre, in the order u l r b (twisted once clockwise:
# u', twice: u). The tables below are pyraminx.tws's and puzzle.yaml's:
# per cell its stickers in input order and the colours of its solved
# piece; per move where each cell's piece comes from.
import sys

BASE = ['U', 'L', 'R', 'B', 'u', 'l', 'r', 'b']
SET_OF = [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2]
MOD = [3, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2]
FACELET = [[0, 13, 18], [4, 27, 17], [8, 26, 31], [35, 22, 9], [2, 12, 19], [5, 28, 15], [7, 24, 30], [33, 21, 10], [1, 16], [3, 23], [11, 20], [6, 29], [32, 14], [34, 25]]
COLOURS = ['GRB', 'GYR', 'GBY', 'YBR', 'GRB', 'GYR', 'GBY', 'YBR', 'GR', 'GB', 'RB', 'GY', 'YR', 'YB']
# Per base move, state form: cell i receives the piece of cell PERM[m][i], its twist raised by TWIST[m][i].
PERM = [[0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 8, 11, 12, 13], [0, 1, 2, 3, 4, 5, 6, 7, 12, 9, 10, 8, 11, 13], [0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 10, 13, 12, 9], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 11, 10, 12], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]]
TWIST = [[1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0], [0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0], [0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1], [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 1], [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]

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


MOVES = [m for m in moves_list() if not m[0][0].islower()]
KEEP = [i for i in range(len(MOD)) if not SET_OF[i] == 0]


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
        # Cells 0-3 are the tips, 4-7 the centres (both U L R B).
        for v in range(4):
            t = (s[v][1] - s[4 + v][1]) % 3
            if t:
                moves.append(BASE[4 + v] + ("'" if t == 1 else ""))
        out.append(" ".join(moves))
    sys.stdout.write("".join(o + "\n" for o in out))


main()
