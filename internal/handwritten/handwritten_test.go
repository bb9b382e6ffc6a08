package handwritten

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestOnlyTestsImport: no file of the module but a test imports the
// hand-written references.
func TestOnlyTestsImport(t *testing.T) {
	const prefix = "github.com/optjudge/optjudge/internal/handwritten"
	root := filepath.Join("..", "..")
	here, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			abs, err := filepath.Abs(path)
			if err != nil {
				return err
			}
			if name := d.Name(); abs == here || name == "testdata" || path != root && strings.HasPrefix(name, ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		files++
		for _, im := range f.Imports {
			if p, _ := strconv.Unquote(im.Path.Value); p == prefix || strings.HasPrefix(p, prefix+"/") {
				t.Errorf("%s imports %s: only tests may", path, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("read %d files of the module, want its every one", files)
	}
}
