from merge import merge_sort

input()
print(*merge_sort(list(map(int, input().split()))))
