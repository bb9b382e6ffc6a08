# the driver: the submission is the module add (add.py)
from add import add

a, b = map(int, input().split())
print({{base}} + add(a, b))
