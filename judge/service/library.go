package service

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/optjudge/optjudge/problems"
)

// Library finds problems for the server and the workers: the ones embedded
// in the judge, the ones in a problems directory, and uploaded packages,
// fetched from the object store by content hash and kept unpacked in a
// cache directory. A problem is known by its name and its content hash.
type Library struct {
	store *Store
	cache string // unpacked packages, <cache>/<hash>/<name>

	mu     sync.Mutex
	local  map[string]*Problem // embedded and --problems DIR, by name
	byHash map[string]*Problem // everything loaded, by hash

	fetchHook func(hash string) // tests: called before a package is fetched, as a slow network would
}

// Problem is a loaded problem and its content hash.
type Problem struct {
	*problems.Problem
	Hash     string
	Uploaded bool
}

// NewLibrary loads the embedded problems and those in dir ("" for none);
// uploaded packages are unpacked under cache.
func NewLibrary(store *Store, dir, cache string) (*Library, error) {
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return nil, fmt.Errorf("the problem cache: %w", err)
	}
	l := &Library{store: store, cache: cache, local: map[string]*Problem{}, byHash: map[string]*Problem{}}
	for _, name := range problems.Embedded() {
		p, err := problems.LoadEmbedded(name)
		if err != nil {
			return nil, err
		}
		if err := l.addLocal(p); err != nil {
			return nil, err
		}
	}
	if dir == "" {
		return l, nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("--problems: %w", err)
	}
	for _, e := range ents {
		sub := filepath.Join(dir, e.Name())
		if _, err := os.Stat(filepath.Join(sub, "problem.yaml")); !e.IsDir() || err != nil {
			continue
		}
		p, err := problems.LoadDir(sub)
		if err != nil {
			return nil, err
		}
		if err := l.addLocal(p); err != nil {
			return nil, err
		}
	}
	return l, nil
}

func (l *Library) addLocal(p *problems.Problem) error {
	h, err := Hash(p.FS)
	if err != nil {
		return fmt.Errorf("hashing %s: %w", p.Origin, err)
	}
	lp := &Problem{Problem: p, Hash: h}
	l.local[p.Name] = lp
	l.byHash[h] = lp
	return nil
}

// Hash is the problem's content hash: hex sha256 over every file of the
// directory, in sorted path order, each as its path, its length and its
// bytes. (It belongs with problems.Problem, as ENGINE-API.md's Hash, once
// that lands.)
func Hash(fsys fs.FS) (string, error) {
	var paths []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Strings(paths)
	h := sha256.New()
	for _, p := range paths {
		f, err := fsys.Open(p)
		if err != nil {
			return "", err
		}
		st, err := f.Stat()
		if err != nil {
			f.Close()
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", p, st.Size())
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Current is the version of a problem new submissions are graded on: the
// latest upload of that name, else the local one. It is nil, nil for an
// unknown problem.
func (l *Library) Current(ctx context.Context, name string) (*Problem, error) {
	if l.store != nil {
		var up UploadedProblem
		_, err := getJSON(ctx, l.store.problems, name, &up)
		switch {
		case err == nil:
			return l.ByHash(ctx, name, up.Hash)
		case !errors.Is(err, jetstream.ErrKeyNotFound):
			return nil, err
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.local[name], nil
}

// errNoProblem says that a problem of that name and hash is nowhere.
type errNoProblem struct {
	name, hash string
	have       *Problem // the local copy of that name, if any
}

func (e *errNoProblem) Error() string {
	if e.have != nil {
		return fmt.Sprintf("problem %s: this worker's copy (%s, hash %.12s) differs from the job's (hash %.12s) and no package of that hash was uploaded",
			e.name, e.have.Origin, e.have.Hash, e.hash)
	}
	return fmt.Sprintf("problem %s (hash %.12s): not on this worker and no package of that hash was uploaded", e.name, e.hash)
}

// ByHash finds the problem of that name and content hash: a local one, one
// unpacked before, or the uploaded package, fetched and unpacked now.
func (l *Library) ByHash(ctx context.Context, name, hash string) (*Problem, error) {
	l.mu.Lock()
	p := l.byHash[hash]
	have := l.local[name]
	l.mu.Unlock()
	if p != nil && p.Name == name {
		return p, nil
	}
	p, err := l.fetch(ctx, hash)
	if errors.Is(err, jetstream.ErrObjectNotFound) || (err == nil && p.Name != name) {
		return nil, &errNoProblem{name: name, hash: hash, have: have}
	}
	if err != nil {
		return nil, err
	}
	return p, nil
}

// fetch unpacks the uploaded package of that hash into the cache (once)
// and loads it.
func (l *Library) fetch(ctx context.Context, hash string) (*Problem, error) {
	if !hashRE.MatchString(hash) {
		return nil, jetstream.ErrObjectNotFound
	}
	dir := filepath.Join(l.cache, hash)
	if p, err := l.loadUnpacked(dir, hash); err == nil {
		return p, nil
	}
	if l.store == nil {
		return nil, jetstream.ErrObjectNotFound
	}
	if l.fetchHook != nil {
		l.fetchHook(hash)
	}
	data, err := l.store.packages.GetBytes(ctx, hash)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(l.cache, "fetch-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	name, err := Unpack(data, tmp, DefaultUnpackLimits)
	if err != nil {
		return nil, fmt.Errorf("package %.12s: %w", hash, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if err := os.Rename(filepath.Join(tmp, name), filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, err
	}
	return l.loadUnpacked(dir, hash)
}

func (l *Library) loadUnpacked(dir, hash string) (*Problem, error) {
	ents, err := os.ReadDir(dir)
	if err != nil || len(ents) != 1 {
		return nil, fmt.Errorf("%s: not an unpacked package", dir)
	}
	p, err := problems.LoadDir(filepath.Join(dir, ents[0].Name()))
	if err != nil {
		return nil, err
	}
	h, err := Hash(p.FS)
	if err != nil {
		return nil, err
	}
	if h != hash {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("package %.12s: its files hash to %.12s", hash, h)
	}
	if err := runsNothing(p); err != nil {
		// the server refuses such uploads; this one came some other way
		return nil, fmt.Errorf("uploaded package %.12s: %w", hash, err)
	}
	lp := &Problem{Problem: p, Hash: h, Uploaded: true}
	l.mu.Lock()
	l.byHash[h] = lp
	l.mu.Unlock()
	return lp, nil
}

// Names lists the problems new submissions can name, sorted.
func (l *Library) Names(ctx context.Context) ([]string, error) {
	seen := map[string]bool{}
	l.mu.Lock()
	for n := range l.local {
		seen[n] = true
	}
	l.mu.Unlock()
	if l.store != nil {
		keys, err := l.store.problems.Keys(ctx)
		if err != nil && !errors.Is(err, jetstream.ErrNoKeysFound) {
			return nil, err
		}
		for _, k := range keys {
			seen[k] = true
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return names, nil
}
