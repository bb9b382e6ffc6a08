package judge

import (
	"cmp"
	"encoding/json"
	"fmt"
	"strings"
	"syscall"
	"time"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/judge/sandbox"
	"github.com/optjudge/optjudge/reference/puzzle/judging"
	"github.com/optjudge/optjudge/verdict"
)

// Report is the outcome of grading one submission. Its JSON form is the
// machine-readable report documented in docs/report-json.md, in one shape: every
// key is always there but those that cannot have a value (warning, kept_in;
// a test's signal, stderr and dir), tests is [] when the build failed, and
// the summary's slowest and largest_memory are null when no test ran.
type Report struct {
	Problem    string          `json:"problem"`
	Submission string          `json:"submission"`
	Language   string          `json:"language"`
	Verdict    verdict.Verdict `json:"verdict"`
	Isolation  string          `json:"isolation"`
	Warning    string          `json:"warning,omitempty"`
	// JudgeError is why the judge could not grade at all (a JEReport's
	// reason), for admins: a contestant's view leaves it out.
	JudgeError string        `json:"judge_error,omitempty"`
	Limits     Limits        `json:"limits"`
	Compile    CompileResult `json:"compile"`
	Tests      []TestResult  `json:"tests"`
	Summary    Summary       `json:"summary"`
	KeptIn     string        `json:"kept_in,omitempty"` // build directory, with --keep
	// Score is the grading by the problem's rules (see Score).
	Score Score `json:"score"`
	// Incomplete marks a grading that was cancelled: Tests holds the
	// tests that finished, and the verdict is UNKNOWN.
	Incomplete bool `json:"incomplete"`

	graded bool // the problem's grading rules apply to its tests (Score)
}

// Limits are the limits one grading runs under.
type Limits struct {
	Time   time.Duration `json:"-"`
	Wall   time.Duration `json:"-"`
	Memory bytesize.Size `json:"-"`
	Output bytesize.Size `json:"-"`
	// SleepWall, when set below Wall, is the wall-clock limit of a run
	// that sleeps (sandbox.Limits.SleepWall)
	SleepWall time.Duration `json:"-"`

	TimeMS    int64 `json:"time_ms"`
	WallMS    int64 `json:"wall_ms"`
	MemoryKiB int64 `json:"memory_kib"`
	OutputKiB int64 `json:"output_kib"`
}

func (l *Limits) fill() {
	l.TimeMS, l.WallMS = l.Time.Milliseconds(), l.Wall.Milliseconds()
	l.MemoryKiB, l.OutputKiB = l.Memory.KiB(), l.Output.KiB()
}

// under is l with the CPU limit cpu, below l's, and the wall-clock limit
// wall (0: the one that goes with cpu), or l's if lower; a sleeper's wall
// limit no lower than that is none.
func (l Limits) under(cpu, wall time.Duration) Limits {
	l.Time = cpu
	l.Wall = min(l.Wall, cmp.Or(wall, DefaultWallLimit(cpu)))
	if l.SleepWall >= l.Wall {
		l.SleepWall = 0
	}
	l.fill()
	return l
}

func (l Limits) sandbox() sandbox.Limits {
	return sandbox.Limits{CPU: l.Time, Wall: l.Wall, SleepWall: l.SleepWall, Memory: l.Memory, Output: l.Output}
}

