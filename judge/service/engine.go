package service

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/judge/sandbox"
	"github.com/optjudge/optjudge/problems"
)

// Engine grades the submissions of one worker process. Everything the
// service knows about the engine's API is in this file.
type Engine interface {
	// Grade grades src on p; progress is told each finished test. The
	// error means the judge failed (a JE), as judge.Grade's does.
	Grade(ctx context.Context, p *problems.Problem, src Source, progress func(judge.TestResult)) (*Graded, error)
	// Languages is the language table submissions are checked against.
	Languages() *judge.Languages
	// Isolation names the sandbox's level.
	Isolation() string
	Close() error
}

// Source is a submission's source file on the worker's disk.
type Source struct {
	Path     string // the file, named by the service, never by the request
	Filename string // as the contestant named it, for the report
	Language string
	SHA256   string
}

// Graded is a finished grading.
type Graded struct {
	Report *judge.Report
	Cached bool // the build came from the executable cache
}

// EngineConfig configures NewEngine.
type EngineConfig struct {
	Sandbox  sandbox.Options // one sandbox for the process, made by NewEngine
	Full     bool            // grade every test (default: stop at the first failure)
	Parallel int             // tests at once per grading; 0: 1
	TempDir  string          // "": the system's
	GoCache  string          // Go build cache; "": none
	Path     string          // PATH for compilers; "": the engine's default
	// Executables caches builds by (language, compiler version, source
	// hash); nil builds every time.
	Executables jetstream.ObjectStore
}

// NewEngine starts the sandbox and returns an Engine over judge.Grade.
func NewEngine(cfg EngineConfig) (Engine, error) {
	sb, err := sandbox.New(cfg.Sandbox)
	if err != nil {
		return nil, fmt.Errorf("starting the sandbox: %w", err)
	}
	return &engine{cfg: cfg, sb: sb, langs: judge.DefaultLanguages(), versions: map[string]string{}}, nil
}

type engine struct {
	cfg   EngineConfig
	sb    *sandbox.Sandbox
	langs *judge.Languages

	mu       sync.Mutex
	versions map[string]string // compiler version by language
}

func (e *engine) Languages() *judge.Languages { return e.langs }
func (e *engine) Isolation() string           { return e.sb.Isolation() }
func (e *engine) Close() error                { return e.sb.Close() }

func (e *engine) options(progress func(judge.TestResult)) judge.Options {
	return judge.Options{
		Lazy:      !e.cfg.Full,
		Parallel:  max(e.cfg.Parallel, 1),
		Languages: e.langs,
		GoCache:   e.cfg.GoCache,
		Path:      e.cfg.Path,
		Sandbox:   e.sb,
		Progress:  progress,
	}
}

func (e *engine) Grade(ctx context.Context, p *problems.Problem, src Source, progress func(judge.TestResult)) (*Graded, error) {
	lang, err := e.langs.ByName(src.Language)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(e.cfg.TempDir, "optjudge-job-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	o := e.options(progress)
	o.TempDir = tmp
	key := e.buildKey(lang, src.SHA256)
	pp, cached, err := e.prepare(ctx, tmp, key, lang, src, o)
	if err != nil {
		return nil, err
	}
	defer pp.Close()
	r, err := pp.Grade(ctx, p, o)
	if err != nil {
		return nil, err
	}
	r.Submission, r.Language = src.Filename, lang.Name
	if cached != nil {
		r.Compile = *cached
	}
	return &Graded{Report: r, Cached: cached != nil}, nil
}

// prepare builds src, or takes its build from the cache (then the
// CompileResult of the first build is returned too).
func (e *engine) prepare(ctx context.Context, tmp, key string, lang *judge.Language, src Source, o judge.Options) (*judge.Prepared, *judge.CompileResult, error) {
	if pp, cr := e.fromCache(ctx, tmp, key, o); pp != nil {
		return pp, cr, nil
	}
	o.Lang = lang.Name
	pp, err := judge.Prepare(ctx, judge.Submission{Path: src.Path}, o)
	if err != nil {
		return nil, nil, err
	}
	if key != "" {
		e.toCache(ctx, tmp, key, pp)
	}
	return pp, nil, nil
}

// buildKey names a build in the cache, "" when the language has nothing
// to cache (no compile step, or a run command that runs the source).
// With ENGINE-API.md's judge.BuildKey this becomes that call.
func (e *engine) buildKey(lang *judge.Language, sum string) string {
	if e.cfg.Executables == nil || len(lang.Compile) == 0 || !strings.Contains(strings.Join(lang.Run, " "), "{exe}") {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%q\x00%q\x00%s\x00%s", lang.Name, lang.Compile, lang.Run, e.compilerVersion(lang), sum)
	return hex.EncodeToString(h.Sum(nil))
}

// compilerVersion is the first line the compiler prints of its version,
// asked once per language.
func (e *engine) compilerVersion(lang *judge.Language) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if v, ok := e.versions[lang.Name]; ok {
		return v
	}
	args := []string{"--version"}
	if filepath.Base(lang.Compile[0]) == "go" {
		args = []string{"version"}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, lang.Compile[0], args...)
	if e.cfg.Path != "" {
		cmd.Env = []string{"PATH=" + e.cfg.Path}
	}
	out, _ := cmd.Output()
	v, _, _ := strings.Cut(string(out), "\n")
	e.versions[lang.Name] = v
	return v
}

// A cached build is the executable, with the first build's
// CompileResult as JSON in its metadata. Compilation errors are not cached:
// today's engine cannot make a failed Prepared without the compiler.
const cacheBuild = "compile"

// fromCache makes a Prepared of a cached build; nil on a miss.
func (e *engine) fromCache(ctx context.Context, tmp, key string, o judge.Options) (*judge.Prepared, *judge.CompileResult) {
	if key == "" {
		return nil, nil
	}
	info, err := e.cfg.Executables.GetInfo(ctx, key)
	if err != nil {
		return nil, nil
	}
	var cr judge.CompileResult
	if json.Unmarshal([]byte(info.Metadata[cacheBuild]), &cr) != nil {
		return nil, nil
	}
	data, err := e.cfg.Executables.GetBytes(ctx, key)
	if err != nil {
		return nil, nil
	}
	sub := judge.Submission{Path: filepath.Join(tmp, "cached.exe")}
	if os.WriteFile(sub.Path, data, 0o755) != nil {
		return nil, nil
	}
	pp, err := judge.Prepare(ctx, sub, o)
	if err != nil {
		return nil, nil
	}
	return pp, &cr
}

// toCache stores a build. Today's engine has no Export, so the build is
// found where judge.Prepare leaves it: the one optjudge-build-* directory
// in this grading's own TempDir, its executable main.exe. With
// ENGINE-API.md's Prepared.Export this becomes that call.
func (e *engine) toCache(ctx context.Context, tmp, key string, pp *judge.Prepared) {
	if !pp.Compile.OK {
		return
	}
	dirs, _ := filepath.Glob(filepath.Join(tmp, "optjudge-build-*"))
	if len(dirs) != 1 {
		return
	}
	data, err := os.ReadFile(filepath.Join(dirs[0], "main.exe"))
	if err != nil {
		return
	}
	cr, _ := json.Marshal(pp.Compile)
	// a cache that cannot be written costs only a compilation later
	e.cfg.Executables.Put(ctx, jetstream.ObjectMeta{Name: key, Metadata: map[string]string{cacheBuild: string(cr)}}, bytes.NewReader(data))
}
