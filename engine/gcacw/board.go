package gcacw

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pbem/engine"
	"pbem/engine/hex"
)

// Board glyphs (docs/DESIGN.md, Boards in the mail), one meaning each (the legend lists
// them all, and TestBoardGlyphsHaveOneMeaning holds it): terrain fills,
// in-hex features, routes (in the hex and on each hexside they cross),
// hexside features, crossings, and the viewer's enemy ZOC.
var terrainGlyph = map[string]string{
	Clear: ".", Rolling: "n", Rough: ";", Woods: "T", City: "#", Swamp: "w",
	ProvisionalSwamp: "u", Hill: "^", Mountain: "M",
}

// in-hex features, in the order they are drawn.
var featureGlyphs = []struct {
	name  string
	glyph rune
}{{Village, 'o'}, {RRStation, 'S'}, {Landing, 'L'}, {Redoubt, 'R'}}

// routes, most important first: the first one across a hexside is drawn
// on it; every one through a hex is drawn in it.
var routeGlyphs = []struct {
	name  string
	glyph rune
}{{Pike, '='}, {Railroad, '%'}, {Road, '-'}, {Trail, ':'}}

// hexside features along a side, most important first.
var baseGlyphs = []struct {
	name  string
	glyph rune
}{{RiverMajor, 'W'}, {RiverMinor, '~'}, {Creek, ','}, {Ridge, '"'}, {CountyBorder, '|'}}

// crossings of a river or creek, most important first.
var crossGlyphs = []struct {
	name  string
	glyph rune
}{{Bridge, 'H'}, {Ford, '+'}, {Ferry, 'f'}, {Dam, 'd'}}

// Marks of the viewer's enemy ZOC (GCACW 2.4), after the hex number.
const (
	zocGlyph        = 'Z'
	restrictedGlyph = 'z'
	overflowGlyph   = '&' // more in the hex than fits: see the list
	fatigueGlyph    = '!'
	leaderGlyph     = '*'
)

var legend = []string{
	" terrain  . clear  n rolling  ; rough  T woods  # city  w swamp  ^ hill",
	"          u provisional swamp  M mountain  water  (off) partial hex",
	" in hex   o village  S RR station  L landing  R redoubt",
	" routes   = pike  - road  : trail  % railroad, in the hex and on each",
	"          hexside they cross",
	" sides    ~ minor river  W major river  , creek  \" ridge  | county line",
	"          crossings: + ford  H bridge  f ferry  d dam",
	" ZOC      after the hex number, on a player's board: Z enemy ZOC,",
	"          z enemy Restricted ZOC only (GCACW 2.4)",
	" units    ORNE Union, rusk Confederate, ! fatigue 3 or 4, *Hale leader,",
	"          & more than fits (see the list)",
}

// unitCode is a unit's code on the board: upper case for the Union, lower
// case for the Confederacy, then ! at fatigue 3 or more.
func (s *State) unitCode(u *Unit) string {
	c := u.ID
	if u.Side == CSA {
		c = strings.ToLower(c)
	}
	if u.Fatigue >= 3 {
		c += string(fatigueGlyph)
	}
	return c
}

// fill is a hex's fill line: its terrain, with its in-hex features and
// the routes through it between (GCACW 2.3a, 2.3g).
func (s *State) fill(d HexData) string {
	if d.Partial {
		return "(off)"
	}
	if d.Terrain == Water {
		return "water"
	}
	g := terrainGlyph[d.Terrain]
	var inner []rune
	for _, f := range featureGlyphs {
		if slices.Contains(d.Features, f.name) {
			inner = append(inner, f.glyph)
		}
	}
	for _, r := range routeGlyphs {
		if slices.Contains(s.Scn.Map.RoutesThrough(d.Hex), r.name) {
			inner = append(inner, r.glyph)
		}
	}
	switch in := string(inner); {
	case len(inner) == 0:
		return g + " " + g
	case len(inner) <= 3:
		return g + " " + in + " " + g
	case len(inner) <= 5:
		return g + in + g
	default:
		return in
	}
}

