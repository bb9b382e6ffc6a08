package judge

import (
	"golang.org/x/sys/unix"

	"github.com/optjudge/optjudge/bytesize"
)

// memoryTotal is the machine's memory, 0 if unknown.
func memoryTotal() bytesize.Size {
	var si unix.Sysinfo_t
	if unix.Sysinfo(&si) != nil {
		return 0
	}
	return bytesize.Size(uint64(si.Totalram) * uint64(si.Unit))
}
