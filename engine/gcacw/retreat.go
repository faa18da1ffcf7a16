package gcacw

import (
	"fmt"
	"slices"
	"strings"

	"pbem/engine"
	"pbem/engine/hex"
	"pbem/events"
)

// Cavalry Retreat (GCACW 5.1.2): before a marching unit moves, enemy
// cavalry in its ZOC may retreat [7.7]. The choice is the cavalry's
// owner's: a standing order (docs/ORDERS.md) answers it in advance,
//
//	STANDING CAVALRY RETREAT [<unit>|ALL] ALWAYS | NEVER | ASK | IF OUTNUMBERED | IF ENEMY INF|CAV|ART
//
// (STANDING may be left out), and without one the owner is asked by mail
// and the march waits for the answer:
//
//	CAVALRY RETREAT <unit> [<hex>...]    PASS (none retreats)
//
// How a unit retreats (7.7) is not in the seed (R9): a scenario's
// cavalry-retreat house rule gives it (house.go), and then the owner's
// path is checked against it, or the engine finds one; without the house
// rule the owner still says whether, and the referee rules how.

// Standing is a standing order: a reaction declared in advance and kept
// until changed.
type Standing struct {
	Side string `json:"side"`
	Unit string `json:"unit,omitempty"` // "" for every cavalry unit of the side
	When string `json:"when"`           // always, never, outnumbered, enemy=inf|cav|art
}

// Ask is a step asked of a player rather than the referee: which enemy
// cavalry retreats before a march, or (Hex set) where the defenders of an
// assault retreat after the combat table's Dr result (fallback.go).
type Ask struct {
	Side  string   `json:"side"`  // the cavalry's owner, who is asked
	Unit  string   `json:"unit"`  // the marching unit
	Units []string `json:"units"` // the cavalry asked about
	// Hex is the hex attacked, for a retreat after an assault: Units are
	// the defenders that retreat; Attackers, Defenders and Step what the
	// attack's end needs (the advance, fatigue, the action's end).
	Hex       string   `json:"hex,omitempty"`
	Attackers []string `json:"attackers,omitempty"`
	Defenders []string `json:"defenders,omitempty"`
	Step      string   `json:"step,omitempty"`
	// Wish are cavalry units the owner's standing orders retreat where no
	// house rule says how: the referee rules their retreat after the
	// answer.
	Wish []string `json:"wish,omitempty"`
}

// gist is what the game waits for, in a few words for everyone.
func (a *Ask) gist() string {
	if a.Hex != "" {
		return fmt.Sprintf("where the units attacked in %s retreat", a.Hex)
	}
	return fmt.Sprintf("whether cavalry next to %s's march retreats, GCACW 5.1.2", a.Unit)
}

// describeWhen writes a standing order's condition for people.
func describeWhen(w string) string {
	switch {
	case w == "always":
		return "ALWAYS"
	case w == "never":
		return "NEVER"
	case w == "outnumbered":
		return "IF OUTNUMBERED"
	case strings.HasPrefix(w, "enemy="):
		return "IF ENEMY " + strings.ToUpper(strings.TrimPrefix(w, "enemy="))
	}
	return strings.ToUpper(w)
}

// standingFor returns the standing order that covers cavalry unit id of
// side: its own, else the side's.
func (s *State) standingFor(side, id string) (Standing, bool) {
	var all *Standing
	for i, o := range s.Standing {
		if o.Side != side {
			continue
		}
		if o.Unit == id {
			return o, true
		}
		if o.Unit == "" {
			all = &s.Standing[i]
		}
	}
	if all != nil {
		return *all, true
	}
	return Standing{}, false
}

// says reports whether a standing order retreats cavalry c before the
// marching unit u.
func (o Standing) says(c, u *Unit) bool {
	switch {
	case o.When == "always":
		return true
	case o.When == "outnumbered":
		return u.Manpower > c.Manpower
	case strings.HasPrefix(o.When, "enemy="):
		return u.Type == strings.TrimPrefix(o.When, "enemy=")
	}
	return false
}

// standingList is the side's standing orders, for STATUS and STANDING.
func (s *State) standingList(side string) []string {
	var out []string
	for _, o := range s.Standing {
		if o.Side != side {
			continue
		}
		who := "ALL"
		if u := s.unit(o.Unit); u != nil {
			who = s.uref(u)
		}
		out = append(out, "STANDING CAVALRY RETREAT "+who+" "+describeWhen(o.When))
	}
	return out
}

// retreatRule is the scenario's Cavalry Retreat house rule, or nil.
func (s *State) retreatRule() *RetreatRule {
	if h := s.Scn.Tables.House; h != nil {
		return h.Retreat
	}
	return nil
}

