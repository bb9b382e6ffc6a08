package lang

import (
	"errors"
	"strings"
	"testing"
)

// TestDetect: a file's language comes from its ending, exactly or in
// another case where no language has that case; a .py file's #! line makes
// it Python 2; PyPy, explicit, is never detected; a directory takes the
// language most of its files have.
func TestDetect(t *testing.T) {
	t.Parallel()
	langs := Default()
	for _, tt := range []struct {
		name  string
		files map[string]string // name: first line
		want  string            // "" for none
	}{
		{"c", map[string]string{"a.c": ""}, "c"},
		{"upper-case C is C++", map[string]string{"a.C": ""}, "cpp"},
		{"another case", map[string]string{"A.CPP": ""}, "cpp"},
		{"python 3 by default", map[string]string{"a.py": "import sys"}, "python3"},
		{"python 3 shebang", map[string]string{"a.py": "#!/usr/bin/env python3"}, "python3"},
		{"python 2 shebang", map[string]string{"a.py": "#!/usr/bin/env python2"}, "python2"},
		{"python 2 shebang, version", map[string]string{"a.py": "#!/usr/bin/python2.7"}, "python2"},
		{".py2", map[string]string{"a.py2": ""}, "python2"},
		{"java", map[string]string{"Clocks.java": ""}, "java"},
		{"kotlin", map[string]string{"a.kt": ""}, "kotlin"},
		{"rust", map[string]string{"a.rs": ""}, "rust"},
		{"javascript", map[string]string{"a.js": ""}, "javascript"},
		{"lisp", map[string]string{"a.cl": ""}, "lisp"},
		{"bash", map[string]string{"a.sh": ""}, "bash"},
		{"text", map[string]string{"notes.txt": ""}, ""},
		{"no ending", map[string]string{"Makefile": ""}, ""},
		{"most files win", map[string]string{"a.cpp": "", "b.cpp": "", "c.c": "", "d.h": ""}, "cpp"},
		{"python 2 only where every .py says so", map[string]string{"a.py": "#!/usr/bin/env python2", "b.py": ""}, "python3"},
		{"all python 2", map[string]string{"a.py": "#!/usr/bin/env python2", "b.py": "#! /usr/bin/python2"}, "python2"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var names []string
			for n := range tt.files {
				names = append(names, n)
			}
			got := ""
			if l := langs.Pick(names, func(f string) []byte { return []byte(tt.files[f]) }); l != nil {
				got = l.Name
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestDetectContent: the service detects from a name and a source.
func TestDetectContent(t *testing.T) {
	t.Parallel()
	langs := Default()
	if l, err := langs.Detect("sol.py", []byte("#!/usr/bin/env python2\nprint 1\n")); err != nil || l.Name != "python2" {
		t.Errorf("python 2: got %v, %v", l, err)
	}
	var ule *UnknownError
	if _, err := langs.Detect("notes.txt", []byte("hello")); !errors.As(err, &ule) || ule.Ext != ".txt" || !strings.Contains(err.Error(), "known: c, cpp") {
		t.Errorf("a text file: got %v, want an *UnknownError naming .txt and the languages", err)
	}
}

// TestLanguageTable: the embedded table is valid, every language has a
// title, a version command and (but Python 2, which Debian 12 dropped) a
// Debian package; a table with a bad placeholder or shebang is refused.
func TestLanguageTable(t *testing.T) {
	t.Parallel()
	for _, l := range Default().List {
		if l.Title == "" || len(l.Version) == 0 || (l.Debian == "" && l.Name != "python2") {
			t.Errorf("%s: title %q, version %q, debian %q: want all three", l.Name, l.Title, l.Version, l.Debian)
		}
	}
	for _, tt := range []struct{ table, err string }{
		{"run: [x, \"{memlimt}\"]", "run[1]: unknown placeholder {memlimt}"},
		{"run: [x, \"{mainclass}\"]", "run[1]: unknown placeholder {mainclass}"},
		{"compile: [cc, \"-I{files}\"]\n    run: [x]", "compile[1]: {files} must be a whole argument"},
		{"run: [x]\n    shebang: '('\n    shebang_extensions: [.x]", "shebang: error parsing regexp"},
		{"run: [x]\n    shebang: 'x'", "shebang and shebang_extensions: give both or neither"},
		{"run: [x]\n    main_class: true", "main_class: needs a compile command"},
		{"run: [x]\n    extensions: [x]", "extensions[0]: want an ending such as .cpp"},
	} {
		_, err := Parse(strings.NewReader("languages:\n  - name: x\n    "+tt.table+"\n"), "t.yaml")
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%q: got %v, want %q", tt.table, err, tt.err)
		}
	}
	langs, err := Parse(strings.NewReader("languages:\n  - name: a\n    aliases: [b]\n    run: [x]\n  - name: b\n    run: [y]\n"), "t.yaml")
	if err == nil || !strings.Contains(err.Error(), `name "b" appears twice`) {
		t.Errorf("an alias that is another's name: got %v, %v", langs, err)
	}
	if l, err := Default().ByName("python"); err != nil || l.Name != "python3" {
		t.Errorf("the alias python: got %v, %v, want python3", l, err)
	}
}
