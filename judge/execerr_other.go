//go:build !linux

package judge

import "syscall"

// badELF: only Linux has ELIBBAD.
func badELF(syscall.Errno) bool { return false }
