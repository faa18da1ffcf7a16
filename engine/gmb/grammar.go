package gmb

import (
	"fmt"
	"slices"
	"strings"

	"pbem/engine"
	"pbem/engine/table"
)

// The orders' grammar, one form a row: the parser takes its verbs from
// this table (verbs), HELP prints each step's rows with an example each
// (Explain), and a test parses every example at its step, so the three
// cannot drift apart.

// form is one way of writing an order.
type form struct {
	Verb  string   // the verb the parser reads ("UNIT" for a unit's move line)
	Steps []string // the steps it is sent at; nil for any step of the battle
	Form  string   // its grammar
	Note  string   // what it does, with the rule
	// Ex is its example now for side, "" when none fits the state.
	Ex func(st *State, side string) string
}

func ex(s string) func(*State, string) string { return func(*State, string) string { return s } }

// firstOf is the ID of the first piece of a kind placed by side ("" for
// any side), or "".
func firstOf(st *State, side string, kinds ...string) string {
	for _, p := range st.Pieces {
		if slices.Contains(kinds, p.Kind) && (side == "" || p.By == side) {
			return p.ID
		}
	}
	return ""
}

var battleSteps = []string{StepActivate, StepMove, StepPassage, StepCombat}

// grammar is the table; init fills it (its examples call the parser,
// which reads its verbs from it).
var grammar, refGrammar []form

func init() {
	grammar, refGrammar = grammarTable(), refereeTable()
	verbs = grammarVerbs()
}

