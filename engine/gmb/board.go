package gmb

import (
	"fmt"
	"slices"
	"strings"

	"pbem/engine"
	"pbem/engine/table"
)

// view is GMB's engine.View: what one viewer may see of a state. Render
// draws it as ASCII; a drawn board (a Drawer) takes the same value and
// must show no more than Render does:
//
//   - The table is open to all: st.scene() is everything on it in exact
//     micrometres (terrain pieces as polygons and polylines with their
//     kind, operational bases, bridges, strategic points, patrol markers
//     of corps not yet deployed, and each placed unit's base as a
//     table.Rect whose Front is the front edge's centre), and st.geom()
//     the table's size and deployment zones. Units, generals, terrain,
//     morale, declared battlefields after their reveal, cavalry tactics
//     and the count of cards in each hand are open too.
//   - own(side) says whether the viewer may see a side's secrets: a
//     player his own side's, a referee every side's. Secret are a side's
//     hand, its deck, the five cards it draws to keep three (Drawn5) and
//     its army tactic (Tactic; others see only TacticMade until the
//     battle is over, 13.12b).
//   - Sealed choices (battlefield and forced march, cavalry tactics,
//     patrol markers) are held by the runtime until they open together,
//     so a state never holds one another viewer could see.
type view struct {
	st *State
	v  engine.Viewer
}

func (v view) own(side string) bool { return v.v.Referee || v.v.Side == side }

// scale of the drawing: 1 column an inch, 1 row two inches, so a 72"
// table fits in a mail's 78 columns.
var scale = table.ScaleInch(1, 2)

func (st *State) scene() table.Scene {
	sc := table.Scene{Width: st.W, Height: st.H}
	for _, p := range st.Pieces {
		k := st.kind(&p)
		name := p.Kind
		if k.Move == Impassable {
			name += " (impassable)"
		}
		if p.Path != nil {
			sc.Lines = append(sc.Lines, table.Line{Name: name, Glyph: k.Glyph, Path: p.Path})
			continue
		}
		layer := 1
		if p.Kind == Hill {
			layer = 0
		}
		sc.Areas = append(sc.Areas, table.Area{Name: name, Fill: k.Glyph, Shape: p.Poly, Layer: layer})
	}
	for _, b := range st.Bases {
		sc.Areas = append(sc.Areas, table.Area{Name: "operational base", Fill: '*', Shape: b.Poly, Layer: 2})
	}
	for _, b := range st.Bridges {
		sc.Labels = append(sc.Labels, table.Label{At: b.At, Text: "&", Short: "&"})
	}
	for i, p := range st.Points {
		sc.Labels = append(sc.Labels, table.Label{At: p, Text: fmt.Sprintf("SP%d", i+1)})
	}
	for _, m := range st.Markers {
		if !st.hasUnits(m.Side, m.Corps) {
			sc.Labels = append(sc.Labels, table.Label{At: m.At, Text: "P", Short: "P"})
		}
	}
	for i := range st.Units {
		u := &st.Units[i]
		if !u.Placed || u.Removed {
			continue
		}
		sc.Pieces = append(sc.Pieces, table.Piece{Letter: u.Letter, Name: u.Name, Bases: []table.Rect{st.rect(u)}})
	}
	return sc
}

func render(st *State, v engine.Viewer) engine.Board {
	vw := view{st, v}
	head := vw.heading()
	if st.TableSize == "" {
		body := head + "\nThe table is not set up yet: its size is chosen first (13.1).\n"
		return engine.Board{Window: body, Full: body + vw.roster()}
	}
	sc := st.scene()
	whole := sc.Render(sc.WholeTable(scale))
	notes := vw.notes()
	window := head + "\n" + whole + notes
	return engine.Board{Window: window, Full: window + "\n" + vw.roster()}
}

