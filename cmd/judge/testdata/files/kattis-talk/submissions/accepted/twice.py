x = input(); print(x, x)
