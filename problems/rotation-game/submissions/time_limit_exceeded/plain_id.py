# Plain iterative deepening (moves A..H, no undo of the last move) without
# the heuristic: correct, but a 13-move board takes about 7^13 nodes,
# hours even on PyPy -> TLE at any limit. (The same search with the
# heuristic 8 - max centre count, IDA*, takes 15-16 s a deep board on PyPy
# here: too close to the 15 s limit to ship as an example of either kind.)
import sys

LINES = [
    (0, 2, 6, 11, 15, 20, 22), (1, 3, 8, 12, 17, 21, 23),
    (10, 9, 8, 7, 6, 5, 4), (19, 18, 17, 16, 15, 14, 13),
    (23, 21, 17, 12, 8, 3, 1), (22, 20, 15, 11, 6, 2, 0),
    (13, 14, 15, 16, 17, 18, 19), (4, 5, 6, 7, 8, 9, 10),
]
INVERSE = (5, 4, 7, 6, 1, 0, 3, 2)
CENTER = (6, 7, 8, 11, 12, 15, 16, 17)


def apply(board, m):
    line = LINES[m]
    first = board[line[0]]
    for i in range(6):
        board[line[i]] = board[line[i + 1]]
    board[line[6]] = first


def heuristic(board):
    centre = [board[c] for c in CENTER]
    return 8 - max(centre.count(1), centre.count(2), centre.count(3))


def search(board, path, bound, last):
    if heuristic(board) == 0:
        return True
    if len(path) >= bound:
        return False
    for m in range(8):
        if last >= 0 and m == INVERSE[last]:
            continue
        apply(board, m)
        path.append("ABCDEFGH"[m])
        if search(board, path, bound, m):
            return True
        path.pop()
        apply(board, INVERSE[m])
    return False


def main():
    data = sys.stdin.read().split()
    pos = 0
    out = []
    while pos < len(data) and data[pos] != "0":
        board = [int(t) for t in data[pos:pos + 24]]
        pos += 24
        if heuristic(board) == 0:
            out.append("No moves needed\n%d" % board[CENTER[0]])
            continue
        bound = 1
        path = []
        while not search(board, path, bound, -1):
            bound += 1
        # on success the moves stay applied, so the board is the final one
        out.append("%s\n%d" % ("".join(path), board[CENTER[0]]))
    print("\n".join(out))


main()
