package judging

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/optjudge/optjudge/reference/puzzle"
)

// words are the puzzle's own terms in messages, derived from the
// definition: the layout's way of drawing a symbol says what the pieces
// are (a dial, a tile), and the goal's values name the cells they are
// read from (the rotation game's center).
type words struct {
	multi  bool   // an input file holds several cases
	named  bool   // the cells have names of their own, which messages use
	cell   string // a cell: "dial", "square", "cell"
	symbol string // a symbol: "tile", "digit", "value"
	token  string // a token of a case in the input: "dial", "tile", "digit"
	thing  string // the whole position: "board", "dials"
	plural bool   // thing is a plural ("the dials are")
	// group names the cells of a goal of cells holding one symbol, by the
	// goal value read from one of them: "center"; "" without.
	group string
}

func newWords(p *Puzzle) words {
	d := p.def
	w := words{multi: d.Input.Cases != puzzle.CasesOne, named: d.Cells != nil}
	switch d.Layout.Show {
	case puzzle.ShowTile:
		w.cell, w.symbol, w.token, w.thing = "square", "tile", "tile", "board"
	case puzzle.ShowDial:
		w.cell, w.symbol, w.token, w.thing, w.plural = "dial", "value", "dial", "dials", true
	case puzzle.ShowOnOff:
		w.cell, w.symbol, w.token, w.thing, w.plural = "light", "value", "light", "lights", true
	case puzzle.ShowBar:
		w.cell, w.symbol, w.token, w.thing = "place", "bar", "bar", "stack"
	case puzzle.ShowSticker:
		w.cell, w.symbol, w.token, w.thing = "place", "piece", "sticker", "puzzle"
	default:
		w.cell, w.symbol, w.thing = "cell", symbolNoun(d.Symbols), "position"
		w.token = w.symbol
	}
	in := p.sizes[len(p.sizes)-1].in
	if same := in.Spec.Goal.Same; len(same) > 0 {
		for _, v := range in.Values {
			for _, c := range same {
				if c == v.Cell {
					w.group = v.Name
				}
			}
		}
	}
	return w
}

// symbolNoun calls the symbols digits or letters when they all are.
func symbolNoun(symbols []string) string {
	digits, letters := true, true
	for _, s := range symbols {
		if len(s) != 1 {
			return "symbol"
		}
		c := s[0]
		digits = digits && c >= '0' && c <= '9'
		letters = letters && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z')
	}
	switch {
	case digits:
		return "digit"
	case letters:
		return "letter"
	}
	return "symbol"
}

// the is "the board" or "the dials", with its verb.
func (w words) the() (noun, verb string) {
	if w.plural {
		return "the " + w.thing, "are"
	}
	return "the " + w.thing, "is"
}

// caseAt prefixes a message about case k with "case k: " where a file
// holds several cases.
func (w words) caseAt(k int) string {
	if w.multi {
		return "case " + strconv.Itoa(k) + ": "
	}
	return ""
}

// moveAt prefixes a message about move j of case k: "case k, move j: ".
func (w words) moveAt(k, j int) string {
	if w.multi {
		return fmt.Sprintf("case %d, move %d: ", k, j)
	}
	return fmt.Sprintf("move %d: ", j)
}

// plural is "1 move" or "n moves".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

var numberWords = [...]string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"}

// inWords writes small numbers in words: "eight".
func inWords(n int) string {
	if n >= 0 && n < len(numberWords) {
		return numberWords[n]
	}
	return strconv.Itoa(n)
}

// cellsHold is "1 cell holds" or "n cells hold".
func cellsHold(n int) string {
	if n == 1 {
		return "1 cell holds"
	}
	return fmt.Sprintf("%d cells hold", n)
}

// describe lists names for a message: runs of four or more consecutive
// numbers or letters as "1-8", the rest one by one, the last after conj
// ("or"); conj "" separates all by commas.
func describe(names []string, conj string) string {
	var parts []string
	for i := 0; i < len(names); {
		j := i + 1
		for j < len(names) && next(names[j-1], names[j]) {
			j++
		}
		if j-i >= 4 {
			parts = append(parts, names[i]+"-"+names[j-1])
		} else {
			parts = append(parts, names[i:j]...)
		}
		i = j
	}
	if conj == "" || len(parts) < 2 {
		return strings.Join(parts, ", ")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " " + conj + " " + parts[len(parts)-1]
}

// next reports whether b follows a: 7 then 8, or G then H.
func next(a, b string) bool {
	x, errA := strconv.Atoi(a)
	y, errB := strconv.Atoi(b)
	if errA == nil && errB == nil {
		return y == x+1 && strconv.Itoa(x) == a && strconv.Itoa(y) == b
	}
	return len(a) == 1 && len(b) == 1 && b[0] == a[0]+1 && isAlnum(a[0]) && isAlnum(b[0])
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// numericRange returns lo, hi when the names are the numbers lo to hi in
// order, written plainly.
func numericRange(names []string) (lo, hi int, ok bool) {
	for i, s := range names {
		v, err := strconv.Atoi(s)
		if err != nil || strconv.Itoa(v) != s {
			return 0, 0, false
		}
		if i == 0 {
			lo = v
		} else if v != hi+1 {
			return 0, 0, false
		}
		hi = v
	}
	return lo, hi, len(names) > 0
}

// quote quotes a token of a file, cut to about 40 bytes.
func quote(s string) string {
	if len(s) > 40 {
		return strconv.Quote(s[:40]) + "..."
	}
	return strconv.Quote(s)
}

// quoteRune quotes the first character of s like 'Q', escaping anything
// unprintable and showing a byte of invalid UTF-8 as '\xff'.
func quoteRune(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && n <= 1 {
		return fmt.Sprintf(`'\x%02x'`, s[0])
	}
	return strconv.QuoteRune(r)
}

// kindOfLetters calls the moves letters or digits where they all are, for
// "write the letters without spaces".
func kindOfLetters(moves []string) string {
	switch symbolNoun(moves) {
	case "digit":
		return "digits"
	case "letter":
		return "letters"
	}
	return "moves"
}
