package gmb

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"pbem/engine/table"
)

// Chapter 13.10: terrain set out piece by piece, each checked as the
// rules say before it is placed.

var (
	waterGap    = table.Inch(6)  // 13.10i
	bridgeGap   = table.Inch(3)  // 13.10q
	bridgeClear = table.Inch(6)  // 13.10q
	bridgeEvery = table.Inch(24) // 13.10q
	shallowZone = table.Inch(6)  // 13.10k
)

// kind returns a piece's terrain kind.
func (s *State) kind(p *Piece) TerrainKind {
	k, _ := s.Scn.Kind(p.Kind)
	return k
}

// count is how many pieces of a kind are on the table.
func (s *State) count(kind string) int {
	n := 0
	for _, p := range s.Pieces {
		if p.Kind == kind {
			n++
		}
	}
	return n
}

// nextID names the next piece of a kind: "woods 3".
func (s *State) nextID(kind string) string {
	n := 1
	for _, p := range s.Pieces {
		if p.Kind == kind {
			if k, err := strconv.Atoi(strings.TrimPrefix(p.ID, kind+" ")); err == nil && k >= n {
				n = k + 1
			}
		}
	}
	return fmt.Sprintf("%s %d", kind, n)
}

// onTable reports whether every point lies on the table.
func (s *State) onTable(pts []table.Point) bool {
	for _, p := range pts {
		if p.X < 0 || p.Y < 0 || p.X > s.W || p.Y > s.H {
			return false
		}
	}
	return true
}

// edgeOf names the table edge a point lies on ("" for none; a corner
// counts for both, the first of n, s, e, w).
func (s *State) edgeOf(p table.Point) string {
	switch {
	case p.Y == s.H:
		return "n"
	case p.Y == 0:
		return "s"
	case p.X == s.W:
		return "e"
	case p.X == 0:
		return "w"
	}
	return ""
}

func edgeName(e string) string {
	return map[string]string{"n": "north", "s": "south", "e": "east", "w": "west"}[e]
}

// baseAt is where a side's operational base will stand (13.11a: the
// middle of its own table edge; Player A's is the top edge, 13.7e).
func (s *State) baseAt(name string) table.Point {
	if name == "A" {
		return table.Pt(s.W/2, s.H)
	}
	return table.Pt(s.W/2, 0)
}

// inZoneOf reports whether any part of the points' hull lies strictly
// inside a side's deployment zone.
func (s *State) pathInZone(side string, pts []table.Point) bool {
	lo, hi := s.zoneBand(side, 0)
	for _, p := range pts {
		if side == s.PlayerA && p.Y > lo || side != s.PlayerA && p.Y < hi {
			return true
		}
	}
	return false
}

// waterLine checks a river or stream (13.10h, 13.10i).
func (s *State) waterLine(side, kind string, pts []table.Point) string {
	if kind == River && side != s.PlayerA && side != LayoutBy {
		return "only Player A, who won the initiative, places the river (13.10h)"
	}
	if !s.onTable(pts) {
		return "it must lie on the table"
	}
	a, b := s.edgeOf(pts[0]), s.edgeOf(pts[len(pts)-1])
	if a == "" || b == "" || a == b {
		return "it must run between two table edges: its first and last points on two different edges (13.10h)"
	}
	if side != LayoutBy && s.pathInZone(s.other(side), pts) {
		return "it goes only in your own deployment zone or the neutral zone (13.10h)"
	}
	// 13.7e: any terrain but impassable may lie under a strategic point
	// (a stream, an obstacle, may).
	if k, _ := s.Scn.Kind(kind); k.Move == Impassable {
		for _, sp := range s.Points {
			if onPolyline(table.Polyline(pts), sp) {
				return fmt.Sprintf("no impassable terrain under a strategic point (13.7e): a %s is impassable", kind)
			}
		}
	}
	for _, p := range s.Pieces {
		if p.Kind != River && p.Kind != Stream {
			continue
		}
		if why := twoWaters(table.Polyline(pts), p.Path); why != "" {
			return why + " " + p.ID + " (13.10i)"
		}
	}
	if k, _ := s.Scn.Kind(kind); k.Move == Impassable {
		for _, br := range s.Bridges {
			if table.Polyline(pts).Len() > 0 && pathWithin(table.Polyline(pts), br.At, bridgeClear) {
				return "no impassable terrain within 6\" of a bridge (13.10q)"
			}
		}
	}
	return ""
}

