package gmb

import (
	"fmt"
	"slices"
	"strings"

	"pbem/engine/table"
)

// Chapter 7: movement, in exact integer geometry (engine/table: whole
// micrometres, an inch exactly 25 400 of them; no floating point).

// obstacleCost is what crossing obstacles costs, once a turn (7.2d).
var obstacleCost = table.Inch(3)

// minRange is a unit's least movement range (7.1e).
var minRange = table.Inch(3)

// marchBonus is what the March order adds (7.2e).
var marchBonus = table.Inch(3)

// noZOCGap is how near a unit may come to an enemy without a zone of
// control (7.4b).
var noZOCGap = table.Inch(1)

// bridgeReach is how near a bridge a crossing must pass (R4: the seed
// gives no crossing rules; a unit files over the bridge in column).
var bridgeReach = table.Inch(1)

// roadReach is how near its road a unit must stand to march along it.
var roadReach = table.Inch(1)

// clampRange is 7.1f: the range after modifiers, at least 3" (7.1e) and
// at most twice the movement value (7.1d).
func clampRange(base, r table.Length) table.Length {
	return min(max(r, minRange), 2*base)
}

// ranges returns a unit's normal-move range (7.1f) and the range once the
// obstacle cost is paid (7.2c-d): G4's reading applies the 3" minimum to
// the whole range after every modifier.
func (s *State) ranges(u *Unit, march bool) (eff, pen table.Length) {
	base := s.Scn.UnitType(u.Type).Move
	r := base + u.Bonus
	if march {
		r += marchBonus // 7.2e
	}
	return clampRange(base, r), clampRange(base, r-obstacleCost)
}

// forcedDistance is 7.5b: half the unit's movement value (G3: the base
// value; option forced-move range: its range), rounded down to whole
// inches.
func (s *State) forcedDistance(u *Unit) table.Length {
	base := s.Scn.UnitType(u.Type).Move
	if s.Scn.Option("forced-move") == "range" {
		base, _ = s.ranges(u, false)
	}
	return base / (2 * table.OneInch) * table.OneInch
}

// cantMove says why a unit may not make a normal move this turn (7.1c).
func (s *State) cantMove(u *Unit) string {
	switch {
	case !u.Placed || u.Removed:
		return u.Name + " is not on the table"
	case u.Moved:
		return u.Name + " has made its move this turn"
	case u.Pinned:
		return u.Name + " is pinned (7.1c)"
	case u.Engaged:
		return u.Name + " is engaged in combat (7.1c)"
	case u.Attacked:
		return u.Name + " attacked or took part in a combat this turn (7.1c)"
	case u.Supported:
		return u.Name + " supported units in a combat this turn (7.1c)"
	case u.Retreated:
		return u.Name + " retreated this turn (7.1c)"
	}
	return ""
}

// moveReport is what a normal move did.
type moveReport struct {
	Final     table.Rect
	Dist      table.Length // travelled by the front edge's centre (7.2a)
	Range     table.Length // the range (7.1f)
	PenRange  table.Length // the range once the obstacle cost is paid
	Limit     table.Length // the range that bounds this move
	Contact   string       // the first obstacle met (7.2c), "" if none
	ContactAt table.Length // how far the unit had moved when it met it
	Pays      bool         // pays the 3" now (7.2d)
	Road      bool         // marched along a road (7.2i)
}

// obstacle is something a move pays the obstacle cost to touch (7.2c,
// R4): a terrain area, a terrain line, or a friendly base (G20).
type obstacle struct {
	name string
	poly table.Polygon
	path table.Polyline
}

// meets reports whether an outline meets the obstacle: touches it
// (touch, 7.2c's "on contact", option contact touch) or enters it.
func (ob obstacle) meets(pg table.Polygon, touch bool) bool {
	switch {
	case touch && ob.path != nil:
		return pg.TouchesPolyline(ob.path)
	case touch:
		return pg.TouchesPolygon(ob.poly)
	case ob.path != nil:
		return pg.MeetsPolylineInterior(ob.path)
	}
	return table.OverlapConvex(pg, ob.poly)
}

