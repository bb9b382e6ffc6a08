package contest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Scoreboard types.
const (
	PassFail = "pass-fail"
	Score    = "score"
)

// Contest is a contest package, validated.
type Contest struct {
	ID         string
	Name       string
	FormalName string
	// Start is the scheduled start; zero when the package names none (the
	// contest then never starts).
	Start          time.Time
	Duration       time.Duration
	Freeze         time.Duration // scoreboard_freeze_duration: 0 for none
	Penalty        time.Duration // per rejected submission before a solve
	ScoreboardType string        // PassFail or Score

	// Medals are how many gold, silver and bronze medals the board gives
	// (contest.yaml's medals: a key of this judge, since the Contest
	// Package has no medal counts; DOMjudge keeps the same three counts
	// on its contest); zero for none.
	Medals Medals

	Problems      []Problem
	Teams         []Team
	Groups        []Group
	Organizations []Organization
	Accounts      []Account
	// Declared are the awards of awards.json: the citation of one the
	// board gives (see Awards), or an award of the jury's own with its
	// teams.
	Declared []DeclaredAward
}

// Medals are the counts of medals by colour: the teams ranked 1 to Gold
// win gold, the next Silver silver, the next Bronze bronze, by rank (the
// teams that tie with the last of a colour win it too).
type Medals struct {
	Gold   int `yaml:"gold"`
	Silver int `yaml:"silver"`
	Bronze int `yaml:"bronze"`
}

// DeclaredAward is an entry of awards.json, the Contest Package's copy of
// the awards endpoint. TeamIDs nil: an award the board gives (winner,
// *-medal, first-to-solve-*, group-winner-*), whose citation it sets.
type DeclaredAward struct {
	ID       string    `yaml:"id" json:"id"`
	Citation string    `yaml:"citation" json:"citation"`
	TeamIDs  *[]string `yaml:"team_ids" json:"team_ids"`
	Line     int       `yaml:"-" json:"-"`
}

// End is when the contest ends; zero without a start.
func (c *Contest) End() time.Time {
	if c.Start.IsZero() {
		return time.Time{}
	}
	return c.Start.Add(c.Duration)
}

// FreezeAt is when the scoreboard freezes; zero when it never does.
func (c *Contest) FreezeAt() time.Time {
	if c.Start.IsZero() || c.Freeze <= 0 {
		return time.Time{}
	}
	return c.End().Add(-c.Freeze)
}

// Problem is an entry of problems.yaml.
type Problem struct {
	ID            string   `yaml:"id" json:"id"`
	Label         string   `yaml:"label" json:"label"`
	Name          string   `yaml:"name" json:"name,omitempty"`
	Ordinal       int      `yaml:"ordinal" json:"ordinal"`
	RGB           string   `yaml:"rgb" json:"rgb,omitempty"`
	Color         string   `yaml:"color" json:"color,omitempty"`
	UUID          string   `yaml:"uuid" json:"uuid,omitempty"`
	TimeLimit     *float64 `yaml:"time_limit" json:"time_limit,omitempty"`
	MemoryLimit   *int     `yaml:"memory_limit" json:"memory_limit,omitempty"`
	OutputLimit   *int     `yaml:"output_limit" json:"output_limit,omitempty"`
	CodeLimit     *int     `yaml:"code_limit" json:"code_limit,omitempty"`
	TestDataCount *int     `yaml:"test_data_count" json:"test_data_count,omitempty"`
	MaxScore      *float64 `yaml:"max_score" json:"max_score,omitempty"`
	Line          int      `yaml:"-" json:"-"`
}

// Team is an entry of teams.json.
type Team struct {
	ID             string   `yaml:"id" json:"id"`
	ICPCID         *string  `yaml:"icpc_id" json:"icpc_id,omitempty"`
	Name           string   `yaml:"name" json:"name"`
	Label          string   `yaml:"label" json:"label"`
	DisplayName    *string  `yaml:"display_name" json:"display_name,omitempty"`
	OrganizationID *string  `yaml:"organization_id" json:"organization_id,omitempty"`
	GroupIDs       []string `yaml:"group_ids" json:"group_ids"`
	Hidden         bool     `yaml:"hidden" json:"hidden,omitempty"`
	Location       *struct {
		X        float64 `yaml:"x" json:"x"`
		Y        float64 `yaml:"y" json:"y"`
		Rotation float64 `yaml:"rotation" json:"rotation"`
	} `yaml:"location" json:"location,omitempty"`
	Line int `yaml:"-" json:"-"`
}

