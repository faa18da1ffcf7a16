package table

import (
	"math"

	"pbem/engine/draw"
)

// Picture is a table drawn as a picture (engine/draw) rather than as
// text: the same Scene (Table) as the ASCII drawing (terrain areas, lines,
// pieces, labels), with colours, each base a rectangle whose front edge
// is drawn heavy and whose facing is marked, a scale bar, and range
// rings. Areas and lines are drawn in the order Render draws them, so
// the same picture gives the same scene.
type Picture struct {
	Table Scene
	// Unit is the scale bar's unit; PerUnit is scene units (pixels of
	// the PNG) per Unit (8 per centimetre or 20 per inch if 0).
	Unit    Unit
	PerUnit float64
	// Areas and Lines give each area's and line's colour by its Name;
	// Piece gives a piece its colours and class (by its place in
	// Scene.Pieces).
	Areas func(name string) draw.Color
	Lines func(name string) LineLook
	Piece func(i int) PieceLook
	Rings []Ring
	Title []string
	Key   []KeyEntry

	// ClipRings draws only the parts of the rings on the table (a unit at
	// the table's edge has half its ring off it), each ring's label at
	// the top of what is left.
	ClipRings bool
}

// LineLook is how a linear feature is drawn.
type LineLook struct {
	Color draw.Color
	Width float64 // in scene units
}

// PieceLook is how a piece's bases are drawn.
type PieceLook struct {
	ID, Class, Title string
	Fill, Ink        draw.Color
	Label            string // written on the first base (the piece's letter if "")
}

// Ring is a range ring: a circle of Radius around a point (a base's
// front, say), labelled.
type Ring struct {
	Centre Point
	Radius Length
	Label  string
	Color  draw.Color
}

// KeyEntry is one entry of the key under the table.
type KeyEntry struct {
	Fill, Line draw.Color
	Label      string
}

var (
	pictureInk = draw.RGB(30, 30, 30)
	tableCloth = draw.RGB(205, 222, 170)
)

const (
	pictureMargin = 10
	pictureTitle  = 16
)

func (p Picture) perUnit() float64 {
	switch {
	case p.PerUnit > 0:
		return p.PerUnit
	case p.Unit == Inches:
		return 20
	}
	return 8
}

// k is scene units per micrometre.
func (p Picture) k() float64 { return p.perUnit() / float64(p.Unit.Size()) }

// At is a point of the table in the picture's scene (north up).
func (p Picture) At(q Point) draw.Point {
	top := float64(len(p.Title))*pictureTitle + pictureMargin
	return draw.Pt(pictureMargin+float64(q.X)*p.k(), top+float64(p.Table.Height-q.Y)*p.k())
}

func (p Picture) pts(ps []Point) []draw.Point {
	out := make([]draw.Point, len(ps))
	for i, q := range ps {
		out[i] = p.At(q)
	}
	return out
}

// Scene draws the picture.
func (p Picture) Scene() *draw.Scene {
	s := p.Table.sorted()
	w := float64(s.Width)*p.k() + 2*pictureMargin
	tableTop := float64(len(p.Title))*pictureTitle + pictureMargin
	tableH := float64(s.Height) * p.k()
	keyRows := (len(p.Key) + 2) / 3
	sc := &draw.Scene{W: math.Ceil(w), Background: draw.RGB(250, 248, 240)}
	sc.H = math.Ceil(tableTop + tableH + 36 + float64(keyRows)*18 + 6)
	sc.Add(&draw.Rect{Style: draw.Style{Fill: tableCloth, Stroke: pictureInk, Width: 1}, X: pictureMargin, Y: tableTop, W: float64(s.Width) * p.k(), H: tableH})
	terrain := &draw.Group{ID: "terrain", Class: "terrain"}
	for _, a := range s.Areas { // by layer, as Render draws them
		c := draw.RGB(180, 180, 180)
		if p.Areas != nil {
			c = p.Areas(a.Name)
		}
		terrain.Add(&draw.Path{Style: draw.Style{Fill: c, Stroke: darker(c), Width: 0.8}, Class: "area " + a.Name, Points: p.pts(a.Shape), Closed: true})
	}
	for _, l := range s.Lines {
		lk := LineLook{Color: pictureInk, Width: 1.5}
		if p.Lines != nil {
			lk = p.Lines(l.Name)
		}
		terrain.Add(&draw.Path{Style: draw.Style{Stroke: lk.Color, Width: lk.Width}, Class: "line " + l.Name, Points: p.pts(l.Path)})
	}
	for _, l := range s.Labels {
		terrain.Add(draw.Label(p.At(l.At), l.Text, 10, pictureInk, draw.Start))
	}
	sc.Add(terrain)
	// The table so far is the same in every mail of a game: the static
	// layer, painted once (draw.Scene.Base). The title, range rings,
	// units, scale bar and key are drawn over it.
	sc.Base = len(sc.Items)
	for i, l := range p.Title {
		t := draw.Label(draw.Pt(pictureMargin, float64(i+1)*pictureTitle-3), l, 12, pictureInk, draw.Start)
		t.Bold = i == 0
		sc.Add(t)
	}
	if len(p.Rings) > 0 {
		rings := &draw.Group{ID: "rings", Class: "rings"}
		for _, r := range p.Rings {
			c := p.At(r.Centre)
			rad := float64(r.Radius) * p.k()
			if p.ClipRings {
				rings.Add(p.clippedRing(r, c, rad)...)
				continue
			}
			rings.Add(&draw.Circle{Style: draw.Style{Stroke: r.Color, Width: 1.2}, C: c, R: rad})
			rings.Add(draw.Label(draw.Pt(c.X, c.Y-rad-2), r.Label, 9, r.Color, draw.Middle))
		}
		sc.Add(rings)
	}
	units := &draw.Group{ID: "units", Class: "units"}
	for i, pc := range p.Table.Pieces { // in the caller's order: Piece(i) names them
		look := PieceLook{Fill: draw.RGB(255, 255, 255), Ink: pictureInk}
		if p.Piece != nil {
			look = p.Piece(i)
		}
		units.Add(p.piece(pc, look))
	}
	sc.Add(units)
	sc.Add(p.scaleBar(tableTop + tableH + 8))
	sc.Add(p.key(tableTop + tableH + 36))
	return sc
}

