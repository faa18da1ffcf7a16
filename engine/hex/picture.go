package hex

import (
	"fmt"
	"math"

	"pbem/engine/draw"
)

// Picture is a hex map drawn as a picture (engine/draw) rather than as
// text: terrain by colour and pattern, hexside features along the sides,
// routes from hex to hex across them, crossings, the viewer's ZOC shaded,
// and units as counters. A rule system fills it from the same view as
// its ASCII board and calls Scene; everything is drawn in column-major
// order of the hexes, so the same picture gives the same scene.
type Picture struct {
	Grid Grid
	// Size is a hex's circumradius in scene units (20 if 0).
	Size float64
	// Look is what a hex shows; Side what a hexside shows (asked once for
	// each side between two hexes of the grid).
	Look func(Hex) Look
	Side func(Hexside) SideLook
	// Counters are the units, drawn in order, stacked where several
	// share a hex.
	Counters []Counter
	// Title lines are written above the map, Key entries below it.
	Title []string
	Key   []KeyEntry
	// KeyColumns is how many entries the key has a row (3 if 0): fewer
	// for a narrow picture, whose entries would not fit.
	KeyColumns int
	// TypeSize is the size of the map's small type, in scene units: the
	// hex numbers, the letters of in-hex features and the marks on a
	// counter. 0 keeps it proportional to Size (about 0.3 of it), which a
	// picture shown at full size may set larger to keep them legible.
	TypeSize float64
}

// Pattern is drawn over a hex's terrain colour.
type Pattern uint8

// Patterns of terrain.
const (
	NoPattern Pattern = iota
	Trees             // woods: tree tops
	Dots              // rough ground
	Marsh             // swamp: short lines
	Rise              // hill: a crest
	Peak              // mountain
	Blocks            // town or city
	Waves             // rolling ground
)

// Look is how one hex is drawn.
type Look struct {
	Fill    draw.Color
	Pattern Pattern
	Off     bool       // a partial hex at the map's edge, not in play
	Shade   draw.Color // drawn over the hex: the viewer's enemy ZOC
	Symbols []Symbol   // features in the hex, drawn along its foot
	// Outline, when set, rings the hex inside its edge: an objective.
	Outline draw.Color
}

// Symbol is a feature in a hex: a small sign and the letter that names it.
type Symbol struct {
	Letter string
	Fill   draw.Color
}

// SideLook is how a hexside is drawn: a feature along it (Line, a river
// or creek), a crossing of it, and a route across it (drawn from the
// centre of one hex to the other's).
type SideLook struct {
	Line      draw.Color
	LineWidth float64
	Cross     Crossing
	Route     draw.Color
	RouteDash bool // a trail or railroad: drawn dashed
}

// Crossing is how a hexside feature may be crossed.
type Crossing uint8

// Crossings.
const (
	NoCrossing Crossing = iota
	Bridge
	Ford
	Ferry
	Dam
)

// Counter is a unit on the map.
type Counter struct {
	ID       string // the scene group's id, "unit-LYLE"
	Hex      Hex
	Code     string // on the counter's top line
	Strength string // on its bottom line
	Fill     draw.Color
	Ink      draw.Color // the text's colour
	Marks    string     // a badge at the top right: fatigue, disorder
	Facing   Direction
	Faces    bool   // Facing is drawn (GBACW)
	Title    string // a browser's tooltip
	Class    string // "unit usa"

	// FacesVertex draws the unit facing Vertex, a corner of its hex (a
	// GBACW unit's two front hexes meet there): a wedge from under the
	// counter whose point is on that corner.
	FacesVertex bool
	Vertex      Vertex
	// Leaders is how many leaders stand with the unit: a star at the
	// counter's bottom left (bottom right where a wedge points there),
	// their number beside it when more than one.
	Leaders int
}

// KeyEntry is one entry of the key under the map: a swatch (a fill with
// its pattern, or a line) and its meaning.
type KeyEntry struct {
	Fill    draw.Color
	Pattern Pattern
	Line    draw.Color
	Label   string
}

