package draw

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The root's attributes: strokes join and end round, as the rasteriser
// draws them, and text is set in the Go fonts the rasteriser embeds (a
// browser without them falls back to a sans-serif).
const svgRoot = `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="Go, 'Go Regular', Helvetica, Arial, sans-serif" stroke-linejoin="round" stroke-linecap="round">`

// bgClass marks the rectangle that paints a scene's background.
const bgClass = "pbem-background"

// SVG writes the scene as an SVG document: one element a line, attributes
// in a fixed order, coordinates rounded to a hundredth, so the same scene
// always gives the same bytes.
func (s *Scene) SVG() []byte {
	var b bytes.Buffer
	for _, p := range s.SVGParts() {
		b.WriteString(p)
	}
	b.WriteString(SVGEnd)
	return b.Bytes()
}

// SVGEnd closes the document SVGParts begins.
const SVGEnd = "</svg>\n"

// SVGParts is the scene's SVG cut at its top-level shapes: the root
// element with its title and background, then each shape; joined and
// followed by SVGEnd they are SVG's bytes. A report of many boards keeps
// each part once (the terrain of a map is the same at every step).
func (s *Scene) SVGParts() []string {
	var b bytes.Buffer
	w, h := num(s.W), num(s.H)
	fmt.Fprintf(&b, svgRoot+"\n", w, h, w, h)
	if s.Title != "" {
		b.WriteString("<title>" + esc(s.Title) + "</title>\n")
	}
	if !s.Background.None() {
		fmt.Fprintf(&b, `<rect class="%s" x="0" y="0" width="%s" height="%s"%s/>`+"\n", bgClass, w, h, paint(Style{Fill: s.Background}))
	}
	out := []string{b.String()}
	for _, it := range s.Items {
		b.Reset()
		writeShape(&b, it)
		out = append(out, b.String())
	}
	return out
}

func writeShape(b *bytes.Buffer, it Shape) {
	switch x := it.(type) {
	case *Group:
		b.WriteString("<g" + attr("id", x.ID) + attr("class", x.Class) + ">")
		if x.Title != "" {
			b.WriteString("<title>" + esc(x.Title) + "</title>")
		}
		b.WriteString("\n")
		for _, c := range x.Items {
			writeShape(b, c)
		}
		b.WriteString("</g>\n")
	case *Path:
		if len(x.Points) == 0 {
			return
		}
		var d strings.Builder
		for i, p := range x.Points {
			if i == 0 {
				d.WriteByte('M')
			} else {
				d.WriteByte('L')
			}
			d.WriteString(num(p.X) + " " + num(p.Y))
		}
		if x.Closed {
			d.WriteByte('Z')
		}
		b.WriteString("<path" + attr("class", x.Class) + attr("d", d.String()) + paint(x.Style) + "/>\n")
	case *Circle:
		b.WriteString("<circle" + attr("class", x.Class) + attr("cx", num(x.C.X)) + attr("cy", num(x.C.Y)) + attr("r", num(x.R)) + paint(x.Style) + "/>\n")
	case *Rect:
		b.WriteString("<rect" + attr("class", x.Class) + attr("x", num(x.X)) + attr("y", num(x.Y)) + attr("width", num(x.W)) + attr("height", num(x.H)) + paint(x.Style) + "/>\n")
	case *Text:
		if x.S == "" {
			return
		}
		b.WriteString("<text" + attr("class", x.Class) + attr("x", num(x.At.X)) + attr("y", num(x.At.Y)) + attr("font-size", num(x.Size)))
		switch x.Anchor {
		case Middle:
			b.WriteString(attr("text-anchor", "middle"))
		case End:
			b.WriteString(attr("text-anchor", "end"))
		}
		if x.Bold {
			b.WriteString(attr("font-weight", "bold"))
		}
		b.WriteString(colour("fill", x.Fill) + ">" + esc(x.S) + "</text>\n")
	}
}

// attr is ` name="value"`, or nothing for an empty value.
func attr(name, value string) string {
	if value == "" {
		return ""
	}
	return " " + name + `="` + esc(value) + `"`
}

// colour is a colour attribute and its opacity when not opaque.
func colour(name string, c Color) string {
	if c.None() {
		return attr(name, "none")
	}
	s := attr(name, c.hex())
	if c.A != 255 {
		s += attr(name+"-opacity", num(float64(c.A)/255))
	}
	return s
}

func paint(st Style) string {
	s := colour("fill", st.Fill)
	if !st.Stroke.None() {
		s += colour("stroke", st.Stroke) + attr("stroke-width", num(st.width()))
	}
	return s
}

func (st Style) width() float64 {
	if st.Width <= 0 {
		return 1
	}
	return st.Width
}