// twoWaters checks 13.10i: wherever two water lines come within 6" of
// each other they may only meet at a right angle (within 1°).
func twoWaters(a, b table.Polyline) string {
	for _, s := range a.Segments() {
		for _, t := range b.Segments() {
			if table.SegmentDistance(s, t) > waterGap {
				continue
			}
			if !rightAngle(s.Vec(), t.Vec()) {
				return "within 6\" it may only meet, at a right angle,"
			}
		}
	}
	return ""
}

// rightAngle reports whether u and v are perpendicular within 1°:
// dot² ≤ sin²(1°)·|u|²|v|² (sin²(1°) < 305/10⁶), exactly.
func rightAngle(u, v table.Vector) bool {
	d := big.NewInt(u.Dot(v))
	d.Mul(d, d).Mul(d, big.NewInt(1_000_000))
	l := new(big.Int).Mul(big.NewInt(u.Len2()), big.NewInt(v.Len2()))
	l.Mul(l, big.NewInt(305))
	return d.Cmp(l) <= 0
}

func onPolyline(pl table.Polyline, p table.Point) bool {
	for _, s := range pl.Segments() {
		if s.PointWithin(p, 0) {
			return true
		}
	}
	return false
}

func pathWithin(pl table.Polyline, p table.Point, r table.Length) bool {
	for _, s := range pl.Segments() {
		if s.PointWithin(p, r) {
			return true
		}
	}
	return false
}

// roadPath lays a road or railway through its waypoints (13.10h): by the
// shortest line (G15) from an edge to the first point, straight between
// points, and to the last edge or onto another road. It says which of
// 13.10h's three patterns the road meets, or why it meets none.
func (s *State) roadPath(ways []Waypoint) (table.Polyline, string) {
	free := s.Scn.Option("roads") == "free"
	var pts []table.Point
	sps, bases := 0, 0
	for i, w := range ways {
		switch w.Kind {
		case "base":
			pts = append(pts, s.baseAt(w.Name))
			bases++
		case "sp":
			k, _ := strconv.Atoi(w.Name)
			pts = append(pts, s.Points[k-1])
			sps++
		case "bridge":
			// 13.10q: a road may use a bridge that exists.
			if i == 0 || i == len(ways)-1 {
				return nil, "a road's ends are table edges, bases, strategic points or another road; a bridge lies between"
			}
			for _, b := range s.Bridges {
				if b.ID == w.Name {
					pts = append(pts, b.At)
				}
			}
		case "point":
			if !free {
				return nil, "a road runs by the shortest line through operational bases and strategic points (13.10h, G15): name them (BASE A, SP2), not points"
			}
			if i == 0 || i == len(ways)-1 {
				return nil, "a road's ends are table edges, bases, strategic points or another road"
			}
			pts = append(pts, w.At)
		case "edge", "road":
			if i != 0 && i != len(ways)-1 {
				return nil, fmt.Sprintf("%s may only start or end a road", wayName(w))
			}
			if w.Kind == "road" && i == 0 {
				return nil, "a road ends on another road; it starts at an edge or a base (13.10h)"
			}
			pts = append(pts, table.Point{}) // set below
		}
	}
	// The shortest line from each end to its edge or road.
	end := func(i, nb int) string {
		w := ways[i]
		q := pts[nb]
		switch w.Kind {
		case "edge":
			switch w.Name {
			case "n":
				pts[i] = table.Pt(q.X, s.H)
			case "s":
				pts[i] = table.Pt(q.X, 0)
			case "e":
				pts[i] = table.Pt(s.W, q.Y)
			case "w":
				pts[i] = table.Pt(0, q.Y)
			}
		case "road":
			pts[i] = s.piece(w.Name).Path.Nearest(q).At
		}
		return ""
	}
	if len(ways) >= 2 {
		if ways[0].Kind == "edge" && (ways[1].Kind == "edge" || ways[1].Kind == "road") ||
			len(ways) == 2 && ways[1].Kind == "edge" && ways[0].Kind == "edge" {
			return nil, "a road passes through at least one strategic point or base (13.10h)"
		}
		end(0, 1)
		end(len(ways)-1, len(ways)-2)
	}
	first, last := ways[0], ways[len(ways)-1]
	opposite := map[string]string{"A": "s", "B": "n"}
	// The patterns count the required points; bridges used lie between.
	core := slices.DeleteFunc(slices.Clone(ways), func(w Waypoint) bool { return w.Kind == "bridge" })
	switch {
	case sps == 1 && len(core) == 3 && (first.Kind == "base" && last.Kind == "edge" && last.Name == opposite[first.Name] ||
		last.Kind == "base" && first.Kind == "edge" && first.Name == opposite[last.Name]):
		// 13.10h (1): from an operational base through one strategic
		// point to the opposite edge.
	case sps >= 2:
		// 13.10h (2): through two strategic points.
	case last.Kind == "road" && sps+bases >= 1 && (first.Kind == "edge" || first.Kind == "base"):
		// 13.10h (3): from an edge through a strategic point or base,
		// ending on another road (a base lies on its edge, 13.11a).
	case free && sps+bases >= 1:
	default:
		return nil, "a road must (1) run from an operational base through one strategic point to the opposite edge, (2) pass through two strategic points, or (3) run from an edge through a strategic point or base and end on another road (13.10h)"
	}
	pl := table.Polyline(slices.Compact(pts))
	if len(pl) < 2 {
		return nil, "the road has no length"
	}
	return pl, ""
}

