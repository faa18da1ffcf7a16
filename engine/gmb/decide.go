package gmb

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pbem/engine"
	"pbem/engine/table"
	"pbem/events"
)

// sim is a decision in the making: the kit's engine.Sim (each fact
// applied as it is made) with GMB's steps as methods.
type sim struct {
	*engine.Sim[*State]
	failed []events.Problem // what refuses the mail, found past where it could return it
}

func problem(o Order, msg, hint string) []events.Problem {
	return []events.Problem{{Line: max(o.Line, 1), Col: max(o.Col, 1), Text: o.Text, Msg: msg, Hint: hint}}
}

func decide(st *State, side string, os []Order, dice engine.Dice) (engine.Decision, error) {
	d, err := engine.Decide(st, dice, evolve, func(s *engine.Sim[*State]) []events.Problem {
		m := &sim{Sim: s}
		var probs []events.Problem
		switch {
		case side == engine.RefereeSide:
			probs = m.referee(os)
		case st.side(side) == nil:
			return problem(os[0], fmt.Sprintf("side %q plays no part in this game", side), "")
		default:
			probs = m.player(side, os)
		}
		if probs == nil {
			probs = m.failed
		}
		return probs
	})
	if err != nil {
		return engine.Decision{}, fmt.Errorf("gmb: %w", err)
	}
	return d, nil
}

// one refuses a mail of more than one order where a step takes one.
func one(os []Order) []events.Problem {
	if len(os) > 1 {
		return problem(os[1], "this step takes one order a mail", "send the first line alone")
	}
	return nil
}

func (m *sim) player(side string, os []Order) []events.Problem {
	st := m.State
	if st.Step == StepOver {
		return problem(os[0], "the battle is over. "+st.Result, "")
	}
	// Battle cards may be played in any mail of the battle (5.4 is not
	// in the seeds: the card's effect is the referee's).
	var rest []Order
	for _, o := range os {
		if o.Verb != "PLAY" {
			rest = append(rest, o)
			continue
		}
		if st.Turn == 0 {
			return problem(o, "battle cards are played once the battle has begun (5.4)", "")
		}
		sd := m.State.side(side)
		if k, err := strconv.Atoi(o.Name); err == nil && k >= 1 && k <= len(sd.Hand) {
			o.Name = sd.Hand[k-1] // by its number on the board
		}
		c, amb := lookup(o.Name, sd.Hand)
		if c == "" {
			hint := "your hand is on your board"
			if len(amb) > 1 {
				hint = "one of " + strings.Join(amb, ", ")
			}
			return problem(o, fmt.Sprintf("you hold no card %q", o.Name), hint)
		}
		m.Emit(kCardPlayed, aSide.Arg(side), aCard.Arg(c))
		m.Say("PLAY %s", c)
	}
	if len(rest) == 0 {
		return nil
	}
	os = rest
	o := os[0]
	step := st.Step
	if !slices.Contains(m.actors(), side) {
		if who := m.actors(); len(who) > 0 {
			return problem(o, fmt.Sprintf("it is not your turn: %s now (%s)", listWords(who), stepWhat(st)), "wait for your \"your move\" mail")
		}
		return problem(o, "the referee acts now: "+stepWhat(st), "")
	}
	switch step {
	case StepTable:
		if o.Verb != "TABLE" {
			return problem(o, "choose the table: TABLE <size> (13.1)", m.example(side))
		}
		return m.table(side, o)
	case StepYear:
		if o.Verb != "YEAR" {
			return problem(o, "say the year of your army: YEAR <year> (13.4)", m.example(side))
		}
		return m.year(side, o)
	case StepDraw:
		if o.Verb != "DEAL" {
			return problem(o, "draw your opponent's generals: DEAL GENERALS (13.5a)", "DEAL GENERALS")
		}
		army := st.other(side)
		if st.Scn.Option("generals-drawn-by") == "owner" {
			army = side
		}
		m.Say("DEAL GENERALS of the %s army", army)
		m.drawGenerals(army, side)
		m.afterDraw()
		return nil
	case StepGenerals:
		return m.generals(side, os)
	case StepCards:
		if o.Verb != "KEEP" {
			return problem(o, "keep 3 of your battle cards: KEEP <card>, <card>, <card> (13.6a)", "")
		}
		return m.keep(side, o)
	case StepDeclare:
		if o.Verb != "BATTLEFIELD" {
			return problem(o, "declare your battlefield: BATTLEFIELD DEFENSIVE, NEUTRAL or OFFENSIVE, with FORCED MARCH if your army made one (13.7b, 13.8d)", "BATTLEFIELD NEUTRAL")
		}
		if p := one(os); p != nil {
			return p
		}
		return m.declare(side, o)
	case StepList:
		if o.Verb != "LIST" {
			return problem(o, "choose whose terrain list is used: LIST MINE, LIST <opponent> or LIST TYPICAL (13.10c)", "LIST TYPICAL")
		}
		return m.list(side, o)
	case StepLinear:
		if p := one(os); p != nil {
			return p
		}
		return m.linear(side, o)
	case StepBridges:
		return m.bridges(side, os)
	case StepNormal:
		if len(os) == 2 && st.Scn.Option("half-pieces") == "together" {
			return m.halves(side, os)
		}
		if p := one(os); p != nil {
			return p
		}
		return m.normal(side, o)
	case StepFences:
		if p := one(os); p != nil {
			return p
		}
		return m.fence(side, o)
	case StepSpecial:
		if p := one(os); p != nil {
			return p
		}
		return m.special(side, o)
	case StepSwap:
		return m.swap(side, o)
	case StepFortify:
		if p := one(os); p != nil {
			return p
		}
		return m.fortify(side, o)
	case StepTactic:
		if o.Verb != "TACTIC" {
			return problem(o, "choose your army tactic: TACTIC CAUTIOUS, NEUTRAL or AGGRESSIVE (13.12)", "TACTIC NEUTRAL")
		}
		// 13.12b: secret until the end of the battle.
		own := events.ToSide(side)
		m.SayTo(own, "TACTIC %s", o.Word)
		m.EmitTo(own, kTacticChosen, aSide.Arg(side), aTactic.Arg(o.Word))
		m.Emit(kTacticMade, aSide.Arg(side))
		m.afterTactic()
		return nil
	case StepCavalry:
		if o.Verb != "CAVALRY" {
			return problem(o, "choose your cavalry tactic: CAVALRY <tactic> (13.13)", m.example(side))
		}
		if p := one(os); p != nil {
			return p
		}
		m.Say("CAVALRY %s", o.Word)
		m.Emit(kCavalryChosen, aSide.Arg(side), aTactic.Arg(o.Word))
		if m.allCavalryChosen() {
			m.begin(StepPatrol, "", 0)
		}
		return nil
	case StepPatrol:
		return m.patrol(side, os)
	case StepActivate:
		return m.activate(side, o)
	case StepMove:
		return m.moves(side, os)
	case StepPassage:
		return m.passages(side, os)
	}
	return problem(o, "nothing to do now: "+stepWhat(st), "")
}

// actors are the sides that may act now (in setup steps both may act in
// any order where the rules let them).
func (m *sim) actors() []string { return actors(m.State) }

