package service

import (
	"net/http"
	"strings"
	"testing"
)

// TestRulesSampleDrawings: the problem pages draw the samples of
// problems given by rules as they do any puzzle's: Rush Hour's lot, its
// cars in the layout's colours, and Hanoi's pegs, each with the sample's
// optimal answer.
func TestRulesSampleDrawings(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	c := e.client(t)
	tests := []struct {
		problem, alt string
		want         []string // parts of the SVG
	}{
		{"rush-hour", "start: ..B... / ..B.C. / AAB.C. / ...... / .DDD.. / ......; goal: ....C. / ....C. / ....AA / ..B... / ..BDDD / ..B...; optimal (4 moves): CU1 DR2 BD3 AR4",
			[]string{`fill="#d9342b"`, `fill="#3d8fd1"`, "optimal (4 moves): CU1 DR2 BD3 AR4"}},
		{"hanoi", "start: 1 1 1 3 3 3; goal: 3 3 3 3 3 3; optimal (7 moves): 13 12 32 13 21 23 13",
			[]string{`<text x="14" y="20">1</text>`, "optimal (7 moves): 13 12 32 13 21 23 13"}},
	}
	for _, tt := range tests {
		t.Run(tt.problem, func(t *testing.T) {
			_, body := c.get("/submit?problem=" + tt.problem)
			img := `<img src="/problems/` + tt.problem + `/samples/0/1" alt="` + tt.alt
			if !strings.Contains(body, img) {
				t.Errorf("the %s sample has no drawing %s:\n%s", tt.problem, img, body)
			}
			code, hdr, svg := c.do("GET", "/problems/"+tt.problem+"/samples/0/1", nil, nil)
			if code != http.StatusOK || hdr.Get("Content-Type") != "image/svg+xml" {
				t.Fatalf("the sample drawing: got %d %s\n%s", code, hdr.Get("Content-Type"), svg)
			}
			for _, w := range tt.want {
				if !strings.Contains(svg, w) {
					t.Errorf("the sample drawing lacks %s:\n%s", w, svg)
				}
			}
		})
	}
}
