package service

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// yajsvEnv makes the test binary the JSON Schema validator check-api.sh
// runs (its -j): a stand-in for neilpa/yajsv, which the module proxy does
// not serve, with the part of its interface the script uses:
//
//	yajsv [-q] -s SCHEMA [-r GLOB]... FILE...
//
// Each FILE is validated against SCHEMA, the -r files being the schemas
// its references may name (each known by its $id). Exit status: 0 all
// valid, 1 some invalid, 4 a usage or schema error (as yajsv's >= 4).
const yajsvEnv = "OPTJUDGE_YAJSV"

type globs []string

func (g *globs) String() string     { return fmt.Sprint(*g) }
func (g *globs) Set(s string) error { *g = append(*g, s); return nil }

func yajsv(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("yajsv", flag.ContinueOnError)
	fs.SetOutput(stderr)
	quiet := fs.Bool("q", false, "print failures only")
	schema := fs.String("s", "", "the schema")
	var refs globs
	fs.Var(&refs, "r", "referenced schemas (a glob)")
	if err := fs.Parse(args); err != nil || *schema == "" || fs.NArg() == 0 {
		fmt.Fprintln(stderr, "usage: yajsv [-q] -s SCHEMA [-r GLOB]... FILE...")
		return 4
	}
	c := jsonschema.NewCompiler()
	ids := map[string]string{}
	files := []string{*schema}
	for _, g := range refs {
		m, err := filepath.Glob(g)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 4
		}
		files = append(files, m...)
	}
	for _, f := range files {
		abs, _ := filepath.Abs(f)
		if _, ok := ids[abs]; ok {
			continue
		}
		doc, err := readJSON(f)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", f, err)
			return 4
		}
		id := "file://" + abs
		if m, ok := doc.(map[string]any); ok {
			if s, ok := m["$id"].(string); ok {
				id = s
			}
		}
		ids[abs] = id
		if err := c.AddResource(id, doc); err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", f, err)
			return 4
		}
	}
	abs, _ := filepath.Abs(*schema)
	sch, err := c.Compile(ids[abs])
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", *schema, err)
		return 4
	}
	status := 0
	for _, f := range fs.Args() {
		doc, err := readJSON(f)
		if err == nil {
			err = sch.Validate(doc)
		}
		var ve *jsonschema.ValidationError
		switch {
		case errors.As(err, &ve):
			b, _ := json.Marshal(ve.BasicOutput())
			fmt.Fprintf(stdout, "%s: fail: %s\n", f, b)
			status = max(status, 1)
		case err != nil:
			fmt.Fprintf(stdout, "%s: error: %v\n", f, err)
			status = max(status, 1)
		case !*quiet:
			fmt.Fprintf(stdout, "%s: pass\n", f)
		}
	}
	return status
}

func readJSON(name string) (any, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return jsonschema.UnmarshalJSON(f)
}
