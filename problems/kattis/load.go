package kattis

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/specfile"
)

// Title is the problem's name in English, else in the first language
// problem.yaml gives one in; "" when it gives none.
func (k *Spec) Title() string {
	t, _ := k.title()
	return t
}

// Sources are the problem's source credits, as strings.
func (k *Spec) Sources() []string { return k.sources() }

// Memory and Output are limits.memory and limits.output, else the
// format's defaults (2048 and 8 MiB).
func (k *Spec) Memory() bytesize.Size { return mib(k.Limits.Memory, DefaultMemory) }

// Output: see Memory.
func (k *Spec) Output() bytesize.Size { return mib(k.Limits.Output, DefaultOutput) }

// The format's default limits.
const (
	DefaultMemory = 2048 * bytesize.MiB
	DefaultOutput = 8 * bytesize.MiB
)

func mib(v float64, def bytesize.Size) bytesize.Size {
	if v > 0 {
		return bytesize.Size(v * float64(bytesize.MiB))
	}
	return def
}

// findPrograms finds the output validator (legacy validator_flags its
// arguments) and the input validators of the package's directories.
func (p *Package) findPrograms() error {
	k := p.Spec
	ov, err := k.outputValidator(p.FS)
	if err != nil {
		return err
	}
	if ov != "" {
		p.CheckerProgram = &Program{Path: ov, Protocol: checkers.Kattis}
		if flags := strings.Fields(k.ValidatorFlags); len(flags) > 0 {
			p.CheckerProgram.Args = flags
		}
		p.Checker = checkers.Unbuilt{Path: ov}
	}
	ivs, err := programsIn(p.FS, "input_validators", "input_format_validators")
	if err != nil {
		return fmt.Errorf("%s: %w", k.file, err)
	}
	for _, v := range ivs {
		p.InputValidators = append(p.InputValidators, Program{Path: v})
	}
	return nil
}

// timeLimit is limits.time_limit, else .timelimit; 0 when the package
// gives none. source says where it came from.
func (k *Spec) timeLimit(fsys fs.FS) (tl float64, source string, err error) {
	if k.Limits.TimeLimit > 0 {
		return k.Limits.TimeLimit, fmt.Sprintf("%s:%d (limits.time_limit)", k.file, k.lineOf("limits.time_limit")), nil
	}
	b, err := fs.ReadFile(fsys, ".timelimit")
	if errors.Is(err, fs.ErrNotExist) {
		return 0, "", nil
	}
	name := path.Join(path.Dir(k.file), ".timelimit")
	if err != nil {
		return 0, "", fmt.Errorf("reading %s: %w", name, err)
	}
	tl, err = strconv.ParseFloat(strings.TrimSpace(string(b)), 64)
	if err != nil || tl <= 0 || math.IsNaN(tl) || math.IsInf(tl, 0) {
		return 0, "", &specfile.Error{File: name, Line: 1, Msg: fmt.Sprintf("want a time limit in seconds, got %q", strings.TrimSpace(string(b)))}
	}
	return tl, name, nil
}

// outputValidator finds the output validator's program, as each version
// places it: the one program in output_validators/ with the legacy
// validation: custom; output_validator/ in 2023-07 and later (the
// directory itself, or the one directory in it, as problemtools reads
// it). It returns "" for the default validator.
func (k *Spec) outputValidator(fsys fs.FS) (string, error) {
	legacyDir, err := programsIn(fsys, "output_validators")
	if err != nil {
		return "", fmt.Errorf("%s: %w", k.file, err)
	}
	single := singleProgramDir(fsys, "output_validator")
	if k.format != FormatLegacy {
		if single == "" && len(legacyDir) > 0 {
			return "", &specfile.Error{File: k.file, Field: "problem_format_version",
				Msg: fmt.Sprintf("format %s reads the output validator from output_validator/, not output_validators/", k.format)}
		}
		return single, nil
	}
	if !k.customValidation() {
		return "", nil
	}
	switch {
	case len(legacyDir) == 0 && single != "":
		return single, nil
	case len(legacyDir) == 0:
		return "", &specfile.Error{File: k.file, Line: k.lineOf("validation"), Field: "validation",
			Msg: "custom, but there is no program in output_validators/ or output_validator/"}
	case len(legacyDir) == 1:
		return legacyDir[0], nil
	}
	return "", &specfile.Error{File: k.file, Line: k.lineOf("validation"), Field: "validation",
		Msg: fmt.Sprintf("output_validators/ holds %d programs (%s); the judge runs one", len(legacyDir), strings.Join(legacyDir, ", "))}
}