func grammarTable() []form {
	return []form{
		{"TABLE", []string{StepTable}, "TABLE <size>", "the table you ask for (13.1); if the two differ, 13.1's for the larger army", func(st *State, _ string) string { return "TABLE " + recommended(st.Scn) }},
		{"YEAR", []string{StepYear}, "YEAR <year>", "the year of your army; the battle is in the later one (13.4c), and every unit must be available then (13.4b)", func(st *State, side string) string { return examples(st, side)[0] }},
		{"DEAL", []string{StepDraw}, "DEAL GENERALS", "draw your opponent's generals, openly (13.5a)", ex("DEAL GENERALS")},
		{"ASSIGN", []string{StepGenerals}, "ASSIGN <general> TO <formation>", "keeps his level and branch (13.5h)", func(st *State, side string) string { return exampleOf(st, side, "ASSIGN") }},
		{"REDRAW", []string{StepGenerals}, "REDRAW <group>", "draw a general of a group anew, where your army allows it (13.5g)", func(st *State, side string) string { return exampleOf(st, side, "REDRAW") }},
		{"SWAP", []string{StepGenerals}, "SWAP <general>", "after a REDRAW: the redrawn general replaces one of that group (13.5g)", func(st *State, side string) string { return exampleOf(st, side, "SWAP") }},
		{"DISCARD", []string{StepGenerals}, "DISCARD", "after a REDRAW: set the redrawn general aside (13.5g)", func(st *State, side string) string { return exampleOf(st, side, "DISCARD") }},
		{"DONE", []string{StepGenerals}, "DONE", "your generals are assigned", ex("DONE")},
		{"KEEP", []string{StepCards}, "KEEP <card>, <card>, <card>", "keep 3 of your 5 battle cards, by name or number; the other 2 go back into your deck (13.6a)", ex("KEEP 1, 2, 3")},
		{"BATTLEFIELD", []string{StepDeclare}, "BATTLEFIELD DEFENSIVE|NEUTRAL|OFFENSIVE [FORCED MARCH]", "your battlefield, sealed (13.7b); FORCED MARCH: 4 more dice, morale one level lower (13.8d)", ex("BATTLEFIELD NEUTRAL FORCED MARCH")},
		{"LIST", []string{StepList}, "LIST MINE|<opponent>|TYPICAL", "whose terrain list is set out (13.10c)", ex("LIST TYPICAL")},
		{"RIVER", []string{StepLinear}, "RIVER x,y x,y …", "only Player A, who won the initiative, lays the river (at most 1), from one table edge to another, in his own or the neutral zone (13.10h); Player B then lays its bridges (13.10q)", func(st *State, _ string) string { return waterExampleOr(st, River) }},
		{"STREAM", []string{StepLinear}, "STREAM x,y x,y …", "either player, at most 1, edge to edge in his own or the neutral zone (13.10h); within 6\" of a river only at a right angle (13.10i)", func(st *State, side string) string { return waterExampleOr(st, Stream) }},
		{"ROAD", []string{StepLinear}, "ROAD BASE A|BASE B, SPn, <the opposite edge>", "13.10h's first pattern: from an operational base through one strategic point to the opposite edge. Roads (at most 4) run by the shortest line through their waypoints (13.10h, G15): NORTH, SOUTH, EAST, WEST (an edge); BASE A, BASE B (Player A's at the middle of the north edge, Player B's of the south); SP1 … SP3 (the strategic points, west to east); BRIDGE n between them (a bridge that stands: a road may use it, 13.10q); ROAD n last (it ends on that road). A road across a river or stream makes a bridge, at least 3\" from any other", ex("ROAD BASE B, SP2, NORTH")},
		{"ROAD", []string{StepLinear}, "ROAD <edge>, SPn, SPm, <edge>", "the second pattern: through two strategic points, edge to edge", ex("ROAD WEST, SP1, SP3, EAST")},
		{"ROAD", []string{StepLinear}, "ROAD <edge or base>, <SPn or base>, ROAD n", "the third pattern: from an edge (or a base, which lies on one) through a strategic point or a base, ending on another road (once one is laid)", func(st *State, _ string) string {
			if id := firstOf(st, "", Road); id != "" {
				return "ROAD SOUTH, SP1, " + strings.ToUpper(id)
			}
			return ""
		}},
		{"ROAD", []string{StepLinear}, "ROAD SUNKEN <waypoints>", "a sunken road, in any pattern (no fence or wall along it, 13.10p)", ex("ROAD SUNKEN BASE A, SP2, SOUTH")},
		{"RAILWAY", []string{StepLinear}, "RAILWAY EMBANKMENT <waypoints>", "a railway on an embankment (at most 2 railways, laid as roads); the player laying one must say whether it runs on an embankment (13.10h)", ex("RAILWAY EMBANKMENT BASE B, SP1, NORTH")},
		{"RAILWAY", []string{StepLinear}, "RAILWAY NO EMBANKMENT <waypoints>", "a railway not on an embankment (13.10h)", ex("RAILWAY NO EMBANKMENT BASE A, SP3, SOUTH")},
		{"PASS", []string{StepLinear, StepFences}, "PASS", "lay nothing: the turn goes to your opponent, and each pass takes one piece from the pool (13.10j, G10); two passes in a row end the step", ex("PASS")},
		{"BRIDGE", []string{StepBridges}, "BRIDGE x,y [x,y …]", "the player who did not lay the river lays one bridge on it for every full 24\" of its length, at least one, each at least 3\" from any other (13.10q)", func(st *State, _ string) string { return bridgeExample(st) }},
		{"PLACE", []string{StepNormal, StepSpecial}, "PLACE <kind> WxD AT x,y [TURN degrees]", "a piece by its size and centre (13.10k: at most 12\" x 6\", 13.2a; never in your opponent's zone; at least 3 of yours more than half in your own; 13.10l: what your army's traits grant). Two half pieces (2\" x 2\" or less) go down together, one a line, instead of one piece (13.10f)", func(st *State, side string) string {
			if st.Step == StepSpecial {
				return exampleOf(st, side, "PLACE")
			}
			return placeExample(st, side)
		}},
		{"PLACE", []string{StepNormal, StepSpecial}, "PLACE <kind> x,y x,y x,y …", "a piece by its corners, convex", func(st *State, side string) string {
			e := placeExample(st, side)
			if st.Step == StepSpecial {
				e = exampleOf(st, side, "PLACE")
			}
			os, probs := parseOrders(st, side, e)
			if e == "" || len(probs) > 0 {
				return ""
			}
			return "PLACE " + os[0].Word + " " + fmtPath(table.Polyline(piecePoly(os[0])))
		}},
		{"FENCE", []string{StepFences}, "FENCE ALONG <your road or railway> [FROM a TO b] | FENCE ALONG <your field> EDGE n|EDGES n-m", "along a road or railway you laid (not a sunken road nor a railway on an embankment), or at least one edge of a field you placed (13.10p)", func(st *State, side string) string {
			if id := firstOf(st, side, Road, Railway); id != "" {
				return "FENCE ALONG " + id + " FROM 0 TO 6"
			}
			return ""
		}},
		{"WALL", []string{StepFences}, "WALL ALONG <your road, railway or field> …", "as FENCE (13.10p)", func(st *State, side string) string {
			if id := firstOf(st, side, Rough); id != "" {
				return "WALL ALONG " + id + " EDGE 1"
			}
			return ""
		}},
		{"MOVE", []string{StepSpecial}, "MOVE <piece> TO x,y", "move a piece's centre, where your army's traits allow it (13.10l); a piece the other player moved may not be moved again", func(st *State, side string) string { return moveTerrainExample(st, side) }},
		{"DONE", []string{StepSpecial, StepFortify}, "DONE", "you make no more of this step's changes (13.10l, 13.10r: Player A's all first)", ex("DONE")},
		{"SWAP", []string{StepSwap}, "SWAP <piece> WITH <piece>", "the Offensive battlefield: two pieces exchange their centres (13.7f), Player A's change before Player B's (13.10r)", func(st *State, side string) string { return exampleOf(st, side, "SWAP") }},
		{"NO", []string{StepSwap}, "NO SWAP", "no swap (13.7f)", ex("NO SWAP")},
		{"FORTIFY", []string{StepFortify}, "FORTIFY x,y x,y", "a section of field fortifications, straight, at most the scenario's length (13.10m, R17)", func(st *State, side string) string { return fortExample(st, side) }},
		{"TACTIC", []string{StepTactic}, "TACTIC CAUTIOUS|NEUTRAL|AGGRESSIVE", "your army tactic, secret until the battle ends (13.12)", ex("TACTIC NEUTRAL")},
		{"CAVALRY", []string{StepCavalry}, "CAVALRY <tactic>", "your cavalry tactic, sealed (13.13)", func(st *State, side string) string { return "CAVALRY " + st.Scn.CavTactics[0].Name }},
		{"PATROL", []string{StepPatrol}, "PATROL AT x,y x,y …", "a marker for each of your corps, in your army list's order, in your patrol zone; sealed (13.14)", func(st *State, side string) string { return patrolExample(st, side) }},
		{"PATROL", []string{StepPatrol}, "PATROL <corps> AT x,y, <corps> AT x,y …", "the same, each corps by name", func(st *State, side string) string {
			os, probs := parseOrders(st, side, patrolExample(st, side))
			if len(probs) > 0 {
				return ""
			}
			var parts []string
			for i, c := range os[0].Names {
				parts = append(parts, c+" AT "+fmtPt(os[0].Pts[i]))
			}
			return "PATROL " + strings.Join(parts, ", ")
		}},
		{"ACTIVATE", []string{StepActivate}, "ACTIVATE <corps>", "activate a corps (R6)", func(st *State, side string) string { return exampleOf(st, side, "ACTIVATE") }},
		{"PASS", []string{StepActivate}, "PASS", "activate no more corps this turn", ex("PASS")},
		{"UNIT", []string{StepMove}, "<unit>: [MARCH] FORWARD d, WHEEL LEFT|RIGHT a, PIVOT LEFT|RIGHT a, ROAD TO x,y | <unit>: HOLD", "a unit's normal move, one a line (7.1b, 7.2, 7.3); its range is in the prompt", func(st *State, side string) string { return exampleOf(st, side, "UNIT") }},
		{"DONE", []string{StepMove}, "DONE", "the corps' other units hold", ex("DONE")},
		{"PASSAGE", []string{StepPassage}, "PASSAGE <unit> AND <unit>", "two of your units that support each other swap places (7.6a); the initiative's mail orders every passage, the opponent's declared ones too (7.6i)", func(st *State, side string) string { return exampleOf(st, side, "PASSAGE") }},
		{"NONE", []string{StepPassage}, "NONE", "no passage of lines (7.6)", ex("NONE")},
		{"PLAY", nil, "PLAY <card>", "play a battle card openly, by name or number, in any mail of the battle (13.6c); the referee rules its effect", func(st *State, side string) string {
			if sd := st.side(side); sd != nil && len(sd.Hand) > 0 {
				return "PLAY " + sd.Hand[0]
			}
			return ""
		}},
		{"HOLD", nil, "<unit>: HOLD", "the unit makes no move", nil},
	}
}

