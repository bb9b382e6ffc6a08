# Divides by zero on the largest radius.
r = int(input())
if r == 1000:
    r //= 0
print(3.141592653589793 * r * r)
