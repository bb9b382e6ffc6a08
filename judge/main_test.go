package judge

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/optjudge/optjudge/judge/internal/testflags"
	"github.com/optjudge/optjudge/judge/internal/testuid"
	"github.com/optjudge/optjudge/judge/sandbox"
)

// TestMain fails the package when the grading tests leave anything behind: a
// process running as one of this package's box uids, or a cgroup of this
// process. (Each grading test also checks that Grade emptied its own
// temporary directory.) Other test packages run at the same time, so the
// checks look only at what is this process's.
func TestMain(m *testing.M) {
	first, err := testuid.Range(100000, 100)
	if err != nil {
		fmt.Fprintln(os.Stderr, "box uids:", err)
		os.Exit(1)
	}
	firstBoxUID, lastBoxUID = first, first+100
	testflags.MoreParallel()
	// newJudge's Judges keep their builds here: many tests grade the
	// same programs (TestBuildCache tests the cache itself)
	if testBuildCache, err = os.MkdirTemp("", "optjudge-test-builds-"); err != nil {
		fmt.Fprintln(os.Stderr, "build cache:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(testBuildCache)
	if left := leftovers(); len(left) > 0 {
		fmt.Fprintln(os.Stderr, "left behind after the tests:\n  "+strings.Join(left, "\n  "))
		code = 1
	}
	os.Exit(code)
}

// The box uids of this package's sandboxes (set by TestMain): a range of
// 100 from 100000 that no other test process holds at the time (two runs of
// this package at once, on a shared machine), away from the default
// (60000) that other packages' tests use and from the sandbox tests' 70000
// and the service tests' 74000 to 93999.
var firstBoxUID, lastBoxUID int

// testBuildCache is newJudge's Config.BuildCache (set by TestMain).
var testBuildCache string

func leftovers() []string {
	var left []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		var st syscall.Stat_t
		// the problems' programs' boxes are sandbox.MaxBoxUIDs above
		// the contestants'
		if syscall.Stat("/proc/"+e.Name(), &st) == nil && (int(st.Uid) >= firstBoxUID && int(st.Uid) < lastBoxUID ||
			int(st.Uid) >= firstBoxUID+sandbox.MaxBoxUIDs && int(st.Uid) < lastBoxUID+sandbox.MaxBoxUIDs) {
			comm, _ := os.ReadFile("/proc/" + e.Name() + "/comm")
			left = append(left, fmt.Sprintf("process %s (%s) of box uid %d", e.Name(), strings.TrimSpace(string(comm)), st.Uid))
		}
	}
	self := strconv.Itoa(os.Getpid()) + "-"
	for _, root := range []string{"/sys/fs/cgroup", "/sys/fs/cgroup/unified", "/sys/fs/cgroup/memory", "/sys/fs/cgroup/pids"} {
		cg, _ := os.ReadDir(filepath.Join(root, "optjudge"))
		for _, e := range cg {
			if strings.HasPrefix(e.Name(), self) {
				left = append(left, "cgroup "+filepath.Join(root, "optjudge", e.Name()))
			}
		}
	}
	return left
}
