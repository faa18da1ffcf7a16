package gbacw

import (
	"slices"

	"pbem/engine/hex"
)

// --- facing (GBACW 7) ---

// onSide reports whether u faces a hexside: a unit on March orders (10.2).
func (u *Unit) onSide() bool { return u.Order == March }

// sector is where h lies as u sees it (7.1): in front, on a flank, to
// the rear. A unit facing a vertex has two front, two flank and two rear
// hexes around it; a column facing a side one front, four flank, one
// rear.
func sector(u *Unit, h hex.Hex) hex.Sector {
	if u.onSide() {
		return hex.SideSector(u.Hex, hex.Direction(u.Facing), h)
	}
	return hex.VertexSector(u.Hex, hex.Vertex(u.Facing), h)
}

// inFront reports whether h is in u's front (7.2).
func inFront(u *Unit, h hex.Hex) bool { return h != u.Hex && sector(u, h) == hex.Front }

// facingToward is the facing u would take to have direction d in front,
// the fewest points away, and how many points that is (7.3, 7.4).
func facingToward(u *Unit, d hex.Direction) (int, int) {
	if u.onSide() {
		return int(d), hex.Direction(u.Facing).Turn(d)
	}
	v := hex.Vertex(u.Facing)
	a, b := hex.Vertex(d).Clockwise(-1), hex.Vertex(d) // the two vertices with d in front
	if v.Turn(a) <= v.Turn(b) {
		return int(a), v.Turn(a)
	}
	return int(b), v.Turn(b)
}

// turnPoints is how many points u turns to face f.
func turnPoints(u *Unit, f int) int {
	if u.onSide() {
		return hex.Direction(u.Facing).Turn(hex.Direction(f))
	}
	return hex.Vertex(u.Facing).Turn(hex.Vertex(f))
}

// facingName names a facing: a vertex, or a side for a March column.
func facingName(f int, side bool) string {
	if side {
		return hex.Direction(f).String() + " side"
	}
	return hex.Vertex(f).String()
}

// rearDirs are the directions of u's rear hexes (9.5, 14.3b).
func rearDirs(u *Unit) []hex.Direction {
	if u.onSide() {
		return []hex.Direction{hex.Direction(u.Facing).Opposite()}
	}
	a, b := hex.Vertex(u.Facing).Opposite().Sides()
	return []hex.Direction{a, b}
}

// --- terrain and movement costs (R4) ---

func (s *State) hexDef(h hex.Hex) (HexDef, TerrainDef, bool) {
	d, ok := s.Scn.Hex(h)
	if !ok {
		return HexDef{}, TerrainDef{}, false
	}
	return d, s.Scn.Tables.Terrain[d.Terrain], true
}

func (s *State) level(h hex.Hex) int {
	d, _ := s.Scn.Hex(h)
	return d.Level
}

// hasSide reports whether the hexside between a and b has feature f.
func (s *State) hasSide(a, b hex.Hex, f string) bool {
	hs, err := hex.Between(a, b)
	return err == nil && slices.Contains(s.Scn.Sides[hs], f)
}

// crossing is how a step crosses its hexside: at a ford or bridge.
func (s *State) crossing(a, b hex.Hex) (ford, bridge bool) {
	return s.hasSide(a, b, "ford"), s.hasSide(a, b, "bridge") && s.Scn.RouteAcross(a, b) != ""
}

// stepCost is the cost in half MPs for u, on order ord, to step from a
// into the adjacent hex b, whether it moves along a road (free facing,
// 7.3) and whether it uses the road rate of an Advance order (Extended
// Column, 6.1); why says why it may not.
type stepCost struct {
	cost     int
	road     bool
	extended bool
	why      string
}

// otherTerrain is the hex's cost ignoring roads ("OT"): its terrain, the
// levels climbed, and the features of the hexside crossed; a stream is
// crossed at a ford or bridge only by those who may use them (useCross).
func (s *State) otherTerrain(a, b hex.Hex, useCross bool) (int, string) {
	d, t, ok := s.hexDef(b)
	if !ok {
		return 0, "it is off the map"
	}
	if t.Impassable {
		return 0, d.Terrain + " is impassable"
	}
	tab := s.Scn.Tables
	mp := t.MP + tab.Climb*max(0, d.Level-s.level(a))
	hs, _ := hex.Between(a, b)
	fs := s.Scn.Sides[hs]
	ford, bridge := s.crossing(a, b)
	for _, f := range fs {
		if f == "ford" || f == "bridge" {
			continue
		}
		sd := tab.SideFeat[f]
		if f == "stream" && useCross && (ford || bridge) {
			// The ford or bridge replaces the stream.
			if ford {
				mp += tab.SideFeat["ford"].MP
			} else {
				mp += tab.SideFeat["bridge"].MP
			}
			continue
		}
		if sd.Impassable {
			return 0, "the " + f + " cannot be crossed here"
		}
		mp += sd.MP
	}
	return 2 * mp, ""
}

