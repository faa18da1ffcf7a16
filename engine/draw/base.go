package draw

import (
	"cmp"
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
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
		near := nearIndex{cs: q.cs}
		for i, c := range q.t.colour {
			q.idx[i] = near.nearest(c)
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
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	copy(img.Pix, e.img.Pix)
	tw, th := (w+tile-1)/tile, (h+tile-1)/tile
	dirty := make([]bool, tw*th)
	paintScene(img, Color{}, k, s.Items[n:], func(r image.Rectangle) {
		r = r.Intersect(img.Bounds())
		for ty := r.Min.Y / tile; ty <= (r.Max.Y-1)/tile && !r.Empty(); ty++ {
			for tx := r.Min.X / tile; tx <= (r.Max.X-1)/tile; tx++ {
				dirty[ty*tw+tx] = true
			}
		}
	})
	q := e.quant()

	// The colours of the tiles painted over: each pixel's colour of the
	// layer (its number, from 0) or one the layer has not (-2 - its
	// number in nt).
	var nt colourTable
	nt.init(1 << 8)
	nd := 0
	for _, d := range dirty {
		if d {
			nd++
		}
	}
	at := make([]int32, 0, nd*tile*tile)
	last, id := uint32(0), int32(math.MinInt32)
	eachDirty(dirty, tw, w, h, func(i int) {
		c := pixel(img.Pix[i*4 : i*4+4])
		if c != last || id == math.MinInt32 {
			last, id = c, q.t.id(c)
			if id < 0 {
				id = -2 - nt.add(c, 0)
			}
		}
		if id < 0 {
			nt.count[-2-id]++
		}
		at = append(at, id)
	})
	cs := append(slices.Clip(q.cs), topColours(&nt, 256-len(q.cs))...)
	pal := make(color.Palette, len(cs))
	for i, c := range cs {
		pal[i] = color.RGBA{uint8(c.c >> 24), uint8(c.c >> 16), uint8(c.c >> 8), uint8(c.c)}
	}
	nidx := make([]uint8, len(nt.colour))
	near := nearIndex{cs: cs}
	for i, c := range nt.colour {
		nidx[i] = near.nearest(c)
	}
	out := image.NewPaletted(img.Bounds(), pal)
	copy(out.Pix, q.pix)
	k2 := 0
	eachDirty(dirty, tw, w, h, func(i int) {
		if id := at[k2]; id >= 0 {
			out.Pix[i] = q.idx[id]
		} else {
			out.Pix[i] = nidx[-2-id]
		}
		k2++
	})
	return out, nil
}

// eachDirty calls fn with the index of every pixel of the dirty tiles,
// row by row.
func eachDirty(dirty []bool, tw, w, h int, fn func(int)) {
	for y := range h {
		row := dirty[(y/tile)*tw : (y/tile+1)*tw]
		for tx, d := range row {
			if !d {
				continue
			}
			for x := tx * tile; x < min(w, (tx+1)*tile); x++ {
				fn(y*w + x)
			}
		}
	}
}

// forgetBases empties the kept static layers (for tests).
func forgetBases() {
	bases.mu.Lock()
	defer bases.mu.Unlock()
	bases.m, bases.order, bases.bytes = nil, nil, 0
}
