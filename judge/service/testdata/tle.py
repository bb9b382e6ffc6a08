# Never ends -> TLE.
while True:
    pass
