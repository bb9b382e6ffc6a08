package main

func main() { panic("broken") }
