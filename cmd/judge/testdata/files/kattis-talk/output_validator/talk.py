import sys

x = open(sys.argv[1]).read().strip()
print(x, flush=True)
got = sys.stdin.read().split()
if got == [x, x]:
    sys.exit(42)
with open(sys.argv[3] + "judgemessage.txt", "w") as f:
    f.write("said %s, want %s %s\n" % (" ".join(got) or "nothing", x, x))
sys.exit(43)
