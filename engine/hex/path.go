package hex

import (
	"container/heap"
	"errors"
	"fmt"
	"slices"
)

// ErrNegativeCost is wrapped by the error Reachable returns when a CostFunc
// reports a negative cost or the budget is negative.
var ErrNegativeCost = errors.New("negative cost")

// CostFunc reports what it costs to step from a hex to the adjacent hex to,
// and whether the step is allowed at all (ok == false blocks it). Costs are
// integers and must not be negative; count fractions in smaller units (for
// example half movement points, so that a pike hex costs 1 and a clear hex
// 2). A CostFunc is where terrain, hexsides, map bounds, enemy units and
// zones of control enter: the package knows nothing of them.
type CostFunc func(from, to Hex) (cost int, ok bool)

// Reach is the result of Reachable: every hex reachable from the start
// within the budget, its least cost, and one chosen cheapest path to it.
type Reach struct {
	start   Hex
	maxCost int
	// best holds the least (cost, steps) and predecessor per reached hex.
	// It is only read by key, never iterated.
	best  map[Hex]node
	order []Hex // hexes in the order they were settled
}

type node struct {
	cost, steps int
	prev        Hex
}

// Reachable finds every hex that can be reached from start by a sequence of
// steps between adjacent hexes whose total cost is at most maxCost (Dijkstra's
// algorithm). The start hex is always reached, at cost 0. Only hexes that
// can be printed on a map (Hex.Valid) are ever passed to step as the
// destination, so the search always ends; map bounds and anything else are
// step's business.
//
// With a cost of 1 for every allowed step it is a bounded breadth-first
// search: for example a GCACW command radius (GCACW 2.5g) is
// Reachable(leader, 3, f) where f returns (1, true) unless the entered hex
// holds an enemy unit or is in enemy ZOC without a friendly unit.
//
// Ties are broken deterministically. Among paths of least cost the one with
// fewest steps is chosen; among those, hexes are settled in column-major
// order and each hex keeps the first predecessor that reached it, with a
// settled hex's neighbours tried in direction order N, NE, SE, S, SW, NW.
// step is called at most once for each ordered pair of adjacent hexes.
//
// It returns an error wrapping ErrNegativeCost if maxCost or a step cost is
// negative.
func Reachable(start Hex, maxCost int, step CostFunc) (*Reach, error) {
	if maxCost < 0 {
		return nil, fmt.Errorf("reachable from %s: budget %d: %w", start, maxCost, ErrNegativeCost)
	}
	r := &Reach{start: start, maxCost: maxCost, best: map[Hex]node{start: {prev: start}}}
	done := map[Hex]bool{}
	pq := &queue{{hex: start}}
	for pq.Len() > 0 {
		it := heap.Pop(pq).(item)
		if done[it.hex] {
			continue // a stale entry: the hex was settled more cheaply
		}
		done[it.hex] = true
		r.order = append(r.order, it.hex)
		for _, to := range it.hex.Neighbors() {
			if done[to] || !to.Valid() {
				continue
			}
			c, ok := step(it.hex, to)
			if !ok {
				continue
			}
			if c < 0 {
				return nil, fmt.Errorf("reachable from %s: step %s to %s costs %d: %w", start, it.hex, to, c, ErrNegativeCost)
			}
			if c > maxCost-it.cost {
				continue // over budget (written so as not to overflow)
			}
			n := node{cost: it.cost + c, steps: it.steps + 1, prev: it.hex}
			if old, seen := r.best[to]; seen && (old.cost < n.cost || old.cost == n.cost && old.steps <= n.steps) {
				continue
			}
			r.best[to] = n
			heap.Push(pq, item{hex: to, cost: n.cost, steps: n.steps})
		}
	}
	return r, nil
}

// Start returns the hex the search started from.
func (r *Reach) Start() Hex { return r.start }

// MaxCost returns the budget the search was run with.
func (r *Reach) MaxCost() int { return r.maxCost }

// Contains reports whether h was reached within the budget.
func (r *Reach) Contains(h Hex) bool {
	_, ok := r.best[h]
	return ok
}

// Cost returns the least cost of reaching h, and false if h was not
// reached.
func (r *Reach) Cost(h Hex) (int, bool) {
	n, ok := r.best[h]
	return n.cost, ok
}

// Steps returns the number of steps on the chosen path to h (0 for the
// start), and false if h was not reached.
func (r *Reach) Steps(h Hex) (int, bool) {
	n, ok := r.best[h]
	return n.steps, ok
}

// Path returns the chosen cheapest path from the start to h, both included
// ([start] when h is the start), or nil if h was not reached.
func (r *Reach) Path(h Hex) []Hex {
	n, ok := r.best[h]
	if !ok {
		return nil
	}
	out := make([]Hex, n.steps+1)
	for i := n.steps; i > 0; i-- {
		out[i] = h
		h = r.best[h].prev
	}
	out[0] = r.start
	return out
}

// Hexes returns every reached hex, the start first, ordered by cost, then by
// number of steps, then column-major.
func (r *Reach) Hexes() []Hex { return slices.Clone(r.order) }

// Len returns the number of reached hexes, the start included.
func (r *Reach) Len() int { return len(r.order) }

type item struct {
	hex         Hex
	cost, steps int
}

// queue is a min-heap of items ordered by cost, steps, then column-major.
type queue []item

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	a, b := q[i], q[j]
	if a.cost != b.cost {
		return a.cost < b.cost
	}
	if a.steps != b.steps {
		return a.steps < b.steps
	}
	return Compare(a.hex, b.hex) < 0
}
func (q queue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)   { *q = append(*q, x.(item)) }
func (q *queue) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}