func actors(st *State) []string {
	var out []string
	both := func(ok func(sd *Side) bool) {
		for i := range st.Sides {
			if ok(&st.Sides[i]) {
				out = append(out, st.Sides[i].Name)
			}
		}
	}
	switch st.Step {
	case StepTable:
		both(func(sd *Side) bool { return sd.TableVote == "" })
	case StepYear:
		if st.Scn.Year == 0 {
			both(func(sd *Side) bool { return sd.YearVote == 0 })
		}
	case StepDraw:
		both(func(sd *Side) bool {
			army := st.other(sd.Name)
			if st.Scn.Option("generals-drawn-by") == "owner" {
				army = sd.Name
			}
			return !st.side(army).Drawn
		})
	case StepGenerals:
		both(func(sd *Side) bool { return !sd.Done })
	case StepCards:
		both(func(sd *Side) bool { return !sd.Kept })
	case StepDeclare:
		if st.Scn.Option("declaration") == "open" {
			for i := range st.Sides {
				if st.Sides[i].Battlefield == "" {
					return []string{st.Sides[i].Name}
				}
			}
			return nil
		}
		both(func(sd *Side) bool { return sd.Battlefield == "" })
	case StepList, StepSwap:
		out = []string{st.PlayerA}
	case StepLinear, StepNormal, StepFences, StepSpecial, StepFortify, StepBridges:
		out = []string{st.Placer}
	case StepTactic:
		both(func(sd *Side) bool { return !sd.TacticMade })
	case StepCavalry:
		both(func(sd *Side) bool { return sd.CavTactic == "" && st.Scn.Army(sd.Name).HasCavalry() })
	case StepPatrol:
		both(func(sd *Side) bool { return !sd.Done })
	case StepActivate, StepMove, StepPassage:
		out = []string{st.ToAct}
	}
	return out
}

// begin starts a step; side is who acts first, n its pool or count.
func (m *sim) begin(step, side string, n int) {
	args := []events.Arg{aStep.Arg(step)}
	if side != "" {
		args = append(args, aSide.Arg(side))
	}
	if n != 0 {
		args = append(args, aN.Arg(int64(n)))
	}
	m.Emit(kStepBegun, args...)
}

// --- 13.1 and 13.4 ---

// recommended is 13.1's table for the larger army: up to $1500 a 48" x
// 48" table, else 72" x 48" (or the smallest larger the scenario has).
func recommended(sc *ScenarioDef) string {
	big := 0
	for _, a := range sc.Armies {
		big = max(big, a.Value)
	}
	want := "48x48"
	if big > 1500 {
		want = "72x48"
	}
	if _, ok := sc.Geom(want); ok {
		return want
	}
	best := sc.Tables[0]
	for _, g := range sc.Tables {
		if big > 1500 && g.Width*g.Height > best.Width*best.Height || big <= 1500 && g.Width*g.Height < best.Width*best.Height {
			best = g
		}
	}
	return best.Size
}

func (m *sim) table(side string, o Order) []events.Problem {
	m.Say("TABLE %s", o.Word)
	m.Emit(kTableProposed, aSide.Arg(side), aSize.Arg(o.Word))
	other := m.State.side(m.State.other(side))
	if other.TableVote == "" {
		return nil
	}
	if other.TableVote == o.Word {
		m.Emit(kTableSet, aSize.Arg(o.Word), aHow.Arg("agreed"))
	} else {
		m.Emit(kTableSet, aSize.Arg(recommended(m.State.Scn)), aHow.Arg("recommended"))
	}
	m.afterTable()
	return nil
}

func (m *sim) afterTable() {
	switch {
	case m.State.Scn.Year > 0:
		m.Emit(kYearSet, aYear.Arg(int64(m.State.Scn.Year)), aHow.Arg("scenario"))
		m.begin(StepDraw, "", 0)
	default:
		m.begin(StepYear, "", 0)
	}
}

// earliest is the first year an army can be fielded in (13.4b).
func earliest(a *Army) (int, string) {
	y, who := 0, ""
	for _, u := range a.Units {
		if u.From > y {
			y, who = u.From, u.Name
		}
	}
	return y, who
}

// fieldable says why an army of the scenario cannot be fielded in year
// y (13.4b: some units only from a given year), or "" when both can:
// the year may be the players', the referee's or the scenario's.
func (sc *ScenarioDef) fieldable(y int) string {
	for i := range sc.Armies {
		if e, who := earliest(&sc.Armies[i]); y < e {
			return fmt.Sprintf("the %s army's %s can be fielded only from %d (13.4b)", sc.Armies[i].Side, who, e)
		}
	}
	return ""
}

func (m *sim) year(side string, o Order) []events.Problem {
	y := o.Ints[0]
	if y < 1861 || y > 1865 {
		return problem(o, "the American Civil War was fought from 1861 to 1865", "YEAR 1863")
	}
	if e, who := earliest(m.State.Scn.Army(side)); y < e {
		return problem(o, fmt.Sprintf("%s can be fielded only from %d (13.4b)", who, e), fmt.Sprintf("YEAR %d", e))
	}
	m.Say("YEAR %d", y)
	m.Emit(kYearProposed, aSide.Arg(side), aYear.Arg(int64(y)))
	other := m.State.side(m.State.other(side))
	if other.YearVote == 0 {
		return nil
	}
	how := "agreed"
	if other.YearVote != y {
		how = "later" // 13.4c: the later period
	}
	m.Emit(kYearSet, aYear.Arg(int64(max(y, other.YearVote))), aHow.Arg(how))
	m.begin(StepDraw, "", 0)
	return nil
}

// --- 13.5 ---

func (m *sim) afterDraw() {
	for _, sd := range m.State.Sides {
		if !sd.Drawn {
			return
		}
	}
	m.begin(StepGenerals, "", 0)
}

func (m *sim) generals(side string, os []Order) []events.Problem {
	for _, o := range os {
		st := m.State
		sd := st.side(side)
		if sd.Done {
			return problem(o, "you have confirmed your generals", "")
		}
		if sd.Redrawn != "" && o.Verb != "SWAP" && o.Verb != "DISCARD" {
			return problem(o, fmt.Sprintf("first SWAP %s for a general of the %s, or DISCARD him (13.5g)", sd.Redrawn, sd.RedrawGroup), "DISCARD")
		}
		switch o.Verb {
		case "ASSIGN":
			g := st.general(o.Name)
			if g == nil || g.Side != side || g.Formation == "" {
				return problem(o, o.Name+" is none of your generals", "")
			}
			grp := sd.group(g.Group)
			if grp == nil || !slices.Contains(grp.Formations, o.Name2) {
				var fs []string
				if grp != nil {
					fs = grp.Formations
				}
				return problem(o, fmt.Sprintf("%s may command only what his level and branch allow (13.5h): %s", g.Name, listWords(fs)), "")
			}
			m.Say("ASSIGN %s TO %s", g.Name, o.Name2)
			m.Emit(kGeneralAssigned, aSide.Arg(side), aGeneral.Arg(g.Name), aFormation.Arg(o.Name2))
		case "REDRAW":
			if sd.Redraws <= 0 {
				return problem(o, "your army may redraw no general (13.5g: only some armies or cards allow it)", "DONE")
			}
			grp := sd.group(o.Name)
			if len(grp.SetAside) == 0 {
				return problem(o, "no general of the "+grp.Name+" is left to draw", "")
			}
			hand, _ := engine.Deal(m.Dice, "redraw "+side+"'s "+grp.Name, grp.SetAside, 1)
			m.Say("REDRAW %s", grp.Name)
			m.Emit(kGeneralRedrawn, aSide.Arg(side), aGroup.Arg(grp.Name), aGeneral.Arg(hand[0]))
		case "SWAP":
			if sd.Redrawn == "" {
				return problem(o, "SWAP comes after a REDRAW (13.5g)", "")
			}
			g := st.general(o.Name)
			if g == nil || g.Side != side || g.Group != sd.RedrawGroup || g.Formation == "" {
				return problem(o, fmt.Sprintf("%s may replace only a general drawn among the %s (13.5g)", sd.Redrawn, sd.RedrawGroup), "")
			}
			m.Say("SWAP %s FOR %s", sd.Redrawn, g.Name)
			m.Emit(kGeneralSwapped, aSide.Arg(side), aGeneral.Arg(sd.Redrawn), aOld.Arg(g.Name))
		case "DISCARD":
			if sd.Redrawn == "" {
				return problem(o, "DISCARD comes after a REDRAW (13.5g)", "")
			}
			m.Say("DISCARD %s", sd.Redrawn)
			m.Emit(kGeneralDiscarded, aSide.Arg(side), aGeneral.Arg(sd.Redrawn))
		case "DONE":
			m.Say("DONE")
			m.Emit(kGeneralsDone, aSide.Arg(side))
		default:
			return problem(o, "send ASSIGN <general> TO <formation>, REDRAW <group>, SWAP <general>, DISCARD or DONE (13.5g-h)", "DONE")
		}
	}
	if m.State.Step == StepGenerals && len(actors(m.State)) == 0 {
		m.dealCards()
	}
	return nil
}

