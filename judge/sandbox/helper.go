//go:build unix

package sandbox

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
)

//go:embed _csrc
var helperSource embed.FS

// helperFiles returns the helper's source files by name, in name order.
func helperFiles() (names []string, data [][]byte) {
	ents, err := fs.ReadDir(helperSource, "_csrc")
	if err != nil {
		panic(err) // embedded: cannot fail
	}
	for _, e := range ents {
		b, err := fs.ReadFile(helperSource, "_csrc/"+e.Name())
		if err != nil {
			panic(err)
		}
		names, data = append(names, e.Name()), append(data, b)
	}
	return names, data
}

// helperKey names the compiled helper after its source, so that a new source
// is compiled once and an old binary is never used with a new judge.
func helperKey() string {
	h := sha256.New()
	names, data := helperFiles()
	for i := range names {
		fmt.Fprintf(h, "%s %d\n", names[i], len(data[i]))
		h.Write(data[i])
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// cacheDir is opts.CacheDir or, by default, os.UserCacheDir()/optjudge.
func cacheDir(opts Options) (string, error) {
	if opts.CacheDir != "" {
		return opts.CacheDir, nil
	}
	ucd, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("sandbox: no cache directory: %w", err)
	}
	return filepath.Join(ucd, "optjudge"), nil
}

// buildHelper returns the path of the compiled helper in dir, compiling it
// first if needed. The cache directory must be private to the judge's user:
// the helper runs with the judge's privileges.
func buildHelper(dir, compiler string) (string, error) {
	if compiler == "" {
		compiler = "cc"
	}
	if err := privateDir(dir); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "box-"+helperKey())
	if err := ownedExecutable(bin); err == nil {
		return bin, nil
	}
	srcDir, err := os.MkdirTemp(dir, "box-src-")
	if err != nil {
		return "", fmt.Errorf("writing helper source: %w", err)
	}
	defer os.RemoveAll(srcDir)
	var srcs []string
	names, data := helperFiles()
	for i, name := range names {
		if err := os.WriteFile(filepath.Join(srcDir, name), data[i], 0o600); err != nil {
			return "", fmt.Errorf("writing helper source: %w", err)
		}
		if strings.HasSuffix(name, ".c") {
			srcs = append(srcs, filepath.Join(srcDir, name))
		}
	}
	tmp, err := os.CreateTemp(dir, "box-*.tmp")
	if err != nil {
		return "", fmt.Errorf("compiling helper: %w", err)
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	// Static when libc.a is there: exec is cheaper and nothing is looked up
	// at run time; dynamic otherwise.
	var out bytes.Buffer
	for _, static := range []bool{true, false} {
		args := append([]string{"-O2", "-o", tmp.Name()}, srcs...)
		if static {
			args = append([]string{"-static"}, args...)
		}
		out.Reset()
		cmd := exec.Command(compiler, args...)
		cmd.Stdout, cmd.Stderr = &out, &out
		if err = cmd.Run(); err == nil {
			break
		}
	}
	if err != nil {
		return "", fmt.Errorf("compiling helper with %s: %v: %s", compiler, err, bytes.TrimSpace(out.Bytes()))
	}
	if err := os.Chmod(tmp.Name(), 0o700); err != nil {
		return "", fmt.Errorf("compiling helper: %w", err)
	}
	if err := os.Rename(tmp.Name(), bin); err != nil {
		return "", fmt.Errorf("installing helper: %w", err)
	}
	return bin, nil
}

// privateDir creates dir (mode 0700) if needed and checks that it belongs to
// the judge's user and that nobody else may write to it.
func privateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating cache directory: %w", err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("cache directory: %w", err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case !fi.IsDir():
		return fmt.Errorf("cache directory %s: not a directory", dir)
	case ok && int(st.Uid) != os.Geteuid():
		return fmt.Errorf("cache directory %s: owned by uid %d, not by the judge", dir, st.Uid)
	case fi.Mode().Perm()&0o022 != 0:
		return fmt.Errorf("cache directory %s: writable by others (mode %v)", dir, fi.Mode().Perm())
	}
	return nil
}

func ownedExecutable(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.Mode().IsRegular() || (ok && int(st.Uid) != os.Geteuid()) || fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("%s: not a private executable", path)
	}
	return nil
}
