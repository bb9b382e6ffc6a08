# Right, in O(n^2): not graded, its folder is of no format version.
input()
a = list(map(int, input().split()))
for i in range(len(a)):
    for j in range(len(a) - 1 - i):
        if a[j] > a[j + 1]:
            a[j], a[j + 1] = a[j + 1], a[j]
print(*a)
