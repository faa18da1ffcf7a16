package gmb

import (
	"fmt"
	"strings"

	"pbem/engine"
	"pbem/events"
)

// A terrain layout (13.10a): terrain set out by agreement, by a referee
// or from a sample scenario, instead of 13.10's method. Its pieces are
// orders as a mail writes them (RIVER, STREAM, ROAD, RAILWAY, BRIDGE,
// PLACE, FENCE, WALL), from the scenario's "piece" lines or the lines
// after a referee's LAYOUT, each checked by the rules that check the
// same piece placed by mail, and refused with the rule where it breaks
// one. What belongs to the method's exchange (whose turn, the pool, the
// deployment zones of 13.10k, the river being Player A's) does not hold
// for a layout. Then the setup goes on with 13.10l's special terrain.

// LayoutBy is who placed a layout's pieces.
const LayoutBy = "The layout"

// layoutVerbs are the orders a layout holds.
var layoutVerbs = []string{"RIVER", "STREAM", "ROAD", "RAILWAY", "BRIDGE", "PLACE", "FENCE", "WALL"}

// layoutOrder is a referee's LAYOUT mail as one order: its lines are
// parsed one by one as the layout is laid, since a line may name a piece
// an earlier one placed (FENCE ALONG road 1).
func layoutOrder(lines []LayoutLine) Order {
	o := Order{Verb: "LAYOUT", Text: "LAYOUT", Line: 1, Col: 1}
	for _, l := range lines {
		o.Names = append(o.Names, l.Text)
		o.Ints = append(o.Ints, l.Line)
	}
	return o
}

// isLayoutMail reports whether a referee's mail is a LAYOUT: its first
// order line is the word LAYOUT.
func isLayoutMail(text string) ([]LayoutLine, bool) {
	var out []LayoutLine
	seen := false
	for i, raw := range strings.Split(strings.ReplaceAll(text, "\r", ""), "\n") {
		l := strings.TrimSpace(raw)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if !seen {
			if !strings.EqualFold(l, "LAYOUT") {
				return nil, false
			}
			seen = true
			continue
		}
		out = append(out, LayoutLine{i + 1, l})
	}
	return out, seen
}

// canLayout reports whether a layout may be laid now: once Player A is
// known and before any terrain is placed.
func (s *State) canLayout() bool {
	return (s.Step == StepList || s.Step == StepLinear) && len(s.Pieces) == 0 && s.PlayerA != ""
}

// layout lays a layout's lines in order; echo repeats each in the reply
// (a referee's mail), not a scenario's.
func (m *sim) layout(o Order, echo bool) []events.Problem {
	st := m.State
	if !st.canLayout() {
		return problem(o, "a terrain layout is laid once the battlefield roll is won and before any terrain is placed (13.10a)", "")
	}
	if len(o.Names) == 0 {
		return problem(o, "LAYOUT, then one piece a line: "+strings.Join(layoutVerbs, ", ")+" as a mail writes them (13.10a)", "LAYOUT\nROAD BASE B, SP2, NORTH")
	}
	if len(st.Points) == 0 {
		m.Emit(kPointsPlaced, aAt.Arg(polyInts(st.geom().Points)...)) // 13.9b
	}
	for i, text := range o.Names {
		lp := Order{Line: o.Ints[i], Col: 1, Text: text}
		po, pe := parseLine(m.State, engine.RefereeSide, text)
		if pe != nil {
			return []events.Problem{{Line: lp.Line, Col: max(pe.col, 1), Text: text, Msg: pe.msg, Hint: pe.hint}}
		}
		po.Line, po.Col = lp.Line, 1
		if p := m.layoutPiece(po); p != nil {
			return p
		}
		if echo {
			m.Say("%s", text)
		}
	}
	// 13.10q: at least one bridge on the river, one for every full 24".
	st = m.State
	for _, p := range st.Pieces {
		if p.Kind != River {
			continue
		}
		n := 0
		for _, b := range st.Bridges {
			if b.Over == p.ID {
				n++
			}
		}
		if due := bridgesDue(p.Path.Len()); n < due {
			return problem(o, fmt.Sprintf("%s, %s long, needs %s: one for every full 24\" of its length, at least one (13.10q); the layout has %d", p.ID, inch(p.Path.Len()), plural(due, "bridge", "bridges"), n), "BRIDGE x,y")
		}
	}
	m.beginSpecial()
	return nil
}

