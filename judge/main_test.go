package judge

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestMain fails the package when the grading tests leave anything behind:
// a process running as a box uid, a cgroup of this process, or a build or
// working directory in the system's temporary directory.
func TestMain(m *testing.M) {
	before := ourTempDirs()
	code := m.Run()
	if left := leftovers(before); len(left) > 0 {
		fmt.Fprintln(os.Stderr, "left behind after the tests:\n  "+strings.Join(left, "\n  "))
		code = 1
	}
	os.Exit(code)
}

// boxUIDs is the range the sandbox's boxes run as by default.
const firstBoxUID, lastBoxUID = 60000, 61000

func leftovers(tempBefore map[string]bool) []string {
	var left []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		var st syscall.Stat_t
		if syscall.Stat("/proc/"+e.Name(), &st) == nil && st.Uid >= firstBoxUID && st.Uid < lastBoxUID {
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
	for d := range ourTempDirs() {
		if !tempBefore[d] {
			left = append(left, "directory "+d)
		}
	}
	return left
}

// ourTempDirs lists the build and working directories in the system's
// temporary directory.
func ourTempDirs() map[string]bool {
	dirs := map[string]bool{}
	for _, pat := range []string{"optjudge-build-*", "optjudge-run-*"} {
		m, _ := filepath.Glob(filepath.Join(os.TempDir(), pat))
		for _, d := range m {
			dirs[d] = true
		}
	}
	return dirs
}
