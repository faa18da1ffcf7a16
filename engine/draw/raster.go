package draw

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/maphash"
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
	n := min(max(s.Base, 0), len(s.Items))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	if n > 0 {
		copy(img.Pix, baseLayer(s, k, w, h, n).img.Pix)
	} else {
		paintScene(img, s.Background, k, nil)
	}
	paintScene(img, Color{}, k, s.Items[n:])
	return img, nil
}

// paintScene paints a background (unless none) and items over img.
func paintScene(img *image.RGBA, bg Color, k float64, items []Shape) {
	if !bg.None() {
		stddraw.Draw(img, img.Bounds(), image.NewUniform(rgba(bg)), image.Point{}, stddraw.Src)
	}
	paintOver(img, k, items, nil)
}

// paintOver paints items over img, telling before (if set) each box
// before it is painted.
func paintOver(img *image.RGBA, k float64, items []Shape, before func(image.Rectangle)) {
	r := &rasterer{img: img, k: k, z: vector.NewRasterizer(1, 1), before: before}
	for _, it := range items {
		r.shape(it)
	}
}

// The static layers painted (Scene.Base), by their content and scale,
// kept while they take at most baseBytes (oldest out first). A layer is
// found by a hash of everything that paints it, so a scene whose map
// changed paints a new one; the hash's seed only names the entries of
// this process and never reaches a picture.
var bases struct {
	mu    sync.Mutex
	seed  maphash.Seed
	m     map[uint64]*baseEntry
	order []uint64
	bytes int
}

const baseBytes = 64 << 20

// baseEntry is a static layer painted, and (made when first asked)
// quantised.
type baseEntry struct {
	img  *image.RGBA
	once sync.Once
	q    *baseQuant
}

