package hra

import (
	"fmt"
	"strings"

	"pbem/engine"
	"pbem/engine/table"
	"pbem/events"
)

// factSchemas are the facts HRA decides, with their arguments (see
// engine.Schema): the runtime refuses a decision whose facts do not match,
// and the acceptance suite checks every fact of a played game. Each emit
// site and evolve.go agree with these; an argument only some emit sites
// give is optional.
func factSchemas() []engine.FactSchema {
	return []engine.FactSchema{
		engine.Schema("battle.begun", ""),
		engine.Schema("generals.rolled", "side:s dice:is statuses:is"),
		engine.Schema("general.assigned", "brigade:s status:i"),
		engine.Schema("general.killed", "brigade:s"),
		engine.Schema("general.moved", "brigade:s unit:s"),
		engine.Schema("supply.rolled", "unit:s die:i supply:i"),
		engine.Schema("round.begun", "round:i"),
		engine.Schema("initiative.rolled", "union:i confederate:i side:s"),
		engine.Schema("turn.passed", "to:s"),
		engine.Schema("phase.fire", ""),
		engine.Schema("unit.moved", "unit:s x:i y:i facing:i column:b cost:i ?forced:b"),
		engine.Schema("unit.ordered", "unit:s order:s"),
		// field "state" has from, to and cause; "pending" has work alone;
		// "busy" has to and work; the others have to.
		engine.Schema("unit.set", "unit:s field:s ?from:i ?to:i ?cause:s ?work:s"),
		engine.Schema("brigade.ordered", "brigade:s"),
		engine.Schema("melee.begun", "attacker:s defender:s"),
		engine.Schema("melee.ended", "attacker:s defender:s"),
		engine.Schema("volleys.declared", "side:s firers:ss targets:ss ?auto:b"),
		engine.Schema("picks.stated", "side:s what:s units:ss"),
		engine.Schema("volley.fired", "firer:s target:s kind:s weapon:s range:s hindered:b state:i die:i mod:i loss:i flank:b"),
		engine.Schema("morale.tested", "unit:s die:i mod:i total:i result:s"),
		// The referee's SET: a unit's field (from/to, x/y for pos, work
		// for busy), a brigade's general (to, or word for with) or the
		// game's round (from/to) or initiative (word).
		engine.Schema("referee.set", "?unit:s ?brigade:s field:s ?from:i ?to:i ?word:s ?x:i ?y:i ?work:s"),
		engine.Schema("battle.ended", "winner:s reason:s union:i confederate:i"),
	}
}

// Facts implements engine.Teller.
func (rules) Facts() []engine.FactSchema { return factSchemas() }

// Describe implements engine.Teller.
func (rules) Describe(_ *State, f events.Fact) string { return describe(f) }