// TestResult is the outcome of one test.
type TestResult struct {
	Name      string          `json:"name"`
	Verdict   verdict.Verdict `json:"verdict"`
	TimeMS    int64           `json:"time_ms"` // CPU time, user + system, of the whole process tree
	WallMS    int64           `json:"wall_ms"`
	MemoryKiB int64           `json:"memory_kib"` // peak resident memory
	ExitCode  int             `json:"exit_code"`
	Signal    string          `json:"signal,omitempty"` // e.g. "SIGSEGV"
	Message   string          `json:"message"`
	// Limit is the limit the run broke, for a TLE, MLE or OLE the
	// sandbox decided (absent else): the message starts with its Text.
	Limit *Broken `json:"limit,omitempty"`
	// Finding is what a puzzle's checker found wrong, for its WA (absent
	// else): the message is rendered from it.
	Finding *judging.Finding `json:"finding,omitempty"`
	Stderr  string           `json:"stderr,omitempty"` // the first 64 KiB the program wrote to stderr
	// Hint is the line of Stderr that the message quotes (an RE's: "exit
	// code 1: <hint>"); "" when it quotes none.
	Hint string `json:"-"`
	Dir  string `json:"dir,omitempty"` // working directory, with --keep
	// Score is the test's score in a scoring problem, as the grading
	// counts it; nil (absent) in a pass-fail problem.
	Score *float64 `json:"score,omitempty"`
	// Passes are the passes of a multi-pass problem's test, in order:
	// the last decided the test's verdict (its verdict and message are
	// the test's); its measurements are those of its slowest pass (the
	// limits hold for each pass); nil in a problem of one pass.
	Passes []PassResult `json:"passes,omitempty"`
	// Group is the test data group whose settings the test has, in a
	// Kattis package ("secret/group1"); "" otherwise.
	Group string `json:"-"`

	CPU    time.Duration `json:"-"`
	Wall   time.Duration `json:"-"`
	Memory bytesize.Size `json:"-"`
	Index  int           `json:"-"` // the test's position in the tests graded
	Output []byte        `json:"-"` // what the program wrote to stdout, up to the output limit

	// what the validator wrote to score.txt and score_multiplier.txt
	validatorScore, validatorMultiplier *float64
	// outcome is what the verdict rests on (Regrade decides it again
	// under a lower limit); nil in a report read back from JSON
	outcome *outcome
}

// PassResult is one pass of a multi-pass problem's test: the
// submission's run on the pass's input (the test's, then the nextpass.in
// the output validator wrote) and what the validator said of it.
type PassResult struct {
	Verdict   verdict.Verdict `json:"verdict"` // AC for a pass the validator followed with another
	TimeMS    int64           `json:"time_ms"`
	WallMS    int64           `json:"wall_ms"`
	MemoryKiB int64           `json:"memory_kib"`
	Message   string          `json:"message"` // what the validator added to its messages in this pass, or why the pass failed

	said string // everything the validator had said by the end of the pass
}

// Summary totals a report.
type Summary struct {
	Verdict verdict.Verdict `json:"verdict"`
	Tests   int             `json:"tests"` // tests of the problem
	Run     int             `json:"run"`   // tests run (fewer with lazy or after CE)
	Counts  map[string]int  `json:"counts"`
	TimeMS  int64           `json:"time_ms"`        // CPU time of every test, added up
	Slowest *TestRef        `json:"slowest"`        // nil when no test ran
	Largest *TestRef        `json:"largest_memory"` // nil when no test ran
}

// MarshalJSON writes the report in its one shape (see Report), whoever
// filled it in: no test is [], not null, and no count is {}.
func (r Report) MarshalJSON() ([]byte, error) {
	type plain Report // the same fields, without this method
	p := plain(r)
	if p.Tests == nil {
		p.Tests = []TestResult{}
	}
	if p.Summary.Counts == nil {
		p.Summary.Counts = map[string]int{}
	}
	if p.Score.Groups == nil {
		p.Score.Groups = []GroupScore{}
	}
	return json.Marshal(p)
}

// TestRef points at one test for the summary.
type TestRef struct {
	Name      string `json:"name"`
	TimeMS    int64  `json:"time_ms"`
	MemoryKiB int64  `json:"memory_kib"`
}

func (tr *TestResult) measure(res *sandbox.Result) {
	tr.CPU, tr.Wall, tr.Memory = res.CPU, res.Wall, res.Memory
	tr.TimeMS, tr.WallMS, tr.MemoryKiB = res.CPU.Milliseconds(), res.Wall.Milliseconds(), res.Memory.KiB()
	tr.ExitCode = res.ExitCode
	if res.Signal != 0 {
		tr.Signal = signalName(res.Signal)
	}
	tr.Stderr = string(res.Stderr)
	tr.Output = res.Stdout
}