// --- 13.6 ---

// dealCards draws each side 5 battle cards (13.6a), each side's draw with
// dice only that side sees: the cards are its own.
func (m *sim) dealCards() {
	for _, sd := range m.State.Sides {
		m.drawCards(sd.Name, 5, "choice", "13.6a")
	}
	m.begin(StepCards, "", 0)
}

// drawCards draws n cards from a side's deck into its hand or its
// choice; only the side sees which (and so do the dice).
func (m *sim) drawCards(side string, n int, into, rule string) {
	sd := m.State.side(side)
	own := events.ToSide(side)
	n = min(n, len(sd.Deck))
	if n == 0 {
		m.Emit(kCardsDealt, aSide.Arg(side), aN.Arg(0), aInto.Arg(into), aRule.Arg(rule))
		return
	}
	hand, _ := engine.Deal(m.Dice.As(own), "draw "+side+"'s battle cards", sd.Deck, n)
	m.EmitTo(own, kCardsDrawn, aSide.Arg(side), aCards.Arg(hand...), aInto.Arg(into))
	m.Emit(kCardsDealt, aSide.Arg(side), aN.Arg(int64(n)), aInto.Arg(into), aRule.Arg(rule))
}

func (m *sim) keep(side string, o Order) []events.Problem {
	sd := m.State.side(side)
	var kept []string
	for _, n := range o.Names {
		if k, err := strconv.Atoi(n); err == nil && k >= 1 && k <= len(sd.Drawn5) {
			n = sd.Drawn5[k-1] // by its number on the board
		}
		c, amb := lookup(n, sd.Drawn5)
		if c == "" {
			hint := "one of " + strings.Join(sd.Drawn5, "; ")
			if len(amb) > 1 {
				hint = "one of " + strings.Join(amb, "; ")
			}
			return problem(o, fmt.Sprintf("you drew no card %q", n), hint)
		}
		if slices.Contains(kept, c) {
			return problem(o, c+" is named twice", "")
		}
		kept = append(kept, c)
	}
	if len(kept) != 3 {
		return problem(o, fmt.Sprintf("keep exactly 3 of your %d cards (13.6a)", len(sd.Drawn5)), "")
	}
	var back []string
	for _, c := range sd.Drawn5 {
		if !slices.Contains(kept, c) {
			back = append(back, c)
		}
	}
	own := events.ToSide(side)
	// 13.6a: the other cards go back into the deck, shuffled: only their
	// owner knows them. (The deck's order is drawn anew at each draw.)
	m.SayTo(own, "KEEP %s", strings.Join(kept, ", "))
	m.EmitTo(own, kCardsKept, aSide.Arg(side), aKept.Arg(kept...), aReturned.Arg(back...))
	m.Emit(kHandKept, aSide.Arg(side), aN.Arg(int64(len(kept))), aReturnedInt.Arg(int64(len(back))))
	if len(actors(m.State)) == 0 {
		if m.State.PlayerA != "" {
			m.beginList(m.State.PlayerA) // the Neutral battlefield's card (G7, keep-3)
		} else {
			m.beginDeclare()
		}
	}
	return nil
}

// --- 13.7, 13.8 ---

func (m *sim) beginDeclare() { m.begin(StepDeclare, "", 0) }

// bonusDice is 13.8b's table: additional dice on the first initiative
// roll by the battlefield declared and the commander-in-chief's
// character.
var bonusDice = map[string]map[string]int{
	Defensive: {Cautious: 2, Neutral: 1, Aggressive: 0},
	Neutral:   {Cautious: 1, Neutral: 2, Aggressive: 1},
	Offensive: {Cautious: 0, Neutral: 1, Aggressive: 1},
}

// forcedDice is what a forced march adds (13.8d).
const forcedDice = 4

func (m *sim) declare(side string, o Order) []events.Problem {
	forced := slices.Contains(o.Flags, "forced")
	echo := "BATTLEFIELD " + strings.ToUpper(o.Word)
	if forced {
		echo += " FORCED MARCH"
	}
	m.Say("%s", echo)
	m.Emit(kBattlefieldDeclared, aSide.Arg(side), aField.Arg(o.Word), aForced.Arg(forced))
	if forced {
		// 13.8d: the army starts the battle with morale one level lower.
		lv := m.State.Scn.Morale
		i := slices.Index(lv, m.State.side(side).Morale)
		m.Emit(kMoraleSet, aSide.Arg(side), aLevel.Arg(lv[min(i+1, len(lv)-1)]), aWhy.Arg("forced march (13.8d)"))
	}
	if len(actors(m.State)) == 0 {
		m.battlefieldRoll()
	}
	return nil
}

// rollInitiative throws each side's dice for the initiative (R1: the
// scenario's die, dice and success number) with extra dice per side, and
// returns the winner ("" on a tie).
func (m *sim) rollInitiative(extra func(side string) (bonus, forced int), purpose string) string {
	st := m.State
	best, winner, tie := -1, "", false
	for _, sd := range st.Sides {
		b, f := extra(sd.Name)
		n := st.Scn.InitDice + b + f
		succ := 0
		for range n {
			if m.Dice.Roll(purpose+" ("+sd.Name+")", st.Scn.Die) >= st.Scn.InitSuccess {
				succ++
			}
		}
		m.Emit(kInitiativeRolled, aSide.Arg(sd.Name), aDice.Arg(int64(n)), aSuccesses.Arg(int64(succ)),
			aBonus.Arg(int64(b)), aForcedInt.Arg(int64(f)))
		switch {
		case succ > best:
			best, winner, tie = succ, sd.Name, false
		case succ == best:
			tie = true
		}
	}
	if tie {
		return ""
	}
	return winner
}

// maxRerolls bounds a run of tied initiative rolls: then the referee
// says who wins (R1).
const maxRerolls = 20

// battlefieldRoll is 13.8: the first initiative roll, with 13.8b's
// bonus dice and 13.8d's forced march; its winner is Player A and wins
// the battlefield (13.7c).
func (m *sim) battlefieldRoll() {
	st := m.State
	extra := func(side string) (int, int) {
		sd := st.side(side)
		f := 0
		if sd.Forced {
			f = forcedDice
		}
		return bonusDice[sd.Battlefield][st.character(side, st.cic(side))], f
	}
	for range maxRerolls {
		if w := m.rollInitiative(extra, "battlefield roll"); w != "" {
			m.wonBattlefield(w)
			return
		}
		m.Emit(kInitiativeTied, aRoll.Arg("battlefield"))
		if st.Scn.InitTies == "referee" {
			break
		}
	}
	m.begin(StepInitiative, "", 0)
}