// Shown is the team's name as boards show it.
func (t *Team) Shown() string {
	if t.DisplayName != nil && *t.DisplayName != "" {
		return *t.DisplayName
	}
	return t.Name
}

// Location is a place on Earth.
type Location struct {
	Latitude  float64 `yaml:"latitude" json:"latitude"`
	Longitude float64 `yaml:"longitude" json:"longitude"`
}

// Group is an entry of groups.json.
type Group struct {
	ID       string    `yaml:"id" json:"id"`
	ICPCID   *string   `yaml:"icpc_id" json:"icpc_id,omitempty"`
	Name     string    `yaml:"name" json:"name"`
	Type     *string   `yaml:"type" json:"type,omitempty"`
	Location *Location `yaml:"location" json:"location,omitempty"`
	Line     int       `yaml:"-" json:"-"`
}

// Organization is an entry of organizations.json.
type Organization struct {
	ID                 string    `yaml:"id" json:"id"`
	ICPCID             *string   `yaml:"icpc_id" json:"icpc_id,omitempty"`
	Name               string    `yaml:"name" json:"name"`
	FormalName         *string   `yaml:"formal_name" json:"formal_name,omitempty"`
	Country            *string   `yaml:"country" json:"country,omitempty"`
	CountrySubdivision *string   `yaml:"country_subdivision" json:"country_subdivision,omitempty"`
	URL                *string   `yaml:"url" json:"url,omitempty"`
	TwitterHashtag     *string   `yaml:"twitter_hashtag" json:"twitter_hashtag,omitempty"`
	TwitterAccount     *string   `yaml:"twitter_account" json:"twitter_account,omitempty"`
	Location           *Location `yaml:"location" json:"location,omitempty"`
	Line               int       `yaml:"-" json:"-"`
}

// Account types the judge takes: a team's, and the jury's (judge and
// admin are both admins of the service).
const (
	AccountTeam  = "team"
	AccountJudge = "judge"
	AccountAdmin = "admin"
)

// Account is an entry of accounts.yaml: who logs in, with the password
// as their token.
type Account struct {
	ID       string  `yaml:"id" json:"id"`
	Username string  `yaml:"username" json:"username"`
	Password string  `yaml:"password" json:"-"`
	Name     *string `yaml:"name" json:"name,omitempty"`
	Type     string  `yaml:"type" json:"type"`
	IP       *string `yaml:"ip" json:"ip,omitempty"`
	TeamID   *string `yaml:"team_id" json:"team_id,omitempty"`
	PersonID *string `yaml:"person_id" json:"person_id,omitempty"`
	Line     int     `yaml:"-" json:"-"`
}

// MinPassword is the shortest password an account may have: it is the
// account's token on the API and the pages.
const MinPassword = 8

// idRE is the spec's ID.
var idRE = regexp.MustCompile(`^[A-Za-z0-9_]([A-Za-z0-9_.-]{0,34}[A-Za-z0-9_-])?$`)

// ValidID says whether s is an ID as the spec has it.
func ValidID(s string) bool { return idRE.MatchString(s) }

// Load reads the contest package in dir (see the package doc).
func Load(dir string) (*Contest, error) { return LoadFS(os.DirFS(dir), dir) }

// LoadFS reads a contest package from fsys, named dir in messages.
func LoadFS(fsys fs.FS, dir string) (*Contest, error) {
	open := func(base string, exts ...string) (io.Reader, string, error) {
		for _, e := range exts {
			b, err := fs.ReadFile(fsys, base+e)
			if err == nil {
				return bytes.NewReader(b), filepath.Join(dir, base+e), nil
			}
			if !errors.Is(err, fs.ErrNotExist) {
				return nil, "", err
			}
		}
		return nil, "", nil
	}
	r, name, err := open("contest", ".yaml", ".json")
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, fmt.Errorf("%s: no contest.yaml", dir)
	}
	c, err := ParseContest(r, name)
	if err != nil {
		return nil, err
	}
	lists := []struct {
		base string
		into func(io.Reader, string) error
	}{
		{"problems", func(r io.Reader, n string) error { return decodeList(r, n, &c.Problems) }},
		{"groups", func(r io.Reader, n string) error { return decodeList(r, n, &c.Groups) }},
		{"organizations", func(r io.Reader, n string) error { return decodeList(r, n, &c.Organizations) }},
		{"teams", func(r io.Reader, n string) error { return decodeList(r, n, &c.Teams) }},
		{"accounts", func(r io.Reader, n string) error { return decodeList(r, n, &c.Accounts) }},
		{"awards", func(r io.Reader, n string) error { return decodeList(r, n, &c.Declared) }},
	}
	var errs []error
	files := map[string]string{}
	for _, l := range lists {
		r, name, err := open(l.base, ".yaml", ".json")
		if err != nil {
			return nil, err
		}
		if r == nil {
			continue
		}
		files[l.base] = name
		if err := l.into(r, name); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if err := c.validate(files); err != nil {
		return nil, err
	}
	return c, nil
}

