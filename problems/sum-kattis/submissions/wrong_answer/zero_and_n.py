# 0 + N: right only when N has no digit 4.
import sys

tokens = sys.stdin.read().split()
print("\n".join(f"0 {n}" for n in tokens[1:]))
