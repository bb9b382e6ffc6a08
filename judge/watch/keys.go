package watch

import "io"

// Quit returns a channel closed when r yields q, Q, or the bytes a terminal
// in raw mode passes for Ctrl-C and Ctrl-D. The end of r closes nothing: a
// watch whose standard input is closed or empty goes on until it is
// signalled.
func Quit(r io.Reader) <-chan struct{} {
	quit := make(chan struct{})
	go func() {
		buf := make([]byte, 64)
		for {
			n, err := r.Read(buf)
			for _, c := range buf[:n] {
				switch c {
				case 'q', 'Q', 0x03, 0x04:
					close(quit)
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	return quit
}
