"""Input validator of Mean: the input on stdin, exit 42 when it is valid.
--max-n N and --max-a A bound n and |a_i| (the groups pass their own)."""
import re
import sys


def invalid(msg):
    print(msg)
    sys.exit(43)


def main():
    args = sys.argv[1:]
    bounds = {"--max-n": 10**5, "--max-a": 10**9}
    while args:
        if len(args) < 2 or args[0] not in bounds:
            invalid(f"usage: validate.py [--max-n N] [--max-a A], got {sys.argv[1:]}")
        bounds[args[0]] = int(args[1])
        args = args[2:]
    text = sys.stdin.read()
    m = re.fullmatch(r"([1-9][0-9]*)\n(\S+(?: \S+)*)\n", text)
    if not m:
        invalid("want n on a line, then the numbers on one line, separated by single spaces")
    n, tokens = int(m.group(1)), m.group(2).split(" ")
    if not 1 <= n <= bounds["--max-n"]:
        invalid(f"n = {n} is out of range 1-{bounds['--max-n']}")
    if len(tokens) != n:
        invalid(f"want {n} numbers, got {len(tokens)}")
    for t in tokens:
        if not re.fullmatch(r"0|-?[1-9][0-9]*", t) or abs(int(t)) > bounds["--max-a"]:
            invalid(f"{t!r}: want an integer of absolute value at most {bounds['--max-a']}")
    sys.exit(42)


main()
