package judge

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/optjudge/optjudge/verdict"
)

// TestReportJSONShape: every report has every key of the schema but the
// optional ones, whether the build failed, no test ran, or all did.
func TestReportJSONShape(t *testing.T) {
	t.Parallel()
	ran := []TestResult{{Name: "sample/1", Verdict: verdict.AC, CPU: time.Millisecond, TimeMS: 1, Message: "4 moves"}}
	tests := []struct {
		name    string
		r       Report
		tests   string // the JSON of "tests"
		slowest string // the JSON of "summary"."slowest"
	}{
		{"compilation error", Report{Verdict: verdict.CE, Compile: CompileResult{Message: "g++ failed"},
			Summary: summarize(nil, 2, verdict.CE)}, `[]`, `null`},
		{"zero value", Report{}, `[]`, `null`},
		{"graded", Report{Verdict: verdict.AC, Compile: CompileResult{OK: true}, Tests: ran,
			Summary: summarize(ran, 1, verdict.AC)},
			`[{"name":"sample/1","verdict":"AC","time_ms":1,"wall_ms":0,"memory_kib":0,"exit_code":0,"message":"4 moves"}]`,
			`{"name":"sample/1","time_ms":1,"memory_kib":0}`},
	}
	wantKeys := "compile incomplete isolation language limits problem score submission summary tests verdict"
	wantScore := "groups max message scoring value verdict"
	wantSummary := "counts largest_memory run slowest tests time_ms verdict"
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, v := range []any{tt.r, &tt.r} {
				b, err := json.Marshal(v)
				if err != nil {
					t.Fatal(err)
				}
				var got map[string]json.RawMessage
				if err := json.Unmarshal(b, &got); err != nil {
					t.Fatal(err)
				}
				if keys := strings.Join(slices.Sorted(maps.Keys(got)), " "); keys != wantKeys {
					t.Errorf("got keys %s, want %s", keys, wantKeys)
				}
				var summary map[string]json.RawMessage
				if err := json.Unmarshal(got["summary"], &summary); err != nil {
					t.Fatal(err)
				}
				if keys := strings.Join(slices.Sorted(maps.Keys(summary)), " "); keys != wantSummary {
					t.Errorf("got summary keys %s, want %s", keys, wantSummary)
				}
				if string(got["tests"]) != tt.tests || string(summary["slowest"]) != tt.slowest {
					t.Errorf("got tests %s, slowest %s, want %s, %s", got["tests"], summary["slowest"], tt.tests, tt.slowest)
				}
				var score map[string]json.RawMessage
				if err := json.Unmarshal(got["score"], &score); err != nil {
					t.Fatal(err)
				}
				if keys := strings.Join(slices.Sorted(maps.Keys(score)), " "); keys != wantScore || string(score["groups"]) != "[]" {
					t.Errorf("got score keys %s, groups %s, want %s, []", keys, score["groups"], wantScore)
				}
				if c := string(summary["counts"]); c == "null" {
					t.Errorf("got counts %s, want an object", c)
				}
			}
		})
	}
}
