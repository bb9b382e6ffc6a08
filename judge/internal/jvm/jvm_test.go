package jvm

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/bytesize"
)

// method is one method of a test class file.
type method struct {
	name, desc string
	flags      uint16
}

const (
	accPublic  = 0x0001
	accPrivate = 0x0002
	accStatic  = 0x0008
	mainDesc   = "([Ljava/lang/String;)V"
)

// classFile writes a class file (JVMS 4) named name with the methods, a
// Long constant among its constants (it takes two entries) and a field.
func classFile(name string, methods ...method) []byte {
	var pool bytes.Buffer
	n := uint16(1)
	utf8 := func(s string) uint16 {
		pool.WriteByte(1)
		binary.Write(&pool, binary.BigEndian, uint16(len(s)))
		pool.WriteString(s)
		n++
		return n - 1
	}
	class := func(s string) uint16 {
		i := utf8(s)
		pool.WriteByte(7)
		binary.Write(&pool, binary.BigEndian, i)
		n++
		return n - 1
	}
	this, super := class(name), class("java/lang/Object")
	pool.WriteByte(5) // Long
	binary.Write(&pool, binary.BigEndian, uint64(42))
	n += 2
	field, fieldDesc := utf8("x"), utf8("I")
	type idx struct{ name, desc uint16 }
	var ms []idx
	for _, m := range methods {
		ms = append(ms, idx{utf8(m.name), utf8(m.desc)})
	}
	var b bytes.Buffer
	w := func(v any) { binary.Write(&b, binary.BigEndian, v) }
	w(uint32(0xCAFEBABE))
	w(uint16(0))
	w(uint16(61))
	w(n)
	b.Write(pool.Bytes())
	w(uint16(accPublic))
	w(this)
	w(super)
	w(uint16(0))                                 // interfaces
	w(uint16(1))                                 // fields
	w([]uint16{accPrivate, field, fieldDesc, 1}) // with one attribute:
	w(uint16(1))                                 // its name's index (not read)
	w(uint32(2))                                 // its length
	w(uint16(7))                                 // its bytes
	w(uint16(len(ms)))
	for i, m := range ms {
		w([]uint16{methods[i].flags, m.name, m.desc, 0})
	}
	w(uint16(0)) // attributes
	return b.Bytes()
}

// TestMainMethod reads the main methods of class files, and never panics on
// a truncated or random one.
func TestMainMethod(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		methods []method
		kind    int
	}{
		{"pkg/Main", []method{{"f", "()V", accStatic}, {"main", mainDesc, accPublic | accStatic}}, 2},
		{"A", []method{{"main", "()V", 0}}, 1},
		{"B", []method{{"main", mainDesc, accPrivate | accStatic}}, 0},
		{"C", []method{{"main", "(I)V", accPublic | accStatic}}, 0},
		{"D", nil, 0},
	} {
		b := classFile(tt.name, tt.methods...)
		name, kind, err := mainMethod(b)
		if err != nil || name != tt.name || kind != tt.kind {
			t.Errorf("%s: got %q, %d, %v, want %q, %d", tt.name, name, kind, err, tt.name, tt.kind)
		}
		for i := range len(b) {
			if _, _, err := mainMethod(b[:i]); err == nil {
				t.Errorf("%s cut to %d of %d bytes: no error", tt.name, i, len(b))
			}
		}
	}
	r := rand.New(rand.NewSource(1))
	for range 2000 {
		b := classFile("X", method{"main", mainDesc, accPublic | accStatic})
		for range 1 + r.Intn(4) {
			b[r.Intn(len(b))] = byte(r.Intn(256))
		}
		mainMethod(b) // must not panic
	}
}

