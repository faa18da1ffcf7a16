package gmb

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pbem/engine/names"
	"pbem/engine/table"
	"pbem/events"
)

// The referee's part: what the seeds leave out (combat, chapters 8-9;
// the end of the battle, 14.2) is ruled by mail, and SET corrects any
// field of the state.

func (m *sim) referee(os []Order) []events.Problem {
	for _, o := range os {
		st := m.State
		switch o.Verb {
		case "SET":
			if p := m.set(o); p != nil {
				return p
			}
		case "LAYOUT":
			// 13.10a: the referee's terrain layout.
			if p := m.layout(o, true); p != nil {
				return p
			}
		case "COMBAT":
			if st.Step != StepCombat {
				return problem(o, "there is no combat to rule now", "")
			}
			m.Say("COMBAT DONE")
			m.Emit(kCombatResolved, aCorps.Arg(st.Active))
			m.begin(StepMove, st.ToAct, 0)
		case "FORCE":
			u := st.unit(o.Name)
			r, d, why := st.forcedMove(u, o.Word)
			if why != "" {
				return problem(o, why, fmt.Sprintf("SET %s POS x,y", u.Name))
			}
			m.Say("FORCE %s %s %s", u.Name, o.Word, strings.ToUpper(o.Value))
			m.Emit(kUnitForced, aUnit.Arg(u.Name), aX.Arg(int64(r.Front.X)), aY.Arg(int64(r.Front.Y)),
				aDist.Arg(int64(d)), aHow.Arg(strings.ToLower(o.Word)), aCause.Arg(o.Value))
		case "FALLEN":
			g := st.general(o.Name)
			if g == nil || g.Formation == "" {
				return problem(o, o.Name+" commands nothing", "")
			}
			next := m.nextBrigadeGeneral(g.Side)
			if next == "" {
				return problem(o, "no brigade general is left to draw (13.5i)", "")
			}
			m.Say("FALLEN %s", g.Name)
			m.Emit(kGeneralReplaced, aSide.Arg(g.Side), aGeneral.Arg(next), aOld.Arg(g.Name))
		case "OBJECTIVES":
			for _, n := range o.Ints {
				if n < 1 || n > 5 {
					return problem(o, "objectives are numbered 1 to 5 as 13.12c lists them for the army's tactic", "")
				}
			}
			// The objectives say much of a tactic: the referees' alone
			// until the battle ends.
			m.SayTo(events.ToReferees(), "OBJECTIVES %s %v", o.Name, o.Ints)
			ints := make([]int64, len(o.Ints))
			for i, n := range o.Ints {
				ints[i] = int64(n)
			}
			m.EmitTo(events.ToReferees(), kObjectivesSet, aSide.Arg(o.Name), aDone.Arg(ints...))
		case "SCORE":
			if st.Step == StepOver {
				return problem(o, "the battle is over", "")
			}
			m.Say("SCORE")
			m.endBattle()
		case "YEAR":
			if st.Step != StepYear || st.Scn.Year != -1 {
				return problem(o, "the players say the year; the referee only where the scenario leaves it to him (13.4a)", "")
			}
			if why := st.Scn.fieldable(o.Ints[0]); why != "" {
				return problem(o, why, "")
			}
			m.Say("YEAR %d", o.Ints[0])
			m.Emit(kYearSet, aYear.Arg(int64(o.Ints[0])), aHow.Arg("referee"))
			m.begin(StepDraw, "", 0)
		case "INITIATIVE":
			if st.Step != StepInitiative {
				return problem(o, "no initiative roll waits for the referee", "")
			}
			m.Say("INITIATIVE %s", o.Name)
			if st.Turn == 0 {
				m.wonBattlefield(o.Name)
			} else {
				m.Emit(kInitiativeWon, aSide.Arg(o.Name))
				m.begin(StepActivate, o.Name, 0)
			}
		default:
			return problem(o, "the referee sends SET, COMBAT DONE, FORCE <unit> BACK <kind>, FALLEN <general>, OBJECTIVES <side> n …, SCORE, YEAR or INITIATIVE", "COMBAT DONE")
		}
	}
	return nil
}

