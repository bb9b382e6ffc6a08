package service

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"gopkg.in/yaml.v3"
)

// Roles.
const (
	RoleContestant = "contestant" // submits; reads and lists their own submissions
	RoleAdmin      = "admin"      // everything
)

// Token is one entry of the tokens file.
type Token struct {
	Name  string `yaml:"name"`
	Token string `yaml:"token"`
	Role  string `yaml:"role"`
}

// User is who made a request.
type User struct {
	Name string
	Role string
}

// Admin says whether u may do everything.
func (u *User) Admin() bool { return u.Role == RoleAdmin }

// LocalAdmin is the user of a server run without a tokens file.
var LocalAdmin = &User{Name: "local", Role: RoleAdmin}

// ParseTokens reads a tokens file:
//
//   - name: alice
//     token: 9c1f...   # at least 16 characters
//     role: contestant # or admin
//
// name is the user's name in submissions, [A-Za-z0-9._-], unique; tokens
// are unique too.
func ParseTokens(r io.Reader, file string) ([]Token, error) {
	dec := yaml.NewDecoder(r)
	dec.KnownFields(true)
	var ts []Token
	if err := dec.Decode(&ts); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: no tokens", file)
		}
		var te *yaml.TypeError
		if errors.As(err, &te) {
			return nil, fmt.Errorf("%s: want a list of {name, token, role}: %s", file, strings.Join(te.Errors, "; "))
		}
		return nil, fmt.Errorf("%s: %s", file, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	names, tokens := map[string]bool{}, map[string]bool{}
	for i, t := range ts {
		where := fmt.Sprintf("%s: [%d]", file, i)
		switch {
		case !userRE.MatchString(t.Name):
			return nil, fmt.Errorf("%s: name: want letters, digits, '.', '_' or '-', got %q", where, t.Name)
		case names[t.Name]:
			return nil, fmt.Errorf("%s: name: %q appears twice", where, t.Name)
		case len(t.Token) < 16:
			return nil, fmt.Errorf("%s (%s): token: want at least 16 characters", where, t.Name)
		case tokens[t.Token]:
			return nil, fmt.Errorf("%s (%s): token: the same as another's", where, t.Name)
		case t.Role != RoleContestant && t.Role != RoleAdmin:
			return nil, fmt.Errorf("%s (%s): role: want contestant or admin, got %q", where, t.Name, t.Role)
		}
		names[t.Name], tokens[t.Token] = true, true
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("%s: no tokens", file)
	}
	return ts, nil
}

// LoadTokens reads a tokens file from disk.
func LoadTokens(file string) ([]Token, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseTokens(f, file)
}

type userKey struct{}

func userFrom(ctx context.Context) *User {
	u, _ := ctx.Value(userKey{}).(*User)
	return u
}

// authenticate takes the user from the request once, into its context: a
// bearer token from the tokens file, or the local admin without one.
func (s *Server) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.Tokens == nil {
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), userKey{}, LocalAdmin)))
			return
		}
		tok, ok := requestToken(r)
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer realm="judge"`)
			writeError(w, errorf(http.StatusUnauthorized, "no bearer token: send Authorization: Bearer TOKEN"))
			return
		}
		u := s.lookupToken(tok)
		if u == nil {
			w.Header().Set("WWW-Authenticate", `Bearer realm="judge", error="invalid_token"`)
			writeError(w, errorf(http.StatusUnauthorized, "unknown token"))
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), userKey{}, u)))
	})
}

// sessionCookie holds the token of a user logged in on the pages,
// base64url-encoded (a token may hold bytes a cookie may not).
const sessionCookie = "judge_token"

// requestToken is the request's bearer token or, for a request that reads
// (GET, HEAD), the pages' session cookie: a page's scripts read the API
// with it (an EventSource sends no header). A request that changes
// something needs the header, so no other site's page can make one with
// the cookie.
func requestToken(r *http.Request) (string, bool) {
	if h := r.Header.Get("Authorization"); h != "" {
		tok, ok := strings.CutPrefix(h, "Bearer ")
		return tok, ok && tok != ""
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return "", false
	}
	tok := cookieToken(r)
	return tok, tok != ""
}

// lookupToken compares in constant time, every token every time.
func (s *Server) lookupToken(tok string) *User {
	var found *User
	for _, t := range s.cfg.Tokens {
		if subtle.ConstantTimeCompare([]byte(t.Token), []byte(tok)) == 1 {
			found = &User{Name: t.Name, Role: t.Role}
		}
	}
	return found
}

// admin wraps a handler only admins may call.
func admin(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !userFrom(r.Context()).Admin() {
			writeError(w, errorf(http.StatusForbidden, "only an admin may %s %s", r.Method, r.URL.Path))
			return
		}
		h(w, r)
	}
}