var (
	ink     = draw.RGB(30, 30, 30)
	outline = draw.RGB(110, 110, 100)
	paper   = draw.RGB(250, 248, 240)
)

const titleLine = 16

func (p Picture) size() float64 {
	if p.Size <= 0 {
		return 20
	}
	return p.Size
}

// top is where the map begins, under the title.
func (p Picture) top() float64 { return float64(len(p.Title))*titleLine + 8 }

// Centre is the centre of h in the picture's scene.
func (p Picture) Centre(h Hex) draw.Point {
	s := p.size()
	y := math.Sqrt(3) / 2 * s * float64(1+2*(h.Row-p.Grid.FirstRow)+(1-h.Col&1))
	return draw.Pt(8+s+1.5*s*float64(h.Col-p.Grid.FirstCol), p.top()+y)
}

// corner is corner i of h (0 east, then clockwise on the screen).
func (p Picture) corner(h Hex, i int) draw.Point {
	c, s := p.Centre(h), p.size()
	a := float64(i) * math.Pi / 3
	return draw.Pt(c.X+s*math.Cos(a), c.Y+s*math.Sin(a))
}

// sideEnds are the corners at the ends of the side of h towards d.
func (p Picture) sideEnds(h Hex, d Direction) (draw.Point, draw.Point) {
	// N is between corners 4 and 5; each direction clockwise is one more.
	i := (4 + int(d)) % 6
	return p.corner(h, i), p.corner(h, (i+1)%6)
}

