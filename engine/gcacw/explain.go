package gcacw

import (
	"fmt"
	"regexp"
	"strings"

	"pbem/engine"
	"pbem/engine/hex"
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
		return welcomeSections(st, false)
	case engine.ExplainScenario:
		return welcomeSections(st, true)
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

// welcomeSections are the welcome mail's sections, naming each reading
// by the rule it reads; the operator's ('pbem scenarios --long', ids set)
// also by its id, which a scenario's reading line uses.
func welcomeSections(st *State, ids bool) []engine.Explanation {
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
		scenario = append(scenario, fmt.Sprintf("- Option %s: %s.", o, plainRule(optionText[o])))
	}
	for _, n := range t.Notes {
		scenario = append(scenario, "- "+n+".")
	}
	var readings []string
	for _, l := range sc.readingLinesAs(ids) {
		if !ids {
			// The rules' own numbers alone: no ambiguity ids.
			l = strings.Join(strings.Fields(plainRule(l)), " ")
		}
		readings = append(readings, "- "+l)
	}
	return append([]engine.Explanation{
		{Heading: "This scenario", Lines: scenario},
		{Heading: "Readings of the rules (where they can be read two ways)", Lines: readings},
	}, rulesLists(st)...)
}

// rulesLists are the three short lists of what a game plays by (issue:
// say it plainly): the rules pbem applies, the steps the referee rules
// (and how to ask), and what the scenario's house rules add. The welcome
// mail, HELP and 'pbem scenarios --long' give them.
func rulesLists(st *State) []engine.Explanation {
	t := st.Scn.Tables
	pbem := []string{
		"- The turn sequence, the initiative and the action cycle (GCACW 3, 4).",
		"- March, with Extended and Force Marches (5.1), and Leader Activation (5.2).",
		"- Zones of control (2.4), command radius (2.5), leaders and their units (2.2j-m).",
		"- Who may assault, and where: ASSAULT with a district, corps or division leader's units in its command radius, GRAND ASSAULT with an army or district leader's, a unit alone; never in a Leader Activation (5, 5.2b, 2.2k-m); only into a hex the unit's zone of control reaches (2.4).",
	}
	var house []string
	if c := t.Combat; c != nil {
		house = append(house, fmt.Sprintf("- Combat (assaults, and marches that end attacking): the scenario's combat table, columns %s, one die with the modifiers each die line names; SAMPLE, not the published game's.", oddsList(c.Columns)))
	}
	for i := range st.Scn.Battles {
		house = append(house, "- Battles: "+st.Scn.Battles[i].describe()+".")
	}
	if r := t.Reorg; r != nil {
		house = append(house, fmt.Sprintf("- The Reorganization Phase (GCACW 3, phase 4) plays by the scenario's table: fatigue falls by %d for a unit that marched this turn, by %d for one that did not; a disorganized unit rolls to reorganize.", r.Marched, r.Rested))
	}
	if h := t.House; h != nil && h.Retreat != nil {
		house = append(house, fmt.Sprintf("- Cavalry Retreat (GCACW 5.1.2): its owner decides (a standing order, or asked by mail); it retreats up to %d hexes, each farther from the marching unit, not into enemy units or ZOC.", h.Retreat.Hexes))
	}
	if h := t.House; h != nil && h.LeaderAlone != "" {
		house = append(house, "- A leader whose unit is eliminated joins the nearest unit it may stand with (GCACW 2.2j).")
	}
	if v := t.Victory; v.counts() {
		house = append(house, "- Victory, after the last turn: "+v.conditions()+".")
	}
	if len(house) == 0 {
		house = []string{"None: the rules as written."}
	}
	var ref []string
	if left := refereeSteps(st); len(left) == 0 {
		ref = append(ref, "No step is left to a referee: two players can finish this game alone.")
	} else {
		ref = append(ref, "Left to the referee (the game waits for the ruling, and every mail says when it comes; to ask for one, write to your referee):")
		for _, l := range left {
			ref = append(ref, "- "+plainRule(l)+".")
		}
	}
	return []engine.Explanation{
		{Heading: "What pbem plays (the Standard Series Rules)", Lines: pbem},
		{Heading: "What the referee rules", Lines: ref},
		{Heading: "What this scenario's house rules add", Lines: house},
	}
}

