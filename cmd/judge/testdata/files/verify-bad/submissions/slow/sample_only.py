print('4 5 8 9')
