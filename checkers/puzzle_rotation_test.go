package checkers

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/internal/handwritten/rotation"
	"github.com/optjudge/optjudge/verdict"
)

// rotInput holds three cases: the two of the sample, answered AC/2 and
// DDHH/2, and a board whose center holds only 3s.
const (
	rotInput = "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n" +
		"1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 2 3 3 3 3 3 3 3 3\n" +
		"1 1 1 1 1 1 3 3 3 1 1 3 3 2 2 3 3 3 2 2 2 2 2 2\n" +
		"0\n"
	rotAnswer = "AC\n2\nDDHH\n2\nNo moves needed\n3\n"
)

func rotCheck(t testing.TB, input, output string) (Result, error) {
	t.Helper()
	return shippedChecker(t, "rotation-game", "").Check(context.Background(), Files{Input: []byte(input), Output: []byte(output)})
}

func TestRotation(t *testing.T) {
	tests := []struct {
		name, out string
		want      verdict.Verdict
		msg       string
	}{
		{"exact", rotAnswer, verdict.AC, "3 cases, 6 moves"},
		{"loose spacing", "  AC \t\r\n2\r\n\tDDHH\r\n 2 \nNo moves needed  \n3\n\n\n \n", verdict.AC, "3 cases, 6 moves"},
		{"no final newline", strings.TrimSuffix(rotAnswer, "\n"), verdict.AC, "3 cases, 6 moves"},
		{"empty", "", verdict.WA, "missing case 1 of 3"},
		{"not a move", "AQ\n2\n", verdict.WA, "case 1, move 2: 'Q' is not a move (A-H)"},
		{"lower case", "ac\n2\n", verdict.WA, "case 1, move 1: 'a' is not a move (A-H)"},
		{"digit first", "2\nAC\n", verdict.WA, "case 1, move 1: '2' is not a move (A-H)"},
		{"binary", "A\xff\x00\n2\n", verdict.WA, `case 1, move 2: '\xff' is not a move (A-H)`},
		{"unicode", "AÉ\n2\n", verdict.WA, "case 1, move 2: 'É' is not a move (A-H)"},
		{"control", "A\x01\n2\n", verdict.WA, `case 1, move 2: '\x01' is not a move (A-H)`},
		{"center not equal", "A\n2\n", verdict.WA, "case 1: after 1 move the center holds 2 2 3 2 2 2 2 2"},
		{"no moves but unequal", "No moves needed\n2\n", verdict.WA, `case 1: "No moves needed", but the center holds 3 2 3 2 2 2 2 2`},
		{"empty line 1", "\n2\n", verdict.WA, `case 1: line 1 is empty: write the moves, or "No moves needed" when no move is needed`},
		{"too long", "AFAC\n2\n", verdict.WA, "case 1: 4 moves, the optimum is 2; " +
			"move 2 (F): it leads away from the goal (1 move from it before, 2 after); distances to the goal after each move: 1 2 1 0"},
		{"not smallest", "AC\n2\nHHDD\n2\n", verdict.WA, "case 2: shortest, but not the smallest: yours HHDD, smallest DDHH (first difference at move 1)"},
		{"not smallest later", "AC\n2\nDHDH\n2\n", verdict.WA, "case 2: shortest, but not the smallest: yours DHDH, smallest DDHH (first difference at move 2)"},
		{"wrong digit", "AC\n3\n", verdict.WA, "case 1: line 2 says 3, the center shows 2"},
		{"digit not a digit", "AC\nx\n", verdict.WA, `case 1: line 2 should be the center digit (1, 2 or 3), got "x"`},
		{"digit long", "AC\n" + strings.Repeat("7", 100) + "\n", verdict.WA,
			`case 1: line 2 should be the center digit (1, 2 or 3), got "` + strings.Repeat("7", 40) + `"...`},
		{"empty line 2", "AC\n\nDDHH\n2\n", verdict.WA, "case 1: line 2 is empty, want the center digit"},
		{"missing last digit", "AC\n2\nDDHH\n2\nNo moves needed\n", verdict.WA, "case 3: line 2 is empty, want the center digit"},
		{"missing case", "AC\n2\nDDHH\n2\n", verdict.WA, "missing case 3 of 3"},
		{"extra output", rotAnswer + "A\n", verdict.WA, "unexpected output after the last case"},
		{"one line", "AC 2\nDDHH 2\n", verdict.WA, "case 1: the moves and the center digit are on one line; write the digit on line 2"},
		{"no moves and digit", "AC\n2\nDDHH\n2\nNo moves needed 3\n", verdict.WA, "case 3: the moves and the center digit are on one line; write the digit on line 2"},
		{"spaced moves", "A C\n2\n", verdict.WA, "case 1: line 1 has spaces between the moves; write the letters without spaces, e.g. AC"},
		{"spaced garbage", "A x\n2\n", verdict.WA, "case 1, move 2: ' ' is not a move (A-H)"},
		{"no moves wrong case", "AC\n2\nDDHH\n2\nno moves needed\n3\n", verdict.WA,
			`case 3: write "No moves needed" exactly (letters are case-sensitive), got "no moves needed"`},
		{"moves when none needed", "AC\n2\nDDHH\n2\nAF\n3\n", verdict.WA, `case 3: 2 moves, the optimum is 0 ("No moves needed"); ` +
			"move 1 (A): the goal was already reached, and it leads 1 move away from it; distances to the goal after each move: 1 0"},
		{"blank line between cases", "AC\n2\n\nDDHH\n2\n", verdict.WA, `case 2: line 1 is empty: write the moves, or "No moves needed" when no move is needed`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := rotCheck(t, rotInput, tt.out)
			if err != nil {
				t.Fatalf("got error %v, want %v %q", err, tt.want, tt.msg)
			}
			if got.Verdict != tt.want || got.Message != tt.msg {
				t.Errorf("got %v %q, want %v %q", got.Verdict, got.Message, tt.want, tt.msg)
			}
		})
	}
}