func (m *sim) wonBattlefield(w string) {
	m.Emit(kInitiativeWon, aSide.Arg(w), aBattlefield.Arg(m.State.side(w).Battlefield))
	if st := m.State; st.Battlefield == Neutral {
		// 13.7f: one more battle card (G7: straight into the hand).
		if st.Scn.Option("neutral-card") == "keep-3" {
			m.drawCards(w, 1, "choice", "13.7f")
			m.begin(StepCards, w, 0)
			return
		}
		m.drawCards(w, 1, "hand", "13.7f")
	}
	m.beginList(w)
}

// --- 13.9, 13.10 ---

func (m *sim) list(side string, o Order) []events.Problem {
	st := m.State
	if _, ok := st.Scn.List(o.Word); !ok {
		return problem(o, "the scenario has no terrain list "+o.Word, "LIST TYPICAL")
	}
	m.Say("LIST %s", o.Word)
	m.Emit(kListChosen, aSide.Arg(side), aList.Arg(o.Word))
	g := st.geom()
	m.Emit(kPointsPlaced, aAt.Arg(polyInts(g.Points)...)) // 13.9b
	m.beginLinear()
	return nil
}

// linearLeft is how many pieces of a linear kind may still be placed
// (13.10h; 13.10n: a list may forbid one).
func (s *State) linearLeft(kind string) int {
	l, _ := s.Scn.List(s.List)
	if slices.Contains(l.No, kind) {
		return 0
	}
	return max(0, s.Scn.LinearLimits[kind]-s.count(kind))
}

func (m *sim) beginLinear() {
	n := 0
	for _, k := range []string{River, Stream, Road, Railway} {
		n += m.State.linearLeft(k)
	}
	m.begin(StepLinear, m.State.playerB(), n) // 13.10g: Player B first
}

func (m *sim) linear(side string, o Order) []events.Problem {
	st := m.State
	if o.Verb == "PASS" {
		both := st.Passed == st.other(side)
		m.Say("PASS")
		m.Emit(kTerrainPassed, aSide.Arg(side))
		m.nextLinear(side, both)
		return nil
	}
	kind := strings.ToLower(o.Verb)
	if !slices.Contains([]string{River, Stream, Road, Railway}, kind) {
		return problem(o, "linear terrain comes first: RIVER, STREAM, ROAD, RAILWAY or PASS (13.10h)", m.example(side))
	}
	if st.linearLeft(kind) == 0 {
		l, _ := st.Scn.List(st.List)
		if slices.Contains(l.No, kind) {
			return problem(o, fmt.Sprintf("the %s terrain list forbids a %s (13.10n)", st.List, kind), "PASS")
		}
		return problem(o, fmt.Sprintf("at most %s (13.10h)", plural(st.Scn.LinearLimits[kind], kind, kind+"s")), "PASS")
	}
	if p := m.layLine(side, kind, o); p != nil {
		return p
	}
	if kind == River {
		m.begin(StepBridges, st.other(side), bridgesDue(table.Polyline(o.Pts).Len()))
		return nil
	}
	m.nextLinear(side, false)
	return nil
}

// layLine checks and places a river, stream, road or railway (13.10h,
// 13.10i, 13.10q, 13.7e) with the bridges its crossings make: a side's
// by mail, or a layout's (side LayoutBy, 13.10a).
func (m *sim) layLine(side, kind string, o Order) []events.Problem {
	st := m.State
	var path table.Polyline
	switch kind {
	case River, Stream:
		path = table.Polyline(o.Pts)
		if why := st.waterLine(side, kind, o.Pts); why != "" {
			return problem(o, why, m.example(side))
		}
	default:
		p, why := st.roadPath(o.Ways)
		if why != "" {
			return problem(o, why, m.example(side))
		}
		if st.duplicate(kind, p) {
			return problem(o, fmt.Sprintf("a %s runs there already", kind), m.example(side))
		}
		path = p
	}
	// 13.10q: a road or railway across a river or stream makes a bridge
	// (or uses one it goes through); so does a river laid across a road.
	id := st.nextID(kind)
	var made []Bridge
	if kind == Road || kind == Railway {
		bs, why := st.crossings(path)
		if why != "" {
			return problem(o, why, m.example(side))
		}
		made = bs
	} else {
		w := Piece{ID: id, Kind: kind, Path: path}
		for _, r := range st.Pieces {
			if r.Kind == Road || r.Kind == Railway {
				bs, why := crossingsOf(r.Path, w, append(slices.Clone(st.Bridges), made...))
				if why != "" {
					return problem(o, strings.Replace(why, "it would cross", r.ID+" would cross", 1), m.example(side))
				}
				made = append(made, bs...)
			}
		}
	}
	m.Say("%s", strings.TrimSpace(o.Verb+" "+strings.Join(o.Flags, " ")+" "+fmtPath(path)))
	m.Emit(kTerrainPlaced, aId.Arg(id), aKind.Arg(kind), aBy.Arg(side), aPath.Arg(polyInts(path)...), aFlags.Arg(o.Flags...))
	for _, b := range made {
		m.bridge(b, "")
	}
	return nil
}

func fmtPath(pl table.Polyline) string {
	var ps []string
	for _, p := range pl {
		ps = append(ps, fmtPt(p))
	}
	return strings.Join(ps, " ")
}

func (m *sim) bridge(b Bridge, by string) {
	id := m.State.nextBridge()
	args := []events.Arg{aId.Arg(id), aX.Arg(int64(b.At.X)), aY.Arg(int64(b.At.Y)), aOver.Arg(b.Over)}
	if by != "" {
		args = append(args, aBy.Arg(by))
	}
	m.Emit(kBridgePlaced, args...)
}

func (s *State) nextBridge() string { return fmt.Sprintf("bridge %d", len(s.Bridges)+1) }

// nextLinear passes the turn after a placement or a pass (13.10g, 13.10j,
// G10): the phase ends when the pool is empty or both have passed in a
// row (bothPassed).
func (m *sim) nextLinear(side string, bothPassed bool) {
	st := m.State
	left := 0
	for _, k := range []string{River, Stream, Road, Railway} {
		left += st.linearLeft(k)
	}
	if bothPassed || st.Pool <= 0 || left == 0 {
		m.beginNormal()
		return
	}
	m.Emit(kTurnPassed, aStep.Arg(StepLinear), aSide.Arg(st.other(side)))
}

func (m *sim) bridges(side string, os []Order) []events.Problem {
	st := m.State
	var have []Bridge
	for _, o := range os {
		if o.Verb != "BRIDGE" {
			return problem(o, fmt.Sprintf("place %s on the river first: BRIDGE x,y, one a line (13.10q)", plural(st.BridgesDue, "bridge", "bridges")), m.example(side))
		}
		for _, pt := range o.Pts {
			at, why := st.checkBridge(pt, have)
			if why != "" {
				return problem(o, why, m.example(side))
			}
			have = append(have, Bridge{At: at, Over: "river 1"})
		}
	}
	if len(have) != st.BridgesDue {
		return problem(os[0], fmt.Sprintf("the river needs %s from you: one for every full 24\" of its length, at least one (13.10q)", plural(st.BridgesDue, "bridge", "bridges")), m.example(side))
	}
	var river string
	for _, p := range st.Pieces {
		if p.Kind == River {
			river = p.ID
		}
	}
	for _, b := range have {
		b.Over = river
		m.Say("BRIDGE %s", fmtPt(b.At))
		m.bridge(b, side)
	}
	// The linear phase goes on with the player after the river's.
	m.begin(StepLinear, st.RiverBy, m.State.Pool)
	m.nextLinear(st.RiverBy, false)
	return nil
}

