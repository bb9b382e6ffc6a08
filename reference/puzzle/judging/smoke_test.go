package judging

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/optjudge/optjudge/reference/puzzle"
)

func load(t *testing.T, path string) *Puzzle {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := puzzle.Parse(f, path)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	t.Log("validate", time.Since(start))
	p, err := New(d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSmokeRush(t *testing.T) {
	p := load(t, "../../../problems/rush-hour/puzzle.yaml")
	in := "AAABCD\nEFFBCD\nE.AACD\nGGH...\n.IH.JJ\n.IKKLL\n"
	in = "aaabcd\neffbcd\ne.@@cd\nggh...\n.ih.jj\n.ikkll\n"
	m := map[rune]rune{'@': 'A', 'a': 'B', 'b': 'C', 'c': 'D', 'd': 'E', 'e': 'F', 'f': 'G', 'g': 'H', 'h': 'I', 'i': 'J', 'j': 'K', 'k': 'L', 'l': 'M', '.': '.', '\n': '\n'}
	b := []rune{}
	for _, r := range in {
		b = append(b, m[r])
	}
	start := time.Now()
	out, err := p.Solve([]byte(string(b)))
	t.Log(string(out), err, time.Since(start))
	start = time.Now()
	res, err := p.Check(context.Background(), []byte(string(b)), out)
	t.Log(res, err, time.Since(start))
}

func TestSmokeJugs(t *testing.T) {
	p := load(t, "../../../problems/water-jugs/puzzle.yaml")
	start := time.Now()
	out, err := p.Solve([]byte("2 3 5 0 0 4\n3 8 5 3 8 0 0 4\n2 2 4 0 0 3\n3 20 19 17 0 0 0 1\n"))
	t.Log(string(out), err, time.Since(start))
}

func TestSmokeKlotski(t *testing.T) {
	p := load(t, "../../../problems/klotski/puzzle.yaml")
	in := "BAAC\nBAAC\nDEEF\nDGHF\nI..J\n"
	start := time.Now()
	out, err := p.Solve([]byte(in))
	t.Log(string(out), err, time.Since(start))
	start = time.Now()
	res, err := p.Check(context.Background(), []byte(in), out)
	t.Log(res, err, time.Since(start))
}
