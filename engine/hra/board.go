package hra

import (
	"fmt"
	"slices"
	"strings"

	"pbem/engine"
	"pbem/engine/table"
)

// Drawing: one column is 1 cm and one row 2 cm, in the mail window and the
// attachment alike.
var boardScale = table.ScaleCM(1, 2)

const windowRows = 22

// Fills and glyphs: a road ('=') and a bridge ('"') never share a glyph.
var fills = map[string]byte{Woods: 'T', Rough: ',', Hill: ':', Building: '#', River: '~', Ford: '_', Bridge: '"'}
var glyphs = map[string]byte{Road: '=', Stream: '-', Fence: '+', Wall: '%', Redoubt: '*'}
var layers = map[string]int{Hill: 0, Rough: 1, Woods: 2, River: 3, Ford: 4, Bridge: 5, Building: 6}

func (s *State) scene() table.Scene {
	sc := table.Scene{Width: s.Scn.Width, Height: s.Scn.Height}
	for _, t := range s.Scn.Terrain {
		if t.Poly != nil {
			sc.Areas = append(sc.Areas, table.Area{Name: t.Kind, Fill: fills[t.Kind], Shape: t.Poly, Layer: layers[t.Kind]})
		} else {
			sc.Lines = append(sc.Lines, table.Line{Name: t.Kind, Glyph: glyphs[t.Kind], Path: t.Path})
		}
	}
	for i := range s.Units {
		u := &s.Units[i]
		if u.Removed() {
			continue
		}
		sc.Pieces = append(sc.Pieces, table.Piece{Letter: u.Letter, Name: u.Name, Bases: s.bases(u)})
	}
	for _, p := range s.Scn.Points {
		if p.VP > 0 {
			sc.Labels = append(sc.Labels, table.Label{At: p.At, Text: "@" + p.Name})
		}
	}
	return sc
}

// corners are the corners of the unit's base.
func (s *State) corners(u *Unit) []table.Point {
	c := s.footprint(u).Corners()
	return c[:]
}

// focus is what a viewer's window must show, and what it should show if
// it can. A player's window holds all of his own units, and should hold
// the enemy units near them (within 12 cm), or else the nearest enemy
// unit. A referee's or observer's holds the units near the enemy, or all.
func (s *State) focus(v engine.Viewer) (must, should []table.Point) {
	var near, all []table.Point
	var nearest *Unit
	var best table.Length = -1
	for i := range s.Units {
		u := &s.Units[i]
		if u.Removed() {
			continue
		}
		all = append(all, s.corners(u)...)
		mine := v.Side != "" && u.Side == v.Side
		if mine {
			must = append(must, s.corners(u)...)
		}
		for _, e := range s.others(u, true) {
			if table.Within(s.footprint(u), s.footprint(e), table.CM(12)) {
				if v.Side == "" {
					near = append(near, s.corners(u)...)
				} else if mine {
					near = append(near, s.corners(e)...)
				}
			}
			if mine {
				if g := table.Gap(s.footprint(u), s.footprint(e)); best < 0 || g < best {
					best, nearest = g, e
				}
			}
		}
	}
	switch {
	case v.Side == "" && len(near) > 0:
		return near, nil
	case v.Side == "" || len(must) == 0:
		return all, nil
	case len(near) > 0:
		return must, near
	case nearest != nil:
		return must, s.corners(nearest)
	}
	return must, nil
}

// window picks the mail window: the finest scale at which everything the
// viewer must see, and what he should see, fits; else what he must see;
// else the whole table.
func (s *State) window(sc table.Scene, v engine.Viewer) table.View {
	must, should := s.focus(v)
	inside := func(vw table.View, pts []table.Point) bool {
		for _, p := range pts {
			if p.X < vw.Left || p.X > vw.Left+table.Length(vw.Cols)*vw.Scale.Col ||
				p.Y > vw.Top || p.Y < vw.Top-table.Length(vw.Rows)*vw.Scale.Row {
				return false
			}
		}
		return true
	}
	for _, pts := range [][]table.Point{append(slices.Clone(must), should...), must} {
		for k := int64(1); k <= 3; k++ {
			vw := sc.Window(table.ScaleCM(k, 2*k), table.MailWidth, windowRows, pts...)
			if inside(vw, pts) {
				return vw
			}
		}
	}
	k := int64(4)
	for sc.Window(table.ScaleCM(k, 2*k), table.MailWidth, windowRows).Cols*int(k) < int(s.Scn.Width/table.Centimetre) {
		k++
	}
	return sc.Window(table.ScaleCM(k, 2*k), table.MailWidth, windowRows)
}

func render(st *State, v engine.Viewer) engine.Board {
	sc := st.scene()
	win := sc.Render(st.window(sc, v))
	full := sc.Render(sc.WholeTable(boardScale))
	roster := st.roster(v)
	return engine.Board{Window: win + "\n" + roster, Full: full + "\n" + roster}
}