// Scene draws the picture.
func (p Picture) Scene() *draw.Scene {
	s := p.size()
	w := 16 + s*(1.5*float64(p.Grid.Cols)+0.5)
	mapH := math.Sqrt(3) * s * (float64(p.Grid.Rows) + 0.5)
	keyRows := (len(p.Key) + p.keyColumns() - 1) / p.keyColumns()
	sc := &draw.Scene{W: math.Ceil(w), Background: paper, TypeSize: p.TypeSize}
	if sc.TypeSize <= 0 {
		sc.TypeSize = s * 0.28
	}
	sc.H = math.Ceil(p.top() + mapH + 12 + float64(keyRows)*18 + 6)
	hexes := p.Grid.Hexes()
	terrain := &draw.Group{ID: "terrain", Class: "terrain"}
	zoc := &draw.Group{ID: "zoc", Class: "zoc"}
	looks := make(map[Hex]Look, len(hexes))
	for _, h := range hexes {
		l := p.Look(h)
		looks[h] = l
		pts := make([]draw.Point, 6)
		for i := range pts {
			pts[i] = p.corner(h, i)
		}
		g := &draw.Group{ID: "hex-" + h.String(), Class: "hex"}
		if l.Off {
			g.Add(draw.Polygon(draw.Style{Fill: draw.RGB(225, 222, 212)}, pts...))
			terrain.Add(g)
			continue
		}
		g.Add(draw.Polygon(draw.Style{Fill: l.Fill, Stroke: outline, Width: 0.6}, pts...))
		g.Add(pattern(l.Pattern, p.Centre(h), s, l.Fill)...)
		if !l.Outline.None() {
			in := make([]draw.Point, 6)
			c := p.Centre(h)
			for i, q := range pts {
				in[i] = lerp(c, q, 0.86)
			}
			g.Add(draw.Polygon(draw.Style{Stroke: l.Outline, Width: max(2, s*0.12)}, in...))
		}
		footX := p.Centre(h).X - s*0.62
		for i, sy := range l.Symbols {
			c := p.Centre(h)
			if p.TypeSize > 0 {
				// Larger type: the letter beside its square, along the foot.
				at := draw.Pt(footX+3, c.Y+s*0.5)
				g.Add(&draw.Rect{Style: draw.Style{Fill: sy.Fill, Stroke: ink, Width: 0.5}, X: at.X - 3, Y: at.Y - 3, W: 6, H: 6})
				g.Add(&draw.Text{At: draw.Pt(at.X+4, at.Y+p.TypeSize*0.35), S: sy.Letter, Size: p.TypeSize * 0.9, Fill: ink, Anchor: draw.Start, Bold: true})
				footX += 9 + p.TypeSize*0.6*float64(len(sy.Letter))
				continue
			}
			at := draw.Pt(c.X-s*0.45+float64(i)*s*0.3, c.Y+s*0.62)
			g.Add(&draw.Rect{Style: draw.Style{Fill: sy.Fill, Stroke: ink, Width: 0.5}, X: at.X - 3, Y: at.Y - 3, W: 6, H: 6})
			g.Add(draw.Label(draw.Pt(at.X, at.Y-4), sy.Letter, s*0.3, ink, draw.Middle))
		}
		c := p.Centre(h)
		if p.TypeSize > 0 {
			g.Add(&draw.Text{At: draw.Pt(c.X, c.Y-s*0.86+p.TypeSize), S: h.String(), Size: p.TypeSize, Fill: draw.RGB(60, 60, 50), Anchor: draw.Middle})
		} else {
			g.Add(draw.Label(draw.Pt(c.X, c.Y-s*0.62), h.String(), s*0.28, draw.RGB(90, 90, 80), draw.Middle))
		}
		terrain.Add(g)
		if !l.Shade.None() {
			zoc.Add(draw.Polygon(draw.Style{Fill: l.Shade}, pts...))
		}
	}
	sc.Add(terrain)
	// Hexsides: each side between two hexes of the grid once, from the
	// hex with the lower number, towards NE, SE and S (the other three
	// are some other hex's).
	sides := &draw.Group{ID: "hexsides", Class: "hexsides"}
	routes := &draw.Group{ID: "routes", Class: "routes"}
	crossings := &draw.Group{ID: "crossings", Class: "crossings"}
	if p.Side != nil {
		for _, h := range hexes {
			for _, d := range []Direction{NE, SE, S} {
				n := h.Neighbor(d)
				if !p.Grid.InBounds(n) {
					continue
				}
				sl := p.Side(Side(h, d))
				a, b := p.sideEnds(h, d)
				if !sl.Line.None() {
					sides.Add(draw.Line(draw.Style{Stroke: sl.Line, Width: max(sl.LineWidth, 1)}, a, b))
				}
				if !sl.Route.None() {
					routes.Add(route(p.Centre(h), p.Centre(n), sl))
				}
				if sl.Cross != NoCrossing {
					crossings.Add(crossing(sl.Cross, a, b, p.Centre(h), p.Centre(n), s)...)
				}
			}
		}
	}
	sc.Add(routes, sides, crossings)
	// The map so far is the same in every mail of a game: the static
	// layer, painted once (draw.Scene.Base). The title, the viewer's ZOC
	// (shaded over the routes and rivers, which show through), the units
	// and the key change.
	sc.Base = len(sc.Items)
	for i, l := range p.Title {
		t := draw.Label(draw.Pt(8, float64(i+1)*titleLine-3), l, 12, ink, draw.Start)
		t.Bold = i == 0
		sc.Add(t)
	}
	if len(zoc.Items) > 0 {
		sc.Add(zoc)
	}
	units := &draw.Group{ID: "units", Class: "units"}
	stack := map[Hex]int{}
	for _, c := range p.Counters {
		i := stack[c.Hex]
		stack[c.Hex]++
		units.Add(p.counter(c, i))
	}
	sc.Add(units)
	sc.Add(p.key(p.top() + mapH + 12))
	return sc
}

