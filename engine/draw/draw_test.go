package draw

import (
	"bytes"
	"image/color"
	"image/png"
	"testing"

	"pbem/internal/golden"
)

var (
	red   = RGB(200, 30, 30)
	blue  = RGB(20, 40, 200)
	white = RGB(255, 255, 255)
)

// sample is a scene with one of every shape, a group, a title, a
// translucent fill and text that needs escaping.
func sample() *Scene {
	s := &Scene{W: 200, H: 120, Background: white, Title: "a sample <board>"}
	g := &Group{ID: "unit-A", Class: "unit usa", Title: "1st Minnesota & co"}
	g.Add(&Rect{Style: Style{Fill: blue, Stroke: RGB(0, 0, 0), Width: 1.5}, X: 10, Y: 10, W: 40, H: 30})
	g.Add(Label(Pt(30, 30), "1/MN", 10, white, Middle))
	s.Add(g)
	s.Add(Polygon(Style{Fill: red.Alpha(128)}, Pt(100, 10), Pt(150, 60), Pt(100, 110)))
	s.Add(Line(Style{Stroke: blue, Width: 4}, Pt(10, 100), Pt(60, 80), Pt(190, 100)))
	s.Add(&Circle{Style: Style{Fill: red}, C: Pt(170, 30), R: 15.333333})
	s.Add(&Text{At: Pt(190, 115), S: "5 < 6", Size: 8, Fill: RGB(0, 0, 0), Anchor: End, Bold: true})
	return s
}

func TestSVGGolden(t *testing.T) {
	golden.Check(t, "sample.svg", sample().SVG())
}

// A scene read back from its SVG writes the same SVG: the outbox
// rasterises what compose wrote.
func TestParseSVGRoundTrip(t *testing.T) {
	svg := sample().SVG()
	s, err := ParseSVG(svg)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.SVG(); !bytes.Equal(got, svg) {
		t.Fatalf("read back and written again:\n%s\nwant\n%s", got, svg)
	}
}

func TestParseSVGRefusesWhatItDoesNotWrite(t *testing.T) {
	for _, in := range []string{
		"",
		"<html></html>",
		`<svg width="10" height="10"><image href="x"/></svg>`,
		`<svg width="10" height="10"><path d="M1 2L3"/></svg>`,
		`<svg width="100000" height="10"></svg>`,
		`<svg width="10" height="10"><g>`,
	} {
		if _, err := ParseSVG([]byte(in)); err == nil {
			t.Errorf("ParseSVG(%q): no error", in)
		}
	}
}

// The PNG decodes, has the scene's size at the scale asked, shows each
// shape's colour where it was drawn, and is the same bytes every time.
func TestPNG(t *testing.T) {
	b, err := sample().PNG(2)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if r := img.Bounds(); r.Dx() != 400 || r.Dy() != 240 {
		t.Fatalf("size %v, want 400x240", r)
	}
	at := func(x, y int) color.RGBA {
		r, g, b, a := img.At(x, y).RGBA()
		return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
	}
	for _, c := range []struct {
		x, y int
		want color.RGBA
	}{
		{2, 2, color.RGBA{255, 255, 255, 255}},            // background
		{30, 70, color.RGBA{20, 40, 200, 255}},            // the blue rectangle
		{340, 60, color.RGBA{200, 30, 30, 255}},           // the red circle
		{120 * 2, 60 * 2, color.RGBA{227, 142, 142, 255}}, // half red over white
		{60 * 2, 80 * 2, color.RGBA{20, 40, 200, 255}},    // the blue line's joint
	} {
		got := at(c.x, c.y)
		if d := dist(got, c.want); d > 12 {
			t.Errorf("pixel (%d,%d) = %v, want about %v", c.x, c.y, got, c.want)
		}
	}
	again, _ := sample().PNG(2)
	if !bytes.Equal(b, again) {
		t.Fatal("the same scene gave two PNGs")
	}
	// Text is drawn: the label's box has white pixels on the blue.
	white := 0
	for y := 40; y < 60; y++ {
		for x := 40; x < 80; x++ {
			if c := at(x, y); c.R > 200 && c.B > 200 {
				white++
			}
		}
	}
	if white < 20 {
		t.Fatalf("the label drew %d white pixels on its counter", white)
	}
}

func dist(a, b color.RGBA) int {
	d := 0
	for _, v := range []int{int(a.R) - int(b.R), int(a.G) - int(b.G), int(a.B) - int(b.B)} {
		d = max(d, max(v, -v))
	}
	return d
}

func FuzzParseSVG(f *testing.F) {
	f.Add(sample().SVG())
	f.Add([]byte(`<svg width="5" height="5"><path d="MZ"/></svg>`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ParseSVG(b)
		if err != nil {
			return
		}
		if _, err := s.Raster(0.05); err != nil && s.W*0.05 >= 1 && s.H*0.05 >= 1 {
			t.Fatal(err)
		}
	})
}