// cavalryRetreat plays step 2's Cavalry Retreat for the marching unit u
// (GCACW 5.1.2): each enemy cavalry unit in its ZOC retreats or stays as
// its owner's standing order says; the owner is asked about the others.
// It reports whether the march must wait (for the owner or the referee).
func (m sim) cavalryRetreat(u *Unit) bool {
	cav := m.State.enemyCavalryInZOC(u)
	if len(cav) == 0 {
		return false
	}
	owner := opponent(u.Side)
	var ask, wish []string
	for _, id := range cav {
		c := m.State.unit(id)
		o, ok := m.State.standingFor(owner, id)
		switch {
		case !ok:
			ask = append(ask, id)
		case o.says(c, u):
			if !m.retreatByRule(c, u, nil, "standing order "+describeWhen(o.When)) {
				wish = append(wish, id)
			}
		default:
			m.Emit(kCavalryStayed, aUnit.Arg(id), aReason.Arg("standing order "+describeWhen(o.When)))
		}
	}
	if len(ask) > 0 {
		args := []events.Arg{aSide.Arg(owner), aUnit.Arg(u.ID), aUnits.Arg(ask...)}
		if len(wish) > 0 {
			args = append(args, aWish.Arg(wish...))
		}
		m.Emit(kCavalryRetreatAsked, args...)
		return true
	}
	return m.endCavalryRetreat(u, wish)
}

// endCavalryRetreat ends the Cavalry Retreat, unless units retreat that no
// house rule says how: then the referee rules their retreat (R9). It
// reports whether the march must wait.
func (m sim) endCavalryRetreat(u *Unit, wish []string) bool {
	if len(wish) > 0 {
		m.Emit(kRefereePending, aStep.Arg(StepRetreat), aUnit.Arg(u.ID), aUnits.Arg(wish...),
			aNote.Arg(fmt.Sprintf("%s's owner retreats %s before %s's march (GCACW 5.1.2); how cavalry retreats [7.7] is not in the rules pbem has (R9): rule each retreat", opponent(u.Side), strings.Join(wish, ", "), u.ID)))
		return true
	}
	m.Emit(kCavalryRetreatDone, aUnit.Arg(u.ID))
	return false
}

// retreatByRule retreats cavalry c before the marching unit u by the
// scenario's house rule, along path (nil: the engine finds one), and
// reports whether it could apply the rule (false: there is none).
func (m sim) retreatByRule(c, u *Unit, path []hex.Hex, why string) bool {
	r := m.State.retreatRule()
	if r == nil {
		return false
	}
	if path == nil {
		path = m.State.bestRetreat(c, u, r)
	}
	if len(path) == 0 {
		m.Emit(kCavalryStayed, aUnit.Arg(c.ID), aReason.Arg(why+"; no retreat is open to it (R9, house rule)"))
		return true
	}
	full := append([]hex.Hex{c.Hex}, path...)
	m.Emit(kCavalryRetreated, aUnit.Arg(c.ID), aPath.Arg(hexStrs(full)...), aBy.Arg(why+" (R9, house rule)"))
	if r.Fatigue > 0 {
		if nf := min(c.Fatigue+r.Fatigue, 4); nf != c.Fatigue {
			m.Emit(kUnitFatigueSet, aUnit.Arg(c.ID), aFatigue.Arg(int64(nf)), aBy.Arg("cavalry retreat (R9, house rule)"))
		}
	}
	return true
}

// retreatStep says why cavalry c may not retreat from a to b before the
// marching unit at from, or "" (the house rule of R9): b is farther from
// the marching unit than a, a playable land hex without enemy units,
// outside enemy ZOC, and not across a hexside the chart prohibits.
func (s *State) retreatStep(c *Unit, from, a, b hex.Hex) string {
	switch {
	case !hex.Adjacent(a, b):
		return fmt.Sprintf("%s is not next to %s", b, a)
	case hex.Distance(b, from) <= hex.Distance(a, from):
		return fmt.Sprintf("%s is not farther than %s from the marching unit in %s", b, a, from)
	}
	if _, _, why := s.step(c, a, b); why != "" {
		return why
	}
	if s.inEnemyZOC(c.Side, b) {
		return fmt.Sprintf("%s is in enemy ZOC", b)
	}
	return ""
}

// bestRetreat finds the retreat the house rule allows c that ends
// farthest from the marching unit u (then in the fewest hexes, then in
// the lowest-numbered hex), or nil if none is open.
func (s *State) bestRetreat(c, u *Unit, r *RetreatRule) []hex.Hex {
	var best []hex.Hex
	var walk func(path []hex.Hex, at hex.Hex)
	walk = func(path []hex.Hex, at hex.Hex) {
		if len(path) > 0 {
			d, bd := hex.Distance(at, u.Hex), 0
			if len(best) > 0 {
				bd = hex.Distance(best[len(best)-1], u.Hex)
			}
			if len(best) == 0 || d > bd || d == bd && (len(path) < len(best) || len(path) == len(best) && hex.Compare(at, best[len(best)-1]) < 0) {
				best = slices.Clone(path)
			}
		}
		if len(path) == r.Hexes {
			return
		}
		for _, n := range at.Neighbors() {
			if s.retreatStep(c, u.Hex, at, n) == "" {
				walk(append(path, n), n)
			}
		}
	}
	walk(nil, c.Hex)
	return best
}

