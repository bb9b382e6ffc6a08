op, x = input().split()
print(bin(int(x))[2:] if op == "encode" else int(x, 2) + 1)