// singleProgramDir is the program a directory such as output_validator/
// holds: the directory itself, or the one directory in it when that is
// all it holds (problemtools reads output_validator/NAME/). "" when dir
// does not exist or is empty.
func singleProgramDir(fsys fs.FS, dir string) string {
	entries, err := visibleEntries(fsys, dir)
	if err != nil || len(entries) == 0 {
		return ""
	}
	if len(entries) == 1 && entries[0].IsDir() && !hasBuildRun(fsys, dir) {
		return path.Join(dir, entries[0].Name())
	}
	return dir
}

// programsIn lists the programs in the first of dirs that exists: each
// directory in it is one program, and so is each file of a source ending
// (sourceEndings; for validators .ctd and .viva too), as the Kattis format
// and problemtools have it. A file of no language is no program: see
// folderFiles.
func programsIn(fsys fs.FS, dirs ...string) ([]string, error) {
	for _, d := range dirs {
		entries, err := visibleEntries(fsys, d)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		var progs []string
		for _, e := range entries {
			if e.IsDir() || isProgramFile(e.Name()) {
				progs = append(progs, path.Join(d, e.Name()))
			}
		}
		return progs, nil
	}
	return nil, nil
}

// sourceEndings are the endings of the source files of the judge's
// language table (judge/lang/languages.yaml; a test of package judge keeps
// the two the same). A file of a program folder with none of them, in any
// case, is no program of its own.
var sourceEndings = []string{
	".c", ".cpp", ".cc", ".cxx", ".c++", ".go", ".py", ".py3", ".py2", ".java", ".kt", ".rs",
	".js", ".cs", ".hs", ".rb", ".php", ".ml", ".scala", ".sc", ".lisp", ".cl",
}

// isProgramFile says whether a file of a program folder is a program: a
// source file, or a .ctd or .viva script.
func isProgramFile(name string) bool {
	ext := strings.ToLower(path.Ext(name))
	return ext == ".ctd" || ext == ".viva" || slices.Contains(sourceEndings, ext)
}

// headerEndings are the endings of the files a program folder holds for
// its programs to include, which need no warning.
var headerEndings = []string{".h", ".hh", ".hpp", ".hxx", ".inc", ".inl", ".tcc"}

// folderFiles lists the files of a program folder that are no program
// (a testlib.h beside a validator, a README.txt): copied beside each of
// its file programs when it is built, as part of that program. Each but a
// header earns a warning.
func folderFiles(fsys fs.FS, dir string) (files []string, ws []Warning) {
	entries, err := visibleEntries(fsys, dir)
	if err != nil {
		return nil, nil
	}
	for _, e := range entries {
		if e.IsDir() || isProgramFile(e.Name()) {
			continue
		}
		name := path.Join(dir, e.Name())
		files = append(files, name)
		if !slices.Contains(headerEndings, strings.ToLower(path.Ext(name))) {
			ws = append(ws, Warning{File: name, Msg: fmt.Sprintf("skipped: not a program (no language for %q); copied beside the programs of %s/ as a file they may read", path.Ext(name), dir)})
		}
	}
	return files, ws
}

