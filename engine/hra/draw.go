package hra

import (
	"fmt"
	"strings"

	"pbem/engine"
	"pbem/engine/draw"
	"pbem/engine/table"
)

// The drawn board (engine.Drawer): the same table scene as the ASCII
// board of the same view (scene), drawn by the shared tabletop drawer,
// with each base's front edge and facing, a scale bar in centimetres,
// and range rings (HRA 13a: 25 cm, short 10 cm) around the viewer's own
// unlimbered guns.
var areaColours = map[string]draw.Color{
	Woods: draw.RGB(120, 170, 100), Rough: draw.RGB(196, 186, 140), Hill: draw.RGB(214, 190, 140),
	Building: draw.RGB(150, 110, 90), River: draw.RGB(120, 165, 220), Ford: draw.RGB(175, 205, 235), Bridge: draw.RGB(140, 110, 80),
}

var lineLooks = map[string]table.LineLook{
	Road: {Color: draw.RGB(170, 110, 60), Width: 3}, Stream: {Color: draw.RGB(70, 130, 210), Width: 2},
	Fence: {Color: draw.RGB(110, 80, 50), Width: 1.2}, Wall: {Color: draw.RGB(90, 90, 90), Width: 2}, Redoubt: {Color: draw.RGB(120, 60, 40), Width: 3},
}

// keyOrder lists the key's terrain in a fixed order.
var keyOrder = []string{Woods, Rough, Hill, Building, River, Ford, Bridge, Road, Stream, Fence, Wall, Redoubt}

var (
	unionFill       = draw.RGB(40, 70, 150)
	confederateFill = draw.RGB(175, 175, 170)
	ringColour      = draw.RGB(160, 40, 40)
)

// pixels per centimetre of the drawn table
const drawnPerCM = 7

// Draw implements engine.Drawer.
func (rules) Draw(v engine.View) *draw.Scene {
	vw, ok := v.(view)
	if !ok {
		return nil
	}
	st, viewer := vw.st, vw.v
	sc := st.scene()
	var units []*Unit // as scene lists their pieces
	for i := range st.Units {
		if u := &st.Units[i]; !u.Removed() {
			units = append(units, u)
		}
	}
	p := table.Picture{Table: sc, Unit: table.Centimetres, PerUnit: drawnPerCM, Title: wrapLine(st.header(), "  ")}
	p.Areas = func(name string) draw.Color { return areaColours[name] }
	p.Lines = func(name string) table.LineLook { return lineLooks[name] }
	p.Piece = func(i int) table.PieceLook {
		u := units[i]
		l := table.PieceLook{ID: "unit-" + string(u.Letter), Class: "unit " + strings.ToLower(u.Side), Fill: unionFill, Ink: draw.RGB(255, 255, 255),
			Title: fmt.Sprintf("%c %s (%s, %s), state %d, supply %d", u.Letter, u.Name, u.Side, u.Arm, u.State, u.Supply)}
		if u.Side == Confederate {
			l.Fill, l.Ink = confederateFill, draw.RGB(20, 20, 20)
		}
		l.Label = fmt.Sprintf("%c%d", u.Letter, u.State)
		return l
	}
	for _, u := range units {
		if viewer.Side != "" && u.Side == viewer.Side && u.Arm == Artillery && !u.Limbered {
			p.Rings = append(p.Rings,
				table.Ring{Centre: u.Front, Radius: maxRange(Guns), Label: fmt.Sprintf("%c %s", u.Letter, cmText(maxRange(Guns))), Color: ringColour},
				table.Ring{Centre: u.Front, Radius: shortRange(Guns), Label: "short", Color: ringColour.Alpha(160)})
		}
	}
	for _, k := range keyOrder {
		if c, ok := areaColours[k]; ok {
			p.Key = append(p.Key, table.KeyEntry{Fill: c, Label: k})
		} else {
			p.Key = append(p.Key, table.KeyEntry{Line: lineLooks[k].Color, Label: k})
		}
	}
	p.Key = append(p.Key, table.KeyEntry{Fill: unionFill, Label: "Union base (letter, state)"},
		table.KeyEntry{Fill: confederateFill, Label: "Confederate base"}, table.KeyEntry{Line: draw.RGB(30, 30, 30), Label: "front edge, facing mark"})
	return p.Scene()
}

// Count implements engine.Counter: each side's strength as the sum of
// its units' states (HRA 3a: 3 full, 2 medium, 1 low; a removed unit
// counts 0), which every viewer sees.
func (rules) Count(v engine.View) []engine.SideCount {
	vw, ok := v.(view)
	if !ok {
		return nil
	}
	return engine.CountSides(Sides, "unit states", vw.st.Units, func(u Unit) (string, int) {
		if u.Removed() {
			return u.Side, 0
		}
		return u.Side, u.State
	})
}