// labels packs a hex's units (in code order) and then their leaders into
// the three lines of a hex, and marks with & what does not fit.
func (s *State) labels(h hex.Hex) [3]string {
	var items []string
	us := s.unitsAt(h)
	for _, u := range us {
		items = append(items, s.unitCode(u))
	}
	for _, u := range us {
		for _, l := range s.leadersWith(u.ID) {
			items = append(items, string(leaderGlyph)+l.Name)
		}
	}
	var out [3]string
	line := 0
	for _, it := range items {
		for line < 3 {
			w := hex.LargeLineWidths[line]
			sep := ""
			if out[line] != "" {
				sep = " "
			}
			if len([]rune(out[line]+sep+it)) <= w {
				out[line] += sep + it
				break
			}
			if out[line] == "" { // too long for any line: cut it
				out[line] = string([]rune(it)[:w])
				break
			}
			line++
		}
		if line == 3 {
			// What is left does not fit: the last line says so.
			last := []rune(out[2])
			if len(last) >= hex.LargeLineWidths[2] {
				last = last[:hex.LargeLineWidths[2]-1]
			}
			out[2] = string(last) + string(overflowGlyph)
			break
		}
	}
	return out
}

// largeCell is what the board draws in h for viewer v.
func (s *State) largeCell(v engine.Viewer) func(hex.Hex) hex.LargeCell {
	var zoc map[hex.Hex]ZOC
	if v.Side != "" {
		zoc = s.zocMap(opponent(v.Side))
	}
	return func(h hex.Hex) hex.LargeCell {
		d, ok := s.Scn.Map.Hex(h)
		if !ok {
			return hex.LargeCell{}
		}
		c := hex.LargeCell{Fill: s.fill(d)}
		if d.Partial {
			return c
		}
		c.Lines = s.labels(h)
		if zoc != nil {
			switch zoc[h] {
			case NormalZOC:
				c.Mark = zocGlyph
			case RestrictedZOC:
				c.Mark = restrictedGlyph
			}
		}
		return c
	}
}

// sideMark is how the board draws a hexside: the feature along it, its
// crossing, and the route across it (GCACW 2.3f; routes as 2.4c, 2.4e and
// movement read them).
func (s *State) sideMark(side hex.Hexside) (hex.SideMark, bool) {
	m := &s.Scn.Map
	var sm hex.SideMark
	fs := m.SideFeatures(side)
	for _, g := range baseGlyphs {
		if slices.Contains(fs, g.name) {
			sm.Base = g.glyph
			break
		}
	}
	for _, g := range crossGlyphs {
		if slices.Contains(fs, g.name) {
			sm.Cross = g.glyph
			break
		}
	}
	rs := m.RoutesAcross(side)
	for _, g := range routeGlyphs {
		if slices.Contains(rs, g.name) {
			sm.Route = g.glyph
			break
		}
	}
	return sm, sm != hex.SideMark{}
}

// focus is what the mail window centres on. For a player: the cavalry a
// question is about and the enemy unit it is about, the player's own last
// move; then all the player's units where they fit (and the enemy unit
// nearest them, and the enemy's last move), else the enemy's last move,
// the enemy unit nearest what acted, and the player's units nearest it;
// each while the window can still hold everything before it. For the referee
// and observers: the last move, else every unit.
func (s *State) focus(v engine.Viewer) []hex.Hex {
	if v.Side == USA || v.Side == CSA {
		return s.readerFocus(v.Side)
	}
	if len(s.Focus) > 0 {
		return s.Focus
	}
	var hs []hex.Hex
	for _, u := range s.live() {
		if v.Side == "" || u.Side == v.Side {
			hs = append(hs, u.Hex)
		}
	}
	return hs
}

const windowRows = 6

