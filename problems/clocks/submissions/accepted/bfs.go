// Breadth-first search over the 4^9 dial positions from the input to all-zero; the path found is a shortest one (the answer is unique), printed sorted -> AC.
//go:build ignore

package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
)

var moves = [9]string{"ABDE", "ABC", "BCEF", "ADG", "BDEFH", "CFI", "DEGH", "GHI", "EFHI"}

// A position is packed two bits per dial, dial A in the lowest bits.
func apply(state, m int) int {
	for _, ch := range moves[m] {
		shift := 2 * int(ch-'A')
		dial := (state >> shift) & 3
		state = state&^(3<<shift) | ((dial+1)&3)<<shift
	}
	return state
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Split(bufio.ScanWords)
	start := 0
	for i := 0; i < 9 && in.Scan(); i++ {
		v, _ := strconv.Atoi(in.Text())
		start |= (v & 3) << (2 * i)
	}

	const total = 1 << 18
	parent := make([]int32, total)
	via := make([]int8, total)
	for i := range parent {
		parent[i] = -1
	}
	parent[start] = int32(start)
	queue := []int{start}
	for head := 0; head < len(queue) && parent[0] < 0; head++ {
		s := queue[head]
		for m := 0; m < 9; m++ {
			t := apply(s, m)
			if parent[t] < 0 {
				parent[t] = int32(s)
				via[t] = int8(m)
				queue = append(queue, t)
			}
		}
	}

	var path []int
	for s := 0; s != start; s = int(parent[s]) {
		path = append(path, int(via[s])+1)
	}
	sort.Ints(path)
	words := make([]string, len(path))
	for i, m := range path {
		words[i] = strconv.Itoa(m)
	}
	fmt.Println(strings.Join(words, " "))
}
