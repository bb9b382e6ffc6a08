package service

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"sync"
	"syscall"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/optjudge/optjudge/judge/service/store"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
)

// Library finds problems for the server and the workers: the ones embedded
// in the judge, the ones in a problems directory, and uploaded packages,
// fetched from the object store by content hash and kept unpacked in a
// cache directory. A problem is known by its name and its content hash
// (problems.Problem.Hash).
//
// The uploaded versions it keeps loaded and unpacked are bounded:
// MaxUploaded of them (DefaultMaxUploaded), the least recently used going
// first, but never one a grading holds (acquire); one asked for again is
// fetched and unpacked again. So a long-lived worker or server keeps at
// most MaxUploaded unpacked packages on disk (each at most
// DefaultUnpackLimits.Total) and in memory, however often a package is
// uploaded again.
type Library struct {
	store *Store
	cache string   // its own directory: unpacked packages, <cache>/<hash>/<name>
	lock  *os.File // cache's lock file, locked while the Library lives
	// MaxUploaded bounds the uploaded versions kept (see Library); 0:
	// DefaultMaxUploaded. Set it before the Library is used.
	MaxUploaded int

	mu       sync.Mutex
	local    map[string]*Problem    // embedded and --problems DIR, by name
	localBy  map[string]*Problem    // the same, by hash
	uploaded map[string]*versionUse // the uploaded versions loaded, by hash
	clock    uint64                 // counts uses, for the least recently used
	contest  *kattis.Contest        // the problems directory's, nil without one

	fetchHook func(hash string) // tests: called before a package is fetched, as a slow network would
}

// DefaultMaxUploaded is a Library's bound on the uploaded versions it
// keeps unpacked: the problems of a large contest, and their last
// versions.
const DefaultMaxUploaded = 64

// versionUse is an uploaded version loaded: its users (gradings that hold
// it) and its last use.
type versionUse struct {
	p     *Problem
	users int
	used  uint64
}

// Problem is a loaded problem and its content hash.
type Problem struct {
	*problems.Problem
	Hash     string
	Uploaded bool
}

// NewLibrary loads the embedded problems and those in dir ("" for none),
// and dir's contest.yaml and problems.yaml (see problems.Contest);
// uploaded packages are unpacked in a directory of its own under cache,
// which Close removes (and the next Library of that cache, after a crash:
// libraries of several processes may share a cache).
func NewLibrary(store *Store, dir, cache string) (*Library, error) {
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return nil, fmt.Errorf("the problem cache: %w", err)
	}
	own, err := os.MkdirTemp(cache, "lib-")
	if err != nil {
		return nil, fmt.Errorf("the problem cache: %w", err)
	}
	lock, err := lockLibrary(own)
	if err != nil {
		os.RemoveAll(own)
		return nil, fmt.Errorf("the problem cache: %w", err)
	}
	removeStaleLibraries(cache, own)
	l := &Library{store: store, cache: own, lock: lock, local: map[string]*Problem{}, localBy: map[string]*Problem{},
		uploaded: map[string]*versionUse{}}
	if err := l.loadLocal(dir); err != nil {
		l.Close()
		return nil, err
	}
	return l, nil
}

func (l *Library) loadLocal(dir string) error {
	for _, name := range problems.Embedded() {
		p, err := problems.LoadEmbedded(name)
		if err != nil {
			return err
		}
		l.addLocal(p)
	}
	if dir == "" {
		return nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("--problems: %w", err)
	}
	if l.contest, err = kattis.LoadContest(dir); err != nil {
		return fmt.Errorf("--problems: %w", err)
	}
	for _, e := range ents {
		sub := filepath.Join(dir, e.Name())
		if _, err := os.Stat(filepath.Join(sub, "problem.yaml")); !e.IsDir() || err != nil {
			continue
		}
		p, err := problems.LoadDir(sub)
		if err != nil {
			return err
		}
		l.addLocal(p)
	}
	if c := l.contest; c != nil {
		for _, e := range c.Problems {
			if l.local[e.ID] == nil {
				c.Warnings = append(c.Warnings, kattis.Warning{File: filepath.Join(dir, "problems.yaml"), Line: e.Line,
					Msg: fmt.Sprintf("problem %q is not in %s: it is listed once a package of that name is uploaded", e.ID, dir)})
			}
		}
	}
	return nil
}

