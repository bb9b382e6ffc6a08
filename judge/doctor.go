package judge

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/optjudge/optjudge/internal/proc"
	"github.com/optjudge/optjudge/judge/lang"
)

// LanguageStatus says whether a language can be built here, for judge
// doctor.
type LanguageStatus struct {
	Name, Title string
	Path        string // its compiler, else its interpreter, as found on the PATH
	Version     string // the first line its version command printed; "" without one
	Err         error  // why it cannot be built: a *lang.NotInstalledError, or the version command's failure
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
func (j *Judge) LanguageStatus(ctx context.Context, langs *lang.Table) []LanguageStatus {
	langs = j.table(langs)
	out := make([]LanguageStatus, len(langs.List))
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for i := range langs.List {
		lang := &langs.List[i]
		out[i] = LanguageStatus{Name: lang.Name, Title: lang.DisplayName()}
		tc, err := j.finder.Find(lang, true)
		if err != nil {
			out[i].Err = err
			if used, _, ferr := j.finder.Installed(j.table(langs), lang, true); ferr == nil && used != lang {
				out[i].FallsBack = used.Name
			}
			continue
		}
		out[i].Path = tc.Compiler
		if out[i].Path == "" {
			out[i].Path = tc.Interp
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
func (j *Judge) version(ctx context.Context, lang *lang.Language, tc *lang.Toolchain) (string, error) {
	argv := append([]string(nil), lang.Version...)
	switch {
	case len(lang.Compile) > 0 && argv[0] == lang.Compile[0]:
		argv[0] = tc.Compiler
	case argv[0] == lang.Run[0] && tc.Interp != "":
		argv[0] = tc.Interp
	default:
		p, err := j.finder.LookUp(lang, argv[0], tc)
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

// Installed reports why lang cannot be built here (a *lang.NotInstalledError:
// its compiler or interpreter is not on the PATH where the boxes see it,
// nor its fallback's), or nil.
func (j *Judge) Installed(lang *lang.Language) error {
	_, err := j.BuiltAs(lang)
	return err
}

// BuiltAs is the language a submission in lang is built in here: lang, or
// its fallback (in the Judge's table) when lang is not installed and the
// fallback is (python3 as cpython3 without PyPy).
func (j *Judge) BuiltAs(lang *lang.Language) (*lang.Language, error) {
	used, _, err := j.finder.Installed(j.table(nil), lang, true)
	if err != nil {
		return nil, err
	}
	return used, nil
}
