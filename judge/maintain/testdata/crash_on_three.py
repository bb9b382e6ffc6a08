# Crashes when the input holds three boards or more; prints nothing (wrong)
# for fewer. Only an input of at least three cases fails with RE.
import sys

if len(sys.stdin.read().splitlines()) >= 3:
    sys.exit(3)
