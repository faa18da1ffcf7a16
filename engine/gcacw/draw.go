package gcacw

import (
	"fmt"
	"slices"
	"strings"

	"pbem/engine"
	"pbem/engine/draw"
	"pbem/engine/hex"
)

// The drawn board (engine.Drawer): the same map, units and ZOC as the
// ASCII board of the same view, drawn by the shared hex drawer. The
// colours stand for the glyphs of board.go, one each.
var terrainLook = map[string]hex.Look{
	Clear:            {Fill: draw.RGB(232, 228, 196)},
	Rolling:          {Fill: draw.RGB(214, 214, 160), Pattern: hex.Waves},
	Rough:            {Fill: draw.RGB(200, 190, 150), Pattern: hex.Dots},
	Woods:            {Fill: draw.RGB(150, 190, 120), Pattern: hex.Trees},
	City:             {Fill: draw.RGB(200, 190, 185), Pattern: hex.Blocks},
	Swamp:            {Fill: draw.RGB(170, 200, 180), Pattern: hex.Marsh},
	ProvisionalSwamp: {Fill: draw.RGB(200, 215, 190), Pattern: hex.Marsh},
	Hill:             {Fill: draw.RGB(215, 185, 140), Pattern: hex.Rise},
	Mountain:         {Fill: draw.RGB(185, 150, 115), Pattern: hex.Peak},
	Water:            {Fill: draw.RGB(140, 180, 225)},
}

var terrainKey = []struct{ name, label string }{
	{Clear, "clear"}, {Rolling, "rolling"}, {Rough, "rough"}, {Woods, "woods"}, {City, "city"},
	{Swamp, "swamp"}, {ProvisionalSwamp, "provisional swamp"}, {Hill, "hill"}, {Mountain, "mountain"}, {Water, "water"},
}

var symbolLook = map[string]hex.Symbol{
	Village:   {Letter: "", Fill: draw.RGB(60, 60, 60)},
	RRStation: {Letter: "S", Fill: draw.RGB(120, 80, 50)},
	Landing:   {Letter: "L", Fill: draw.RGB(60, 100, 180)},
	Redoubt:   {Letter: "R", Fill: draw.RGB(160, 40, 40)},
}

// Hexside features along a side, most important first (as board.go).
var sideLines = []struct {
	name  string
	c     draw.Color
	width float64
}{
	{RiverMajor, draw.RGB(40, 90, 190), 5}, {RiverMinor, draw.RGB(60, 120, 210), 3.2}, {Creek, draw.RGB(90, 150, 220), 2},
	{Ridge, draw.RGB(130, 90, 50), 2.6}, {CountyBorder, draw.RGB(150, 110, 160), 1.2},
}

var crossings = []struct {
	name string
	k    hex.Crossing
}{{Bridge, hex.Bridge}, {Ford, hex.Ford}, {Ferry, hex.Ferry}, {Dam, hex.Dam}}

var routeLooks = []struct {
	name string
	c    draw.Color
	dash bool
}{{Pike, draw.RGB(150, 40, 30), false}, {Railroad, draw.RGB(40, 40, 40), true}, {Road, draw.RGB(170, 90, 40), false}, {Trail, draw.RGB(170, 120, 70), true}}

// Side colours: blue for the Union, grey for the Confederacy.
var (
	usaFill = draw.RGB(40, 70, 150)
	csaFill = draw.RGB(175, 175, 170)
	zocFill = draw.RGB(200, 40, 40).Alpha(60)
	rzFill  = draw.RGB(200, 120, 40).Alpha(45)
)

// Draw implements engine.Drawer.
func (rules) Draw(v engine.View) *draw.Scene {
	vw, ok := v.(view)
	if !ok {
		return nil
	}
	return picture(vw.st, vw.v).Scene()
}

