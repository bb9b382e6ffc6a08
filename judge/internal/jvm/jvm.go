// Package jvm reads what a JVM language's build left (a jar, or class
// files), finds the class a program starts from and packs the jar its
// runs get. The compiler wrote those files from a contestant's sources:
// what is read is bounded, and never read through a link.
package jvm

import (
	"archive/zip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/judge/internal/nofollow"
)

// The JVM build's names: the jar the runs get ({jar}) and the directory
// the compiler writes its class files to ({classes}), in the build
// directory. A submission's own files are never hidden ones, so .classes
// cannot be one of them.
const (
	JarName    = "main.jar"
	ClassesDir = ".classes"
)

// Bounds of what the judge reads of a JVM build: the compiler wrote it
// from a contestant's sources.
const (
	maxClasses   = 20000
	maxClassSize = 16 * bytesize.MiB
)

// maxClassTotal bounds all of them, held in memory at once (a variable for
// the tests).
var maxClassTotal = 256 * bytesize.MiB

// Class is a class file the build made: its binary name (pkg/Name)
// and its bytes.
type Class struct {
	name string
	data []byte
}

// mainMethod says how a class file's main method can start a program:
// 2, public static void main(String[]); 1, another main the launchers of
// Java 21 and later take (static or not, with or without String[]); 0,
// none.
func mainMethod(class []byte) (name string, kind int, err error) {
	r := &classReader{b: class}
	if r.u4() != 0xCAFEBABE {
		return "", 0, errors.New("not a class file")
	}
	r.skip(4) // minor, major
	pool, err := r.constantPool()
	if err != nil {
		return "", 0, err
	}
	r.skip(2) // access flags
	this := r.u2()
	r.skip(2) // super
	r.skip(2 * int(r.u2()))
	if err := r.members(pool, nil); err != nil { // fields
		return "", 0, err
	}
	err = r.members(pool, func(flags uint16, n, desc string) {
		const public, private, static = 0x0001, 0x0002, 0x0008
		if n != "main" || (desc != "([Ljava/lang/String;)V" && desc != "()V") || flags&private != 0 {
			return
		}
		k := 1
		if flags&public != 0 && flags&static != 0 && desc == "([Ljava/lang/String;)V" {
			k = 2
		}
		kind = max(kind, k)
	})
	for range int(r.u2()) { // the class's attributes
		r.skip(2)
		r.skip(int(r.u4()))
	}
	if err != nil || r.err != nil {
		return "", 0, errors.Join(err, r.err)
	}
	name, ok := pool.className(this)
	if !ok {
		return "", 0, errors.New("bad this_class")
	}
	return name, kind, nil
}

// classReader reads the big-endian fields of a class file; a read past
// the end sets err and reads zeros.
type classReader struct {
	b   []byte
	err error
}

func (r *classReader) take(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b) {
		r.err = errors.New("truncated class file")
		r.b = nil
		return make([]byte, 8) // what u1, u2 and u4 read: zeros
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *classReader) skip(n int) { r.take(n) }
func (r *classReader) u1() byte   { return r.take(1)[0] }
func (r *classReader) u2() uint16 { return binary.BigEndian.Uint16(r.take(2)) }
func (r *classReader) u4() uint32 { return binary.BigEndian.Uint32(r.take(4)) }
func (r *classReader) bad() bool  { return r.err != nil }

// constPool holds the constant pool's entries the judge needs: UTF-8
// strings and classes (by their name's index).
type constPool []struct {
	tag  byte
	s    string
	name uint16
}

func (p constPool) utf8(i uint16) (string, bool) {
	if int(i) >= len(p) || p[i].tag != 1 {
		return "", false
	}
	return p[i].s, true
}

func (p constPool) className(i uint16) (string, bool) {
	if int(i) >= len(p) || p[i].tag != 7 {
		return "", false
	}
	return p.utf8(p[i].name)
}

// constantPool reads the constant pool (JVMS 4.4).
func (r *classReader) constantPool() (constPool, error) {
	n := int(r.u2())
	pool := make(constPool, n)
	for i := 1; i < n && !r.bad(); i++ {
		tag := r.u1()
		pool[i].tag = tag
		switch tag {
		case 1: // Utf8 (modified UTF-8; the names the judge compares are ASCII)
			pool[i].s = string(r.take(int(r.u2())))
		case 7: // Class
			pool[i].name = r.u2()
		case 8, 16, 19, 20: // String, MethodType, Module, Package
			r.skip(2)
		case 3, 4, 9, 10, 11, 12, 17, 18: // Integer, Float, refs, NameAndType, Dynamic, InvokeDynamic
			r.skip(4)
		case 15: // MethodHandle
			r.skip(3)
		case 5, 6: // Long, Double take two entries
			r.skip(8)
			i++
		default:
			return nil, fmt.Errorf("constant pool: unknown tag %d", tag)
		}
	}
	return pool, r.err
}

// members reads a fields or methods table, telling each member's flags,
// name and descriptor to see (nil: skip them).
func (r *classReader) members(pool constPool, see func(flags uint16, name, desc string)) error {
	n := int(r.u2())
	for range n {
		if r.bad() {
			break
		}
		flags, ni, di := r.u2(), r.u2(), r.u2()
		for range int(r.u2()) {
			r.skip(2)
			r.skip(int(r.u4()))
		}
		if see != nil {
			name, ok1 := pool.utf8(ni)
			desc, ok2 := pool.utf8(di)
			if !ok1 || !ok2 {
				return errors.New("bad member name")
			}
			see(flags, name, desc)
		}
	}
	return r.err
}

