// Package judge grades submissions: it builds a contestant's program inside
// the sandbox, runs it on every test of a problem under the problem's limits,
// hands each output to the problem's checker and reports the verdicts.
//
// A Judge is made once per process (the CLI: one per command; a grading
// service: one per worker process) and used by any number of goroutines:
//
//	j, err := judge.New(judge.Config{Path: os.Getenv("PATH")})
//	defer j.Close()
//	r, err := j.Grade(ctx, problem, judge.Submission{Path: "sol.cpp"}, judge.BuildOptions{}, judge.GradeOptions{})
//
// It owns the language table, the one sandbox every program runs in, a
// temporary directory, the Go build caches and the cap on the programs in
// flight across all its gradings; New applies every default, once.
// Prepare builds a submission once and Prepared.Grade grades it on any
// tests, as often as needed; a problem's own checker and validators
// (Checker, Checkers, InputValidators, AnswerValidators, an interactive
// validator) are built once per Judge and problem version
// (problems.Problem.Hash) and shared by every grading. BuildKey, Export and
// Import let a service keep builds in a cache of its own.
//
// A Kattis package is graded as its format version says: each test with
// its own checker (the default output validator's flags, a custom
// validator's arguments), an interactive problem's validator running beside
// the submission (interact), and the results graded by the package's rules
// into the report's Score (kattis.Package.Grade).
//
// Every build of a contestant's program runs in the sandbox as its runs do:
// a box of its own with the toolchain read-only, the build directory
// holding the submission writable, no network, nothing of the judge's
// files, a uid of its own, and the limits of the language table. A problem's
// programs are the problem setter's code, trusted for their verdicts: they
// build and run through the same build path in a sandbox of their own
// (programs.go), at the same level, with uids apart from the
// contestants', each run seeing only its build, the files it judges and
// the directory it may write, under validation_time, validation_memory
// and validation_output.
//
// A contestant's failure (CE, WA, TLE, ...) is data in the report with a
// nil error; an error means the judge itself could not grade, and no
// verdict may be taken from it.
package judge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/optjudge/optjudge/internal/proc"
	"github.com/optjudge/optjudge/judge/lang"
	"github.com/optjudge/optjudge/judge/sandbox"
)

// Config is what a Judge is made with. The zero value works: the embedded
// language table, the strongest sandbox the machine allows, the system's
// temporary directory and the user's cache directory.
type Config struct {
	Languages *lang.Table     // the language table; nil: lang.Default()
	Sandbox   sandbox.Options // New starts exactly one sandbox with these (CacheDir: the Judge's, if empty)
	TempDir   string          // where the Judge makes its directory (and Keep's); "": os.TempDir()
	CacheDir  string          // the Go build caches and the sandbox's helper; "": os.UserCacheDir()/optjudge
	Path      string          // the PATH compilers are found on (the user's); "": proc.DefaultPath
	Home      string          // the user's home, for {home} in the language table; "": none
	MaxRuns   int             // programs in the sandbox at once, the tests and builds of every grading; 0: runtime.NumCPU()
	// BuildCache is a directory where the builds that compiled are kept
	// across Prepares and processes, by BuildKey (buildcache.go); "":
	// every Prepare builds.
	BuildCache string
	// MaxToolVersions bounds the problem versions whose built programs
	// (checkers, validators, graders) the Judge keeps; 0:
	// DefaultMaxToolVersions (see Judge.Checker).
	MaxToolVersions int
	// ProgramFirstUID is the lowest uid of the boxes of the problem's
	// programs (programs.go), as Sandbox.FirstUID is the contestants';
	// 0: sandbox.MaxBoxUIDs above the contestants' range, so that the two
	// never meet.
	ProgramFirstUID int
}

