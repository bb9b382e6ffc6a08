# Sorts the wrong way round.
input()
print(*sorted(map(int, input().split()), reverse=True))
