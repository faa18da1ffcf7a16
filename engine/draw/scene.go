// Package draw is pbem's drawing model: a small, deterministic scene of
// shapes (polygons and polylines, circles, rectangles, text) in groups
// with ids and classes, which a rule system builds from the same
// per-viewer View as its ASCII board (engine.Drawer). A scene is written
// as SVG by a writer of our own (SVG: the same scene always gives the
// same bytes, for golden files, the leak test and the campaign report),
// read back from that SVG (ParseSVG, for tests and tools), and rasterised
// to PNG straight from the scene (PNG: pure Go, golang.org/x/image/vector
// for fills and strokes, the embedded Go fonts for text, a palette chosen
// from the picture's own colours; a scene's static layer, Scene.Base, is
// painted and quantised once and kept, base.go).
//
// Nothing here reads the clock, a random source or iterates a map into
// an output. The package imports no other part of pbem.
package draw

import (
	"errors"
	"fmt"
	"math"
	"strconv"
)

// ErrNothing says a rule system drew nothing for a view (a Drawer
// returned nil: GM Board Games before its table exists): the mail goes
// out with its ASCII board alone, and says nothing about a picture.
var ErrNothing = errors.New("the rules drew nothing for this view")

// Color is a colour with alpha; the zero Color is none (nothing drawn).
type Color struct{ R, G, B, A uint8 }

// RGB returns an opaque colour.
func RGB(r, g, b uint8) Color { return Color{r, g, b, 255} }

// Hex returns the colour written "#rrggbb", or none if s is not one.
func Hex(s string) Color {
	if len(s) != 7 || s[0] != '#' {
		return Color{}
	}
	v, err := strconv.ParseUint(s[1:], 16, 32)
	if err != nil {
		return Color{}
	}
	return RGB(uint8(v>>16), uint8(v>>8), uint8(v))
}

// Alpha returns c with alpha a.
func (c Color) Alpha(a uint8) Color { c.A = a; return c }

// None reports whether c draws nothing.
func (c Color) None() bool { return c.A == 0 }

// hex is c as "#rrggbb" (alpha apart).
func (c Color) hex() string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// Point is a position in the scene's units (pixels of the PNG at scale
// 1), x to the right and y downwards.
type Point struct{ X, Y float64 }

// Pt returns a point.
func Pt(x, y float64) Point { return Point{x, y} }

// Style is how a shape is painted: its fill, then its outline.
type Style struct {
	Fill   Color
	Stroke Color
	Width  float64 // of the stroke; 0 with a stroke colour is 1
}

// Shape is one thing drawn: *Group, *Path, *Circle, *Rect or *Text.
type Shape interface{ shape() }

// Group is shapes drawn in order under one id and class (the campaign
// report finds units and hexes by them) and an optional title (a tooltip
// in a browser).
type Group struct {
	ID, Class, Title string
	Items            []Shape
}

// Path is a polyline, or a polygon when Closed.
type Path struct {
	Style
	Class  string
	Points []Point
	Closed bool
}

// Circle is a circle.
type Circle struct {
	Style
	Class string
	C     Point
	R     float64
}

// Rect is an axis-aligned rectangle.
type Rect struct {
	Style
	Class      string
	X, Y, W, H float64
}

// Anchor is where a text stands against its point.
type Anchor uint8

// Anchors of a text: its start, middle or end at the point.
const (
	Start Anchor = iota
	Middle
	End
)

// Text is one line of text whose baseline goes through At.
type Text struct {
	Class  string
	At     Point
	S      string
	Size   float64 // font size in scene units
	Fill   Color
	Anchor Anchor
	Bold   bool
}

func (*Group) shape()  {}
func (*Path) shape()   {}
func (*Circle) shape() {}
func (*Rect) shape()   {}
func (*Text) shape()   {}

// Scene is a whole picture W wide and H high on a Background.
type Scene struct {
	W, H       float64
	Background Color
	Title      string
	Items      []Shape
	// Base is how many of the first Items are the picture's static layer
	// (a map's terrain, hexsides and hex numbers: the same in every mail
	// of a game). Raster paints them once per scale and content, keeps
	// that layer, and paints only the rest over a copy of it. It changes
	// nothing in the picture drawn, only its cost.
	Base int
	// TypeSize is the size, in scene units, of the smallest type a reader
	// must read in the picture (a map's hex numbers); 0: not said. A
	// picture drawn at scale k shows it TypeSize*k pixels high.
	TypeSize float64
	// Detail, when set, is a part of the same picture (the hexes a mail is
	// about) drawn at the same scale, for a mail whose picture budget
	// would shrink the whole scene until its type cannot be read.
	Detail *Scene
}

// Add appends shapes to the scene.
func (s *Scene) Add(items ...Shape) { s.Items = append(s.Items, items...) }

// Add appends shapes to the group.
func (g *Group) Add(items ...Shape) { g.Items = append(g.Items, items...) }

// Polygon returns a closed path.
func Polygon(st Style, pts ...Point) *Path { return &Path{Style: st, Points: pts, Closed: true} }

// Line returns an open path.
func Line(st Style, pts ...Point) *Path { return &Path{Style: st, Points: pts} }

// Label returns a text.
func Label(at Point, s string, size float64, fill Color, a Anchor) *Text {
	return &Text{At: at, S: s, Size: size, Fill: fill, Anchor: a}
}

// num writes a coordinate: rounded to a hundredth, without trailing
// zeros, so the same scene gives the same bytes and -0 is 0.
func num(v float64) string {
	v = math.Round(v*100) / 100
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return "0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
