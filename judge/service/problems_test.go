package service

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/optjudge/optjudge/problems"
)

// copyClocks copies the embedded clocks problem into dir/clocks, retitled.
func copyClocks(t *testing.T, dir, title string) string {
	t.Helper()
	p, err := problems.LoadEmbedded("clocks")
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "clocks")
	if err := os.CopyFS(root, p.FS); err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(root, "problem.yaml")
	b, _ := os.ReadFile(spec)
	os.Chmod(spec, 0o644)
	if err := os.WriteFile(spec, bytes.Replace(b, []byte("title: The Clocks"), []byte("title: "+title), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// tarGz packs the directory root as root's base name.
func tarGz(t *testing.T, root string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	if err := tw.AddFS(os.DirFS(filepath.Dir(root))); err != nil {
		t.Fatal(err)
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

func TestUploadProblem(t *testing.T) {
	e := newEnv(t, envOpts{})
	root := copyClocks(t, t.TempDir(), "Uploaded Clocks")
	var up UploadedProblem
	if code := e.do("POST", "/api/v1/problems", bytes.NewReader(tarGz(t, root)), map[string]string{"Content-Type": "application/gzip"}, &up); code != http.StatusCreated {
		t.Fatalf("upload: got %d", code)
	}
	var d ProblemDetail
	e.do("GET", "/api/v1/problems/clocks", nil, nil, &d)
	if d.Title != "Uploaded Clocks" || !d.Uploaded || d.Hash != up.Hash || len(d.Samples) != 1 {
		t.Errorf("detail after the upload: got %+v", d.ProblemSummary)
	}
	body := e.get(e.submit("clocks", "wa.py", "print(1)\n"))
	_ = body
	// a worker with only the embedded copy fetches the package by hash
	e.startWorker("w", newEngine(t, false))
	id := e.submit("clocks", "ac.py", readFile(t, "clocks_ac.py"))
	checkOnce(t, e.waitDone(2*time.Minute, id), map[string]string{id: "AC"}, 1)
	j, err := e.store.Judging(t.Context(), id, 1)
	if err != nil || j.ProblemHash != up.Hash {
		t.Errorf("judged on %v (%v), want the upload's hash %s", j, err, up.Hash)
	}
}

func TestProblemDetailHasNoSecrets(t *testing.T) {
	e := newEnv(t, envOpts{})
	var d ProblemDetail
	if code := e.do("GET", "/api/v1/problems/eight-puzzle", nil, nil, &d); code != http.StatusOK {
		t.Fatalf("got %d", code)
	}
	p, _ := problems.LoadEmbedded("eight-puzzle")
	tests, _ := p.Tests()
	b, _ := fs.ReadFile(p.FS, tests[len(tests)-1].In)
	raw := new(strings.Builder)
	for _, s := range d.Samples {
		raw.WriteString(s.Input + s.Answer)
	}
	if len(d.Samples) == 0 || d.Statement == "" || strings.Contains(raw.String(), string(b)) {
		t.Errorf("got %d samples, statement %d bytes; a secret input must not be among them", len(d.Samples), len(d.Statement))
	}
	var list struct{ Problems []ProblemSummary }
	e.do("GET", "/api/v1/problems", nil, nil, &list)
	if len(list.Problems) != 3 {
		t.Errorf("problems: got %+v, want the three embedded", list.Problems)
	}
}

// TestWorkerRefusesOtherProblem: a worker whose copy of the problem
// differs refuses the job and says so; the job ends as JE with the
// reasons, not graded against other tests.
func TestWorkerRefusesOtherProblem(t *testing.T) {
	e := newEnv(t, envOpts{ackWait: time.Second})
	dir := t.TempDir()
	copyClocks(t, dir, "Other Clocks")
	// the server has another version than the worker's embedded one
	lib, err := NewLibrary(e.store, dir, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	api := NewServer(ServerConfig{Store: e.store, Library: lib})
	t.Cleanup(func() { api.Close() })
	e.http = httptest.NewServer(api.Handler())
	t.Cleanup(e.http.Close)
	e.startWorker("other", newEngine(t, false))
	id := e.submit("clocks", "wa.py", "print(1)\n")
	got := e.waitDone(time.Minute, id)
	checkOnce(t, got, map[string]string{id: "JE"}, 1)
	if msg := got[id].Judgings[0].Message; !strings.Contains(msg, "differs") || !strings.Contains(msg, "other") {
		t.Errorf("JE message: got %q, want the refusals", msg)
	}
}

func zipOf(t *testing.T, files map[string]string, symlink string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range files {
		w, _ := zw.Create(name)
		w.Write([]byte(body))
	}
	if symlink != "" {
		h := &zip.FileHeader{Name: symlink}
		h.SetMode(fs.ModeSymlink | 0o777)
		w, _ := zw.CreateHeader(h)
		w.Write([]byte("/etc/passwd"))
	}
	zw.Close()
	return buf.Bytes()
}

func TestUnpackGuards(t *testing.T) {
	many := map[string]string{"p/problem.yaml": "x"}
	for i := range 30 {
		many["p/f"+strings.Repeat("x", i)] = ""
	}
	var bomb bytes.Buffer
	zw := gzip.NewWriter(&bomb)
	tw := tar.NewWriter(zw)
	tw.WriteHeader(&tar.Header{Name: "p/problem.yaml", Mode: 0o644, Size: 1 << 30, Typeflag: tar.TypeReg})
	tw.Write(make([]byte, 1<<24))
	zw.Close()
	var link bytes.Buffer
	zw = gzip.NewWriter(&link)
	tw = tar.NewWriter(zw)
	tw.WriteHeader(&tar.Header{Name: "p/problem.yaml", Linkname: "/etc/passwd", Typeflag: tar.TypeSymlink})
	tw.Close()
	zw.Close()
	lim := UnpackLimits{Files: 20, File: 1 << 20, Total: 2 << 20}
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"zip slip", zipOf(t, map[string]string{"../evil.txt": "x"}, ""), "climbs out"},
		{"absolute", zipOf(t, map[string]string{"/etc/evil": "x"}, ""), "absolute"},
		{"zip symlink", zipOf(t, map[string]string{"p/problem.yaml": "x"}, "p/link"), "symbolic link"},
		{"tar symlink", link.Bytes(), "symbolic link"},
		{"too many files", zipOf(t, many, ""), "more than 20 files"},
		{"bomb", bomb.Bytes(), "larger than"},
		{"no problem", zipOf(t, map[string]string{"readme.txt": "x"}, ""), "no problem.yaml"},
		{"backslash", zipOf(t, map[string]string{`p\..\x`: "x"}, ""), "backslash"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dst := t.TempDir()
			_, err := Unpack(tt.data, dst, lim)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error about %q", err, tt.want)
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(dst), "evil.txt")); err == nil {
				t.Errorf("a file was written outside the directory")
			}
		})
	}
}