// Contest is the problems directory's contest (its contest.yaml and
// problems.yaml); nil when it has neither. Its entries name problems
// whether they are in the directory or uploaded.
func (l *Library) Contest() *kattis.Contest { return l.contest }

// Close removes the Library's unpacked packages.
func (l *Library) Close() error {
	err := os.RemoveAll(l.cache)
	l.lock.Close()
	return err
}

// A Library's directory holds a lock file, locked while it lives: a
// directory whose lock anyone can take is a crashed process's.
const libraryLock = ".lock"

var libraryDir = regexp.MustCompile(`^lib-[0-9]+$`)

// lockLibrary makes and locks dir's lock file. It is locked before it
// gets its name: another process never finds it unlocked.
func lockLibrary(dir string) (*os.File, error) {
	f, err := os.CreateTemp(dir, libraryLock+"-")
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	if err := os.Rename(f.Name(), filepath.Join(dir, libraryLock)); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// removeStaleLibraries removes the directories under cache of the
// libraries that are gone, but own.
func removeStaleLibraries(cache, own string) {
	ents, err := os.ReadDir(cache)
	if err != nil {
		return
	}
	for _, e := range ents {
		dir := filepath.Join(cache, e.Name())
		if !e.IsDir() || !libraryDir.MatchString(e.Name()) || dir == own {
			continue
		}
		f, err := os.Open(filepath.Join(dir, libraryLock))
		if err != nil {
			continue // being made, or not a Library's
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			os.RemoveAll(dir)
		}
		f.Close()
	}
}

func (l *Library) addLocal(p *problems.Problem) {
	lp := &Problem{Problem: p, Hash: p.Hash()}
	l.local[p.Name] = lp
	l.localBy[lp.Hash] = lp
}

// Current is the version of a problem new submissions are graded on: the
// latest upload of that name, else the local one. It is nil, nil for an
// unknown problem.
func (l *Library) Current(ctx context.Context, name string) (*Problem, error) {
	if l.store != nil {
		var up UploadedProblem
		_, err := store.GetJSON(ctx, l.store.Problems, name, &up)
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
			e.name, e.have.Package.Origin, e.have.Hash, e.hash)
	}
	return fmt.Sprintf("problem %s (hash %.12s): not on this worker and no package of that hash was uploaded", e.name, e.hash)
}

// ByHash finds the problem of that name and content hash: a local one, one
// unpacked before, or the uploaded package, fetched and unpacked now. The
// server reads an uploaded one at once: a Library evicts it only after
// MaxUploaded other versions were used since.
func (l *Library) ByHash(ctx context.Context, name, hash string) (*Problem, error) {
	return l.get(ctx, name, hash, false)
}

// acquire is ByHash for a grading: an uploaded version stays unpacked
// until release.
func (l *Library) acquire(ctx context.Context, name, hash string) (*Problem, error) {
	return l.get(ctx, name, hash, true)
}

// release ends a hold of acquire.
func (l *Library) release(p *Problem) {
	l.mu.Lock()
	if u := l.uploaded[p.Hash]; u != nil && u.p == p && u.users > 0 {
		u.users--
	}
	gone := l.evictLocked()
	l.mu.Unlock()
	removeDirs(gone)
}

// cached is the problem of that name and hash if it is loaded, else nil;
// it fetches nothing.
func (l *Library) cached(name, hash string) *Problem {
	l.mu.Lock()
	defer l.mu.Unlock()
	if p := l.localBy[hash]; p != nil && p.Name == name {
		return p
	}
	if u := l.uploaded[hash]; u != nil && u.p.Name == name {
		return u.p
	}
	return nil
}

