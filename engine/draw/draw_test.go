package draw

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"math/rand/v2"
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

// A scene with a static layer (Base) paints the same picture as without
// one; its PNG is the same bytes from the layer painted or from the
// layer kept, shows the picture (every colour the palette has exactly),
// and a scene whose static layer differs is not drawn from another's.
func TestBaseLayerDrawsTheSamePicture(t *testing.T) {
	whole, err := sample().Raster(1.5)
	if err != nil {
		t.Fatal(err)
	}
	var first []byte
	for i := range 3 { // painted, kept (over a canvas another scene dirtied), painted again
		switch i {
		case 1:
			other := sample()
			other.Base = 2
			other.Add(&Rect{Style: Style{Fill: red}, X: 0, Y: 0, W: 200, H: 120})
			if _, err := other.PNG(1.5); err != nil {
				t.Fatal(err)
			}
		case 2:
			forgetBases()
		}
		s := sample()
		s.Base = 2
		img, err := s.Raster(1.5)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(img.Pix, whole.Pix) {
			t.Fatalf("try %d: the scene painted over its static layer differs from the scene painted whole", i)
		}
		b, err := s.PNG(1.5)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = b
		} else if !bytes.Equal(b, first) {
			t.Fatalf("try %d: the same scene gave another PNG", i)
		}
	}
	dec, err := png.Decode(bytes.NewReader(first))
	if err != nil {
		t.Fatal(err)
	}
	pal := dec.(*image.Paletted)
	exact := 0
	for y := range whole.Rect.Dy() {
		for x := range whole.Rect.Dx() {
			if pal.At(x, y) == whole.At(x, y) {
				exact++
			}
		}
	}
	if n := whole.Rect.Dx() * whole.Rect.Dy(); exact < n*95/100 {
		t.Fatalf("%d of %d pixels kept their colour", exact, n)
	}
	s := sample()
	s.Base = 2
	s.Items[1].(*Path).Fill = blue
	moved, _ := s.PNG(1.5)
	forgetBases()
	fresh, _ := s.PNG(1.5)
	if bytes.Equal(moved, first) || !bytes.Equal(moved, fresh) {
		t.Fatal("a changed static layer was drawn from the one kept")
	}
}

// The palette's nearest colour is the one a search of the whole palette
// finds (the lowest index among equals), for colours all over the cube.
func TestQuantiseNearestIsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var cs []colourCount
	for range 256 {
		cs = append(cs, colourCount{c: r.Uint32() | 0xff, n: 1})
	}
	cs = append(cs[:200], cs[:56]...) // equal colours: the lower index wins
	n := nearIndex{cs: cs}
	for range 20000 {
		c := r.Uint32()
		if r.IntN(2) == 0 {
			c |= 0xff
		}
		best, bd := 0, math.MaxInt
		for i, x := range cs {
			if d := colourDist(x.c, c); d < bd {
				best, bd = i, d
			}
		}
		if got := n.nearest(c); int(got) != best {
			t.Fatalf("nearest(%08x) = %d (distance %d), want %d (distance %d)", c, got, colourDist(cs[got].c, c), best, bd)
		}
	}
}

// Mails are drawn at once by several workers: the static layer kept is
// shared, and each draws the same bytes.
func TestBaseLayerConcurrent(t *testing.T) {
	forgetBases()
	out := make(chan []byte, 4)
	for range 4 {
		go func() {
			s := sample()
			s.Base = 3
			b, err := s.PNG(2)
			if err != nil {
				t.Error(err)
			}
			out <- b
		}()
	}
	first := <-out
	for range 3 {
		if b := <-out; !bytes.Equal(b, first) {
			t.Fatal("two workers drew the same scene differently")
		}
	}
}
