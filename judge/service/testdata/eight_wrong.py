# Moves the blank left twice on every board: legal moves that solve nothing -> WA.
import sys

for line in sys.stdin:
    if line.strip():
        print("ll")
