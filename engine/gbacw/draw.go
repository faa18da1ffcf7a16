package gbacw

import (
	"fmt"
	"slices"
	"strings"

	"pbem/engine"
	"pbem/engine/draw"
	"pbem/engine/hex"
)

// The drawn board (engine.Drawer, the picture in the mails): the whole map of the same
// view as the ASCII board, drawn by the shared hex drawer. It shows what
// the ASCII board shows, and what every viewer may see (nothing on the
// battlefield is hidden in GBACW; the standing orders, the only secret,
// are not drawn):
//
//   - terrain by colour and pattern (clear, woods, town, marsh, water),
//     elevation by a browner tint a level and a contour line along each
//     hexside between two levels (12.1), a gradual slope (12.2) by a
//     wave pattern;
//   - hexside features: streams, walls and crests (walls and crests
//     block LOS, 12.3; drawn heavy), fords and bridges, and the roads,
//     pikes and trails across hexsides;
//   - units as counters in their side's colour (a disordered or routed
//     unit paler, as its reverse side, 19.1): code, SP and order letter,
//     a badge of marks (! disordered, x routed, the fatigue level), and
//     the facing: a wedge pointing at the vertex it faces (7.1: its two
//     front hexes meet there), or for a column on March orders an arrow
//     to the hexside it faces (10.2). A stack is drawn bottom first, so
//     the top unit (8.3) is on top; leaders with units are a star on the
//     top counter, a leader alone a counter of his own;
//   - for a side's player, the hexes next to an enemy combat unit shaded
//     (9.1-9.4: a unit entering one stops; 19.2: a disordered unit may
//     not enter one). GBACW has no other zone of control; the referee's
//     board shades none;
//   - objectives as a square in the holder's colour at the foot of the
//     hex, and who holds each written under the title (R18); works (R13)
//     as a brown square.
var terrainLook = map[string]hex.Look{
	"clear": {Fill: draw.RGB(232, 228, 196)},
	"woods": {Fill: draw.RGB(150, 190, 120), Pattern: hex.Trees},
	"town":  {Fill: draw.RGB(200, 190, 185), Pattern: hex.Blocks},
	"marsh": {Fill: draw.RGB(170, 200, 180), Pattern: hex.Marsh},
	"water": {Fill: draw.RGB(140, 180, 225)},
}

var terrainOrder = []string{"clear", "woods", "town", "marsh", "water"}

// Hexside features drawn along a side, the first a side has wins.
var sideLines = []struct {
	name, label string
	c           draw.Color
	width       float64
}{
	{"stream", "stream", draw.RGB(60, 120, 210), 3},
	{"wall", "wall (blocks LOS)", draw.RGB(70, 70, 70), 3},
	{"crest", "crest (blocks LOS)", draw.RGB(110, 60, 25), 3.4},
}

var contour = draw.RGB(150, 105, 60)

var crossings = []struct {
	name string
	k    hex.Crossing
}{{"bridge", hex.Bridge}, {"ford", hex.Ford}}

var routeLooks = []struct {
	name string
	c    draw.Color
	dash bool
}{{"pike", draw.RGB(150, 40, 30), false}, {"road", draw.RGB(170, 90, 40), false}, {"trail", draw.RGB(170, 120, 70), true}}

var (
	usaFill   = draw.RGB(40, 70, 150)
	csaFill   = draw.RGB(175, 175, 170)
	adjFill   = draw.RGB(200, 40, 40).Alpha(60)
	worksFill = draw.RGB(120, 80, 40)
	brown     = draw.RGB(140, 95, 50)
)

// drawnSize is a hex's circumradius in the picture: GBACW maps are
// small, so the counters can be large enough to read.
const drawnSize = 30

// Draw implements engine.Drawer.
func (rules) Draw(v engine.View) *draw.Scene {
	vw, ok := v.(view)
	if !ok {
		return nil
	}
	return picture(vw.st, vw.v).Scene()
}

// levelFill is a terrain's colour at a level: browner a level up.
func levelFill(c draw.Color, level int) draw.Color {
	f := min(0.2*float64(level), 0.8)
	mix := func(a, b uint8) uint8 { return uint8(float64(a)*(1-f) + float64(b)*f + 0.5) }
	return draw.RGB(mix(c.R, brown.R), mix(c.G, brown.G), mix(c.B, brown.B))
}

func sideFill(side string) (fill, ink draw.Color) {
	if side == CSA {
		return csaFill, draw.RGB(20, 20, 20)
	}
	return usaFill, draw.RGB(255, 255, 255)
}

// pale is a counter's reverse side: its colour washed out.
func pale(c draw.Color) draw.Color {
	return draw.RGB(c.R/2+128, c.G/2+128, c.B/2+128)
}

