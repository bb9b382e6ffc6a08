def main(
  puts 1
