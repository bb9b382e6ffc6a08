package judge

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/optjudge/optjudge/internal/proc"
)

// LanguageStatus says whether a language can be built here, for judge
// doctor.
type LanguageStatus struct {
	Name, Title string
	Path        string // its compiler, else its interpreter, as found on the PATH
	Version     string // the first line its version command printed; "" without one
	Err         error  // why it cannot be built: a *NotInstalledError, or the version command's failure
	// FallsBack names the language its submissions are built in instead
	// (Language.Fallback) when Err says it is not installed and that one
	// is; "" otherwise.
	FallsBack string
}

// versionTimeout bounds a version command (kotlinc -version starts a JVM).
const versionTimeout = time.Minute

// LanguageStatus reports, for every language of langs (nil: the Judge's
// table) in table order, whether its compiler and interpreter are on the
// PATH where the boxes see them, and its compiler's version: its version
// command, run outside the sandbox (it is the user's own compiler, given
// no contestant's input nor a problem's program), two at a time.
func (j *Judge) LanguageStatus(ctx context.Context, langs *Languages) []LanguageStatus {
	langs = j.table(langs)
	out := make([]LanguageStatus, len(langs.List))
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for i := range langs.List {
		lang := &langs.List[i]
		out[i] = LanguageStatus{Name: lang.Name, Title: lang.DisplayName()}
		tc, err := j.toolchain(lang)
		if err != nil {
			out[i].Err = err
			if used, _, ferr := j.installed(langs, lang, true); ferr == nil && used != lang {
				out[i].FallsBack = used.Name
			}
			continue
		}
		out[i].Path = tc.compiler
		if out[i].Path == "" {
			out[i].Path = tc.interp
		}
		if len(lang.Version) == 0 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			out[i].Version, out[i].Err = j.version(ctx, lang, tc)
		}()
	}
	wg.Wait()
	return out
}

// version runs lang's version command and returns the first line it
// printed that is not a warning (kotlinc's JVM warns first), "info: " cut.
func (j *Judge) version(ctx context.Context, lang *Language, tc *toolchain) (string, error) {
	argv := append([]string(nil), lang.Version...)
	switch {
	case len(lang.Compile) > 0 && argv[0] == lang.Compile[0]:
		argv[0] = tc.compiler
	case argv[0] == lang.Run[0] && tc.interp != "":
		argv[0] = tc.interp
	default:
		p, err := j.lookUp(lang, argv[0], true, func(string) []string { return tc.readOnly })
		if err != nil {
			return "", err
		}
		argv[0] = p
	}
	dir, err := os.MkdirTemp(j.tmp, "version-")
	if err != nil {
		return "", err
	}
	defer removeAll(dir)
	r, err := proc.Run(ctx, &proc.Cmd{Argv: argv, Dir: dir, Env: j.trustedEnv(dir, tc), Timeout: versionTimeout})
	if err != nil {
		return "", err
	}
	for _, l := range strings.Split(string(r.Stdout)+"\n"+string(r.Stderr), "\n") {
		l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "info: "))
		if l != "" && !strings.Contains(strings.ToLower(l), "warning") {
			return l, nil
		}
	}
	if r.ExitCode != 0 || r.TimedOut {
		return "", errors.New(strings.Join(argv, " ") + ": failed, printing nothing")
	}
	return "", nil
}

// Installed reports why lang cannot be built here (a *NotInstalledError:
// its compiler or interpreter is not on the PATH where the boxes see it,
// nor its fallback's), or nil.
func (j *Judge) Installed(lang *Language) error {
	_, err := j.BuiltAs(lang)
	return err
}

// BuiltAs is the language a submission in lang is built in here: lang, or
// its fallback (in the Judge's table) when lang is not installed and the
// fallback is (python3 as cpython3 without PyPy).
func (j *Judge) BuiltAs(lang *Language) (*Language, error) {
	used, _, err := j.installed(nil, lang, true)
	if err != nil {
		return nil, err
	}
	return used, nil
}