func (s *State) step(u *Unit, a, b hex.Hex) stepCost {
	opt := s.Scn.Options
	ord := u.Order
	// Attack orders use no roads, bridges or fords (6.2, B7; the option
	// lets them cross at bridges and fords, paying the other terrain).
	useCross := ord != Attack || opt.AttackCrossings
	ot, why := s.otherTerrain(a, b, useCross)
	if why != "" {
		return stepCost{why: why}
	}
	route := s.Scn.RouteAcross(a, b)
	if route == "" || ord == Attack {
		return stepCost{cost: ot}
	}
	switch route {
	case "trail":
		mp := ot / 2
		switch {
		case opt.TrailFull:
			return stepCost{cost: ot, road: true}
		case ord == March: // rounded down, at least 1 (10.5, B6)
			mp = max(1, mp/2)
		default: // rounded up (6.1, B6)
			mp = (mp + 1) / 2
		}
		return stepCost{cost: 2 * mp, road: true}
	default: // road, pike
		if ord == March {
			return stepCost{cost: 1, road: true} // half a point (10.5)
		}
		r := 2 * max(1, s.Scn.Tables.RouteMP[route])
		if r < ot {
			return stepCost{cost: r, road: true, extended: ord == Advance}
		}
		return stepCost{cost: ot, road: true}
	}
}

// leaderStep is a leader's cost to step from a into b (17.1, 5.1): roads
// and pikes at their rate, trails halved, the other terrain elsewhere;
// fords and bridges are his to use.
func (s *State) leaderStep(a, b hex.Hex) (int, bool) {
	ot, why := s.otherTerrain(a, b, true)
	if why != "" {
		return 0, false
	}
	switch s.Scn.RouteAcross(a, b) {
	case "road", "pike":
		return min(ot, 2*max(1, s.Scn.Tables.RouteMP[s.Scn.RouteAcross(a, b)])), true
	case "trail":
		return 2 * max(1, (ot/2+1)/2), true
	}
	return ot, true
}

// --- line of sight (GBACW 12) ---

// LOS kinds: what the units in between block (12.4).
const (
	losSight     = iota // seeing (10.6, 15.1): units do not block
	losSmallArms        // units block
	losArtillery        // units block at 3 hexes or less, else only within 2 of the target
)

// los reports whether a sees b. Heights are in half levels: the ground
// of each hex, a terrain obstacle on it (woods), units (½ level, 12.4),
// and hexside features (12.3) not touching either end. An obstacle
// blocks if it is higher than both ends, or higher than the lower end
// and nearer to it (12.1); exactly midway it blocks unless it is a
// gradual slope (12.2). A line along a hexside is two lines, one each
// side: it is blocked only if both are.
func (s *State) los(a, b hex.Hex, kind int) bool {
	if a == b {
		return true
	}
	l1, l2 := hex.Line(a, b), hex.LineOther(a, b)
	if !s.blocked(l1, kind) {
		return true
	}
	return !slices.Equal(l1, l2) && !s.blocked(l2, kind)
}

func (s *State) blocked(line []hex.Hex, kind int) bool {
	n := len(line) - 1
	a, b := line[0], line[n]
	ha, hb := 2*s.level(a), 2*s.level(b)
	// da2, db2: the obstacle's distances from a and b, doubled.
	blocks := func(ho, da2, db2 int, gradual bool) bool {
		lo, hi, dLow, dHigh := ha, hb, da2, db2
		if ha > hb {
			lo, hi, dLow, dHigh = hb, ha, db2, da2
		}
		switch {
		case ho > hi:
			return true
		case ho > lo && dLow < dHigh:
			return true
		case ho > lo && dLow == dHigh:
			return !gradual
		}
		return false
	}
	for i := 1; i < n; i++ {
		h := line[i]
		d, t, _ := s.hexDef(h)
		g := 2 * d.Level
		if blocks(g, 2*i, 2*(n-i), d.Gradual) {
			return true
		}
		if t.Height > 0 && blocks(g+t.Height, 2*i, 2*(n-i), false) {
			return true
		}
		if kind != losSight && s.unitsBlock(h, b, n, kind) && blocks(g+1, 2*i, 2*(n-i), false) {
			return true
		}
	}
	// Every hexside the line crosses, those of the firer's and the
	// target's hexes too: a hexside alone blocks (12.3), and the seed
	// makes no exception for one that borders either end.
	for i := 0; i < n; i++ {
		hs, _ := hex.Between(line[i], line[i+1])
		for _, f := range s.Scn.Sides[hs] {
			if sd := s.Scn.Tables.SideFeat[f]; sd.Height > 0 {
				g := 2 * max(s.level(line[i]), s.level(line[i+1]))
				if blocks(g+sd.Height, 2*i+1, 2*n-2*i-1, false) {
					return true
				}
			}
		}
	}
	return false
}

// unitsBlock reports whether infantry or cavalry in h count as an
// obstacle to fire at target from range n (12.4).
func (s *State) unitsBlock(h, target hex.Hex, n, kind int) bool {
	solid := false
	for _, u := range s.unitsAt(h) {
		if !s.isArt(u) {
			solid = true
		}
	}
	switch {
	case !solid:
		return false
	case kind == losSmallArms:
		return true
	case n <= 3:
		return true
	}
	return hex.Distance(h, target) <= 2
}

// enemySees reports whether an enemy unit within r hexes of h has a line
// of sight to it (10.6, 15.1).
func (s *State) enemySees(h hex.Hex, side string, r int) bool {
	for i := range s.Units {
		e := s.Units[i]
		if e.onMap() && e.Side != side && hex.Distance(e.Hex, h) <= r && s.los(e.Hex, h, losSight) {
			return true
		}
	}
	return false
}

// nearestEnemy is the distance from h to the nearest enemy unit.
func (s *State) nearestEnemy(h hex.Hex, side string) int {
	best := 1 << 30
	for i := range s.Units {
		if e := s.Units[i]; e.onMap() && e.Side != side {
			best = min(best, hex.Distance(e.Hex, h))
		}
	}
	return best
}
