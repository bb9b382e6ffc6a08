# Klotski, too slow: iterative deepening over move sequences with no
# memory of the positions seen. The classic start needs 90 moves, at some
# five moves a step: 5^90 nodes, and a board with no way out is searched
# forever.
import sys

DIRS = [("D", 1, 0), ("L", 0, -1), ("R", 0, 1), ("U", -1, 0)]


def successors(b):
    for p in sorted(set(b) - {"."}):
        cells = [i for i in range(20) if b[i] == p]
        for d, dr, dc in DIRS:
            cur = cells
            for dist in (1, 2):
                moved = []
                for i in cur:
                    r, c = i // 4 + dr, i % 4 + dc
                    if not (0 <= r < 5 and 0 <= c < 4) or b[r * 4 + c] not in (".", p):
                        moved = None
                        break
                    moved.append(r * 4 + c)
                if moved is None:
                    break
                nb = list(b)
                for i in cells:
                    nb[i] = "."
                for i in moved:
                    nb[i] = p
                yield "%s%s%d" % (p, d, dist), "".join(nb)
                cur = moved


def dfs(b, depth, path):
    if b[13] == b[14] == b[17] == b[18] != ".":
        return True
    if depth == 0:
        return False
    for name, nb in successors(b):
        path.append(name)
        if dfs(nb, depth - 1, path):
            return True
        path.pop()
    return False


def main():
    start = "".join(sys.stdin.readline().strip() for _ in range(5))
    depth = 0
    path = []
    while not dfs(start, depth, path):
        depth += 1
    print(" ".join(path))


main()