func wayName(w Waypoint) string {
	switch w.Kind {
	case "edge":
		return "the " + edgeName(w.Name) + " edge"
	case "base":
		return "BASE " + w.Name
	case "sp":
		return "SP" + w.Name
	case "road", "bridge":
		return w.Name
	}
	return fmtPt(w.At)
}

// crossings lists where a path crosses the water lines: each becomes a
// bridge (13.10q), unless the path goes through a bridge that stands
// there already, which it uses. A crossing nearer than 3" to a bridge,
// but not on it, is refused: bridges stand at least 3" apart, and the
// road would cross where no bridge stands.
func (s *State) crossings(path table.Polyline) ([]Bridge, string) {
	var out []Bridge
	for _, w := range s.Pieces {
		if w.Kind != River && w.Kind != Stream {
			continue
		}
		bs, why := crossingsOf(path, w, append(slices.Clone(s.Bridges), out...))
		if why != "" {
			return nil, why
		}
		out = append(out, bs...)
	}
	return out, ""
}

// onBridge is how near a bridge a crossing is the bridge's: a road led
// through it (BRIDGE n) crosses exactly there.
var onBridge = table.Inch(1) / 100

func crossingsOf(path table.Polyline, w Piece, have []Bridge) ([]Bridge, string) {
	var out []Bridge
	for _, a := range path.Segments() {
		for _, b := range w.Path.Segments() {
			kind, at := a.Intersection(b)
			if kind == table.Disjoint {
				continue
			}
			used := false
			for _, br := range append(slices.Clone(have), out...) {
				if table.WithinDistance(br.At, at, onBridge) {
					used = true
					break
				}
			}
			if used {
				continue
			}
			for _, br := range append(slices.Clone(have), out...) {
				if table.Distance(br.At, at) < bridgeGap {
					return nil, fmt.Sprintf("it would cross %s at %s, %s from %s, where no bridge stands: bridges are at least 3\" apart, and a road may use a bridge that exists (13.10q): lead it through %s with BRIDGE %s",
						w.ID, fmtPt(at), inch(table.Distance(br.At, at)), bridgeName(br), bridgeName(br), strings.TrimPrefix(br.ID, "bridge "))
				}
			}
			out = append(out, Bridge{At: at, Over: w.ID})
		}
	}
	return out, ""
}

// checkBridge checks a bridge a player places on the river (13.10q).
func (s *State) checkBridge(at table.Point, have []Bridge) (table.Point, string) {
	var river *Piece
	for i := range s.Pieces {
		if s.Pieces[i].Kind == River {
			river = &s.Pieces[i]
		}
	}
	if river == nil {
		return at, "there is no river"
	}
	n := river.Path.Nearest(at)
	if n.Dist > bridgeReach {
		return at, fmt.Sprintf("%s is not on %s (a bridge goes on the river: within 1\" of it)", fmtPt(at), river.ID)
	}
	for _, b := range append(slices.Clone(s.Bridges), have...) {
		if table.Distance(b.At, n.At) < bridgeGap {
			return n.At, fmt.Sprintf("any two bridges must be at least 3\" apart (13.10q): %s is %s from %s", fmtPt(n.At), inch(table.Distance(b.At, n.At)), bridgeName(b))
		}
	}
	for _, p := range s.Pieces {
		if k := s.kind(&p); k.Move == Impassable && p.Path == nil && p.Poly.PointWithin(n.At, bridgeClear) {
			return n.At, fmt.Sprintf("%s is impassable and within 6\" (13.10q)", p.ID)
		}
	}
	return n.At, ""
}

