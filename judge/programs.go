package judge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/judge/sandbox"
)

// The problem's own programs (output validators, interactors, graders,
// input, answer and static validators) and their builds run in the
// programs' sandbox: a second Sandbox at the contestants' isolation
// level, whose boxes take their uids from a range of their own
// (sandbox.MaxBoxUIDs above the contestants'), so that no contestant's
// box ever runs as a uid a validator had, nor signals one. A program's
// box sees the system directories, its build (read-only), the files it
// is given to read (a test's input and answer: read-only), and may write
// only its working directory (a validator's feedback directory) and
// its /tmp; it has no network. Its verdict is trusted; nothing else of
// the machine is in its reach. Where the machine allows no containment
// (level none) the programs run as the contestants' do there: under
// their limits, in view of the machine, and Judge.Warning says so.

// programSandbox is the programs' sandbox, started on first use.
func (j *Judge) programSandbox() (*sandbox.Sandbox, error) {
	j.psbMu.Lock()
	defer j.psbMu.Unlock()
	if j.psb != nil {
		return j.psb, nil
	}
	if j.closing {
		return nil, errors.New("the judge is closed")
	}
	opts := j.cfg.Sandbox
	if j.cfg.ProgramFirstUID > 0 {
		opts.FirstUID = j.cfg.ProgramFirstUID
	} else {
		if opts.FirstUID == 0 {
			opts.FirstUID = 60000
		}
		opts.FirstUID += sandbox.MaxBoxUIDs
	}
	opts.Isolation = j.sb.Isolation()
	sb, err := sandbox.New(opts)
	if err != nil {
		return nil, fmt.Errorf("starting the sandbox of the problem's programs: %w", err)
	}
	j.psb = sb
	return sb, nil
}

// closePrograms stops the programs' sandbox, if it was started.
func (j *Judge) closePrograms() error {
	j.psbMu.Lock()
	defer j.psbMu.Unlock()
	j.closing = true
	if j.psb == nil {
		return nil
	}
	return j.psb.Close()
}

// programRun is one run of a problem's program in its box.
type programRun struct {
	args  []string
	stdin []byte
	// stdinPipe and stdoutPipe: an interactor's ends of the pipes to the
	// submission (sandbox.Cmd.StdinPipe and StdoutPipe)
	stdinPipe, stdoutPipe *os.File
	probe                 *sandbox.Probe // an interactor's (sandbox.Cmd.Probe)
	read                  []string       // files it reads, read-only
	dir                   string         // working directory, writable; "": a scratch one
	writable              []string       // other directories it writes
	limits                programLimits
}

// programLimits are the limits of a problem's program: the package's
// validation_time (CPU time), validation_memory and validation_output,
// and the wall time (2*validation_time+1s, or an interactor's).
type programLimits struct {
	time   time.Duration
	wall   time.Duration
	memory bytesize.Size // 0: none
	output bytesize.Size // 0: the sandbox's defaults
	// stdout, when set, bounds the standard output apart from output:
	// an interactor's, which goes to the submission
	stdout bytesize.Size
}

// limitsOf are the limits a Command's runs are given.
func limitsOf(c *checkers.Command) programLimits {
	t := c.Timeout
	if t <= 0 {
		t = checkers.DefaultProgramTimeout
	}
	return programLimits{time: t, wall: 2*t + time.Second, memory: c.Memory, output: c.Output}
}

func (l programLimits) sandbox() sandbox.Limits {
	lim := sandbox.Limits{CPU: l.time, Wall: l.wall, Memory: l.memory, Processes: programProcesses}
	if l.output > 0 {
		// a byte more than the limit, so that a program at its limit is
		// told from one past it
		lim.Output, lim.Stderr, lim.FileSize = l.output+1, l.output+1, l.output+1
	}
	if l.stdout > 0 {
		lim.Output = l.stdout
	}
	return lim
}

// programProcesses bounds the processes and threads of a problem
// program's box (a JVM starts a few dozen threads).
const programProcesses = 256