// Judge grades submissions. It is safe for concurrent use; Close it once
// every call has returned.
type Judge struct {
	cfg    Config
	sb     *sandbox.Sandbox
	finder lang.Finder   // the language table's toolchains on Config.Path, as the boxes see them
	tmp    string        // the Judge's own directory, removed by Close
	lock   *os.File      // its lock file, locked while the Judge lives
	runs   chan struct{} // a token per program in flight
	lent   lending       // the tokens of runs asleep, lent away (asleep.go)

	boxGoCache  string // every build in a box reads it; only the judge writes it
	toolGoCache string // the judge's own `go list std`

	psbMu   sync.Mutex
	psb     *sandbox.Sandbox // the problem programs' sandbox, once one ran (programs.go)
	closing bool

	mu        sync.Mutex
	tools     map[string]*toolEntry      // built problem programs, by toolKey
	versions  map[string]*toolVersion    // the problem versions of tools, by hash
	toolClock uint64                     // counts the uses of versions
	goWarm    map[string]bool            // standard packages built into boxGoCache
	goStdPkgs map[string]map[string]bool // `go list std`, by go command
	compilers map[string]string          // compiler identities for BuildKey, by file
}

// New makes a Judge: it applies the defaults of cfg, starts the sandbox
// and makes the Judge's temporary directory.
func New(cfg Config) (*Judge, error) {
	if cfg.Languages == nil {
		cfg.Languages = lang.Default()
	}
	if cfg.TempDir == "" {
		cfg.TempDir = os.TempDir()
	}
	if cfg.Path == "" {
		cfg.Path = proc.DefaultPath
	}
	if cfg.MaxRuns <= 0 {
		cfg.MaxRuns = runtime.NumCPU()
	}
	if cfg.MaxToolVersions <= 0 {
		cfg.MaxToolVersions = DefaultMaxToolVersions
	}
	if cfg.CacheDir == "" {
		ucd, err := os.UserCacheDir()
		if err != nil {
			return nil, fmt.Errorf("no cache directory (set Config.CacheDir): %w", err)
		}
		cfg.CacheDir = filepath.Join(ucd, "optjudge")
	}
	if cfg.Sandbox.CacheDir == "" {
		cfg.Sandbox.CacheDir = cfg.CacheDir
	}
	j := &Judge{
		cfg: cfg, runs: make(chan struct{}, cfg.MaxRuns), lent: lending{room: memoryTotal() / 2},
		boxGoCache: filepath.Join(cfg.CacheDir, "go-build-box"), toolGoCache: filepath.Join(cfg.CacheDir, "go-build"),
		tools: map[string]*toolEntry{}, versions: map[string]*toolVersion{}, goWarm: map[string]bool{}, goStdPkgs: map[string]map[string]bool{}, compilers: map[string]string{},
	}
	sb, err := sandbox.New(cfg.Sandbox)
	if err != nil {
		return nil, fmt.Errorf("starting the sandbox: %w", err)
	}
	j.sb = sb
	j.finder = lang.Finder{Path: cfg.Path, Home: cfg.Home, Reachable: sb.Reachable}
	if err := j.makeDirs(); err != nil {
		j.Close()
		return nil, err
	}
	return j, nil
}

// makeDirs makes the Judge's directory, which the boxes' uids may pass
// (mode 0711) but not list, and the Go caches.
func (j *Judge) makeDirs() error {
	tmp, err := os.MkdirTemp(j.cfg.TempDir, "optjudge-")
	if err == nil {
		j.tmp = tmp
		err = os.Chmod(tmp, 0o711)
	}
	if err != nil {
		return fmt.Errorf("making the judge's directory: %w", err)
	}
	if err := j.sb.Reachable(tmp); err != nil {
		return fmt.Errorf("Config.TempDir %s: %w", j.cfg.TempDir, err)
	}
	if j.lock, err = lockDir(tmp); err != nil {
		return fmt.Errorf("locking the judge's directory: %w", err)
	}
	sweepStale(j.cfg.TempDir, tmp)
	for _, d := range []string{j.boxGoCache, j.toolGoCache} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return fmt.Errorf("making the Go build cache: %w", err)
		}
	}
	if j.sb.Reachable(j.boxGoCache) != nil {
		// at level none a root judge's box uids read the contestants' Go
		// cache where they can reach it: in the Judge's own directory
		j.boxGoCache = filepath.Join(tmp, "go-build-box")
		if err := os.Mkdir(j.boxGoCache, 0o755); err != nil {
			return fmt.Errorf("making the Go build cache: %w", err)
		}
	}
	return nil
}