// programFolders are the folders of a package whose every file or
// directory is a program of its own.
var programFolders = []string{"input_validators", "input_format_validators", "output_validators", "answer_validators", "graders"}

// loadFolderFiles gives every file program of a program folder the
// folder's other files (Program.Files), with a warning for each that is
// no header.
func (p *Package) loadFolderFiles() {
	byDir := map[string][]string{}
	for _, dir := range programFolders {
		files, ws := folderFiles(p.FS, dir)
		byDir[dir] = files
		for _, w := range ws {
			w.File = p.file(w.File)
			p.Warnings = append(p.Warnings, w)
		}
	}
	set := func(prog *Program) {
		if prog != nil && prog.Kind == ProgramSource && !isDirFS(p.FS, prog.Path) {
			prog.Files = byDir[path.Dir(prog.Path)]
		}
	}
	for i := range p.InputValidators {
		set(&p.InputValidators[i])
	}
	for i := range p.AnswerValidators {
		set(&p.AnswerValidators[i])
	}
	for i := range p.Graders {
		set(&p.Graders[i])
	}
	set(p.CheckerProgram)
	set(p.Validation.Program)
}

// visibleEntries lists dir without the entries a package ignores (names
// starting with a period or a dash), each symbolic link as what it points
// to (oddecho shares tests between groups that way).
func visibleEntries(fsys fs.FS, dir string) ([]fs.DirEntry, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	out := entries[:0]
	for _, e := range entries {
		if ignoredName(e.Name()) {
			continue
		}
		if e.Type()&fs.ModeSymlink != 0 {
			if st, err := fs.Stat(fsys, path.Join(dir, e.Name())); err == nil {
				e = fs.FileInfoToDirEntry(renamed{st, e.Name()})
			}
		}
		out = append(out, e)
	}
	return out, nil
}

// renamed is a link's target's FileInfo under the link's name.
type renamed struct {
	fs.FileInfo
	name string
}

func (r renamed) Name() string { return r.name }

// ignoredName: the format has the judge behave as if files and directories
// whose names start with a period or a dash were not there.
func ignoredName(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "-")
}

func hasBuildRun(fsys fs.FS, dir string) bool {
	for _, s := range []string{"build", "run"} {
		if st, err := fs.Stat(fsys, path.Join(dir, s)); err == nil && !st.IsDir() {
			return true
		}
	}
	return false
}

// programKind tells a program's kind from its path: a directory with build
// or run scripts, a .ctd or .viva script (for input and answer validators),
// or sources.
func programKind(fsys fs.FS, p string, scripts bool) ProgramKind {
	if st, err := fs.Stat(fsys, p); err == nil && st.IsDir() {
		if hasBuildRun(fsys, p) {
			return ProgramBuildRun
		}
		return ProgramSource
	}
	if scripts {
		switch path.Ext(p) {
		case ".ctd":
			return ProgramCheckTestData
		case ".viva":
			return ProgramViva
		}
	}
	return ProgramSource
}

func isDirFS(fsys fs.FS, name string) bool {
	st, err := fs.Stat(fsys, name)
	return err == nil && st.IsDir()
}

// dashNameRE is the name the native layout wants: lower-case letters,
// digits and dashes.
var dashNameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// kattisNameRE is the name every version of the Kattis format wants for a
// package's directory.
var kattisNameRE = regexp.MustCompile(`^[a-z0-9]+$`)

// checkName reports a package directory's name that the format
// disallows: as problemtools reports it, an error (a Defect), but for a
// name whose only fault is a '-' (lower-case letters, digits and dashes:
// the judge's own problems are named so, and BAPCtools and DOMjudge take
// them), a warning. The package loads and runs whatever its name.
func (p *Package) checkName(name string) {
	if kattisNameRE.MatchString(name) {
		return
	}
	if dashNameRE.MatchString(name) {
		p.Warnings = append(p.Warnings, Warning{File: p.file("problem.yaml"),
			Msg: fmt.Sprintf("the package directory's name %q has a '-': the format allows a-z and 0-9 only (problemtools: an error)", name)})
		return
	}
	p.Defects = append(p.Defects, Warning{File: p.file("problem.yaml"),
		Msg: fmt.Sprintf("the package directory's name %q is not one the format allows: lower-case letters a-z and digits 0-9 only", name)})
}

