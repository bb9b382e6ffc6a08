package judge

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"github.com/optjudge/optjudge/judge/lang"
)

// A build cache (Config.BuildCache) is a directory of builds that
// compiled, each the archive Prepared.Export writes, named by its
// BuildKey: a later Prepare of the same sources in the same language
// entry with the same compiler takes the build from there instead of
// compiling again, in this process or another (the CLI's runs one after
// the other, as BAPCtools keeps its builds). Only a build that worked is
// kept: a failure may be of the moment (a limit hit under load) and must
// not stay a CE. The directory is the user's: nothing in it is ever
// removed.

// cacheable reports whether a build of src for o may come from the build
// cache: a language with a build step, a build nobody asked to keep, and
// no static validator (which reads the sources a cached build lacks).
func (j *Judge) cacheable(src *sourceSet, o BuildOptions) bool {
	return j.cfg.BuildCache != "" && src.lang != nil && len(src.lang.Compile) > 0 && !o.Keep &&
		(o.Problem == nil || o.Problem.Package.StaticValidator == nil)
}

// prepareCached prepares sub through the build cache: the kept build of
// its key, else a build made now and kept if it compiled. A cache that
// cannot be read or written costs only a compilation.
func (j *Judge) prepareCached(ctx context.Context, sub Submission, o BuildOptions, src *sourceSet, tc *lang.Toolchain) (*Prepared, error) {
	key, err := j.buildKey(sub, src, o)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(j.cfg.BuildCache, key+".tar")
	if pp := j.fromBuildCache(path); pp != nil {
		pp.Submission = sub
		return pp, nil
	}
	pp := &Prepared{Submission: sub, j: j, langs: j.table(o.Languages), Compile: CompileResult{OK: true}}
	if err := j.prepareSource(ctx, pp, src, tc, o); err != nil {
		pp.Close()
		return nil, err
	}
	if pp.Compile.OK {
		j.toBuildCache(path, pp)
	}
	return pp, nil
}

// fromBuildCache is the build kept at path, nil if there is none or it
// does not import.
func (j *Judge) fromBuildCache(path string) *Prepared {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	pp, err := j.Import(f)
	if err != nil || pp.prog == nil {
		if pp != nil {
			pp.Close()
		}
		return nil
	}
	return pp
}

// toBuildCache keeps pp at path: written beside it and renamed into place,
// so that a reader, or a concurrent writer of the same key, sees a whole
// archive or none.
func (j *Judge) toBuildCache(path string, pp *Prepared) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".build-*")
	if err != nil {
		return
	}
	err = pp.Export(f)
	err = errors.Join(err, f.Close())
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
}
