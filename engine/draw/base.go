package draw

import (
	"cmp"
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
	"sync"
)

// A scene with a static layer (Scene.Base) is drawn to PNG over that
// layer painted and quantised once: its pixels keep their palette
// indices, and only the tiles the rest of the scene paints are looked at
// again. The palette is the static layer's most frequent colours (at
// most baseColours of them, each pixel of the layer taken to the nearest
// of them), then the most frequent colours the rest paints that the
// layer has not, each other such pixel taken to the nearest of the whole
// palette. Every step is a function of the scene alone, so the same
// scene gives the same bytes whether its layer was kept or not.

// baseColours is how many palette entries the static layer takes at
// most; the units, shading and text drawn over it get the rest.
const baseColours = 192

// tile is the side of the squares the rest of the scene is tracked by.
const tile = 16

// baseQuant is a static layer quantised.
type baseQuant struct {
	cs  []colourCount // its palette, most frequent first
	t   colourTable   // the layer's colours
	idx []uint8       // of each of t's colours: its palette index
	pix []uint8       // the layer as palette indices

	mu   sync.Mutex
	near nearIndex        // over cs, its cells kept from mail to mail
	memo map[uint32]uint8 // colours not the layer's: their nearest in cs
}

// nearestBase is the index of the colour of the layer's palette nearest
// c, and its distance (q.mu held).
func (q *baseQuant) nearestBase(c uint32) (uint8, int) {
	i, ok := q.memo[c]
	if !ok {
		i = q.near.nearest(c)
		q.memo[c] = i
	}
	return i, colourDist(q.cs[i].c, c)
}

func (e *baseEntry) quant() *baseQuant {
	e.once.Do(func() {
		q := &baseQuant{}
		q.t.init(1 << 12)
		pix := e.img.Pix
		ids := make([]int32, len(pix)/4)
		last, id := uint32(0), int32(-1)
		for i, j := 0, 0; i+3 < len(pix); i, j = i+4, j+1 {
			c := pixel(pix[i : i+4])
			if c != last || id < 0 {
				id, last = q.t.add(c, 0), c
			}
			q.t.count[id]++
			ids[j] = id
		}
		q.cs = topColours(&q.t, baseColours)
		q.idx = make([]uint8, len(q.t.colour))
		q.near, q.memo = nearIndex{cs: q.cs}, map[uint32]uint8{}
		for i, c := range q.t.colour {
			q.idx[i] = q.near.nearest(c)
		}
		q.pix = make([]uint8, len(ids))
		for j, id := range ids {
			q.pix[j] = q.idx[id]
		}
		e.q = q
	})
	return e.q
}

// topColours is the n most frequent colours of t, ties by colour value.
func topColours(t *colourTable, n int) []colourCount {
	cs := make([]colourCount, len(t.colour))
	for i, c := range t.colour {
		cs[i] = colourCount{c, t.count[i]}
	}
	slices.SortFunc(cs, func(a, b colourCount) int { return cmp.Or(cmp.Compare(b.n, a.n), cmp.Compare(a.c, b.c)) })
	if len(cs) > n {
		cs = cs[:n]
	}
	return cs
}