// route is a route across a hexside, centre to centre.
func route(a, b draw.Point, sl SideLook) draw.Shape {
	if !sl.RouteDash {
		return draw.Line(draw.Style{Stroke: sl.Route, Width: 2.2}, a, b)
	}
	g := &draw.Group{}
	const n = 5
	for i := 0; i < n; i += 2 {
		f0, f1 := float64(i)/n, float64(i+1)/n
		g.Add(draw.Line(draw.Style{Stroke: sl.Route, Width: 1.6}, lerp(a, b, f0), lerp(a, b, f1)))
	}
	return g
}

func lerp(a, b draw.Point, f float64) draw.Point {
	return draw.Pt(a.X+(b.X-a.X)*f, a.Y+(b.Y-a.Y)*f)
}

var (
	bridgeInk = draw.RGB(70, 50, 30)
	fordFill  = draw.RGB(235, 225, 170)
)

// crossing marks a crossing at the middle of a side (a to b), between
// the centres c and d of its hexes.
func crossing(k Crossing, a, b, c, d draw.Point, s float64) []draw.Shape {
	m := lerp(a, b, 0.5)
	ux, uy := (d.X-c.X)/(s*math.Sqrt(3)), (d.Y-c.Y)/(s*math.Sqrt(3)) // across the side
	vx, vy := (b.X-a.X)/s, (b.Y-a.Y)/s                               // along it
	at := func(fu, fv float64) draw.Point { return draw.Pt(m.X+ux*fu+vx*fv, m.Y+uy*fu+vy*fv) }
	r := s * 0.18
	switch k {
	case Bridge:
		st := draw.Style{Stroke: bridgeInk, Width: 1.6}
		return []draw.Shape{draw.Line(st, at(-r*1.4, -r), at(r*1.4, -r)), draw.Line(st, at(-r*1.4, r), at(r*1.4, r))}
	case Ford:
		return []draw.Shape{&draw.Circle{Style: draw.Style{Fill: fordFill, Stroke: bridgeInk, Width: 0.8}, C: m, R: r}}
	case Ferry:
		return []draw.Shape{&draw.Circle{Style: draw.Style{Fill: draw.RGB(255, 255, 255), Stroke: draw.RGB(20, 60, 160), Width: 1.2}, C: m, R: r}}
	case Dam:
		return []draw.Shape{draw.Line(draw.Style{Stroke: bridgeInk, Width: 3}, at(0, -r*1.5), at(0, r*1.5))}
	}
	return nil
}

// pattern is what marks a terrain over its colour, inside the hex.
func pattern(p Pattern, c draw.Point, s float64, fill draw.Color) []draw.Shape {
	dark := draw.RGB(fill.R*3/5, fill.G*3/5, fill.B*3/5)
	at := func(fx, fy float64) draw.Point { return draw.Pt(c.X+fx*s, c.Y+fy*s) }
	var out []draw.Shape
	switch p {
	case Trees:
		for _, o := range [][2]float64{{-0.35, -0.1}, {0, -0.25}, {0.35, -0.1}, {-0.15, 0.2}, {0.2, 0.2}} {
			out = append(out, &draw.Circle{Style: draw.Style{Fill: dark}, C: at(o[0], o[1]), R: s * 0.11})
		}
	case Dots:
		for _, o := range [][2]float64{{-0.4, -0.15}, {-0.1, 0.1}, {0.2, -0.2}, {0.4, 0.1}, {0, -0.35}, {-0.3, 0.3}, {0.25, 0.35}} {
			out = append(out, &draw.Circle{Style: draw.Style{Fill: dark}, C: at(o[0], o[1]), R: s * 0.05})
		}
	case Marsh:
		for _, o := range [][2]float64{{-0.3, -0.2}, {0.15, -0.05}, {-0.2, 0.2}, {0.3, 0.3}} {
			out = append(out, draw.Line(draw.Style{Stroke: draw.RGB(40, 90, 140), Width: 1}, at(o[0]-0.15, o[1]), at(o[0]+0.15, o[1])))
		}
	case Rise:
		out = append(out, draw.Line(draw.Style{Stroke: dark, Width: 1.4}, at(-0.45, 0.15), at(-0.2, -0.15), at(0.2, -0.15), at(0.45, 0.15)))
	case Peak:
		out = append(out, draw.Polygon(draw.Style{Fill: dark}, at(-0.4, 0.25), at(0, -0.35), at(0.4, 0.25)))
	case Blocks:
		for _, o := range [][2]float64{{-0.3, -0.2}, {0.05, -0.2}, {-0.3, 0.12}, {0.05, 0.12}} {
			out = append(out, &draw.Rect{Style: draw.Style{Fill: dark}, X: c.X + o[0]*s, Y: c.Y + o[1]*s, W: s * 0.25, H: s * 0.22})
		}
	case Waves:
		for _, y := range []float64{-0.15, 0.2} {
			out = append(out, draw.Line(draw.Style{Stroke: dark, Width: 0.9}, at(-0.35, y), at(-0.17, y-0.1), at(0, y), at(0.17, y-0.1), at(0.35, y)))
		}
	}
	return out
}