func bridgeName(b Bridge) string {
	if b.ID != "" {
		return b.ID
	}
	return "the bridge at " + fmtPt(b.At)
}

// bridgesDue is how many bridges the player who did not place the river
// places on it: one for every full 24" of its length, at least one
// (13.10q).
func bridgesDue(l table.Length) int { return max(1, int(l/bridgeEvery)) }

// piecePoly builds the outline of a piece an order gives.
func piecePoly(o Order) table.Polygon {
	if o.W > 0 {
		r := table.BaseAt(o.Pts[0], o.W, o.D, o.Angle)
		return r.Polygon()
	}
	return table.Polygon(slices.Clone(o.Pts))
}

// sizeLimit is 13.2a's (or 13.10e's optional) piece limit: long × wide.
func (s *State) sizeLimit() (long, wide table.Length) {
	if s.Scn.Option("piece-limit") == "9x4" {
		return table.Inch(9), table.Inch(4)
	}
	return table.Inch(12), table.Inch(6)
}

// checkSize checks 13.2a (G6) and says whether the piece counts as half
// a piece (13.10f: no larger than 2" x 2").
func (s *State) checkSize(o Order, pg table.Polygon) (half bool, why string) {
	long, wide := s.sizeLimit()
	w, d := o.W, o.D
	if w == 0 {
		lo, hi := pg.Bounds()
		w, d = hi.X-lo.X, hi.Y-lo.Y
	}
	w, d = max(w, d), min(w, d)
	half = w <= table.Inch(2) && d <= table.Inch(2)
	if s.Scn.Historical {
		return half, "" // 13.2a: the limit is a normal battle's
	}
	if s.Scn.Option("piece-size") == "box" {
		if w > long || d > wide {
			return half, fmt.Sprintf("a piece is at most %s x %s (13.2a)", inch(long), inch(wide))
		}
		return half, ""
	}
	limit := new(big.Rat).SetInt64(int64(long) * int64(wide))
	if pg.Area().Cmp(limit) > 0 {
		return half, fmt.Sprintf("a piece is at most %s x %s: no more than %d square inches (13.2a, G6)", inch(long), inch(wide), (long/table.OneInch)*(wide/table.OneInch))
	}
	return half, ""
}

// checkArea checks an area piece wherever it is placed (13.10o, 13.10q,
// 13.7e): on the table, on no other area piece, a hill or built-up
// terrain on no river, impassable terrain not by a bridge nor under a
// strategic point. skip names a piece that is being moved.
func (s *State) checkArea(kind string, pg table.Polygon, skip ...string) string {
	if len(pg) < 3 || pg.Area().Sign() == 0 || !pg.Convex() {
		return "a piece is a convex outline of at least 3 corners"
	}
	if !s.onTable(pg) {
		return "it must lie on the table"
	}
	for _, p := range s.Pieces {
		if slices.Contains(skip, p.ID) {
			continue
		}
		if p.Path == nil && !s.Scn.Historical && table.OverlapConvex(pg, p.Poly) {
			return fmt.Sprintf("it would stand on %s: a normal piece is not placed on another (13.10o)", p.ID)
		}
		if p.Kind == River && (kind == Hill || kind == BuiltUp) && pg.MeetsPolylineInterior(p.Path) {
			return fmt.Sprintf("a %s may not be placed on a river (13.10o)", kind)
		}
	}
	if k, _ := s.Scn.Kind(kind); k.Move == Impassable {
		for _, b := range s.Bridges {
			if pg.PointWithin(b.At, bridgeClear) {
				return "no impassable terrain within 6\" of a bridge (13.10q)"
			}
		}
		for _, sp := range s.Points {
			if pg.Contains(sp) {
				return "no impassable terrain under a strategic point (13.7e)"
			}
		}
	}
	return ""
}

