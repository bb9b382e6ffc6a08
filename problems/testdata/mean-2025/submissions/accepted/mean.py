from fractions import Fraction

n = int(input())
a = list(map(int, input().split()))
print(f"{float(Fraction(sum(a), n)):.10f}")
