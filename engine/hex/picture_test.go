package hex

import (
	"math"
	"testing"

	"pbem/engine/draw"
)

// A counter facing a vertex (GBACW 7.1) is drawn with a wedge whose point
// is on that corner of its hex, the corner between the two sides whose
// hexes are its front, for every vertex, odd and even columns, and the
// second counter of a stack as well as the first.
func TestPictureFacingVertexPointsAtTheCorner(t *testing.T) {
	g, err := NewGrid(MustParse("0101"), MustParse("0404"))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []Hex{MustParse("0202"), MustParse("0303")} {
		for v := range NumVertices {
			for stack := range 2 {
				p := Picture{Grid: g, Look: func(Hex) Look { return Look{Fill: draw.RGB(200, 200, 200)} }}
				for range stack + 1 {
					p.Counters = append(p.Counters, Counter{ID: "u", Hex: h, Code: "U", FacesVertex: true, Vertex: v})
				}
				sc := p.Scene()
				var units *draw.Group
				for _, it := range sc.Items {
					if gr, ok := it.(*draw.Group); ok && gr.ID == "units" {
						units = gr
					}
				}
				wedge := units.Items[stack].(*draw.Group).Items[0].(*draw.Path)
				tip := wedge.Points[1]
				// The corner meant: where the sides towards v's two
				// directions meet.
				d1, d2 := v.Sides()
				a1, b1 := p.sideEnds(h, d1)
				a2, b2 := p.sideEnds(h, d2)
				var want draw.Point
				for _, q := range []draw.Point{a1, b1} {
					for _, r := range []draw.Point{a2, b2} {
						if math.Hypot(q.X-r.X, q.Y-r.Y) < 1e-9 {
							want = q
						}
					}
				}
				c := p.Centre(h)
				if d := math.Hypot(tip.X-want.X, tip.Y-want.Y); d > 0.05*p.size() {
					t.Errorf("%s facing %s (stack %d): wedge tip %v, the corner is %v (centre %v)", h, v, stack, tip, want, c)
				}
			}
		}
	}
	// Without FacesVertex no wedge is drawn: the counter's first shape is
	// its square.
	p := Picture{Grid: g, Look: func(Hex) Look { return Look{} }, Counters: []Counter{{ID: "u", Hex: MustParse("0202"), Vertex: E}}}
	for _, it := range p.Scene().Items {
		if gr, ok := it.(*draw.Group); ok && gr.ID == "units" {
			if _, ok := gr.Items[0].(*draw.Group).Items[0].(*draw.Rect); !ok {
				t.Error("a counter that faces no vertex is drawn with a wedge")
			}
		}
	}
}
