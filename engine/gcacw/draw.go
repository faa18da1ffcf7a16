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

// symbolKey is what each in-hex feature's square says in the key.
var symbolKey = map[string]string{
	Village:   "square: village",
	RRStation: "S: railroad station",
	Landing:   "L: landing",
	Redoubt:   "R: redoubt",
}

// The drawn map's scale and type: 8-unit type (hex numbers, feature
// letters, the marks on a counter) on hexes of 20, so that they read at
// 100% zoom in a PNG drawn at full size (the welcome, BOARD and game-over
// mails), and the PNG of the whole map still fits the frequent mails'
// picture budget (mail/outbox's PictureBudget) at its smallest scale.
const (
	drawHexSize  = 20
	drawTypeSize = 8
)

// objectiveInk rings an objective hex (the scenario's [victory] hexes,
// R24) and marks its VP.
var objectiveInk = draw.RGB(215, 150, 0)

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
	p := picture(vw.st, vw.v)
	sc := p.Scene()
	// Two details, the larger first: the outbox sends the first whose PNG
	// fits the mail's picture budget at a legible scale.
	last, grid := sc, p.Grid
	for _, m := range detailMargins {
		if d, ok := detail(p, vw.st, vw.v, m[0], m[1]); ok && d.Grid != grid {
			last.Detail = d.Scene()
			last, grid = last.Detail, d.Grid
		}
	}
	return sc
}

// The frequent mails (your move, report, referee's notice) keep their
// picture within mail/outbox's PictureBudget, which holds the whole map
// only drawn so small that its hex numbers cannot be read: they send
// Scene.Detail instead, the hexes of the ASCII board's window and
// detailMargins columns and rows around them, at full size (the first
// that fits of a chain of details, Detail.Detail the next).
var detailMargins = [][2]int{{1, 1}, {0, 0}}

// shortKey are the key's longer labels as a detail's two narrow columns
// write them.
var shortKey = map[string]string{
	"USA unit: code, Combat value":   "USA: code, Combat",
	"CSA unit: code, Combat value":   "CSA: code, Combat",
	"star: leader(s) with the unit":  "star: leader(s)",
	"badge D: disorg., E: exhausted": "badge D/E: disorg./exh.",
	"ring: objective; n: its VP":     "ring: objective, n VP",
	"enemy restricted ZOC":           "enemy restricted",
	"county border (hexside)":        "county border",
	"river major (hexside)":          "major river",
	"river minor (hexside)":          "minor river",
	"creek (hexside)":                "creek",
	"ridge (hexside)":                "ridge",
}

// detail is p cut to the mail window of the view (the ASCII board's, see
// render) and a margin around it, titled with the hexes it shows, its
// key in two columns for only the marks it uses; false when that is the
// whole map.
func detail(p hex.Picture, st *State, v engine.Viewer, marginCols, marginRows int) (hex.Picture, bool) {
	grid := p.Grid
	win, err := hex.ChooseWindow(grid, st.focus(v), hex.LargeMaxWindowCols, windowRows)
	if err != nil {
		win, _ = hex.ChooseWindow(grid, nil, hex.LargeMaxWindowCols, windowRows)
	}
	c0 := max(grid.FirstCol, win.Col-marginCols)
	r0 := max(grid.FirstRow, win.Row-marginRows)
	c1 := min(grid.FirstCol+grid.Cols-1, win.Col+win.Cols-1+marginCols)
	r1 := min(grid.FirstRow+grid.Rows-1, win.Row+win.Rows-1+marginRows)
	sub := hex.Grid{FirstCol: c0, FirstRow: r0, Cols: c1 - c0 + 1, Rows: r1 - r0 + 1}
	if sub == grid {
		return p, false
	}
	d := p
	d.Grid = sub
	d.Counters = nil
	for _, c := range p.Counters {
		if sub.InBounds(c.Hex) {
			d.Counters = append(d.Counters, c)
		}
	}
	objectives := false
	if v := st.Scn.Tables.Victory; v != nil {
		objectives = slices.ContainsFunc(v.Hexes, func(vh VictoryHex) bool { return sub.InBounds(vh.Hex) })
	}
	used := st.Scn.Map.usedIn(sub.InBounds)
	for _, c := range d.Counters {
		used[markUSA] = used[markUSA] || c.Fill == usaFill
		used[markCSA] = used[markCSA] || c.Fill == csaFill
		used[markLeader] = used[markLeader] || c.Leaders > 0
		used[markFatigue] = used[markFatigue] || strings.ContainsAny(c.Marks, "1234")
		used[markDisorg] = used[markDisorg] || strings.ContainsAny(c.Marks, "DE")
	}
	zoc := slices.ContainsFunc(sub.Hexes(), func(h hex.Hex) bool { return !p.Look(h).Shade.None() })
	d.Key = st.drawKey(used, zoc, objectives)
	for i, e := range d.Key {
		if short, ok := shortKey[e.Label]; ok {
			d.Key[i].Label = short
		}
	}
	d.KeyColumns = 2
	d.Title = []string{fmt.Sprintf("%s to %s of %s to %s", sub.First(), sub.Last(), grid.First(), grid.Last())}
	return d, true
}