// terrainAmount adjusts a list by 13.10e: four pieces fewer or more,
// proportionally (one of each of the four most numerous kinds).
func terrainAmount(l TerrainList, how string) []ListEntry {
	out := slices.Clone(l.Pieces)
	if how == "normal" {
		return out
	}
	idx := make([]int, len(out))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return out[b].Count - out[a].Count })
	for _, i := range idx[:min(4, len(idx))] {
		if how == "fewer" {
			out[i].Count = max(0, out[i].Count-1)
		} else {
			out[i].Count++
		}
	}
	return out
}

func (m *sim) beginNormal() { m.begin(StepNormal, m.State.playerB(), 0) } // 13.10k: Player B first

func (m *sim) normal(side string, o Order) []events.Problem {
	st := m.State
	if o.Verb == "PASS" {
		if ex := m.placeExample(side); ex != "" {
			return problem(o, "normal terrain is placed until the list is done; passing is only for linear terrain, fences and walls (13.10j)", ex)
		}
		m.Say("PASS")
		m.Emit(kTerrainPassed, aSide.Arg(side))
		m.afterNormal() // no piece of the list fits anywhere: the rest is left out
		return nil
	}
	if o.Verb != "PLACE" {
		return problem(o, "place normal terrain: PLACE <kind> WxD AT x,y [TURN degrees] (13.10k)", m.placeExample(side))
	}
	pc, why := st.checkNormal(side, o)
	if why != "" {
		return problem(o, why, m.placeExample(side))
	}
	m.placePiece(pc, o)
	if st := m.State; len(st.Left) == 0 || slices.IndexFunc(st.Left, func(e ListEntry) bool { return e.Count > 0 }) < 0 {
		m.afterNormal()
		return nil
	}
	m.Emit(kTurnPassed, aStep.Arg(StepNormal), aSide.Arg(m.State.other(side)))
	return nil
}

// halves places two half pieces in one turn, instead of one normal
// piece (13.10f; option half-pieces apart: a turn each).
func (m *sim) halves(side string, os []Order) []events.Problem {
	for _, o := range os {
		if o.Verb != "PLACE" {
			return problem(o, "two pieces go down in one turn only as two half pieces: PLACE <kind> 2x2 AT x,y on each of two lines (13.10f)", m.placeExample(side))
		}
		pc, why := m.State.checkNormal(side, o)
		if why == "" && !pc.Half {
			why = "two pieces go down in one turn only when both are half pieces, no larger than 2\" x 2\" (13.10f)"
		}
		if why != "" {
			return problem(o, why, m.placeExample(side))
		}
		m.placePiece(pc, o)
	}
	if st := m.State; slices.IndexFunc(st.Left, func(e ListEntry) bool { return e.Count > 0 }) < 0 {
		m.afterNormal()
		return nil
	}
	m.Emit(kTurnPassed, aStep.Arg(StepNormal), aSide.Arg(m.State.other(side)))
	return nil
}

func (m *sim) placePiece(pc Piece, o Order) {
	m.Say("PLACE %s %s", pc.Kind, shapeWords(o))
	args := []events.Arg{aId.Arg(pc.ID), aKind.Arg(pc.Kind), aBy.Arg(pc.By), aPoly.Arg(polyInts(pc.Poly)...)}
	if pc.Half {
		args = append(args, aHalf.Arg(true))
	}
	if len(pc.Flags) > 0 {
		args = append(args, aFlags.Arg(pc.Flags...))
	}
	m.Emit(kTerrainPlaced, args...)
}

func shapeWords(o Order) string {
	if o.W > 0 {
		s := fmt.Sprintf("%sx%s AT %s", strings.TrimSuffix(o.W.Format(table.Inches), "in"), strings.TrimSuffix(o.D.Format(table.Inches), "in"), fmtPt(o.Pts[0]))
		if o.Angle != 0 {
			s += " TURN " + strings.TrimSuffix(o.Angle.String(), "°")
		}
		return s
	}
	return fmtPath(o.Pts)
}

// afterNormal goes on to fences and walls and special terrain in G16's
// order.
func (m *sim) afterNormal() {
	if m.State.Scn.Option("fences-order") == "after-special" {
		m.beginSpecial()
		return
	}
	m.beginFences()
}

// fenceable reports whether a side has a road, railway or field to put
// a fence or wall along (13.10p).
func (s *State) fenceable(side string) bool {
	for _, p := range s.Pieces {
		if p.By != side {
			continue
		}
		if p.Kind == Rough || (p.Kind == Road || p.Kind == Railway) && !slices.Contains(p.Flags, "sunken") && !slices.Contains(p.Flags, "embankment") {
			return true
		}
	}
	return false
}

func (m *sim) beginFences() {
	st := m.State
	if st.Scn.Fences == 0 || !st.fenceable(st.PlayerA) && !st.fenceable(st.playerB()) {
		m.afterFences()
		return
	}
	first := st.playerB()
	if !st.fenceable(first) {
		first = st.PlayerA
	}
	m.begin(StepFences, first, st.Scn.Fences)
}

func (m *sim) afterFences() {
	if m.State.Scn.Option("fences-order") == "after-special" {
		m.beginFortify()
		return
	}
	m.beginSpecial()
}

func (m *sim) fence(side string, o Order) []events.Problem {
	st := m.State
	if o.Verb == "PASS" {
		both := st.Passed == st.other(side)
		m.Say("PASS")
		m.Emit(kTerrainPassed, aSide.Arg(side))
		m.nextFence(side, true, both)
		return nil
	}
	if o.Verb != "FENCE" && o.Verb != "WALL" {
		return problem(o, "fences and walls now: FENCE ALONG <road or field> or WALL ALONG …, or PASS (13.10p)", m.example(side))
	}
	pc, why := st.fenceAlong(side, o)
	if why == "" && (st.duplicate(Fence, pc.Path) || st.duplicate(Wall, pc.Path)) {
		why = "a fence or wall runs there already"
	}
	if why != "" {
		return problem(o, why, m.example(side))
	}
	m.Say("%s ALONG %s", o.Verb, o.Name)
	m.Emit(kTerrainPlaced, aId.Arg(pc.ID), aKind.Arg(pc.Kind), aBy.Arg(side), aPath.Arg(polyInts(pc.Path)...), aAlong.Arg(o.Name))
	m.nextFence(side, false, false)
	return nil
}

func (m *sim) nextFence(side string, passed, bothPassed bool) {
	st := m.State
	other := st.other(side)
	if bothPassed || st.Pool <= 0 {
		m.afterFences()
		return
	}
	if !st.fenceable(other) {
		other = side // the other has nothing to put a fence along
		if passed {
			m.afterFences()
			return
		}
	}
	m.Emit(kTurnPassed, aStep.Arg(StepFences), aSide.Arg(other))
}

// grants is what a side may still do in 13.10l.
func (s *State) grants(side string) []string {
	a := s.Scn.Army(side)
	var used []string
	for _, p := range s.Pieces {
		if slices.Contains(p.Flags, "special") && p.By == side {
			used = append(used, p.Kind)
		}
		if p.MovedBy == side {
			used = append(used, "move")
		}
	}
	var out []string
	for _, g := range a.Special {
		if i := slices.Index(used, g); i >= 0 {
			used = slices.Delete(used, i, i+1)
			continue
		}
		out = append(out, g)
	}
	return out
}

