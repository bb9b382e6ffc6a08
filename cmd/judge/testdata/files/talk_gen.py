import sys, random
print(random.Random(int(sys.argv[1])).randint(1, 99))
