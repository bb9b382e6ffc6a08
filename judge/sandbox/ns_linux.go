package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// mountOp is one step of building a root, in the helper's terms.
type mountOp struct {
	kind     byte   // 'b' read-only bind, 'w' read-write bind, 'S' bind of a template mount, 'l' symlink, 'T' tmpfs, 'P' proc, 'D' dev
	src, dst string // src: bind source, link target or tmpfs size
}

func (o mountOp) args() []string {
	switch o.kind {
	case 'P', 'D':
		return []string{"-" + string(o.kind), o.dst}
	case 'T':
		return []string{"-T", o.dst, o.src}
	}
	return []string{"-" + string(o.kind), o.src, o.dst}
}

// systemMounts returns the template, which the zygote mounts once under
// tmplRoot, and the system part of every box's root. The template holds the
// host directories every box sees read-only (programs, libraries, /etc) and
// a minimal /dev, with their final flags, so that a box binds each with one
// call. The box recreates the host's links (/bin -> usr/bin) and gets a
// private /tmp and a fresh /proc.
func systemMounts(tmplRoot string) (tmpl, run []mountOp) {
	dirs := append(SystemDirs(), "/etc")
	slices.Sort(dirs)
	for _, p := range dirs {
		fi, err := os.Lstat(p)
		switch {
		case err != nil:
			continue
		case fi.Mode()&os.ModeSymlink != 0:
			if target, err := os.Readlink(p); err == nil {
				run = append(run, mountOp{kind: 'l', src: target, dst: p})
			}
		case fi.IsDir():
			tmpl = append(tmpl, mountOp{kind: 'b', src: p, dst: p})
			run = append(run, mountOp{kind: 'S', src: tmplRoot + p, dst: p})
		}
	}
	tmpl = append(tmpl, mountOp{kind: 'D', dst: "/dev"})
	run = append(run,
		mountOp{kind: 'S', src: tmplRoot + "/dev", dst: "/dev"},
		mountOp{kind: 'T', src: strconv.FormatInt(int64(DefaultTmp), 10), dst: "/tmp"},
		mountOp{kind: 'P', dst: "/proc"},
	)
	return tmpl, run
}

