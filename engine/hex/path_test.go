package hex

import (
	"errors"
	"slices"
	"testing"
)

func openField(g Grid) CostFunc {
	return func(from, to Hex) (int, bool) { return 1, g.InBounds(to) }
}

func TestReachableOpenField(t *testing.T) {
	g := Grid{FirstCol: 1, FirstRow: 1, Cols: 40, Rows: 30}
	start := MustParse("2314")
	r, err := Reachable(start, 3, openField(g))
	if err != nil {
		t.Fatal(err)
	}
	// With unit costs the reachable set is exactly the radius.
	got := slices.Clone(r.Hexes())
	slices.SortFunc(got, Compare)
	if want := Range(start, 3); !slices.Equal(got, want) {
		t.Fatalf("reached %v, want Range(2314, 3)", names(got))
	}
	if r.Len() != 37 || r.Start() != start || r.MaxCost() != 3 {
		t.Errorf("Len/Start/MaxCost = %d %v %d", r.Len(), r.Start(), r.MaxCost())
	}
	for _, h := range r.Hexes() {
		c, _ := r.Cost(h)
		s, _ := r.Steps(h)
		if c != Distance(start, h) || s != c || len(r.Path(h)) != c+1 {
			t.Errorf("%v: cost %d steps %d path %v, want distance %d", h, c, s, r.Path(h), Distance(start, h))
		}
	}
	if hs := r.Hexes(); hs[0] != start {
		t.Errorf("Hexes()[0] = %v, want the start", hs[0])
	}
	// Deterministic tie-breaking: 2514 can be reached through 2413 or
	// 2414; 2413 is settled first (column-major among cost-1 hexes).
	if got := names(r.Path(MustParse("2514"))); !slices.Equal(got, []string{"2314", "2413", "2514"}) {
		t.Errorf("Path(2514) = %v", got)
	}
	if got := names(r.Path(start)); !slices.Equal(got, []string{"2314"}) {
		t.Errorf("Path(start) = %v", got)
	}
	if r.Contains(MustParse("2318")) || r.Path(MustParse("2318")) != nil {
		t.Error("2318 is 4 away but was reached")
	}
	if _, ok := r.Cost(MustParse("2318")); ok {
		t.Error("Cost(2318) ok")
	}
	// Hexes() is ordered by cost, then column-major.
	hs := r.Hexes()
	for i := 1; i < len(hs); i++ {
		ci, _ := r.Cost(hs[i-1])
		cj, _ := r.Cost(hs[i])
		if ci > cj || ci == cj && Compare(hs[i-1], hs[i]) > 0 {
			t.Fatalf("Hexes() out of order at %d: %v", i, names(hs))
		}
	}
}

func TestReachableMapEdge(t *testing.T) {
	g := Grid{FirstCol: 1, FirstRow: 1, Cols: 5, Rows: 5}
	r, err := Reachable(MustParse("0101"), 2, openField(g))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range r.Hexes() {
		if !g.InBounds(h) {
			t.Errorf("reached off-map hex %v", h)
		}
	}
	// Zero-cost steps on an unbounded plane still end: only printable
	// hexes are searched.
	r, err = Reachable(MustParse("5050"), 0, func(from, to Hex) (int, bool) { return 0, true })
	if err != nil {
		t.Fatal(err)
	}
	if r.Len() != 100*100 {
		t.Errorf("zero-cost search reached %d hexes, want 10000", r.Len())
	}
}

// TestReachableWeighted: a cheaper road (cost 1 per hex, in half movement
// points) is preferred over the direct route through clear terrain (cost
// 2), and among equal costs the path with fewer steps wins.
func TestReachableWeighted(t *testing.T) {
	road := map[Hex]bool{}
	for _, s := range []string{"2313", "2412", "2512", "2612", "2613"} {
		road[MustParse(s)] = true
	}
	cost := func(from, to Hex) (int, bool) {
		if road[from] && road[to] || road[to] && from == MustParse("2314") {
			return 1, true
		}
		return 2, true
	}
	r, err := Reachable(MustParse("2314"), 6, cost)
	if err != nil {
		t.Fatal(err)
	}
	// Across country: 3 steps at 2 each = 6. By road: 2313 2412 2512 2612
	// 2613, 5 steps at 1 each = 5.
	if got := names(r.Path(MustParse("2613"))); !slices.Equal(got, []string{"2314", "2313", "2412", "2512", "2612", "2613"}) {
		t.Errorf("Path(2613) = %v", got)
	}
	if c, _ := r.Cost(MustParse("2613")); c != 5 {
		t.Errorf("Cost(2613) = %d, want 5", c)
	}
	// 2414: directly costs 2; through the road hex 2313 it would cost 3.
	if got := names(r.Path(MustParse("2414"))); !slices.Equal(got, []string{"2314", "2414"}) {
		t.Errorf("Path(2414) = %v", got)
	}
}

func TestReachableFewerStepsOnEqualCost(t *testing.T) {
	// Entering 2315 is free, every other step costs 1. 2414 costs 1
	// both directly (1 step) and through 2315 (0 + 1, 2 steps): the path
	// with fewer steps must win.
	free := MustParse("2315")
	cost := func(from, to Hex) (int, bool) {
		if to == free {
			return 0, true
		}
		return 1, true
	}
	r, err := Reachable(MustParse("2314"), 1, cost)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(r.Path(MustParse("2414"))); !slices.Equal(got, []string{"2314", "2414"}) {
		t.Errorf("Path(2414) = %v, want the 1-step path", got)
	}
	if got := names(r.Path(MustParse("2316"))); !slices.Equal(got, []string{"2314", "2315", "2316"}) {
		t.Errorf("Path(2316) = %v", got)
	}
}

