# Asks 1, 2, 3, ...: more than 10 questions unless x is small.
g = 1
while True:
    print("?", g, flush=True)
    try:
        if input() == "found":
            break
    except EOFError:  # the judge gave up on it
        break
    g += 1