func (ob obstacle) hitSweep(sw table.Sweep, touch bool) bool {
	for _, p := range sw {
		if ob.meets(p, touch) {
			return true
		}
	}
	return false
}

func (ob obstacle) hitBase(r table.Rect, touch bool) bool { return ob.meets(r.Polygon(), touch) }

// obstacles for u's move: terrain that reduces movement, and friendly
// units (7.2c; G20 reads them as crossed at the cost).
func (s *State) obstacles(u *Unit) []obstacle {
	var out []obstacle
	for _, p := range s.Pieces {
		k, _ := s.Scn.Kind(p.Kind)
		if k.Move != Obstacle {
			continue
		}
		out = append(out, obstacle{name: p.ID, poly: p.Poly, path: p.Path})
	}
	if s.Scn.Option("friendly-units") == "pass" {
		for i := range s.Units {
			f := &s.Units[i]
			if f.Side == u.Side && f.Name != u.Name && f.Placed && !f.Removed {
				out = append(out, obstacle{name: "friendly " + f.Name, poly: s.rect(f).Polygon()})
			}
		}
	}
	return out
}

// impassable says what impassable terrain (or, for G20's other reading,
// a friendly unit) the swept area crosses, "" if none. A river is
// crossed only at a bridge, the front edge's centre passing within 1"
// of it (path).
func (s *State) impassable(u *Unit, sw table.Sweep, path table.Segment) string {
	for _, p := range s.Pieces {
		k, _ := s.Scn.Kind(p.Kind)
		if k.Move != Impassable {
			continue
		}
		if p.Path != nil {
			if sw.MeetsPolylineInterior(p.Path) && !s.atBridge(p, path) {
				return fmt.Sprintf("%s is impassable but at a bridge (R4)", p.ID)
			}
			continue
		}
		if sw.OverlapsPolygon(p.Poly) {
			return fmt.Sprintf("%s is impassable (R4)", p.ID)
		}
	}
	if s.Scn.Option("friendly-units") == "block" {
		for i := range s.Units {
			f := &s.Units[i]
			if f.Side == u.Side && f.Name != u.Name && f.Placed && !f.Removed && sw.OverlapsPolygon(s.rect(f).Polygon()) {
				return fmt.Sprintf("friendly units block the way (%s; option friendly-units block)", f.Name)
			}
		}
	}
	return ""
}