func picture(st *State, v engine.Viewer) hex.Picture {
	m := &st.Scn.Map
	var zoc map[hex.Hex]ZOC
	if v.Side != "" {
		zoc = st.zocMap(opponent(v.Side))
	}
	p := hex.Picture{Grid: m.Grid(), Title: st.header()}
	p.Look = func(h hex.Hex) hex.Look {
		d, ok := m.Hex(h)
		if !ok || d.Partial {
			return hex.Look{Off: true}
		}
		l := terrainLook[d.Terrain]
		for _, f := range featureGlyphs {
			if slices.Contains(d.Features, f.name) {
				l.Symbols = append(l.Symbols, symbolLook[f.name])
			}
		}
		switch zoc[h] {
		case NormalZOC:
			l.Shade = zocFill
		case RestrictedZOC:
			l.Shade = rzFill
		}
		return l
	}
	p.Side = func(side hex.Hexside) hex.SideLook {
		var sl hex.SideLook
		fs := m.SideFeatures(side)
		for _, g := range sideLines {
			if slices.Contains(fs, g.name) {
				sl.Line, sl.LineWidth = g.c, g.width
				break
			}
		}
		for _, c := range crossings {
			if slices.Contains(fs, c.name) {
				sl.Cross = c.k
				break
			}
		}
		rs := m.RoutesAcross(side)
		for _, r := range routeLooks {
			if slices.Contains(rs, r.name) {
				sl.Route, sl.RouteDash = r.c, r.dash
				break
			}
		}
		return sl
	}
	for _, h := range m.Grid().Hexes() {
		for _, u := range st.unitsAt(h) {
			p.Counters = append(p.Counters, st.counter(u))
		}
	}
	for _, k := range terrainKey {
		l := terrainLook[k.name]
		p.Key = append(p.Key, hex.KeyEntry{Fill: l.Fill, Pattern: l.Pattern, Label: k.label})
	}
	for _, r := range routeLooks {
		p.Key = append(p.Key, hex.KeyEntry{Line: r.c, Label: r.name})
	}
	for _, g := range sideLines {
		p.Key = append(p.Key, hex.KeyEntry{Line: g.c, Label: strings.ReplaceAll(g.name, "-", " ")})
	}
	if zoc != nil {
		p.Key = append(p.Key, hex.KeyEntry{Fill: zocFill, Label: "enemy ZOC"}, hex.KeyEntry{Fill: rzFill, Label: "enemy restricted ZOC"})
	}
	p.Key = append(p.Key, hex.KeyEntry{Fill: draw.RGB(250, 210, 40), Label: "marks: fatigue 1-4, D disorganized, E exhausted"})
	return p
}

// counter is a unit's counter: its code, its Combat value (as the
// roster's cv), and marks for fatigue, disorganisation and exhaustion.
func (st *State) counter(u *Unit) hex.Counter {
	c := hex.Counter{ID: "unit-" + u.ID, Hex: u.Hex, Code: u.ID, Strength: st.combat(u), Class: "unit " + strings.ToLower(u.Side),
		Fill: usaFill, Ink: draw.RGB(255, 255, 255)}
	if u.Side == CSA {
		c.Fill, c.Ink = csaFill, draw.RGB(20, 20, 20)
	}
	var marks []string
	if u.Fatigue > 0 {
		marks = append(marks, fmt.Sprint(u.Fatigue))
	}
	if u.Disorganized {
		marks = append(marks, "D")
	}
	if u.Exhausted {
		marks = append(marks, "E")
	}
	c.Marks = strings.Join(marks, "")
	var ls []string
	for _, l := range st.leadersWith(u.ID) {
		ls = append(ls, l.Name)
	}
	c.Title = fmt.Sprintf("%s %s (%s), %s %s, manpower %d, fatigue %d", u.ID, u.Name, u.Side, u.Size, u.Type, u.Manpower, u.Fatigue)
	if len(ls) > 0 {
		c.Title += ", with " + strings.Join(ls, ", ")
	}
	return c
}

// Count implements engine.Counter: each side's manpower on the map (the
// Strength markers of units not eliminated), which every viewer sees.
func (rules) Count(v engine.View) []engine.SideCount {
	vw, ok := v.(view)
	if !ok {
		return nil
	}
	return engine.CountSides(Sides, "manpower", vw.st.Units, func(u *Unit) (string, int) {
		if u.Eliminated {
			return u.Side, 0
		}
		return u.Side, u.Manpower
	})
}
