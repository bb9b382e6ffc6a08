import sys
sys.exit('no luck with ' + sys.argv[1])
