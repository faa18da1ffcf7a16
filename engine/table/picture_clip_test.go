package table

import (
	"testing"

	"pbem/engine/draw"
)

// A range ring of a unit at the table's edge: with ClipRings only its
// part on the table is drawn, and its label too; without, the whole
// circle as before.
func TestPictureClipRings(t *testing.T) {
	ring := Ring{Centre: Pt(Inch(4), Inch(47)), Radius: Inch(9), Label: "A 9in", Color: draw.RGB(160, 40, 40)}
	p := Picture{Table: Scene{Width: Inch(48), Height: Inch(48)}, Unit: Inches, PerUnit: 10, Rings: []Ring{ring}}
	rings := func(p Picture) *draw.Group {
		for _, it := range p.Scene().Items {
			if g, ok := it.(*draw.Group); ok && g.ID == "rings" {
				return g
			}
		}
		t.Fatal("no rings drawn")
		return nil
	}
	if _, ok := rings(p).Items[0].(*draw.Circle); !ok {
		t.Fatal("without ClipRings a ring is not drawn as a circle")
	}
	p.ClipRings = true
	lo, hi := p.At(Pt(0, Inch(48))), p.At(Pt(Inch(48), 0))
	arcs, labels := 0, 0
	for _, it := range rings(p).Items {
		switch x := it.(type) {
		case *draw.Circle:
			t.Error("a ring off the table's edge drawn whole")
		case *draw.Path:
			arcs++
			for _, q := range x.Points {
				if q.X < lo.X-1e-9 || q.X > hi.X+1e-9 || q.Y < lo.Y-1e-9 || q.Y > hi.Y+1e-9 {
					t.Errorf("a point of the ring off the table: %v (table %v to %v)", q, lo, hi)
				}
			}
		case *draw.Text:
			labels++
			if x.At.Y < lo.Y || x.At.Y > hi.Y {
				t.Errorf("the label is off the table at %v", x.At)
			}
		}
	}
	// The ring leaves the table at the top and at the left: one arc.
	if arcs != 1 || labels != 1 {
		t.Errorf("%d arcs and %d labels, want 1 and 1", arcs, labels)
	}
	// A ring wholly on the table is still one circle.
	p.Rings = []Ring{{Centre: Pt(Inch(24), Inch(24)), Radius: Inch(9), Label: "B", Color: ring.Color}}
	if _, ok := rings(p).Items[0].(*draw.Circle); !ok {
		t.Error("a ring wholly on the table is not drawn as a circle")
	}
}
