import sys
open(sys.argv[1] + '.in', 'w').write('2 2\n')
open(sys.argv[1] + '.ans', 'w').write('4\n')