func (st *State) header() string {
	switch st.Phase {
	case PhaseStart:
		return fmt.Sprintf("%s — not begun (send BEGIN)", st.Scn.Name)
	case PhaseGenerals:
		var pools []string
		for _, side := range Sides {
			if p := st.Generals[side]; len(p) > 0 {
				pools = append(pools, fmt.Sprintf("%s %s", side, joinInts(p)))
			}
		}
		return fmt.Sprintf("%s — generals to assign to brigades (HRA 3c): %s", st.Scn.Name, strings.Join(pools, "; "))
	case PhaseOver:
		return fmt.Sprintf("%s — game over: %s", st.Scn.Name, st.Result)
	case PhaseOrders:
		return fmt.Sprintf("%s — round %d of %d, Phase II (orders); initiative %s; %s to order", st.Scn.Name, st.Round, st.Scn.Rounds, st.Initiative, st.ToAct)
	}
	return fmt.Sprintf("%s — round %d of %d, Phase III (fire); initiative %s; declared: %s", st.Scn.Name, st.Round, st.Scn.Rounds, st.Initiative, strings.Join(st.Declared, ", "))
}

// wrapLine cuts line into lines of at most table.MailWidth characters at
// spaces (a word longer than a line stands alone), the later ones
// starting with indent: a roster line wraps rather than loses its end.
func wrapLine(line, indent string) []string {
	var out []string
	for {
		rs := []rune(line)
		if len(rs) <= table.MailWidth {
			return append(out, line)
		}
		// Break after "; " or ", " in the second half of the line if
		// there is one, else at the last space that fits.
		cut := -1
		for i := table.MailWidth; i > table.MailWidth/2 && cut < 0; i-- {
			if rs[i] == ' ' && (rs[i-1] == ';' || rs[i-1] == ',') {
				cut = i
			}
		}
		for i := table.MailWidth; i > len([]rune(indent)) && cut < 0; i-- {
			if rs[i] == ' ' && rs[i-1] != ' ' {
				cut = i
			}
		}
		if cut < 0 { // one long word: cut after it
			for cut = table.MailWidth; cut < len(rs) && rs[cut] != ' '; cut++ {
			}
		}
		out = append(out, strings.TrimRight(string(rs[:cut]), " "))
		rest := strings.TrimLeft(string(rs[cut:]), " ")
		if rest == "" {
			return out
		}
		line = indent + rest
	}
}

func cmStr(l table.Length) string {
	return strings.TrimSuffix(l.Format(table.Centimetres), "cm")
}

var arms = map[string]string{Infantry: "inf", Cavalry: "cav", Artillery: "art"}

// roster lists brigades and units: state, supply, general, formation and
// this round's order (HRA 2d's unit card).
func (st *State) roster(v engine.Viewer) string {
	var b strings.Builder
	put := func(line, indent string) {
		for _, l := range wrapLine(strings.TrimRight(line, " "), indent) {
			fmt.Fprintln(&b, l)
		}
	}
	put(st.header(), "  ")
	for _, side := range Sides {
		for i := range st.Brigades {
			br := &st.Brigades[i]
			if br.Side != side {
				continue
			}
			gen := fmt.Sprintf("general %d with %s", br.Status, br.With)
			if br.Killed {
				gen = fmt.Sprintf("general killed, led at %d", st.status(br))
			}
			if br.Status == 0 {
				gen = "general with " + br.With
			}
			if br.Status == 0 && st.Phase == PhaseGenerals {
				gen = "general to be assigned (HRA 3c), with " + br.With
			}
			put(fmt.Sprintf("%s (%s): %s; state %d, losses %d", br.Name, side, gen, st.BrigadeState(br), st.BrigadeLosses(br.Name)), "  ")
			for j := range st.Units {
				u := &st.Units[j]
				if u.Brigade != br.Name {
					continue
				}
				if u.Removed() {
					fmt.Fprintf(&b, "  %c %-20s removed\n", u.Letter, u.Name)
					continue
				}
				var flags []string
				if u.Column {
					flags = append(flags, "column")
				}
				if u.Arm == Artillery {
					flags = append(flags, map[bool]string{true: "limbered", false: "unlimbered"}[u.Limbered])
				}
				if u.Dismounted {
					flags = append(flags, "dismounted")
				}
				if u.Pending != "" {
					flags = append(flags, u.Pending+"ing")
				}
				if u.Busy > 0 {
					flags = append(flags, fmt.Sprintf("%s %d", u.Work, u.Busy))
				}
				if u.Entrenched {
					flags = append(flags, "entrenched")
				}
				if u.Retreating {
					flags = append(flags, "RETREAT")
				}
				if u.WithdrawNext {
					flags = append(flags, "must withdraw")
				}
				if u.RetreatNext {
					flags = append(flags, "retreats next")
				}
				if st.inMelee(u.Name) {
					flags = append(flags, "MELEE")
				}
				if u.Arm == Cavalry && u.Charges > 0 {
					flags = append(flags, fmt.Sprintf("charged %d", u.Charges))
				}
				if u.Order != "" {
					flags = append(flags, "order: "+u.Order)
				}
				line := fmt.Sprintf("  %c %-20s %s st%d sup%d %5s,%-5s %3d°", u.Letter, u.Name, arms[u.Arm], u.State, u.Supply,
					cmStr(u.Front.X), cmStr(u.Front.Y), int(u.Facing/table.Degree))
				if len(flags) > 0 {
					line += " " + strings.Join(flags, ", ")
				}
				put(line, "      ")
			}
		}
	}
	if st.Phase == PhaseFire && (v.Referee || v.Side != "") {
		for _, vl := range st.Volleys {
			f := st.unit(vl.Firer)
			if v.Referee || f.Side == v.Side {
				fmt.Fprintf(&b, "volley declared: %s at %s\n", vl.Firer, vl.Target)
			}
		}
	}
	fmt.Fprintln(&b, "key: st state 3 full/2 medium/1 low; sup supply; x,y front middle cm; facing")
	return b.String()
}
