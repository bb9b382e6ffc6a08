package service

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
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
	if err := os.CopyFS(root, p.Package.FS); err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(root, "problem.yaml")
	b, _ := os.ReadFile(spec)
	os.Chmod(spec, 0o644)
	if !bytes.Contains(b, []byte("\nname: The Clocks\n")) {
		t.Fatalf("clocks' problem.yaml has no name to change:\n%s", b)
	}
	retitled := bytes.Replace(b, []byte("\nname: The Clocks\n"), []byte("\nname: "+title+"\n"), 1)
	if err := os.WriteFile(spec, retitled, 0o644); err != nil {
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
	t.Parallel()
	e := newEnv(t, envOpts{})
	root := copyClocks(t, t.TempDir(), "Uploaded Clocks")
	// a 10 s limit: the accepted Python program below must not TLE on a
	// busy machine (clocks' 1 s did, at a load average of 27)
	spec, _ := os.ReadFile(filepath.Join(root, "problem.yaml"))
	roomy := strings.Replace(string(spec), "time_limit: 1\n", "time_limit: 10\n", 1)
	if roomy == string(spec) {
		t.Fatal("clocks' problem.yaml: no time limit to raise")
	}
	writeProblemFile(t, root, "problem.yaml", roomy)
	var up UploadedProblem
	if code := e.do("POST", "/api/v1/problems", bytes.NewReader(tarGz(t, root)), map[string]string{"Content-Type": "application/gzip"}, &up); code != http.StatusCreated {
		t.Fatalf("upload: got %d", code)
	}
	p, err := problems.LoadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	if up.Hash != p.Hash() {
		t.Errorf("the upload's hash: got %s, want the problem's own (problems.Problem.Hash) %s", up.Hash, p.Hash())
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
	t.Parallel()
	e := newEnv(t, envOpts{})
	var d ProblemDetail
	if code := e.do("GET", "/api/v1/problems/eight-puzzle", nil, nil, &d); code != http.StatusOK {
		t.Fatalf("got %d", code)
	}
	p, _ := problems.LoadEmbedded("eight-puzzle")
	tests, _ := p.Package.Tests()
	b, _ := fs.ReadFile(p.Package.FS, tests[len(tests)-1].In)
	raw := new(strings.Builder)
	for _, s := range d.Samples {
		raw.WriteString(s.Input + s.Answer)
	}
	if len(d.Samples) == 0 || d.Statement == "" || strings.Contains(raw.String(), string(b)) {
		t.Errorf("got %d samples, statement %d bytes; a secret input must not be among them", len(d.Samples), len(d.Statement))
	}
	var list struct{ Problems []ProblemSummary }
	e.do("GET", "/api/v1/problems", nil, nil, &list)
	if want := len(problems.Embedded()); len(list.Problems) != want || want != 14 {
		t.Errorf("problems: got %+v, want the %d embedded (14)", list.Problems, want)
	}
}

// TestWorkerRefusesOtherProblem: a worker whose copy of the problem
// differs refuses the job and says so; the job ends as JE with the
// reasons, not graded against other tests.
func TestWorkerRefusesOtherProblem(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
		{"zip symlink out", zipOf(t, map[string]string{"p/problem.yaml": "x"}, "p/link"), "outside the package"},
		{"tar symlink out", link.Bytes(), "outside the package"},
		{"link to nothing", tarOf(t, []tar.Header{{Name: "p/problem.yaml", Typeflag: tar.TypeReg}, {Name: "p/a", Linkname: "b", Typeflag: tar.TypeSymlink}}), `a link to "p/b", which is not in the package`},
		{"link up", tarOf(t, []tar.Header{{Name: "p/problem.yaml", Typeflag: tar.TypeReg}, {Name: "p/d/a", Linkname: "../../../x", Typeflag: tar.TypeSymlink}}), "outside the package"},
		{"link loop", tarOf(t, []tar.Header{{Name: "p/problem.yaml", Typeflag: tar.TypeReg}, {Name: "p/d/", Typeflag: tar.TypeDir}, {Name: "p/d/e", Linkname: "..", Typeflag: tar.TypeSymlink}}), "a link to a directory holding it"},
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

// syncBuffer is a log a test reads while a server writes it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// uploadServer is a Server behind its own http.Server (with its timeouts,
// which httptest's has not).
func uploadServer(t *testing.T, e *env, cfg ServerConfig) string {
	t.Helper()
	cfg.Store, cfg.Library = e.store, e.lib
	api := NewServer(cfg)
	t.Cleanup(func() { api.Close() })
	hs := api.HTTPServer("127.0.0.1:0")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	return "http://" + ln.Addr().String()
}

// TestUploadDeadlines: an upload may take longer than a request may (a
// slow link, a long verification) and still be answered; one whose
// client gave up is not stored.
func TestUploadDeadlines(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	logs := &syncBuffer{}
	verifying := make(chan struct{}, 1)
	slowVerify := func(ctx context.Context, p *Problem) error {
		verifying <- struct{}{}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
		return nil // a verification that does not heed ctx
	}
	base := uploadServer(t, e, ServerConfig{HTTPTimeout: 300 * time.Millisecond, UploadTimeout: time.Minute,
		Verify: slowVerify, Log: log.New(logs, "", 0)})
	pkg := tarGz(t, copyClocks(t, t.TempDir(), "Slow Clocks"))
	pr, pw := io.Pipe()
	go func() {
		for i := 0; i < len(pkg); i += len(pkg)/5 + 1 {
			pw.Write(pkg[i:min(i+len(pkg)/5+1, len(pkg))])
			time.Sleep(200 * time.Millisecond) // a slow link: a second in all
		}
		pw.Close()
	}()
	resp, err := http.Post(base+"/api/v1/problems", "application/gzip", pr)
	if err != nil {
		t.Fatalf("a slow upload: %v", err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("a slow upload: got %d %s, want 201", resp.StatusCode, b)
	}
	<-verifying

	pkg = tarGz(t, copyClocks(t, t.TempDir(), "Abandoned Clocks"))
	ctx, cancel := context.WithCancel(t.Context())
	req, _ := http.NewRequestWithContext(ctx, "POST", base+"/api/v1/problems", bytes.NewReader(pkg))
	req.Header.Set("Content-Type", "application/gzip")
	go func() { <-verifying; cancel() }() // the client gives up while the server verifies
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("an abandoned upload: got %d, want the client's own error", resp.StatusCode)
	}
	waitFor(t, time.Minute, "the upload dropped", func() bool { return strings.Contains(logs.String(), "upload of clocks by local dropped") })
	var d ProblemDetail
	e.do("GET", "/api/v1/problems/clocks", nil, nil, &d)
	if d.Title != "Slow Clocks" {
		t.Errorf("after an abandoned upload, clocks is %q, want the slow upload's", d.Title)
	}
}

// dirSize is the bytes of the regular files under dir, and the unpacked
// packages in it (directories named by a hash).
func dirSize(t *testing.T, dir string) (size int64, versions int) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && hashRE.MatchString(d.Name()) {
			versions++
		}
		if d.Type().IsRegular() {
			fi, err := d.Info()
			if err != nil {
				return err
			}
			size += fi.Size()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return size, versions
}

// TestReuploadsStayBounded: a package uploaded again and again (each time
// a new version, graded) leaves the server's and a worker's libraries
// with at most MaxUploaded versions, loaded and on disk.
func TestReuploadsStayBounded(t *testing.T) {
	t.Parallel()
	const bound = 3
	e := newEnv(t, envOpts{})
	e.lib.mu.Lock()
	e.lib.MaxUploaded = bound
	e.lib.mu.Unlock()
	wlib, err := NewLibrary(e.store, "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { wlib.Close() })
	wlib.MaxUploaded = bound
	e.startWorkerWith(WorkerConfig{Name: "w", Store: e.store, Library: wlib, Engine: scriptEngine{}})
	var one int64
	for i := range 4 * bound {
		root := copyClocks(t, t.TempDir(), fmt.Sprintf("Clocks %d", i))
		var up UploadedProblem
		if code := e.do("POST", "/api/v1/problems", bytes.NewReader(tarGz(t, root)), map[string]string{"Content-Type": "application/gzip"}, &up); code != http.StatusCreated {
			t.Fatalf("upload %d: got %d", i, code)
		}
		id := e.submit("clocks", "ok.py", "ok")
		checkOnce(t, e.waitDone(time.Minute, id), map[string]string{id: "AC"}, 1)
		if j, err := e.store.Judging(t.Context(), id, 1); err != nil || j.ProblemHash != up.Hash {
			t.Fatalf("upload %d: judged on %+v (%v), want the version %s", i, j, err, up.Hash)
		}
		if i == 0 {
			one, _ = dirSize(t, wlib.cache)
		}
		for name, l := range map[string]*Library{"the server's": e.lib, "the worker's": wlib} {
			l.mu.Lock()
			loaded := len(l.uploaded)
			l.mu.Unlock()
			size, versions := dirSize(t, l.cache)
			if loaded > bound || versions > bound || size > int64(bound+1)*one {
				t.Fatalf("after %d uploads, %s library: %d versions loaded, %d unpacked in %d bytes (one is %d); want at most %d",
					i+1, name, loaded, versions, size, one, bound)
			}
		}
	}
}

// tarOf is a .tar.gz of empty entries.
func tarOf(t *testing.T, hs []tar.Header) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, h := range hs {
		h.Mode = 0o644
		if err := tw.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

// tarDir is a .tar.gz of dir, its links kept as links.
func tarDir(t *testing.T, dir string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	base := filepath.Base(dir)
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		link := ""
		if fi.Mode()&fs.ModeSymlink != 0 {
			link, _ = os.Readlink(p)
		}
		h, err := tar.FileInfoHeader(fi, link)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		h.Name = filepath.ToSlash(filepath.Join(base, rel))
		if fi.IsDir() {
			h.Name += "/"
		}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if fi.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			tw.Write(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

// TestUploadOddecho: problemtools' own oddecho example, whose secret
// tests of one group are links to another's, uploads as judge verify
// takes it; its linked tests are there, as copies.
func TestUploadOddecho(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	var up UploadedProblem
	code := e.do("POST", "/api/v1/problems", bytes.NewReader(tarDir(t, "testdata/oddecho")), map[string]string{"Content-Type": "application/gzip"}, &up)
	if code/100 != 2 || up.Name != "oddecho" {
		t.Fatalf("the upload: got %d %+v, want it stored", code, up)
	}
	p, err := e.lib.Current(t.Context(), "oddecho")
	if err != nil || p == nil {
		t.Fatalf("oddecho: %v", err)
	}
	b, err := fs.ReadFile(p.Package.FS, "data/secret/subtask2/1.ans")
	want, _ := os.ReadFile("testdata/oddecho/data/secret/subtask1/1.ans")
	if err != nil || !bytes.Equal(b, want) {
		t.Errorf("the linked test: got %q, %v, want subtask1's %q", b, err, want)
	}
	code = e.do("POST", "/api/v1/problems", bytes.NewReader(tarOf(t, []tar.Header{{Name: "p/problem.yaml", Typeflag: tar.TypeReg}, {Name: "p/a", Linkname: "/etc/passwd", Typeflag: tar.TypeSymlink}})),
		map[string]string{"Content-Type": "application/gzip"}, nil)
	if code != http.StatusUnprocessableEntity {
		t.Errorf("a package with a link out of it: got %d, want 422", code)
	}
}

// TestProblemPageOddecho shows the statement of a real package,
// problemtools' oddecho (LaTeX, with a Swedish Markdown one beside):
// its title, its sections, its math for KaTeX, its table,
// and its two samples, input and answer; none of its secret tests.
func TestProblemPageOddecho(t *testing.T) {
	e := newEnv(t, envOpts{})
	if code := e.do("POST", "/api/v1/problems", bytes.NewReader(tarDir(t, "testdata/oddecho")), map[string]string{"Content-Type": "application/gzip"}, nil); code/100 != 2 {
		t.Fatalf("the upload: %d", code)
	}
	c := e.client(t)
	code, body := c.get("/problems/oddecho")
	if code != http.StatusOK {
		t.Fatalf("/problems/oddecho: %d\n%s", code, body)
	}
	sample := func(name string) string {
		b, err := os.ReadFile("testdata/oddecho/data/sample/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(b))
	}
	for _, want := range []string{
		"<h1>Odd Echo</h1>", "<h2>Input</h2>", "<h2>Output</h2>", `<span class="math inline">\(1 \le N \le 10\)</span>`,
		`<table class="tabular">`,
		sample("1.in"), sample("1.ans"), sample("2.in"), sample("2.ans"),
		`<a href="/problems/oddecho?lang=sv" hreflang="sv">sv</a>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/problems/oddecho: no %q in\n%s", want, body)
		}
	}
	if strings.Contains(body, `\section`) || strings.Contains(body, "data/secret") {
		t.Errorf("/problems/oddecho shows LaTeX source or a secret test:\n%s", body)
	}
}
