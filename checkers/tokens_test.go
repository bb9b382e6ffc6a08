package checkers

import (
	"context"
	"testing"

	"github.com/optjudge/optjudge/verdict"
)

func TestTokens(t *testing.T) {
	tests := []struct {
		name, out, ans string
		want           verdict.Verdict
		msg            string
	}{
		{"equal", "1 2 3\n", "1 2 3\n", verdict.AC, "3 tokens"},
		{"other whitespace", "1\n2\t\t3\r\n\n", "1 2 3\n", verdict.AC, "3 tokens"},
		{"empty both", "", "\n", verdict.AC, "0 tokens"},
		{"differs", "1 2 4\n", "1 2 3\n", verdict.WA, `token 3 (line 1): got "4", want "3"`},
		{"case", "abc\nYES\n", "abc\nyes\n", verdict.WA, `token 2 (line 2): got "YES", want "yes"`},
		{"short", "1 2\n", "1 2 3\n", verdict.WA, `output ends after 2 tokens; expected 3 (next: "3")`},
		{"long", "1 2 3 4\n", "1 2 3\n", verdict.WA, `unexpected output after the last expected token: "4"`},
		{"garbage", "\x00\xff", "a", verdict.WA, `token 1 (line 1): got "\x00\xff", want "a"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Tokens{}.Check(context.Background(), Files{Output: []byte(tt.out), Answer: []byte(tt.ans)})
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != tt.want || r.Message != tt.msg {
				t.Errorf("got %v %q, want %v %q", r.Verdict, r.Message, tt.want, tt.msg)
			}
		})
	}
}

func TestTokensNeedsAnswer(t *testing.T) {
	if _, err := (Tokens{}).Check(context.Background(), Files{Output: []byte("1")}); err == nil {
		t.Error("got nil error without an answer file, want one")
	}
}

func TestNewUnknown(t *testing.T) {
	if _, err := New("no-such-checker", nil); err == nil {
		t.Error("got nil error for an unknown checker")
	}
	var oe *OptionError
	_, err := New("tokens", Options{"mode": "x"})
	if e, ok := err.(*OptionError); !ok || e.Key != "mode" {
		t.Errorf("got %v, want an %T for key mode", err, oe)
	}
}

func FuzzTokens(f *testing.F) {
	f.Add([]byte("1 2 3\n"), []byte("1 2 3"))
	f.Add([]byte("\x00 \r\n"), []byte(""))
	f.Fuzz(func(t *testing.T, out, ans []byte) {
		r, err := Tokens{}.Check(context.Background(), Files{Output: out, Answer: ans})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != verdict.AC && r.Verdict != verdict.WA {
			t.Fatalf("got verdict %v", r.Verdict)
		}
		if r2, _ := (Tokens{}).Check(context.Background(), Files{Output: ans, Answer: ans}); r2.Verdict != verdict.AC {
			t.Fatalf("the answer itself is not accepted: %s", r2.Message)
		}
	})
}

func TestUsesAnswer(t *testing.T) {
	for name, want := range map[string]bool{"tokens": true, "default": true} {
		c, err := New(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := UsesAnswer(c); got != want {
			t.Errorf("UsesAnswer(%s) = %v, want %v", name, got, want)
		}
	}
	for _, name := range []string{"rotation-game", "clocks", "eight-puzzle"} {
		if UsesAnswer(shippedChecker(t, name, "")) {
			t.Errorf("UsesAnswer(the puzzle %s) = true, want false", name)
		}
	}
}