func darker(c draw.Color) draw.Color {
	return draw.RGB(c.R*3/4, c.G*3/4, c.B*3/4)
}

// piece draws every base of a piece: a rectangle, its front edge heavy,
// and on the first a mark pointing the way it faces and its label.
func (p Picture) piece(pc Piece, look PieceLook) draw.Shape {
	g := &draw.Group{ID: look.ID, Class: look.Class, Title: look.Title}
	label := look.Label
	if label == "" {
		label = string(pc.Letter)
	}
	var sx, sy float64
	n := 0
	for i, b := range pc.Bases {
		cs := b.Corners() // front-left, front-right, rear-right, rear-left
		pts := p.pts(cs[:])
		g.Add(draw.Polygon(draw.Style{Fill: look.Fill, Stroke: pictureInk, Width: 0.6}, pts...))
		g.Add(draw.Line(draw.Style{Stroke: pictureInk, Width: 1.8}, pts[0], pts[1]))
		for _, q := range pts {
			sx, sy, n = sx+q.X, sy+q.Y, n+1
		}
		if i > 0 {
			continue
		}
		front := p.At(b.Front)
		centre := draw.Pt((pts[0].X+pts[2].X)/2, (pts[0].Y+pts[2].Y)/2)
		dx, dy := front.X-centre.X, front.Y-centre.Y
		if l := math.Hypot(dx, dy); l > 0 {
			ux, uy := dx/l, dy/l
			tip := draw.Pt(front.X+ux*6, front.Y+uy*6)
			g.Add(draw.Polygon(draw.Style{Fill: pictureInk}, draw.Pt(front.X-uy*3, front.Y+ux*3), tip, draw.Pt(front.X+uy*3, front.Y-ux*3)))
		}
	}
	if n > 0 {
		// The label stands in the middle of the piece, on a tag of its
		// colours so it reads over the bases' lines.
		c := draw.Pt(sx/float64(n), sy/float64(n))
		w := 7*float64(len(label)) + 4
		g.Add(&draw.Rect{Style: draw.Style{Fill: look.Fill, Stroke: pictureInk, Width: 0.5}, X: c.X - w/2, Y: c.Y - 6, W: w, H: 12})
		g.Add(&draw.Text{At: draw.Pt(c.X, c.Y+3.5), S: label, Size: 10, Fill: look.Ink, Anchor: draw.Middle, Bold: true})
	}
	return g
}

// scaleBar draws a bar of 10 cm (or 12 inches) in steps of one unit.
func (p Picture) scaleBar(y float64) draw.Shape {
	n, label := 10, "10 cm"
	if p.Unit == Inches {
		n, label = 12, "12 inches"
	}
	g := &draw.Group{ID: "scale", Class: "scale"}
	u := p.perUnit()
	for i := range n {
		c := pictureInk
		if i%2 == 1 {
			c = draw.RGB(255, 255, 255)
		}
		g.Add(&draw.Rect{Style: draw.Style{Fill: c, Stroke: pictureInk, Width: 0.6}, X: pictureMargin + float64(i)*u, Y: y, W: u, H: 6})
	}
	g.Add(draw.Label(draw.Pt(pictureMargin+float64(n)*u+6, y+7), label, 10, pictureInk, draw.Start))
	return g
}

// key draws the key under the table, three entries a row.
func (p Picture) key(y float64) draw.Shape {
	g := &draw.Group{ID: "key", Class: "key"}
	colW := (float64(p.Table.Width)*p.k() + 2*pictureMargin) / 3
	for i, k := range p.Key {
		x := pictureMargin + float64(i%3)*colW
		yy := y + float64(i/3)*18
		switch {
		case !k.Fill.None():
			g.Add(&draw.Rect{Style: draw.Style{Fill: k.Fill, Stroke: pictureInk, Width: 0.6}, X: x, Y: yy, W: 22, H: 14})
		case !k.Line.None():
			g.Add(draw.Line(draw.Style{Stroke: k.Line, Width: 2.5}, draw.Pt(x, yy+7), draw.Pt(x+22, yy+7)))
		}
		g.Add(draw.Label(draw.Pt(x+28, yy+11), k.Label, 10.5, pictureInk, draw.Start))
	}
	return g
}