// describe tells one fact in plain words for the players' mails, with the
// dice where the fact carries them. Every sentence is told from the
// fact's own arguments: HRA's facts carry the values they set, and the
// state before the decision (Describe's s) may already be out of date by
// the fact's turn, as facts before it in the same decision change it.
func describe(f events.Fact) string {
	unit, brig := f.Str("unit"), f.Str("brigade")
	switch f.Kind {
	case "battle.begun":
		return "The battle begins: each side rolls for its generals' status, and every unit for its supply (HRA 3c, 3e)."
	case "generals.rolled":
		return fmt.Sprintf("%s rolls for its generals: %s, so their status is %s (HRA 3c).", f.Str("side"), dieList(f.Ints("dice")), joinInts(f.Ints("statuses")))
	case "general.rolled": // logs of version 0.3 and before
		return fmt.Sprintf("%s's general rolls %d: status %d (HRA 3c).", brig, f.Int("die"), f.Int("status"))
	case "general.assigned":
		return fmt.Sprintf("%s's general has status %d (HRA 3c).", brig, f.Int("status"))
	case "general.killed":
		return fmt.Sprintf("%s's general is killed (HRA 12a d).", brig)
	case "general.moved":
		return fmt.Sprintf("%s's general is now with %s.", brig, unit)
	case "supply.rolled":
		return fmt.Sprintf("%s rolls %d for supply: supply %d (HRA 3e).", unit, f.Int("die"), f.Int("supply"))
	case "round.begun":
		return fmt.Sprintf("Round %d begins.", f.Int("round"))
	case "initiative.rolled":
		u, c, side := f.Int("union"), f.Int("confederate"), f.Str("side")
		switch {
		case side == "":
			return fmt.Sprintf("Initiative: Union %d, Confederate %d, a tie once more: the referee decides who has it (H12).", u, c)
		case u == c:
			return fmt.Sprintf("Initiative: Union %d, Confederate %d, a tie: it goes to %s, who did not have it (HRA 4.0b).", u, c, side)
		}
		return fmt.Sprintf("Initiative: Union %d, Confederate %d: %s acts first (HRA 4.0).", u, c, side)
	case "turn.passed":
		return fmt.Sprintf("%s gives orders to a brigade next (HRA 4.II.a).", f.Str("to"))
	case "phase.fire":
		return "Phase III: each side declares its volleys, sealed until both have (HRA 4.III.a)."
	case "unit.moved":
		at := fmt.Sprintf("(%s, %s) facing %s", cmStr(table.Length(f.Int("x"))), cmStr(table.Length(f.Int("y"))), facing(f.Int("facing")))
		if f.Bool("column") {
			at += ", in column"
		}
		if f.Bool("forced") {
			return fmt.Sprintf("%s is forced back to %s (HRA 5).", unit, at)
		}
		if c := table.Length(f.Int("cost")); c > 0 {
			return fmt.Sprintf("%s moves to %s, using %s of its move.", unit, at, cmText(c))
		}
		return fmt.Sprintf("%s stands at %s.", unit, at)
	case "unit.ordered":
		return fmt.Sprintf("%s's order this round: %s.", unit, f.Str("order"))
	case "unit.set":
		return describeSet(unit, f)
	case "brigade.ordered":
		return fmt.Sprintf("%s has had its orders this round.", brig)
	case "melee.begun":
		return fmt.Sprintf("%s attacks %s in melee (HRA 11a, 11b).", f.Str("attacker"), f.Str("defender"))
	case "melee.ended":
		return fmt.Sprintf("The melee of %s and %s is over.", f.Str("attacker"), f.Str("defender"))
	case "volleys.declared":
		side, firers, targets := f.Str("side"), f.Strs("firers"), f.Strs("targets")
		switch {
		case f.Bool("auto"):
			return fmt.Sprintf("%s has no unit that can fire this round.", side)
		case len(firers) == 0:
			return fmt.Sprintf("%s fires no volley this round.", side)
		}
		var vs []string
		for i, fr := range firers {
			if i < len(targets) {
				vs = append(vs, fr+" will fire at "+targets[i])
			}
		}
		return fmt.Sprintf("%s declares its volleys: %s (HRA 4.III.a).", side, strings.Join(vs, "; "))
	case "picks.stated":
		side, units := f.Str("side"), f.Strs("units")
		if f.Str("what") == "retreat" {
			if len(units) == 0 {
				return fmt.Sprintf("%s has no retreat order: its forced moves go in roster order (HRA 4.I.b).", side)
			}
			return fmt.Sprintf("%s's forced moves go first for %s, then in roster order (HRA 4.I.b).", side, strings.Join(units, ", "))
		}
		return fmt.Sprintf("%s picks first the confrontations of %s (HRA 4.III.c).", side, strings.Join(units, ", "))
	case "volley.fired":
		return describeVolley(f)
	case "morale.tested":
		return fmt.Sprintf("%s tests its morale: %d %s = %d, %s (HRA 12d, 12e).", unit, f.Int("die"), signed(f.Int("mod")), f.Int("total"), f.Str("result"))
	case "referee.set":
		return describeRefereeSet(f)
	case "battle.ended":
		return fmt.Sprintf("The battle is over: %s.", strings.TrimSuffix(f.Str("reason"), "."))
	}
	// A kind this version does not decide: said as it was recorded.
	return "Recorded: " + strings.ReplaceAll(f.Kind, ".", " ") + "."
}

// describeVolley tells one volley: "6th Wisconsin fires at 2nd Virginia
// (small arms, short range, state 3): 5, a hit."
func describeVolley(f events.Fact) string {
	who := f.Str("firer") + " fires at " + f.Str("target")
	switch f.Str("kind") {
	case "defensive volley":
		who = "Defensive volley (HRA 11c): " + who
	case "melee":
		who = "In melee, " + f.Str("firer") + " fires at " + f.Str("target")
	}
	how := []string{f.Str("weapon"), f.Str("range") + " range"}
	if f.Bool("hindered") {
		how = append(how, "hindered")
	}
	how = append(how, fmt.Sprintf("state %d", f.Int("state")))
	if f.Bool("flank") {
		how = append(how, "from the flank or rear")
	}
	roll := fmt.Sprint(f.Int("die"))
	if m := f.Int("mod"); m != 0 {
		roll = fmt.Sprintf("%d %s = %d", f.Int("die"), signed(m), f.Int("die")+m)
	}
	var res string
	switch n := f.Int("loss"); n {
	case 0:
		res = "no hit"
	case 1:
		res = "a hit"
	default:
		res = fmt.Sprintf("%d hits", n)
	}
	return fmt.Sprintf("%s (%s): %s, %s (T2).", who, strings.Join(how, ", "), roll, res)
}

