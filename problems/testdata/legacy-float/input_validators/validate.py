"""Input validator of Circle Area: exit 42 when stdin is one integer r,
1 <= r <= 1000, on a line of its own."""
import re
import sys

text = sys.stdin.read()
if not re.fullmatch(r"[1-9][0-9]*\n", text) or not 1 <= int(text) <= 1000:
    print("want one integer r, 1 <= r <= 1000, on a line")
    sys.exit(43)
sys.exit(42)
