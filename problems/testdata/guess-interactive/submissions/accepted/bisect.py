lo, hi = 1, 1000
while True:
    g = (lo + hi) // 2
    print("?", g, flush=True)
    answer = input()
    if answer == "found":
        break
    if answer == "less":
        hi = g - 1
    else:
        lo = g + 1
