import sys
args = sys.argv[1:]
most = int(args[args.index("--max") + 1]) if "--max" in args else 10**6
s = sys.stdin.read()
try:
    a, b = map(int, s.split())
    ok = s == "%d %d\n" % (a, b) and 0 <= a <= most and 0 <= b <= most
except ValueError:
    ok = False
sys.exit(42 if ok else 43)