// describeSet tells a unit.set fact a decision made.
func describeSet(unit string, f events.Fact) string {
	to, on := f.Int("to"), f.Int("to") != 0
	switch f.Str("field") {
	case "state":
		why := f.Str("cause")
		if why != "" {
			why = " — " + why
		}
		if to <= 0 {
			return fmt.Sprintf("%s breaks and leaves the battlefield (state %d to 0, HRA 3a)%s.", unit, f.Int("from"), why)
		}
		return fmt.Sprintf("%s drops to state %d (was %d)%s.", unit, to, f.Int("from"), why)
	case "supply":
		return fmt.Sprintf("%s's supply is now %d (HRA 3f).", unit, to)
	case "busy":
		switch w := f.Str("work"); {
		case to == 0:
			return fmt.Sprintf("%s has finished its work and may act again.", unit)
		case w == "entrench":
			return fmt.Sprintf("%s is entrenching: %d round(s) to go (T1).", unit, to)
		case w == "crossing":
			return fmt.Sprintf("%s is crossing the water: %d round(s) to go (T1).", unit, to)
		case w != "":
			return fmt.Sprintf("%s is busy (%s): %d round(s) to go.", unit, w, to)
		}
		return fmt.Sprintf("%s is busy for %d round(s).", unit, to)
	case "pending":
		if w := f.Str("work"); w != "" {
			return fmt.Sprintf("%s begins to %s: it is done in Phase I of the next round (HRA 16c, 17d).", unit, w)
		}
		return fmt.Sprintf("%s's change of formation is complete.", unit)
	case "charges":
		return fmt.Sprintf("%s has charged %d time(s) today (HRA 16b).", unit, to)
	case "passed_by":
		return fmt.Sprintf("A friendly unit passed through %s: it may move only 5cm this round (HRA 10a, 10b).", unit)
	}
	if says, ok := flagSentences[f.Str("field")]; ok {
		if on {
			return fmt.Sprintf(says[0], unit)
		}
		return fmt.Sprintf(says[1], unit)
	}
	return fmt.Sprintf("%s's %s is now %d.", unit, strings.ReplaceAll(f.Str("field"), "_", " "), to)
}

// flagSentences tell a unit's field that is on or off: what it means
// when it is set, and when it is cleared.
var flagSentences = map[string][2]string{
	"column":        {"%s is now in column (HRA 15).", "%s is now in line (HRA 15)."},
	"limbered":      {"%s has limbered (HRA 17d).", "%s has unlimbered (HRA 17d)."},
	"dismounted":    {"%s has dismounted (HRA 16c).", "%s has mounted (HRA 16c)."},
	"retreating":    {"%s is in retreat (HRA 5b).", "%s stops retreating (H5)."},
	"entrenched":    {"%s is entrenched (T1).", "%s is no longer entrenched."},
	"acted":         {"%s has made its forced move and does nothing more this round (HRA 4.I.c).", "%s may act again."},
	"withdraw_next": {"%s must withdraw in Phase I of the next round (HRA 12e).", "%s no longer has a withdrawal due."},
	"retreat_next":  {"%s must retreat in Phase I of the next round (HRA 12e).", "%s no longer has a retreat due."},
}

// describeRefereeSet tells a referee's SET.
func describeRefereeSet(f events.Fact) string {
	field, unit, brig := f.Str("field"), f.Str("unit"), f.Str("brigade")
	switch {
	case unit == "" && brig == "" && field == "initiative":
		return fmt.Sprintf("The referee gives the initiative to %s.", f.Str("word"))
	case unit == "" && brig == "" && field == "round":
		return fmt.Sprintf("The referee sets the round to %d (was %d).", f.Int("to"), f.Int("from"))
	case unit == "" && field == "general":
		return fmt.Sprintf("The referee sets %s's general to status %d (was %d).", brig, f.Int("to"), f.Int("from"))
	case unit == "" && field == "with":
		return fmt.Sprintf("The referee puts %s's general with %s.", brig, f.Str("word"))
	case field == "pos":
		return fmt.Sprintf("The referee places %s at (%s, %s).", unit, cmStr(table.Length(f.Int("x"))), cmStr(table.Length(f.Int("y"))))
	case field == "facing":
		return fmt.Sprintf("The referee turns %s, which faced %s, to face %s.", unit, facing(f.Int("from")), facing(f.Int("to")))
	case field == "column" || field == "limbered" || field == "dismounted" || field == "retreating" || field == "entrenched":
		return fmt.Sprintf("The referee sets %s %s: %s (was %s).", unit, field, onOff(f.Int("to")), onOff(f.Int("from")))
	case unit != "":
		return fmt.Sprintf("The referee sets %s's %s to %d (was %d).", unit, field, f.Int("to"), f.Int("from"))
	}
	return fmt.Sprintf("The referee sets %s to %d.", field, f.Int("to"))
}

// facing writes a bearing as the board's key reads it: "180° (S)", or
// "30°" between the eight points of the compass.
func facing(a int64) string {
	n := table.Angle(a).Norm()
	if n%(45*table.Degree) == 0 {
		return fmt.Sprintf("%v (%s)", n, [...]string{"N", "NE", "E", "SE", "S", "SW", "W", "NW"}[n/(45*table.Degree)])
	}
	return n.String()
}

// dieList writes dice as "3 and 5", "3, 5 and 1".
func dieList(vs []int64) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = fmt.Sprint(v)
	}
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// signed writes a modifier as the echo does: "+1", "-1", "+0".
func signed(n int64) string { return fmt.Sprintf("%+d", n) }