// contestFile is contest.yaml as the spec writes it.
type contestFile struct {
	ID                 string    `yaml:"id"`
	Name               string    `yaml:"name"`
	FormalName         string    `yaml:"formal_name"`
	StartTime          yaml.Node `yaml:"start_time"`
	CountdownPauseTime string    `yaml:"countdown_pause_time"`
	Duration           string    `yaml:"duration"`
	Freeze             string    `yaml:"scoreboard_freeze_duration"`
	ThawTime           string    `yaml:"scoreboard_thaw_time"`
	ScoreboardType     string    `yaml:"scoreboard_type"`
	MainGroup          string    `yaml:"main_scoreboard_group_id"`
	Penalty            yaml.Node `yaml:"penalty_time"`
	Banner             yaml.Node `yaml:"banner"`
	Logo               yaml.Node `yaml:"logo"`
	Location           *Location `yaml:"location"`
	Medals             *Medals   `yaml:"medals"`
}

// ignoredContestKeys are keys of contest.yaml that other tools
// (BAPCtools, DOMjudge) keep there for themselves.
var ignoredContestKeys = map[string]bool{
	"title": true, "subtitle": true, "year": true, "author": true, "authors": true, "testsession": true,
	"test_session": true, "source": true, "source_url": true, "license": true, "rights_owner": true,
	"short-id": true, "activate_time": true, "deactivate_time": true, "public": true,
}

// ParseContest reads a contest.yaml (name is the file for messages).
func ParseContest(r io.Reader, name string) (*Contest, error) {
	var doc yaml.Node
	if err := yaml.NewDecoder(r).Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: empty", name)
		}
		return nil, fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: want a mapping of the contest's properties", name)
	}
	m := doc.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if ignoredContestKeys[k.Value] {
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			i -= 2
		}
	}
	var cf contestFile
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.Encode(m)
	dec := yaml.NewDecoder(&buf)
	dec.KnownFields(true)
	if err := dec.Decode(&cf); err != nil {
		return nil, fmt.Errorf("%s: %s", name, yamlMessage(err))
	}
	return cf.contest(name, lineOf(m))
}

// lineOf maps a mapping's keys to their lines.
func lineOf(m *yaml.Node) map[string]int {
	out := map[string]int{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		out[m.Content[i].Value] = m.Content[i].Line
	}
	return out
}

func (cf *contestFile) contest(name string, line map[string]int) (*Contest, error) {
	var errs []string
	bad := func(key, format string, args ...any) {
		errs = append(errs, fmt.Sprintf("%s:%d: %s: %s", name, line[key], key, fmt.Sprintf(format, args...)))
	}
	c := &Contest{ID: cf.ID, Name: cf.Name, FormalName: cf.FormalName, ScoreboardType: cf.ScoreboardType,
		Penalty: 20 * time.Minute}
	if c.Name == "" {
		c.Name = cf.FormalName
	}
	if c.ID == "" {
		c.ID = "contest"
	}
	if !ValidID(c.ID) {
		bad("id", "want letters, digits, '_', '.' or '-' (at most 36), got %q", c.ID)
	}
	if c.Name == "" {
		c.Name = c.ID
	}
	if c.ScoreboardType == "" {
		c.ScoreboardType = PassFail
	}
	if c.ScoreboardType != PassFail && c.ScoreboardType != Score {
		bad("scoreboard_type", "want pass-fail or score, got %q", c.ScoreboardType)
	}
	if v := cf.StartTime.Value; v != "" && cf.StartTime.Tag != "!!null" {
		t, err := ParseTime(v)
		if err != nil {
			bad("start_time", "%v", err)
		}
		c.Start = t
	}
	var err error
	if cf.Duration == "" {
		bad("duration", "required, such as 5:00:00")
	} else if c.Duration, err = ParseRel(cf.Duration); err != nil || c.Duration <= 0 {
		bad("duration", "want a positive duration such as 5:00:00, got %q", cf.Duration)
	}
	if cf.Freeze != "" {
		if c.Freeze, err = ParseRel(cf.Freeze); err != nil || c.Freeze < 0 || c.Freeze > c.Duration {
			bad("scoreboard_freeze_duration", "want a duration from 0:00:00 to the contest's duration, got %q", cf.Freeze)
		}
	}
	if v := cf.Penalty.Value; v != "" {
		if n, err := strconv.Atoi(v); err == nil && n >= 0 {
			c.Penalty = time.Duration(n) * time.Minute // minutes, as before 2026-01
		} else if c.Penalty, err = ParseRel(v); err != nil || c.Penalty < 0 {
			bad("penalty_time", "want minutes or a duration such as 0:20:00, got %q", v)
		}
	}
	if m := cf.Medals; m != nil {
		if m.Gold < 0 || m.Silver < 0 || m.Bronze < 0 {
			bad("medals", "want counts of 0 or more, got gold %d, silver %d, bronze %d", m.Gold, m.Silver, m.Bronze)
		}
		c.Medals = *m
	}
	if cf.CountdownPauseTime != "" || cf.ThawTime != "" || cf.MainGroup != "" {
		for _, k := range []string{"countdown_pause_time", "scoreboard_thaw_time", "main_scoreboard_group_id"} {
			if _, ok := line[k]; ok {
				bad(k, "not supported by this judge: the contest starts at start_time, an admin thaws the board")
			}
		}
	}
	if len(errs) > 0 {
		return nil, errors.New(strings.Join(errs, "\n"))
	}
	return c, nil
}