// beginSpecial starts 13.10r's changes: the initiative player (Player
// A) makes all of his first, his traits' terrain (13.10l) and then the
// Offensive battlefield's swap (13.7f), and only then his opponent makes
// his; no one-action alternation (13.10l says only "starting with
// Player A").
func (m *sim) beginSpecial() { m.specialFor(m.State.PlayerA) }

// specialFor begins a side's special terrain, or goes past it when its
// army's traits grant nothing.
func (m *sim) specialFor(side string) {
	if len(m.State.grants(side)) == 0 {
		m.specialDone(side)
		return
	}
	m.begin(StepSpecial, side, 0)
}

// specialDone follows a side's special terrain: after Player A's, his
// Offensive swap (13.7f) and then Player B's special terrain; after
// Player B's, the rest of the setup.
func (m *sim) specialDone(side string) {
	st := m.State
	if side != st.PlayerA {
		m.afterSpecial()
		return
	}
	if st.Battlefield == Offensive {
		m.begin(StepSwap, st.PlayerA, 0) // 13.7f, 13.10r: the initiative's change
		return
	}
	m.specialFor(st.playerB())
}

func (m *sim) afterSpecial() {
	if m.State.Scn.Option("fences-order") == "after-special" {
		m.beginFences()
		return
	}
	m.beginFortify()
}

func (m *sim) special(side string, o Order) []events.Problem {
	st := m.State
	gs := st.grants(side)
	switch o.Verb {
	case "DONE":
		m.Say("DONE")
		m.Emit(kSpecialDone, aSide.Arg(side))
	case "PLACE":
		if !slices.Contains(gs, o.Word) {
			return problem(o, fmt.Sprintf("your army's traits give no %s to place (13.10l); yours: %s", o.Word, listWords(gs)), "DONE")
		}
		pg := piecePoly(o)
		if _, why := st.checkSize(o, pg); why != "" {
			return problem(o, why, "")
		}
		if why := st.checkArea(o.Word, pg); why != "" {
			return problem(o, why, "")
		}
		if table.OverlapConvex(pg, st.zone(st.other(side))) {
			return problem(o, "terrain may not be placed in the opponent's deployment zone (13.10k)", "")
		}
		m.placePiece(Piece{ID: st.nextID(o.Word), Kind: o.Word, By: side, Poly: pg, Flags: []string{"special"}}, o)
	case "MOVE":
		if !slices.Contains(gs, "move") {
			return problem(o, fmt.Sprintf("your army's traits let you move no terrain (13.10l); yours: %s", listWords(gs)), "DONE")
		}
		p := st.piece(o.Name)
		v, why := st.checkMoveTerrain(side, p, o.Pts[0])
		if why != "" {
			return problem(o, why, "")
		}
		m.Say("MOVE %s TO %s", p.ID, fmtPt(o.Pts[0]))
		m.Emit(kTerrainMoved, aId.Arg(p.ID), aDx.Arg(int64(v.X)), aDy.Arg(int64(v.Y)), aBy.Arg(side))
	default:
		return problem(o, "special terrain (13.10l): PLACE <kind> …, MOVE <piece> TO x,y, or DONE", "DONE")
	}
	// 13.10r: a side makes all its changes before the other makes any.
	if st = m.State; len(st.grants(side)) > 0 && !st.side(side).Done {
		return nil
	}
	m.specialDone(side)
	return nil
}

func (m *sim) swap(side string, o Order) []events.Problem {
	st := m.State
	switch o.Verb {
	case "NO":
		m.Say("NO SWAP")
	case "SWAP":
		a, b := st.piece(o.Name), st.piece(o.Name2)
		if why := st.checkSwap(side, a, b); why != "" {
			return problem(o, why, "NO SWAP")
		}
		m.Say("SWAP %s WITH %s", a.ID, b.ID)
		m.Emit(kTerrainSwapped, aA.Arg(a.ID), aB.Arg(b.ID), aBy.Arg(side))
	default:
		return problem(o, "the Offensive battlefield lets you swap two pieces: SWAP <piece> WITH <piece>, or NO SWAP (13.7f)", "NO SWAP")
	}
	m.specialFor(m.State.playerB()) // 13.10r: then the opponent's changes
	return nil
}

// forts is how many sections a side places (13.10m; 13.7f: one free
// section for the Defensive battlefield).
func (s *State) fortsOf(side string) int { return s.side(side).Forts }

func (m *sim) beginFortify() {
	st := m.State
	if st.Battlefield == Defensive {
		m.Emit(kFortsGranted, aSide.Arg(st.PlayerA), aN.Arg(1))
	}
	st = m.State
	first := st.PlayerA // 13.10r: the initiative first
	switch {
	case st.fortsOf(first) > 0:
	case st.fortsOf(st.playerB()) > 0:
		first = st.playerB()
	default:
		m.afterTerrain()
		return
	}
	m.begin(StepFortify, first, 0)
}

func (m *sim) fortify(side string, o Order) []events.Problem {
	st := m.State
	switch o.Verb {
	case "DONE":
		m.Say("DONE")
		m.Emit(kFortsDone, aSide.Arg(side))
	case "FORTIFY":
		if why := st.checkFort(side, o.Pts[0], o.Pts[1]); why != "" {
			return problem(o, why, m.example(side))
		}
		m.Say("FORTIFY %s %s", fmtPt(o.Pts[0]), fmtPt(o.Pts[1]))
		m.Emit(kTerrainPlaced, aId.Arg(st.nextID(Fortification)), aKind.Arg(Fortification), aBy.Arg(side), aPath.Arg(polyInts(o.Pts)...))
	default:
		return problem(o, "field fortifications (13.10m): FORTIFY x,y x,y, or DONE", m.example(side))
	}
	st = m.State
	other := st.other(side)
	switch {
	case st.fortsOf(other) > 0:
		m.Emit(kTurnPassed, aStep.Arg(StepFortify), aSide.Arg(other))
	case st.fortsOf(side) > 0:
		m.Emit(kTurnPassed, aStep.Arg(StepFortify), aSide.Arg(side))
	default:
		m.afterTerrain()
	}
	return nil
}

// afterTerrain places the operational bases (13.11) and goes on to the
// army tactics (13.12).
func (m *sim) afterTerrain() {
	st := m.State
	size := table.CM(6)
	if st.Scn.Option("operational-base") == "6in" {
		size = table.Inch(6)
	}
	for _, sd := range st.Sides {
		c := st.baseAt("B")
		y0, y1 := table.Length(0), size
		if sd.Name == st.PlayerA {
			c = st.baseAt("A")
			y0, y1 = st.H-size, st.H
		}
		m.Emit(kBasePlaced, aSide.Arg(sd.Name), aPoly.Arg(polyInts(rectPoly(c.X-size/2, y0, c.X+size/2, y1))...))
	}
	m.begin(StepTactic, "", 0)
}

// --- 13.12 - 13.14 ---

func (m *sim) afterTactic() {
	st := m.State
	if len(actors(st)) > 0 {
		return
	}
	if st.Scn.on("cavalry-tactics") && (st.Scn.Army(st.Sides[0].Name).HasCavalry() || st.Scn.Army(st.Sides[1].Name).HasCavalry()) {
		m.begin(StepCavalry, "", 0)
		return
	}
	m.begin(StepPatrol, "", 0)
}

func (m *sim) allCavalryChosen() bool { return len(actors(m.State)) == 0 }

