def merge_sort(a):
    if len(a) <= 1:
        return a
    left, right = merge_sort(a[: len(a) // 2]), merge_sort(a[len(a) // 2 :])
    out = []
    while left and right:
        out.append((left if left[0] <= right[0] else right).pop(0))
    return out + left + right