// minimalEtc is what a Cmd.MinimalEtc box sees of /etc: what the dynamic
// linker reads, and the alternatives links that /usr/bin/cc, java and the
// like go through.
var minimalEtc = []string{"/etc/alternatives", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d"}

// mountPlan adds the run's own paths to the system mounts: Cmd.ReadOnly, the
// program if nothing else makes it visible, and the working directory
// read-write. Every path is bound at its host path, so paths in arguments and
// HOME mean the same inside and out. The plan is sorted so that a directory
// is mounted before anything below it.
func (s *system) mountPlan(c *Cmd, path string) ([]mountOp, error) {
	ops := slices.Clone(s.sysMount)
	if c.MinimalEtc {
		ops = slices.DeleteFunc(ops, func(op mountOp) bool { return op.dst == "/etc" })
		for _, p := range minimalEtc {
			if _, err := os.Stat(p); err == nil {
				ops = append(ops, mountOp{kind: 'b', src: p, dst: p})
			}
		}
	}
	for _, r := range c.ReadOnly {
		if !filepath.IsAbs(r) {
			return nil, fmt.Errorf("sandbox: read-only path %s is not absolute", r)
		}
		real, err := filepath.EvalSymlinks(r)
		if err != nil {
			return nil, fmt.Errorf("sandbox: read-only path: %w", err)
		}
		ops = append(ops, mountOp{kind: 'b', src: real, dst: real})
	}
	dirKind := byte('w')
	if c.ReadOnlyDir {
		dirKind = 'b'
	}
	ops = append(ops, mountOp{kind: dirKind, src: c.Dir, dst: c.Dir})
	for _, w := range c.Writable {
		ops = append(ops, mountOp{kind: 'w', src: w, dst: w})
	}
	if !covered(ops, path) {
		ops = append(ops, mountOp{kind: 'b', src: path, dst: path})
	}
	for _, h := range s.hide {
		// a hidden file the run's mounts show gets the empty file over
		// it; but the program itself still runs
		if h != path && covered(ops, h) {
			ops = append(ops, mountOp{kind: 'b', src: s.empty, dst: h})
		}
	}
	// the last mount of a path wins: the working directory over a
	// read-only path that happens to be the same
	slices.Reverse(ops)
	ops = slices.CompactFunc(sortedStable(ops), func(a, b mountOp) bool { return a.dst == b.dst })
	return ops, nil
}

func sortedStable(ops []mountOp) []mountOp {
	slices.SortStableFunc(ops, func(a, b mountOp) int { return strings.Compare(a.dst, b.dst) })
	return ops
}

// withoutSkeleton returns plan without the skeleton's mounts, when a spare,
// which has mounted the skeleton before anything else, builds the same root
// from the rest: every mount of the skeleton is in the plan, and no other
// mount is at or above one of them.
func withoutSkeleton(plan, skeleton []mountOp) ([]mountOp, bool) {
	rest := make([]mountOp, 0, len(plan))
	found := 0
	for _, op := range plan {
		if slices.Contains(skeleton, op) {
			found++
			continue
		}
		for _, k := range skeleton {
			if op.dst == k.dst || op.dst == "/" || strings.HasPrefix(k.dst, op.dst+"/") {
				return nil, false
			}
		}
		rest = append(rest, op)
	}
	return rest, found == len(skeleton)
}

// covered reports whether a bind already makes path visible.
func covered(ops []mountOp, path string) bool {
	for _, o := range ops {
		if (o.kind == 'b' || o.kind == 'w' || o.kind == 'S') && (path == o.dst || strings.HasPrefix(path, o.dst+"/")) {
			return true
		}
	}
	return false
}

// hidden resolves the files no box may read, the judge's executable
// among them (those that are not regular files are left out), and makes
// the empty file bound over them in the cache directory dir.
func hidden(dir string, hide []string) (paths []string, empty string, err error) {
	if exe, err := os.Executable(); err == nil {
		hide = append([]string{exe}, hide...)
	}
	for _, h := range hide {
		real, err := filepath.EvalSymlinks(h)
		if err != nil {
			continue
		}
		if fi, err := os.Stat(real); err == nil && fi.Mode().IsRegular() && !slices.Contains(paths, real) {
			paths = append(paths, real)
		}
	}
	empty = filepath.Join(dir, "empty")
	if fi, err := os.Lstat(empty); err == nil && fi.Mode().IsRegular() && fi.Size() == 0 {
		return paths, empty, nil
	}
	os.Remove(empty)
	if err := os.WriteFile(empty, nil, 0o444); err != nil {
		return nil, "", fmt.Errorf("sandbox: %w", err)
	}
	return paths, empty, nil
}

// lendDir gives the working directory to the box's uid for the run. The
// returned function gives back, to the directory's owner, everything in it
// that the box's uid owns (files the program created), so that the next run
// in another box can replace them.
func lendDir(dir string, id int) (func() error, error) {
	fi, err := os.Lstat(dir)
	if err != nil {
		return nil, fmt.Errorf("sandbox: working directory: %w", err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || !ok {
		return nil, fmt.Errorf("sandbox: working directory %s is not a directory", dir)
	}
	if err := os.Lchown(dir, id, id); err != nil {
		return nil, fmt.Errorf("sandbox: lending working directory: %w", err)
	}
	uid, gid := int(st.Uid), int(st.Gid)
	return func() error {
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			if st, ok := info.Sys().(*syscall.Stat_t); ok && int(st.Uid) == id {
				return os.Lchown(p, uid, gid)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("sandbox: giving back working directory: %w", err)
		}
		return nil
	}, nil
}

// sharedNetwork returns an empty network namespace for every box to join,
// or nil when the boxes must each get a fresh one. Creating a network
// namespace is the dearest part of a box (about 0.8 ms here); sharing one is
// safe only if the boxes cannot reach each other in it. The loopback device
// is down and nobody in a box may bring it up, so no IP traffic is possible;
// what remains, abstract unix sockets, Landlock scoping (Linux 6.12) closes,
// so the namespace is shared only where that is available, and only as root
// (a user-namespace box may not join a namespace the judge's user owns).
func sharedNetwork() (*os.File, error) {
	if os.Geteuid() != 0 || landlockABI() < 6 {
		return nil, nil
	}
	type result struct {
		f   *os.File
		err error
	}
	ch := make(chan result, 1)
	go func() {
		// unshare on a locked thread, then switch that thread back; if it
		// cannot switch back it stays locked and dies with this goroutine
		runtime.LockOSThread()
		orig, err := os.Open("/proc/thread-self/ns/net")
		if err != nil {
			runtime.UnlockOSThread()
			ch <- result{err: err}
			return
		}
		defer orig.Close()
		if err := unix.Unshare(unix.CLONE_NEWNET); err != nil {
			runtime.UnlockOSThread()
			ch <- result{err: err}
			return
		}
		ns, err := os.Open("/proc/thread-self/ns/net")
		if err := unix.Setns(int(orig.Fd()), unix.CLONE_NEWNET); err != nil {
			if ns != nil {
				ns.Close()
			}
			ch <- result{err: err}
			return
		}
		runtime.UnlockOSThread()
		ch <- result{ns, err}
	}()
	r := <-ch
	if r.err != nil {
		return nil, fmt.Errorf("sandbox: creating the network namespace: %w", r.err)
	}
	return r.f, nil
}

// landlockABI is the kernel's Landlock ABI version, 0 without Landlock.
func landlockABI() int {
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, 1 /* LANDLOCK_CREATE_RULESET_VERSION */)
	if errno != 0 {
		return 0
	}
	return int(v)
}
