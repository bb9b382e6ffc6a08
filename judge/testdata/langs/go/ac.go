// The Clocks: moves 1-3 are tried in all 64 ways; each later move is then
// forced by a dial only it can still turn; the fewest moves win.
package main

import (
	"fmt"
	"strings"
)

var cover = []string{"110110000", "111000000", "011011000", "100100100", "010111010",
	"001001001", "000110110", "000000111", "000011011"}
var forced = [][2]int{{3, 0}, {4, 1}, {5, 2}, {6, 3}, {8, 5}, {7, 6}}

func main() {
	var dial [9]int
	for i := range dial {
		fmt.Scan(&dial[i])
	}
	var best []int
	for k := 0; k < 64; k++ {
		cnt := []int{k % 4, k / 4 % 4, k / 16, 0, 0, 0, 0, 0, 0}
		for _, f := range forced {
			t := dial[f[1]]
			for m := 0; m < 9; m++ {
				if m != f[0] && cover[m][f[1]] == '1' {
					t += cnt[m]
				}
			}
			cnt[f[0]] = (4 - t%4) % 4
		}
		ok, n := true, 0
		for d := 0; d < 9; d++ {
			t := dial[d]
			for m := 0; m < 9; m++ {
				if cover[m][d] == '1' {
					t += cnt[m]
				}
			}
			ok = ok && t%4 == 0
			n += cnt[d]
		}
		if ok && (best == nil || n < sum(best)) {
			best = cnt
		}
	}
	var out []string
	for m, c := range best {
		for ; c > 0; c-- {
			out = append(out, fmt.Sprint(m+1))
		}
	}
	fmt.Println(strings.Join(out, " "))
}

func sum(a []int) (s int) {
	for _, v := range a {
		s += v
	}
	return s
}
