package verdict

// The first-rejected rule: of results in order (a native problem's tests,
// each of its groups', a Kattis group's children under first_error), the
// first that is not AC decides the verdict of them all. It is a native
// problem's grading, the default of lazy grading's pruning (every result
// after a rejected one is unneeded) and the failure the judging service
// shows; this file is its one spelling.

// FirstRejected is the index of the first element of s, in order, whose
// verdict (verdictOf) is not AC: the one that decides by the
// first-rejected rule; -1 when there is none.
func FirstRejected[S ~[]E, E any](s S, verdictOf func(E) Verdict) int {
	for i, e := range s {
		if verdictOf(e) != AC {
			return i
		}
	}
	return -1
}

// First is the verdict of s by the first-rejected rule: that of its first
// rejected element (FirstRejected); AC when every one is accepted; Unknown
// when s is empty, since nothing was judged.
func First[S ~[]E, E any](s S, verdictOf func(E) Verdict) Verdict {
	if i := FirstRejected(s, verdictOf); i >= 0 {
		return verdictOf(s[i])
	}
	if len(s) == 0 {
		return Unknown
	}
	return AC
}
