# pi is not 3.14.
r = int(input())
print(f"{3.14 * r * r:.6f}")