// runProgram runs the problem's program t with r in a box of its own.
func (j *Judge) runProgram(ctx context.Context, t *tool, r programRun) (*sandbox.Result, error) {
	sb, err := j.programSandbox()
	if err != nil {
		return nil, err
	}
	dir := r.dir
	if dir == "" {
		if dir, err = os.MkdirTemp(j.tmp, "run-"); err != nil {
			return nil, fmt.Errorf("making the program's directory: %w", err)
		}
		defer removeAll(dir)
	}
	argv := append(slices.Clone(t.argv), r.args...)
	c := &sandbox.Cmd{
		Path: argv[0], Args: argv[1:], Dir: dir, Env: t.env, Stdin: r.stdin,
		StdinPipe: r.stdinPipe, StdoutPipe: r.stdoutPipe, Probe: r.probe,
		ReadOnly: append(slices.Clone(t.readOnly), r.read...), Writable: r.writable,
		Limits: r.limits.sandbox(),
	}
	if c.Stdin == nil && c.StdinPipe == nil {
		c.Stdin = []byte{}
	}
	res, err := sb.Run(ctx, c)
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return res, err
}

// programFailure says why a problem program's run did not end by itself,
// naming the limit it broke; "" when it exited.
func programFailure(res *sandbox.Result, l programLimits) string {
	switch res.Status {
	case sandbox.OK, sandbox.NonZeroExit:
		return ""
	case sandbox.MemoryLimit:
		return fmt.Sprintf("exceeded validation_memory (%s)", l.memory)
	case sandbox.TimeLimit:
		return fmt.Sprintf("exceeded validation_time (%s of CPU time)", seconds(l.time))
	case sandbox.WallTimeLimit:
		return fmt.Sprintf("gave no verdict within %s of wall time (validation_time)", seconds(l.wall))
	case sandbox.OutputLimit:
		if l.stdout > 0 && res.OutputExceeded {
			return fmt.Sprintf("wrote more than %s to the submission", l.stdout)
		}
		if l.output <= 0 {
			return "wrote more than its output limit"
		}
		return fmt.Sprintf("wrote more than validation_output (%s)", l.output)
	case sandbox.Signaled:
		return fmt.Sprintf("killed by %s%s", signalName(res.Signal), hintOf(firstLine(res.Stderr, 120)))
	}
	return fmt.Sprintf("ended with status %v", res.Status)
}

// boxRunner runs a problem program's checks in its box (checkers.Runner).
type boxRunner struct {
	j *Judge
	t *tool
}

func (b boxRunner) Run(ctx context.Context, c *checkers.Command, r *checkers.Run) (*checkers.Ran, error) {
	lim := limitsOf(c)
	res, err := b.j.runProgram(ctx, b.t, programRun{
		args: r.Args, stdin: r.Stdin, read: r.Read, dir: r.Dir, writable: r.Writable, limits: lim,
	})
	if err != nil {
		return nil, err
	}
	if why := programFailure(res, lim); why != "" {
		return nil, errors.New(why)
	}
	return &checkers.Ran{ExitCode: res.ExitCode, Stdout: res.Stdout, Stderr: res.Stderr}, nil
}

// toolReadOnly are the paths a problem's program needs to see besides
// the system directories: its build, and the toolchain of its language.
func toolReadOnly(dir string, paths ...string) []string {
	ro := []string{dir}
	for _, p := range paths {
		if p != "" && !underSystemDirs(p) && !slices.Contains(ro, p) {
			ro = append(ro, p)
		}
	}
	return ro
}

func underSystemDirs(p string) bool {
	for _, d := range sandbox.SystemDirs() {
		if p == d || strings.HasPrefix(p, d+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// openToBoxes makes a directory of the judge's that a problem program's
// box reads (its build) readable by the boxes' uids.
func openToBoxes(dir string) error {
	return filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.Chmod(p, 0o755)
		}
		if d.Type().IsRegular() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			return os.Chmod(p, info.Mode().Perm()|0o444)
		}
		return nil
	})
}
