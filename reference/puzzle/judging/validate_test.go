package judging

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/optjudge/optjudge/internal/handwritten/clocks"
	"github.com/optjudge/optjudge/internal/handwritten/eightpuzzle"
	"github.com/optjudge/optjudge/internal/handwritten/rotation"
	"github.com/optjudge/optjudge/reference/lex"
)

// handWritten are the validators the definitions replace, with valid
// inputs to mutate and the bytes mutations draw from.
var handWritten = []struct {
	name     string
	validate func([]byte) error
	valid    func(r *rand.Rand) []byte
	alphabet string
}{
	{"rotation-game", rotation.Validate, func(r *rand.Rand) []byte {
		return rotation.FormatInput(rotation.RandomCases(r, 1+r.IntN(3)))
	}, "0123 \n\r\tx"},
	{"clocks", clocks.Validate, func(r *rand.Rand) []byte {
		var p clocks.Position
		for i := range p {
			p[i] = uint8(r.IntN(4))
		}
		return p.Input()
	}, "01234 \n\r\t"},
	{"eight-puzzle", eightpuzzle.Validate, func(r *rand.Rand) []byte {
		bs := []eightpuzzle.Board{eightpuzzle.RandomAny(r)}
		if r.IntN(2) == 0 {
			bs = append(bs, eightpuzzle.RandomAny(r))
		}
		return eightpuzzle.Format(bs)
	}, "0189x \n\r\t"},
}

// mutate changes a few bytes of in: replaced, inserted or deleted.
func mutate(r *rand.Rand, in []byte, alphabet string) []byte {
	out := append([]byte(nil), in...)
	for range 1 + r.IntN(3) {
		c := alphabet[r.IntN(len(alphabet))]
		i := r.IntN(len(out) + 1)
		switch r.IntN(3) {
		case 0:
			if i < len(out) {
				out[i] = c
			}
		case 1:
			out = append(out[:i], append([]byte{c}, out[i:]...)...)
		default:
			if i < len(out) {
				out = append(out[:i], out[i+1:]...)
			}
		}
	}
	return out
}

// TestValidatorsAgree: the definitions' validators accept exactly the
// inputs the hand-written ones accept, and name the same line where they
// reject one.
func TestValidatorsAgree(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for _, h := range handWritten {
		t.Run(h.name, func(t *testing.T) {
			p := shipped(t, h.name)
			r := rand.New(rand.NewPCG(19, 20))
			for range n {
				in := h.valid(r)
				if r.IntN(8) != 0 {
					in = mutate(r, in, h.alphabet)
				}
				want, got := h.validate(in), p.Validate(in)
				if (want == nil) != (got == nil) {
					t.Fatalf("%q: got %v, the hand-written validator says %v", in, got, want)
				}
				var gl, wl *lex.Error
				if want != nil && (!errors.As(got, &gl) || !errors.As(want, &wl) || gl.Line != wl.Line) {
					t.Fatalf("%q: got %v, the hand-written validator says %v", in, got, want)
				}
			}
		})
	}
}

func FuzzValidatorsAgree(f *testing.F) {
	for i, h := range handWritten {
		f.Add(i, h.valid(rand.New(rand.NewPCG(1, 1))))
	}
	f.Fuzz(func(t *testing.T, which int, in []byte) {
		h := handWritten[uint(which)%uint(len(handWritten))]
		want, got := h.validate(in), shipped(t, h.name).Validate(in)
		if (want == nil) != (got == nil) {
			t.Fatalf("%s %q: got %v, the hand-written validator says %v", h.name, in, got, want)
		}
	})
}
