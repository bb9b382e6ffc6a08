package service

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"github.com/optjudge/optjudge/judge/service/store"
	"github.com/optjudge/optjudge/verdict"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/optjudge/optjudge/judge/contest"
)

// The contest on the service (ServerConfig.Contest): its clock gates the
// problems (none shown to contestants before the start) and the
// submissions (none taken after the end), its scoreboard ranks the
// teams, and the ICPC Contest API (contest_api.go), its event feed
// (contest_feed.go), the clarifications (contest_clar.go) and the
// contest's pages (contest_pages.go) show it. What it keeps of its own,
// the admin's thaw and finalization and the clarifications, is in the
// bucket judge-contest:
//
//	kv judge-contest   progress -> contest.Progress
//	                   clar.<id> -> Clarification
//
// A team is a user whose account (or whose name) is a team of the
// contest; the jury are the admins.

// bucketContest is the contest's bucket.
const bucketContest = "judge-contest"

// contestLayer is the server's contest.
type contestLayer struct {
	s     *Server
	c     *contest.Contest
	clock contest.Clock
	kv    jetstream.KeyValue

	mu       sync.Mutex
	progress contest.Progress
	clars    map[string]*Clarification
	ready    chan struct{} // closed once the bucket's values are read

	feed *feed
}

// newContestLayer opens the contest's bucket and follows it; nil without
// a contest.
func newContestLayer(s *Server) *contestLayer {
	c := s.cfg.Contest
	if c == nil {
		return nil
	}
	l := &contestLayer{s: s, c: c, clock: s.cfg.Clock, clars: map[string]*Clarification{}, ready: make(chan struct{})}
	if l.clock == nil {
		l.clock = contest.SystemClock{}
	}
	l.feed = newFeed(l)
	ctx, cancel := context.WithTimeout(s.ctx, time.Minute)
	defer cancel()
	kv, err := s.cfg.Store.JS.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: bucketContest,
		Storage: jetstream.FileStorage, MaxBytes: int64(store.DefaultLimits.Small)})
	if err != nil {
		s.log.Printf("contest: bucket %s: %v (clarifications and the thaw answer 503)", bucketContest, err)
		close(l.ready)
		return l
	}
	l.kv = kv
	s.goRun(func() { l.follow(s.ctx) })
	s.goRun(func() { l.feed.run(s.ctx) })
	if mc, ok := l.clock.(interface{ OnChange(func()) }); ok {
		mc.OnChange(l.feed.poke)
	}
	t := time.NewTimer(viewReady)
	defer t.Stop()
	select {
	case <-l.ready:
	case <-t.C:
		s.log.Printf("contest: bucket %s not read after %v", bucketContest, viewReady)
	}
	return l
}

// follow keeps the progress and the clarifications current.
func (l *contestLayer) follow(ctx context.Context) {
	for ctx.Err() == nil {
		w, err := l.kv.WatchAll(ctx)
		if err != nil {
			sleep(ctx, time.Second)
			continue
		}
		for e := range w.Updates() {
			if e == nil {
				select {
				case <-l.ready:
				default:
					close(l.ready)
				}
				continue
			}
			l.apply(e)
			l.feed.poke()
		}
		w.Stop()
		sleep(ctx, time.Second)
	}
}

func (l *contestLayer) apply(e jetstream.KeyValueEntry) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch key := e.Key(); {
	case key == "progress":
		var p contest.Progress
		if e.Operation() == jetstream.KeyValuePut && json.Unmarshal(e.Value(), &p) == nil {
			l.progress = p
		}
	case strings.HasPrefix(key, "clar."):
		id := strings.TrimPrefix(key, "clar.")
		var c Clarification
		if e.Operation() != jetstream.KeyValuePut || json.Unmarshal(e.Value(), &c) != nil {
			delete(l.clars, id)
			return
		}
		l.clars[id] = &c
	}
}

// now is the contest's time.
func (l *contestLayer) now() time.Time { return l.clock.Now() }

// state is the contest's state now.
func (l *contestLayer) state() (contest.State, contest.Progress) {
	l.mu.Lock()
	p := l.progress
	l.mu.Unlock()
	return l.c.StateAt(l.now(), p), p
}