// readerFocus is focus for the player of side.
func (s *State) readerFocus(side string) []hex.Hex {
	var first []hex.Hex
	if a := s.Ask; a != nil && a.Side == side {
		for _, id := range a.Units {
			if u := s.unit(id); u != nil && !u.Eliminated {
				first = append(first, u.Hex)
			}
		}
		if u := s.unit(a.Unit); u != nil && !u.Eliminated {
			first = append(first, u.Hex)
		}
	}
	var moveMine, moveTheirs []hex.Hex
	if n := len(s.Focus); n > 0 {
		if s.hasFriend(side, s.Focus[n-1]) {
			moveMine = s.Focus
		} else {
			moveTheirs = s.Focus
		}
	}
	first = append(first, moveMine...)
	var own, enemy []*Unit
	for _, u := range s.live() {
		if u.Side == side {
			own = append(own, u)
		} else {
			enemy = append(enemy, u)
		}
	}
	// What the window is about: the question or the reader's own move,
	// else the enemy's move, else the reader's first unit.
	anchor := first
	if len(anchor) == 0 {
		anchor = moveTheirs
	}
	if len(anchor) == 0 && len(own) > 0 {
		anchor = []hex.Hex{own[0].Hex}
	}
	dist := func(h hex.Hex, to []hex.Hex) int {
		d := 1 << 30
		for _, t := range to {
			d = min(d, hex.Distance(h, t))
		}
		return d
	}
	slices.SortStableFunc(own, func(a, b *Unit) int { return dist(a.Hex, anchor) - dist(b.Hex, anchor) })
	var ownHexes []hex.Hex
	for _, u := range own {
		ownHexes = append(ownHexes, u.Hex)
	}
	nearest := func(to []hex.Hex) []hex.Hex {
		if len(enemy) == 0 || len(to) == 0 {
			return nil
		}
		near := enemy[0]
		for _, e := range enemy {
			if dist(e.Hex, to) < dist(near.Hex, to) {
				near = e
			}
		}
		return []hex.Hex{near.Hex}
	}
	prio := slices.Clone(first)
	if len(ownHexes) > 0 && fitsWindow(append(slices.Clone(first), ownHexes...)) {
		// All the reader's units fit: them, then the enemy's move and the
		// enemy unit nearest them.
		prio = append(prio, ownHexes...)
		prio = append(prio, nearest(ownHexes)...)
		prio = append(prio, moveTheirs...)
	} else {
		// Not all fit: what acted or was asked about, the enemy nearest
		// it, then the reader's units nearest it.
		prio = append(prio, moveTheirs...)
		prio = append(prio, nearest(anchor)...)
		prio = append(prio, ownHexes...)
	}
	var out []hex.Hex
	for _, h := range prio {
		if fitsWindow(append(slices.Clone(out), h)) {
			out = append(out, h)
		}
	}
	return out
}

// fitsWindow reports whether hexes fit in one mail window.
func fitsWindow(hs []hex.Hex) bool {
	lo, hi := hs[0], hs[0]
	for _, h := range hs {
		lo.Col, lo.Row = min(lo.Col, h.Col), min(lo.Row, h.Row)
		hi.Col, hi.Row = max(hi.Col, h.Col), max(hi.Row, h.Row)
	}
	return hi.Col-lo.Col < hex.LargeMaxWindowCols && hi.Row-lo.Row < windowRows
}

