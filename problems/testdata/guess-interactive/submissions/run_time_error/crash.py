# Asks once, then crashes.
import sys

print("? 500", flush=True)
input()
sys.exit(3)
