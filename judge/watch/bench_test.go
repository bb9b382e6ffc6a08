package watch

import (
	"fmt"
	"testing"
	"time"

	"github.com/optjudge/optjudge/verdict"
)

// BenchmarkSaveToFirstVerdict measures what a person waits for: from an
// atomic save of a Python solution to the first test's verdict line, with
// the default 100 ms debounce, the real file watcher and the sandbox.
// ns/op is a whole save-to-finished grade of two tests; the metrics split
// the wait for the first verdict into its total and the part without the
// compile step (py_compile here), which depends on the language.
func BenchmarkSaveToFirstVerdict(b *testing.B) {
	w := startWatchDebounce(b, rightSolution(b), DefaultDebounce)
	w.finished(verdict.AC)
	var total, compile time.Duration
	n := 0
	for b.Loop() {
		n++
		saved := time.Now()
		w.saveAtomically(rightSolution(b) + fmt.Sprintf("# save %d\n", n))
		w.next(Started)
		first := w.firstTest()
		o := w.next(Finished).Outcome
		if o.Report.Verdict != verdict.AC {
			b.Fatalf("got %v, want AC", o.Report.Verdict)
		}
		total += first.Sub(saved)
		compile += o.Report.Compile.Time
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(n), "ms-to-first-verdict")
	b.ReportMetric(float64((total-compile).Milliseconds())/float64(n), "ms-excl-compile")
	b.ReportMetric(float64(compile.Milliseconds())/float64(n), "ms-compile")
}

// firstTest waits for the next test line and returns when it was shown.
func (w *watched) firstTest() time.Time {
	w.t.Helper()
	for {
		select {
		case e := <-w.events:
			if e.Kind == TestDone {
				return e.At
			}
			w.t.Fatalf("got event %v, want a test line", e.Kind)
		case <-time.After(60 * time.Second):
			w.t.Fatal("no test line in a minute")
		}
	}
}
