#!/usr/bin/env python2
import sys
sys.stdout.write("1 2 3\n")
