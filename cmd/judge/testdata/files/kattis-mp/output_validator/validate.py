# input_file answer_file feedback_dir/ < the pass's output
#
# Pass 1 keeps the number in the feedback directory, which lasts from pass
# to pass; pass 2 compares the decoded number with it (the answer file is
# for people).
import sys

inp, ans, feedback = sys.argv[1:4]
words = open(inp).read().split()
got = sys.stdin.read().split()


def say(msg):
    with open(feedback + "judgemessage.txt", "a") as f:
        f.write(msg + "\n")


if words[0] == "encode":
    if len(got) != 1 or not set(got[0]) <= set("01"):
        say("pass 1: want one binary number, got %r" % " ".join(got)[:40])
        sys.exit(43)
    say("pass 1: encoded as " + got[0])
    with open(feedback + "number.txt", "w") as f:
        f.write(words[1])
    with open(feedback + "nextpass.in", "w") as f:
        f.write("decode " + got[0] + "\n")
    sys.exit(42)
want = open(feedback + "number.txt").read()
if got != [want]:
    say("pass 2: got %r, want %s" % (" ".join(got)[:40], want))
    sys.exit(43)
say("pass 2: decoded " + want)
sys.exit(42)
