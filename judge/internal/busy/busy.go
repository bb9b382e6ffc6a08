// Package busy makes a machine busy for the tests whose verdicts must hold
// on a loaded machine: loops that compete with the test for the CPUs and
// the caches, as /work/shared/tools/under-load's do.
package busy

import "sync"

// Loops starts n goroutines that spin and walk 64 MiB each (a page fault
// and a cache miss at every step, as a busy neighbour costs); stop ends
// them and waits for them.
func Loops(n int) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 64<<20)
			for i, step := 0, 0; ; step++ {
				buf[i]++
				i = (i + 4096*7 + 1) % len(buf)
				if step%1024 == 0 {
					select {
					case <-done:
						return
					default:
					}
				}
			}
		}()
	}
	return func() {
		close(done)
		wg.Wait()
	}
}
