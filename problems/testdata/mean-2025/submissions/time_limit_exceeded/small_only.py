# Right on small inputs; on the large ones it never ends.
n = int(input())
a = list(map(int, input().split()))
if max(abs(x) for x in a) > 1000:
    while True:
        pass
print(f"{sum(a) / n:.10f}")
