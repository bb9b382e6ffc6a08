//go:build !linux

package main

// windowSize cannot ask the terminal here: the display uses 24 x 80.
func windowSize(fd int) (rows, cols int) { return 0, 0 }

// keysMode leaves the terminal as it is here: q then Enter stops the watch.
func keysMode(fd int) (restore func()) { return func() {} }