// runtimePackages are the packages of a language's runtime that a jar
// may carry (kotlinc -include-runtime): never a contestant's main class.
var runtimePackages = []string{"kotlin/", "kotlinx/", "scala/", "META-INF/"}

// MainClass finds the class a JVM program starts from: the one class
// with public static void main(String[]) (else with a main that the
// newer launchers take); among several, the one named after the entry file
// (hello.java: hello; hello.kt: HelloKt), else Main or MainKt. failed
// says why there is none, for the compilation error.
func MainClass(classes []Class, entry string) (name, failed string) {
	var best []string
	bestKind := 0
	for _, c := range classes {
		if slices.ContainsFunc(runtimePackages, func(p string) bool { return strings.HasPrefix(c.name, p) }) {
			continue
		}
		n, kind, err := mainMethod(c.data)
		switch {
		case err != nil:
			return "", fmt.Sprintf("%s.class: %v", c.name, err)
		case kind == 0 || kind < bestKind:
			continue
		case kind > bestKind:
			best, bestKind = nil, kind
		}
		best = append(best, strings.ReplaceAll(n, "/", "."))
	}
	switch len(best) {
	case 0:
		return "", "no class has a method public static void main(String[])"
	case 1:
		return best[0], ""
	}
	base := path.Base(entry)
	s := strings.TrimSuffix(base, path.Ext(base)) // the entry file's name, its ending cut
	for _, want := range []string{s, capitalize(s) + "Kt", "Main", "MainKt"} {
		for _, b := range best {
			if b == want || strings.HasSuffix(b, "."+want) {
				return b, ""
			}
		}
	}
	slices.Sort(best)
	return "", fmt.Sprintf("%d classes have a main method (%s): name the entry file after one of them, or call it Main",
		len(best), strings.Join(best, ", "))
}

// NamedMain is the class want (binary or dotted name) when it has a
// main method.
func NamedMain(classes []Class, want string) (name, failed string) {
	for _, c := range classes {
		if c.name != strings.ReplaceAll(want, ".", "/") {
			continue
		}
		_, kind, err := mainMethod(c.data)
		switch {
		case err != nil:
			return "", fmt.Sprintf("%s.class: %v", c.name, err)
		case kind == 0:
			return "", fmt.Sprintf("entrypoint %s has no method public static void main(String[])", want)
		}
		return strings.ReplaceAll(c.name, "/", "."), ""
	}
	return "", fmt.Sprintf("entrypoint %s: no such class was built", want)
}

func capitalize(s string) string {
	for i, r := range s {
		return string(unicode.ToUpper(r)) + s[i+len(string(r)):]
	}
	return s
}

// ReadDir reads the class files below dir, never through a link.
func ReadDir(dir string) ([]Class, error) {
	var out []Class
	total := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".class") {
			return err
		}
		if len(out) >= maxClasses {
			return fmt.Errorf("more than %d class files", maxClasses)
		}
		f, err := nofollow.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		b, err := io.ReadAll(io.LimitReader(f, int64(maxClassSize)+1))
		if err != nil {
			return err
		}
		if len(b) > int(maxClassSize) {
			return fmt.Errorf("%s: over %s", p, maxClassSize)
		}
		if total += len(b); total > int(maxClassTotal) {
			return fmt.Errorf("class files of more than %s in all", maxClassTotal)
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, Class{name: strings.TrimSuffix(filepath.ToSlash(rel), ".class"), data: b})
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil // the compiler wrote none
	}
	return out, err
}

// ReadJar reads the class files of a jar the compiler wrote.
func ReadJar(jar string) ([]Class, error) {
	f, err := nofollow.Open(jar)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	zr, err := zip.NewReader(f, fi.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", JarName, err)
	}
	var out []Class
	total := 0
	for _, zf := range zr.File {
		if !strings.HasSuffix(zf.Name, ".class") || slices.ContainsFunc(runtimePackages, func(p string) bool { return strings.HasPrefix(zf.Name, p) }) {
			continue
		}
		if len(out) >= maxClasses {
			return nil, fmt.Errorf("%s: more than %d class files", JarName, maxClasses)
		}
		b, err := readZipFile(zf)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", JarName, zf.Name, err)
		}
		if total += len(b); total > int(maxClassTotal) {
			return nil, fmt.Errorf("%s: class files of more than %s in all", JarName, maxClassTotal)
		}
		out = append(out, Class{name: strings.TrimSuffix(zf.Name, ".class"), data: b})
	}
	return out, nil
}

func readZipFile(zf *zip.File) ([]byte, error) {
	rc, err := zf.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, int64(maxClassSize)+1))
	if err == nil && len(b) > int(maxClassSize) {
		err = fmt.Errorf("over %s", maxClassSize)
	}
	return b, err
}

// WriteJar packs the classes into a jar at dst that names main as its
// Main-Class, the same bytes for the same classes.
func WriteJar(dst string, classes []Class, main string) error {
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(out)
	manifest := "Manifest-Version: 1.0\r\nCreated-By: optjudge\r\nMain-Class: " + main + "\r\n\r\n"
	entries := append([]Class{{name: "META-INF/MANIFEST.MF", data: []byte(manifest)}}, classes...)
	for i, c := range entries {
		name := c.name
		if i > 0 {
			name += ".class"
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)})
		if err == nil {
			_, err = w.Write(c.data)
		}
		if err != nil {
			zw.Close()
			out.Close()
			return err
		}
	}
	if err := zw.Close(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
