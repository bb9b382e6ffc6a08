package explain

import (
	"bytes"
	"encoding/xml"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/reference/puzzle"
	"github.com/optjudge/optjudge/reference/puzzle/judging"
)

var handlerRE = regexp.MustCompile(`\son[a-z]+=`)

var update = flag.Bool("update", false, "rewrite the drawings in testdata")

const (
	// rotation13 needs 13 moves: ABBBCDABCGGGA.
	rotation13 = "3 3 1 2 1 2 1 1 2 1 2 3 2 2 3 3 3 2 3 3 1 2 1 1\n0\n"
	// rotation3 needs 3 moves: ABG is the smallest, AGB and BAG are as short.
	rotation3 = "2 3 2 2 3 2 2 1 3 3 3 1 1 3 2 1 1 1 1 2 2 1 3 3\n0\n"
	// eight6 needs 6 moves: lldrdr.
	eight6 = "2 3 x 1 4 6 7 5 8\n"
)

// drawings are the cases drawn in testdata, as text and as SVG.
var drawings = []struct {
	name                        string
	checker, input, output, msg string
	sample                      bool // Cases of input instead
}{
	{name: "rotation-too-long", checker: "rotation-game", input: rotation13,
		output: "ABBAFBCDABCGGGA\n2\n", msg: "case 1: line 2 says 2"},
	{name: "rotation-not-smallest", checker: "rotation-game", input: rotation3, output: "BAG\n1\n",
		msg: "case 1: shortest, but not the smallest: yours BAG, smallest ABG (first difference at move 1)"},
	{name: "rotation-bad-move", checker: "rotation-game", input: rotationInput, output: "AC\n2\nDQ\n2\n",
		msg: "case 2, move 2: 'Q' is not a move (A-H)"},
	{name: "rotation-wrong-digit", checker: "rotation-game", input: rotationInput, output: "AC\n2\nDDHH\n1\n",
		msg: "case 2: line 2 says 1, the center shows 2"},
	{name: "clocks-unordered", checker: "clocks", input: clocksInput, output: "9 8 5 4\n",
		msg: "move 2 (8) comes after 9: the moves must be in ascending order"},
	{name: "clocks-too-long", checker: "clocks", input: clocksInput, output: "4 5 8 9 9 9 9 9\n",
		msg: "8 moves, the optimum is 4"},
	{name: "clocks-short", checker: "clocks", input: clocksInput, output: "9 8 5\n",
		msg: "after 3 moves the dials are 3 0 0 / 3 0 0 / 3 0 0"},
	{name: "eight-too-long", checker: "eight-puzzle", input: eight6, output: "lldudrdr\n",
		msg: "case 1: 8 moves, the optimum is 6"},
	{name: "eight-off-board", checker: "eight-puzzle", input: eightInput, output: "rr\n\n",
		msg: "case 1, move 1: r moves the blank off the board (blank at row 2, column 3)"},
	{name: "eight-says-unsolvable", checker: "eight-puzzle", input: eightInput, output: "unsolvable\n",
		msg: "case 1: says unsolvable, but the board 2 3 4 / 1 5 x / 7 6 8 can be solved in 19 moves"},
	{name: "sample-rotation", checker: "rotation-game", input: rotationInput, sample: true},
	{name: "sample-clocks", checker: "clocks", input: clocksInput, sample: true},
	{name: "sample-eight", checker: "eight-puzzle", input: eight6, sample: true},
	// issue 20's definitions: a cube net of stickers, a stack of bars,
	// lights on a grid
	{name: "cube-too-long", checker: "pocket-cube", input: "UFUFRRRRFDFDDBDBLLLLUBUB\n", output: "R' R R'\n",
		msg: "case 1: 3 moves, the optimum is 1"},
	{name: "pancakes-bad-move", checker: "pancakes", input: "4 3 1 4 2\n", output: "4 5\n", msg: "case 1, move 2"},
	{name: "lights-unordered", checker: "lights-out", input: "10000\n01100\n01000\n00000\n00000\n", output: "7 1\n",
		msg: "case 1: move 2 (1) comes after 7: the moves must be in ascending order"},
}

// TestDrawings compares the text and SVG drawings with testdata/NAME.txt
// and NAME.svg; -update rewrites them.
func TestDrawings(t *testing.T) {
	for _, d := range drawings {
		t.Run(d.name, func(t *testing.T) {
			var e *Explanation
			p := byName(t, d.checker)
			if d.sample {
				es := Cases(p, []byte(d.input))
				if len(es) == 0 {
					t.Fatal("got no cases")
				}
				e = es[0]
			} else if e = Explain(checkerOf(t, p), []byte(d.input), []byte(d.output), findingOf(t, p, d.input, d.output, d.msg)); e == nil {
				t.Fatal("got no explanation")
			}
			svg := e.SVG()
			if again := e.SVG(); again != svg {
				t.Error("two drawings of the same explanation differ")
			}
			checkSVG(t, svg)
			if desc := "<desc>" + escape(e.Description()) + "</desc>"; !strings.Contains(svg, desc) {
				t.Errorf("the SVG has no %s", desc)
			}
			golden(t, d.name+".txt", e.Text())
			golden(t, d.name+".svg", svg)
		})
	}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (go test -update rewrites it):\ngot\n%s\nwant\n%s", path, got, want)
	}
}