// heading says where the game is.
func (vw view) heading() string {
	st := vw.st
	var b strings.Builder
	switch {
	case st.Step == StepOver:
		wrapLine(&b, fmt.Sprintf("The battle is over: %s.", st.Result), 0)
	case st.Turn > 0:
		wrapLine(&b, fmt.Sprintf("Turn %d of %d; %s has the initiative. Now: %s.", st.Turn, st.Scn.Turns, st.Initiative, stepWhat(st)), 0)
	default:
		wrapLine(&b, fmt.Sprintf("Setting up (chapter 13). Now: %s.", stepWhat(st)), 0)
	}
	var facts []string
	if st.TableSize != "" {
		facts = append(facts, "table "+tableWords(st.TableSize))
	}
	if st.Year > 0 {
		facts = append(facts, fmt.Sprintf("year %d", st.Year))
	}
	if st.PlayerA != "" {
		facts = append(facts, fmt.Sprintf("Player A %s (%s battlefield)", st.PlayerA, st.Battlefield))
	}
	if st.List != "" {
		facts = append(facts, st.List+" terrain list")
	}
	if len(facts) > 0 {
		wrapLine(&b, strings.Join(facts, ", ")+".", 0)
	}
	return b.String()
}

// notes explain what the drawing does not.
func (vw view) notes() string {
	st := vw.st
	var ls []string
	var keys []string
	if len(st.Bridges) > 0 {
		keys = append(keys, "& bridge")
	}
	if len(st.Points) > 0 {
		keys = append(keys, "SPn strategic point")
	}
	if slices.ContainsFunc(st.Markers, func(m Marker) bool { return !st.hasUnits(m.Side, m.Corps) }) {
		keys = append(keys, "P patrol marker")
	}
	if len(keys) > 0 {
		ls = append(ls, strings.Join(keys, "; "))
	}
	if st.Step == StepEnd {
		ls = append(ls, "13.12e: "+st.quarters()+".")
	}
	if st.PlayerA != "" {
		g := st.geom()
		ls = append(ls, fmt.Sprintf("Deployment zones (13.7e): %s, Player A, y %s-%s;", st.PlayerA, inch(g.Height-g.Zone), inch(g.Height)),
			fmt.Sprintf("%s, Player B, y 0-%s; the neutral zone between.", st.playerB(), inch(g.Zone)))
	}
	var b strings.Builder
	for _, l := range ls {
		wrapLine(&b, l, 2)
	}
	return b.String()
}

// wrapLine writes text wrapped at the mail's 78 columns, each line after
// the first indented by indent spaces.
func wrapLine(b *strings.Builder, text string, indent int) {
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > table.MailWidth {
			b.WriteString(line + "\n")
			line = strings.Repeat(" ", indent) + w
			continue
		}
		if line == "" {
			lead := len(text) - len(strings.TrimLeft(text, " "))
			line = strings.Repeat(" ", lead) + w
			continue
		}
		line += " " + w
	}
	b.WriteString(line + "\n")
}

