def pair(seed):
    return seed % 1000, seed // 1000 % 1000
