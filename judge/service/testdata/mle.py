# Touches 1 GiB, over every puzzle's 256 MiB limit -> MLE.
x = bytearray(1 << 30)
for i in range(0, len(x), 4096):
    x[i] = 1