// overBase draws the scene at scale k as a paletted image over its
// static layer.
func (s *Scene) overBase(k float64) (*image.Paletted, error) {
	w, h := int(math.Ceil(s.W*k)), int(math.Ceil(s.H*k))
	if w <= 0 || h <= 0 || w > maxSide || h > maxSide {
		return nil, fmt.Errorf("raster: size %dx%d out of range", w, h)
	}
	n := min(s.Base, len(s.Items))
	e := baseLayer(s, k, w, h, n)
	// The canvas holds the layer only where the rest paints: before a
	// shape is painted, the tiles under it are copied from the layer
	// (rasterer.before), so a mail copies a few tiles, not the picture.
	img := canvases.get(w, h)
	defer canvases.put(img)
	tw, th := (w+tile-1)/tile, (h+tile-1)/tile
	dirty := make([]bool, tw*th)
	paintOver(img, k, s.Items[n:], func(r image.Rectangle) {
		r = r.Intersect(img.Bounds())
		if r.Empty() {
			return
		}
		for ty := r.Min.Y / tile; ty <= (r.Max.Y-1)/tile; ty++ {
			for tx := r.Min.X / tile; tx <= (r.Max.X-1)/tile; tx++ {
				if dirty[ty*tw+tx] {
					continue
				}
				dirty[ty*tw+tx] = true
				x0, x1 := tx*tile*4, min(w, (tx+1)*tile)*4
				for y := ty * tile; y < min(h, (ty+1)*tile); y++ {
					o := y * img.Stride
					copy(img.Pix[o+x0:o+x1], e.img.Pix[o+x0:o+x1])
				}
			}
		}
	})
	q := e.quant()

	// The pixels painted over (in the tiles painted, those that differ
	// from the layer's) and their colours: one of the layer's (its
	// number, from 0) or one the layer has not (-2 - its number in nt).
	var nt colourTable
	nt.init(1 << 8)
	type change struct{ i, id int32 }
	var changed []change
	last, id := uint32(0), int32(math.MinInt32)
	base := e.img.Pix
	eachDirtySpan(dirty, tw, w, h, func(from, to int) {
		for i := from; i < to; i++ {
			c := pixel(img.Pix[i*4 : i*4+4])
			if c == pixel(base[i*4:i*4+4]) {
				continue
			}
			if c != last || id == math.MinInt32 {
				last, id = c, q.t.id(c)
				if id < 0 {
					id = -2 - nt.add(c, 0)
				}
			}
			if id < 0 {
				nt.count[-2-id]++
			}
			changed = append(changed, change{int32(i), id})
		}
	})
	cs := append(slices.Clip(q.cs), topColours(&nt, 256-len(q.cs))...)
	pal := make(color.Palette, len(cs))
	for i, c := range cs {
		pal[i] = color.RGBA{uint8(c.c >> 24), uint8(c.c >> 16), uint8(c.c >> 8), uint8(c.c)}
	}
	// A new colour's nearest: the nearer of the layer's (kept from mail
	// to mail) and the new ones' (a few dozen), the layer's on a tie, as
	// a search of the whole palette in order finds it.
	nidx := make([]uint8, len(nt.colour))
	dyn := cs[len(q.cs):]
	q.mu.Lock()
	if len(q.memo) > 1<<16 {
		clear(q.memo)
	}
	for i, c := range nt.colour {
		best, bd := q.nearestBase(c)
		for j, x := range dyn {
			if d := colourDist(x.c, c); d < bd {
				best, bd = uint8(len(q.cs)+j), d
			}
		}
		nidx[i] = best
	}
	q.mu.Unlock()
	out := image.NewPaletted(img.Bounds(), pal)
	copy(out.Pix, q.pix)
	for _, c := range changed {
		if c.id >= 0 {
			out.Pix[c.i] = q.idx[c.id]
		} else {
			out.Pix[c.i] = nidx[-2-c.id]
		}
	}
	return out, nil
}

// eachDirtySpan calls fn with each run [from, to) of pixel indices of
// the dirty tiles, row by row.
func eachDirtySpan(dirty []bool, tw, w, h int, fn func(from, to int)) {
	for y := range h {
		row := dirty[(y/tile)*tw : (y/tile+1)*tw]
		for tx := 0; tx < tw; tx++ {
			if !row[tx] {
				continue
			}
			end := tx
			for end+1 < tw && row[end+1] {
				end++
			}
			fn(y*w+tx*tile, y*w+min(w, (end+1)*tile))
			tx = end
		}
	}
}

// canvases are pictures to paint over a static layer, kept between mails
// (a map's picture takes megabytes; every pixel is overwritten by the
// layer's before use).
var canvases canvasPool

type canvasPool struct{ p sync.Pool }

func (c *canvasPool) get(w, h int) *image.RGBA {
	if img, ok := c.p.Get().(*image.RGBA); ok && img.Rect.Dx() == w && img.Rect.Dy() == h {
		return img
	}
	return image.NewRGBA(image.Rect(0, 0, w, h))
}

func (c *canvasPool) put(img *image.RGBA) { c.p.Put(img) }

// forgetBases empties the kept static layers (for tests).
func forgetBases() {
	bases.mu.Lock()
	defer bases.mu.Unlock()
	bases.m, bases.order, bases.bytes = nil, nil, 0
}
