puts "1 2 3"