// decodeList decodes a list file (YAML or JSON, which YAML reads) into
// *out, strictly, and records each entry's line.
func decodeList[T any](r io.Reader, name string, out *[]T) error {
	var doc yaml.Node
	if err := yaml.NewDecoder(r).Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil
		}
		return fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.SequenceNode {
		return fmt.Errorf("%s:%d: want a list", name, doc.Line)
	}
	for i, item := range doc.Content[0].Content {
		var buf bytes.Buffer
		yaml.NewEncoder(&buf).Encode(item)
		dec := yaml.NewDecoder(&buf)
		dec.KnownFields(true)
		var v T
		if err := dec.Decode(&v); err != nil {
			return fmt.Errorf("%s:%d: [%d]: %s", name, item.Line, i, yamlMessage(err))
		}
		setLine(&v, item.Line)
		*out = append(*out, v)
	}
	return nil
}

func setLine(v any, line int) {
	switch x := v.(type) {
	case *Problem:
		x.Line = line
	case *Team:
		x.Line = line
	case *Group:
		x.Line = line
	case *Organization:
		x.Line = line
	case *Account:
		x.Line = line
	case *DeclaredAward:
		x.Line = line
	}
}

// validate checks the lists against each other: ids unique and well
// formed, every reference to an entry that exists.
func (c *Contest) validate(files map[string]string) error {
	var errs []string
	bad := func(file string, line, i int, format string, args ...any) {
		errs = append(errs, fmt.Sprintf("%s:%d: [%d]: %s", files[file], line, i, fmt.Sprintf(format, args...)))
	}
	ids := func(file string, n int, get func(int) (string, int)) map[string]bool {
		seen := map[string]bool{}
		for i := 0; i < n; i++ {
			id, line := get(i)
			switch {
			case !ValidID(id):
				bad(file, line, i, "id: want letters, digits, '_', '.' or '-' (at most 36), got %q", id)
			case seen[id]:
				bad(file, line, i, "id: %q appears twice", id)
			}
			seen[id] = true
		}
		return seen
	}
	ids("problems", len(c.Problems), func(i int) (string, int) { return c.Problems[i].ID, c.Problems[i].Line })
	groups := ids("groups", len(c.Groups), func(i int) (string, int) { return c.Groups[i].ID, c.Groups[i].Line })
	orgs := ids("organizations", len(c.Organizations), func(i int) (string, int) { return c.Organizations[i].ID, c.Organizations[i].Line })
	teams := ids("teams", len(c.Teams), func(i int) (string, int) { return c.Teams[i].ID, c.Teams[i].Line })
	ids("accounts", len(c.Accounts), func(i int) (string, int) { return c.Accounts[i].ID, c.Accounts[i].Line })
	labels := map[string]bool{}
	for i := range c.Problems {
		p := &c.Problems[i]
		if p.Label == "" {
			bad("problems", p.Line, i, "label: required (A, B, ...)")
		} else if labels[p.Label] {
			bad("problems", p.Line, i, "label: %q is the label of two problems", p.Label)
		}
		labels[p.Label] = true
		if p.Ordinal == 0 {
			p.Ordinal = i + 1
		}
		if p.RGB != "" && !rgbRE.MatchString(p.RGB) {
			bad("problems", p.Line, i, "rgb: want #rrggbb or #rgb, got %q", p.RGB)
		}
	}
	for i := range c.Teams {
		t := &c.Teams[i]
		if t.Name == "" {
			t.Name = t.ID
		}
		if t.Label == "" {
			t.Label = t.ID
		}
		if t.OrganizationID != nil && !orgs[*t.OrganizationID] {
			bad("teams", t.Line, i, "organization_id: no organization %q in organizations.json", *t.OrganizationID)
		}
		for _, g := range t.GroupIDs {
			if !groups[g] {
				bad("teams", t.Line, i, "group_ids: no group %q in groups.json", g)
			}
		}
		if t.GroupIDs == nil {
			t.GroupIDs = []string{}
		}
	}
	users := map[string]bool{}
	for i := range c.Accounts {
		a := &c.Accounts[i]
		if a.Username == "" {
			a.Username = a.ID
		}
		switch {
		case !userRE.MatchString(a.Username):
			bad("accounts", a.Line, i, "username: want letters, digits, '.', '_' or '-', got %q", a.Username)
		case users[a.Username]:
			bad("accounts", a.Line, i, "username: %q appears twice", a.Username)
		case a.Type != AccountTeam && a.Type != AccountJudge && a.Type != AccountAdmin:
			bad("accounts", a.Line, i, "type: want team, judge or admin, got %q", a.Type)
		case a.Type == AccountTeam && (a.TeamID == nil || !teams[*a.TeamID]):
			bad("accounts", a.Line, i, "team_id: a team account names a team of teams.json")
		case len(a.Password) < MinPassword:
			bad("accounts", a.Line, i, "password: want at least %d characters (it is the account's token)", MinPassword)
		}
		users[a.Username] = true
	}
	seen := map[string]bool{}
	for i, a := range c.Declared {
		switch {
		case !ValidID(a.ID):
			bad("awards", a.Line, i, "id: want letters, digits, '_', '.' or '-' (at most 36), got %q", a.ID)
		case seen[a.ID]:
			bad("awards", a.Line, i, "id: %q appears twice", a.ID)
		case a.Citation == "":
			bad("awards", a.Line, i, "citation: required")
		case c.computed(a.ID) && a.TeamIDs != nil:
			bad("awards", a.Line, i, "team_ids: the scoreboard gives %s; leave team_ids out (null) and set its citation only", a.ID)
		case !c.computed(a.ID) && a.TeamIDs == nil:
			bad("awards", a.Line, i, "team_ids: required for an award of the jury's own (the board gives winner, gold-medal, silver-medal, bronze-medal, first-to-solve-<problem>, group-winner-<group>)")
		}
		seen[a.ID] = true
		if a.TeamIDs != nil {
			for _, t := range *a.TeamIDs {
				if !teams[t] {
					bad("awards", a.Line, i, "team_ids: no team %q in teams.json", t)
				}
			}
		}
	}
	if len(errs) > 0 {
		sort.Strings(errs)
		return errors.New(strings.Join(errs, "\n"))
	}
	return nil
}