// teamOf is the team u submits for; "" for the jury and for users of no
// team.
func (l *contestLayer) teamOf(u *User) string {
	if u == nil || u.Admin() {
		return ""
	}
	return l.c.TeamOf(u.Name)
}

// inContest says whether a problem is one of the contest's.
func (l *contestLayer) inContest(name string) bool { return l.c.Problem(name) != nil }

// Hooks of the problem set, the problem pages and the submissions: all
// nil-safe, so that a server without a contest behaves as before.

// problemHidden is why user u may not see problem name now: before the
// start, no problem of the contest is shown to anyone but the jury; a
// problem outside the contest is not shown at all (but with
// DemoProblems).
func (s *Server) problemHidden(ctx context.Context, name string) error {
	l := s.contest
	if l == nil {
		return nil
	}
	u := userFrom(ctx)
	switch {
	case u != nil && u.Admin():
		return nil
	case !l.inContest(name):
		if s.cfg.DemoProblems {
			return nil
		}
		return errorf(http.StatusNotFound, "unknown problem %q", name)
	case !l.c.Started(l.now()):
		return errorf(http.StatusNotFound, "unknown problem %q (the contest has not started)", name)
	}
	return nil
}

// contestProblems keeps of the problem set what the user may see now.
func (s *Server) contestProblems(ctx context.Context, set []ProblemSummary) []ProblemSummary {
	if s.contest == nil {
		return set
	}
	out := set[:0:0]
	for _, p := range set {
		if s.problemHidden(ctx, p.Name) == nil {
			out = append(out, p)
		}
	}
	return out
}

// contestTakes says whether u may submit to problem name now: the
// contest's problems only while it runs, and from a team or the jury.
func (s *Server) contestTakes(ctx context.Context, u *User, name string) error {
	l := s.contest
	if l == nil {
		return nil
	}
	if err := s.problemHidden(context.WithValue(ctx, userKey{}, u), name); err != nil {
		return err
	}
	now := l.now()
	switch {
	case u.Admin():
		return nil
	case !l.inContest(name):
		return nil // a demo problem, outside the contest
	case !l.c.Running(now):
		return errorf(http.StatusForbidden, "the contest is over: no submission is taken after %s", contest.FormatTime(l.c.End()))
	case l.teamOf(u) == "":
		return errorf(http.StatusForbidden, "%s is not a team of the contest", u.Name)
	}
	return nil
}

// ContestTokens are the users of a contest's accounts: a team account is
// a contestant, a judge or admin account an admin; the password is the
// token.
func ContestTokens(c *contest.Contest) []Token {
	var out []Token
	for _, a := range c.Accounts {
		role := RoleContestant
		if a.Type != contest.AccountTeam {
			role = RoleAdmin
		}
		out = append(out, Token{Name: a.Username, Token: a.Password, Role: role})
	}
	return out
}

// TeamsFromTokens gives a contest without teams.json a team for each
// contestant of the tokens file, named after it.
func TeamsFromTokens(c *contest.Contest, tokens []Token) {
	if len(c.Teams) > 0 {
		return
	}
	for _, t := range tokens {
		if t.Role == RoleContestant && contest.ValidID(t.Name) {
			c.Teams = append(c.Teams, contest.Team{ID: t.Name, Name: t.Name, Label: t.Name, GroupIDs: []string{}})
		}
	}
}

// clicsUser is who asks the Contest API: the bearer token, HTTP basic
// authentication (the user's name and token as the password), or the
// pages' cookie on a read; nil for the public. Wrong credentials are 401.
func (s *Server) clicsUser(r *http.Request) (*User, error) {
	if s.cfg.Tokens == nil {
		return LocalAdmin, nil
	}
	h := r.Header.Get("Authorization")
	if user, pass, ok := r.BasicAuth(); ok {
		u := s.lookupToken(pass)
		if u == nil || u.Name != user {
			return nil, errorf(http.StatusUnauthorized, "unknown user or password")
		}
		return u, nil
	}
	if h != "" {
		tok, ok := strings.CutPrefix(h, "Bearer ")
		if u := s.lookupToken(tok); ok && u != nil {
			return u, nil
		}
		return nil, errorf(http.StatusUnauthorized, "unknown token")
	}
	if tok := cookieToken(r); tok != "" && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		if u := s.lookupToken(tok); u != nil {
			return u, nil
		}
	}
	return nil, nil
}