// measurePass takes one pass of a multi-pass test into tr: its slowest
// pass's time and peak memory, the last pass's exit, stderr and output.
// res is nil when the pass could not run.
func (tr *TestResult) measurePass(res *sandbox.Result) {
	if res == nil {
		return
	}
	cpu, wall, mem := max(tr.CPU, res.CPU), max(tr.Wall, res.Wall), max(tr.Memory, res.Memory)
	tr.measure(res)
	tr.CPU, tr.Wall, tr.Memory = cpu, wall, mem
	tr.TimeMS, tr.WallMS, tr.MemoryKiB = cpu.Milliseconds(), wall.Milliseconds(), mem.KiB()
}

// lastPass gives a multi-pass test's last pass the test's verdict and
// message: that pass decided them.
func (tr *TestResult) lastPass() {
	n := len(tr.Passes)
	if n == 0 {
		return
	}
	said := ""
	if n > 1 {
		said = tr.Passes[n-2].said
	}
	tr.Passes[n-1].Verdict, tr.Passes[n-1].Message = tr.Verdict, passMessage(tr.Message, said)
}

// passMessage is what a validator's message msg adds to what it had said
// in the passes before (its feedback directory lasts from pass to pass,
// and its messages are joined by " | ").
func passMessage(msg, said string) string {
	if said == "" {
		return msg
	}
	if rest, ok := strings.CutPrefix(msg, said); ok {
		return strings.TrimPrefix(rest, " | ")
	}
	return msg
}

func seconds(d time.Duration) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.3f", d.Seconds()), "0"), ".") + "s"
}

var signalNames = map[syscall.Signal]string{
	syscall.SIGABRT: "SIGABRT", syscall.SIGSEGV: "SIGSEGV", syscall.SIGFPE: "SIGFPE",
	syscall.SIGKILL: "SIGKILL", syscall.SIGBUS: "SIGBUS", syscall.SIGILL: "SIGILL",
	syscall.SIGTERM: "SIGTERM", syscall.SIGXCPU: "SIGXCPU", syscall.SIGXFSZ: "SIGXFSZ",
	syscall.SIGPIPE: "SIGPIPE", syscall.SIGTRAP: "SIGTRAP", syscall.SIGSYS: "SIGSYS",
}

func signalName(s syscall.Signal) string {
	if n, ok := signalNames[s]; ok {
		return n
	}
	return fmt.Sprintf("signal %d", int(s))
}

// overall is a native problem's verdict of tests: by the first-rejected
// rule (verdict.First), the first rejected test's, AC when every one is
// accepted; JE when there is none (judged).
func overall(tests []TestResult) verdict.Verdict {
	return judged(verdict.First(tests, testVerdict), tests)
}

// judged is a report's verdict from what the grading rules say of its
// tests, v: a grading that judged no test at all, which no rule decides
// (Unknown), is a judge error.
func judged(v verdict.Verdict, tests []TestResult) verdict.Verdict {
	if v == verdict.Unknown && len(tests) == 0 {
		return verdict.JE
	}
	return v
}

// testVerdict is a test's verdict, for the first-rejected rule.
func testVerdict(tr TestResult) verdict.Verdict { return tr.Verdict }

func summarize(tests []TestResult, total int, v verdict.Verdict) Summary {
	s := Summary{Verdict: v, Tests: total, Run: len(tests), Counts: map[string]int{}}
	slow, large := -1, -1
	for i, t := range tests {
		s.Counts[t.Verdict.String()]++
		s.TimeMS += t.TimeMS
		if slow < 0 || t.CPU > tests[slow].CPU {
			slow = i
		}
		if large < 0 || t.Memory > tests[large].Memory {
			large = i
		}
	}
	if slow >= 0 {
		s.Slowest = &TestRef{tests[slow].Name, tests[slow].TimeMS, tests[slow].MemoryKiB}
		s.Largest = &TestRef{tests[large].Name, tests[large].TimeMS, tests[large].MemoryKiB}
	}
	if v == verdict.CE {
		s.Counts[verdict.CE.String()] = 1
	}
	return s
}