// counter draws a unit as the i-th counter of its hex.
func (p Picture) counter(c Counter, i int) draw.Shape {
	s := p.size()
	side := s * 1.05
	ctr := p.Centre(c.Hex)
	off := float64(min(i, 3)) * s * 0.16
	x, y := ctr.X-side/2+off, ctr.Y-side/2+off
	g := &draw.Group{ID: c.ID, Class: c.Class, Title: c.Title}
	if c.FacesVertex {
		g.Add(p.vertexWedge(c, draw.Pt(x+side/2, y+side/2), side))
	}
	g.Add(&draw.Rect{Style: draw.Style{Fill: c.Fill, Stroke: ink, Width: 0.8}, X: x, Y: y, W: side, H: side})
	g.Add(&draw.Text{At: draw.Pt(x+side/2, y+side*0.42), S: c.Code, Size: side * 0.3, Fill: c.Ink, Anchor: draw.Middle, Bold: true})
	g.Add(draw.Label(draw.Pt(x+side/2, y+side*0.85), c.Strength, side*0.32, c.Ink, draw.Middle))
	if c.Marks != "" {
		mx := x + side // the top right corner, or the top left where a wedge points
		if c.FacesVertex && c.Vertex.norm() == NNE {
			mx = x
		}
		if t := p.TypeSize; t > 0 {
			// Larger type: a badge as wide as the marks need.
			w := max(t*1.1, t*0.62*float64(len(c.Marks))+t*0.5)
			g.Add(&draw.Rect{Style: draw.Style{Fill: draw.RGB(250, 210, 40), Stroke: ink, Width: 0.6}, X: mx - w/2, Y: y - t*0.7, W: w, H: t * 1.3})
			g.Add(&draw.Text{At: draw.Pt(mx, y+t*0.38), S: c.Marks, Size: t, Fill: ink, Anchor: draw.Middle, Bold: true})
		} else {
			g.Add(&draw.Circle{Style: draw.Style{Fill: draw.RGB(250, 210, 40), Stroke: ink, Width: 0.5}, C: draw.Pt(mx, y), R: side * 0.22})
			g.Add(&draw.Text{At: draw.Pt(mx, y+side*0.1), S: c.Marks, Size: side * 0.28, Fill: ink, Anchor: draw.Middle, Bold: true})
		}
	}
	if c.Leaders > 0 {
		g.Add(p.leaderStar(c, x, y, side)...)
	}
	if c.Faces {
		a := -math.Pi/2 + float64(c.Facing)*math.Pi/3
		cx, cy := x+side/2, y+side/2
		tip := draw.Pt(cx+math.Cos(a)*side*0.78, cy+math.Sin(a)*side*0.78)
		l := draw.Pt(cx+math.Cos(a-0.45)*side*0.55, cy+math.Sin(a-0.45)*side*0.55)
		r := draw.Pt(cx+math.Cos(a+0.45)*side*0.55, cy+math.Sin(a+0.45)*side*0.55)
		g.Add(draw.Polygon(draw.Style{Fill: ink}, l, tip, r))
	}
	return g
}

