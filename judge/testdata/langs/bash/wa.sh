echo 1 2 3
