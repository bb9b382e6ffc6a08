package main

import "golang.org/x/sys/unix"

// windowSize asks the terminal fd for its rows and columns; zeros when it
// cannot tell.
func windowSize(fd int) (rows, cols int) {
	ws, err := unix.IoctlGetWinsize(fd, unix.TIOCGWINSZ)
	if err != nil {
		return 0, 0
	}
	return int(ws.Row), int(ws.Col)
}

// keysMode turns off line editing and echo on the terminal fd, so that q
// arrives without Enter, and returns what restores the terminal. Signals
// stay on: Ctrl-C still interrupts.
func keysMode(fd int) (restore func()) {
	old, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return func() {}
	}
	raw := *old
	raw.Lflag &^= unix.ICANON | unix.ECHO
	raw.Cc[unix.VMIN], raw.Cc[unix.VTIME] = 1, 0
	if err := unix.IoctlSetTermios(fd, unix.TCSETS, &raw); err != nil {
		return func() {}
	}
	return func() { unix.IoctlSetTermios(fd, unix.TCSETS, old) }
}
