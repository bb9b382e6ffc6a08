# Right moves from the distance table, but line 2 prints the smallest digit that can be finished in the best length, not the digit the printed sequence finishes -> WA on ties.
import sys
from array import array

LINES = [
    (0, 2, 6, 11, 15, 20, 22), (1, 3, 8, 12, 17, 21, 23),
    (10, 9, 8, 7, 6, 5, 4), (19, 18, 17, 16, 15, 14, 13),
    (23, 21, 17, 12, 8, 3, 1), (22, 20, 15, 11, 6, 2, 0),
    (13, 14, 15, 16, 17, 18, 19), (4, 5, 6, 7, 8, 9, 10),
]
CENTER = (6, 7, 8, 11, 12, 15, 16, 17)
UNSEEN = 255


def move_shifts(line):
    """Move as a bit permutation: {shift: mask of source bits moving by that shift}."""
    groups = {}
    for i in range(7):
        src, dst = line[(i + 1) % 7], line[i]
        groups[dst - src] = groups.get(dst - src, 0) | 1 << src
    groups[0] = groups.get(0, 0) | ((1 << 24) - 1) & ~sum(1 << c for c in line)
    return sorted(groups.items())


MOVES = [move_shifts(line) for line in LINES]


def apply(shifts, x):
    out = 0
    for k, mask in shifts:
        part = x & mask
        out |= part << k if k >= 0 else part >> -k
    return out


def apply_all(shifts, packed, count):
    """Apply one move to every 32-bit slot of a packed level at once."""
    x = int.from_bytes(packed, sys.byteorder)
    ones = int.from_bytes((1).to_bytes(4, sys.byteorder) * count, sys.byteorder)
    out = 0
    for k, mask in shifts:
        part = x & (mask * ones)
        out |= part << k if k >= 0 else part >> -k
    return out.to_bytes(4 * count, sys.byteorder)


def distance_table():
    goal = sum(1 << c for c in CENTER)
    dist = bytearray([UNSEEN]) * (1 << 24)
    dist[goal] = 0
    prev, frontier = set(), {goal}
    depth = 0
    while frontier:
        depth += 1
        packed = array("I", frontier).tobytes()
        nxt = set()
        for shifts in MOVES:
            nxt.update(memoryview(apply_all(shifts, packed, len(frontier))).cast("I"))
        # moves come in inverse pairs: neighbours of a level are in the levels next to it
        nxt -= frontier
        nxt -= prev
        for s in nxt:
            dist[s] = depth
        prev, frontier = frontier, nxt
    return dist


def main():
    data = sys.stdin.read().split()
    boards = []
    pos = 0
    while pos < len(data) and data[pos] != "0":
        boards.append([int(t) for t in data[pos:pos + 24]])
        pos += 24

    dist = distance_table()
    out = []
    for board in boards:
        masks = {d: 0 for d in (1, 2, 3)}
        for c, d in enumerate(board):
            masks[d] |= 1 << c
        best = min(dist[m] for m in masks.values())
        if best == 0:
            out.append("No moves needed")
            out.append(str(board[CENTER[0]]))
            continue
        alive = {d: m for d, m in masks.items() if dist[m] == best}
        digit = min(alive)
        letters = []
        for left in range(best, 0, -1):
            for letter, shifts in zip("ABCDEFGH", MOVES):
                moved = {d: apply(shifts, m) for d, m in alive.items()}
                keep = {d: m for d, m in moved.items() if dist[m] == left - 1}
                if keep:
                    letters.append(letter)
                    alive = keep
                    break
        out.append("".join(letters))
        out.append(str(digit))
    sys.stdout.write("".join(line + "\n" for line in out))


main()
