import sys

a, b = map(int, sys.stdin.read().split())
sys.exit(42 if 0 <= a <= {{max}} and 0 <= b <= {{max}} else 43)
