//go:build unix

package sandbox

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"

	_ "embed"
)

//go:embed _csrc/box.c
var helperSource []byte

// helperKey names the compiled helper after its source, so that a new source
// is compiled once and an old binary is never used with a new judge.
func helperKey() string {
	sum := sha256.Sum256(helperSource)
	return hex.EncodeToString(sum[:8])
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
	src := filepath.Join(dir, "box-"+helperKey()+".c")
	if err := os.WriteFile(src, helperSource, 0o600); err != nil {
		return "", fmt.Errorf("writing helper source: %w", err)
	}
	defer os.Remove(src)
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
		args := []string{"-O2", "-o", tmp.Name(), src}
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
