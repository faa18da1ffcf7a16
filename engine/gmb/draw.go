package gmb

import (
	"fmt"
	"slices"
	"strings"

	"pbem/engine"
	"pbem/engine/draw"
	"pbem/engine/table"
)

// The drawn board (engine.Drawer, the picture in the mails): the same table scene as the
// ASCII board of the same view (scene), drawn by the shared tabletop
// drawer in inches. It shows what the ASCII board shows, all of it open
// to every viewer (see view): terrain pieces by colour (areas) and line
// (linear terrain), the operational bases, bridges, strategic points and
// patrol markers; each unit's base with its front edge heavy and its
// facing marked; the generals, each behind the units of the formation he
// commands (GMB gives generals no place of their own on the table: the
// mark says whose units they are); the deployment zones once Player A is
// known (13.7e); a scale bar of 12 inches; and, for the side moving now
// (7.1b), range rings around each unit of the active corps that may make
// a normal move: its range (7.1f) and its range on a March order (7.2e).
// Nothing secret is drawn: no hand, deck, drawn cards or army tactic.
// Before the table's size is chosen (13.1) there is no table to draw.
var areaColours = map[string]draw.Color{
	Hill: draw.RGB(214, 190, 140), Woods: draw.RGB(120, 170, 100), Rough: draw.RGB(196, 186, 140),
	BuiltUp: draw.RGB(150, 110, 90), "swamp": draw.RGB(150, 185, 160), baseArea: draw.RGB(235, 205, 120),
}

var lineLooks = map[string]table.LineLook{
	River: {Color: draw.RGB(70, 130, 210), Width: 6}, Stream: {Color: draw.RGB(90, 150, 220), Width: 2.5},
	Road: {Color: draw.RGB(170, 110, 60), Width: 3}, Railway: {Color: draw.RGB(60, 60, 60), Width: 2},
	Fence: {Color: draw.RGB(110, 80, 50), Width: 1.2}, Wall: {Color: draw.RGB(90, 90, 90), Width: 2},
	Fortification: {Color: draw.RGB(120, 60, 40), Width: 3},
}

// keyOrder lists the key's terrain in a fixed order.
var keyOrder = []string{Hill, Woods, Rough, BuiltUp, "swamp", baseArea, River, Stream, Road, Railway, Fence, Wall, Fortification}

const (
	baseArea = "operational base"
	zoneArea = "deployment zone"
)

var (
	unionFill       = draw.RGB(40, 70, 150)
	confederateFill = draw.RGB(175, 175, 170)
	otherFills      = []draw.Color{draw.RGB(170, 40, 40), draw.RGB(60, 120, 60)}
	ringColour      = draw.RGB(160, 40, 40)
	bridgeFill      = draw.RGB(140, 100, 60)
)

// drawnPerInch is pixels per inch of the drawn table: a 72" table is a
// little over 1000 pixels wide.
const drawnPerInch = 14

// Draw implements engine.Drawer.
func (rules) Draw(v engine.View) *draw.Scene {
	vw, ok := v.(view)
	if !ok || vw.st.TableSize == "" {
		return nil
	}
	return vw.picture()
}

// sideFill is a side's colour: Union blue, Confederate grey, others by
// their place in the scenario.
func (st *State) sideFill(side string) (fill, ink draw.Color) {
	switch side {
	case "Union":
		return unionFill, draw.RGB(255, 255, 255)
	case "Confederate":
		return confederateFill, draw.RGB(20, 20, 20)
	}
	i := slices.IndexFunc(st.Sides, func(s Side) bool { return s.Name == side })
	return otherFills[max(i, 0)%len(otherFills)], draw.RGB(255, 255, 255)
}

// terrainName is a scene area's or line's terrain kind ("swamp
// (impassable)" is swamp).
func terrainName(name string) string {
	n, _, _ := strings.Cut(name, " (")
	return n
}

