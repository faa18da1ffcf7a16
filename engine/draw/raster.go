package draw

import (
	"bytes"
	"cmp"
	"fmt"
	"image"
	"image/color"
	stddraw "image/draw"
	"image/png"
	"math"
	"slices"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// Raster paints the scene at scale k (scene units to pixels) into a new
// RGBA image. Shapes are painted in order, each fill before its stroke;
// strokes join and end round.
func (s *Scene) Raster(k float64) (*image.RGBA, error) {
	w, h := int(math.Ceil(s.W*k)), int(math.Ceil(s.H*k))
	if w <= 0 || h <= 0 || w > maxSide || h > maxSide {
		return nil, fmt.Errorf("raster: size %dx%d out of range", w, h)
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	if !s.Background.None() {
		stddraw.Draw(img, img.Bounds(), image.NewUniform(rgba(s.Background)), image.Point{}, stddraw.Src)
	}
	r := &rasterer{img: img, k: k, z: vector.NewRasterizer(w, h)}
	r.z.DrawOp = stddraw.Over
	for _, it := range s.Items {
		r.shape(it)
	}
	return img, nil
}

// rgba is c premultiplied, as image/color wants it.
func rgba(c Color) color.Color { return color.NRGBA{c.R, c.G, c.B, c.A} }

// rasterer paints shapes one at a time: each shape's polygons (in
// pixels) are collected, then rasterised over their bounding box alone,
// so a small shape costs little however large the picture.
type rasterer struct {
	img   *image.RGBA
	k     float64
	z     *vector.Rasterizer
	polys [][]Point // of the shape at hand, in pixels
}

func (r *rasterer) shape(it Shape) {
	switch x := it.(type) {
	case *Group:
		for _, c := range x.Items {
			r.shape(c)
		}
	case *Path:
		if x.Closed && !x.Fill.None() && len(x.Points) >= 3 {
			r.begin()
			r.poly(x.Points)
			r.paint(x.Fill)
		}
		if !x.Stroke.None() && len(x.Points) >= 2 {
			r.begin()
			pts := x.Points
			if x.Closed {
				pts = append(slices.Clip(pts), pts[0])
			}
			r.stroke(pts, x.width())
			r.paint(x.Stroke)
		}
	case *Rect:
		pts := []Point{{x.X, x.Y}, {x.X + x.W, x.Y}, {x.X + x.W, x.Y + x.H}, {x.X, x.Y + x.H}}
		r.shape(&Path{Style: x.Style, Points: pts, Closed: true})
	case *Circle:
		if !x.Fill.None() {
			r.begin()
			r.poly(circle(x.C, x.R, r.k))
			r.paint(x.Fill)
		}
		if !x.Stroke.None() {
			r.begin()
			pts := circle(x.C, x.R, r.k)
			r.stroke(append(pts, pts[0]), x.width())
			r.paint(x.Stroke)
		}
	case *Text:
		r.text(x)
	}
}

func (r *rasterer) begin() { r.polys = r.polys[:0] }

// paint fills the polygons collected since begin with c.
func (r *rasterer) paint(c Color) {
	if len(r.polys) == 0 {
		return
	}
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range r.polys {
		for _, q := range p {
			x0, y0, x1, y1 = min(x0, q.X), min(y0, q.Y), max(x1, q.X), max(y1, q.Y)
		}
	}
	box := image.Rect(int(math.Floor(x0)), int(math.Floor(y0)), int(math.Ceil(x1))+1, int(math.Ceil(y1))+1).Intersect(r.img.Bounds())
	if box.Empty() {
		return
	}
	r.z.Reset(box.Dx(), box.Dy())
	r.z.DrawOp = stddraw.Over
	ox, oy := float64(box.Min.X), float64(box.Min.Y)
	for _, p := range r.polys {
		r.z.MoveTo(float32(p[0].X-ox), float32(p[0].Y-oy))
		for _, q := range p[1:] {
			r.z.LineTo(float32(q.X-ox), float32(q.Y-oy))
		}
		r.z.ClosePath()
	}
	r.z.Draw(r.img, box, image.NewUniform(rgba(c)), image.Point{})
}

// poly adds a polygon (in scene units) to the shape at hand. The
// rasteriser clamps the absolute sum of coverage, so polygons added with
// the same winding overlap without holes: poly gives every polygon a
// negative signed area.
func (r *rasterer) poly(pts []Point) {
	if len(pts) < 3 {
		return
	}
	area := 0.0
	for i, p := range pts {
		q := pts[(i+1)%len(pts)]
		area += p.X*q.Y - q.X*p.Y
	}
	px := make([]Point, len(pts))
	for i := range pts {
		p := pts[i]
		if area > 0 {
			p = pts[len(pts)-1-i]
		}
		px[i] = Pt(p.X*r.k, p.Y*r.k)
	}
	r.polys = append(r.polys, px)
}

// stroke adds a polyline of width w: a quadrilateral per segment and a
// disc at every point (round joins and caps).
func (r *rasterer) stroke(pts []Point, w float64) {
	hw := w / 2
	for i := 0; i+1 < len(pts); i++ {
		a, b := pts[i], pts[i+1]
		dx, dy := b.X-a.X, b.Y-a.Y
		l := math.Hypot(dx, dy)
		if l == 0 {
			continue
		}
		nx, ny := -dy/l*hw, dx/l*hw
		r.poly([]Point{{a.X + nx, a.Y + ny}, {b.X + nx, b.Y + ny}, {b.X - nx, b.Y - ny}, {a.X - nx, a.Y - ny}})
	}
	if hw*r.k >= 0.75 { // joins finer than a pixel and a half do not show
		for _, p := range pts {
			r.poly(circle(p, hw, r.k))
		}
	}
}

// circle is a polygon close enough to a circle of radius rad at scale k.
func circle(c Point, rad, k float64) []Point {
	n := int(math.Ceil(rad * k * 1.5))
	n = min(max(n, 8), 96)
	pts := make([]Point, n)
	for i := range pts {
		a := 2 * math.Pi * float64(i) / float64(n)
		pts[i] = Pt(c.X+rad*math.Cos(a), c.Y+rad*math.Sin(a))
	}
	return pts
}

// The embedded fonts: Go Regular and Go Bold (golang.org/x/image/font/gofont),
// parsed once; faces are kept per size.
var fonts struct {
	once          sync.Once
	regular, bold *opentype.Font
	err           error
	mu            sync.Mutex
	faces         map[faceKey]font.Face
}

type faceKey struct {
	bold bool
	size float64
}

func face(bold bool, size float64) (font.Face, error) {
	fonts.once.Do(func() {
		fonts.regular, fonts.err = opentype.Parse(goregular.TTF)
		if fonts.err == nil {
			fonts.bold, fonts.err = opentype.Parse(gobold.TTF)
		}
		fonts.faces = map[faceKey]font.Face{}
	})
	if fonts.err != nil {
		return nil, fonts.err
	}
	size = math.Round(size*4) / 4
	key := faceKey{bold, size}
	fonts.mu.Lock()
	defer fonts.mu.Unlock()
	if f, ok := fonts.faces[key]; ok {
		return f, nil
	}
	ft := fonts.regular
	if bold {
		ft = fonts.bold
	}
	f, err := opentype.NewFace(ft, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		return nil, err
	}
	if len(fonts.faces) < 64 {
		fonts.faces[key] = f
	}
	return f, nil
}

// text draws a text; a face is not safe for concurrent use, so drawing
// holds the faces' lock.
func (r *rasterer) text(t *Text) {
	size := t.Size * r.k
	if t.S == "" || t.Fill.None() || size < 1 {
		return
	}
	f, err := face(t.Bold, size)
	if err != nil {
		return
	}
	fonts.mu.Lock()
	defer fonts.mu.Unlock()
	d := &font.Drawer{Dst: r.img, Src: image.NewUniform(rgba(t.Fill)), Face: f}
	x := t.At.X * r.k
	switch t.Anchor {
	case Middle:
		x -= float64(d.MeasureString(t.S)) / 64 / 2
	case End:
		x -= float64(d.MeasureString(t.S)) / 64
	}
	d.Dot = fixed.Point26_6{X: fixed.Int26_6(math.Round(x * 64)), Y: fixed.Int26_6(math.Round(t.At.Y * r.k * 64))}
	d.DrawString(t.S)
}

// PNG rasterises the scene at scale k and encodes it as a paletted PNG
// at the best compression: the picture's own colours when it has at most
// 256, else its 256 most frequent ones with every other pixel taken to
// the nearest of them (a board is mostly flat colours; anti-aliased edges
// lose a shade, nothing more). The same scene gives the same bytes.
func (s *Scene) PNG(k float64) ([]byte, error) {
	img, err := s.Raster(k)
	if err != nil {
		return nil, err
	}
	pal := Quantise(img)
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: pngLevel}
	if err := enc.Encode(&b, pal); err != nil {
		return nil, fmt.Errorf("png: %w", err)
	}
	return b.Bytes(), nil
}

// Quantise returns img as a paletted image of at most 256 colours,
// chosen by frequency (ties by colour value), without dithering.
func Quantise(img *image.RGBA) *image.Paletted {
	// A board is mostly runs of one colour: count by runs.
	counts := map[uint32]int{}
	pix := img.Pix
	run, last := 0, uint32(0)
	for i := 0; i+3 < len(pix); i += 4 {
		c := pixel(pix[i : i+4])
		if c != last && run > 0 {
			counts[last] += run
			run = 0
		}
		last = c
		run++
	}
	if run > 0 {
		counts[last] += run
	}
	cs := make([]colourCount, 0, len(counts))
	for c, n := range counts {
		cs = append(cs, colourCount{c, n})
	}
	slices.SortFunc(cs, func(a, b colourCount) int { return cmp.Or(cmp.Compare(b.n, a.n), cmp.Compare(a.c, b.c)) })
	if len(cs) > 256 {
		cs = cs[:256]
	}
	pal := make(color.Palette, len(cs))
	index := make(map[uint32]uint8, len(cs))
	for i, c := range cs {
		pal[i] = color.RGBA{uint8(c.c >> 24), uint8(c.c >> 16), uint8(c.c >> 8), uint8(c.c)}
		index[c.c] = uint8(i)
	}
	out := image.NewPaletted(img.Bounds(), pal)
	prev, pidx := uint32(0), uint8(0)
	for i, j := 0, 0; i+3 < len(pix); i, j = i+4, j+1 {
		c := pixel(pix[i : i+4])
		if c == prev && j > 0 {
			out.Pix[j] = pidx
			continue
		}
		idx, ok := index[c]
		if !ok {
			idx = nearest(cs, pix[i:i+4])
			index[c] = idx
		}
		out.Pix[j], prev, pidx = idx, c, idx
	}
	return out
}

// colourCount is a colour (RGBA, premultiplied, in one word) and how many
// pixels have it.
type colourCount struct {
	c uint32
	n int
}

func pixel(p []uint8) uint32 {
	return uint32(p[0])<<24 | uint32(p[1])<<16 | uint32(p[2])<<8 | uint32(p[3])
}

// nearest is the index of the colour of cs closest to pixel p.
func nearest(cs []colourCount, p []uint8) uint8 {
	best, bd := 0, math.MaxInt
	for i, x := range cs {
		d := 0
		for k, sh := range [4]uint{24, 16, 8, 0} {
			v := int(uint8(x.c>>sh)) - int(p[k])
			d += v * v
		}
		if d < bd {
			best, bd = i, d
		}
	}
	return uint8(best)
}

// pngLevel is the PNG's compression.
var pngLevel = png.DefaultCompression
