"""Input validator of Split the Sum (Kattis protocol): the input on stdin,
exit code 42 when it is valid, 43 with a message on stdout when it is not."""
import re
import sys


def invalid(msg):
    print(msg)
    sys.exit(43)


def main():
    data = sys.stdin.buffer.read()
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        invalid("the input is not ASCII")
    if not text.endswith("\n"):
        invalid("the last line does not end with a newline")
    lines = text[:-1].split("\n")
    if not re.fullmatch(r"[1-9][0-9]*", lines[0]) or not 1 <= int(lines[0]) <= 100:
        invalid(f"line 1: want T, 1 <= T <= 100, got {lines[0]!r}")
    t = int(lines[0])
    if len(lines) != t + 1:
        invalid(f"want {t} cases after line 1, got {len(lines) - 1} lines")
    for i, line in enumerate(lines[1:], 2):
        if not re.fullmatch(r"0|[1-9][0-9]{0,18}", line) or int(line) > 10**18:
            invalid(f"line {i}: want N, 0 <= N <= 10^18, got {line!r}")
    sys.exit(42)


main()