// conditions are the victory conditions in words (R24): the objectives,
// the Manpower rule and the margin.
func (v *VictoryTable) conditions() string {
	var objs []string
	for _, vh := range v.Hexes {
		o := fmt.Sprintf("%s %d VP", vh.Hex, vh.VP)
		if vh.Name != "" {
			o = fmt.Sprintf("%s (%s) %d VP", vh.Hex, vh.Name, vh.VP)
		}
		objs = append(objs, o)
	}
	line := "objectives score for the side with a unit in them, or their owner"
	if len(objs) > 0 {
		line += ": " + strings.Join(objs, ", ")
	}
	if v.PerManpower > 0 {
		line += fmt.Sprintf("; 1 VP for every %d Manpower the enemy lost", v.PerManpower)
	}
	return line + fmt.Sprintf("; a lead of %d VP wins, less is a draw", v.Margin)
}

// oddsList writes combat columns: "1-2, 1-1 … 3-1".
func oddsList(os []Odds) string {
	var ss []string
	for _, o := range os {
		ss = append(ss, o.String())
	}
	return strings.Join(ss, ", ")
}

// rNumber is a reference to gcacw.md's list of what the seed leaves out
// ("R14"), or one of its ambiguity ids ("Ambiguity A14"): words for
// pbem log and doc.go, not for players.
var rNumber = regexp.MustCompile(`(, )?\bR\d+\b(: )?|\s?\(R\d+\)|(, )?Ambiguity A\d+|\s?\[\d+\.\d+\]`)

// plainRule is a line for the players: without R-numbers and ambiguity
// ids, the rules' own numbers kept.
func plainRule(s string) string {
	s = rNumber.ReplaceAllString(s, "")
	s = strings.ReplaceAll(s, "not in the seed", "not in the Standard Series Rules")
	s = strings.ReplaceAll(s, "the seed lacks", "the Standard Series Rules lack")
	s = strings.ReplaceAll(s, "(, ", "(")
	s = strings.ReplaceAll(s, "()", "")
	s = strings.ReplaceAll(s, " (victory conditions: )", "")
	return strings.ReplaceAll(s, " ,", ",")
}

// helpSections are what side (the referee: "") may do now, one example
// each, and the orders.
func helpSections(st *State, side string) []engine.Explanation {
	if side == "" {
		return []engine.Explanation{
			{Heading: "Rulings (referee)", Lines: []string{
				"An assault waiting for you: RULE LOSS <unit> <n> (Manpower lost); RULE DISORGANIZED <unit>; RULE RETREAT <unit> <hex>... (a retreat by path); RULE FATIGUE <unit> <0-4>; RULE CASUALTY <leader> (the leader leaves play); RULE ADVANCE <unit> <hex> (an attacker enters the emptied hex); then RULE DONE. Each answer says what it cost the unit.",
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
	return append(out, rulesLists(st)...)
}

// orderForms are the orders a player sends, and the defaults.
var orderForms = []string{
	"- MARCH <unit> <hex> <hex>... [FORCE | FORCE IF MA < n | FORCE IF SHORT] [STOP AT <hex>] [IF ZOC THEN STOP]; MARCH <unit> TO <hex> takes the cheapest legal route there; MARCH <unit> END marches in place.",
	"- ACTIVATE <leader>: <unit> <hex>... [conditions]; <unit> <hex>...",
	"- ASSAULT <leader>: <unit> <unit>... ON <hex>; ASSAULT <unit> ON <hex>; GRAND ASSAULT <army leader>: <unit>... ON <hex> (never in a Leader Activation, GCACW 5.2b).",
	"- TAKE (then your action); PASS; TRANSFER <leader> TO <unit> (in the Leader Transfer Phase).",
	"- QUEUE <order> (used when you next hold the initiative); CANCEL <n>.",
	"- " + standingForm + ": a standing order for your cavalry when an enemy marches next to it (kept until changed; STANDING alone lists them). Without one you are asked by mail: CAVALRY RETREAT <unit> [<hex>...], or PASS.",
	"- RETREAT <unit> <hex>...: where your unit goes when the scenario's combat table drives it back from an assault and you are asked by mail; PASS lets pbem pick.",
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
	case st.Ask != nil && st.Ask.Side == side && st.Ask.Hex != "":
		heading = "Units that retreat now (the combat table's Dr result, a house rule)"
		at := hex.MustParse(st.Ask.Hex)
		for _, id := range st.Ask.Units {
			u := st.unit(id)
			ex := st.fallBackExample(u, at)
			if ex == "" {
				ex = "no retreat is open: it loses 1 Manpower"
			}
			lines = append(lines, fmt.Sprintf("- %s (%s) in %s: %s", u.Name, u.ID, u.Hex, ex))
		}
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
			radius := st.radiusOf(l)
			for _, u := range st.live() {
				if st.mayActivateIn(l, u, radius) != "" {
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
