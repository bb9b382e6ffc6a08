package judging

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// has reports whether c holds key.
func (c *solverCache) has(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.byKey[key]
	return ok
}

// counting is a build that counts its calls, each making a new solver.
func counting(n *atomic.Int32) func() (*engine.Solver, error) {
	return func() (*engine.Solver, error) {
		n.Add(1)
		return new(engine.Solver), nil
	}
}

// TestSolverCacheEvicts: past its bound the cache forgets the least
// recently used solver, which a later get builds again.
func TestSolverCacheEvicts(t *testing.T) {
	c := newSolverCache(2)
	var builds atomic.Int32
	a, _ := c.get("a", counting(&builds))
	c.get("b", counting(&builds))
	if again, _ := c.get("a", counting(&builds)); again != a {
		t.Fatalf("got another solver for a, want the one cached")
	}
	c.get("c", counting(&builds)) // b is the least recently used
	if !c.has("a") || c.has("b") || !c.has("c") {
		t.Fatalf("got a %v, b %v, c %v cached, want a and c", c.has("a"), c.has("b"), c.has("c"))
	}
	if n := builds.Load(); n != 3 {
		t.Fatalf("got %d builds, want 3", n)
	}
	c.get("b", counting(&builds))
	if n := builds.Load(); n != 4 || c.has("a") {
		t.Fatalf("got %d builds and a cached %v, want b built again and a evicted", n, c.has("a"))
	}
	for i := range 10 {
		c.get(fmt.Sprint(i), counting(&builds))
	}
	if len(c.byKey) != 2 {
		t.Fatalf("got %d solvers cached, want 2", len(c.byKey))
	}
}

// TestSolverCacheBuildsOnce: callers of one key at the same time share one
// build and one solver.
func TestSolverCacheBuildsOnce(t *testing.T) {
	c := newSolverCache(4)
	var builds atomic.Int32
	release := make(chan struct{})
	var started sync.WaitGroup
	build := func() (*engine.Solver, error) {
		builds.Add(1)
		<-release // every caller is started before the first build ends
		return new(engine.Solver), nil
	}
	const callers = 16
	got := make([]*engine.Solver, callers)
	var done sync.WaitGroup
	started.Add(callers)
	for i := range callers {
		done.Go(func() {
			started.Done()
			got[i], _ = c.get("k", build)
		})
	}
	started.Wait()
	close(release)
	done.Wait()
	if n := builds.Load(); n != 1 {
		t.Fatalf("got %d builds, want 1", n)
	}
	for i, s := range got {
		if s == nil || s != got[0] {
			t.Fatalf("caller %d got solver %p, want %p", i, s, got[0])
		}
	}
}

// TestSolverCacheForgetsFailures: a failed build is every waiting caller's
// error, and the next get builds again.
func TestSolverCacheForgetsFailures(t *testing.T) {
	c := newSolverCache(4)
	bad := errors.New("no method")
	if _, err := c.get("k", func() (*engine.Solver, error) { return nil, bad }); !errors.Is(err, bad) {
		t.Fatalf("got %v, want %v", err, bad)
	}
	if c.has("k") {
		t.Fatal("a failed build is cached")
	}
	var builds atomic.Int32
	if s, err := c.get("k", counting(&builds)); s == nil || err != nil || builds.Load() != 1 {
		t.Fatalf("got %p, %v after %d builds, want a solver built again", s, err, builds.Load())
	}
}

// TestSolverCacheEvictsNoBuild: a solver still being built stays, however
// far past the bound.
func TestSolverCacheEvictsNoBuild(t *testing.T) {
	c := newSolverCache(1)
	release, building := make(chan struct{}), make(chan struct{})
	var done sync.WaitGroup
	done.Go(func() {
		c.get("slow", func() (*engine.Solver, error) {
			close(building)
			<-release
			return new(engine.Solver), nil
		})
	})
	<-building
	var builds atomic.Int32
	c.get("a", counting(&builds))
	c.get("b", counting(&builds))
	if !c.has("slow") {
		t.Fatal("the solver being built was evicted")
	}
	close(release)
	done.Wait()
	if len(c.byKey) != 1 {
		t.Fatalf("got %d solvers cached, want 1", len(c.byKey))
	}
}
