package engine

import (
	"encoding/binary"
	"slices"
)

// matcher finds the variants of Guarded rules whose guards hold in a
// state. Each variant is filed under one of its conditions "cell c holds
// v", its anchor (see Guarded); the variants of an anchor are compiled
// into a decision graph that tests one cell a node and branches on its
// value, so that the conditions the variants share (a piece's cells, the
// way ahead of it) are tested once, and a failed one rules out at once
// every variant that needs it: the discrimination networks of production
// systems (Forgy's Rete, 1982) and the decision trees of pattern-match
// compilers (Maranget, "Compiling pattern matching to good decision trees",
// 2008), with the equal subgraphs shared. A node emits the variants all of
// whose one-cell conditions hold on the way to it, after checking what no
// branching says (a cell against another cell, a piece's row and column
// together). Where a graph would grow past its bound (conditions that
// share no cells multiply its paths), the anchor's variants are checked
// one by one instead, at a node that emits them all.
type matcher struct {
	// roots[cell*stride+value] is the node the graph of that anchor
	// starts at, -1 for none (stride: one more than the greatest value of
	// an anchor, so that the roots of a state's cells are few cache
	// lines); free is the graph of the variants without an anchor.
	roots  []int32
	stride int
	free   int32
	// nodes are the graphs' nodes, each test of a cell against one value
	// (a node with more edges is a chain of them), laid out so that a
	// walk reads on where it can (see assemble).
	nodes []pnode
	emits []memit
	resid []Cond
}

// pnode is a node of a graph: it emits emits[emitAt:emitAt+emits], then
// goes on to yes where cell holds value, to no where not (-1: the walk
// ends).
type pnode struct {
	cell    uint16
	value   uint8
	emits   uint8
	yes, no int32
	emitAt  int32
}

// maxEmits is the most variants a node emits: more go on in nodes that
// test nothing.
const maxEmits = 255

// mnode is a node of a graph being built: it emits its emits, then tests
// its cell (-1: none) and goes on to the child of the edge of the cell's
// value, or to dflt where no edge has it.
type mnode struct {
	cell  int
	emits []memit
	edges []medge
	dflt  int32
}

type medge struct {
	value uint8
	child int32
}

// memit is a variant that holds if the conditions resid[from:to] do.
type memit struct {
	variant  int32
	from, to int32
}

// mitem is a variant on its way down a graph: the one-cell conditions
// not yet tested, by their index in its plain conditions.
type mitem struct {
	variant int32
	left    uint64
}

// graphBound bounds the nodes of one anchor's graph, as a multiple of
// its variants.
var graphBound = 16

// mbuild is the state of the compilation of the graphs.
type mbuild struct {
	m     *matcher
	nodes []mnode
	plain [][]Cond // each variant's one-cell conditions
	other [][]Cond // and the rest
	memo  map[string]int32
	count int // the nodes of the graph being built
	limit int
	full  bool // past limit
}

// newMatcher compiles the variants filed under each anchor (filed, as
// Guarded.index files them) and those under none.
func newMatcher(vs []Variant, anchors int, filed func(a int) []int32, free []int32) *matcher {
	m := &matcher{stride: 1}
	for a := range anchors {
		if len(filed(a)) > 0 {
			m.stride = max(m.stride, a&0xff+1)
		}
	}
	m.roots = make([]int32, (anchors>>8+1)*m.stride)
	for i := range m.roots {
		m.roots[i] = -1
	}
	b := &mbuild{m: m}
	for _, v := range vs {
		var plain, other []Cond
		for _, c := range v.When {
			if c.Other < 0 && c.Also == nil {
				plain = append(plain, c)
			} else {
				other = append(other, c)
			}
		}
		b.plain, b.other = append(b.plain, plain), append(b.other, other)
	}
	roots := make([]int32, anchors)
	for a := range anchors {
		roots[a] = b.graph(filed(a), a>>8, uint8(a))
	}
	freeRoot := b.graph(free, -1, 0)
	at := make([]int32, len(b.nodes))
	for i := range at {
		at[i] = -1
	}
	for a, r := range roots {
		if r >= 0 {
			m.roots[(a>>8)*m.stride+(a&0xff)] = b.assemble(r, at)
		}
	}
	m.free = b.assemble(freeRoot, at)
	return m
}

// graph compiles the graph of the variants ids, whose anchor cell (-1 for
// none) is known to hold value.
func (b *mbuild) graph(ids []int32, cell int, value uint8) int32 {
	if len(ids) == 0 {
		return -1
	}
	var items []mitem
	linear := false
	for _, i := range ids {
		plain := b.plain[i]
		if len(plain) > 64 {
			linear = true
			break
		}
		it := mitem{variant: i}
		holds := true
		for k, c := range plain {
			switch {
			case c.Cell != cell:
				it.left |= 1 << k
			case (c.Value == value) == c.Not:
				holds = false
			}
		}
		if holds {
			items = append(items, it)
		}
	}
	b.memo, b.count, b.limit, b.full = map[string]int32{}, 0, graphBound*(len(ids)+4), false
	nodes, resid := len(b.nodes), len(b.m.resid)
	var root int32
	if !linear {
		root = b.node(items)
	}
	if linear || b.full {
		b.nodes, b.m.resid = b.nodes[:nodes], b.m.resid[:resid]
		root = b.linear(ids)
	}
	return root
}