// Load reads the rest of a Kattis package whose Layout, FS, Origin and
// Spec are set (and OwnChecker, where the judge has one for it): its type,
// time limit, validators and other programs, test data groups, constants
// and included files; name is the package's directory name.
func (p *Package) Load(name string) error {
	k := p.Spec
	p.Format, p.Type = k.Format(), k.ProblemType()
	if err := p.findPrograms(); err != nil {
		return err
	}
	p.Warnings = append(p.Warnings, k.Warnings()...)
	p.Objective = "max"
	if k.Grading.Objective != "" {
		p.Objective = k.Grading.Objective
	}
	p.Constants = k.constants
	p.Submit = k.submitRules()
	if err := p.loadTime(); err != nil {
		return err
	}
	if err := p.loadPrograms(); err != nil {
		return err
	}
	if err := p.loadGroups(); err != nil {
		return err
	}
	p.Warnings = append(p.Warnings, p.constantWarnings()...)
	p.checkName(name)
	p.checkIncludes()
	return p.loadDefaultValidator()
}

// loadTime reads where the time limit comes from and its margins.
func (p *Package) loadTime() error {
	k := p.Spec
	tl, source, err := k.timeLimit(p.FS)
	if err != nil {
		return err
	}
	m := k.multipliers()
	p.Time = TimeLimitRules{Given: tl > 0, Source: source, Limit: seconds(tl), Multipliers: m}
	// 2025-09 has the limit a multiple of the resolution (2023-07 ignored
	// the resolution when the limit is given).
	if k.Format() == Format2025 && k.Limits.TimeLimit > 0 && !multipleOf(tl, m.Resolution.Seconds()) {
		p.Warnings = append(p.Warnings, Warning{File: k.file, Line: k.lineOf("limits.time_limit"), Field: "limits.time_limit",
			Msg: fmt.Sprintf("%v is not a multiple of limits.time_resolution (%v)", tl, m.Resolution.Seconds())})
	}
	return nil
}