func baseLayer(s *Scene, k float64, w, h, n int) *baseEntry {
	bases.mu.Lock()
	if bases.m == nil {
		bases.m, bases.seed = map[uint64]*baseEntry{}, maphash.MakeSeed()
	}
	seed := bases.seed
	bases.mu.Unlock()
	var hs hasher
	hs.h.SetSeed(seed)
	hs.f(s.W, s.H, k)
	hs.c(s.Background)
	for _, it := range s.Items[:n] {
		hs.shape(it)
	}
	key := hs.h.Sum64()
	bases.mu.Lock()
	e, ok := bases.m[key]
	bases.mu.Unlock()
	if ok {
		return e
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	paintScene(img, s.Background, k, s.Items[:n])
	e = &baseEntry{img: img}
	bases.mu.Lock()
	defer bases.mu.Unlock()
	if old, ok := bases.m[key]; ok {
		return old
	}
	if len(img.Pix) <= baseBytes {
		for bases.bytes+len(img.Pix) > baseBytes && len(bases.order) > 0 {
			old := bases.order[0]
			bases.order = bases.order[1:]
			bases.bytes -= len(bases.m[old].img.Pix)
			delete(bases.m, old)
		}
		bases.m[key] = e
		bases.order = append(bases.order, key)
		bases.bytes += len(img.Pix)
	}
	return e
}

// hasher hashes shapes: every field that paints them.
type hasher struct {
	h   maphash.Hash
	buf [8]byte
}

func (h *hasher) f(vs ...float64) {
	for _, v := range vs {
		binary.LittleEndian.PutUint64(h.buf[:], math.Float64bits(v))
		h.h.Write(h.buf[:])
	}
}

func (h *hasher) c(c Color) { h.h.Write([]byte{c.R, c.G, c.B, c.A}) }

func (h *hasher) st(s Style) { h.c(s.Fill); h.c(s.Stroke); h.f(s.Width) }

func (h *hasher) s(s string) {
	h.f(float64(len(s)))
	h.h.WriteString(s)
}

func (h *hasher) shape(it Shape) {
	switch x := it.(type) {
	case *Group:
		h.s("g")
		h.f(float64(len(x.Items)))
		for _, c := range x.Items {
			h.shape(c)
		}
	case *Path:
		h.s("p")
		h.st(x.Style)
		if x.Closed {
			h.s("z")
		}
		h.f(float64(len(x.Points)))
		for _, p := range x.Points {
			h.f(p.X, p.Y)
		}
	case *Rect:
		h.s("r")
		h.st(x.Style)
		h.f(x.X, x.Y, x.W, x.H)
	case *Circle:
		h.s("c")
		h.st(x.Style)
		h.f(x.C.X, x.C.Y, x.R)
	case *Text:
		h.s("t")
		h.s(x.S)
		h.c(x.Fill)
		h.f(x.At.X, x.At.Y, x.Size, float64(x.Anchor))
		if x.Bold {
			h.s("b")
		}
	}
}

// rgba is c premultiplied, as image/color wants it.
func rgba(c Color) color.Color { return color.NRGBA{c.R, c.G, c.B, c.A} }

// rasterer paints shapes one at a time: each shape's polygons (in
// pixels) are collected, then rasterised over their bounding box alone,
// so a small shape costs little however large the picture.
type rasterer struct {
	before func(image.Rectangle) // told every box before it is painted, if set
	img    *image.RGBA
	k      float64
	z      *vector.Rasterizer
	polys  [][]Point // of the shape at hand, in pixels
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
	if r.before != nil {
		r.before(box)
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
	if r.before != nil {
		b, _ := font.BoundString(f, t.S)
		b = b.Add(d.Dot)
		r.before(image.Rect(b.Min.X.Floor()-2, b.Min.Y.Floor()-2, b.Max.X.Ceil()+2, b.Max.Y.Ceil()+2))
	}
	d.DrawString(t.S)
}

// PNG rasterises the scene at scale k and encodes it as a paletted PNG
// at zlib's fastest level (EncodePNG): the picture's own colours when it
// has at most 256, else its 256 most frequent ones with every other pixel
// taken to the nearest of them (a board is mostly flat colours;
// anti-aliased edges lose a shade, nothing more). A scene with a static
// layer (Scene.Base) is drawn over that layer, painted and quantised once
// (base.go). The same scene gives the same bytes.
func (s *Scene) PNG(k float64) ([]byte, error) {
	p, err := s.Paletted(k)
	if err != nil {
		return nil, err
	}
	return EncodePNG(p, false)
}

// Paletted draws the scene at scale k as the paletted image PNG encodes.
func (s *Scene) Paletted(k float64) (*image.Paletted, error) {
	if s.Base > 0 {
		return s.overBase(k)
	}
	img, err := s.Raster(k)
	if err != nil {
		return nil, err
	}
	return Quantise(img), nil
}

// EncodePNG encodes a paletted picture as PNG at zlib's fastest level,
// or, small, at its default one: a GCACW map 13 % smaller for 3 times
// the time (1.2 Mpx: 149 KB in 5 ms, 129 KB in 16 ms).
func EncodePNG(p *image.Paletted, small bool) ([]byte, error) {
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if small {
		enc.CompressionLevel = png.DefaultCompression
	}
	if err := enc.Encode(&b, p); err != nil {
		return nil, fmt.Errorf("png: %w", err)
	}
	return b.Bytes(), nil
}

// Quantise returns img as a paletted image of at most 256 colours,
// chosen by frequency (ties by colour value), without dithering.
func Quantise(img *image.RGBA) *image.Paletted {
	// A board is mostly runs of one colour: count by runs, each run's
	// colour found once in a table of the colours seen, and keep the
	// runs to paint the paletted image with.
	var t colourTable
	t.init(1 << 12)
	var runs []colourRun
	pix := img.Pix
	start, last := 0, uint32(0)
	for i, j := 0, 0; i+3 < len(pix); i, j = i+4, j+1 {
		c := pixel(pix[i : i+4])
		if c != last && j > start {
			runs = append(runs, colourRun{t.add(last, j-start), int32(j - start)})
			start = j
		}
		last = c
	}
	if n := len(pix)/4 - start; n > 0 {
		runs = append(runs, colourRun{t.add(last, n), int32(n)})
	}
	cs := make([]colourCount, len(t.colour))
	for i, c := range t.colour {
		cs[i] = colourCount{c, t.count[i]}
	}
	slices.SortFunc(cs, func(a, b colourCount) int { return cmp.Or(cmp.Compare(b.n, a.n), cmp.Compare(a.c, b.c)) })
	if len(cs) > 256 {
		cs = cs[:256]
	}
	pal := make(color.Palette, len(cs))
	for i, c := range cs {
		pal[i] = color.RGBA{uint8(c.c >> 24), uint8(c.c >> 16), uint8(c.c >> 8), uint8(c.c)}
	}
	// Each colour seen gets its palette index: its own, or the nearest.
	idx := make([]uint8, len(t.colour))
	mapped := make([]bool, len(t.colour))
	for i, c := range cs {
		s := t.id(c.c)
		idx[s], mapped[s] = uint8(i), true
	}
	near := nearIndex{cs: cs}
	out := image.NewPaletted(img.Bounds(), pal)
	j := 0
	for _, r := range runs {
		if !mapped[r.id] {
			idx[r.id], mapped[r.id] = near.nearest(t.colour[r.id]), true
		}
		v := idx[r.id]
		for k := range int(r.n) {
			out.Pix[j+k] = v
		}
		j += int(r.n)
	}
	return out
}

// colourRun is a run of pixels of one colour: the colour's number in
// the colourTable and the run's length.
type colourRun struct {
	id, n int32
}

// colourTable numbers the colours seen in order and counts their
// pixels: an open-addressed table (linear probing, at most half full) of
// numbers into colours and counts.
type colourTable struct {
	slots  []int32 // number+1; 0 is empty
	colour []uint32
	count  []int
}

func (t *colourTable) init(size int) { t.slots = make([]int32, size) }

func (t *colourTable) slot(c uint32) int {
	mask := len(t.slots) - 1
	i := int((c*0x9e3779b1)>>7) & mask
	for t.slots[i] != 0 && t.colour[t.slots[i]-1] != c {
		i = (i + 1) & mask
	}
	return i
}

// add counts n pixels of colour c and returns its number.
func (t *colourTable) add(c uint32, n int) int32 {
	i := t.slot(c)
	if t.slots[i] == 0 {
		if 2*(len(t.colour)+1) > len(t.slots) {
			old := t.slots
			t.slots = make([]int32, 2*len(old))
			for _, id := range old {
				if id != 0 {
					t.slots[t.slot(t.colour[id-1])] = id
				}
			}
			i = t.slot(c)
		}
		t.colour = append(t.colour, c)
		t.count = append(t.count, 0)
		t.slots[i] = int32(len(t.colour))
	}
	id := t.slots[i] - 1
	t.count[id] += n
	return id
}

// id is the number of a colour added.
func (t *colourTable) id(c uint32) int32 { return t.slots[t.slot(c)] - 1 }

// nearIndex finds the palette colour nearest a colour, exactly as a
// search of the whole palette would (the lowest index among the
// nearest), but searching only the candidates of the colour's cell: the
// colour space cut into 16 steps a channel, a cell's candidates are the
// colours that may be nearest to some point of it (their least distance
// to the cell no more than the least of their greatest distances).
type nearIndex struct {
	cs    []colourCount
	cells map[uint32][]uint8
}

func (n *nearIndex) nearest(c uint32) uint8 {
	cell := c >> cellBits & cellMask
	cand, ok := n.cells[cell]
	if !ok {
		cand = n.candidates(cell)
		if n.cells == nil {
			n.cells = map[uint32][]uint8{}
		}
		n.cells[cell] = cand
	}
	best, bd := uint8(0), math.MaxInt
	for _, i := range cand {
		if d := colourDist(n.cs[i].c, c); d < bd {
			best, bd = i, d
		}
	}
	return best
}

func (n *nearIndex) candidates(cell uint32) []uint8 {
	lo, hi := make([]int, len(n.cs)), make([]int, len(n.cs))
	bound := math.MaxInt
	for i, x := range n.cs {
		for _, sh := range [4]uint{24, 16, 8, 0} {
			v := int(uint8(x.c >> sh))
			c0 := int(uint8(cell>>sh)) << cellBits
			c1 := c0 + 1<<cellBits - 1
			near := 0
			if v < c0 {
				near = c0 - v
			} else if v > c1 {
				near = v - c1
			}
			far := max(v-c0, c1-v)
			lo[i] += near * near
			hi[i] += far * far
		}
		bound = min(bound, hi[i])
	}
	var out []uint8
	for i := range n.cs {
		if lo[i] <= bound {
			out = append(out, uint8(i))
		}
	}
	return out
}

// colourDist is the squared distance between two colours.
func colourDist(a, b uint32) int {
	r := int(a>>24) - int(b>>24)
	g := int(uint8(a>>16)) - int(uint8(b>>16))
	bl := int(uint8(a>>8)) - int(uint8(b>>8))
	al := int(uint8(a)) - int(uint8(b))
	return r*r + g*g + bl*bl + al*al
}

// A cell of nearIndex is 1<<cellBits wide in each channel.
const (
	cellBits = 4
	cellMask = 0x0f0f0f0f
)

// colourCount is a colour (RGBA, premultiplied, in one word) and how many
// pixels have it.
type colourCount struct {
	c uint32
	n int
}

func pixel(p []uint8) uint32 {
	return uint32(p[0])<<24 | uint32(p[1])<<16 | uint32(p[2])<<8 | uint32(p[3])
}
