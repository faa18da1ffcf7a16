package hra

import (
	"fmt"
	"strings"

	"pbem/engine"
	"pbem/engine/table"
)

// Drawing: one column is 1 cm and one row 2 cm, in the mail window and the
// attachment alike.
var boardScale = table.ScaleCM(1, 2)

const windowRows = 22

var fills = map[string]byte{Woods: 'T', Rough: ',', Hill: ':', Building: '#', River: '~', Ford: '_', Bridge: '='}
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

// focus is where the action is: units in melee or near the enemy, or all.
func (s *State) focus() []table.Point {
	var near, all []table.Point
	for i := range s.Units {
		u := &s.Units[i]
		if u.Removed() {
			continue
		}
		all = append(all, u.Front)
		for _, e := range s.others(u, true) {
			if table.Within(s.footprint(u), s.footprint(e), table.CM(12)) {
				near = append(near, u.Front)
				break
			}
		}
	}
	if len(near) > 0 {
		return near
	}
	return all
}

func render(st *State, v engine.Viewer) engine.Board {
	sc := st.scene()
	win := sc.Render(sc.Window(boardScale, table.MailWidth, windowRows, st.focus()...))
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

func cmStr(l table.Length) string {
	return strings.TrimSuffix(l.Format(table.Centimetres), "cm")
}

var arms = map[string]string{Infantry: "inf", Cavalry: "cav", Artillery: "art"}

// roster lists brigades and units: state, supply, general, formation and
// this round's order (HRA 2d's unit card).
func (st *State) roster(v engine.Viewer) string {
	var b strings.Builder
	h := st.header()
	for len(h) > table.MailWidth {
		cut := strings.LastIndex(h[:table.MailWidth], " ")
		if cut <= 0 {
			cut = table.MailWidth
		}
		fmt.Fprintln(&b, h[:cut])
		h = "  " + strings.TrimLeft(h[cut:], " ")
	}
	fmt.Fprintln(&b, h)
	for _, side := range Sides {
		for i := range st.Brigades {
			br := &st.Brigades[i]
			if br.Side != side {
				continue
			}
			gen := fmt.Sprintf("general %d with %s", br.Status, br.With)
			if br.Killed {
				gen = fmt.Sprintf("general killed, led at %d (R9)", st.status(br))
			}
			if br.Status == 0 {
				gen = "general with " + br.With
			}
			line := fmt.Sprintf("%s (%s): %s; state %d, losses %d", br.Name, side, gen, st.BrigadeState(br), st.BrigadeLosses(br.Name))
			if len(line) > table.MailWidth {
				line = line[:table.MailWidth]
			}
			fmt.Fprintln(&b, line)
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
					o := u.Order
					if len(o) > 24 {
						o = o[:24]
					}
					flags = append(flags, "order: "+o)
				}
				line := fmt.Sprintf("  %c %-20s %s st%d sup%d %5s,%-5s %3d°", u.Letter, u.Name, arms[u.Arm], u.State, u.Supply,
					cmStr(u.Front.X), cmStr(u.Front.Y), int(u.Facing/table.Degree))
				if len(flags) > 0 {
					line += " " + strings.Join(flags, ", ")
				}
				if len(line) > table.MailWidth {
					line = line[:table.MailWidth]
				}
				fmt.Fprintln(&b, strings.TrimRight(line, " "))
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
