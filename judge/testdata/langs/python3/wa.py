print("1 2 3")
