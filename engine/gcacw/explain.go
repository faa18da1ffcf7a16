package gcacw

import (
	"fmt"
	"strings"

	"pbem/engine"
)

// Explain implements engine.Explainer: the sections of GCACW's own in the
// welcome mail (the scenario, its options, readings and house rules, and
// what it leaves to a referee), in the answer to HELP (what the reader
// may do now, one example each, and the orders) and in the answer to
// STATUS (the reader's orders waiting).
func (rules) Explain(st *State, v engine.Viewer, word string) []engine.Explanation {
	side := v.Side
	if side == "" && !v.Referee && word != engine.ExplainWelcome {
		return nil // an observer sends no orders
	}
	switch word {
	case engine.ExplainWelcome:
		return welcomeSections(st)
	case engine.ExplainHelp:
		return helpSections(st, side)
	case engine.ExplainStatus:
		return statusSections(st, side)
	}
	return nil
}

// optionText says what each scenario option does.
var optionText = map[string]string{
	OptActivationMarch:     "the units a leader activates march one after another, each with the leader's MA (GCACW 5.2 step 4, which the rules lack)",
	OptFatigue4:            "the optional rule: an organized unit at fatigue 4 may march, and is disorganized after it (GCACW 5.1-OPT, 5.2.2-OPT)",
	OptProvisionalSwampZOC: "ZOC enters provisional swamp only along a road, pike, railroad or trail, as swamp (GCACW 2.4c)",
	OptRandomEvents:        "the Random Events Phase is played (GCACW 3, phase 1)",
	OptTieSpecial:          "a tied initiative roll may end the turn or cause insubordination, so both sides always roll (GCACW 4.2e)",
	OptRecordDie:           "the initiative winner's die is recorded (GCACW 4.2c)",
	OptAdvanced:            "an advanced scenario: no Random Events Phase (GCACW 3)",
	OptMarchAttacks:        "a march may end attacking the enemy in the last hex of its path, the referee resolving the attack (GCACW 5.1.5)",
}

func welcomeSections(st *State) []engine.Explanation {
	sc := st.Scn
	t := sc.Tables
	head := fmt.Sprintf("%s: %d turns, played by the Standard Series Rules", sc.Name, sc.Turns)
	if sc.Game != "SSR" {
		head += " with " + sc.Game + "'s exceptions"
	}
	if sc.Year > 0 {
		head += fmt.Sprintf(", in %d", sc.Year)
	}
	scenario := []string{head + "."}
	if len(sc.Notes) > 0 {
		scenario = append(scenario, strings.Join(sc.Notes, " ")) // one paragraph
	}
	for _, o := range sc.Options {
		scenario = append(scenario, fmt.Sprintf("- Option %s: %s.", o, optionText[o]))
	}
	for _, n := range t.Notes {
		scenario = append(scenario, "- "+n+".")
	}
	var readings []string
	for _, l := range sc.readingLinesAs(false) {
		readings = append(readings, "- "+l)
	}
	var steps []string
	if r := t.Reorg; r != nil {
		steps = append(steps, fmt.Sprintf("- The Reorganization Phase (GCACW 3, phase 4) plays by the scenario's table: fatigue falls by %d for a unit that marched this turn, by %d for one that did not; a disorganized unit rolls to reorganize.", r.Marched, r.Rested))
	}
	if h := t.House; h != nil && h.Retreat != nil {
		steps = append(steps, fmt.Sprintf("- Cavalry Retreat (GCACW 5.1.2): its owner decides (a standing order, or asked by mail); it retreats up to %d hexes, each farther from the marching unit, not into enemy units or ZOC.", h.Retreat.Hexes))
	}
	if h := t.House; h != nil && h.LeaderAlone != "" {
		steps = append(steps, "- A leader whose unit is eliminated joins the nearest unit it may stand with (GCACW 2.2j).")
	}
	if v := t.Victory; v != nil {
		var objs []string
		for _, vh := range v.Hexes {
			o := fmt.Sprintf("%s %d VP", vh.Hex, vh.VP)
			if vh.Name != "" {
				o = fmt.Sprintf("%s (%s) %d VP", vh.Hex, vh.Name, vh.VP)
			}
			objs = append(objs, o)
		}
		line := "- Victory, after the last turn: objectives score for the side with a unit in them, or their owner"
		if len(objs) > 0 {
			line += ": " + strings.Join(objs, ", ")
		}
		if v.PerManpower > 0 {
			line += fmt.Sprintf("; 1 VP for every %d Manpower the enemy lost", v.PerManpower)
		}
		steps = append(steps, line+fmt.Sprintf("; a lead of %d VP wins, less is a draw.", v.Margin))
	}
	if left := refereeSteps(st); len(left) == 0 {
		steps = append(steps, "No step is left to a referee: two players can finish this game alone.")
	} else {
		steps = append(steps, "Left to the referee:")
		for _, l := range left {
			steps = append(steps, "- "+l+".")
		}
	}
	return []engine.Explanation{
		{Heading: "This scenario", Lines: scenario},
		{Heading: "Readings of the rules (where they can be read two ways)", Lines: readings},
		{Heading: "Steps the rules leave out", Lines: steps},
	}
}

