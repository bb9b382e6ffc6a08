// Package verdict is the judge's shared vocabulary: the outcome of one test or
// of a whole submission. It sits below every other package so that checkers,
// the grading engine and the CLI speak about results in the same terms.
package verdict

import "fmt"

// Verdict is the outcome of running or checking a submission. The zero value,
// Unknown, means no verdict has been decided yet; it is never reported as a
// final result.
type Verdict uint8

const (
	Unknown Verdict = iota
	AC              // accepted
	WA              // wrong answer
	TLE             // time limit exceeded (CPU or wall clock)
	MLE             // memory limit exceeded
	OLE             // output limit exceeded
	RE              // run-time error: non-zero exit status or a signal
	CE              // compilation error
	JE              // judge error: the judge, a checker or the reference failed
)

var names = [...]string{
	Unknown: "UNKNOWN",
	AC:      "AC",
	WA:      "WA",
	TLE:     "TLE",
	MLE:     "MLE",
	OLE:     "OLE",
	RE:      "RE",
	CE:      "CE",
	JE:      "JE",
}

var long = [...]string{
	Unknown: "unknown",
	AC:      "accepted",
	WA:      "wrong answer",
	TLE:     "time limit exceeded",
	MLE:     "memory limit exceeded",
	OLE:     "output limit exceeded",
	RE:      "run-time error",
	CE:      "compilation error",
	JE:      "judge error",
}

// All lists every verdict but Unknown, in a stable order used for summaries.
var All = []Verdict{AC, WA, TLE, MLE, OLE, RE, CE, JE}

// String returns the short upper-case name, e.g. "TLE".
func (v Verdict) String() string {
	if int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("Verdict(%d)", uint8(v))
}

// Long returns the name spelled out, e.g. "time limit exceeded".
func (v Verdict) Long() string {
	if int(v) < len(long) {
		return long[v]
	}
	return v.String()
}

// Parse accepts a short name ("AC", "wa") or a Kattis submissions folder name
// ("accepted", "wrong_answer", "time_limit_exceeded", "run_time_error",
// "memory_limit_exceeded", "output_limit_exceeded", "compile_error").
func Parse(s string) (Verdict, error) {
	switch s {
	case "AC", "ac", "accepted":
		return AC, nil
	case "WA", "wa", "wrong_answer":
		return WA, nil
	case "TLE", "tle", "time_limit_exceeded":
		return TLE, nil
	case "MLE", "mle", "memory_limit_exceeded":
		return MLE, nil
	case "OLE", "ole", "output_limit_exceeded":
		return OLE, nil
	case "RE", "re", "run_time_error", "runtime_error":
		return RE, nil
	case "CE", "ce", "compile_error", "compilation_error":
		return CE, nil
	case "JE", "je", "judge_error":
		return JE, nil
	}
	return Unknown, fmt.Errorf("unknown verdict %q", s)
}

// MarshalText encodes the short name, so JSON reports carry "AC", not 1.
func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// UnmarshalText decodes what MarshalText wrote, and "" as Unknown (a
// verdict not decided yet, in records written before verdicts were typed).
func (v *Verdict) UnmarshalText(b []byte) error {
	if string(b) == "UNKNOWN" || len(b) == 0 {
		*v = Unknown
		return nil
	}
	p, err := Parse(string(b))
	if err != nil {
		return err
	}
	*v = p
	return nil
}