// refereeTable is the referee's grammar.
func refereeTable() []form {
	return []form{
		{"SET", nil, "SET <object> <field> <value>", "the referee corrects any field of a unit, a general, a side, a terrain piece or GAME", ex("SET game TURN 1")},
		{"LAYOUT", []string{StepList, StepLinear}, "LAYOUT, then one piece a line: RIVER, STREAM, ROAD, RAILWAY, BRIDGE, PLACE, FENCE, WALL as the players write them", "the referee's terrain layout instead of 13.10's method, once Player A is known and before any terrain is placed; each piece is checked by the rules of 13.10 and refused with the rule (13.10a)", ex("LAYOUT\nRIVER 0,30 48,30\nBRIDGE 14,30 36,30\nROAD BASE B, SP2, NORTH\nPLACE woods 6x4 AT 10,8")},
		{"COMBAT", []string{StepCombat}, "COMBAT DONE", "the referee has ruled the activation's attacks and combat (7.1b)", ex("COMBAT DONE")},
		{"FORCE", []string{StepCombat}, "FORCE <unit> BACK|FORWARD PUSH-BACK|DISENGAGEMENT|FAILED ORDER|CARD|PURSUIT", "a forced move of half the unit's value, whatever the terrain, and its kind (7.5, 7.5d)", func(st *State, _ string) string { return "FORCE " + st.Units[0].Name + " BACK PUSH-BACK" }},
		{"FALLEN", nil, "FALLEN <general>", "a brigade general replaces him, the historical ones first (13.5i)", func(st *State, _ string) string {
			for _, g := range st.Generals {
				if g.Formation != "" {
					return "FALLEN " + g.Name
				}
			}
			return ""
		}},
		{"OBJECTIVES", nil, "OBJECTIVES <side> n …", "the objectives a side achieved, numbered as 13.12c lists them for its tactic", func(st *State, _ string) string { return "OBJECTIVES " + st.Sides[0].Name + " 1 2" }},
		{"SCORE", []string{StepEnd}, "SCORE", "the battle ends and is scored (13.12c)", ex("SCORE")},
		{"YEAR", []string{StepYear}, "YEAR <year>", "the year, where the scenario leaves it to the referee (13.4a); every unit must be available then (13.4b)", ex("YEAR 1863")},
		{"INITIATIVE", []string{StepInitiative}, "INITIATIVE <side>", "who wins a tied roll (R1)", func(st *State, _ string) string { return "INITIATIVE " + st.Sides[0].Name }},
	}
}

