package contest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The spec's two kinds of time: TIME, an absolute timestamp
// (2014-06-25T10:00:00.000+01:00), and RELTIME, a duration written
// (-)h:mm:ss(.uuu).

// FormatTime writes t as a TIME, in UTC with milliseconds: the spec asks
// one form for every timestamp.
func FormatTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

// timeLayouts are the forms ParseTime takes: the spec's, with or without
// seconds' fractions and with a zone as Z, +hh or +hh:mm.
var timeLayouts = []string{
	"2006-01-02T15:04:05Z07:00", "2006-01-02T15:04:05.999999999Z07:00",
	"2006-01-02T15:04:05Z07", "2006-01-02T15:04:05.999999999Z07",
	"2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05Z07",
}

// ParseTime reads a TIME.
func ParseTime(s string) (time.Time, error) {
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q: want a time such as 2026-06-25T10:00:00+01:00", s)
}

// FormatRel writes d as a RELTIME with milliseconds: 1:05:00.000,
// -0:15:32.457.
func FormatRel(d time.Duration) string {
	sign := ""
	if d < 0 {
		sign, d = "-", -d
	}
	d = d.Truncate(time.Millisecond)
	h := d / time.Hour
	m := (d % time.Hour) / time.Minute
	s := (d % time.Minute) / time.Second
	ms := (d % time.Second) / time.Millisecond
	return fmt.Sprintf("%s%d:%02d:%02d.%03d", sign, h, m, s, ms)
}

var relRE = regexp.MustCompile(`^(-)?([0-9]+):([0-5][0-9]):([0-5][0-9])(\.[0-9]{1,9})?$`)

// ParseRel reads a RELTIME: (-)h:mm:ss(.uuu).
func ParseRel(s string) (time.Duration, error) {
	m := relRE.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return 0, fmt.Errorf("%q: want a duration written h:mm:ss, such as 5:00:00", s)
	}
	h, _ := strconv.ParseInt(m[2], 10, 64)
	mi, _ := strconv.ParseInt(m[3], 10, 64)
	se, _ := strconv.ParseInt(m[4], 10, 64)
	d := time.Duration(h)*time.Hour + time.Duration(mi)*time.Minute + time.Duration(se)*time.Second
	if m[5] != "" {
		frac := (m[5][1:] + "000000000")[:9]
		ns, _ := strconv.ParseInt(frac, 10, 64)
		d += time.Duration(ns)
	}
	if m[1] == "-" {
		d = -d
	}
	return d, nil
}
