import random
import sys

random.seed(int(sys.argv[1]))
print("encode", random.randint(1, 10**9))
