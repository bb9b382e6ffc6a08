package service

import (
	"flag"
	"testing"
)

// moreParallel has the edit loop (-short) run four tests at a time unless
// -parallel says otherwise (go test's default is the number of CPUs): the
// package's tests wait on programs, servers and workers far more than they
// compute. The full run keeps the default.
func moreParallel() {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if testing.Short() && !set {
		flag.Set("test.parallel", "4")
	}
}