func esc(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

// ParseSVG reads a scene back from the SVG its SVG method wrote (the
// subset it writes; anything else is an error, never a panic), so a
// scene kept as SVG in a mail.queued event can be rasterised when the
// mail is sent.
func ParseSVG(data []byte) (*Scene, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	s := &Scene{}
	var stack []*Group // open groups; nil entry for the root
	add := func(sh Shape) {
		if n := len(stack); n > 0 && stack[n-1] != nil {
			stack[n-1].Items = append(stack[n-1].Items, sh)
			return
		}
		s.Items = append(s.Items, sh)
	}
	root := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("svg: %w", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			if ee, ok := tok.(xml.EndElement); ok && ee.Name.Local == "g" {
				stack = stack[:len(stack)-1]
			}
			continue
		}
		a := attrs(se.Attr)
		if !root {
			if se.Name.Local != "svg" {
				return nil, errors.New("svg: the document is not an svg element")
			}
			root = true
			s.W, s.H = a.num("width"), a.num("height")
			continue
		}
		switch se.Name.Local {
		case "title":
			var t string
			if err := d.DecodeElement(&t, &se); err != nil {
				return nil, fmt.Errorf("svg title: %w", err)
			}
			if n := len(stack); n > 0 {
				stack[n-1].Title = t
			} else {
				s.Title = t
			}
		case "g":
			g := &Group{ID: a["id"], Class: a["class"]}
			add(g)
			stack = append(stack, g)
		case "rect":
			r := &Rect{Style: a.style(), Class: a["class"], X: a.num("x"), Y: a.num("y"), W: a.num("width"), H: a.num("height")}
			if r.Class == bgClass && len(stack) == 0 {
				s.Background = r.Fill
				continue
			}
			add(r)
		case "circle":
			add(&Circle{Style: a.style(), Class: a["class"], C: Pt(a.num("cx"), a.num("cy")), R: a.num("r")})
		case "path":
			p, err := parsePath(a["d"])
			if err != nil {
				return nil, err
			}
			p.Style, p.Class = a.style(), a["class"]
			add(p)
		case "text":
			var t string
			if err := d.DecodeElement(&t, &se); err != nil {
				return nil, fmt.Errorf("svg text: %w", err)
			}
			x := &Text{Class: a["class"], At: Pt(a.num("x"), a.num("y")), S: t, Size: a.num("font-size"), Fill: a.colour("fill"), Bold: a["font-weight"] == "bold"}
			switch a["text-anchor"] {
			case "middle":
				x.Anchor = Middle
			case "end":
				x.Anchor = End
			}
			add(x)
		default:
			return nil, fmt.Errorf("svg: element <%s> is not one pbem writes", se.Name.Local)
		}
	}
	if !root {
		return nil, errors.New("svg: no svg element")
	}
	if s.W <= 0 || s.H <= 0 || s.W > maxSide || s.H > maxSide {
		return nil, fmt.Errorf("svg: size %gx%g out of range", s.W, s.H)
	}
	return s, nil
}

// maxSide bounds a scene read from SVG (in scene units), so a damaged
// file cannot ask for a picture of any size.
const maxSide = 8000

type attrMap map[string]string

func attrs(as []xml.Attr) attrMap {
	m := attrMap{}
	for _, a := range as {
		m[a.Name.Local] = a.Value
	}
	return m
}

func (a attrMap) num(k string) float64 {
	v, err := strconv.ParseFloat(a[k], 64)
	if err != nil {
		return 0
	}
	return v
}

func (a attrMap) colour(k string) Color {
	c := Hex(a[k])
	if op, ok := a[k+"-opacity"]; ok && !c.None() {
		if v, err := strconv.ParseFloat(op, 64); err == nil {
			c.A = uint8(min(max(v, 0), 1)*255 + 0.5)
		}
	}
	return c
}

func (a attrMap) style() Style {
	st := Style{Fill: a.colour("fill"), Stroke: a.colour("stroke")}
	if !st.Stroke.None() {
		st.Width = a.num("stroke-width")
	}
	return st
}

// parsePath reads the path data SVG writes: M, then L, and Z to close.
func parsePath(d string) (*Path, error) {
	p := &Path{}
	fields := strings.FieldsFunc(d, func(r rune) bool { return r == ' ' })
	var cur []string
	flush := func() error {
		if len(cur) == 0 {
			return nil
		}
		if len(cur) != 2 {
			return fmt.Errorf("svg path %q: want x y", d)
		}
		x, err1 := strconv.ParseFloat(cur[0], 64)
		y, err2 := strconv.ParseFloat(cur[1], 64)
		if err1 != nil || err2 != nil {
			return fmt.Errorf("svg path %q: not a number", d)
		}
		p.Points = append(p.Points, Pt(x, y))
		cur = cur[:0]
		return nil
	}
	for _, f := range fields {
		for f != "" {
			i := strings.IndexAny(f, "MLZ")
			if i < 0 {
				cur = append(cur, f)
				break
			}
			if i > 0 {
				cur = append(cur, f[:i])
			}
			if err := flush(); err != nil {
				return nil, err
			}
			if f[i] == 'Z' {
				p.Closed = true
			}
			f = f[i+1:]
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return p, nil
}
