package puzzle

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse feeds the decoder and Validate arbitrary files: they never
// panic, every problem is an Errors naming the file, and a definition that
// validates builds at every size.
func FuzzParse(f *testing.F) {
	for _, name := range shipped {
		data, err := os.ReadFile(filepath.Join("testdata", name+".yaml"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(swap2))
	f.Add([]byte("symbols: [a]\nmoves: [{name: m, add: [x, x]}]\ngoal: {same: []}\n"))
	f.Add([]byte("a: &a [*a]\n"))
	f.Add([]byte("grid: {rows: -1, cols: 99999}\nsize: {min: 9, max: 1}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Parse(bytes.NewReader(data), "p.yaml")
		if err == nil {
			err = d.Validate()
		}
		if err != nil {
			var es Errors
			if !errors.As(err, &es) || len(es) == 0 {
				t.Fatalf("got %v (%T), want Errors", err, err)
			}
			for _, e := range es {
				if e.File != "p.yaml" || e.Line < 0 {
					t.Fatalf("got %+v, want the file named and a line >= 0", e)
				}
			}
			return
		}
		lo, hi := d.Sizes()
		for n := lo; n <= hi; n++ {
			if _, err := d.Instance(n); err != nil {
				t.Fatalf("valid, but size %d: %v", n, err)
			}
		}
	})
}
