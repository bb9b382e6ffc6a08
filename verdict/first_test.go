package verdict

import (
	"fmt"
	"testing"
)

func TestFirstRejected(t *testing.T) {
	self := func(v Verdict) Verdict { return v }
	for _, tt := range []struct {
		s     []Verdict
		index int
		first Verdict
	}{
		{nil, -1, Unknown},
		{[]Verdict{AC}, -1, AC},
		{[]Verdict{AC, AC, AC}, -1, AC},
		{[]Verdict{WA}, 0, WA},
		{[]Verdict{AC, TLE, WA, JE}, 1, TLE},
		{[]Verdict{AC, AC, JE}, 2, JE},
		{[]Verdict{AC, Unknown, WA}, 1, Unknown}, // not judged is not accepted
	} {
		t.Run(fmt.Sprint(tt.s), func(t *testing.T) {
			if got := FirstRejected(tt.s, self); got != tt.index {
				t.Errorf("FirstRejected: got %d, want %d", got, tt.index)
			}
			if got := First(tt.s, self); got != tt.first {
				t.Errorf("First: got %v, want %v", got, tt.first)
			}
		})
	}
}