func picture(st *State, v engine.Viewer) hex.Picture {
	sc := st.Scn
	adj := map[hex.Hex]bool{}
	if v.Side != "" && !v.Referee {
		for _, h := range sc.Grid.Hexes() {
			adj[h] = st.enemyAdjacent(h, v.Side) && len(st.enemiesAt(h, v.Side)) == 0
		}
	}
	objectives := map[hex.Hex]string{}
	for i, o := range sc.Objectives {
		objectives[o.Hex] = st.Held[i]
	}
	title := st.header(v)
	var os []string
	for i, o := range sc.Objectives {
		name := ""
		for _, pl := range sc.Places {
			if pl.Hex == o.Hex {
				name = " " + pl.Name
			}
		}
		os = append(os, fmt.Sprintf("%s%s %d VP held by %s", o.Hex, name, o.VP, st.Held[i]))
	}
	if len(os) > 0 {
		title = append(title, wrap([]string{" objectives: " + strings.Join(os, "; ")}, 92)...)
	}
	p := hex.Picture{Grid: sc.Grid, Size: drawnSize, Title: title}
	p.Look = func(h hex.Hex) hex.Look {
		d, ok := sc.Hex(h)
		if !ok {
			return hex.Look{Off: true}
		}
		l, known := terrainLook[d.Terrain]
		if !known {
			l = hex.Look{Fill: draw.RGB(255, 255, 255)}
		}
		l.Fill = levelFill(l.Fill, d.Level)
		if d.Gradual && l.Pattern == hex.NoPattern {
			l.Pattern = hex.Waves
		}
		if held, ok := objectives[h]; ok {
			f := draw.RGB(255, 255, 255)
			if held != "" {
				f, _ = sideFill(held)
			}
			l.Symbols = append(l.Symbols, hex.Symbol{Letter: "", Fill: f})
		}
		if slices.Contains(st.Works, h) {
			l.Symbols = append(l.Symbols, hex.Symbol{Letter: "", Fill: worksFill})
		}
		if adj[h] {
			l.Shade = adjFill
		}
		return l
	}
	p.Side = func(side hex.Hexside) hex.SideLook {
		var sl hex.SideLook
		fs := sc.SideFeatures(side)
		for _, g := range sideLines {
			if slices.Contains(fs, g.name) {
				sl.Line, sl.LineWidth = g.c, g.width
				break
			}
		}
		a, b := side.Hexes()
		da, _ := sc.Hex(a)
		db, _ := sc.Hex(b)
		if sl.Line.None() && da.Level != db.Level {
			sl.Line, sl.LineWidth = contour, 1.2
		}
		for _, c := range crossings {
			if slices.Contains(fs, c.name) {
				sl.Cross = c.k
				break
			}
		}
		if r := sc.RouteAcross(a, b); r != "" {
			for _, rl := range routeLooks {
				if rl.name == r {
					sl.Route, sl.RouteDash = rl.c, rl.dash
				}
			}
		}
		return sl
	}
	for _, h := range sc.Grid.Hexes() {
		us := st.unitsAt(h)
		ls := st.leadersAt(h)
		for i := len(us) - 1; i >= 0; i-- { // bottom first: the top unit on top
			c := st.counter(us[i])
			if i == 0 {
				c.Leaders = len(ls)
				if len(ls) > 0 {
					var names []string
					for _, l := range ls {
						names = append(names, st.leaderTitle(l))
					}
					c.Title += "; with " + strings.Join(names, "; ")
				}
			}
			p.Counters = append(p.Counters, c)
		}
		if len(us) == 0 {
			for _, l := range ls {
				p.Counters = append(p.Counters, st.leaderCounter(l))
			}
		}
	}
	p.Key = key(v, sc)
	return p
}

