//go:build unix

package problems

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestLoadDirHostileTree: what would have the loaders block, read for
// ever or walk a tree without end is an error naming the file, before
// anything is read.
func TestLoadDirHostileTree(t *testing.T) {
	pkg := map[string]string{"problem.yaml": "problem_format_version: legacy\nname: x\n", "data/secret/1.in": "1\n", "data/secret/1.ans": "1\n"}
	tests := []struct {
		name  string
		setup func(dir string) error
		want  string
	}{
		{"named pipe", func(dir string) error { return syscall.Mkfifo(filepath.Join(dir, "data/secret/2.in"), 0o644) },
			"data/secret/2.in: a named pipe, not a file"},
		{"named pipe behind a link", func(dir string) error {
			if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
				return err
			}
			return os.Symlink("../../pipe", filepath.Join(dir, "data/secret/2.in"))
		}, "data/secret/2.in: a named pipe, not a file"},
		{"link to its own directory", func(dir string) error { return os.Symlink(".", filepath.Join(dir, "data/secret/loop")) },
			"data/secret/loop: a symbolic link to a directory that holds it (to .)"},
		{"link to a directory above", func(dir string) error { return os.Symlink("../..", filepath.Join(dir, "data/secret/up")) },
			"data/secret/up: a symbolic link to a directory that holds it (to ../..)"},
		{"two links to each other's directory", func(dir string) error {
			os.MkdirAll(filepath.Join(dir, "data/secret/a"), 0o755)
			os.MkdirAll(filepath.Join(dir, "data/secret/b"), 0o755)
			if err := os.Symlink("../b", filepath.Join(dir, "data/secret/a/x")); err != nil {
				return err
			}
			return os.Symlink("../a", filepath.Join(dir, "data/secret/b/y"))
		}, "a symbolic link to a directory that holds it (to ../"},
		{".timelimit out of the package", func(dir string) error { return os.Symlink("/dev/zero", filepath.Join(dir, ".timelimit")) },
			".timelimit: a symbolic link out of the package (to /dev/zero)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeTree(t, "x", pkg)
			if err := tt.setup(dir); err != nil {
				t.Skip("cannot make it here:", err)
			}
			if _, err := LoadDir(dir); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want %s", err, tt.want)
			}
		})
	}
	// a hidden file is the package's own business, wherever it leads
	dir := writeTree(t, "x", pkg)
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "data/.zero")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if _, err := LoadDir(dir); err != nil {
		t.Errorf("got %v, want a hidden link passed over", err)
	}
}

// TestCheckTreeBound: links within the package that share directories
// make a tree far larger than the package, which is an error past the
// bound (here 100: 2^10 paths through ten levels of two links each).
func TestCheckTreeBound(t *testing.T) {
	dir := writeTree(t, "x", map[string]string{"problem.yaml": "", "data/secret/d10/1.in": "1\n"})
	for i := range 10 {
		d := filepath.Join(dir, "data/secret", fmt.Sprintf("d%d", i))
		os.MkdirAll(d, 0o755)
		for _, l := range []string{"a", "b"} {
			if err := os.Symlink(fmt.Sprintf("../d%d", i+1), filepath.Join(d, l)); err != nil {
				t.Skip("no symbolic links here:", err)
			}
		}
	}
	if _, err := checkTree(dir, 100); err == nil || !strings.Contains(err.Error(), "more than 100 files and directories (its links followed)") {
		t.Errorf("got %v, want the bound", err)
	}
	if _, err := checkTree(dir, 1<<13); err != nil {
		t.Errorf("got %v, want 2^12 entries within a bound of 2^13", err)
	}
}

// TestLoadDirUnreadParts: in a part of the package that judging never
// reads, a dangling link, a link out of the package or a named pipe is a
// warning (DOMjudge's examples link problem.pdf to a build product); in a
// part it reads, an error; and a native problem.yaml that names such a
// file as a program is refused.
func TestLoadDirUnreadParts(t *testing.T) {
	pkg := map[string]string{"problem.yaml": "problem_format_version: legacy\nname: x\n", "data/secret/1.in": "1\n", "data/secret/1.ans": "1\n"}
	dir := writeTree(t, "x", pkg)
	if err := os.Symlink("build/problem.pdf", filepath.Join(dir, "problem.pdf")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	os.Mkdir(filepath.Join(dir, "extra"), 0o755)
	os.Symlink("/etc", filepath.Join(dir, "extra/etc"))
	if err := syscall.Mkfifo(filepath.Join(dir, "extra/pipe"), 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	p, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range p.Package.Warnings {
		got = append(got, w.String())
	}
	for _, want := range []string{"problem.pdf: a symbolic link to nothing", "extra/etc: a symbolic link out of the package", "extra/pipe: a named pipe, not a file"} {
		if !strings.Contains(strings.Join(got, "\n"), want) {
			t.Errorf("warnings %q: want %q", got, want)
		}
	}
	// the same in a part judging reads
	os.Symlink("nothing", filepath.Join(dir, "data/secret/2.in"))
	if _, err := LoadDir(dir); err == nil || !strings.Contains(err.Error(), "data/secret/2.in: a symbolic link to nothing") {
		t.Errorf("in data/: got %v, want an error", err)
	}
	// a native problem's program behind such a link
	native := writeTree(t, "n", map[string]string{"problem.yaml": "name: n\ntitle: N\ninput_validators: [extra/etc/hostname]\n", "testdata/secret/1.in": "1\n"})
	os.Mkdir(filepath.Join(native, "extra"), 0o755)
	os.Symlink("/etc", filepath.Join(native, "extra/etc"))
	if _, err := LoadDir(native); err == nil || !strings.Contains(err.Error(), "input_validators[0]: extra/etc/hostname: extra/etc is a file the package format forbids") {
		t.Errorf("native program: got %v, want it refused", err)
	}
}