// Close stops the sandbox and removes the Judge's directory with every
// build in it (a Keep build stays).
func (j *Judge) Close() error {
	first := j.closePrograms()
	if j.sb != nil {
		if err := j.sb.Close(); err != nil && first == nil {
			first = err
		}
	}
	if j.tmp != "" {
		if err := removeAll(j.tmp); err != nil && first == nil {
			first = err
		}
	}
	if j.lock != nil {
		j.lock.Close()
	}
	return first
}

// Isolation is the sandbox's level: "none", "namespaces" or
// "namespaces+cgroup".
func (j *Judge) Isolation() string { return j.sb.Isolation() }

// Warning is one line when containment is weak, else "". At level none it
// says that builds are not contained either.
func (j *Judge) Warning() string {
	w := j.sb.Warning()
	if j.sb.Isolation() == sandbox.IsolationNone {
		builds := "compilation and the problem's programs are not contained: they run as the judge's own user, with its files in view"
		if j.sb.OwnUIDs() {
			builds = "compilation and the problem's programs are not contained: they run as box uids, with the machine's files in view"
		}
		if w == "" {
			return builds
		}
		return w + "; " + builds
	}
	return w
}

// Layers lists the sandbox's containment mechanisms, for `judge doctor`.
func (j *Judge) Layers() []sandbox.Layer { return j.sb.Layers() }

// CacheDir is the Judge's cache directory (Config.CacheDir), where callers
// may keep what they compute once per problem version too.
func (j *Judge) CacheDir() string { return j.cfg.CacheDir }

// LookPath finds a program on the Judge's PATH, as a problem's programs
// and tools (checktestdata, viva) are found.
func (j *Judge) LookPath(name string) (string, error) { return proc.LookPath(name, j.cfg.Path, nil) }

// Path is the PATH the Judge finds programs on (Config.Path).
func (j *Judge) Path() string { return j.cfg.Path }

// Languages is the Judge's language table.
func (j *Judge) Languages() *lang.Table { return j.cfg.Languages }

// table is the language table of a build: langs, or (nil) the Judge's.
func (j *Judge) table(langs *lang.Table) *lang.Table {
	if langs == nil {
		return j.cfg.Languages
	}
	return langs
}

// run runs one program in the sandbox, once a token of MaxRuns is free.
// A test's run (its context has an asleep hook, withAsleep) that sleeps
// lends its token away (watchAsleep).
func (j *Judge) run(ctx context.Context, c *sandbox.Cmd) (*sandbox.Result, error) {
	select {
	case j.runs <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	asleep := asleepHook(ctx)
	if asleep != nil && c.Probe == nil {
		cc := *c
		cc.Probe = &sandbox.Probe{}
		c = &cc
	}
	stop := j.watchAsleep(asleep, c.Probe, c.Limits.Memory)
	defer func() {
		if stop() {
			j.lent.give(c.Limits.Memory)
		} else {
			<-j.runs
		}
	}()
	return j.sb.Run(ctx, c)
}

// removeAll removes a directory the boxes may have taken rights away
// from.
func removeAll(dir string) error {
	if err := os.RemoveAll(dir); err == nil {
		return nil
	}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			chmodDir(p, 0o700)
		}
		return nil
	})
	if err := os.RemoveAll(dir); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// TempDir is the Judge's own directory, where a caller may keep scratch
// files (judge verify copies submissions there); Close removes it.
func (j *Judge) TempDir() string { return j.tmp }
