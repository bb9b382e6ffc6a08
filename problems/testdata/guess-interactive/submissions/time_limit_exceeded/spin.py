# Never asks.
while True:
    pass
