// One BFS from the centre over "which 8 cells hold digit d" (C(24,8) = 735471 states) serves all digits; the answer is built letter by letter from the distance table; ~0.05 s -> AC.
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

var center = [8]int{6, 7, 8, 11, 12, 15, 16, 17}

// part[m][k][b] is the image under move m of byte k of a mask holding b.
var part [8][3][256]uint32

func move(m int, s uint32) uint32 {
	return part[m][0][s&255] | part[m][1][(s>>8)&255] | part[m][2][s>>16]
}

func buildTables() {
	for m, line := range lines {
		var srcOf [24]int // srcOf[dst]: the cell whose content lands on dst
		for c := range srcOf {
			srcOf[c] = c
		}
		for i := 0; i < 6; i++ {
			srcOf[line[i]] = line[i+1]
		}
		srcOf[line[6]] = line[0]
		for k := 0; k < 3; k++ {
			for b := 0; b < 256; b++ {
				var out uint32
				for dst, src := range srcOf {
					if src/8 == k && b>>(src%8)&1 == 1 {
						out |= 1 << dst
					}
				}
				part[m][k][b] = out
			}
		}
	}
}

func main() {
	buildTables()
	var goal uint32
	for _, c := range center {
		goal |= 1 << c
	}
	const unseen = 255
	dist := make([]uint8, 1<<24)
	for i := range dist {
		dist[i] = unseen
	}
	dist[goal] = 0
	queue := []uint32{goal}
	for head := 0; head < len(queue); head++ {
		s := queue[head]
		for m := 0; m < 8; m++ {
			if t := move(m, s); dist[t] == unseen {
				dist[t] = dist[s] + 1
				queue = append(queue, t)
			}
		}
	}

	sc := bufio.NewScanner(os.Stdin)
	sc.Split(bufio.ScanWords)
	next := func() (int, bool) {
		if !sc.Scan() {
			return 0, false
		}
		v, _ := strconv.Atoi(sc.Text())
		return v, true
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for {
		first, ok := next()
		if !ok || first == 0 {
			break
		}
		var board [24]int
		board[0] = first
		for i := 1; i < 24; i++ {
			board[i], _ = next()
		}
		var mask [4]uint32
		for c, d := range board {
			mask[d] |= 1 << c
		}
		best := unseen
		for d := 1; d <= 3; d++ {
			best = min(best, int(dist[mask[d]]))
		}
		if best == 0 {
			fmt.Fprintf(out, "No moves needed\n%d\n", board[center[0]])
			continue
		}
		var alive [4]bool
		for d := 1; d <= 3; d++ {
			alive[d] = int(dist[mask[d]]) == best
		}
		answer := make([]byte, 0, best)
		for left := best; left > 0; left-- {
			for m := 0; m < 8; m++ {
				any := false
				for d := 1; d <= 3; d++ {
					if alive[d] && int(dist[move(m, mask[d])]) == left-1 {
						any = true
					}
				}
				if !any {
					continue
				}
				answer = append(answer, byte('A'+m))
				for d := 1; d <= 3; d++ {
					if alive[d] {
						mask[d] = move(m, mask[d])
						alive[d] = int(dist[mask[d]]) == left-1
					}
				}
				break
			}
		}
		digit := 1
		for !alive[digit] {
			digit++
		}
		fmt.Fprintf(out, "%s\n%d\n", answer, digit)
	}
}
