"""Input validator of Sort: n on a line, then n integers 0..10^6 on one
line. Exit 42 when valid."""
import re
import sys

text = sys.stdin.read()
m = re.fullmatch(r"([1-9][0-9]*)\n((?:0|[1-9][0-9]*)(?: (?:0|[1-9][0-9]*))*)\n", text)
ok = m is not None and 1 <= int(m.group(1)) <= 1000
if ok:
    a = [int(x) for x in m.group(2).split()]
    ok = len(a) == int(m.group(1)) and all(x <= 10**6 for x in a)
sys.exit(42 if ok else 43)
