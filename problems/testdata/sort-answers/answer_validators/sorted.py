"""Answer validator of Sort (BAPCtools protocol):

    sorted.py input_file [args] < answer

Exit 42 when the answer is the input's numbers, sorted, on one line."""
import sys

with open(sys.argv[1]) as f:
    n = int(f.readline())
    numbers = sorted(map(int, f.readline().split()))
answer = sys.stdin.read()
if answer != " ".join(map(str, numbers)) + "\n":
    print("the answer is not the input sorted, on one line")
    sys.exit(43)
sys.exit(42)