func TestRotationNoCases(t *testing.T) {
	got, err := rotCheck(t, "0\n", "\n")
	if err != nil || got.Verdict != verdict.AC || got.Message != "0 cases, 0 moves" {
		t.Errorf("empty output: got %v %q, %v, want AC", got.Verdict, got.Message, err)
	}
	got, err = rotCheck(t, "0\n", "AC\n")
	if err != nil || got.Verdict != verdict.WA || got.Message != "unexpected output after the last case" {
		t.Errorf("output: got %v %q, %v, want WA", got.Verdict, got.Message, err)
	}
}

func TestRotationJudgeErrors(t *testing.T) {
	if _, err := rotCheck(t, "1 2 3\n0\n", rotAnswer); err == nil {
		t.Error("invalid input: got no error, want one")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := shippedChecker(t, "rotation-game", "").Check(ctx, Files{Input: []byte(rotInput), Output: []byte(rotAnswer)})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: got %v, want context.Canceled", err)
	}
}

// rotRandomInput returns an input of n random boards and a few deep ones.
func rotRandomInput(r *rand.Rand, n int) []byte {
	var bs []rotation.Board
	for range n {
		bs = append(bs, rotation.Random(r))
	}
	bs = append(bs, rotation.Deep(r))
	return rotation.FormatInput(bs)
}

func TestRotationAcceptsReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1343))
	for i := range 20 {
		in := rotRandomInput(r, 10)
		out, err := rotation.Solve(in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := rotCheck(t, string(in), string(out))
		if err != nil || got.Verdict != verdict.AC {
			t.Errorf("input %d: got %v %q, %v, want AC", i, got.Verdict, got.Message, err)
		}
	}
}

// rotNaive judges an output the slow way: the normalized lines must be
// exactly the reference's.
func rotNaive(input, output string) bool {
	want, err := rotation.Solve([]byte(input))
	if err != nil {
		panic(err)
	}
	var lines []string
	for _, l := range strings.Split(output, "\n") {
		lines = append(lines, strings.Trim(l, " \t\r"))
	}
	got := strings.TrimRight(strings.Join(lines, "\n"), "\n") + "\n"
	return got == string(want)
}

func FuzzCheckRotation(f *testing.F) {
	deep := rotation.Deep(rand.New(rand.NewPCG(2, 2)))
	input := rotInput[:len(rotInput)-2] + deep.String() + "\n0\n"
	answer := rotAnswer + rotation.Optimal(deep).String()
	for _, s := range []string{
		answer, "", "\n", rotAnswer, "AC\r\n2\r\n", "AC 2\n", "A C\n2\n", "No moves needed\n",
		"AQ\n2\n", "\xff\xfe\n", "DDHH\n2\nAC\n2\n", answer + "x\n", strings.ToLower(answer),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, out string) {
		got, err := rotCheck(t, input, out)
		if err != nil {
			t.Fatalf("output %q: got error %v", out, err)
		}
		if ac := got.Verdict == verdict.AC; ac != rotNaive(input, out) {
			t.Fatalf("output %q: got %v %q, the naive judge says AC is %v", out, got.Verdict, got.Message, !ac)
		}
		if got.Verdict != verdict.AC && got.Message == "" {
			t.Fatalf("output %q: %v without a message", out, got.Verdict)
		}
	})
}

func BenchmarkRotationCheck(b *testing.B) {
	in := rotRandomInput(rand.New(rand.NewPCG(3, 3)), 100)
	out, err := rotation.Solve(in)
	if err != nil {
		b.Fatal(err)
	}
	c := shippedChecker(b, "rotation-game", "")
	f := Files{Input: in, Output: out}
	b.SetBytes(int64(len(in) + len(out)))
	for b.Loop() {
		if r, err := c.Check(context.Background(), f); err != nil || r.Verdict != verdict.AC {
			b.Fatalf("got %v %q, %v", r.Verdict, r.Message, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/101, "ns/case")
}
