package main

func main() { return missing }