// basicHeader is an Authorization header for HTTP basic authentication.
func basicHeader(user, pass string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pass))
}

// setProgress changes what an admin did, in the bucket.
func (l *contestLayer) setProgress(ctx context.Context, f func(*contest.Progress) error) error {
	if l.kv == nil {
		return errorf(http.StatusServiceUnavailable, "the contest's bucket is not open")
	}
	for {
		var p contest.Progress
		rev, err := store.GetJSON(ctx, l.kv, "progress", &p)
		if err != nil && !errors.Is(err, jetstream.ErrKeyNotFound) {
			return err
		}
		if err := f(&p); err != nil {
			return err
		}
		b, _ := json.Marshal(p)
		if rev == 0 {
			_, err = l.kv.Create(ctx, "progress", b)
		} else {
			_, err = l.kv.Update(ctx, "progress", b, rev)
		}
		if err == nil {
			l.mu.Lock()
			l.progress = p
			l.mu.Unlock()
			l.feed.poke()
			return nil
		}
		if !store.IsWrongRevision(err) && !errors.Is(err, jetstream.ErrKeyExists) {
			return err
		}
	}
}

// thaw unfreezes the board, an admin's act after the end.
func (l *contestLayer) thaw(ctx context.Context) error {
	now := l.now()
	if l.c.FreezeAt().IsZero() {
		return errorf(http.StatusForbidden, "the board of this contest never freezes")
	}
	if now.Before(l.c.End()) {
		return errorf(http.StatusForbidden, "the board is thawed after the contest ends (%s)", contest.FormatTime(l.c.End()))
	}
	return l.setProgress(ctx, func(p *contest.Progress) error {
		if !p.Thawed.IsZero() {
			return errorf(http.StatusForbidden, "the board was thawed at %s", contest.FormatTime(p.Thawed))
		}
		p.Thawed = now.UTC()
		return nil
	})
}

// finalize marks the results final, after the end.
func (l *contestLayer) finalize(ctx context.Context) error {
	now := l.now()
	if now.Before(l.c.End()) {
		return errorf(http.StatusForbidden, "the results are finalized after the contest ends (%s)", contest.FormatTime(l.c.End()))
	}
	return l.setProgress(ctx, func(p *contest.Progress) error {
		if p.Finalized.IsZero() {
			p.Finalized = now.UTC()
		}
		return nil
	})
}

// clicsVerdict is a verdict as the Contest API's judgement type id: the
// same name, but RTE for RE; JE for a verdict not decided.
func clicsVerdict(v verdict.Verdict) string {
	switch v {
	case verdict.RE:
		return "RTE"
	case verdict.AC, verdict.WA, verdict.TLE, verdict.MLE, verdict.OLE, verdict.CE, verdict.JE:
		return v.String()
	}
	return "JE"
}

// contestTime is t as a time of the contest.
func (l *contestLayer) contestTime(t time.Time) time.Duration { return t.Sub(l.c.Start) }

// allowed says whether u (of team, "" for none) may see a fact of
// audience who.
func allowed(u *User, team, who string) bool {
	admin := u != nil && u.Admin()
	switch {
	case who == "":
		return true
	case who == whoAdmin:
		return admin
	case who == whoPublic:
		return !admin
	case strings.HasPrefix(who, "except:"):
		return !admin && team != strings.TrimPrefix(who, "except:")
	case admin:
		return true
	}
	return team != "" && slices.Contains(strings.Split(strings.TrimPrefix(who, "team:"), ","), team)
}

// Audiences of a fact: the jury alone, everyone but the jury.
const (
	whoAdmin  = "admin"
	whoPublic = "public"
)

func whoTeam(team string) string { return "team:" + team }

// now is the server's time: the contest's clock, else the system's.
func (s *Server) now() time.Time {
	if s.contest != nil {
		return s.contest.now()
	}
	return time.Now()
}

func asAPIError(err error, ae **apiError) bool { return errors.As(err, ae) }
