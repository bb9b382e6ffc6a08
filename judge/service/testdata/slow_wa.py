# Sleeps 4 s, then prints a wrong answer -> WA (eight-puzzle's wall limit is 13 s).
import time
time.sleep(4)
print("X")
