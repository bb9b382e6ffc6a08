package service

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/optjudge/optjudge/bytesize"
)

// UnpackLimits bound what a problem package may unpack to, against
// archive bombs.
type UnpackLimits struct {
	Files int           // files and directories
	File  bytesize.Size // one file
	Total bytesize.Size // every file added up
}

// DefaultUnpackLimits fit the largest problem packages of the ICPC
// archives with room to spare.
var DefaultUnpackLimits = UnpackLimits{Files: 10000, File: 128 * bytesize.MiB, Total: 512 * bytesize.MiB}

var (
	hashRE    = regexp.MustCompile(`^[0-9a-f]{64}$`)
	dirNameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)
)

// Unpack unpacks a problem package, a .zip or a .tar.gz of the problem
// directory (told apart by their first bytes), into dst, and returns the
// name of the directory it made there: the archive's one top-level
// directory, or "problem" when the files lie at its root. Regular files
// and directories are taken, and links (symbolic or hard) to a file or a
// directory of the package, as judge verify takes a package's links
// (problemtools' own examples link test files): each becomes a copy of
// what it names. A path that is absolute, climbs out with "..", or
// repeats, a link that leads out of the package or to nothing, a device,
// or a package past lim is an error.
func Unpack(data []byte, dst string, lim UnpackLimits) (string, error) {
	u := &unpacker{dst: dst, lim: lim, seen: map[string]bool{}}
	var err error
	switch {
	case bytes.HasPrefix(data, []byte("PK\x03\x04")), bytes.HasPrefix(data, []byte("PK\x05\x06")):
		err = u.zip(data)
	case bytes.HasPrefix(data, []byte{0x1f, 0x8b}):
		err = u.targz(data)
	default:
		return "", errNotArchive
	}
	if err == nil {
		err = u.resolveLinks()
	}
	if err != nil {
		return "", err
	}
	return u.finish()
}

type unpacker struct {
	dst   string
	lim   UnpackLimits
	seen  map[string]bool
	files int
	total bytesize.Size
	links []archLink // made copies of at the end, once their targets are there
}

// archLink is a link of the archive: name names target, a path within
// the package (resolved against name's directory for a symbolic link).
type archLink struct{ name, target string }

func (u *unpacker) zip(data []byte) error {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return fmt.Errorf("reading the zip archive: %w", err)
	}
	for _, f := range zr.File {
		mode := f.Mode()
		switch {
		case mode.IsDir():
			err = u.dir(f.Name)
		case mode.IsRegular():
			var rc io.ReadCloser
			if rc, err = f.Open(); err == nil {
				err = u.file(f.Name, mode, rc)
				rc.Close()
			}
		case mode&fs.ModeSymlink != 0:
			var rc io.ReadCloser
			if rc, err = f.Open(); err == nil {
				var target []byte
				target, err = io.ReadAll(io.LimitReader(rc, 4096))
				rc.Close()
				if err == nil {
					err = u.link(f.Name, string(target), true)
				}
			}
		default:
			err = fmt.Errorf("%s: a %s, not a file or a directory", f.Name, kindOf(mode))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// link records a link, checked: it must name a path inside the package.
func (u *unpacker) link(name, target string, symbolic bool) error {
	n, err := u.clean(name)
	if err != nil {
		return err
	}
	t := target
	if symbolic {
		if path.IsAbs(target) {
			return fmt.Errorf("%s: a link to %q, outside the package", n, target)
		}
		t = path.Join(path.Dir(n), target)
	}
	t = path.Clean(strings.TrimPrefix(t, "./"))
	if t == ".." || strings.HasPrefix(t, "../") || path.IsAbs(t) || t == "." {
		return fmt.Errorf("%s: a link to %q, outside the package", n, target)
	}
	u.links = append(u.links, archLink{name: n, target: t})
	return nil
}

// resolveLinks makes each link a copy of what it names, links to links
// included, in as many rounds as it takes; a link to nothing (or a loop)
// is an error.
func (u *unpacker) resolveLinks() error {
	for len(u.links) > 0 {
		var left []archLink
		for _, l := range u.links {
			src := filepath.Join(u.dst, filepath.FromSlash(l.target))
			st, err := os.Lstat(src)
			if err != nil {
				left = append(left, l)
				continue
			}
			if err := u.copyTree(src, filepath.Join(u.dst, filepath.FromSlash(l.name)), st); err != nil {
				return fmt.Errorf("%s: %w", l.name, err)
			}
		}
		if len(left) == len(u.links) {
			return fmt.Errorf("%s: a link to %q, which is not in the package", left[0].name, left[0].target)
		}
		u.links = left
	}
	return nil
}

// copyTree copies a file or a directory of the package within the limits.
func (u *unpacker) copyTree(src, dst string, st fs.FileInfo) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if st.IsDir() {
		return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(src, p)
			to := filepath.Join(dst, rel)
			if d.IsDir() {
				if strings.HasPrefix(to+string(filepath.Separator), src+string(filepath.Separator)) {
					return errors.New("a link to a directory holding it")
				}
				return os.MkdirAll(to, 0o755)
			}
			return u.copyFile(p, to)
		})
	}
	return u.copyFile(src, dst)
}

