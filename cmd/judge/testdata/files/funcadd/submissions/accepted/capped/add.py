def add(a, b):
    # {{max}} is the package's constant: 1000 here
    return min(a + b, 2 * {{max}})