// patrolZone is the band a side's marker for a corps may stand in: its
// deployment zone (13.14b), deeper by the cavalry tactic's reach for a
// cavalry corps (R21).
func (s *State) patrolZone(side, corps string) (lo, hi table.Length) {
	extra := table.Length(0)
	if f, _ := s.Scn.Army(side).Formation(corps); f.Cavalry() {
		for _, t := range s.Scn.CavTactics {
			if t.Name == s.side(side).CavTactic {
				extra = t.Patrol
			}
		}
	}
	return s.zoneBand(side, extra)
}

// deployment is where a corps' units stand at its marker (6.1 is not in
// the seeds: in a line, side by side 1" apart, centred on the marker,
// facing the enemy's table edge).
func (s *State) deployment(side, corps string, at table.Point) []Unit {
	facing := table.Angle(0)
	if side == s.PlayerA {
		facing = 180 * table.Degree
	}
	var us []Unit
	var width table.Length
	for _, u := range s.Units {
		if u.Side == side && u.Corps == corps && !u.Removed {
			if len(us) > 0 {
				width += table.Inch(1)
			}
			width += s.Scn.UnitType(u.Type).Width
			us = append(us, u)
		}
	}
	x := at.X - width/2
	for i := range us {
		t := s.Scn.UnitType(us[i].Type)
		us[i].Front = table.Pt(x+t.Width/2, at.Y)
		us[i].Facing = facing
		us[i].Placed = true
		x += t.Width + table.Inch(1)
	}
	return us
}

func (m *sim) patrol(side string, os []Order) []events.Problem {
	st := m.State
	groups := st.Scn.Army(side).Groups()
	seen := map[string]bool{}
	var placed []Unit
	type mark struct {
		corps string
		at    table.Point
	}
	var marks []mark
	for _, o := range os {
		if o.Verb != "PATROL" {
			return problem(o, "place a patrol marker for each corps: PATROL <corps> AT x,y (13.14)", m.example(side))
		}
		for i, corps := range o.Names {
			at := o.Pts[i]
			if seen[corps] {
				return problem(o, corps+" has a marker already", "")
			}
			seen[corps] = true
			lo, hi := st.patrolZone(side, corps)
			if at.Y < lo || at.Y > hi || at.X < 0 || at.X > st.W {
				return problem(o, fmt.Sprintf("%s's marker goes in your patrol zone: y from %s to %s (13.14b)", corps, inch(lo), inch(hi)), m.example(side))
			}
			us := st.deployment(side, corps, at)
			for _, u := range us {
				r := st.rect(&u)
				if why := st.standing(&u, r); why != "" {
					return problem(o, fmt.Sprintf("deployed at %s's marker, %s: %s", corps, u.Name, why), m.example(side))
				}
				for _, q := range placed {
					if table.Overlap(r, st.rect(&q)) {
						return problem(o, fmt.Sprintf("%s would stand on %s", u.Name, q.Name), m.example(side))
					}
				}
			}
			placed = append(placed, us...)
			marks = append(marks, mark{corps, at})
		}
	}
	for _, g := range groups {
		if !seen[g] && st.hasAny(side, g) {
			return problem(os[len(os)-1], "every corps gets a patrol marker: "+g+" has none (13.14a)", m.example(side))
		}
	}
	for _, k := range marks {
		m.Say("PATROL %s AT %s", k.corps, fmtPt(k.at))
		m.Emit(kMarkerPlaced, aSide.Arg(side), aCorps.Arg(k.corps), aX.Arg(int64(k.at.X)), aY.Arg(int64(k.at.Y)))
	}
	for _, u := range placed {
		m.Emit(kUnitPlaced, aUnit.Arg(u.Name), aX.Arg(int64(u.Front.X)), aY.Arg(int64(u.Front.Y)), aFacing.Arg(int64(u.Facing)))
	}
	m.Emit(kPatrolDone, aSide.Arg(side))
	if len(actors(m.State)) == 0 {
		m.beginTurn(1) // 13.14c: the game begins
	}
	return nil
}

// hasAny reports whether a corps has units not removed (placed or not).
func (s *State) hasAny(side, corps string) bool {
	return slices.ContainsFunc(s.Units, func(u Unit) bool { return u.Side == side && u.Corps == corps && !u.Removed })
}

// --- turns (R6, R24: the sample's sequence of play) ---

func (m *sim) beginTurn(t int) {
	st := m.State
	m.Emit(kTurnBegun, aTurn.Arg(int64(t)))
	if t >= 2 {
		// 13.6b: from turn 2, before the initiative roll, one new card.
		for _, sd := range st.Sides {
			m.drawCards(sd.Name, 1, "hand", "13.6b")
		}
	}
	if t == 1 && st.Scn.Option("first-initiative") == "battlefield-roll" {
		// G8: the battlefield roll was also turn 1's initiative roll.
		m.Emit(kInitiativeWon, aSide.Arg(st.PlayerA))
	} else {
		w := ""
		for range maxRerolls {
			if w = m.rollInitiative(func(string) (int, int) { return 0, 0 }, fmt.Sprintf("initiative, turn %d", t)); w != "" {
				break
			}
			m.Emit(kInitiativeTied, aRoll.Arg("turn"))
			if st.Scn.InitTies == "referee" {
				break
			}
		}
		if w == "" {
			m.begin(StepInitiative, "", 0)
			return
		}
		m.Emit(kInitiativeWon, aSide.Arg(w))
	}
	m.begin(StepActivate, m.State.Initiative, 0)
}

// corpsLeft are a side's corps not yet activated this turn.
func (s *State) corpsLeft(side string) []string {
	var out []string
	for _, g := range s.Scn.Army(side).Groups() {
		if !slices.Contains(s.Activated, side+"/"+g) && !slices.Contains(s.Inactive, g) && s.hasUnits(side, g) {
			out = append(out, g)
		}
	}
	return out
}

func (s *State) hasUnits(side, corps string) bool {
	return slices.ContainsFunc(s.Units, func(u Unit) bool { return u.Side == side && u.Corps == corps && u.Placed && !u.Removed })
}

func (m *sim) activate(side string, o Order) []events.Problem {
	st := m.State
	left := st.corpsLeft(side)
	switch o.Verb {
	case "PASS":
		m.Say("PASS")
		m.Emit(kCorpsSkipped, aSide.Arg(side), aCorpsStrs.Arg(left...))
		m.nextActivation(side)
		return nil
	case "ACTIVATE":
	case "PASSAGE":
		return problem(o, "passages of lines come in the reorganization phase, once every corps has been activated (7.6a); now ACTIVATE <corps> or PASS", m.example(side))
	default:
		return problem(o, "activate a corps: ACTIVATE <corps>, or PASS to activate no more this turn (R6)", m.example(side))
	}
	if !slices.Contains(left, o.Name) {
		return problem(o, fmt.Sprintf("%s is not yours to activate now (left: %s)", o.Name, listWords(left)), m.example(side))
	}
	m.Say("ACTIVATE %s", o.Name)
	m.Emit(kCorpsActivated, aSide.Arg(side), aCorps.Arg(o.Name))
	if st.Scn.Combat == "referee" {
		m.begin(StepCombat, side, 0)
	} else {
		m.begin(StepMove, side, 0)
	}
	return nil
}

