package service

import (
	"bytes"
	"context"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/judge/lang"
	"github.com/optjudge/optjudge/judge/sandbox"
	"github.com/optjudge/optjudge/problems"
)

// Engine grades the submissions of one worker process. Everything the
// service knows about the engine's API is in this file.
type Engine interface {
	// Grade grades src on p; progress is told each finished test. The
	// error means the judge failed (a JE), as judge.Judge.Grade's does.
	Grade(ctx context.Context, p *problems.Problem, src Source, progress func(judge.TestResult)) (*Graded, error)
	// Languages is the language table submissions are checked against.
	Languages() *lang.Table
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
	Sandbox  sandbox.Options // one sandbox for the process, made by NewEngine's Judge
	Full     bool            // grade every test (default: stop at the first failure)
	Parallel int             // tests at once per grading; 0: 1
	TempDir  string          // "": the system's
	CacheDir string          // the Judge's Go build caches and sandbox helper; "": the user's cache directory
	Path     string          // PATH for compilers; "": the engine's default
	Home     string          // the user's home, for {home} in the language table (rustup's ~/.rustup); "": none
	// ProgramFirstUID is the lowest uid of the boxes of the problems'
	// programs (judge.Config.ProgramFirstUID); 0: apart from the
	// contestants', above them.
	ProgramFirstUID int
	// Executables caches builds by judge.BuildKey (language entry,
	// compiler, source); nil builds every time.
	Executables jetstream.ObjectStore
}

// NewEngine makes the worker process's one judge.Judge (one sandbox) and
// returns an Engine over it.
func NewEngine(cfg EngineConfig) (Engine, error) {
	j, err := judge.New(judge.Config{Sandbox: cfg.Sandbox, TempDir: cfg.TempDir, CacheDir: cfg.CacheDir, Path: cfg.Path, Home: cfg.Home, ProgramFirstUID: cfg.ProgramFirstUID})
	if err != nil {
		return nil, err
	}
	return &engine{cfg: cfg, j: j}, nil
}

type engine struct {
	cfg EngineConfig
	j   *judge.Judge
}

func (e *engine) Languages() *lang.Table { return e.j.Languages() }

func (e *engine) Isolation() string { return e.j.Isolation() }
func (e *engine) Close() error      { return e.j.Close() }

// Installed says why lang cannot be built and run here, or nil.
func (e *engine) Installed(lang *lang.Language) error { return e.j.Installed(lang) }

// runnable are the languages of eng's table it can build and run here:
// all of them for an engine that cannot tell (nil).
func runnable(eng Engine) []string {
	in, ok := eng.(interface{ Installed(*lang.Language) error })
	if eng == nil || !ok {
		return nil
	}
	out := []string{}
	for i := range eng.Languages().List {
		l := &eng.Languages().List[i]
		if in.Installed(l) == nil {
			out = append(out, l.Name)
		}
	}
	return out
}

func (e *engine) Grade(ctx context.Context, p *problems.Problem, src Source, progress func(judge.TestResult)) (*Graded, error) {
	lang, err := e.j.Languages().ByName(src.Language)
	if err != nil {
		return nil, err
	}
	pp, cached, err := e.prepare(ctx, p, lang, src)
	if err != nil {
		return nil, err
	}
	defer pp.Close()
	r, err := pp.Grade(ctx, p, judge.GradeOptions{Lazy: !e.cfg.Full, Parallel: max(e.cfg.Parallel, 1), Outputs: judge.OutputsRejected, Progress: progress})
	if err != nil {
		return nil, err
	}
	r.Submission, r.Language = src.Filename, lang.Name
	return &Graded{Report: r, Cached: cached}, nil
}

// prepare builds src, or takes its build from the cache (then cached is
// true and the report carries the first build's CompileResult).
func (e *engine) prepare(ctx context.Context, p *problems.Problem, lang *lang.Language, src Source) (pp *judge.Prepared, cached bool, err error) {
	// the problem's included files and limits are part of the build (and
	// of its key)
	sub, bo := judge.Submission{Path: src.Path}, judge.BuildOptions{Lang: lang.Name, Problem: p}
	key := ""
	if p.Package.StaticValidator == nil {
		// a cached build has no sources for a static validator
		key = e.buildKey(lang, sub, bo)
	}
	if pp := e.fromCache(ctx, key); pp != nil {
		return pp, true, nil
	}
	if pp, err = e.j.Prepare(ctx, sub, bo); err != nil {
		return nil, false, err
	}
	// Only a build that worked is cached: a failed one may have failed
	// for a reason of the moment (a wall or memory limit hit under load,
	// a signal) and must not stay a CE for good, rejudges included; nor
	// may a compiler's own refusal, which a header or library installed
	// since (the key holds the compiler, not its include path) turns
	// into a build, as a rejudge in DOMjudge compiles again.
	if key != "" && pp.Compile.OK {
		e.toCache(ctx, key, pp)
	}
	return pp, false, nil
}

// buildKey names a build in the cache, "" when the language has nothing
// worth caching (no compile step, or a run command that runs the source)
// or the key cannot be made (then Prepare says why).
func (e *engine) buildKey(lang *lang.Language, sub judge.Submission, bo judge.BuildOptions) string {
	if e.cfg.Executables == nil || len(lang.Compile) == 0 || !strings.Contains(strings.Join(lang.Run, " "), "{exe}") {
		return ""
	}
	key, err := e.j.BuildKey(sub, bo)
	if err != nil {
		return ""
	}
	return key
}

// fromCache makes a Prepared of a cached build (Prepared.Export's
// archive); nil on a miss, or on an archive this Judge refuses.
func (e *engine) fromCache(ctx context.Context, key string) *judge.Prepared {
	if key == "" {
		return nil
	}
	// a build the cache's age limit is taking away while it is read may
	// lack its chunks: the read would wait for them for good
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	data, err := e.cfg.Executables.GetBytes(ctx, key)
	if err != nil {
		return nil
	}
	pp, err := e.j.Import(bytes.NewReader(data))
	if err != nil {
		return nil
	}
	return pp
}

// toCache stores a build.
func (e *engine) toCache(ctx context.Context, key string, pp *judge.Prepared) {
	var buf bytes.Buffer
	if pp.Export(&buf) != nil {
		return
	}
	// a cache that cannot be written costs only a compilation later
	e.cfg.Executables.Put(ctx, jetstream.ObjectMeta{Name: key}, &buf)
}
