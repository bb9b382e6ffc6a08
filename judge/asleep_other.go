//go:build !linux

package judge

import "github.com/optjudge/optjudge/bytesize"

// memoryTotal is the machine's memory: unknown here, so no run is lent.
func memoryTotal() bytesize.Size { return 0 }
