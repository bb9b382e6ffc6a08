#!/usr/bin/env python2
raise SystemExit(3)