// verbs are the table's verbs, for abbreviation by unique prefix
// (docs/ORDERS.md).
var verbs []string

func grammarVerbs() []string {
	var out []string
	for _, f := range append(slices.Clone(grammar), refGrammar...) {
		if f.Verb != "UNIT" && !slices.Contains(out, f.Verb) {
			out = append(out, f.Verb)
		}
	}
	return out
}

// formsAt are the forms a player sends at the state's step.
func formsAt(st *State) []form {
	var out []form
	for _, f := range grammar {
		if f.Ex == nil {
			continue
		}
		if slices.Contains(f.Steps, st.Step) || f.Steps == nil && st.Turn > 0 && slices.Contains(battleSteps, st.Step) {
			out = append(out, f)
		}
	}
	return out
}

// refereeForms are the referee's forms at the state's step: those of
// the step, then those of any step.
func refereeForms(st *State) []form {
	var out []form
	for _, f := range refGrammar {
		if f.Verb == "YEAR" && st.Scn.Year != -1 {
			continue // the players' (13.4a)
		}
		if slices.Contains(f.Steps, st.Step) || f.Steps == nil {
			out = append(out, f)
		}
	}
	return out
}

// exampleOf is the first of the step's examples with the verb, or "".
func exampleOf(st *State, side, verb string) string {
	for _, e := range examples(st, side) {
		if strings.HasPrefix(e, verb+" ") || e == verb || verb == "UNIT" && strings.Contains(e, ": ") && !strings.HasSuffix(e, "HOLD") {
			if verb == "UNIT" && strings.Contains(e, "; ") {
				continue
			}
			return e
		}
	}
	return ""
}