// helpSections are what side (the referee: "") may do now, one example
// each, and the orders.
func helpSections(st *State, side string) []engine.Explanation {
	if side == "" {
		return []engine.Explanation{
			{Heading: "Rulings (referee)", Lines: []string{
				"Adjustments first, in the order written: RULE FATIGUE <unit> <0-4>; RULE ORGANIZED|DISORGANIZED|EXHAUSTED|RESTED <unit>; RULE MANPOWER <unit> <n>; RULE PLACE <unit> <hex>; RULE TRANSFER <leader> TO <unit>; RULE RETREAT <unit> <hex>...; RULE ATTACKS ALLOWED|REFUSED.",
				"Then at most one ruling that lets play go on: RULE EXTENDED MARCH <unit> NE|D|1|2|3; RULE MARCH <unit> <hex>; RULE RETREAT NONE; RULE INITIATIVE USA|CSA|END; RULE DONE; RULE WINNER USA|CSA|DRAW.",
			}},
			{Heading: "Corrections (referee)", Lines: strings.Split(strings.TrimSpace(strings.TrimPrefix(setHelp, "Corrections (referee), one per line, applied in order:\n")), "\n")},
		}
	}
	var out []engine.Explanation
	if e := eligibleNow(st, side); len(e.Lines) > 0 {
		out = append(out, e)
	}
	out = append(out, engine.Explanation{Heading: "Orders", Lines: orderForms})
	return out
}

// orderForms are the orders a player sends, and the defaults.
var orderForms = []string{
	"- MARCH <unit> <hex> <hex>... [FORCE | FORCE IF MA < n | FORCE IF SHORT] [STOP AT <hex>] [IF ZOC THEN STOP]; MARCH <unit> TO <hex> takes the cheapest legal route there; MARCH <unit> END marches in place.",
	"- ACTIVATE <leader>: <unit> <hex>... [conditions]; <unit> <hex>...",
	"- TAKE (then your action); PASS; TRANSFER <leader> TO <unit> (in the Leader Transfer Phase).",
	"- QUEUE <order> (used when you next hold the initiative); CANCEL <n>.",
	"- " + standingForm + ": a standing order for your cavalry when an enemy marches next to it (kept until changed; STANDING alone lists them). Without one you are asked by mail: CAVALRY RETREAT <unit> [<hex>...], or PASS.",
	"- UNDO takes back your last order while no die has been rolled for it and no one has acted since.",
	"- STATUS, HELP, BOARD, BOARD FULL.",
	"Defaults: no Force March unless FORCE is written; a unit marches along its path until the next hex costs more MP than it has left, or the path ends; it stops in enemy ZOC only if IF ZOC THEN STOP is written.",
}

