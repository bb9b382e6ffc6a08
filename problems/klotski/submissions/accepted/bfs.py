# Klotski, accepted: breadth-first search from the start, the moves tried
# in the order of the answers (piece letter, then D L R U, then distance).
# Positions that differ only by which letters the pieces of one shape carry
# are one position (its letters renamed in order of first appearance): what
# matters is where the shapes are. The first position found with Cao Cao at
# the exit ends the smallest of the shortest answers.
import sys

DIRS = [("D", 1, 0), ("L", 0, -1), ("R", 0, 1), ("U", -1, 0)]


def key(b):
    names = {".": "."}
    return "".join(names.setdefault(x, chr(97 + len(names))) for x in b)


def successors(b):
    out = []
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
                out.append(("%s%s%d" % (p, d, dist), "".join(nb)))
                cur = moved
    return out


def solved(b):
    return b[13] == b[14] == b[17] == b[18] != "."


def main():
    start = "".join(sys.stdin.readline().strip() for _ in range(5))
    if solved(start):
        print()
        return
    parent = {key(start): None}
    queue = [start]
    for b in queue:
        for name, nb in successors(b):
            k = key(nb)
            if k in parent:
                continue
            parent[k] = (b, name)
            if solved(nb):
                path = []
                while parent[key(nb)] is not None:
                    nb, m = parent[key(nb)]
                    path.append(m)
                print(" ".join(reversed(path)))
                return
            queue.append(nb)
    print("impossible")


main()
