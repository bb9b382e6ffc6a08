// IDA* that stores the moves in a fixed [12]byte array (assuming 12 moves always suffice): a 13-move board indexes path[12] and panics -> RTE.
//go:build ignore

package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
)

var lines = [8][7]int{
	{0, 2, 6, 11, 15, 20, 22}, {1, 3, 8, 12, 17, 21, 23},
	{10, 9, 8, 7, 6, 5, 4}, {19, 18, 17, 16, 15, 14, 13},
	{23, 21, 17, 12, 8, 3, 1}, {22, 20, 15, 11, 6, 2, 0},
	{13, 14, 15, 16, 17, 18, 19}, {4, 5, 6, 7, 8, 9, 10},
}

var inverse = [8]int{5, 4, 7, 6, 1, 0, 3, 2}
var center = [8]int{6, 7, 8, 11, 12, 15, 16, 17}

var board [24]int
var path [12]byte // no answer is longer than 12 moves (wrong: some need 13)

func apply(m int) {
	l := &lines[m]
	first := board[l[0]]
	for i := 0; i < 6; i++ {
		board[l[i]] = board[l[i+1]]
	}
	board[l[6]] = first
}

func heuristic() int {
	var cnt [4]int
	for _, c := range center {
		cnt[board[c]]++
	}
	return 8 - max(cnt[1], cnt[2], cnt[3])
}

func dfs(depth, bound, last int) bool {
	h := heuristic()
	if h == 0 {
		return true
	}
	if depth+h > bound {
		return false
	}
	for m := 0; m < 8; m++ {
		if last >= 0 && m == inverse[last] {
			continue
		}
		apply(m)
		path[depth] = byte('A' + m)
		ok := dfs(depth+1, bound, m)
		apply(inverse[m])
		if ok {
			return true
		}
	}
	return false
}

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Split(bufio.ScanWords)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for sc.Scan() {
		first, _ := strconv.Atoi(sc.Text())
		if first == 0 {
			break
		}
		board[0] = first
		for i := 1; i < 24 && sc.Scan(); i++ {
			board[i], _ = strconv.Atoi(sc.Text())
		}
		if heuristic() == 0 {
			fmt.Fprintf(out, "No moves needed\n%d\n", board[center[0]])
			continue
		}
		for bound := 1; ; bound++ {
			if dfs(0, bound, -1) {
				for _, c := range path[:bound] {
					apply(int(c - 'A'))
				}
				fmt.Fprintf(out, "%s\n%d\n", path[:bound], board[center[0]])
				break
			}
		}
	}
}