// loadPrograms gives each program its kind and finds the validators and
// graders of the newer directories, warning about directories of another
// version.
func (p *Package) loadPrograms() error {
	fsys, k := p.FS, p.Spec
	for i := range p.InputValidators {
		p.InputValidators[i].Kind = programKind(fsys, p.InputValidators[i].Path, true)
	}
	if isDirFS(fsys, "input_format_validators") {
		p.Warnings = append(p.Warnings, Warning{File: p.file("input_format_validators"), Msg: "a deprecated name: use input_validators/"})
	}
	if prog := p.CheckerProgram; prog != nil {
		prog.Kind = programKind(fsys, prog.Path, false)
		cp := *prog
		p.Validation.Program = &cp
	}
	p.Validation.Default = p.CheckerProgram == nil && p.OwnChecker == nil
	if p.CheckerProgram == nil && p.OwnChecker != nil {
		p.Checker = p.OwnChecker
	}
	p.Validation.Interactive = p.Type.Interactive
	switch k.Format() {
	case FormatLegacy:
		p.Validation.ScoreAllowed = k.customScore()
		p.Validation.ScoreRequired = k.customScore()
		if !k.customValidation() && len(mustPrograms(fsys, "output_validators")) > 0 {
			p.Warnings = append(p.Warnings, Warning{File: p.file("output_validators"), Msg: "ignored: problem.yaml says validation: default"})
		}
	default:
		p.Validation.ScoreAllowed = p.Type.Scoring
		p.Validation.MultiplierAllowed = p.Type.Scoring && k.Format() == Format2025
	}
	if p.Type.MultiPass {
		if p.Validation.Program == nil {
			return &specfile.Error{File: k.file, Line: k.lineOf("type"), Field: "type",
				Msg: "multi-pass, but there is no output validator to write the next pass's input (output_validator/ or output_validators/)"}
		}
		p.Validation.Passes = k.passes()
	}
	if p.Type.Interactive {
		if p.Validation.Program == nil {
			return &specfile.Error{File: k.file, Line: k.lineOf("type"), Field: "type",
				Msg: "interactive, but there is no output validator to interact with (output_validator/ or output_validators/)"}
		}
		// The interactive validator is not a checker of outputs: the
		// judge runs it beside the submission (Validation.Program).
		p.CheckerProgram = nil
		p.Checker = interactiveChecker{path: p.Validation.Program.Path}
	}
	for _, d := range []struct {
		dir  string
		dest *[]Program
	}{{"answer_validators", &p.AnswerValidators}, {"graders", &p.Graders}} {
		for _, prog := range mustPrograms(fsys, d.dir) {
			*d.dest = append(*d.dest, Program{Path: prog, Kind: programKind(fsys, prog, d.dir == "answer_validators")})
		}
	}
	if len(p.Graders) > 1 {
		return &specfile.Error{File: p.file("graders"), Msg: fmt.Sprintf("%d graders; a package has at most one", len(p.Graders))}
	}
	if len(p.Graders) > 0 && !p.Type.Scoring {
		p.Warnings = append(p.Warnings, Warning{File: p.file("graders"), Msg: "ignored: graders are for scoring problems"})
	}
	if sv := singleProgramDir(fsys, "static_validator"); sv != "" {
		p.StaticValidator = &Program{Path: sv, Kind: programKind(fsys, sv, false)}
		if p.Type.SubmitAnswer {
			p.Defects = append(p.Defects, Warning{File: p.file(sv), Msg: "a submit-answer problem has no static validator (the format forbids it); not run"})
			p.StaticValidator = nil
		}
	}
	p.loadFolderFiles()
	return nil
}

func mustPrograms(fsys fs.FS, dir string) []string {
	progs, _ := programsIn(fsys, dir)
	return progs
}

// loadDefaultValidator sets the checker of a package judged by the
// default output validator: the built-in checker default with the flags of
// each test (legacy validator_flags and output_validator_flags, 2025-09
// output_validator_args). A flag it does not know, or a bad tolerance, is
// an error naming where the flags come from.
func (p *Package) loadDefaultValidator() error {
	if p.Checker == p.OwnChecker && p.OwnChecker != nil {
		p.warnOwnCheckerArgs()
	}
	if !p.Validation.Default {
		return nil
	}
	p.defaultCheckers = map[string]checkers.Checker{}
	var (
		es      specfile.Errors
		keys    []string
		options checkers.Options
	)
	for _, t := range p.allTests() {
		args := t.Config.OutputValidatorArgs
		key := strings.Join(args, "\x00")
		if _, done := p.defaultCheckers[key]; done {
			continue
		}
		opts, err := checkers.ParseDefaultArgs(args)
		var chk checkers.Checker
		if err == nil {
			chk, err = checkers.New("default", opts)
		}
		if err != nil {
			es = append(es, &specfile.Error{File: t.Config.OutputValidatorArgsFrom, Msg: err.Error()})
			continue
		}
		p.defaultCheckers[key] = chk
		keys = append(keys, key)
		options = opts
	}
	if len(es) > 0 {
		return es
	}
	switch len(keys) {
	case 0:
		p.Checker, _ = checkers.New("default", nil)
	case 1:
		p.Checker = p.defaultCheckers[keys[0]]
		p.Validation.DefaultOptions = options
	default:
		p.Checker = mixedFlagsChecker{groups: p.flagGroups()}
	}
	return nil
}

