package gcacw

import (
	"fmt"
	"strings"

	"pbem/engine/hex"
	"pbem/events"
)

// Routes: the cheapest legal path for a unit, used to expand MARCH … TO
// <hex> and to hint a legal route when a written path is refused. A step
// is legal when the march could take it (stepCost gives no reason
// against it: no enemy unit, no water, no prohibited terrain or hexside);
// it costs what the Terrain Effects Chart says, or 1 where the chart is
// silent (the referee would rule the march).

// routeCost is the cost function of u's routes.
func (s *State) routeCost(u *Unit) hex.CostFunc {
	return func(from, to hex.Hex) (int, bool) {
		c, silent, why := s.step(u, from, to)
		if why != "" {
			return 0, false
		}
		if silent != "" {
			c = 1
		}
		return c, true
	}
}

// route returns the cheapest legal path for u from a to b within budget
// MP (a left out), and false if there is none.
func (s *State) route(u *Unit, a, b hex.Hex, budget int) ([]hex.Hex, bool) {
	r, err := hex.Reachable(a, budget, s.routeCost(u))
	if err != nil || !r.Contains(b) {
		return nil, false
	}
	return r.Path(b)[1:], true
}

// routeToward returns the cheapest legal path for u from its hex to b
// within budget MP, or, if b cannot be reached within it, to the hex it
// can reach that is nearest to b (then cheapest, then lowest-numbered);
// nil if it can go nowhere.
func (s *State) routeToward(u *Unit, b hex.Hex, budget int) []hex.Hex {
	r, err := hex.Reachable(u.Hex, budget, s.routeCost(u))
	if err != nil {
		return nil
	}
	if r.Contains(b) {
		return r.Path(b)[1:]
	}
	best, bd := u.Hex, hex.Distance(u.Hex, b)
	for _, h := range r.Hexes() { // by cost, then steps, then column-major
		if d := hex.Distance(h, b); d < bd {
			best, bd = h, d
		}
	}
	return r.Path(best)[1:]
}

// maxMA is the most MP u can roll for a march (GCACW 5.1.1), before any
// Force March: the allowance a route hint keeps within.
func (s *State) maxMA(u *Unit) int {
	return s.marchMA(u.Side, u.Type, 6*diceFor(u.Type))
}

// routeHint is a MARCH for u that takes a legal route toward the end of
// the path it was given, within the most it could roll, keeping the
// plan's conditions; or a march in place if it can go nowhere.
func (s *State) routeHint(u *Unit, pl Plan) string {
	if len(pl.Path) == 0 {
		return ""
	}
	r := s.routeToward(u, pl.Path[len(pl.Path)-1], s.maxMA(u))
	if len(r) == 0 {
		return "MARCH " + s.uref(u) + " END (a march in place: no hex is open to it)"
	}
	hint := pl
	hint.Path, hint.StopAt = r, ""
	return strings.TrimSpace("MARCH " + s.uref(u) + " " + hint.String())
}

// expandRoutes replaces TO <hex> in a MARCH (or in each unit of an
// ACTIVATE) by the cheapest legal route there, or says why there is none.
func (m sim) expandRoutes(o *Order) []events.Problem {
	var probs []events.Problem
	expand := func(id string, pl *Plan, ps *[]pos, line int, text string) {
		if pl.To == nil {
			return
		}
		u := m.State.unit(id)
		from := u.Hex
		if n := len(pl.Path); n > 0 {
			from = pl.Path[n-1]
		}
		at := pos{line, 0}
		if n := len(*ps); n > 0 {
			at, *ps = (*ps)[n-1], (*ps)[:n-1]
		}
		r, ok := m.State.route(u, from, *pl.To, 1<<16)
		if !ok {
			probs = append(probs, events.Problem{Line: at.Line, Col: at.Col, Text: lineText(*o, at.Line, text),
				Msg:  fmt.Sprintf("%s has no legal route from %s to %s: enemy units, water or hexsides it may not cross are in the way", u.Name, from, *pl.To),
				Hint: m.State.routeHint(u, Plan{Path: []hex.Hex{*pl.To}})})
			return
		}
		for range r {
			*ps = append(*ps, at)
		}
		pl.Path, pl.To = append(pl.Path, r...), nil
	}
	switch o.Kind {
	case oMarch:
		expand(o.Unit, &o.Plan, &o.PlanPos, o.Line, o.Text)
	case oActivate:
		for i := range o.Entries {
			e := &o.Entries[i]
			expand(e.Unit, &e.Plan, &e.PlanPos, e.Line, e.Text)
		}
	}
	return probs
}
