# Rush Hour, accepted: breadth-first search from the start. A state is the
# position of each vehicle along its own line; the moves are tried in the
# order of the answers (vehicle letter, then D L R U, then distance), so
# the first state found with the red car at the exit ends the smallest of
# the shortest answers.
import sys


def main():
    rows = [sys.stdin.readline().strip() for _ in range(6)]
    cells = {}
    for r in range(6):
        for c in range(6):
            if rows[r][c] != ".":
                cells.setdefault(rows[r][c], []).append((r, c))
    names = sorted(cells)
    vs = []  # (across, line, length)
    start = []
    for v in names:
        cs = cells[v]
        across = cs[0][0] == cs[-1][0]
        vs.append((across, cs[0][0] if across else cs[0][1], len(cs)))
        start.append(cs[0][1] if across else cs[0][0])
    a = names.index("A")
    start = tuple(start)

    def occupied(st):
        occ = [[False] * 6 for _ in range(6)]
        for (across, line, length), p in zip(vs, st):
            for i in range(length):
                if across:
                    occ[line][p + i] = True
                else:
                    occ[p + i][line] = True
        return occ

    def successors(st):
        occ = occupied(st)
        out = []
        for k, (across, line, length) in enumerate(vs):
            p = st[k]
            free = (lambda x: not occ[line][x]) if across else (lambda x: not occ[x][line])
            ways = [("L", -1), ("R", 1)] if across else [("D", 1), ("U", -1)]
            for d, step in ways:
                dist, x = 0, (p - 1 if step < 0 else p + length)
                while 0 <= x < 6 and free(x):
                    dist += 1
                    nxt = list(st)
                    nxt[k] = p + step * dist
                    out.append(("%s%s%d" % (names[k], d, dist), tuple(nxt)))
                    x += step
        return out

    if start[a] == 4:
        print()
        return
    parent = {start: None}
    queue = [start]
    for st in queue:
        for name, nxt in successors(st):
            if nxt in parent:
                continue
            parent[nxt] = (st, name)
            if nxt[a] == 4:
                path = []
                while parent[nxt] is not None:
                    nxt, m = parent[nxt]
                    path.append(m)
                print(" ".join(reversed(path)))
                return
            queue.append(nxt)
    print("impossible")


main()