// nextActivation passes the activation to the other side if it has a
// corps left, else keeps it; with none left the turn goes on to the
// reorganization phase.
func (m *sim) nextActivation(side string) {
	st := m.State
	switch other := st.other(side); {
	case len(st.corpsLeft(other)) > 0:
		m.begin(StepActivate, other, 0)
	case len(st.corpsLeft(side)) > 0:
		m.begin(StepActivate, side, 0)
	case st.Scn.on("passage-of-lines") && st.Scn.Option("passage-order") == "initiative":
		m.begin(StepPassage, st.other(st.Initiative), 0) // 7.6a, 7.6i: the opponent declares, the initiative orders
	case st.Scn.on("passage-of-lines"):
		m.begin(StepPassage, st.Initiative, 0) // 7.6a, 7.6i (option passage-order own)
	default:
		m.endTurn()
	}
}

func (m *sim) endTurn() {
	st := m.State
	if st.Turn >= st.Scn.Turns {
		m.begin(StepEnd, "", 0)
		return
	}
	m.beginTurn(st.Turn + 1)
}

func (m *sim) moves(side string, os []Order) []events.Problem {
	st := m.State
	corps := st.Active
	moved := map[string]bool{}
	for _, o := range os {
		switch {
		case o.Verb == "DONE", o.Verb == "HOLD" && o.Name == "":
			continue
		case o.Verb == "UNIT", o.Verb == "HOLD":
		case o.Verb == "PASSAGE":
			return problem(o, "passages of lines come in the reorganization phase, once every corps has been activated (7.6a); now move "+corps+"'s units", m.example(side))
		default:
			return problem(o, fmt.Sprintf("move %s's units: <unit>: [MARCH] FORWARD 6, WHEEL LEFT 30, … (7.2, 7.3), one a line; or DONE", corps), m.example(side))
		}
		u := m.State.unit(o.Name)
		if u.Corps != corps {
			return problem(o, fmt.Sprintf("%s is of %s, not of %s, the corps you activated (7.1b)", u.Name, u.Corps, corps), "")
		}
		if moved[u.Name] {
			return problem(o, u.Name+" is moved twice in this mail", "")
		}
		moved[u.Name] = true
		if o.Verb == "HOLD" {
			m.Say("%s: HOLD", u.Name)
			continue
		}
		rep, why := m.State.normalMove(u, o)
		if why != "" {
			return problem(o, u.Name+": "+why, m.moveExample(u))
		}
		var words []string
		if o.March {
			words = append(words, "MARCH")
		}
		for _, s := range o.Steps {
			words = append(words, s.Words)
		}
		note := fmt.Sprintf("%s of %s", inch(rep.Dist), inch(rep.Limit))
		if rep.Pays {
			note += fmt.Sprintf("; 3\" paid for %s", rep.Contact)
		}
		m.Say("%s: %s (%s)", u.Name, strings.Join(words, ", "), note)
		args := []events.Arg{aUnit.Arg(u.Name), aX.Arg(int64(rep.Final.Front.X)), aY.Arg(int64(rep.Final.Front.Y)),
			aFacing.Arg(int64(rep.Final.Facing)), aDist.Arg(int64(rep.Dist)), aRange.Arg(int64(rep.Limit))}
		if rep.Pays {
			args = append(args, aPaid.Arg(rep.Contact))
		}
		if rep.Road {
			args = append(args, aRoad.Arg(true))
		}
		m.Emit(kUnitMoved, args...)
	}
	m.Emit(kActivationEnded, aSide.Arg(side), aCorps.Arg(corps))
	m.nextActivation(side)
	return nil
}

// passages are 7.6: in step 1 of the reorganization phase the sides
// list their passages of lines. 7.6i: the initiative player decides
// their order: his opponent declares his passages first, and the
// initiative's mail orders them all, his own and the opponent's (those
// it leaves out come after it, as declared); option passage-order own:
// each side orders its own, the initiative first.
func (m *sim) passages(side string, os []Order) []events.Problem {
	st := m.State
	all := st.Scn.Option("passage-order") == "initiative"
	declare := all && side != st.Initiative
	type pair struct{ a, b *Unit }
	var ps []pair
	taken := map[string]bool{}
	for _, o := range os {
		switch o.Verb {
		case "NONE", "DONE":
			continue
		case "PASSAGE":
		default:
			return problem(o, "passage of lines (7.6): PASSAGE <unit> AND <unit>, one a line, or NONE", "NONE")
		}
		a, b := st.unit(o.Name), st.unit(o.Name2)
		if a.Side != side || b.Side != side {
			declared := false
			for i := 0; all && !declare && i+1 < len(st.Pending); i += 2 {
				declared = declared || st.Pending[i] == a.Name && st.Pending[i+1] == b.Name
			}
			if !declared {
				return problem(o, fmt.Sprintf("%s and %s are not both yours; the initiative orders only the passages the opponent declared (7.6i)", a.Name, b.Name), "NONE")
			}
		} else if _, _, why := st.passage(a, b); why != "" {
			return problem(o, why+" (7.6)", "NONE")
		}
		if taken[a.Name] || taken[b.Name] {
			return problem(o, "a unit takes part in one passage of lines a turn (7.6b)", "NONE")
		}
		taken[a.Name], taken[b.Name] = true, true
		ps = append(ps, pair{a, b})
	}
	if declare {
		var names []string
		for _, p := range ps {
			names = append(names, p.a.Name, p.b.Name)
		}
		for _, p := range ps {
			m.Say("PASSAGE %s AND %s", p.a.Name, p.b.Name)
		}
		m.Emit(kPassagesDeclared, aSide.Arg(side), aUnits.Arg(names...))
		m.Emit(kPassagesDone, aSide.Arg(side))
		m.begin(StepPassage, st.Initiative, 0)
		return nil
	}
	for _, p := range ps {
		m.passage(side, p.a.Name, p.b.Name)
	}
	// The opponent's declared passages the initiative left out, in the
	// order declared.
	for len(m.State.Pending) >= 2 {
		m.passage(side, m.State.Pending[0], m.State.Pending[1])
	}
	m.Emit(kPassagesDone, aSide.Arg(side))
	if other := m.State.other(side); side == m.State.Initiative && !all {
		m.begin(StepPassage, other, 0)
	} else {
		m.endTurn()
	}
	return nil
}

// passage carries out one passage of lines (7.6a), with the command test
// of 7.6d, 7.6g, 7.6h, 7.6j by the general of the units' side.
func (m *sim) passage(orderedBy, an, bn string) {
	st := m.State
	a, b := st.unit(an), st.unit(bn)
	need, tester, why := st.passage(a, b)
	if why != "" {
		// A declared passage the other's passages since made impossible.
		m.Emit(kPassageMade, aA.Arg(a.Name), aB.Arg(b.Name), aOk.Arg(false))
		return
	}
	ok := true
	succ := 0
	if need > 0 {
		g := st.testerOf(tester)
		dice := 1
		name := "no general"
		if g != nil {
			dice, name = st.commandDice(a.Side, g.Name), g.Name
		}
		for range dice {
			if m.Dice.Roll("command test of "+name, st.Scn.Die) >= st.Scn.CommandSuccess {
				succ++
			}
		}
		ok = succ >= need
		m.Emit(kCommandTested, aGeneral.Arg(name), aDice.Arg(int64(dice)), aNeed.Arg(int64(need)), aSuccesses.Arg(int64(succ)))
	}
	if a.Side == orderedBy {
		m.Say("PASSAGE %s AND %s", a.Name, b.Name)
	}
	m.Emit(kPassageMade, aA.Arg(a.Name), aB.Arg(b.Name), aOk.Arg(ok))
	if !ok {
		// 7.6d: both stay and each loses a cohesion point.
		m.Emit(kCohesionLost, aUnit.Arg(a.Name), aN.Arg(1))
		m.Emit(kCohesionLost, aUnit.Arg(b.Name), aN.Arg(1))
	}
}
