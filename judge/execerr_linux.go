package judge

import "syscall"

// badELF reports the errno of an exec whose ELF interpreter is not one.
func badELF(errno syscall.Errno) bool { return errno == syscall.ELIBBAD }