func render(st *State, v engine.Viewer) engine.Board {
	grid := st.Scn.Map.Grid()
	head := st.header()
	win, err := hex.ChooseWindow(grid, st.focus(v), hex.LargeMaxWindowCols, windowRows)
	if err != nil {
		win, _ = hex.ChooseWindow(grid, nil, hex.LargeMaxWindowCols, windowRows)
	}
	cell := st.largeCell(v)
	var w strings.Builder
	for _, l := range head {
		w.WriteString(l + "\n")
	}
	fmt.Fprintf(&w, " window %s to %s (the whole map, %s to %s, is attached)\n", hex.At(win.Col, win.Row), hex.At(win.Col+win.Cols-1, win.Row+win.Rows-1), grid.First(), grid.Last())
	for _, l := range hex.DrawLarge(win, cell, st.sideMark) {
		w.WriteString(l + "\n")
	}
	w.WriteString("\n")
	for _, l := range legend {
		w.WriteString(l + "\n")
	}
	w.WriteString("\n")
	for _, l := range st.roster() {
		w.WriteString(l + "\n")
	}

	var f strings.Builder
	for _, l := range head {
		f.WriteString(l + "\n")
	}
	// The whole map as one drawing (an attachment, read in a text
	// viewer without wrapping): as wide as the map needs, rather than
	// column strips a reader must join (8 characters a hex column).
	whole := hex.Window{Col: grid.FirstCol, Row: grid.FirstRow, Cols: grid.Cols, Rows: grid.Rows}
	fmt.Fprintf(&f, "\n the whole map, %s to %s, %d characters wide (view it without line wrapping)\n", grid.First(), grid.Last(), whole.LargeWidth())
	for _, l := range hex.DrawLarge(whole, cell, st.sideMark) {
		f.WriteString(l + "\n")
	}
	f.WriteString("\n")
	for _, l := range legend {
		f.WriteString(l + "\n")
	}
	f.WriteString("\n")
	for _, l := range st.places() {
		f.WriteString(l + "\n")
	}
	for _, l := range st.chart() {
		f.WriteString(l + "\n")
	}
	f.WriteString("\n")
	for _, l := range st.roster() {
		f.WriteString(l + "\n")
	}
	return engine.Board{Window: w.String(), Full: f.String()}
}

func (st *State) header() []string {
	out := []string{fmt.Sprintf(" GCACW  %s  (game %s)", st.Scn.Name, st.Scn.Game)}
	line := fmt.Sprintf(" turn %d of %d, %s", st.Turn, st.Scn.Turns, phaseName(st))
	if st.Phase == PhaseCycle && st.Cycle.N > 0 {
		line += fmt.Sprintf(", Action Phase %d", st.Cycle.N)
	}
	out = append(out, line)
	if st.Phase == PhaseCycle && st.Cycle.Holder != "" {
		l := fmt.Sprintf(" initiative: %s holds it (rolled %s)", st.Cycle.Holder, st.Cycle.rollText())
		if st.Cycle.Recorded > 0 {
			l += fmt.Sprintf(", die recorded: %d", st.Cycle.Recorded)
		}
		out = append(out, l)
	}
	if st.Event != "" {
		out = append(out, " random event: "+st.Event)
	}
	if len(st.Focus) > 1 {
		out = append(out, " last move: "+strings.Join(hexStrs(st.Focus), "-"))
	}
	if st.Phase != PhaseOver {
		out = append(out, st.scoreLine())
	}
	if st.Phase == PhaseOver {
		w := st.Winner
		if w == "" {
			w = "a draw"
		}
		out = append(out, " game over: "+w+"; "+st.Result)
	} else {
		out = append(out, " "+waitingFor(st, ""))
	}
	for _, n := range st.Scn.Tables.Notes {
		out = append(out, " ("+n+")")
	}
	return wrap(out, 78)
}

// wrap breaks lines longer than width at spaces, indenting continuations.
func wrap(lines []string, width int) []string { return engine.WrapLines(lines, width) }

// combat is the Combat value shown for a unit: its Manpower when
// organized; when disorganized, the value the Strength table gives (R3),
// or "?" without one.
func (st *State) combat(u *Unit) string {
	if !u.Disorganized {
		return fmt.Sprint(u.Manpower)
	}
	for _, sv := range st.Scn.Tables.Strength {
		if sv.Manpower == u.Manpower {
			return halves(sv.DisorgHalf)
		}
	}
	return "?"
}