// atBridge reports whether a path crosses the water line w only within
// reach of its bridges.
func (s *State) atBridge(w Piece, path table.Segment) bool {
	crossed := false
	for _, seg := range w.Path.Segments() {
		kind, at := path.Intersection(seg)
		if kind == table.Disjoint {
			continue
		}
		crossed = true
		ok := false
		for _, b := range s.Bridges {
			if b.Over == w.ID && table.WithinDistance(b.At, at, bridgeReach) {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	return crossed
}

// enemies are the enemy units on the table, each with the gap a move may
// not close below: its zone of control (7.4a, R5), or 1" without one
// (7.4b: pinned by artillery fire, 8.7).
type enemyZone struct {
	u    *Unit
	r    table.Rect
	gap  table.Length
	in   bool         // the mover starts within it
	from table.Length // the mover's gap to it at the start
}

func (s *State) enemyZones(u *Unit, start table.Rect) []enemyZone {
	var out []enemyZone
	for i := range s.Units {
		e := &s.Units[i]
		if e.Side == u.Side || !e.Placed || e.Removed {
			continue
		}
		z := enemyZone{u: e, r: s.rect(e), gap: s.Scn.ZOC}
		if e.Pinned {
			z.gap = noZOCGap
		}
		z.in = table.Closer(start, z.r, z.gap)
		z.from = table.Gap(start, z.r)
		out = append(out, z)
	}
	return out
}

func zoneWord(z enemyZone) string {
	if z.u.Pinned {
		return fmt.Sprintf("closer than 1\" to %s, which has no zone of control (7.4b)", z.u.Name)
	}
	return fmt.Sprintf("into %s's zone of control (%s, 7.4a)", z.u.Name, inch(z.gap))
}

// checkZones refuses a sweep that enters an enemy's zone (7.4a-b). A
// unit that starts within one may move but never nearer that enemy.
func checkZones(zs []enemyZone, sw table.Sweep, end table.Rect) string {
	for _, z := range zs {
		if z.in {
			if table.Gap(end, z.r) < z.from {
				return fmt.Sprintf("it starts within %s's zone of control and may not come nearer it (7.4a)", z.u.Name)
			}
			continue
		}
		if sw.CloserToRect(z.r, z.gap) {
			return "it would come " + zoneWord(z)
		}
	}
	return ""
}

// normalMove checks a unit's normal move and says where it ends; the
// problem is "" when the move is legal.
func (s *State) normalMove(u *Unit, o Order) (moveReport, string) {
	var rep moveReport
	if why := s.cantMove(u); why != "" {
		return rep, why
	}
	r := s.rect(u)
	rep.Range, rep.PenRange = s.ranges(u, o.March)
	obs := s.obstacles(u)
	zones := s.enemyZones(u, r)
	paid := u.Paid
	contact := func(what string, at table.Length) {
		if !paid && rep.Contact == "" {
			rep.Contact, rep.ContactAt, rep.Pays = what, at, true
		}
	}
	// 7.2c: a unit that starts its move in terrain that reduces
	// movement pays at once; 7.2i: unless it moves only along a road
	// (option road-start pays: it pays all the same).
	roadOnly := len(o.Steps) > 0 && !slices.ContainsFunc(o.Steps, func(st Step) bool { return st.Kind != "road" })
	if !roadOnly || s.Scn.Option("road-start") == "pays" {
		for _, ob := range obs {
			if ob.hitBase(r, false) {
				contact(ob.name, 0)
				break
			}
		}
	}
	// 7.2c: an obstacle is met on contact: when the base touches it
	// (option contact enter: when it enters it). One the base touches
	// already at the start is met when the base enters it.
	touch := s.Scn.Option("contact") == "touch"
	touching := map[string]bool{}
	if touch {
		for _, ob := range obs {
			touching[ob.name] = ob.hitBase(r, true)
		}
	}
	for i, st := range o.Steps {
		switch st.Kind {
		case "pivot", "wheel":
			if st.Kind == "pivot" && i != 0 && i != len(o.Steps)-1 && s.Scn.Option("pivots") == "start-or-end" {
				return rep, "a unit turns about its base's centre only at the start or the end of its move (7.3d)"
			}
			next := r.PivotFront(st.Turn) // 7.3c: about the front edge's centre
			if st.Kind == "pivot" {
				next = r.Pivot(st.Turn) // 7.3d: about the base's centre
			}
			// 7.3e: what the base brushes while turning does not count;
			// only where it stands after the turn.
			for _, ob := range obs {
				if ob.hitBase(next, touch && !touching[ob.name]) {
					contact(ob.name, rep.Dist)
					break
				}
			}
			sw := table.Sweep{next.Polygon()}
			if why := s.impassable(u, sw, table.Seg(next.Front, next.Front)); why != "" {
				return rep, st.Words + ": " + why
			}
			if why := checkZones(zones, sw, next); why != "" {
				return rep, st.Words + ": " + why
			}
			r = next
		case "forward":
			m := table.ForwardMove(st.Dist)
			sw := r.Sweep(m)
			next := r.Apply(m)
			// 7.2h: the whole base's swept area meets obstacles.
			if !paid && rep.Contact == "" {
				var first string
				best := table.Length(-1)
				for _, ob := range obs {
					t := touch && !touching[ob.name]
					hit := func(sw table.Sweep) bool { return ob.hitSweep(sw, t) }
					if part, hit := r.FirstContact(m, hit); hit && (best < 0 || part.Dist < best) {
						first, best = ob.name, part.Dist
					}
				}
				if first != "" {
					contact(first, rep.Dist+best)
				}
			}
			if why := s.impassable(u, sw, table.Seg(r.Front, next.Front)); why != "" {
				return rep, st.Words + ": " + why
			}
			if why := checkZones(zones, sw, next); why != "" {
				return rep, st.Words + ": " + why
			}
			rep.Dist += st.Dist
			r = next
		case "road":
			next, d, sw, why := s.roadMove(u, r, st.To)
			if why != "" {
				return rep, st.Words + ": " + why
			}
			if why := checkZones(zones, sw, next); why != "" {
				return rep, st.Words + ": " + why
			}
			rep.Road = true // 7.2i: along a road every obstacle is ignored
			rep.Dist += d
			r = next
		}
	}
	rep.Final = r
	rep.Limit = rep.Range
	if rep.Pays {
		rep.Limit = rep.PenRange
		if s.Scn.Option("minimum-range") == "remaining" {
			rep.Limit = max(rep.Limit, min(rep.ContactAt+minRange, rep.Range))
		}
	}
	if rep.Dist > rep.Limit {
		if rep.Pays && rep.ContactAt > rep.Limit {
			return rep, fmt.Sprintf("it meets %s after %s; its range drops to %s there (7.2c-d), so it must stop before it", rep.Contact, inch(rep.ContactAt), inch(rep.Limit))
		}
		if rep.Pays {
			return rep, fmt.Sprintf("it moves %s, but its range is %s once it pays 3\" for %s (7.2c-d)", inch(rep.Dist), inch(rep.Limit), rep.Contact)
		}
		return rep, fmt.Sprintf("it moves %s, more than its range of %s (7.1f, 7.2b)", inch(rep.Dist), inch(rep.Limit))
	}
	if why := s.standing(u, r); why != "" {
		return rep, why
	}
	return rep, ""
}

// standing says why a base may not end where it is: off the table, on
// another unit, or on impassable terrain (7.3e: after a manoeuvre it
// must have room to stand).
func (s *State) standing(u *Unit, r table.Rect) string {
	if !r.InPolygon(s.tablePoly()) {
		return "it would end off the table"
	}
	for i := range s.Units {
		f := &s.Units[i]
		if f.Name != u.Name && f.Placed && !f.Removed && table.Overlap(r, s.rect(f)) {
			return fmt.Sprintf("it would end on %s: there is no room to stand (7.3e)", f.Name)
		}
	}
	for _, p := range s.Pieces {
		k, _ := s.Scn.Kind(p.Kind)
		if k.Move != Impassable {
			continue
		}
		if p.Path == nil && table.OverlapConvex(r.Polygon(), p.Poly) {
			return fmt.Sprintf("it would end on %s, which is impassable", p.ID)
		}
	}
	return ""
}

// roadMove marches a unit along a road to the point of it nearest to
// (7.2i): the unit's front edge's centre must stand within 1" of the
// road; it steps onto it, follows it, and ends facing along it. It
// returns the base at the end, the distance, and the area swept.
func (s *State) roadMove(u *Unit, r table.Rect, to table.Point) (table.Rect, table.Length, table.Sweep, string) {
	var road *Piece
	for i := range s.Pieces {
		p := &s.Pieces[i]
		if p.Kind != Road || len(p.Path) < 2 {
			continue
		}
		if p.Path.Nearest(r.Front).Dist <= roadReach && p.Path.Nearest(to).Dist <= roadReach {
			road = p
			break
		}
	}
	if road == nil {
		return r, 0, nil, fmt.Sprintf("no road runs within 1\" of both %s's front and %s", u.Name, fmtPt(to))
	}
	a, b := road.Path.Nearest(r.Front), road.Path.Nearest(to)
	pts := []table.Point{r.Front, a.At}
	if a.Along <= b.Along {
		for i := a.Seg + 1; i <= b.Seg; i++ {
			pts = append(pts, road.Path[i])
		}
	} else {
		for i := a.Seg; i > b.Seg; i-- {
			pts = append(pts, road.Path[i])
		}
	}
	pts = append(pts, b.At)
	var sw table.Sweep
	var d table.Length
	cur := r
	for i := 0; i+1 < len(pts); i++ {
		seg := table.Seg(pts[i], pts[i+1])
		l := seg.Len()
		if l == 0 {
			continue
		}
		// A free wheel to face along the road (7.3b), then straight on.
		cur = cur.PivotFront(table.Turn(cur.Facing, table.Bearing(pts[i], pts[i+1])))
		cur.Front = pts[i]
		m := table.ForwardMove(l)
		sw = append(sw, cur.Sweep(m)...)
		cur = cur.Apply(m)
		cur.Front = pts[i+1]
		d += l
	}
	if d == 0 {
		return r, 0, nil, "the unit is there already"
	}
	return cur, d, sw, ""
}

// forcedMove is 7.5: a forced move of half the movement value rounded
// down, straight back or forward, that terrain and friendly units do not
// shorten (7.5c).
func (s *State) forcedMove(u *Unit, dir string) (table.Rect, table.Length, string) {
	if !u.Placed || u.Removed {
		return table.Rect{}, 0, u.Name + " is not on the table"
	}
	d := s.forcedDistance(u)
	r := s.rect(u)
	next := r.Forward(d)
	if dir == "BACK" {
		next = r.Forward(-d)
	}
	if !next.InPolygon(s.tablePoly()) {
		return next, d, fmt.Sprintf("%s would leave the table: SET its position instead", u.Name)
	}
	for i := range s.Units {
		f := &s.Units[i]
		if f.Name != u.Name && f.Placed && !f.Removed && table.Overlap(next, s.rect(f)) {
			return next, d, fmt.Sprintf("%s would end on %s: SET their positions instead", u.Name, f.Name)
		}
	}
	return next, d, ""
}

// supporting reports whether two units support each other (7.6a; R7:
// the scenario's support distance between their bases).
func (s *State) supporting(a, b *Unit) bool {
	return a.Side == b.Side && table.Within(s.rect(a), s.rect(b), s.Scn.Support)
}

// division is the formation whose general tests for a unit (7.6d, 7.6h).
func (s *State) testerOf(u *Unit) *General {
	if g := s.generalOf(u.Side, u.Formation); g != nil {
		return g
	}
	return s.generalOf(u.Side, u.Corps)
}

// passage says whether two units may pass through each other's lines
// (7.6) and how many successes the command test needs (7.6j): 0 for no
// test.
func (s *State) passage(a, b *Unit) (need int, tester *Unit, why string) {
	switch {
	case !a.Placed || a.Removed || !b.Placed || b.Removed:
		return 0, nil, "both units must be on the table"
	case a.Name == b.Name:
		return 0, nil, "a unit cannot pass through itself"
	case a.Side != b.Side:
		return 0, nil, "only two friendly units pass through each other's lines"
	case !s.supporting(a, b):
		return 0, nil, fmt.Sprintf("%s and %s do not support each other (7.6a: within %s)", a.Name, b.Name, inch(s.Scn.Support))
	case a.Passage || b.Passage:
		return 0, nil, "a unit takes part in one passage of lines a turn (7.6b)"
	case a.Pinned || b.Pinned:
		return 0, nil, "units pinned by artillery fire cannot take part (7.6f)"
	case a.Engaged && b.Engaged:
		return 0, nil, "not while both units are engaged in combat (7.6e)"
	}
	tester = a
	if a.Engaged || b.Engaged {
		need = 1 // 7.6d
		if b.Engaged {
			tester = b // 7.6h: the general whose unit is engaged
		}
	}
	if slices.Contains(s.Inactive, a.Corps) || slices.Contains(s.Inactive, b.Corps) {
		need++ // 7.6g: one more success for the inactive corps
	}
	return need, tester, ""
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

func listWords(ws []string) string {
	switch len(ws) {
	case 0:
		return "none"
	case 1:
		return ws[0]
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " and " + ws[len(ws)-1]
}