// vertexWedge is the mark of a counter facing a vertex: a wedge drawn
// under the counter (centre ctr) whose point is on the hex's corner at
// that vertex, so only its point shows, outside the counter.
func (p Picture) vertexWedge(c Counter, ctr draw.Point, side float64) draw.Shape {
	// Vertex NNE is corner 5 (corners count clockwise from the east
	// point); each vertex clockwise is one more.
	hc := p.Centre(c.Hex)
	k := p.corner(c.Hex, (int(c.Vertex.norm())+5)%6)
	tip := lerp(hc, k, 0.97)
	dx, dy := tip.X-ctr.X, tip.Y-ctr.Y
	l := math.Hypot(dx, dy)
	if l == 0 {
		return &draw.Group{}
	}
	nx, ny := -dy/l*side*0.3, dx/l*side*0.3
	return draw.Polygon(draw.Style{Fill: ink, Stroke: draw.RGB(255, 255, 255), Width: 0.6},
		draw.Pt(ctr.X+nx, ctr.Y+ny), tip, draw.Pt(ctr.X-nx, ctr.Y-ny))
}

// LeaderFill is the colour of the leaders' star on a counter.
var LeaderFill = draw.RGB(250, 210, 40)

// leaderStar is the star of the leaders with a counter at x, y.
func (p Picture) leaderStar(c Counter, x, y, side float64) []draw.Shape {
	at := draw.Pt(x, y+side)
	if c.FacesVertex && c.Vertex.norm() == SSW {
		at.X = x + side
	}
	pts := make([]draw.Point, 10)
	for i := range pts {
		r := side * 0.26
		if i%2 == 1 {
			r = side * 0.11
		}
		a := -math.Pi/2 + float64(i)*math.Pi/5
		pts[i] = draw.Pt(at.X+r*math.Cos(a), at.Y+r*math.Sin(a))
	}
	out := []draw.Shape{draw.Polygon(draw.Style{Fill: LeaderFill, Stroke: ink, Width: 0.6}, pts...)}
	if c.Leaders > 1 {
		out = append(out, &draw.Text{At: draw.Pt(at.X, at.Y+side*0.42), S: fmt.Sprint(c.Leaders), Size: side * 0.26, Fill: ink, Anchor: draw.Middle, Bold: true})
	}
	return out
}

func (p Picture) keyColumns() int {
	if p.KeyColumns <= 0 {
		return 3
	}
	return p.KeyColumns
}

// key draws the key under the map, KeyColumns entries a row.
func (p Picture) key(y float64) draw.Shape {
	g := &draw.Group{ID: "key", Class: "key"}
	n := p.keyColumns()
	colW := (16 + p.size()*(1.5*float64(p.Grid.Cols)+0.5)) / float64(n)
	for i, k := range p.Key {
		x := 8 + float64(i%n)*colW
		yy := y + float64(i/n)*18
		switch {
		case !k.Fill.None():
			g.Add(&draw.Rect{Style: draw.Style{Fill: k.Fill, Stroke: outline, Width: 0.6}, X: x, Y: yy, W: 22, H: 14})
			g.Add(pattern(k.Pattern, draw.Pt(x+11, yy+7), 9, k.Fill)...)
		case !k.Line.None():
			g.Add(draw.Line(draw.Style{Stroke: k.Line, Width: 2.5}, draw.Pt(x, yy+7), draw.Pt(x+22, yy+7)))
		}
		g.Add(draw.Label(draw.Pt(x+28, yy+11), k.Label, 10.5, ink, draw.Start))
	}
	return g
}

// String names a crossing.
func (k Crossing) String() string {
	if int(k) < len(crossingNames) {
		return crossingNames[k]
	}
	return fmt.Sprintf("crossing(%d)", int(k))
}

var crossingNames = []string{"none", "bridge", "ford", "ferry", "dam"}
