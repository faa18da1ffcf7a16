package table

import (
	"math"

	"pbem/engine/draw"
)

// ringSteps is how many chords draw a clipped ring.
const ringSteps = 120

// clippedRing draws the arcs of ring r (centre c, radius rad in scene
// units) that lie on the table, as runs of chords, and its label over the
// top of them (see below); the whole circle when it is all on the table.
func (p Picture) clippedRing(r Ring, c draw.Point, rad float64) []draw.Shape {
	lo, hi := p.At(Pt(0, p.Table.Height)), p.At(Pt(p.Table.Width, 0))
	on := func(q draw.Point) bool { return q.X >= lo.X && q.X <= hi.X && q.Y >= lo.Y && q.Y <= hi.Y }
	pts := make([]draw.Point, ringSteps)
	first := -1 // a point off the table, where a run may begin
	for i := range pts {
		a := 2 * math.Pi * float64(i) / ringSteps
		pts[i] = draw.Pt(c.X+rad*math.Sin(a), c.Y-rad*math.Cos(a))
		if first < 0 && !on(pts[i]) {
			first = i
		}
	}
	st := draw.Style{Stroke: r.Color, Width: 1.2}
	label := func(at draw.Point) draw.Shape {
		return draw.Label(draw.Pt(at.X, at.Y-2), r.Label, 9, r.Color, draw.Middle)
	}
	if first < 0 {
		return []draw.Shape{&draw.Circle{Style: st, C: c, R: rad}, label(draw.Pt(c.X, c.Y-rad))}
	}
	var out []draw.Shape
	var run []draw.Point
	top := draw.Pt(0, math.Inf(1))
	flush := func() {
		if len(run) > 1 {
			out = append(out, draw.Line(st, run...))
		}
		run = nil
	}
	for k := 1; k <= ringSteps; k++ {
		q := pts[(first+k)%ringSteps]
		if !on(q) {
			flush()
			continue
		}
		run = append(run, q)
		if q.Y < top.Y {
			top = q
		}
	}
	flush()
	if len(out) > 0 && r.Label != "" {
		// Over the ring's top if that is on the table, else inside its
		// foot, else over the highest point left.
		switch t, b := draw.Pt(c.X, c.Y-rad), draw.Pt(c.X, c.Y+rad); {
		case on(t) && t.Y-11 >= lo.Y:
			top = t
		case on(b):
			top = b
		case top.Y-11 < lo.Y: // under the table's edge, not over it
			top.Y += 11
		}
		out = append(out, label(top))
	}
	return out
}
