import re
import sys

line = sys.stdin.read()
m = re.fullmatch(r"encode ([1-9][0-9]{0,8})\n", line)
sys.exit(42 if m else 43)
