print("1")
