raise SystemExit("the entry is __main__.py, not this")