func picture(st *State, v engine.Viewer) hex.Picture {
	m := &st.Scn.Map
	var zoc map[hex.Hex]ZOC
	if v.Side != "" {
		zoc = st.zocMap(opponent(v.Side))
	}
	p := hex.Picture{Grid: m.Grid(), Title: st.drawTitle(), Size: drawHexSize, TypeSize: drawTypeSize}
	objectives := map[hex.Hex]VictoryHex{}
	if v := st.Scn.Tables.Victory; v != nil {
		for _, vh := range v.Hexes {
			objectives[vh.Hex] = vh
		}
	}
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
		if vh, ok := objectives[h]; ok {
			// R24: an objective, ringed, its VP by a gold square.
			l.Outline = objectiveInk
			l.Symbols = append(l.Symbols, hex.Symbol{Letter: fmt.Sprint(vh.VP), Fill: objectiveInk})
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
	used := st.Scn.Map.used()
	for _, k := range []string{markUSA, markCSA, markLeader, markFatigue, markDisorg} {
		used[k] = true
	}
	p.Key = st.drawKey(used, zoc != nil, len(objectives) > 0)
	return p
}

// drawTitle is the header above the drawn map: the board's, but where
// the referee decides the result (R24) the conditions' state, which the
// mail's text gives in full, in one line, the objectives being ringed on
// the map; so the whole map still fits the frequent mails' picture budget.
func (st *State) drawTitle() []string {
	head := st.header()
	if v := st.Scn.Tables.Victory; v == nil || !v.Referee || st.Phase == PhaseOver {
		return head
	}
	short := fmt.Sprintf(" victory: the referee decides after turn %d, weighing the objectives (ringed)", st.Scn.Turns)
	var out []string
	skip := false
	for _, l := range head {
		switch {
		case strings.HasPrefix(l, " victory: "):
			out, skip = append(out, short), true
		case skip && strings.HasPrefix(l, "   "):
			// the rest of the wrapped victory line
		default:
			out, skip = append(out, l), false
		}
	}
	return out
}

// The marks of counters, as drawKey's used names them: the whole map's
// key has them all, a detail's those its counters show.
const (
	markUSA     = "counter: USA"
	markCSA     = "counter: CSA"
	markLeader  = "counter: leader"
	markFatigue = "counter: fatigue"
	markDisorg  = "counter: disorganized or exhausted"
)

// drawKey is the key under the drawn map: an entry for every mark the
// map uses (used: Map.used, or Map.usedIn for a part of it) (terrain, routes, hexside features, crossings, in-hex
// features, objectives), then the counters, their marks and the leaders'
// star, and the viewer's enemy ZOC.
func (st *State) drawKey(used map[string]bool, zoc, objectives bool) []hex.KeyEntry {
	var key []hex.KeyEntry
	for _, k := range terrainKey {
		if l := terrainLook[k.name]; used[k.name] {
			key = append(key, hex.KeyEntry{Fill: l.Fill, Pattern: l.Pattern, Label: k.label})
		}
	}
	for _, r := range routeLooks {
		if used[r.name] {
			label := r.name
			if r.dash {
				label += " (dashed)"
			}
			key = append(key, hex.KeyEntry{Line: r.c, Label: label})
		}
	}
	for _, g := range sideLines {
		if used[g.name] {
			key = append(key, hex.KeyEntry{Line: g.c, Label: strings.ReplaceAll(g.name, "-", " ") + " (hexside)"})
		}
	}
	crossKey := map[string]hex.KeyEntry{
		Bridge: {Line: draw.RGB(70, 50, 30), Label: "bridge: two bars"},
		Ford:   {Fill: draw.RGB(235, 225, 170), Label: "ford: a pale disc"},
		Ferry:  {Fill: draw.RGB(255, 255, 255), Label: "ferry: a white disc"},
		Dam:    {Line: draw.RGB(70, 50, 30), Label: "dam: a bar across"},
	}
	for _, c := range crossings {
		if used[c.name] {
			key = append(key, crossKey[c.name])
		}
	}
	for _, f := range featureGlyphs {
		if used[f.name] {
			key = append(key, hex.KeyEntry{Fill: symbolLook[f.name].Fill, Label: symbolKey[f.name]})
		}
	}
	if objectives {
		key = append(key, hex.KeyEntry{Line: objectiveInk, Label: "ring: objective; n: its VP"})
	}
	for _, e := range []struct {
		mark string
		e    hex.KeyEntry
	}{
		{markUSA, hex.KeyEntry{Fill: usaFill, Label: "USA unit: code, Combat value"}},
		{markCSA, hex.KeyEntry{Fill: csaFill, Label: "CSA unit: code, Combat value"}},
		{markLeader, hex.KeyEntry{Fill: hex.LeaderFill, Label: "star: leader(s) with the unit"}},
		{markFatigue, hex.KeyEntry{Fill: draw.RGB(250, 210, 40), Label: "badge 1-4: fatigue"}},
		{markDisorg, hex.KeyEntry{Fill: draw.RGB(250, 210, 40), Label: "badge D: disorg., E: exhausted"}},
	} {
		if used[e.mark] {
			key = append(key, e.e)
		}
	}
	if zoc {
		key = append(key, hex.KeyEntry{Fill: zocFill, Label: "enemy ZOC"}, hex.KeyEntry{Fill: rzFill, Label: "enemy restricted ZOC"})
	}
	return key
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
	c.Leaders = len(st.leadersWith(u.ID))
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
