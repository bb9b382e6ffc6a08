package judge

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// chmodDir changes the mode of the directory at p, never through a link
// (one put in a directory's place since a walk saw it): the directory is
// opened without following links, even without the right to read it
// (O_PATH), and changed through its descriptor's /proc entry.
func chmodDir(p string, mode os.FileMode) {
	fd, err := unix.Open(p, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	defer unix.Close(fd)
	os.Chmod("/proc/self/fd/"+strconv.Itoa(fd), mode)
}