// checkSVG checks that svg is well-formed XML with one <svg role="img">
// whose first child is a <title>, and refers to nothing outside itself.
func checkSVG(t *testing.T, svg string) {
	t.Helper()
	if len(svg) > 100_000 {
		t.Errorf("got %d bytes, want under 100 KB", len(svg))
	}
	for _, bad := range []string{"<script", "href", "url(", "<style", "<image", "<foreignObject"} {
		if strings.Contains(svg, bad) {
			t.Errorf("the drawing holds %q", bad)
		}
	}
	if m := handlerRE.FindString(svg); m != "" {
		t.Errorf("the drawing holds an event handler: %s", m)
	}
	dec := xml.NewDecoder(strings.NewReader(svg))
	depth, elements := 0, 0
	var first string
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			elements++
			if depth == 0 {
				checkRoot(t, tok)
			}
			if depth == 1 && first == "" {
				first = tok.Name.Local
			}
			depth++
		case xml.EndElement:
			depth--
		case xml.CharData:
			if depth == 0 && len(bytes.TrimSpace(tok)) > 0 {
				t.Errorf("text outside the root: %q", tok)
			}
		}
	}
	if first != "title" {
		t.Errorf("got first child <%s>, want <title>", first)
	}
	if elements < 10 {
		t.Errorf("got %d elements, want a drawing", elements)
	}
}

// wellFormed reports whether svg parses as XML.
func wellFormed(svg string) error {
	dec := xml.NewDecoder(strings.NewReader(svg))
	for {
		if _, err := dec.Token(); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
}

func checkRoot(t *testing.T, root xml.StartElement) {
	t.Helper()
	attrs := map[string]string{}
	for _, a := range root.Attr {
		attrs[a.Name.Local] = a.Value
	}
	if root.Name.Local != "svg" || root.Name.Space != "http://www.w3.org/2000/svg" || attrs["role"] != "img" || attrs["viewBox"] == "" {
		t.Errorf("got root <%s xmlns=%q> %v, want <svg> in the SVG namespace with role img and a viewBox", root.Name.Local, root.Name.Space, attrs)
	}
}

func TestEscape(t *testing.T) {
	tests := []struct{ in, want string }{
		{`a<b & "c">`, "a&lt;b &amp; &quot;c&quot;&gt;"},
		{"tab\tok", "tab\tok"},
		{"nul\x00 bell\a", "nul\uFFFD bell\uFFFD"},
		{"bad \xff\xfe utf-8", "bad \uFFFD\uFFFD utf-8"},
		{"not a char \uFFFE", "not a char \uFFFD"},
		{"é 🚀", "é 🚀"},
	}
	for _, tt := range tests {
		got := escape(tt.in)
		if got != tt.want {
			t.Errorf("escape(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if err := wellFormed("<t>" + got + "</t>"); err != nil {
			t.Errorf("escape(%q) = %q: %v", tt.in, got, err)
		}
	}
}

// TestCircle draws a puzzle laid out around a circle.
func TestCircle(t *testing.T) {
	d, err := puzzle.Parse(strings.NewReader(`name: ring
cells: [a, b, c, d]
symbols: [1, 2, 3, 4]
moves:
  - {name: L, cycles: [[a, b, c, d]]}
  - {name: S, cycles: [[a, b]]}
goal:
  state: [1, 2, 3, 4]
input:
  cases: until_eof
layout:
  circle: [a, b, c, d]
`), "ring.yaml")
	if err == nil {
		err = d.Validate()
	}
	if err != nil {
		t.Fatal(err)
	}
	p, err := judging.New(d, judging.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e := Explain(checkerOf(t, p), []byte("2 1 3 4\n"), []byte("L\n"), findingOf(t, p, "2 1 3 4\n", "L\n", "case 1: after 1 move the position"))
	if e == nil {
		t.Fatal("no explanation")
	}
	if got := e.Start.Text(); got != "clockwise from the top: 2 1 3 4\n" {
		t.Errorf("got %q", got)
	}
	checkSVG(t, e.SVG())
	if !strings.Contains(e.SVG(), "<circle") {
		t.Error("no circle in the drawing")
	}
}
