import sys
seed, n = int(sys.argv[1]), int(sys.argv[2])
print(seed % (n + 1), seed // 7 % (n + 1))