func TestReachableErrors(t *testing.T) {
	if _, err := Reachable(MustParse("2314"), -1, openField(Grid{1, 1, 40, 30})); !errors.Is(err, ErrNegativeCost) {
		t.Errorf("negative budget: err = %v", err)
	}
	_, err := Reachable(MustParse("2314"), 3, func(from, to Hex) (int, bool) { return -1, true })
	if !errors.Is(err, ErrNegativeCost) {
		t.Errorf("negative step: err = %v", err)
	}
}

func TestReachableCallsStepOncePerPair(t *testing.T) {
	calls := map[[2]Hex]int{}
	_, err := Reachable(MustParse("2314"), 4, func(from, to Hex) (int, bool) {
		calls[[2]Hex{from, to}]++
		return 1, true
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range slices.SortedFunc(func(yield func([2]Hex) bool) {
		for k := range calls {
			if !yield(k) {
				return
			}
		}
	}, func(a, b [2]Hex) int {
		if c := Compare(a[0], b[0]); c != 0 {
			return c
		}
		return Compare(a[1], b[1])
	}) {
		if calls[k] != 1 {
			t.Errorf("step(%v, %v) called %d times", k[0], k[1], calls[k])
		}
	}
}

// commandRadiusScene is a GCACW 2.5 situation: a leader, friendly units and
// enemy units whose ZOC covers their six neighbours.
type commandRadiusScene struct {
	grid     Grid
	enemy    map[Hex]bool
	friendly map[Hex]bool
}

// allowed is GCACW 2.5d/2.5e: a command radius path may enter h unless it
// holds an enemy unit, or is in enemy ZOC and holds no friendly unit.
func (s commandRadiusScene) allowed(h Hex) bool {
	if !s.grid.InBounds(h) || s.enemy[h] {
		return false
	}
	if s.friendly[h] {
		return true
	}
	for _, n := range h.Neighbors() {
		if s.enemy[n] {
			return false // in enemy ZOC (GCACW 2.4a)
		}
	}
	return true
}

// bruteRadius enumerates every path of up to three hexes (GCACW 2.5g).
func (s commandRadiusScene) bruteRadius(leader Hex) map[Hex]bool {
	in := map[Hex]bool{leader: true}
	var walk func(h Hex, left int)
	walk = func(h Hex, left int) {
		if left == 0 {
			return
		}
		for _, n := range h.Neighbors() {
			if s.allowed(n) {
				in[n] = true
				walk(n, left-1)
			}
		}
	}
	walk(leader, 3)
	return in
}

func TestReachableCommandRadius_GCACW_2_5g(t *testing.T) {
	hs := func(ss ...string) map[Hex]bool {
		m := map[Hex]bool{}
		for _, s := range ss {
			m[MustParse(s)] = true
		}
		return m
	}
	scenes := []struct {
		name   string
		scene  commandRadiusScene
		leader string
		in     []string // must be within the radius
		out    []string // must not be
	}{
		{
			name:   "open",
			scene:  commandRadiusScene{grid: Grid{1, 1, 40, 30}},
			leader: "2314",
			in:     []string{"2314", "2317", "2614", "2012"},
			out:    []string{"2318", "2714"},
		},
		{
			// An enemy unit at 2416 with ZOC into 2415, 2516, 2517, 2417,
			// 2317, 2316 closes the way south; 2318 must be reached round it.
			name:   "enemy to the south-east",
			scene:  commandRadiusScene{grid: Grid{1, 1, 40, 30}, enemy: hs("2416")},
			leader: "2315",
			in:     []string{"2315", "2215", "2114", "2414", "2514"},
			out:    []string{"2416", "2316", "2317", "2415", "2318"},
		},
		{
			// GCACW 2.5e: a friendly unit in 2316 cancels the enemy ZOC
			// there, so 2316 is reachable; 2317 is still in enemy ZOC.
			name: "friendly unit in enemy ZOC",
			scene: commandRadiusScene{grid: Grid{1, 1, 40, 30}, enemy: hs("2416"),
				friendly: hs("2316")},
			leader: "2315",
			in:     []string{"2316"},
			out:    []string{"2317", "2416"},
		},
		{
			name:   "map edge",
			scene:  commandRadiusScene{grid: Grid{1, 1, 10, 10}, enemy: hs("0203")},
			leader: "0101",
			in:     []string{"0101", "0102", "0201", "0401"},
			out:    []string{"0103", "0203"},
		},
	}
	for _, tt := range scenes {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.scene
			leader := MustParse(tt.leader)
			r, err := Reachable(leader, 3, func(from, to Hex) (int, bool) { return 1, s.allowed(to) })
			if err != nil {
				t.Fatal(err)
			}
			brute := s.bruteRadius(leader)
			for _, h := range Range(leader, 4) {
				if r.Contains(h) != brute[h] {
					t.Errorf("%v: Reachable says %v, path enumeration says %v", h, r.Contains(h), brute[h])
				}
			}
			for _, h := range tt.in {
				if !r.Contains(MustParse(h)) {
					t.Errorf("%s should be within the command radius", h)
				}
			}
			for _, h := range tt.out {
				if r.Contains(MustParse(h)) {
					t.Errorf("%s should not be within the command radius", h)
				}
			}
		})
	}
}