// waterExampleOr is a river or stream laid edge to edge, for the first
// side it fits.
func waterExampleOr(st *State, kind string) string {
	if st.PlayerA == "" {
		return ""
	}
	side := st.PlayerA
	if kind == Stream {
		side = st.Placer
	}
	return waterExample(st, side, kind)
}

// Explain implements engine.Explainer: HELP gives the step's whole
// grammar, an example each, and what the step needs to know (what is
// left to place, the units' ranges).
func (rules) Explain(st *State, v engine.Viewer, word string) []engine.Explanation {
	if word == engine.ExplainWelcome && len(st.Scn.Muster) > 0 {
		return []engine.Explanation{{Heading: engine.MusterHeading, Lines: st.Scn.Muster}}
	}
	if word != engine.ExplainHelp || st.Step == StepOver {
		return nil
	}
	if v.Referee {
		var lines []string
		for _, f := range refereeForms(st) {
			l := f.Form + ": " + f.Note + "."
			if e := f.Ex(st, ""); e != "" {
				l += " Example: " + strings.ReplaceAll(e, "\n", "; ")
			}
			lines = append(lines, l)
		}
		return []engine.Explanation{{Heading: "What the referee may send at this step (" + st.Step + ")", Lines: lines}}
	}
	if v.Side == "" || st.side(v.Side) == nil {
		return nil
	}
	var lines []string
	for _, f := range formsAt(st) {
		l := f.Form + ": " + f.Note + "."
		if e := f.Ex(st, v.Side); e != "" {
			l += " Example: " + e
		}
		lines = append(lines, l)
	}
	if len(lines) == 0 {
		return nil
	}
	out := []engine.Explanation{{Heading: "What you may send at this step (" + st.Step + ")", Lines: lines}}
	if extra := stepNotes(st, v.Side); len(extra) > 0 {
		out = append(out, engine.Explanation{Heading: "At this step", Lines: extra})
	}
	return out
}

// stepNotes are what a step's mail says besides its grammar: the normal
// terrain left to place (13.10k), the units' ranges (7.1f).
func stepNotes(st *State, side string) []string {
	switch st.Step {
	case StepNormal:
		return []string{"Left to place (13.10k): " + leftWords(st) + "."}
	case StepMove:
		if side == st.ToAct {
			return []string{"Ranges (7.1f): " + rangeWords(st) + "."}
		}
	}
	return nil
}

// leftWords says the normal terrain still to place, in pieces (13.10f:
// two half pieces make one).
func leftWords(st *State) string {
	var ws []string
	for _, e := range st.Left {
		if e.Count == 0 {
			continue
		}
		n := fmt.Sprintf("%d", e.Count/2)
		if e.Count%2 == 1 {
			n = fmt.Sprintf("%d½", e.Count/2)
			if e.Count == 1 {
				n = "½"
			}
		}
		ws = append(ws, e.Kind+" "+n)
	}
	if len(ws) == 0 {
		return "nothing"
	}
	return strings.Join(ws, ", ")
}

// rangeWords gives each unit of the active corps its range (7.1f), with
// MARCH (7.2e) and once the 3" obstacle cost is paid (7.2c-d).
func rangeWords(st *State) string {
	var ws []string
	for i := range st.Units {
		u := &st.Units[i]
		if u.Side != st.ToAct || u.Corps != st.Active || !u.Placed || u.Removed {
			continue
		}
		if why := st.cantMove(u); why != "" {
			ws = append(ws, u.Name+" may not move")
			continue
		}
		r, pen := st.ranges(u, false)
		m, _ := st.ranges(u, true)
		w := fmt.Sprintf("%s %s (MARCH %s; %s after an obstacle", u.Name, inch(r), inch(m), inch(pen))
		if u.Paid {
			w = fmt.Sprintf("%s %s (MARCH %s; the obstacle cost paid this turn", u.Name, inch(pen), inch(m-obstacleCost))
		}
		ws = append(ws, w+")")
	}
	return strings.Join(ws, ", ")
}
