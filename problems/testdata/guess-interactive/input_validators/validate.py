"""Input validator of Hidden Number: one integer 1..1000 on a line."""
import re
import sys

text = sys.stdin.read()
sys.exit(42 if re.fullmatch(r"[1-9][0-9]*\n", text) and int(text) <= 1000 else 43)