// ownShare reports whether more than half of pg lies in side's zone.
func (s *State) ownShare(side string, pg table.Polygon) bool {
	in := pg.AreaIn(s.zone(side))
	in.Mul(in, big.NewRat(2, 1))
	return in.Cmp(pg.Area()) > 0
}

// leftPieces is the number of normal pieces still to place (half pieces
// count as a whole here: a side is never asked for more than it can do).
func (s *State) leftPieces() int {
	n := 0
	for _, e := range s.Left {
		n += (e.Count + 1) / 2
	}
	return n
}

// checkNormal checks a normal piece (13.10k with 13.2, 13.10f, 13.10o).
func (s *State) checkNormal(side string, o Order) (Piece, string) {
	pg := piecePoly(o)
	pc := Piece{ID: s.nextID(o.Word), Kind: o.Word, By: side, Poly: pg}
	i := slices.IndexFunc(s.Left, func(e ListEntry) bool { return e.Kind == o.Word })
	if i < 0 || s.Left[i].Count == 0 {
		var left []string
		for _, e := range s.Left {
			if e.Count > 0 {
				left = append(left, e.Kind)
			}
		}
		return pc, fmt.Sprintf("the %s terrain list has no %s left to place (left: %s)", s.List, o.Word, listWords(left))
	}
	half, why := s.checkSize(o, pg)
	if why != "" {
		return pc, why
	}
	pc.Half = half
	if why := s.checkArea(o.Word, pg); why != "" {
		return pc, why
	}
	// 13.10k: never in the opponent's deployment zone.
	if table.OverlapConvex(pg, s.zone(s.other(side))) {
		return pc, "normal terrain may not be placed in the opponent's deployment zone (13.10k)"
	}
	lo, hi := s.zoneBand(side, 0)
	if hi-lo <= shallowZone {
		return pc, "" // 13.10k: a zone no more than 6" deep: all may go in the neutral zone
	}
	// 13.10k (G13): at least 3 pieces more than half in one's own zone.
	if !s.ownShare(side, pg) {
		have, mine := 0, 0
		for _, p := range s.Pieces {
			if p.Path == nil && !slices.Contains(p.Flags, "special") && (p.By == side || s.Scn.Option("zone-pieces") == "total") && s.ownShare(p.By, p.Poly) {
				have++
			}
		}
		n := s.leftPieces()
		mine = (n + 1) / 2
		if s.Scn.Option("zone-pieces") == "total" {
			mine = n
		}
		if need := 3 - have; need > 0 && need >= mine {
			return pc, fmt.Sprintf("at least 3 of your pieces must lie more than half in your deployment zone (13.10k): %s so far, and this is one of your last %d", plural(have, "piece does", "pieces do"), mine)
		}
	}
	return pc, ""
}

// fenceAlong checks a fence or wall (13.10p) and lays it.
func (s *State) fenceAlong(side string, o Order) (Piece, string) {
	kind := strings.ToLower(o.Verb)
	pc := Piece{ID: s.nextID(kind), Kind: kind, By: side, Along: o.Name}
	along := s.piece(o.Name)
	if along == nil {
		return pc, "no such piece"
	}
	if along.By != side {
		return pc, fmt.Sprintf("%s was placed by %s: a fence or wall goes along a road, railway or field you placed (13.10p)", along.ID, along.By)
	}
	switch along.Kind {
	case Road, Railway:
		if slices.Contains(along.Flags, "sunken") || slices.Contains(along.Flags, "embankment") {
			return pc, "no fence or wall along a sunken road or a railway on an embankment (13.10p)"
		}
		if len(o.Ints) > 0 {
			return pc, "along a road give FROM a TO b (inches along it), or nothing for its whole length"
		}
		l := along.Path.Len()
		from, to := table.Length(0), l
		if o.HasRange {
			from, to = o.From, o.To
		}
		if from < 0 || to > l || to <= from {
			return pc, fmt.Sprintf("FROM and TO lie along %s, from 0 to %s (13.10p: up to the road's length)", along.ID, inch(l))
		}
		pc.Path = along.Path.Part(from, to)
	case Rough:
		if len(o.Ints) == 0 {
			return pc, "along a field give the edges it covers: EDGE n or EDGES n-m (13.10p: at least one edge)"
		}
		n := len(along.Poly)
		a, b := o.Ints[0], o.Ints[1]
		if b > n || b-a+1 > n {
			return pc, fmt.Sprintf("%s has edges 1 to %d", along.ID, n)
		}
		for i := a - 1; i <= b; i++ {
			pc.Path = append(pc.Path, along.Poly[i%n])
		}
	default:
		return pc, fmt.Sprintf("a fence or wall goes along a road, a railway or a field (rough terrain), not %s (13.10p)", along.Kind)
	}
	return pc, ""
}

