package gcacw

import (
	"fmt"
	"slices"
	"strings"

	"pbem/engine"
	"pbem/engine/hex"
)

// Board glyphs (DESIGN.md section 9): terrain fills, one in-hex feature
// per hex, and hexside marks.
var terrainGlyph = map[string]string{
	Clear: ".", Rolling: "n", Rough: ";", Woods: "T", City: "#", Swamp: "w",
	ProvisionalSwamp: "u", Hill: "^", Mountain: "M", Water: "~",
}

// in-hex features, most important first (one is shown per hex).
var featureGlyphs = []struct{ name, glyph string }{
	{Redoubt, "R"}, {RRStation, "S"}, {Landing, "L"}, {Village, "o"},
	{Pike, "="}, {Railroad, "%"}, {Road, "-"}, {Trail, ":"},
}

// hexside features, most important first (one mark per hexside).
var sideGlyphs = []struct {
	name  string
	glyph rune
}{
	{Bridge, 'H'}, {Ford, '+'}, {Ferry, 'f'}, {Dam, 'd'}, {RiverMajor, '='},
	{RiverMinor, '~'}, {Creek, ','}, {Ridge, '"'}, {CountyBorder, ':'},
}

var legend = []string{
	" terrain  . clear  n rolling  ; rough  T woods  # city  w swamp  ^ hill",
	"          u provisional swamp  M mountain  ~ water  (off) partial hex",
	" in hex   = pike  - road  : trail  % railroad  o village  S RR station",
	"          L landing  R redoubt",
	" sides    ~ minor river  = major river  , creek  \" ridge  : county line",
	"          + ford  H bridge  f ferry  d dam",
	" units    UPPER case USA, lower case CSA; * leader with it; ! fatigue 3+",
}

// unitCode is a unit's code on the board: upper case for the Union, lower
// case for the Confederacy, then * if a leader is with it and ! at
// fatigue 3 or more.
func (s *State) unitCode(u *Unit) string {
	c := u.ID
	if u.Side == CSA {
		c = strings.ToLower(c)
	}
	if len(s.leadersWith(u.ID)) > 0 {
		c += "*"
	}
	if u.Fatigue >= 3 {
		c += "!"
	}
	return c
}

func (s *State) cell(h hex.Hex) hex.Cell {
	d, ok := s.Scn.Map.Hex(h)
	if !ok {
		return hex.Cell{}
	}
	if d.Partial {
		return hex.Cell{Fill: "(off)"}
	}
	g := terrainGlyph[d.Terrain]
	fill := g + " " + g
	for _, fg := range featureGlyphs {
		if slices.Contains(d.Features, fg.name) || slices.Contains(s.Scn.Map.RoutesThrough(h), fg.name) {
			fill = g + " " + fg.glyph + " " + g
			break
		}
	}
	us := s.unitsAt(h)
	c := hex.Cell{Fill: fill}
	if len(us) > 0 {
		c.Label = s.unitCode(us[0])
	}
	if len(us) > 1 {
		second := s.unitCode(us[1])
		if len(us) > 2 {
			second += "+"
		}
		f := g + " " + second
		if len(f) > hex.FillWidth {
			f = g + second
		}
		if len(f) > hex.FillWidth {
			f = f[:hex.FillWidth-1] + "+"
		}
		c.Fill = f
	}
	return c
}

func (s *State) edge(side hex.Hexside) (rune, bool) {
	fs := s.Scn.Map.SideFeatures(side)
	for _, sg := range sideGlyphs {
		if slices.Contains(fs, sg.name) {
			return sg.glyph, true
		}
	}
	return 0, false
}

// focus is what the mail window centres on: the last move, else the
// viewer's units, else every unit.
func (s *State) focus(v engine.Viewer) []hex.Hex {
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

const windowRows = 7

func render(st *State, v engine.Viewer) engine.Board {
	grid := st.Scn.Map.Grid()
	head := st.header()
	win, err := hex.ChooseWindow(grid, st.focus(v), hex.MaxWindowCols, windowRows)
	if err != nil {
		win, _ = hex.ChooseWindow(grid, nil, hex.MaxWindowCols, windowRows)
	}
	var w strings.Builder
	for _, l := range head {
		w.WriteString(l + "\n")
	}
	fmt.Fprintf(&w, " window %s to %s (the whole map, %s to %s, is attached)\n", hex.At(win.Col, win.Row), hex.At(win.Col+win.Cols-1, win.Row+win.Rows-1), grid.First(), grid.Last())
	for _, l := range hex.Draw(win, st.cell, st.edge) {
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
	for c := grid.FirstCol; c < grid.FirstCol+grid.Cols; c += hex.MaxWindowCols {
		strip := hex.Window{Col: c, Row: grid.FirstRow, Cols: min(hex.MaxWindowCols, grid.FirstCol+grid.Cols-c), Rows: grid.Rows}
		fmt.Fprintf(&f, "\n columns %02d to %02d\n", strip.Col, strip.Col+strip.Cols-1)
		for _, l := range hex.Draw(strip, st.cell, st.edge) {
			f.WriteString(l + "\n")
		}
	}
	f.WriteString("\n")
	for _, l := range legend {
		f.WriteString(l + "\n")
	}
	f.WriteString("\n")
	for _, l := range st.places() {
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
func wrap(lines []string, width int) []string {
	var out []string
	for _, l := range lines {
		rs := []rune(l)
		for len(rs) > width {
			cut := width
			for cut > 4 && rs[cut] != ' ' {
				cut--
			}
			if cut <= 4 {
				cut = width
			}
			out = append(out, strings.TrimRight(string(rs[:cut]), " "))
			rs = append([]rune("   "), []rune(strings.TrimLeft(string(rs[cut:]), " "))...)
		}
		out = append(out, string(rs))
	}
	return out
}

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

// roster lists every unit and leader (DESIGN.md section 9).
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
