# Cube: iterative deepening A* over whole positions (the 20 moving
# pieces, each with its orientation), moves tried in the order of the
# statement, its heuristic a table of the positions within 4 moves of
# solved (5 beyond). The tables below are cube.tws's and puzzle.yaml's:
# per cell (edge or corner place) its stickers in input order and the
# colours of its solved piece; per quarter turn where each cell's piece
# comes from and the twist it gains.
import sys

FACES = 'URFDLB'
FACELET = [[5, 10], [7, 19], [3, 37], [1, 46], [32, 16], [28, 25], [30, 43], [34, 52], [23, 12], [21, 41], [50, 39], [48, 14], [8, 9, 20], [6, 18, 38], [0, 36, 47], [2, 45, 11], [29, 26, 15], [27, 44, 24], [33, 53, 42], [35, 17, 51]]
COLOURS = ['UR', 'UF', 'UL', 'UB', 'DR', 'DF', 'DL', 'DB', 'FR', 'FL', 'BL', 'BR', 'URF', 'UFL', 'ULB', 'UBR', 'DFR', 'DLF', 'DBL', 'DRB']
MOD = [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3]
# State form: cell i receives the piece of cell PERM[f][i], its twist raised by TWIST[f][i].
PERM = [[3, 0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 15, 12, 13, 14, 16, 17, 18, 19], [8, 1, 2, 3, 11, 5, 6, 7, 4, 9, 10, 0, 16, 13, 14, 12, 19, 17, 18, 15], [0, 9, 2, 3, 4, 8, 6, 7, 1, 5, 10, 11, 13, 17, 14, 15, 12, 16, 18, 19], [0, 1, 2, 3, 5, 6, 7, 4, 8, 9, 10, 11, 12, 13, 14, 15, 17, 18, 19, 16], [0, 1, 10, 3, 4, 5, 9, 7, 8, 2, 6, 11, 12, 14, 18, 15, 16, 13, 17, 19], [0, 1, 2, 11, 4, 5, 6, 10, 8, 9, 3, 7, 12, 13, 15, 19, 16, 17, 14, 18]]
TWIST = [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 1, 1, 0, 0, 2], [0, 1, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 2, 0, 0, 2, 1, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 2, 1, 0], [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 2, 0, 0, 2, 1]]
OPPOSITE = [3, 4, 5, 0, 1, 2]
DEPTH = 4  # the table from the solved cube reaches this far


def moves_list():
    # Per face, in order: a quarter turn (U), a half turn (U2), a quarter
    # turn back (U').
    out = []
    for f in range(6):
        p, t = PERM[f], TWIST[f]
        q, u = list(range(20)), [0] * 20
        for suffix in ['', '2', "'"]:
            q, u = [q[p[i]] for i in range(20)], [(u[p[i]] + t[i]) % MOD[i] for i in range(20)]
            out.append((FACES[f] + suffix, f, q, u))
    return out


MOVES = moves_list()


def apply(s, m):
    _, _, p, t = m
    return tuple((s[p[i]][0], (s[p[i]][1] + t[i]) % MOD[i]) for i in range(20))


def build():
    goal = tuple((i, 0) for i in range(20))
    dist = {goal: 0}
    layer = [goal]
    for d in range(1, DEPTH + 1):
        nxt = []
        for s in layer:
            for m in MOVES:
                n = apply(s, m)
                if n not in dist:
                    dist[n] = d
                    nxt.append(n)
        layer = nxt
    return dist


def solve(s, dist):
    # The table's distance, or DEPTH+1 beyond it, never overestimates.
    # Trying the moves in their order, the first sequence found at the
    # optimal length is the smallest. A face is never turned twice in a
    # row (that makes one move or none), and of two opposite faces, which
    # commute, the later in the order never comes right before the other.
    path = []

    def search(s, g, bound, last):
        h = dist.get(s, DEPTH + 1)
        if g + h > bound:
            return False
        if h == 0:
            return True
        for m in MOVES:
            f = m[1]
            if f == last or last >= 0 and OPPOSITE[f] == last and f < last:
                continue
            path.append(m[0])
            if search(apply(s, m), g + 1, bound, f):
                return True
            path.pop()
        return False

    bound = dist.get(s, DEPTH + 1)
    while not search(s, 0, bound, -1):
        bound += 1
    return path


def read(line):
    s = []
    for i in range(20):
        k = MOD[i]
        seen = [line[f] for f in FACELET[i]]
        found = None
        for j in range(20):
            if MOD[j] != k:
                continue
            for t in range(k):
                if all(seen[(t + c) % k] == COLOURS[j][c] for c in range(k)):
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
        out.append(" ".join(solve(read(line), dist)))
    sys.stdout.write("".join(o + "\n" for o in out))


main()