// checkRetreat says why the owner's retreat path for c is not one the
// house rule allows, or "".
func (s *State) checkRetreat(c, u *Unit, path []hex.Hex) string {
	r := s.retreatRule()
	if r == nil {
		return ""
	}
	if len(path) > r.Hexes {
		return fmt.Sprintf("cavalry retreats at most %d hexes (R9, house rule)", r.Hexes)
	}
	cur := c.Hex
	for _, h := range path {
		if why := s.retreatStep(c, u.Hex, cur, h); why != "" {
			return fmt.Sprintf("%s cannot retreat from %s to %s: %s (R9, house rule)", c.Name, cur, h, why)
		}
		cur = h
	}
	return ""
}

// retreatExample is the retreat the house rule would give c now, as an
// order, or "".
func (s *State) retreatExample(c, u *Unit) string {
	ex := "CAVALRY RETREAT " + s.uref(c)
	if r := s.retreatRule(); r != nil {
		p := s.bestRetreat(c, u, r)
		if len(p) == 0 {
			return ""
		}
		ex += " " + strings.Join(hexStrs(p), " ")
	}
	return ex
}

// answerRetreat decides the owner's answer to a Cavalry Retreat asked of
// side: each asked unit retreats as a CAVALRY RETREAT line says, or as a
// standing order (perhaps given in the same mail) says, or stays; then the
// march goes on. Standing orders are applied before it is called.
func (m sim) answerRetreat(side string, answers []Order) []events.Problem {
	a := m.State.Ask
	u := m.State.unit(a.Unit)
	var probs []events.Problem
	named := map[string]Order{}
	for _, o := range answers {
		switch {
		case !slices.Contains(a.Units, o.Unit):
			probs = append(probs, problemAt(o, o.UnitCol, fmt.Sprintf("%s may not retreat now: the cavalry in %s's ZOC is %s", m.State.unit(o.Unit).Name, u.Name, strings.Join(a.Units, ", ")), ""))
		case named[o.Unit].Kind != "":
			probs = append(probs, problemAt(o, o.UnitCol, fmt.Sprintf("%s is named twice", m.State.unit(o.Unit).Name), ""))
		default:
			if o.Rule.Result != "none" {
				if why := m.State.checkRetreat(m.State.unit(o.Unit), u, o.Rule.Hexes); why != "" {
					probs = append(probs, problemAt(o, o.Col, why, m.State.retreatExample(m.State.unit(o.Unit), u)))
				}
			}
			named[o.Unit] = o
		}
	}
	if len(probs) > 0 {
		return probs
	}
	wish := slices.Clone(a.Wish)
	for _, id := range a.Units {
		c := m.State.unit(id)
		o, answered := named[id]
		st, standing := m.State.standingFor(side, id)
		switch {
		case answered && o.Rule.Result == "none":
			m.Emit(kCavalryStayed, aUnit.Arg(id), aReason.Arg("its owner's answer"))
		case answered:
			if !m.retreatByRule(c, u, o.Rule.Hexes, "its owner's answer") {
				wish = append(wish, id)
				if len(o.Rule.Hexes) > 0 {
					m.Emit(kCavalryRetreatProposed, aUnit.Arg(id), aPath.Arg(hexStrs(o.Rule.Hexes)...))
				}
			}
		case standing && st.says(c, u):
			if !m.retreatByRule(c, u, nil, "standing order "+describeWhen(st.When)) {
				wish = append(wish, id)
			}
		default:
			reason := "its owner did not retreat it"
			if standing {
				reason = "standing order " + describeWhen(st.When)
			}
			m.Emit(kCavalryStayed, aUnit.Arg(id), aReason.Arg(reason))
		}
	}
	if !m.endCavalryRetreat(u, wish) {
		m.continueMarch()
	}
	return nil
}

// retreatPrompt asks the cavalry's owner whether it retreats (GCACW
// 5.1.2), saying what the house rule allows and what no answer means.
func retreatPrompt(st *State, a *Ask) engine.Prompt {
	u := st.unit(a.Unit)
	var names []string
	var ex []string
	for _, id := range a.Units {
		c := st.unit(id)
		names = append(names, fmt.Sprintf("%s (%s) in %s", c.Name, c.ID, c.Hex))
		if e := st.retreatExample(c, u); e != "" && len(ex) < 2 {
			ex = append(ex, e)
		}
	}
	how := "the referee rules how it retreats (R9: the rule is not in the seed)"
	if r := st.retreatRule(); r != nil {
		how = fmt.Sprintf("by the house rule up to %d hexes, each farther from %s, not into enemy units or ZOC; without hexes pbem picks the retreat that ends farthest away", r.Hexes, u.ID)
	}
	what := fmt.Sprintf("%s's %s (%s) marches from %s next to your cavalry %s (GCACW 5.1.2): it may retreat before the march goes on. CAVALRY RETREAT <unit> [<hex>...] retreats a unit: %s. A unit you do not name stays; PASS keeps them all, as does a missed deadline whose default order is PASS",
		u.Side, u.Name, u.ID, u.Hex, strings.Join(names, ", "), how)
	return engine.Prompt{Side: a.Side, What: what, Examples: append(ex, "PASS", "STANDING CAVALRY RETREAT ALL IF OUTNUMBERED")}
}
