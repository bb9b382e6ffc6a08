//go:build !linux

package judge

import "os"

// chmodDir changes the mode of the directory at p, but a link's.
func chmodDir(p string, mode os.FileMode) {
	if fi, err := os.Lstat(p); err == nil && fi.IsDir() {
		os.Chmod(p, mode)
	}
}
