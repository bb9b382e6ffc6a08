op, x = input().split()
if op != "encode":
    raise SystemExit("cannot decode " + x)
print(bin(int(x))[2:])
