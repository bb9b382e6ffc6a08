# A submission of several files: the Kattis format starts it from __main__.py.
from clocks import solve

solve.main()
