package gbacw

import (
	"fmt"
	"slices"
	"strings"

	"pbem/engine"
	"pbem/engine/hex"
)

// The board (docs/DESIGN.md, Boards in the mail): a window of the hex map in the mail,
// the whole map attached. Each hex shows its number, its terrain, level
// and road on the fill line, its top unit on the label line (its code,
// upper case for the Union and lower case for the Confederacy, its order
// letter and its state), a second unit on the fill line, a '*' when a
// leader is there, and a facing mark: '@' inside the hex next to the
// vertex the top unit faces, or a March column's faced hexside drawn
// with '#'. Hexside features are drawn on the hex edges.
var terrainGlyph = map[string]string{"clear": ".", "woods": "T", "town": "#", "marsh": "w", "water": "~"}

var sideGlyphs = []struct {
	name  string
	glyph rune
}{{"bridge", 'H'}, {"ford", '+'}, {"stream", '~'}, {"crest", '"'}, {"wall", ':'}}

var routeGlyph = map[string]string{"pike": "=", "road": "-", "trail": ":"}

var orderLetter = map[string]string{Attack: "A", Advance: "V", March: "M", Reserve: "R"}

var legend = []string{
	" terrain . clear  T woods  # town  w marsh  ~ water; the digit is the level",
	" roads   - road  = pike  : trail    sides ~ stream  + ford  H bridge",
	"         \" crest (blocks LOS)  : wall (blocks LOS)",
	" units   USA upper case, CSA lower; order A attack V advance M march",
	"         R reserve; ! disordered  x routed; * a leader in the hex",
	" facing  @ next to the vertex the top unit faces (its two front hexes",
	"         meet there); # the side a March column faces",
}

func (s *State) code(u *Unit) string {
	c := s.def(u).Code
	if u.Side == CSA {
		c = strings.ToLower(c)
	}
	return c
}

func (s *State) lcode(l *Leader) string {
	c := s.ldef(l).Code
	if l.Side == CSA {
		c = strings.ToLower(c)
	}
	return c
}

func pad(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s + strings.Repeat(" ", n-len(s))
}

func (s *State) cell(h hex.Hex) hex.Cell {
	d, ok := s.Scn.Hex(h)
	if !ok {
		return hex.Cell{}
	}
	g := terrainGlyph[d.Terrain]
	if g == "" {
		g = "?"
	}
	lv := " "
	if d.Level > 0 {
		lv = fmt.Sprint(d.Level)
	}
	rt := " "
	if rs := s.Scn.RoutesIn(h); len(rs) > 0 {
		rt = routeGlyph[rs[0]]
	}
	if len(s.leadersAt(h)) > 0 {
		rt = "*"
	}
	us := s.unitsAt(h)
	c := hex.Cell{Fill: g + " " + lv + " " + rt}
	if len(us) > 1 {
		c.Fill = pad(s.code(us[1]), 3) + g + lv
		if len(s.leadersAt(h)) > 0 {
			c.Fill = pad(s.code(us[1]), 3) + g + "*"
		}
	}
	switch {
	case len(us) > 0:
		u := us[0]
		st := " "
		switch {
		case u.Routed:
			st = "x"
		case u.Disordered:
			st = "!"
		}
		c.Label = pad(s.code(u), 3) + orderLetter[u.Order] + st
	case len(s.leadersAt(h)) > 0:
		c.Label = s.lcode(s.leadersAt(h)[0]) + "*"
	}
	return c
}

func (s *State) edge(side hex.Hexside) (rune, bool) {
	fs := s.Scn.Sides[side]
	for _, sg := range sideGlyphs {
		if slices.Contains(fs, sg.name) {
			return sg.glyph, true
		}
	}
	return 0, false
}

// marks are the facing marks of every hex's top unit.
func (s *State) marks() []hex.Mark {
	var out []hex.Mark
	for i := range s.Units {
		u := s.Units[i]
		if !u.onMap() {
			continue
		}
		if us := s.unitsAt(u.Hex); us[0].Name != u.Name {
			continue
		}
		if u.onSide() {
			out = append(out, hex.Mark{Hex: u.Hex, Side: hex.Direction(u.Facing), OnSide: true, Glyph: '#'})
		} else {
			out = append(out, hex.Mark{Hex: u.Hex, Vertex: hex.Vertex(u.Facing), Glyph: '@'})
		}
	}
	return out
}