// roster lists the units, generals, terrain and what the viewer holds.
func (vw view) roster() string {
	st := vw.st
	var b strings.Builder
	if len(st.Units) > 0 {
		b.WriteString("Units:\n")
		for _, u := range st.Units {
			at := "not deployed"
			if u.Placed {
				at = fmt.Sprintf("front %s facing %s", fmtPt(u.Front), u.Facing)
			}
			if u.Removed {
				at = "removed"
			}
			states := []string{fmt.Sprintf("cohesion %d", u.Cohesion)}
			for _, x := range []struct {
				on   bool
				name string
			}{{u.Moved, "moved"}, {u.Paid, "paid 3\""}, {u.Pinned, "pinned"}, {u.Engaged, "engaged"}, {u.Attacked, "attacked"},
				{u.Supported, "supported"}, {u.Retreated, "retreated"}, {u.Passage, "passed lines"}} {
				if x.on {
					states = append(states, x.name)
				}
			}
			wrapLine(&b, fmt.Sprintf("  %c %s (%s, %s): %s; %s", u.Letter, u.Name, u.Side, u.Corps, at, strings.Join(states, ", ")), 6)
		}
	}
	if len(st.Generals) > 0 {
		b.WriteString("Generals:\n")
		for _, sd := range st.Sides {
			var gs []string
			for _, g := range st.Generals {
				if g.Side == sd.Name && g.Formation != "" {
					f := g.Formation
					if f == ArmyFormation {
						f = "commander-in-chief, " + st.character(sd.Name, g.Name)
					}
					gs = append(gs, fmt.Sprintf("%s (%s)", g.Name, f))
				}
			}
			wrapLine(&b, fmt.Sprintf("  %s: %s", sd.Name, strings.Join(gs, "; ")), 4)
		}
	}
	if len(st.Pieces) > 0 || len(st.Bridges) > 0 {
		b.WriteString("Terrain:\n")
		for _, p := range st.Pieces {
			by := p.By
			if p.MovedBy != "" {
				by += ", moved by " + p.MovedBy
			}
			if p.Path != nil {
				extra := ""
				if len(p.Flags) > 0 {
					extra = " (" + strings.Join(p.Flags, ", ") + ")"
				}
				wrapLine(&b, fmt.Sprintf("  %s: %s%s, %s long, through %s [%s]", p.ID, p.Kind, extra, inch(p.Path.Len()), fmtPath(p.Path), by), 6)
				continue
			}
			lo, hi := p.Poly.Bounds()
			half := ""
			if p.Half {
				half = ", half a piece"
			}
			wrapLine(&b, fmt.Sprintf("  %s: centre %s, %s x %s across%s [%s]", p.ID, fmtPt(p.Poly.Centroid()), inch(hi.X-lo.X), inch(hi.Y-lo.Y), half, by), 6)
		}
		for _, br := range st.Bridges {
			fmt.Fprintf(&b, "  %s: at %s on %s\n", br.ID, fmtPt(br.At), br.Over)
		}
	}
	if st.Step == StepNormal && len(st.Left) > 0 {
		var ls []string
		for _, e := range st.Left {
			if e.Count > 0 {
				ls = append(ls, fmt.Sprintf("%s %s", e.Kind, halves(e.Count)))
			}
		}
		wrapLine(&b, fmt.Sprintf("Left to place from the %s list: %s", st.List, listWords(ls)), 2)
	}
	b.WriteString("Armies:\n")
	for _, sd := range st.Sides {
		line := fmt.Sprintf("  %s: morale %s", sd.Name, sd.Morale)
		if sd.Battlefield != "" {
			line += ", declared " + sd.Battlefield
			if sd.Forced {
				line += " with a forced march"
			}
		}
		if sd.CavTactic != "" {
			line += ", cavalry tactic " + sd.CavTactic
		}
		if vw.own(sd.Name) || vw.st.Step == StepOver { // 13.12b: told to all at the end
			if sd.Tactic != "" {
				line += ", army tactic " + sd.Tactic
			}
		} else if sd.TacticMade {
			line += ", army tactic chosen (secret until the end, 13.12b)"
		}
		line += fmt.Sprintf("; %s in hand", plural(len(sd.Hand), "battle card", "battle cards"))
		if len(sd.Played) > 0 {
			line += "; played " + strings.Join(sd.Played, "; ")
		}
		wrapLine(&b, line, 4)
		if vw.own(sd.Name) {
			if len(sd.Drawn5) > 0 {
				var ns []string
				for i, c := range sd.Drawn5 {
					ns = append(ns, fmt.Sprintf("%d. %s", i+1, c))
				}
				wrapLine(&b, "    drawn, to keep 3 (by name or number): "+strings.Join(ns, "; "), 6)
			}
			if len(sd.Hand) > 0 {
				var ns []string
				for i, c := range sd.Hand {
					ns = append(ns, fmt.Sprintf("%d. %s", i+1, c))
				}
				wrapLine(&b, "    hand (PLAY by name or number): "+strings.Join(ns, "; "), 6)
			}
			wrapLine(&b, fmt.Sprintf("    deck (%d): %s", len(sd.Deck), strings.Join(sortedCopy(sd.Deck), "; ")), 6)
		}
	}
	return b.String()
}

func halves(n int) string {
	if n%2 == 0 {
		return fmt.Sprint(n / 2)
	}
	return fmt.Sprintf("%d½", n/2)
}

func sortedCopy(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}