// key is the picture's key: what each colour, line and mark means.
func key(v engine.Viewer, sc *ScenarioDef) []hex.KeyEntry {
	var k []hex.KeyEntry
	for _, t := range terrainOrder {
		l := terrainLook[t]
		k = append(k, hex.KeyEntry{Fill: l.Fill, Pattern: l.Pattern, Label: t})
	}
	top := sc.Default.Level
	for _, d := range sc.Hexes { // the highest level: the order does not matter
		top = max(top, d.Level)
	}
	for lv := 1; lv <= top; lv++ {
		k = append(k, hex.KeyEntry{Fill: levelFill(terrainLook["clear"].Fill, lv), Label: fmt.Sprintf("level %d (clear)", lv)})
	}
	k = append(k, hex.KeyEntry{Fill: terrainLook["clear"].Fill, Pattern: hex.Waves, Label: "gradual slope"},
		hex.KeyEntry{Line: contour, Label: "contour: the level changes"})
	for _, g := range sideLines {
		k = append(k, hex.KeyEntry{Line: g.c, Label: g.label})
	}
	for _, r := range routeLooks {
		k = append(k, hex.KeyEntry{Line: r.c, Label: r.name})
	}
	if v.Side != "" && !v.Referee {
		k = append(k, hex.KeyEntry{Fill: adjFill, Label: "next to the enemy (9.1)"})
	}
	k = append(k,
		hex.KeyEntry{Fill: usaFill, Label: "USA: code, SP, order A V M R"},
		hex.KeyEntry{Fill: csaFill, Label: "CSA (paler: disordered)"},
		hex.KeyEntry{Fill: draw.RGB(250, 210, 40), Label: "marks: ! disordered, x routed, fatigue"},
		hex.KeyEntry{Fill: hex.LeaderFill, Label: "star: leaders with the unit"},
		hex.KeyEntry{Line: draw.RGB(30, 30, 30), Label: "wedge: the vertex faced (7.1)"})
	if len(sc.Objectives) > 0 {
		k = append(k, hex.KeyEntry{Fill: draw.RGB(255, 255, 255), Label: "objective (holder's colour)"})
	}
	return k
}

// counter is a unit's counter: its code, SP and order letter, its marks,
// and its facing.
func (st *State) counter(u *Unit) hex.Counter {
	d := st.def(u)
	fill, ink := sideFill(u.Side)
	if u.Disordered || u.Routed {
		fill, ink = pale(fill), draw.RGB(20, 20, 20)
	}
	c := hex.Counter{ID: "unit-" + d.Code, Hex: u.Hex, Code: d.Code, Strength: fmt.Sprintf("%d %s", u.SP, orderLetter[u.Order]),
		Class: "unit " + strings.ToLower(u.Side), Fill: fill, Ink: ink}
	var marks []string
	switch {
	case u.Routed:
		marks = append(marks, "x")
	case u.Disordered:
		marks = append(marks, "!")
	}
	if u.Fatigue > 0 {
		marks = append(marks, fmt.Sprint(u.Fatigue))
	}
	c.Marks = strings.Join(marks, "")
	if u.onSide() {
		c.Faces, c.Facing = true, hex.Direction(u.Facing)
	} else {
		c.FacesVertex, c.Vertex = true, hex.Vertex(u.Facing)
	}
	var state []string
	for _, x := range []struct {
		on   bool
		word string
	}{{u.Routed, "routed"}, {u.Disordered && !u.Routed, "disordered"}, {st.collapsed(u), "collapsed"}, {u.OOC, "out of command"},
		{u.Blown, "blown"}, {st.extended(u), "extended"}, {u.Refused, "refused"}, {u.Fatigue > 0, fmt.Sprintf("fatigue %d", u.Fatigue)}} {
		if x.on {
			state = append(state, x.word)
		}
	}
	c.Title = fmt.Sprintf("%s %s (%s, %s), %s %d/%d SP, cohesion %d, %s orders, facing %s", d.Code, u.Name, u.Side, u.Brigade, d.Type, u.SP, d.SP,
		st.cohesion(u), u.Order, facingShort(u))
	if len(state) > 0 {
		c.Title += ", " + strings.Join(state, ", ")
	}
	return c
}

func (st *State) leaderTitle(l *Leader) string {
	rank, name := st.command(l)
	return fmt.Sprintf("%s %s (%s of %s, %d* range %d)", st.ldef(l).Code, l.Name, rank, name, st.stars(l), st.cmdRange(l))
}

// leaderCounter is a leader alone in his hex: his code, stars and command
// range on a counter in his side's paler colour.
func (st *State) leaderCounter(l *Leader) hex.Counter {
	fill, _ := sideFill(l.Side)
	code := st.ldef(l).Code
	return hex.Counter{ID: "leader-" + code, Hex: l.Hex, Code: code, Strength: fmt.Sprintf("%d* %d", st.stars(l), st.cmdRange(l)),
		Class: "leader " + strings.ToLower(l.Side), Fill: pale(fill), Ink: draw.RGB(20, 20, 20), Leaders: 1, Title: st.leaderTitle(l)}
}

// Count implements engine.Counter: each side's strength points (SP) in
// units not removed (eliminated or routed off the map), those still to
// arrive included, so the chart falls only with losses.
func (rules) Count(v engine.View) []engine.SideCount {
	vw, ok := v.(view)
	if !ok {
		return nil
	}
	return engine.CountSides(Sides, "strength points", vw.st.Units, func(u *Unit) (string, int) {
		if u.Removed {
			return u.Side, 0
		}
		return u.Side, u.SP
	})
}