// checkMoveTerrain checks a special move of a piece to a new centre
// (13.10l).
func (s *State) checkMoveTerrain(side string, p *Piece, to table.Point) (table.Vector, string) {
	if p.MovedBy != "" && p.MovedBy != side {
		return table.Vector{}, fmt.Sprintf("%s moved %s: the other player may not move or swap it (13.10l)", p.MovedBy, p.ID)
	}
	if p.Path != nil {
		return table.Vector{}, "only area terrain is moved"
	}
	v := to.Sub(p.Poly.Centroid())
	if why := s.checkArea(p.Kind, p.Poly.Translate(v), p.ID); why != "" {
		return v, why
	}
	return v, ""
}

// swappable kinds for the Offensive battlefield (13.7f).
var swappable = []string{Hill, Woods, Rough, BuiltUp}

// checkSwap checks the Offensive battlefield's swap of two pieces by
// their geometric centres (13.7f).
func (s *State) checkSwap(side string, a, b *Piece) string {
	switch {
	case a.ID == b.ID:
		return "swap two different pieces"
	case !slices.Contains(swappable, a.Kind) || !slices.Contains(swappable, b.Kind):
		return "only hills, woods, rough terrain and built-up terrain are swapped (13.7f)"
	}
	for _, p := range []*Piece{a, b} {
		if p.MovedBy != "" && p.MovedBy != side {
			return fmt.Sprintf("%s moved %s: the other player may not move or swap it (13.10l)", p.MovedBy, p.ID)
		}
	}
	v := b.Poly.Centroid().Sub(a.Poly.Centroid())
	if why := s.checkArea(a.Kind, a.Poly.Translate(v), a.ID, b.ID); why != "" {
		return a.ID + " at " + b.ID + "'s centre: " + why
	}
	if why := s.checkArea(b.Kind, b.Poly.Translate(v.Neg()), a.ID, b.ID); why != "" {
		return b.ID + " at " + a.ID + "'s centre: " + why
	}
	if table.OverlapConvex(a.Poly.Translate(v), b.Poly.Translate(v.Neg())) {
		return "the two pieces would stand on each other (13.10o)"
	}
	return ""
}

// checkFort checks a section of field fortifications (13.10m; 15.5 is
// not in the seeds: a straight section of the scenario's length at most,
// not in the opponent's deployment zone, over no impassable terrain).
func (s *State) checkFort(side string, a, b table.Point) string {
	switch {
	case a == b:
		return "a section runs between two points"
	case table.Distance(a, b) > s.Scn.FortLength:
		return fmt.Sprintf("a section of field fortifications is at most %s long (R17)", inch(s.Scn.FortLength))
	case !s.onTable([]table.Point{a, b}):
		return "it must lie on the table"
	case s.pathInZone(s.other(side), []table.Point{a, b}):
		return "not in the opponent's deployment zone"
	}
	for _, p := range s.Pieces {
		if k := s.kind(&p); k.Move == Impassable {
			if p.Path == nil && p.Poly.MeetsInterior(table.Seg(a, b)) || p.Path != nil && table.Polyline(p.Path).IntersectsSegment(table.Seg(a, b)) {
				return fmt.Sprintf("not over %s, which is impassable", p.ID)
			}
		}
	}
	return ""
}

// polyInts flattens points for a fact (x, y, x, y … in micrometres).
func polyInts(pts []table.Point) []int64 {
	out := make([]int64, 0, 2*len(pts))
	for _, p := range pts {
		out = append(out, int64(p.X), int64(p.Y))
	}
	return out
}

// intsPoly reads what polyInts wrote.
func intsPoly(v []int64) []table.Point {
	out := make([]table.Point, 0, len(v)/2)
	for i := 0; i+1 < len(v); i += 2 {
		out = append(out, table.Pt(table.Length(v[i]), table.Length(v[i+1])))
	}
	return out
}