func (l *Library) get(ctx context.Context, name, hash string, hold bool) (*Problem, error) {
	l.mu.Lock()
	if p := l.localBy[hash]; p != nil && p.Name == name {
		l.mu.Unlock()
		return p, nil
	}
	if u := l.uploaded[hash]; u != nil && u.p.Name == name {
		l.use(u, hold)
		l.mu.Unlock()
		return u.p, nil
	}
	have := l.local[name]
	l.mu.Unlock()
	p, err := l.fetch(ctx, hash, hold)
	if errors.Is(err, jetstream.ErrObjectNotFound) || (err == nil && p.Name != name) {
		if err == nil && hold {
			l.release(p)
		}
		return nil, &errNoProblem{name: name, hash: hash, have: have}
	}
	if err != nil {
		return nil, err
	}
	return p, nil
}

func (l *Library) use(u *versionUse, hold bool) {
	l.clock++
	u.used = l.clock
	if hold {
		u.users++
	}
}

// evictLocked forgets the least recently used versions no grading holds
// while there are more than MaxUploaded, and returns their directories
// for removeDirs once the lock is released. Each is renamed at once (a
// fetch of the same version unpacks afresh beside it).
func (l *Library) evictLocked() []string {
	limit := l.MaxUploaded
	if limit <= 0 {
		limit = DefaultMaxUploaded
	}
	var gone []string
	for len(l.uploaded) > limit {
		var oldest *versionUse
		for _, u := range l.uploaded {
			if u.users == 0 && (oldest == nil || u.used < oldest.used) {
				oldest = u
			}
		}
		if oldest == nil {
			break // all held: the next release evicts
		}
		delete(l.uploaded, oldest.p.Hash)
		dir := filepath.Join(l.cache, oldest.p.Hash)
		trash, err := os.MkdirTemp(l.cache, "evicted-")
		if err == nil {
			err = os.Rename(dir, filepath.Join(trash, "v"))
		}
		if err != nil {
			trash = dir // removed in place: a read of it now fails, and fetches it again
		}
		gone = append(gone, trash)
	}
	return gone
}

// removeDirs removes the directories of evicted versions.
func removeDirs(dirs []string) {
	for _, d := range dirs {
		os.RemoveAll(d)
	}
}

// fetch unpacks the uploaded package of that hash into the cache (once)
// and loads it.
func (l *Library) fetch(ctx context.Context, hash string, hold bool) (*Problem, error) {
	if !hashRE.MatchString(hash) {
		return nil, jetstream.ErrObjectNotFound
	}
	dir := filepath.Join(l.cache, hash)
	if p, err := l.loadUnpacked(dir, hash, hold); err == nil {
		return p, nil
	}
	if l.store == nil {
		return nil, jetstream.ErrObjectNotFound
	}
	if l.fetchHook != nil {
		l.fetchHook(hash)
	}
	data, err := l.store.Packages.GetBytes(ctx, hash)
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
	return l.loadUnpacked(dir, hash, hold)
}

// loadUnpacked loads the package unpacked in dir, checks that its files
// hash to hash, and keeps it (held, with hold).
func (l *Library) loadUnpacked(dir, hash string, hold bool) (*Problem, error) {
	ents, err := os.ReadDir(dir)
	if err != nil || len(ents) != 1 {
		return nil, fmt.Errorf("%s: not an unpacked package", dir)
	}
	p, err := problems.LoadDir(filepath.Join(dir, ents[0].Name()))
	if err != nil {
		return nil, err
	}
	if h := p.Hash(); h != hash {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("package %.12s: its files hash to %.12s", hash, h)
	}
	l.mu.Lock()
	u := l.uploaded[hash]
	if u == nil {
		u = &versionUse{p: &Problem{Problem: p, Hash: hash, Uploaded: true}}
		l.uploaded[hash] = u
	}
	l.use(u, hold)
	gone := l.evictLocked()
	l.mu.Unlock()
	removeDirs(gone)
	return u.p, nil
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
		keys, err := l.store.Problems.Keys(ctx)
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