func (vw view) picture() *draw.Scene {
	st := vw.st
	sc := st.scene()
	// The picture draws bridges, points and markers as shapes of their
	// own (marks), not as the ASCII board's letters; and the deployment
	// zones under everything.
	sc.Labels = nil
	if st.PlayerA != "" {
		for _, sd := range st.Sides {
			sc.Areas = append(sc.Areas, table.Area{Name: zoneArea + " " + sd.Name, Fill: '.', Shape: st.zone(sd.Name), Layer: -1})
		}
	}
	var units []*Unit // as scene lists their pieces
	for i := range st.Units {
		if u := &st.Units[i]; u.Placed && !u.Removed {
			units = append(units, u)
		}
	}
	title := strings.Split(strings.TrimRight(vw.heading(), "\n"), "\n")
	p := table.Picture{Table: sc, Unit: table.Inches, PerUnit: drawnPerInch, Title: title, ClipRings: true}
	p.Areas = func(name string) draw.Color {
		if side, ok := strings.CutPrefix(name, zoneArea+" "); ok {
			f, _ := st.sideFill(side)
			return f.Alpha(40)
		}
		if c, ok := areaColours[terrainName(name)]; ok {
			return c
		}
		return draw.RGB(180, 180, 180)
	}
	p.Lines = func(name string) table.LineLook {
		if l, ok := lineLooks[terrainName(name)]; ok {
			return l
		}
		return table.LineLook{Color: draw.RGB(30, 30, 30), Width: 1.5}
	}
	p.Piece = func(i int) table.PieceLook {
		u := units[i]
		fill, ink := st.sideFill(u.Side)
		return table.PieceLook{ID: fmt.Sprintf("unit-%c", u.Letter), Class: "unit " + strings.ToLower(u.Side), Fill: fill, Ink: ink,
			Title: unitTitle(u), Label: fmt.Sprintf("%c%d", u.Letter, u.Cohesion)}
	}
	p.Rings = st.rings(vw.v)
	p.Key = st.key(vw.v)
	out := p.Scene()
	marks := st.marks(p)
	for i, it := range out.Items { // under the units
		if g, ok := it.(*draw.Group); ok && g.ID == "units" {
			out.Items = slices.Insert(out.Items, i, draw.Shape(marks))
			break
		}
	}
	out.Add(st.generalMarks(p, units))
	return out
}

func unitTitle(u *Unit) string {
	var states []string
	for _, x := range []struct {
		on   bool
		name string
	}{{u.Moved, "moved"}, {u.Pinned, "pinned"}, {u.Engaged, "engaged"}, {u.Attacked, "attacked"}, {u.Supported, "supported"},
		{u.Retreated, "retreated"}, {u.Passage, "passed lines"}} {
		if x.on {
			states = append(states, x.name)
		}
	}
	s := fmt.Sprintf("%c %s (%s, %s, %s), cohesion %d, front %s facing %s", u.Letter, u.Name, u.Side, u.Corps, u.Type, u.Cohesion, fmtPt(u.Front), u.Facing)
	if len(states) > 0 {
		s += ", " + strings.Join(states, ", ")
	}
	return s
}

// rings are the range rings of the side moving now (7.1b): around the
// front of each unit of the active corps that may still make a normal
// move, its range (7.1f) and its range on a March order (7.2e, dimmer).
// Only that side's player sees them: they are his to plan with.
func (st *State) rings(v engine.Viewer) []table.Ring {
	if st.Step != StepMove || v.Referee || v.Side == "" || v.Side != st.ToAct {
		return nil
	}
	var out []table.Ring
	for i := range st.Units {
		u := &st.Units[i]
		if u.Side != v.Side || u.Corps != st.Active || st.cantMove(u) != "" {
			continue
		}
		eff, _ := st.ranges(u, false)
		march, _ := st.ranges(u, true)
		out = append(out, table.Ring{Centre: u.Front, Radius: eff, Label: fmt.Sprintf("%c %s", u.Letter, inch(eff)), Color: ringColour})
		if march != eff {
			out = append(out, table.Ring{Centre: u.Front, Radius: march, Label: "march " + inch(march), Color: ringColour.Alpha(140)})
		}
	}
	return out
}

func (st *State) key(v engine.Viewer) []table.KeyEntry {
	var k []table.KeyEntry
	for _, n := range keyOrder {
		if c, ok := areaColours[n]; ok {
			k = append(k, table.KeyEntry{Fill: c, Label: n})
		} else {
			k = append(k, table.KeyEntry{Line: lineLooks[n].Color, Label: n})
		}
	}
	k = append(k, table.KeyEntry{Fill: bridgeFill, Label: "bridge"}, table.KeyEntry{Fill: draw.RGB(20, 20, 20), Label: "strategic point (SPn)"})
	for _, sd := range st.Sides {
		f, _ := st.sideFill(sd.Name)
		k = append(k, table.KeyEntry{Fill: f, Label: sd.Name + ": letter, cohesion"})
	}
	k = append(k, table.KeyEntry{Line: draw.RGB(30, 30, 30), Label: "front edge, facing mark"},
		table.KeyEntry{Fill: draw.RGB(255, 255, 255), Label: "general (his units)"},
		table.KeyEntry{Fill: draw.RGB(255, 255, 255), Label: "P: patrol marker (13.14)"})
	if st.PlayerA != "" {
		k = append(k, table.KeyEntry{Fill: draw.RGB(200, 200, 200).Alpha(90), Label: "deployment zone (13.7e)"})
	}
	if len(st.rings(v)) > 0 {
		k = append(k, table.KeyEntry{Line: ringColour, Label: "range (7.1f); march (7.2e)"})
	}
	return k
}

