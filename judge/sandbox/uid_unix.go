//go:build unix

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"
)

// maxBoxUIDs bounds the uids above Options.FirstUID that boxes may take.
const maxBoxUIDs = MaxBoxUIDs

// MaxBoxUIDs is how many uids from Options.FirstUID one Sandbox's boxes
// may take: a second Sandbox whose boxes must never share a uid with the
// first's starts this far above it.
const MaxBoxUIDs = 4096

// DefaultLockDir holds one lock file per box uid in use, shared by every
// judge of the machine (isolate keeps its box ids the same way): a
// judge takes a uid only with its file locked, so that two judges, or two
// test binaries run in parallel by `go test ./...` as root, never give one
// uid to two boxes. The kernel drops a lock when its process dies.
const DefaultLockDir = "/run/optjudge"

// heldUIDs are the box uids this process holds, across all its Sandboxes,
// with the open lock file of each.
var heldUIDs = struct {
	sync.Mutex
	files map[int]*os.File
}{files: map[int]*os.File{}}

// boxUIDs hands out the uids of one Sandbox's boxes: the lowest uid from
// first on that no box of this process holds and whose lock file no other
// process has locked.
type boxUIDs struct {
	first int
	dir   string // the lock files' directory
}

// newBoxUIDs prepares the lock directory: dir, else DefaultLockDir, else
// (where that cannot be made, /run being read-only, say) fallback.
func newBoxUIDs(first int, dir, fallback string) (*boxUIDs, error) {
	if dir != "" {
		if err := privateDir(dir); err != nil {
			return nil, fmt.Errorf("sandbox: uid locks: %w", err)
		}
		return &boxUIDs{first: first, dir: dir}, nil
	}
	if privateDir(DefaultLockDir) == nil {
		return &boxUIDs{first: first, dir: DefaultLockDir}, nil
	}
	if err := privateDir(fallback); err != nil {
		return nil, fmt.Errorf("sandbox: uid locks: %w", err)
	}
	return &boxUIDs{first: first, dir: fallback}, nil
}

// get takes a free uid.
func (u *boxUIDs) get() (int, error) {
	heldUIDs.Lock()
	defer heldUIDs.Unlock()
	for uid := u.first; uid < u.first+maxBoxUIDs; uid++ {
		if heldUIDs.files[uid] != nil {
			continue
		}
		f, err := lockUID(filepath.Join(u.dir, "uid-"+strconv.Itoa(uid)+".lock"))
		if errors.Is(err, unix.EWOULDBLOCK) {
			continue // another process's box has it
		}
		if err != nil {
			return 0, fmt.Errorf("sandbox: locking box uid %d: %w", uid, err)
		}
		heldUIDs.files[uid] = f
		return uid, nil
	}
	return 0, fmt.Errorf("sandbox: every box uid from %d to %d is in use", u.first, u.first+maxBoxUIDs-1)
}

// put gives a uid back, once no process of its box is left.
func (u *boxUIDs) put(uid int) {
	heldUIDs.Lock()
	defer heldUIDs.Unlock()
	if f := heldUIDs.files[uid]; f != nil {
		f.Close() // drops the lock; the file stays, for the next taker
		delete(heldUIDs.files, uid)
	}
}

// lockUID opens and locks a uid's file without waiting. The files are
// never removed: a removal between another judge's open and its lock
// would let two judges lock two files of one name.
func lockUID(path string) (*os.File, error) {
	fd, err := unix.Open(path, unix.O_RDWR|unix.O_CREAT|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, err
	}
	if err := unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB); err != nil {
		unix.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), path), nil
}
