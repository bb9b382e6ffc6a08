x = int(input())
assert x < 100, "too big"
print(x)
