// Package testflags sets go test's flags for the engine's test packages
// from their TestMain.
package testflags

import (
	"flag"
	"testing"
)

// MoreParallel has the edit loop (-short) run four tests at a time unless
// -parallel says otherwise (go test's default is the number of CPUs): the
// tests of the packages that call it wait on programs, servers and workers
// far more than they compute. The full run keeps the default. Call it from
// TestMain, before m.Run.
func MoreParallel() {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if testing.Short() && !set {
		flag.Set("test.parallel", "4")
	}
}
