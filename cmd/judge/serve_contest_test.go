package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/problems"
)

// TestServeContest: judge serve --problems DIR reads DIR's contest.yaml
// and problems.yaml, says so, warns of an entry it has no problem for,
// and lists the problems in the contest's order with their labels; a
// problems.yaml it cannot take stops it with the file, line and entry.
func TestServeContest(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "contest.yaml"), []byte("name: Puzzle Cup\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "problems.yaml"), []byte("- {id: eight-puzzle, label: A, rgb: '#ff0000'}\n"+
		"- {id: ghost, label: B}\n- {id: clocks, label: C, color: Blue}\n"), 0o644)
	srv := startJudge(t, "serve", "--addr", "127.0.0.1:0", "--data", t.TempDir(), "--workers", "0", "--problems", dir)
	srv.waitLine(t, regexp.MustCompile(`contest "Puzzle Cup": 3 problems`))
	srv.waitLine(t, regexp.MustCompile(`warning: .*problems.yaml:2: problem "ghost" is not in`))
	base := srv.waitLine(t, serveRE)[1]
	resp, err := http.Get(base + "/api/v1/problems")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list struct {
		Contest  struct{ Name string }
		Problems []struct{ Name, Label, RGB, Color string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range list.Problems {
		got = append(got, p.Name+":"+p.Label+":"+p.RGB+":"+p.Color)
	}
	// the contest's problems in its order, then the other embedded ones
	want := "eight-puzzle:A:#ff0000: clocks:C::Blue"
	for _, name := range problems.Embedded() {
		if name != "eight-puzzle" && name != "clocks" {
			want += " " + name + ":::"
		}
	}
	if list.Contest.Name != "Puzzle Cup" || strings.Join(got, " ") != want {
		t.Errorf("got %q %q, want Puzzle Cup and %q", list.Contest.Name, strings.Join(got, " "), want)
	}

	os.WriteFile(filepath.Join(dir, "problems.yaml"), []byte("- {id: clocks, label: A}\n- {id: eight-puzzle, label: A}\n"), 0o644)
	bad := startJudge(t, "serve", "--addr", "127.0.0.1:0", "--data", t.TempDir(), "--workers", "0", "--problems", dir)
	bad.waitLine(t, regexp.MustCompile(regexp.QuoteMeta(`problems.yaml:2: [1].label: "A" is the label of two problems (line 1)`)))
	if err := bad.wait(); err == nil {
		t.Error("a label twice: judge serve started")
	}
}
