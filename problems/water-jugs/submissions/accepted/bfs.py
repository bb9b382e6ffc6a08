# Water jugs, accepted: breadth-first search from the start, the moves in
# the order F1 F2 F3 E1 E2 E3 P12 P13 P21 P23 P31 P32; the first state
# found holding the target ends the smallest of the shortest answers.
import sys


def moves(k):
    ms = [("F%d" % (i + 1), "F", i, 0) for i in range(k)]
    ms += [("E%d" % (i + 1), "E", i, 0) for i in range(k)]
    ms += [("P%d%d" % (i + 1, j + 1), "P", i, j) for i in range(k) for j in range(k) if i != j]
    return ms


def step(m, a, cap):
    _, kind, i, j = m
    b = list(a)
    if kind == "F":
        if a[i] == cap[i]:
            return None
        b[i] = cap[i]
    elif kind == "E":
        if a[i] == 0:
            return None
        b[i] = 0
    else:
        t = min(a[i], cap[j] - a[j])
        if t == 0:
            return None
        b[i] -= t
        b[j] += t
    return tuple(b)


def solve(k, cap, start, target):
    if target in start:
        return "-"
    ms = moves(k)
    parent = {start: None}
    queue = [start]
    for a in queue:
        for m in ms:
            b = step(m, a, cap)
            if b is None or b in parent:
                continue
            parent[b] = (a, m[0])
            if target in b:
                path = []
                while parent[b] is not None:
                    b, name = parent[b]
                    path.append(name)
                return " ".join(reversed(path))
            queue.append(b)
    return "impossible"


def main():
    out = []
    for line in sys.stdin:
        v = list(map(int, line.split()))
        k = v[0]
        out.append(solve(k, v[1:k + 1], tuple(v[k + 1:2 * k + 1]), v[2 * k + 1]))
    print("\n".join(out))


main()