// warnOwnCheckerArgs warns, once, about output validator arguments that
// the judge's own checker does not take.
func (p *Package) warnOwnCheckerArgs() {
	for _, t := range p.allTests() {
		if len(t.Config.OutputValidatorArgs) > 0 {
			p.Warnings = append(p.Warnings, Warning{File: t.Config.OutputValidatorArgsFrom,
				Msg: "ignored: the output is judged by the checker of the package's definition (puzzle.yaml), which takes no arguments"})
			return
		}
	}
}

// allTests lists every test of the package, the validator tests of
// data/invalid_output and data/valid_output too.
func (p *Package) allTests() []*Test {
	ts := p.Groups.AllTests()
	for _, g := range []*Group{p.ValidOutputs, p.InvalidOutputs} {
		if g != nil {
			ts = append(ts, g.AllTests()...)
		}
	}
	return ts
}

// CheckerFor is the checker of test t: for a package judged by the default
// output validator, the built-in checker default with t's flags (they may
// differ from group to group); otherwise Package.Checker, a checker
// program taking t's OutputValidatorArgs as arguments.
func (p *Package) CheckerFor(t Test) checkers.Checker {
	if p.defaultCheckers == nil || t.Config == nil {
		return p.Checker
	}
	if chk, ok := p.defaultCheckers[strings.Join(t.Config.OutputValidatorArgs, "\x00")]; ok {
		return chk
	}
	// A test added since Load: its flags are checked now.
	opts, err := checkers.ParseDefaultArgs(t.Config.OutputValidatorArgs)
	if err != nil {
		return badFlagsChecker{err: fmt.Errorf("%s: %w", t.Config.OutputValidatorArgsFrom, err)}
	}
	chk, err := checkers.New("default", opts)
	if err != nil {
		return badFlagsChecker{err: fmt.Errorf("%s: %w", t.Config.OutputValidatorArgsFrom, err)}
	}
	return chk
}

// flagGroups says which groups use which flags, for messages.
func (p *Package) flagGroups() string {
	seen := map[string]bool{}
	var parts []string
	for _, t := range p.allTests() {
		key := strings.Join(t.Config.OutputValidatorArgs, " ")
		if seen[key] {
			continue
		}
		seen[key] = true
		if key == "" {
			key = "none"
		}
		parts = append(parts, fmt.Sprintf("%s: %s", t.Config.Group, key))
	}
	return strings.Join(parts, "; ")
}

// mixedFlagsChecker stands in for the default output validator of a
// package whose groups give it different flags: one checker cannot judge
// all tests, so every Check fails (JE), and the judge must take each
// test's checker from CheckerFor.
type mixedFlagsChecker struct{ groups string }

func (c mixedFlagsChecker) Check(context.Context, checkers.Files) (checkers.Result, error) {
	return checkers.Result{}, fmt.Errorf("the default output validator's flags differ between test groups (%s): each test needs its own checker (Package.CheckerFor)", c.groups)
}

// badFlagsChecker fails every check with the error of a test's flags.
type badFlagsChecker struct{ err error }

func (c badFlagsChecker) Check(context.Context, checkers.Files) (checkers.Result, error) {
	return checkers.Result{}, c.err
}

// interactiveChecker stands in for the checker of an interactive problem,
// whose validator runs beside the submission rather than after it: every
// Check fails, so a caller that treats the problem as a batch one gets
// JE, never a verdict.
type interactiveChecker struct{ path string }

// Check always fails.
func (c interactiveChecker) Check(context.Context, checkers.Files) (checkers.Result, error) {
	return checkers.Result{}, fmt.Errorf("the problem is interactive: its validator %s runs beside the submission (as judge.Judge grades it), not on an output", c.path)
}

func isFileFS(fsys fs.FS, name string) bool {
	st, err := fs.Stat(fsys, name)
	return err == nil && st.Mode().IsRegular()
}