func (s *State) draw(win hex.Window) []string {
	return hex.Overlay(hex.Draw(win, s.cell, s.edge), win, s.marks())
}

// focus is what the window centres on: this activation's moves, else
// the viewer's units, else every unit.
func (s *State) focus(v engine.Viewer) []hex.Hex {
	if len(s.Focus) > 0 {
		return s.Focus
	}
	var hs []hex.Hex
	for i := range s.Units {
		if u := s.Units[i]; u.onMap() && (v.Side == "" || u.Side == v.Side) {
			hs = append(hs, u.Hex)
		}
	}
	return hs
}

const windowRows = 7

func render(st *State, v engine.Viewer) engine.Board {
	grid := st.Scn.Grid
	head := st.header(v)
	win, err := hex.ChooseWindow(grid, st.focus(v), hex.MaxWindowCols, windowRows)
	if err != nil {
		win, _ = hex.ChooseWindow(grid, nil, hex.MaxWindowCols, windowRows)
	}
	var w strings.Builder
	for _, l := range head {
		w.WriteString(l + "\n")
	}
	fmt.Fprintf(&w, " window %s to %s (the whole map, %s to %s, is attached)\n", hex.At(win.Col, win.Row), hex.At(win.Col+win.Cols-1, win.Row+win.Rows-1), grid.First(), grid.Last())
	for _, l := range st.draw(win) {
		w.WriteString(l + "\n")
	}
	w.WriteString("\n")
	for _, l := range legend {
		w.WriteString(l + "\n")
	}
	w.WriteString("\n")
	for _, l := range st.roster(v) {
		w.WriteString(l + "\n")
	}

	var f strings.Builder
	for _, l := range head {
		f.WriteString(l + "\n")
	}
	for c := grid.FirstCol; c < grid.FirstCol+grid.Cols; c += hex.MaxWindowCols {
		strip := hex.Window{Col: c, Row: grid.FirstRow, Cols: min(hex.MaxWindowCols, grid.FirstCol+grid.Cols-c), Rows: grid.Rows}
		fmt.Fprintf(&f, "\n columns %02d to %02d\n", strip.Col, strip.Col+strip.Cols-1)
		for _, l := range st.draw(strip) {
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
	for _, l := range st.roster(v) {
		f.WriteString(l + "\n")
	}
	return engine.Board{Window: w.String(), Full: f.String()}
}

var phaseNames = map[string]string{PhaseStart: "before the first turn", PhaseCommand: "Command Segment (3.2)", PhaseActivation: "Activation Segment (3.3)",
	PhaseCommanders: "End of Turn: Commander Movement (3.4)", PhaseVerdict: "the last turn is over", PhaseOver: "game over"}

func (st *State) header(v engine.Viewer) []string {
	out := []string{fmt.Sprintf(" GBACW  %s", st.Scn.Name)}
	line := fmt.Sprintf(" turn %d of %d, %s", max(st.Turn, 1), st.Scn.Turns, phaseNames[st.Phase])
	if st.Phase != PhaseStart && st.Phase != PhaseOver {
		ini := st.Initiative
		if ini == "" {
			ini = "no one (a tie)"
		}
		line += "; initiative: " + ini
	}
	out = append(out, line)
	if st.Act != nil {
		side, am, _ := strings.Cut(st.Act.AM, "|")
		out = append(out, fmt.Sprintf(" activated: %s's %s AM (%s); %d AMs left in the pool", side, am, joinAnd(st.Act.Acting), len(st.Pool)))
	}
	if a := st.asked(); a != nil {
		switch {
		case a.Side == "":
			out = append(out, " waiting for the referee: "+a.What)
		case v.Referee || v.Side == a.Side:
			out = append(out, " waiting for "+a.Side+": "+a.What)
		default:
			// What is asked is the other side's: it names its units
			// and says "your" to it.
			out = append(out, " waiting for "+a.Side+" to answer")
		}
	}
	if st.Phase == PhaseOver {
		out = append(out, " game over: "+st.Result)
	}
	if st.Scn.Tables.Sample {
		out = append(out, " (SAMPLE charts - not from the published game)")
	}
	return wrap(out, 78)
}

// wrap keeps lines within width (engine.WrapLines).
func wrap(lines []string, width int) []string { return engine.WrapLines(lines, width) }

// roster lists every unit and leader, and the viewer's own standing
// orders (a referee sees both sides').
func (st *State) roster(v engine.Viewer) []string {
	out := []string{" code name               type  sp coh  ma ord  face hex  state"}
	var gone []string
	for _, side := range Sides {
		for i := range st.Units {
			u := st.Units[i]
			if u.Side != side {
				continue
			}
			if u.Removed {
				gone = append(gone, u.Name)
				continue
			}
			d := st.def(u)
			name := u.Name
			if rs := []rune(name); len(rs) > 18 {
				name = string(rs[:17]) + "~"
			}
			typ := d.Type
			if d.Type == Cavalry && !u.Mounted {
				typ = "dcav"
			}
			var state []string
			for _, x := range []struct {
				on   bool
				word string
			}{{u.Off, "to arrive"}, {u.Routed, "routed"}, {u.Disordered && !u.Routed, "disordered"}, {st.collapsed(u), "collapsed"},
				{u.OOC, "out of command"}, {u.Blown, "blown"}, {st.extended(u), "extended"}, {u.Refused, "refused"}, {u.Fatigue > 0, fmt.Sprintf("fatigue %d", u.Fatigue)}} {
				if x.on {
					state = append(state, x.word)
				}
			}
			hx := u.Hex.String()
			if u.Off {
				hx = "----"
			}
			out = append(out, strings.TrimRight(fmt.Sprintf(" %-4s %-18s %-4s %2d/%-2d %d  %2d %-4s %-4s %s %s",
				st.code(u), name, typ, u.SP, d.SP, st.cohesion(u), st.ma(u)/2, strings.ToUpper(u.Order[:1])+u.Order[1:3], facingShort(u), hx, strings.Join(state, ", ")), " "))
		}
	}
	if len(gone) > 0 {
		out = append(out, " gone: "+strings.Join(gone, ", "))
	}
	var ls []string
	for i := range st.Leaders {
		l := &st.Leaders[i]
		rank, name := st.command(l)
		s := fmt.Sprintf("%s %s (%s of %s, %d* range %d) %s", st.lcode(l), l.Name, rank, name, st.stars(l), st.cmdRange(l), l.Hex)
		switch {
		case l.Killed:
			s = fmt.Sprintf("%s %s (%s) killed", st.lcode(l), l.Name, rank)
		case l.Off:
			s = fmt.Sprintf("%s %s (%s) to arrive", st.lcode(l), l.Name, rank)
		case l.OOC:
			s += " out of command"
		}
		ls = append(ls, s)
	}
	out = append(out, " leaders: "+strings.Join(ls, "; "))
	for _, side := range Sides {
		if v.Referee || v.Side == side {
			l := st.standingList(side)
			if len(l) == 0 {
				l = []string{"none (every reaction is asked by mail)"}
			}
			out = append(out, fmt.Sprintf(" %s standing orders: %s", side, strings.Join(l, "; ")))
		}
	}
	return wrap(out, 78)
}

func facingShort(u *Unit) string {
	if u.onSide() {
		return hex.Direction(u.Facing).String() + "|"
	}
	return hex.Vertex(u.Facing).String()
}

// places lists the named hexes, and the objectives with who holds them.
func (st *State) places() []string {
	var ps []string
	for _, p := range st.Scn.Places {
		ps = append(ps, p.Hex.String()+" "+p.Name)
	}
	out := []string{" places: " + strings.Join(ps, "; ")}
	var os []string
	for i, o := range st.Scn.Objectives {
		os = append(os, fmt.Sprintf("%s %d VP held by %s", o.Hex, o.VP, st.Held[i]))
	}
	if len(os) > 0 {
		out = append(out, " objectives: "+strings.Join(os, "; "))
	}
	return wrap(out, 78)
}
