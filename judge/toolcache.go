package judge

import (
	"slices"

	"github.com/optjudge/optjudge/problems"
)

// DefaultMaxToolVersions is a Judge's bound on the problem versions whose
// built programs it keeps (Config.MaxToolVersions): a long-lived Judge (a
// grading service's worker) sees a new version at each re-upload of a
// problem, and would otherwise keep every one's build directories.
const DefaultMaxToolVersions = 16

// toolVersion is a problem version whose programs the Judge built or
// builds: the keys of its entries in Judge.tools, its gradings in flight
// (holdTools) and its last use.
type toolVersion struct {
	keys  []string
	holds int
	used  uint64
}

// useVersionLocked is the version of that hash, made if new, counted as
// used now.
func (j *Judge) useVersionLocked(hash string) *toolVersion {
	v := j.versions[hash]
	if v == nil {
		v = &toolVersion{}
		j.versions[hash] = v
	}
	j.toolClock++
	v.used = j.toolClock
	return v
}

// dropToolLocked forgets the entry key of the version hash (its build
// failed).
func (j *Judge) dropToolLocked(hash, key string) {
	delete(j.tools, key)
	if v := j.versions[hash]; v != nil {
		v.keys = slices.DeleteFunc(v.keys, func(k string) bool { return k == key })
		if len(v.keys) == 0 && v.holds == 0 {
			delete(j.versions, hash)
		}
	}
}

// holdTools keeps the programs of p's version built until the returned
// function is called: a grading holds the version it runs on.
func (j *Judge) holdTools(p *problems.Problem) (release func()) {
	if p.Package.CheckerProgram == nil && p.Package.Validation.Program == nil && len(p.Package.Graders) == 0 {
		return func() {} // no program to build, none to keep
	}
	hash := p.Hash()
	j.mu.Lock()
	j.useVersionLocked(hash).holds++
	j.mu.Unlock()
	return func() {
		j.mu.Lock()
		v := j.versions[hash]
		v.holds--
		if len(v.keys) == 0 && v.holds == 0 {
			delete(j.versions, hash)
		}
		stale := j.evictToolsLocked()
		j.mu.Unlock()
		removeTools(stale)
	}
}

// evictToolsLocked forgets the least recently used versions while there
// are more than MaxToolVersions, but those a grading holds or whose
// programs are being built, and returns their build directories, for
// removeTools once the lock is released.
func (j *Judge) evictToolsLocked() []string {
	var dirs []string
	for len(j.versions) > j.cfg.MaxToolVersions {
		var oldest string
		for h, v := range j.versions {
			if v.holds == 0 && j.builtLocked(v) && (oldest == "" || v.used < j.versions[oldest].used) {
				oldest = h
			}
		}
		if oldest == "" {
			break // every one in use: the next release evicts
		}
		for _, k := range j.versions[oldest].keys {
			if e := j.tools[k]; e != nil && e.t != nil {
				dirs = append(dirs, e.t.dir)
			}
			delete(j.tools, k)
		}
		delete(j.versions, oldest)
	}
	return dirs
}

// builtLocked says whether every program of v is built (or failed).
func (j *Judge) builtLocked(v *toolVersion) bool {
	for _, k := range v.keys {
		if e := j.tools[k]; e != nil {
			select {
			case <-e.done:
			default:
				return false
			}
		}
	}
	return true
}

// removeTools removes build directories of evicted tools.
func removeTools(dirs []string) {
	for _, d := range dirs {
		removeAll(d)
	}
}