// eligibleNow lists what side may do in the phase the game is in, one
// example each: the leaders it may transfer, the cavalry it may retreat,
// the units that may march and the leaders that may be activated.
func eligibleNow(st *State, side string) engine.Explanation {
	m := trial(st)
	var lines []string
	heading := "Eligible now"
	switch {
	case st.Ask != nil && st.Ask.Side == side:
		heading = "Cavalry that may retreat now (GCACW 5.1.2)"
		u := st.unit(st.Ask.Unit)
		for _, id := range st.Ask.Units {
			c := st.unit(id)
			ex := st.retreatExample(c, u)
			if ex == "" {
				ex = "CAVALRY RETREAT " + st.uref(c) + " NONE"
			}
			lines = append(lines, fmt.Sprintf("- %s (%s) in %s, next to %s: %s", c.Name, c.ID, c.Hex, u.ID, ex))
		}
	case st.Phase == PhaseTransfer:
		heading = "Leaders you may transfer now (GCACW 3, phase 2)"
		for _, l := range st.Leaders {
			if l.Side != side || l.Removed {
				continue
			}
			with := st.unit(l.With)
			line := fmt.Sprintf("- %s (%s), with %s (%s): no other unit it may join", l.Name, l.ID, with.Name, with.ID)
			for _, u := range st.live() {
				if st.transferWhy(l, u, false) == "" {
					line = fmt.Sprintf("- %s (%s), with %s (%s): TRANSFER %s TO %s", l.Name, l.ID, with.Name, with.ID, st.lref(l), st.uref(u))
					break
				}
			}
			lines = append(lines, line)
		}
	case st.Phase == PhaseCycle:
		if st.Cycle.Holder != side {
			heading = "Eligible when you hold the initiative"
		}
		for _, u := range st.live() {
			if u.Side != side || st.canMarch(u) != "" {
				continue
			}
			ex := "MARCH " + st.uref(u) + " END"
			if h := m.exampleHex(u); h != "" {
				ex = "MARCH " + st.uref(u) + " " + h
			}
			lines = append(lines, fmt.Sprintf("- %s (%s) in %s, fatigue %d: %s", u.Name, u.ID, u.Hex, u.Fatigue, ex))
		}
		for _, l := range st.Leaders {
			if l.Side != side || st.leaderEligible(l) != "" {
				continue
			}
			var can []string
			ex := ""
			for _, u := range st.live() {
				if st.mayActivate(l, u) != "" {
					continue
				}
				can = append(can, u.ID)
				if ex == "" {
					ex = strings.TrimSpace(fmt.Sprintf("ACTIVATE %s: %s %s", st.lref(l), st.uref(u), m.exampleHex(u)))
				}
			}
			if ex != "" {
				lines = append(lines, fmt.Sprintf("- %s (%s) may activate %s: %s", l.Name, l.ID, strings.Join(can, ", "), ex))
			}
		}
	}
	return engine.Explanation{Heading: heading, Lines: lines}
}

// statusSections are side's orders waiting (the referee: both sides').
func statusSections(st *State, side string) []engine.Explanation {
	sides := []string{side}
	if side == "" {
		sides = Sides
	}
	var lines []string
	for _, s := range sides {
		who := ""
		if side == "" {
			who = s + ": "
		}
		for _, q := range st.Queue {
			if q.Side == s {
				lines = append(lines, fmt.Sprintf("- %sQUEUE #%d %s", who, q.N, strings.Join(strings.Fields(q.Order), " ")))
			}
		}
		for _, o := range st.standingList(s) {
			lines = append(lines, "- "+who+o)
		}
		if u := st.Undo; u != nil && u.Side == s {
			lines = append(lines, "- "+who+"UNDO would take back the last order, for no one has acted since and no die was rolled for it.")
		}
	}
	if len(lines) == 0 {
		lines = []string{"None: nothing queued, no standing orders (every Cavalry Retreat is asked by mail)."}
	}
	return []engine.Explanation{{Heading: "Orders waiting", Lines: lines}}
}

// Help is the HELP text for side ("" for the referee) when HELP comes in
// a mail with other orders: where the game stands, what the side is asked
// now with examples, and the sections the HELP mail has.
func Help(st *State, side string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "GCACW, %s: %s.\n", st.Scn.Name, phaseName(st))
	if st.Phase == PhaseCycle && st.Cycle.Holder != "" {
		fmt.Fprintf(&b, "Action Phase %d: %s holds the initiative (rolled %s).\n", st.Cycle.N, st.Cycle.Holder, st.Cycle.rollText())
	}
	mine := false
	for _, p := range prompts(st) {
		if p.Referee && side == "" || !p.Referee && p.Side == side {
			mine = true
			fmt.Fprintf(&b, "Now: %s.\n", p.What)
			for _, e := range p.Examples {
				fmt.Fprintf(&b, "  e.g. %s\n", e)
			}
		}
	}
	if !mine {
		fmt.Fprintf(&b, "Nothing is asked of you now: %s.\n", waitingFor(st, side))
	}
	secs := helpSections(st, side)
	if side != "" {
		secs = append(secs, statusSections(st, side)...)
	}
	for _, s := range secs {
		fmt.Fprintf(&b, "%s:\n", s.Heading)
		for _, l := range s.Lines {
			fmt.Fprintf(&b, "  %s\n", strings.TrimPrefix(l, "- "))
		}
	}
	return b.String()
}
