package service

import (
	"net/http"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

func TestSubmitAndGrade(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	e.startWorker("w1", newEngine(t, false))
	ac := e.submit("clocks", "ac.py", readFile(t, "clocks_ac.py"))
	wa := e.submit("clocks", "wa.py", readFile(t, "wa.py"))
	re := e.submit("eight-puzzle", "re.py", readFile(t, "re.py"))
	got := e.waitDone(2*time.Minute, ac, wa, re)
	checkOnce(t, got, map[string]string{ac: "AC", wa: "WA", re: "RE"}, 1)
	if r := got[ac].Report; r == nil || len(r.Tests) == 0 || r.Verdict != "AC" {
		t.Errorf("AC report: got %+v", r)
	}
	var list struct{ Submissions []SubmissionView }
	if code := e.do("GET", "/api/v1/submissions?problem=clocks", nil, nil, &list); code != http.StatusOK {
		t.Fatalf("list: got %d", code)
	}
	if len(list.Submissions) != 2 || list.Submissions[0].ID != wa || list.Submissions[1].ID != ac {
		t.Errorf("list of clocks: got %+v, want wa then ac", list.Submissions)
	}
}

// TestOpenAPIMatchesServer: openapi.yaml documents every endpoint the
// server has and no other, each API endpoint with its 401.
func TestOpenAPIMatchesServer(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]struct {
			Responses map[string]any `yaml:"responses"`
		} `yaml:"paths"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("openapi.yaml: %v", err)
	}
	documented := map[string]bool{}
	for path, ops := range doc.Paths {
		for method, op := range ops {
			pattern := strings.ToUpper(method) + " " + path
			documented[pattern] = true
			if _, ok := op.Responses["401"]; !ok && path != "/healthz" {
				t.Errorf("openapi.yaml: %s: no 401", pattern)
			}
		}
	}
	checkSchemas(t, b)
	e := newEnv(t, envOpts{})
	served := map[string]bool{}
	for _, ep := range append(e.api.apiEndpoints(), e.api.otherEndpoints()...) {
		pattern := strings.ReplaceAll(ep.pattern, "...}", "}") // a wildcard of ServeMux's, a path parameter of OpenAPI's
		served[pattern] = true
		if !documented[pattern] {
			t.Errorf("%s: served but not in openapi.yaml", ep.pattern)
		}
	}
	for p := range documented {
		if !served[p] {
			t.Errorf("%s: in openapi.yaml but not served", p)
		}
	}
}

// checkSchemas checks that openapi.yaml's schemas have the JSON keys of
// the types the server writes, no more and no fewer.
func checkSchemas(t *testing.T, doc []byte) {
	t.Helper()
	var d struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]any `yaml:"properties"`
			} `yaml:"schemas"`
		} `yaml:"components"`
	}
	if err := yaml.Unmarshal(doc, &d); err != nil {
		t.Fatalf("openapi.yaml: %v", err)
	}
	for name, v := range map[string]any{
		"SubmitRequest": SubmitRequest{}, "Accepted": Accepted{}, "Judging": JudgingRef{}, "Submission": SubmissionView{},
		"Failure": FailureView{}, "TestEvent": TestBrief{}, "Problem": ProblemSummary{}, "Uploaded": UploadedProblem{},
		"Worker": WorkerInfo{}, "Queue": QueueView{}, "RejudgeResult": RejudgeResult{},
		"Contest": ContestView{}, "StatementLink": StatementLink{}, "FileLink": FileLink{},
	} {
		var keys []string
		rt := reflect.TypeOf(v)
		for i := range rt.NumField() {
			if k, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ","); k != "" && k != "-" {
				keys = append(keys, k)
			}
		}
		var doc []string
		for k := range d.Components.Schemas[name].Properties {
			doc = append(doc, k)
		}
		slices.Sort(keys)
		slices.Sort(doc)
		if !slices.Equal(keys, doc) {
			t.Errorf("openapi.yaml: schema %s has %v, the server writes %v", name, doc, keys)
		}
	}
}
