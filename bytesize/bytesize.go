// Package bytesize holds the Size type used for memory and output limits, so
// that units live in a type rather than in variable names.
package bytesize

import (
	"fmt"
	"strconv"
	"strings"
)

// Size is a number of bytes.
type Size int64

const (
	B   Size = 1
	KiB      = 1024 * B
	MiB      = 1024 * KiB
	GiB      = 1024 * MiB
)

// Parse reads a size as the CLI flags take it: "256M", "256MiB", "1G", "64K",
// "512B", or a bare number meaning MiB (the unit of problem.yaml limits).
func Parse(s string) (Size, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, fmt.Errorf("empty size")
	}
	unit := MiB
	num := t
	lower := strings.ToLower(t)
	for _, u := range []struct {
		suffix string
		size   Size
	}{
		{"kib", KiB}, {"mib", MiB}, {"gib", GiB},
		{"kb", KiB}, {"mb", MiB}, {"gb", GiB},
		{"k", KiB}, {"m", MiB}, {"g", GiB}, {"b", B},
	} {
		if strings.HasSuffix(lower, u.suffix) {
			unit = u.size
			num = strings.TrimSpace(t[:len(t)-len(u.suffix)])
			break
		}
	}
	n, err := strconv.ParseFloat(num, 64)
	if err != nil || n < 0 || n != n {
		return 0, fmt.Errorf("invalid size %q (want e.g. 256M, 1G or a number of MiB)", s)
	}
	v := n * float64(unit)
	if v > float64(1<<62) {
		return 0, fmt.Errorf("size %q is too large", s)
	}
	return Size(v), nil
}

// String prints the size in the largest unit that divides it, e.g. "256MiB".
func (s Size) String() string {
	switch {
	case s != 0 && s%GiB == 0:
		return fmt.Sprintf("%dGiB", s/GiB)
	case s != 0 && s%MiB == 0:
		return fmt.Sprintf("%dMiB", s/MiB)
	case s != 0 && s%KiB == 0:
		return fmt.Sprintf("%dKiB", s/KiB)
	}
	return fmt.Sprintf("%dB", int64(s))
}

// KiB returns the size in whole kibibytes, rounded up.
func (s Size) KiB() int64 { return (int64(s) + 1023) / 1024 }