func (u *unpacker) copyFile(src, dst string) error {
	st, err := os.Lstat(src)
	if err != nil || !st.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file", filepath.Base(src))
	}
	u.files++
	u.total += bytesize.Size(st.Size())
	if u.files > u.lim.Files || u.total > u.lim.Total {
		return fmt.Errorf("past the package's limits (%d files, %s)", u.lim.Files, u.lim.Total)
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, st.Mode().Perm())
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

func (u *unpacker) targz(data []byte) error {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("reading the gzip stream: %w", err)
	}
	// the headers count too: a bomb of empty entries is cut off here
	tr := tar.NewReader(io.LimitReader(zr, int64(u.lim.Total)+int64(u.lim.Files+1)*1024))
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading the tar archive: %w", err)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			err = u.dir(h.Name)
		case tar.TypeReg:
			err = u.file(h.Name, h.FileInfo().Mode(), tr)
		case tar.TypeSymlink:
			err = u.link(h.Name, h.Linkname, true)
		case tar.TypeLink:
			err = u.link(h.Name, h.Linkname, false)
		case tar.TypeXGlobalHeader, tar.TypeXHeader:
			continue
		default:
			err = fmt.Errorf("%s: a %s, not a file or a directory", h.Name, kindOf(h.FileInfo().Mode()))
		}
		if err != nil {
			return err
		}
	}
}

func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m&(fs.ModeDevice|fs.ModeCharDevice) != 0:
		return "device"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	}
	return "link or special file"
}

// clean checks an entry's name and returns it slash-separated and clean.
func (u *unpacker) clean(name string) (string, error) {
	n := strings.TrimSuffix(name, "/")
	switch {
	case n == "" || n == ".":
		return "", errSkip
	case strings.Contains(n, `\`) || strings.ContainsRune(n, 0):
		return "", fmt.Errorf("%q: a name with a backslash or NUL", name)
	case path.IsAbs(n):
		return "", fmt.Errorf("%q: an absolute path", name)
	}
	n = path.Clean(strings.TrimPrefix(n, "./"))
	if n == ".." || strings.HasPrefix(n, "../") {
		return "", fmt.Errorf("%q: climbs out of the package", name)
	}
	if u.seen[n] {
		return "", fmt.Errorf("%q: appears twice", name)
	}
	u.seen[n] = true
	u.files++
	if u.files > u.lim.Files {
		return "", fmt.Errorf("more than %d files", u.lim.Files)
	}
	return n, nil
}

var errSkip = errors.New("skip")

// errNotArchive is a file that is no package at all: the client's
// mistake (400), where a package's own fault is 422.
var errNotArchive = errors.New("not a .zip or a .tar.gz archive")

func (u *unpacker) dir(name string) error {
	n, err := u.clean(name)
	if errors.Is(err, errSkip) {
		return nil
	}
	if err != nil {
		return err
	}
	return os.MkdirAll(filepath.Join(u.dst, filepath.FromSlash(n)), 0o755)
}

func (u *unpacker) file(name string, mode fs.FileMode, r io.Reader) error {
	n, err := u.clean(name)
	if err != nil {
		if errors.Is(err, errSkip) {
			return fmt.Errorf("%q: a file without a name", name)
		}
		return err
	}
	target := filepath.Join(u.dst, filepath.FromSlash(n))
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	perm := fs.FileMode(0o644)
	if mode&0o111 != 0 {
		perm = 0o755
	}
	f, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return fmt.Errorf("%s: %w", n, err)
	}
	room := min(u.lim.File, u.lim.Total-u.total)
	w, err := io.Copy(f, io.LimitReader(r, int64(room)+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: %w", n, err)
	}
	u.total += bytesize.Size(w)
	if w > int64(room) {
		if u.total > u.lim.Total {
			return fmt.Errorf("unpacks to more than %s", u.lim.Total)
		}
		return fmt.Errorf("%s: larger than %s", n, u.lim.File)
	}
	return nil
}

// finish finds the problem directory: the one top-level directory, or the
// root, moved into a directory named "problem".
func (u *unpacker) finish() (string, error) {
	ents, err := os.ReadDir(u.dst)
	if err != nil {
		return "", err
	}
	if len(ents) == 0 {
		return "", errors.New("an empty archive")
	}
	if len(ents) == 1 && ents[0].IsDir() {
		name := ents[0].Name()
		if _, err := os.Stat(filepath.Join(u.dst, name, "problem.yaml")); err == nil {
			if !dirNameRE.MatchString(name) {
				return "", fmt.Errorf("the package directory %q is not a problem name: use lower-case letters, digits and '-'", name)
			}
			return name, nil
		}
	}
	if _, err := os.Stat(filepath.Join(u.dst, "problem.yaml")); err != nil {
		return "", errors.New("no problem.yaml at the top of the archive or of its one directory")
	}
	tmp := filepath.Join(u.dst, ".problem")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		return "", err
	}
	for _, e := range ents {
		if err := os.Rename(filepath.Join(u.dst, e.Name()), filepath.Join(tmp, e.Name())); err != nil {
			return "", err
		}
	}
	if err := os.Rename(tmp, filepath.Join(u.dst, "problem")); err != nil {
		return "", err
	}
	return "problem", nil
}