// layoutPiece checks and places one piece of a layout.
func (m *sim) layoutPiece(o Order) []events.Problem {
	st := m.State
	switch o.Verb {
	case "RIVER", "STREAM", "ROAD", "RAILWAY":
		kind := strings.ToLower(o.Verb)
		if !st.Scn.Historical && st.count(kind) >= st.Scn.LinearLimits[kind] {
			return problem(o, fmt.Sprintf("at most %s (13.10h)", plural(st.Scn.LinearLimits[kind], kind, kind+"s")), "")
		}
		return m.layLine(LayoutBy, kind, o)
	case "BRIDGE":
		var have []Bridge
		for _, pt := range o.Pts {
			at, why := st.checkBridge(pt, have)
			if why != "" {
				return problem(o, why, "")
			}
			have = append(have, Bridge{At: at})
		}
		var river string
		for _, p := range st.Pieces {
			if p.Kind == River {
				river = p.ID
			}
		}
		for _, b := range have {
			b.Over = river
			m.bridge(b, LayoutBy)
		}
	case "PLACE":
		pg := piecePoly(o)
		half, why := st.checkSize(o, pg)
		if why == "" {
			why = st.checkArea(o.Word, pg)
		}
		if why != "" {
			return problem(o, why, "")
		}
		m.placePieceQuiet(Piece{ID: st.nextID(o.Word), Kind: o.Word, By: LayoutBy, Poly: pg, Half: half})
	case "FENCE", "WALL":
		pc, why := st.fenceAlong(LayoutBy, o)
		if why == "" && (st.duplicate(Fence, pc.Path) || st.duplicate(Wall, pc.Path)) {
			why = "a fence or wall runs there already"
		}
		if why != "" {
			return problem(o, why, "")
		}
		m.Emit(kTerrainPlaced, aId.Arg(pc.ID), aKind.Arg(pc.Kind), aBy.Arg(LayoutBy), aPath.Arg(polyInts(pc.Path)...), aAlong.Arg(o.Name))
	default:
		return problem(o, "a terrain layout holds "+strings.Join(layoutVerbs, ", ")+" lines (13.10a)", "")
	}
	return nil
}

// placePieceQuiet places an area piece without echoing an order.
func (m *sim) placePieceQuiet(pc Piece) {
	args := []events.Arg{aId.Arg(pc.ID), aKind.Arg(pc.Kind), aBy.Arg(pc.By), aPoly.Arg(polyInts(pc.Poly)...)}
	if pc.Half {
		args = append(args, aHalf.Arg(true))
	}
	if len(pc.Flags) > 0 {
		args = append(args, aFlags.Arg(pc.Flags...))
	}
	m.Emit(kTerrainPlaced, args...)
}

// beginList goes on after the battlefield roll: to the choice of the
// terrain list (13.10c), or to the scenario's layout (13.10a).
func (m *sim) beginList(w string) {
	st := m.State
	if len(st.Scn.Layout) == 0 {
		m.begin(StepList, w, 0)
		return
	}
	m.begin(StepList, w, 0)
	// Setup checked the layout; should it fail all the same, the mail
	// that led here is refused, and nothing is logged.
	m.failed = m.layout(layoutOrder(st.Scn.Layout), false)
}

// checkLayout lays a scenario's layout on a copy of its table, so that
// a piece that breaks a rule is a scenario error at setup, with its
// line.
func checkLayout(st *State) error {
	if len(st.Scn.Layout) == 0 {
		return nil
	}
	c := st.clone()
	c.Step, c.PlayerA = StepList, c.Sides[0].Name
	d, err := decide(c, engine.RefereeSide, []Order{layoutOrder(st.Scn.Layout)}, engine.DiceFunc(func(string, int) int { return 1 }))
	if err != nil {
		return err
	}
	if len(d.Problems) > 0 {
		p := d.Problems[0]
		return fmt.Errorf("gmb scenario line %d: the terrain layout's %q: %s", p.Line, p.Text, p.Msg)
	}
	return nil
}
