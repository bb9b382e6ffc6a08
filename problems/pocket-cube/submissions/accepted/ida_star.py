# Pocket cube: iterative deepening A* over two coordinates (where the seven
# moving corners are, 7! ways; how they are twisted, 3^6 ways), with move
# tables and the larger of the two coordinates' distances as the heuristic.
# Moves are tried in the order U U2 U' R R2 R' F F2 F', never two turns of
# one face in a row, so the first answer at the optimal depth is the
# smallest.
import sys

# Corners URF UFL ULB UBR DFR DLF DBL DRB; each one's facelets (0..23: U, R,
# F, D, L, B, four a face) in clockwise order, U or D first.
FACELET = [(3, 4, 9), (2, 8, 17), (0, 16, 21), (1, 20, 5),
           (13, 11, 6), (12, 19, 10), (14, 23, 18), (15, 7, 22)]
COLOUR = ["URF", "UFL", "ULB", "UBR", "DFR", "DLF", "DBL", "DRB"]
NAMES = ["U", "U2", "U'", "R", "R2", "R'", "F", "F2", "F'"]
CYCLE = [(0, 1, 2, 3), (4, 0, 3, 7), (1, 0, 4, 5)]
TWIST = [(0,) * 8, (2, 0, 0, 1, 1, 0, 0, 2), (1, 2, 0, 0, 2, 1, 0, 0)]
MOVING = [0, 1, 2, 3, 4, 5, 7]  # DBL (6) never moves


def turn(piece, ori, face, times):
    for _ in range(times):
        p, o = piece[:], ori[:]
        cyc = CYCLE[face]
        for i in range(4):
            a, b = cyc[i], cyc[(i + 1) % 4]
            p[b] = piece[a]
            o[b] = (ori[a] + TWIST[face][b]) % 3
        piece, ori = p, o
    return piece, ori


def perm_index(piece):
    r = 0
    for i in range(7):
        smaller = sum(1 for j in range(i + 1, 7) if piece[MOVING[j]] < piece[MOVING[i]])
        r = r * (7 - i) + smaller
    return r


def ori_index(ori):
    r = 0
    for i in range(6):
        r = r * 3 + ori[MOVING[i]]
    return r


def from_perm(index):
    digits = [0] * 7
    for i in range(6, -1, -1):
        digits[i] = index % (7 - i)
        index //= 7 - i
    left = [0, 1, 2, 3, 4, 5, 7]
    piece = [6] * 8
    for i in range(7):
        piece[MOVING[i]] = left.pop(digits[i])
    return piece


def from_ori(index):
    ori = [0] * 8
    total = 0
    for i in range(5, -1, -1):
        ori[MOVING[i]] = index % 3
        total += index % 3
        index //= 3
    ori[7] = (3 - total % 3) % 3
    return ori


def distances(n, table):
    dist = [-1] * n
    dist[0] = 0
    frontier = [0]
    d = 0
    while frontier:
        nxt = []
        for s in frontier:
            for t in table[s]:
                if dist[t] < 0:
                    dist[t] = d + 1
                    nxt.append(t)
        frontier = nxt
        d += 1
    return dist


def main():
    zero = [0] * 8
    ident = list(range(8))
    perm_move = [[perm_index(turn(from_perm(p), zero, m // 3, m % 3 + 1)[0]) for m in range(9)] for p in range(5040)]
    ori_move = [[ori_index(turn(ident, from_ori(o), m // 3, m % 3 + 1)[1]) for m in range(9)] for o in range(729)]
    perm_dist = distances(5040, perm_move)
    ori_dist = distances(729, ori_move)
    path = []

    def dfs(p, o, g, bound, last):
        h = max(perm_dist[p], ori_dist[o])
        if g + h > bound:
            return g + h
        if h == 0:
            return -1
        best = 1 << 30
        for m in range(9):
            if m // 3 == last:
                continue
            path.append(m)
            r = dfs(perm_move[p][m], ori_move[o][m], g + 1, bound, m // 3)
            if r < 0:
                return -1
            path.pop()
            best = min(best, r)
        return best

    out = []
    for line in sys.stdin:
        line = line.strip()
        if len(line) < 24:
            continue
        piece, ori = [0] * 8, [0] * 8
        for place in range(8):
            got = [line[f] for f in FACELET[place]]
            for p in range(8):
                for o in range(3):
                    if all(got[(j + o) % 3] == COLOUR[p][j] for j in range(3)):
                        piece[place], ori[place] = p, o
        p, o = perm_index(piece), ori_index(ori)
        bound = max(perm_dist[p], ori_dist[o])
        del path[:]
        while True:
            r = dfs(p, o, 0, bound, -1)
            if r < 0:
                break
            bound = r
        out.append(" ".join(NAMES[m] for m in path))
    sys.stdout.write("\n".join(out) + ("\n" if out else ""))


main()
