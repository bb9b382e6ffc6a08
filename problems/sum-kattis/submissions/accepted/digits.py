# Every digit 4 of N becomes 1 in A and 3 in B; every other digit goes to B.
import sys

tokens = sys.stdin.read().split()
out = []
for n in tokens[1:]:
    a = int("".join("1" if c == "4" else "0" for c in n))
    b = int("".join("3" if c == "4" else c for c in n))
    out.append(f"{a} {b}")
print("\n".join(out))