var (
	rgbRE  = regexp.MustCompile(`^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$`)
	userRE = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)
)

// Problem is the contest's problem id; nil when it has none.
func (c *Contest) Problem(id string) *Problem {
	for i := range c.Problems {
		if c.Problems[i].ID == id {
			return &c.Problems[i]
		}
	}
	return nil
}

// Team is the team id; nil when there is none.
func (c *Contest) Team(id string) *Team {
	for i := range c.Teams {
		if c.Teams[i].ID == id {
			return &c.Teams[i]
		}
	}
	return nil
}

// TeamOf is the team a user (an account's username, or a token's name)
// submits for: its account's team, else the team of that id; "" for
// none (the jury).
func (c *Contest) TeamOf(user string) string {
	for _, a := range c.Accounts {
		if a.Username == user {
			if a.Type == AccountTeam && a.TeamID != nil {
				return *a.TeamID
			}
			return ""
		}
	}
	if c.Team(user) != nil {
		return user
	}
	return ""
}

// yamlMessage is a decoding error's message without the lines of the
// re-encoded node it was decoded from (the caller names the line).
func yamlMessage(err error) string {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs := make([]string, len(te.Errors))
		for i, e := range te.Errors {
			msgs[i] = lineRE.ReplaceAllString(e, "")
		}
		return strings.Join(msgs, "; ")
	}
	return lineRE.ReplaceAllString(strings.TrimPrefix(err.Error(), "yaml: "), "")
}

var lineRE = regexp.MustCompile(`line [0-9]+: `)
