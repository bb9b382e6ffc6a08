# Pancakes: iterative deepening A* with the gap heuristic (Helmert 2010):
# every pair of neighbours that are not consecutive sizes, the plate under
# the stack counting as size n+1, needs a flip between them. Flips are tried
# from 2 up and never the same twice in a row, so the first answer at the
# optimal depth is the smallest.
import sys


def solve(stack):
    n = len(stack)
    s = stack + [n + 1]
    path = []

    def gaps():
        return sum(1 for i in range(n) if abs(s[i] - s[i + 1]) != 1)

    def dfs(g, bound, last):
        h = gaps()
        if g + h > bound:
            return g + h
        if h == 0:
            return -1
        best = 1 << 30
        for k in range(2, n + 1):
            if k == last:
                continue
            s[:k] = s[k - 1::-1]
            path.append(k)
            r = dfs(g + 1, bound, k)
            if r < 0:
                return -1
            path.pop()
            s[:k] = s[k - 1::-1]
            best = min(best, r)
        return best

    bound = gaps()
    while True:
        r = dfs(0, bound, 0)
        if r < 0:
            return path
        bound = r


def main():
    out = []
    for line in sys.stdin:
        t = line.split()
        if not t:
            continue
        out.append(" ".join(map(str, solve([int(x) for x in t[1:]]))))
    sys.stdout.write("".join(x + "\n" for x in out))


main()