// marks are the bridges, strategic points and patrol markers (of corps
// not yet on the table), drawn where the ASCII board writes &, SPn, P.
func (st *State) marks(p table.Picture) *draw.Group {
	g := &draw.Group{ID: "marks", Class: "marks"}
	ink := draw.RGB(30, 30, 30)
	r := float64(drawnPerInch) * 0.6
	for _, b := range st.Bridges {
		c := p.At(b.At)
		g.Add(&draw.Rect{Style: draw.Style{Fill: bridgeFill, Stroke: ink, Width: 0.8}, X: c.X - r, Y: c.Y - r, W: 2 * r, H: 2 * r})
	}
	for i, pt := range st.Points {
		c := p.At(pt)
		g.Add(&draw.Rect{Style: draw.Style{Fill: draw.RGB(20, 20, 20)}, X: c.X - r/2, Y: c.Y - r/2, W: r, H: r})
		g.Add(draw.Label(draw.Pt(c.X+r, c.Y-r/2), fmt.Sprintf("SP%d", i+1), 10, ink, draw.Start))
	}
	for _, m := range st.Markers {
		if st.hasUnits(m.Side, m.Corps) {
			continue
		}
		c := p.At(m.At)
		f, in := st.sideFill(m.Side)
		mg := &draw.Group{Class: "marker " + strings.ToLower(m.Side), Title: fmt.Sprintf("patrol marker: %s, %s", m.Side, m.Corps)}
		mg.Add(&draw.Circle{Style: draw.Style{Fill: f, Stroke: ink, Width: 0.8}, C: c, R: r})
		mg.Add(&draw.Text{At: draw.Pt(c.X, c.Y+3.5), S: "P", Size: 10, Fill: in, Anchor: draw.Middle, Bold: true})
		g.Add(mg)
	}
	return g
}

// generalMarks draw each general with units on the table behind them: a
// disc in his side's colour with his initials, a little to the rear of
// his formation's bases (a corps commander's: his corps'; the
// commander-in-chief's: his army's).
func (st *State) generalMarks(p table.Picture, units []*Unit) *draw.Group {
	g := &draw.Group{ID: "generals", Class: "generals"}
	for _, gen := range st.Generals {
		if gen.Formation == "" {
			continue
		}
		var sx, sy float64
		n := 0
		for _, u := range units {
			if u.Side != gen.Side || !(gen.Formation == ArmyFormation || u.Formation == gen.Formation || u.Corps == gen.Formation) {
				continue
			}
			depth := st.Scn.UnitType(u.Type).Depth
			rear := p.At(u.Front.Add(table.Heading(u.Facing+180*table.Degree, depth+table.OneInch*3/5)))
			sx, sy, n = sx+rear.X, sy+rear.Y, n+1
		}
		if n == 0 {
			continue
		}
		// On the table, half an inch in from its edges.
		lo, hi := p.At(table.Pt(table.OneInch/2, st.H-table.OneInch/2)), p.At(table.Pt(st.W-table.OneInch/2, table.OneInch/2))
		c := draw.Pt(min(max(sx/float64(n), lo.X), hi.X), min(max(sy/float64(n), lo.Y), hi.Y))
		f, _ := st.sideFill(gen.Side)
		what := gen.Formation
		if what == ArmyFormation {
			what = "commander-in-chief"
		}
		mg := &draw.Group{Class: "general " + strings.ToLower(gen.Side), Title: fmt.Sprintf("%s (%s, %s)", gen.Name, gen.Side, what)}
		r := 7.0
		if gen.Formation == ArmyFormation {
			r = 9
		}
		mg.Add(&draw.Circle{Style: draw.Style{Fill: draw.RGB(255, 255, 255), Stroke: f, Width: 2.4}, C: c, R: r})
		mg.Add(&draw.Text{At: draw.Pt(c.X, c.Y+3), S: initials(gen.Name), Size: 8, Fill: draw.RGB(20, 20, 20), Anchor: draw.Middle, Bold: true})
		g.Add(mg)
	}
	return g
}

// initials are a name's initials, at most three ("Winfield Scott
// Hancock" WSH).
func initials(name string) string {
	var b strings.Builder
	for _, w := range strings.Fields(name) {
		if r := []rune(w)[0]; b.Len() < 3 && r >= 'A' && r <= 'Z' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Count implements engine.Counter: each side's cohesion summed over its
// units not removed (a unit starts at 3; losses in combat lower it, R7),
// which every viewer sees.
func (rules) Count(v engine.View) []engine.SideCount {
	vw, ok := v.(view)
	if !ok {
		return nil
	}
	var sides []string
	for _, sd := range vw.st.Sides {
		sides = append(sides, sd.Name)
	}
	return engine.CountSides(sides, "cohesion", vw.st.Units, func(u Unit) (string, int) {
		if u.Removed {
			return u.Side, 0
		}
		return u.Side, u.Cohesion
	})
}