// TestMainClass picks the class a JVM program starts from.
func TestMainClass(t *testing.T) {
	t.Parallel()
	mainOf := func(name string) Class {
		return Class{name, classFile(name, method{"main", mainDesc, accPublic | accStatic})}
	}
	plain := func(name string) Class { return Class{name, classFile(name)} }
	instance := Class{"Inst", classFile("Inst", method{"main", "()V", 0})}
	for _, tt := range []struct {
		name    string
		classes []Class
		entry   string
		want    string // the class, or a substring of the failure
	}{
		{"the one with main", []Class{plain("Util"), mainOf("Clocks")}, "Util.java", "Clocks"},
		{"in a package", []Class{mainOf("a/b/Sol")}, "Sol.java", "a.b.Sol"},
		{"named after the entry", []Class{mainOf("A"), mainOf("hello")}, "hello.java", "hello"},
		{"Main among several", []Class{mainOf("A"), mainOf("Main")}, "x.java", "Main"},
		{"Kotlin's file class", []Class{mainOf("kotlin/Runtime"), mainOf("HelloKt"), mainOf("Other")}, "hello.kt", "HelloKt"},
		{"the runtime's never", []Class{mainOf("kotlin/Runtime"), plain("X")}, "x.kt", "no class has a method public static void main"},
		{"public static before instance", []Class{instance, mainOf("Z")}, "x.java", "Z"},
		{"an instance main alone", []Class{instance}, "x.java", "Inst"},
		{"several, none chosen", []Class{mainOf("A"), mainOf("B")}, "x.java", "2 classes have a main method (A, B)"},
		{"a broken class", []Class{{"Bad", []byte("not a class")}}, "x.java", "Bad.class: not a class file"},
	} {
		got, failed := MainClass(tt.classes, tt.entry)
		if got != tt.want && !strings.Contains(failed, tt.want) {
			t.Errorf("%s: got %q (%s), want %q", tt.name, got, failed, tt.want)
		}
	}
}

// TestJar: the jar the judge packs names its main class and holds the
// classes, the same bytes each time.
func TestJar(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	classes := []Class{{"a/B", classFile("a/B")}, {"Main", classFile("Main", method{"main", mainDesc, accPublic | accStatic})}}
	var jars [][]byte
	for i := range 2 {
		p := filepath.Join(dir, string(rune('0'+i))+".jar")
		if err := WriteJar(p, classes, "Main"); err != nil {
			t.Fatal(err)
		}
		got, err := ReadJar(p)
		if err != nil || len(got) != 2 || got[0].name != "a/B" || !bytes.Equal(got[1].data, classes[1].data) {
			t.Fatalf("read back: got %d classes, %v", len(got), err)
		}
		b, _ := os.ReadFile(p)
		jars = append(jars, b)
	}
	if !bytes.Equal(jars[0], jars[1]) {
		t.Errorf("two jars of the same classes differ")
	}
	if !bytes.Contains(jars[0], []byte("META-INF/MANIFEST.MF")) {
		t.Errorf("no manifest in the jar")
	}
}

// TestClassTotalBounded: the class files a JVM build wrote are read into
// memory only up to a total, in a directory as in a jar.
func TestClassTotalBounded(t *testing.T) {
	defer func(old bytesize.Size) { maxClassTotal = old }(maxClassTotal)
	maxClassTotal = bytesize.MiB
	dir := t.TempDir()
	big := make([]byte, 400*bytesize.KiB)
	for i := range 3 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("C%d.class", i)), big, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ReadDir(dir); err == nil || !strings.Contains(err.Error(), "in all") {
		t.Errorf("directory: got %v, want the total refused", err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := range 3 {
		w, err := zw.Create(fmt.Sprintf("C%d.class", i))
		if err != nil {
			t.Fatal(err)
		}
		w.Write(big)
	}
	zw.Close()
	jar := filepath.Join(t.TempDir(), JarName)
	if err := os.WriteFile(jar, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadJar(jar); err == nil || !strings.Contains(err.Error(), "in all") {
		t.Errorf("jar: got %v, want the total refused", err)
	}
	maxClassTotal = 2 * bytesize.MiB
	if cs, err := ReadDir(dir); err != nil || len(cs) != 3 {
		t.Errorf("under the bound: got %d classes, %v", len(cs), err)
	}
}