// rewardLines are 13.12c's rewards: the objectives each needs (any k of
// them when Any > 0) and the percentage of the army's value.
type rewardLine struct {
	All []int
	Any int
	Pct int
}

var rewards = map[string][]rewardLine{
	Cautious:   {{All: []int{1, 2, 3}, Pct: 100}, {Any: 2, Pct: 50}},
	Neutral:    {{All: []int{1, 2, 3, 4}, Pct: 200}, {All: []int{1, 2, 3}, Pct: 100}, {Any: 2, Pct: 50}},
	Aggressive: {{All: []int{1, 2, 3, 4}, Pct: 400}, {All: []int{3, 4, 5}, Pct: 300}, {Any: 3, Pct: 100}},
}

// implies are 13.12c's objectives that achieve another: the Aggressive
// tactic's 1 (take all the strategic points) holds its 5 (more than
// half of them).
var implies = map[string]map[int]int{Aggressive: {1: 5}}

// implied adds to the objectives achieved those they imply: an
// objective implied by another counts for both (13.12c).
func implied(tactic string, done []int) []int {
	out := slices.Clone(done)
	for _, d := range done {
		if x, ok := implies[tactic][d]; ok && !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	slices.Sort(out)
	return out
}

// objectiveCount is how many objectives a tactic lists.
var objectiveCount = map[string]int{Cautious: 3, Neutral: 4, Aggressive: 5}

// reward is 13.12c: the percentage an army earns for the objectives it
// achieved; G17 awards only the highest line met (option rewards sum:
// every line met).
func reward(tactic string, done []int, sum bool) int {
	done = implied(tactic, done)
	n := 0
	for _, d := range done {
		if d >= 1 && d <= objectiveCount[tactic] {
			n++
		}
	}
	total := 0
	for _, l := range rewards[tactic] {
		met := l.Any > 0 && n >= l.Any
		if l.All != nil {
			met = true
			for _, x := range l.All {
				met = met && slices.Contains(done, x)
			}
		}
		if !met {
			continue
		}
		if !sum {
			return l.Pct
		}
		total += l.Pct
	}
	return total
}

// endBattle reveals the army tactics (13.12b), scores them (13.12c) and
// ends the battle: the side with the larger reward wins (14.2 is not in
// the seeds; the referee's OBJECTIVES say what was achieved).
func (m *sim) endBattle() {
	st := m.State
	best, winner, tie := -1, "", false
	var parts []string
	for _, sd := range st.Sides {
		pct := 0
		done := sd.Objectives
		if sd.Tactic != "" {
			m.Emit(kTacticRevealed, aSide.Arg(sd.Name), aTactic.Arg(sd.Tactic))
			done = implied(sd.Tactic, done)
			pct = reward(sd.Tactic, done, st.Scn.Option("rewards") == "sum")
		}
		amount := st.Scn.Army(sd.Name).Value * pct / 100
		ints := make([]int64, len(done))
		for i, n := range done {
			ints[i] = int64(n)
		}
		m.Emit(kRewardScored, aSide.Arg(sd.Name), aObjectives.Arg(ints...), aPercent.Arg(int64(pct)), aAmount.Arg(int64(amount)))
		parts = append(parts, fmt.Sprintf("%s $%d", sd.Name, amount))
		switch {
		case amount > best:
			best, winner, tie = amount, sd.Name, false
		case amount == best:
			tie = true
		}
	}
	if tie {
		winner = ""
	}
	reason := "The army tactics' rewards (13.12c): " + strings.Join(parts, ", ")
	m.Emit(kBattleEnded, aWinner.Arg(winner), aReason.Arg(reason))
}

// --- SET ---

var (
	gameFields    = []string{"STEP", "TURN", "INITIATIVE", "TOACT", "PLAYERA", "BATTLEFIELD", "LIST", "YEAR", "TABLE", "PLACER", "POOL", "ACTIVE", "BRIDGESDUE"}
	sideFields    = []string{"MORALE", "HAND", "DECK", "TACTIC", "CAVALRY", "DECLARED", "FORCED", "REDRAWS", "FORTS", "DONE", "KEPT"}
	unitFields    = []string{"POS", "FACING", "COHESION", "BONUS", "PINNED", "ENGAGED", "ATTACKED", "SUPPORTED", "RETREATED", "MOVED", "PAID", "PASSAGE", "REMOVED", "PLACED"}
	generalFields = []string{"FORMATION"}
	pieceFields   = []string{"POS", "REMOVED"}
)

// objectNamed finds what a SET names: GAME, a side, a unit, a general or
// a terrain piece (exactly, else by a unique prefix).
func objectNamed(st *State, s string) string {
	var all []string
	all = append(all, "game")
	for _, sd := range st.Sides {
		all = append(all, sd.Name)
	}
	for _, u := range st.Units {
		all = append(all, u.Name)
	}
	for _, g := range st.Generals {
		all = append(all, g.Name)
	}
	for _, p := range st.Pieces {
		all = append(all, p.ID)
	}
	n := names.Norm(s)
	for _, a := range all {
		if names.Norm(a) == n {
			return a
		}
	}
	return ""
}

func setFields(st *State, obj string) []string {
	switch {
	case obj == "game":
		return gameFields
	case st.side(obj) != nil:
		return sideFields
	case st.unit(obj) != nil:
		return unitFields
	case st.general(obj) != nil:
		return generalFields
	}
	return pieceFields
}

// setVis is who may see a SET: a side's hand, deck and tactic are its
// own.
func (st *State) setVis(obj, field string) events.Vis {
	if st.side(obj) != nil && slices.Contains([]string{"HAND", "DECK", "TACTIC"}, field) {
		return events.ToSide(obj)
	}
	return events.Vis{}
}

func (m *sim) set(o Order) []events.Problem {
	st := m.State
	old := st.getField(o.Name, o.Word)
	if err := st.clone().applySet(o.Name, o.Word, o.Value); err != nil {
		return problem(o, fmt.Sprintf("SET %s %s: %v", o.Name, o.Word, err), "")
	}
	vis := st.setVis(o.Name, o.Word)
	m.SayTo(vis, "SET %s %s %s (was %s)", o.Name, o.Word, o.Value, old)
	m.EmitTo(vis, kRefereeSet, aObject.Arg(o.Name), aField.Arg(o.Word), aValue.Arg(o.Value), aOld.Arg(old))
	return nil
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func parseOnOff(v string) (bool, error) {
	switch strings.ToLower(v) {
	case "on", "yes", "true", "1":
		return true, nil
	case "off", "no", "false", "0":
		return false, nil
	}
	return false, fmt.Errorf("%q is not on or off", v)
}

// getField reads a field as SET writes it.
func (st *State) getField(obj, field string) string {
	if obj == "game" {
		switch field {
		case "STEP":
			return st.Step
		case "TURN":
			return strconv.Itoa(st.Turn)
		case "INITIATIVE":
			return st.Initiative
		case "TOACT":
			return st.ToAct
		case "PLAYERA":
			return st.PlayerA
		case "BATTLEFIELD":
			return st.Battlefield
		case "LIST":
			return st.List
		case "YEAR":
			return strconv.Itoa(st.Year)
		case "TABLE":
			return st.TableSize
		case "PLACER":
			return st.Placer
		case "POOL":
			return strconv.Itoa(st.Pool)
		case "ACTIVE":
			return st.Active
		case "BRIDGESDUE":
			return strconv.Itoa(st.BridgesDue)
		}
	}
	if sd := st.side(obj); sd != nil {
		switch field {
		case "MORALE":
			return sd.Morale
		case "HAND":
			return strings.Join(sd.Hand, ", ")
		case "DECK":
			return strings.Join(sd.Deck, ", ")
		case "TACTIC":
			return sd.Tactic
		case "CAVALRY":
			return sd.CavTactic
		case "DECLARED":
			return sd.Battlefield
		case "FORCED":
			return onOff(sd.Forced)
		case "REDRAWS":
			return strconv.Itoa(sd.Redraws)
		case "FORTS":
			return strconv.Itoa(sd.Forts)
		case "DONE":
			return onOff(sd.Done)
		case "KEPT":
			return onOff(sd.Kept)
		}
	}
	if u := st.unit(obj); u != nil {
		switch field {
		case "POS":
			return fmtPt(u.Front)
		case "FACING":
			return strings.TrimSuffix(u.Facing.String(), "°")
		case "COHESION":
			return strconv.Itoa(u.Cohesion)
		case "BONUS":
			return strings.TrimSuffix(u.Bonus.Format(table.Inches), "in")
		}
		return onOff(map[string]bool{"PINNED": u.Pinned, "ENGAGED": u.Engaged, "ATTACKED": u.Attacked, "SUPPORTED": u.Supported,
			"RETREATED": u.Retreated, "MOVED": u.Moved, "PAID": u.Paid, "PASSAGE": u.Passage, "REMOVED": u.Removed, "PLACED": u.Placed}[field])
	}
	if g := st.general(obj); g != nil {
		return g.Formation
	}
	if p := st.piece(obj); p != nil {
		if field == "POS" {
			if p.Path != nil {
				return fmtPt(p.Path[0])
			}
			return fmtPt(p.Poly.Centroid())
		}
		return "off"
	}
	return ""
}

// applySet sets a field (the state must be the caller's own copy). It is
// Evolve's for referee.set, and Decide tries it first on a copy, so a
// value that cannot be set is refused, not logged.
func (st *State) applySet(obj, field, v string) error {
	intv := func() (int, error) {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return 0, fmt.Errorf("%q is not a whole number", v)
		}
		return n, nil
	}
	sideName := func() (string, error) {
		if v == "" || strings.EqualFold(v, "none") {
			return "", nil
		}
		for _, sd := range st.Sides {
			if strings.EqualFold(sd.Name, v) {
				return sd.Name, nil
			}
		}
		return "", fmt.Errorf("%q is no side", v)
	}
	oneOf := func(vs []string) (string, error) {
		n, _ := lookup(v, vs)
		if n == "" {
			return "", fmt.Errorf("%q is none of %s", v, strings.Join(vs, ", "))
		}
		return n, nil
	}
	cards := func(deck []string) ([]string, error) {
		var out []string
		all := append(slices.Clone(st.Scn.Army(obj).Cards), deck...)
		for _, c := range splitList([]string{v}) {
			if strings.EqualFold(c, "none") {
				continue
			}
			n, _ := lookup(c, all)
			if n == "" {
				return nil, fmt.Errorf("%s has no card %q", obj, c)
			}
			out = append(out, n)
		}
		return out, nil
	}
	var err error
	if obj == "game" {
		switch field {
		case "STEP":
			st.Step, err = oneOf(steps)
		case "TURN":
			st.Turn, err = intv()
		case "INITIATIVE":
			st.Initiative, err = sideName()
		case "TOACT":
			st.ToAct, err = sideName()
		case "PLAYERA":
			st.PlayerA, err = sideName()
		case "BATTLEFIELD":
			st.Battlefield, err = oneOf(battlefields)
		case "LIST":
			if l, ok := st.Scn.List(v); ok {
				st.List = l.Name
			} else {
				err = fmt.Errorf("no terrain list %q", v)
			}
		case "YEAR":
			if st.Year, err = intv(); err == nil {
				if why := st.Scn.fieldable(st.Year); why != "" {
					err = errors.New(why)
				}
			}
		case "TABLE":
			g, ok := st.Scn.Geom(strings.ToLower(v))
			if !ok {
				return fmt.Errorf("no table %q in the scenario", v)
			}
			st.TableSize, st.W, st.H = g.Size, g.Width, g.Height
		case "PLACER":
			st.Placer, err = sideName()
		case "POOL":
			st.Pool, err = intv()
		case "ACTIVE":
			st.Active = v
		case "BRIDGESDUE":
			st.BridgesDue, err = intv()
		}
		return err
	}
	if sd := st.side(obj); sd != nil {
		switch field {
		case "MORALE":
			sd.Morale, err = oneOf(st.Scn.Morale)
		case "HAND":
			sd.Hand, err = cards(nil)
		case "DECK":
			sd.Deck, err = cards(nil)
		case "TACTIC":
			sd.Tactic, err = oneOf(characters)
			sd.TacticMade = err == nil
		case "CAVALRY":
			var ns []string
			for _, t := range st.Scn.CavTactics {
				ns = append(ns, t.Name)
			}
			sd.CavTactic, err = oneOf(ns)
		case "DECLARED":
			sd.Battlefield, err = oneOf(battlefields)
		case "FORCED":
			sd.Forced, err = parseOnOff(v)
		case "REDRAWS":
			sd.Redraws, err = intv()
		case "FORTS":
			sd.Forts, err = intv()
		case "DONE":
			sd.Done, err = parseOnOff(v)
		case "KEPT":
			sd.Kept, err = parseOnOff(v)
		}
		return err
	}
	if u := st.unit(obj); u != nil {
		switch field {
		case "POS":
			p, perr := parsePoint(v)
			if perr != nil {
				return perr
			}
			u.Front, u.Placed = p, true
		case "FACING":
			a, aerr := table.ParseAngle(v)
			if aerr != nil {
				return aerr
			}
			u.Facing = a.Norm()
		case "COHESION":
			u.Cohesion, err = intv()
		case "BONUS":
			u.Bonus, err = table.ParseLengthIn(v, table.Inches)
		default:
			b, berr := parseOnOff(v)
			if berr != nil {
				return berr
			}
			*map[string]*bool{"PINNED": &u.Pinned, "ENGAGED": &u.Engaged, "ATTACKED": &u.Attacked, "SUPPORTED": &u.Supported,
				"RETREATED": &u.Retreated, "MOVED": &u.Moved, "PAID": &u.Paid, "PASSAGE": &u.Passage, "REMOVED": &u.Removed, "PLACED": &u.Placed}[field] = b
			if field == "REMOVED" && st.Turn == 0 {
				// Set aside before the battle's first turn: the referee
				// setting the battle up, not a loss (13.12c counts those).
				u.Withdrawn = b
			}
		}
		return err
	}
	if g := st.general(obj); g != nil {
		if strings.EqualFold(v, "none") {
			g.Formation = ""
			return nil
		}
		a := st.Scn.Army(g.Side)
		var fs []string
		for _, f := range a.Formations {
			fs = append(fs, f.Name)
		}
		g.Formation, err = oneOf(append(fs, ArmyFormation))
		return err
	}
	if i := slices.IndexFunc(st.Pieces, func(p Piece) bool { return p.ID == obj }); i >= 0 {
		p := &st.Pieces[i]
		switch field {
		case "POS":
			to, perr := parsePoint(v)
			if perr != nil {
				return perr
			}
			if p.Path != nil {
				p.Path = p.Path.Translate(to.Sub(p.Path[0]))
			} else {
				p.Poly = p.Poly.Translate(to.Sub(p.Poly.Centroid()))
			}
		case "REMOVED":
			b, berr := parseOnOff(v)
			if berr != nil {
				return berr
			}
			if b {
				st.Pieces = slices.Delete(st.Pieces, i, i+1)
			}
		}
		return nil
	}
	return fmt.Errorf("no object %q", obj)
}

// quarterUp is 13.12e: 25% of n units, rounded up (an objective of the
// Neutral and Aggressive tactics).
func quarterUp(n int) int { return (n + 3) / 4 }

// quarters tells the referee 13.12e's figure for each army.
func (s *State) quarters() string {
	var ps []string
	for _, sd := range s.Sides {
		n := 0
		for _, u := range s.Units {
			if u.Side == sd.Name {
				n++
			}
		}
		ps = append(ps, fmt.Sprintf("25%% of %s's %d units is %d", sd.Name, n, quarterUp(n)))
	}
	return strings.Join(ps, ", ")
}
