// Package testuid gives a test process a range of box uids that no other
// test process of the machine holds at the same time, so that its checks
// for processes left running as its box uids never see another's boxes
// (test binaries of several packages, and of several checkouts, run at
// once on a shared machine).
package testuid

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// held keeps the lock of the range for the life of the process.
var held *os.File

// Range returns the first uid of a range of size uids from base upward,
// base + k*size for the least k no other live process holds, and holds it
// (a lock file in the temporary directory, released when the process
// ends).
func Range(base, size int) (int, error) {
	dir := filepath.Join(os.TempDir(), "optjudge-test-uids")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	for k := range 1000 {
		first := base + k*size
		f, err := os.OpenFile(filepath.Join(dir, strconv.Itoa(first)+".lock"), os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return 0, err
		}
		if unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) == nil {
			held = f
			return first, nil
		}
		f.Close()
	}
	return 0, fmt.Errorf("no free range of %d box uids from %d", size, base)
}