// linear is a chain of nodes that emit every variant of ids, all its
// conditions checked, maxEmits a node.
func (b *mbuild) linear(ids []int32) int32 {
	next := int32(-1)
	for len(ids) > 0 {
		k := max(0, len(ids)-maxEmits)
		n := mnode{cell: -1, dflt: next}
		for _, i := range ids[k:] {
			from := len(b.m.resid)
			b.m.resid = append(append(b.m.resid, b.plain[i]...), b.other[i]...)
			n.emits = append(n.emits, memit{i, int32(from), int32(len(b.m.resid))})
		}
		b.nodes = append(b.nodes, n)
		next, ids = int32(len(b.nodes)-1), ids[:k]
	}
	return next
}

// node compiles the graph of items, or returns the equal one made before.
func (b *mbuild) node(items []mitem) int32 {
	if len(items) == 0 || b.full {
		return -1
	}
	key := make([]byte, 0, 12*len(items))
	for _, it := range items {
		key = binary.LittleEndian.AppendUint32(key, uint32(it.variant))
		key = binary.LittleEndian.AppendUint64(key, it.left)
	}
	if n, ok := b.memo[string(key)]; ok {
		return n
	}
	if b.count++; b.count > b.limit {
		b.full = true
		return -1
	}
	var rest []mitem
	n := mnode{cell: -1, dflt: -1}
	for _, it := range items {
		if it.left != 0 {
			rest = append(rest, it)
			continue
		}
		from := len(b.m.resid)
		b.m.resid = append(b.m.resid, b.other[it.variant]...)
		n.emits = append(n.emits, memit{it.variant, int32(from), int32(len(b.m.resid))})
	}
	if len(n.emits) > maxEmits {
		b.full = true
		return -1
	}
	at := len(b.nodes)
	b.nodes = append(b.nodes, n)
	if len(rest) > 0 {
		b.branch(at, rest)
	}
	b.memo[string(key)] = int32(at)
	return int32(at)
}

// branch makes node at test the cell most of rest's conditions are on,
// with an edge for each value they name.
func (b *mbuild) branch(at int, rest []mitem) {
	count := map[int]int{}
	for _, it := range rest {
		for k, c := range b.plain[it.variant] {
			if it.left&(1<<k) != 0 {
				count[c.Cell]++
			}
		}
	}
	cell, best := -1, 0
	for c, n := range count {
		if n > best || n == best && c < cell {
			cell, best = c, n
		}
	}
	var values []uint8
	for _, it := range rest {
		for k, c := range b.plain[it.variant] {
			if it.left&(1<<k) != 0 && c.Cell == cell && !slices.Contains(values, c.Value) {
				values = append(values, c.Value)
			}
		}
	}
	slices.Sort(values)
	dflt := b.node(b.given(rest, cell, -1))
	var edges []medge
	for _, v := range values {
		if child := b.node(b.given(rest, cell, int(v))); child != dflt {
			edges = append(edges, medge{v, child})
		}
	}
	n := &b.nodes[at]
	n.cell, n.dflt, n.edges = cell, dflt, edges
}

// given is what is left of items where cell holds value (-1: a value no
// condition names): the items whose conditions on cell hold, without
// them.
func (b *mbuild) given(items []mitem, cell, value int) []mitem {
	var out []mitem
	for _, it := range items {
		holds := true
		for k, c := range b.plain[it.variant] {
			if it.left&(1<<k) == 0 || c.Cell != cell {
				continue
			}
			it.left &^= 1 << k
			if (int(c.Value) == value) == c.Not {
				holds = false
			}
		}
		if holds {
			out = append(out, it)
		}
	}
	return out
}

// assemble lays out the graph from node n in m.nodes, each node's
// children after it, and returns where n is; at records where each node
// went. A node of k edges is a chain of k tests of its cell, the last one
// going to its default child where its value is not the cell's.
func (b *mbuild) assemble(n int32, at []int32) int32 {
	if n < 0 {
		return -1
	}
	if at[n] >= 0 {
		return at[n]
	}
	nd := b.nodes[n]
	first := int32(len(b.m.nodes))
	at[n] = first
	chain := max(1, len(nd.edges))
	for range chain {
		b.m.nodes = append(b.m.nodes, pnode{yes: -1, no: -1})
	}
	head := &b.m.nodes[first]
	head.emits, head.emitAt = uint8(len(nd.emits)), int32(len(b.m.emits))
	b.m.emits = append(b.m.emits, nd.emits...)
	dflt := b.assemble(nd.dflt, at)
	if len(nd.edges) == 0 {
		// no test: both ways lead on
		b.m.nodes[first].yes, b.m.nodes[first].no = dflt, dflt
		return first
	}
	for k, e := range nd.edges {
		child := b.assemble(e.child, at)
		p := &b.m.nodes[first+int32(k)]
		p.cell, p.value, p.yes, p.no = uint16(nd.cell), e.value, child, first+int32(k)+1
		if k == len(nd.edges)-1 {
			p.no = dflt
		}
	}
	return first
}

// match appends to found the variants of the graph from node n that hold
// in st.
func (m *matcher) match(n int32, st []uint8, found []int32) []int32 {
	for n >= 0 {
		nd := &m.nodes[n]
		if nd.emits > 0 {
			for _, e := range m.emits[nd.emitAt : nd.emitAt+int32(nd.emits)] {
				if e.from == e.to || allHold(m.resid[e.from:e.to], st) {
					found = append(found, e.variant)
				}
			}
		}
		if st[nd.cell] == nd.value {
			n = nd.yes
		} else {
			n = nd.no
		}
	}
	return found
}