// roster lists every unit and leader (docs/DESIGN.md, Boards in the mail).
func (st *State) roster() []string {
	out := []string{" code name           size type side str  cv  org    fat exh  hex   leaders"}
	var gone []string
	for _, side := range Sides {
		for _, u := range st.Units {
			if u.Side != side {
				continue
			}
			if u.Eliminated {
				gone = append(gone, u.ID)
				continue
			}
			name := u.Name
			if rs := []rune(name); len(rs) > 14 {
				name = string(rs[:13]) + "~"
			}
			org, exh := "org", "no"
			if u.Disorganized {
				org = "disorg"
			}
			if u.Exhausted {
				exh = "yes"
			}
			var ls []string
			for _, l := range st.leadersWith(u.ID) {
				ls = append(ls, l.ID)
			}
			out = append(out, strings.TrimRight(fmt.Sprintf(" %-4s %-14s %-4s %-4s %-4s %3d %4s  %-6s %3d %-4s %s  %s",
				u.ID, name, u.Size, u.Type, u.Side, u.Manpower, st.combat(u), org, u.Fatigue, exh, u.Hex, strings.Join(ls, " ")), " "))
		}
	}
	if len(gone) > 0 {
		out = append(out, " eliminated: "+strings.Join(gone, ", "))
	}
	var ls []string
	for _, l := range st.Leaders {
		if l.Removed {
			ls = append(ls, fmt.Sprintf("%s %s %s out of play", l.ID, l.Name, leaderTag(l)))
			continue
		}
		ls = append(ls, fmt.Sprintf("%s %s %s with %s", l.ID, l.Name, leaderTag(l), l.With))
	}
	out = append(out, " leaders: "+strings.Join(ls, "; "))
	return wrap(out, 78)
}

func leaderTag(l *Leader) string {
	t := l.Kind
	if l.Cavalry {
		t = "cavalry " + t
	}
	if l.Kind == ArmyLeader {
		return fmt.Sprintf("(%s of %s, cmd %d)", t, l.Commands, l.Command)
	}
	return fmt.Sprintf("(%s, %s, tac %d cmd %d)", t, l.Commands, l.Tactical, l.Command)
}

// places lists the named hexes and hexsides of the map.
func (st *State) places() []string {
	var ps []string
	for _, h := range st.Scn.Map.Hexes {
		if h.Name != "" {
			ps = append(ps, h.Hex.String()+" "+h.Name)
		}
	}
	for _, s := range st.Scn.Map.Sides {
		if s.Name != "" {
			ps = append(ps, s.Side.String()+" "+s.Name)
		}
	}
	for _, r := range st.Scn.Map.Routes {
		if r.Name != "" {
			ps = append(ps, fmt.Sprintf("%s-%s %s", r.Hexes[0], r.Hexes[len(r.Hexes)-1], r.Name))
		}
	}
	return wrap([]string{" places: " + strings.Join(ps, "; ")}, 78)
}

// chart lists the Terrain Effects Chart the game plays with (R1), so
// movement costs can be read off the whole map.
func (st *State) chart() []string {
	tec := st.Scn.Tables.Terrain
	if tec == nil {
		return []string{"", " No Terrain Effects Chart: the referee rules where each march stops (R1)."}
	}
	cell := func(n int) string {
		if n == Prohibited {
			return "P"
		}
		return strconv.Itoa(n)
	}
	var rows []string
	for _, n := range tecNames() {
		if r, ok := tec.Cost(n, Infantry); ok || r != 0 {
			c, _ := tec.Cost(n, Cavalry)
			a, _ := tec.Cost(n, Artillery)
			rows = append(rows, fmt.Sprintf("%s %s/%s/%s", n, cell(r), cell(c), cell(a)))
		}
	}
	return append([]string{""}, wrap([]string{" Terrain Effects Chart, MP for infantry/cavalry/artillery (P: prohibited; a hexside or in-hex feature adds its cost; a route replaces the terrain): " + strings.Join(rows, "; ")}, 78)...)
}
