package gcacw

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pbem/engine/hex"
	"pbem/events"
)

// The referee's SET order corrects one field of the state: a
// unit's hex, strength, fatigue or counter sides, a leader's unit, or the
// turn, phase and action cycle. Each line becomes one explicit fact,
//
//	set target=VANE field=strength old=4 new=3
//
// naming what it changes and the value it had, so the log says exactly
// what the referee corrected and Evolve can check that the state held the
// old value.

// gameTarget is the target of a SET of a game field.
const gameTarget = "game"

// SetOrder is what a SET line asks for.
type SetOrder struct {
	Target string // a unit or leader ID, or gameTarget
	Leader bool   // Target is a leader
	Field  string // see unitSetFields, leaderSetFields, gameSetFields (lower case)
	Value  string // the new value, as the fact writes it
	Col    int    // column of the value (or of the field), for problems
}

// The fields SET corrects, as the referee writes them.
var (
	unitSetFields   = []string{"ACTIVATED", "DISORGANIZED", "ELIMINATED", "EXHAUSTED", "FATIGUE", "HEX", "MANPOWER", "MARCHED", "ORGANIZED", "RESTED", "STRENGTH"}
	leaderSetFields = []string{"HEX", "WITH"}
	gameSetFields   = []string{"ACTION", "HOLDER", "INITIATIVE", "PHASE", "RECORDED", "STAGE", "TURN"}
	setPhases       = []string{PhaseCycle, PhaseTransfer, PhaseReorg, PhaseVictory}
	setStages       = []string{StageAct, StageChoose, StageDone, StageLoser, "none"}
)

// cycleFields are the game fields of the action cycle (GCACW 4), set only
// while it is under way.
var cycleFields = []string{"action", "holder", "initiative", "recorded", "stage"}

const setForms = "SET <unit> HEX <hex> | STRENGTH <n> | FATIGUE <0-4> | ORGANIZED | DISORGANIZED | EXHAUSTED | RESTED | MARCHED YES|NO | ACTIVATED YES|NO | ELIMINATED, " +
	"SET <leader> WITH <unit> | HEX <hex>, SET TURN <n>, SET PHASE <phase>, SET ACTION <n>, SET STAGE <stage>, SET INITIATIVE|HOLDER USA|CSA|NONE, SET RECORDED <0-6>"

// setHelp is the referee's HELP for SET.
const setHelp = `Corrections (referee), one per line, applied in order:
  SET <unit> HEX <hex>        SET <unit> STRENGTH <n>     SET <unit> FATIGUE <0-4>
  SET <unit> ORGANIZED|DISORGANIZED   SET <unit> EXHAUSTED|RESTED
  SET <unit> MARCHED YES|NO   SET <unit> ACTIVATED YES|NO
  SET <unit> ELIMINATED (= STRENGTH 0; STRENGTH <n> brings a unit back)
  SET <leader> WITH <unit>    SET <leader> HEX <hex> (the one friendly unit there)
  SET TURN <n>   SET PHASE leader-transfer|action-cycle|reorganization|victory
  SET ACTION <n>   SET STAGE choose|loser|act|done|none   SET RECORDED <0-6>
  SET INITIATIVE USA|CSA|NONE   SET HOLDER USA|CSA|NONE
`

// set reads a SET line: SET <target> <field> [value].
func (p *parser) set(o Order) (Order, bool) {
	t, more := p.next()
	if !more {
		p.problem(p.endTok(), "SET takes what to correct: a unit, a leader or a game field", setForms)
		return o, false
	}
	s := &o.Set
	if !t.Quoted && !t.Punct && slices.Contains(gameSetFields, strings.ToUpper(t.Text)) {
		s.Target, s.Field = gameTarget, strings.ToLower(t.Text)
		if !p.setGameValue(s) {
			return o, false
		}
		return o, p.done()
	}
	p.withEliminated = true // an eliminated unit may be brought back
	id, ok := p.resolve(t, "unit or leader", func(entity) bool { return true })
	p.withEliminated = false
	if !ok {
		return o, false
	}
	s.Target, s.Leader = id, p.st.leader(id) != nil
	if s.Leader {
		o.Leader, o.LCol = id, t.Col
	} else {
		o.Unit, o.UnitCol = id, t.Col
	}
	words, what := unitSetFields, "unit"
	if s.Leader {
		words, what = leaderSetFields, "leader"
	}
	f, more := p.next()
	if !more {
		p.problem(p.endTok(), fmt.Sprintf("SET %s takes the field to correct (a %s's fields: %s)", t.Text, what, strings.Join(words, ", ")), setForms)
		return o, false
	}
	w, cands := keyword(f.Text, words)
	if w == "" || f.Quoted || f.Punct {
		msg := fmt.Sprintf("%q is not a field of a %s (fields: %s)", f.Text, what, strings.Join(words, ", "))
		hint := suggestWord(f.Text, words)
		if len(cands) > 1 {
			msg, hint = fmt.Sprintf("%q could be %s", f.Text, strings.Join(cands, " or ")), "write more of the word"
		}
		p.problem(f, msg, hint)
		return o, false
	}
	s.Col = f.Col
	if s.Leader {
		if !p.setLeaderValue(s, w) {
			return o, false
		}
	} else if !p.setUnitValue(s, w) {
		return o, false
	}
	return o, p.done()
}

// setUnitValue reads the value of unit field w.
func (p *parser) setUnitValue(s *SetOrder, w string) bool {
	switch w {
	case "HEX":
		s.Field = "hex"
		v, more := p.next()
		if !more {
			p.problem(p.endTok(), "SET … HEX takes the hex", "SET <unit> HEX 1407")
			return false
		}
		h, ok := p.parseHex(v)
		if !ok {
			return false
		}
		s.Value, s.Col = h.String(), v.Col
	case "STRENGTH", "MANPOWER":
		s.Field = "strength"
		max := maxStrength(p.st.Scn.Game)
		return p.setNumber(s, 0, max, fmt.Sprintf("Strength markers go from 1 to %d in %s, 0 eliminates (GCACW 2.2o)", max, p.st.Scn.Game), "SET <unit> STRENGTH 4")
	case "FATIGUE":
		s.Field = "fatigue"
		return p.setNumber(s, 0, 4, "Fatigue levels go from 0 to 4 (GCACW 2.2p)", "SET <unit> FATIGUE 1")
	case "ELIMINATED":
		s.Field, s.Value = "strength", "0"
		if v, more := p.peek(); more && isWord(v, "NO", 2) {
			p.problem(v, "an eliminated unit comes back with a strength", "SET <unit> STRENGTH <n>")
			return false
		} else if more && isWord(v, "YES", 1) {
			p.next()
		}
	case "ORGANIZED", "RESTED":
		s.Field, s.Value = map[string]string{"ORGANIZED": "disorganized", "RESTED": "exhausted"}[w], "no"
	default: // DISORGANIZED, EXHAUSTED, MARCHED, ACTIVATED [YES|NO]
		s.Field, s.Value = strings.ToLower(w), "yes"
		if v, more := p.peek(); more {
			switch {
			case isWord(v, "YES", 1):
				p.next()
			case isWord(v, "NO", 2):
				p.next()
				s.Value = "no"
			default:
				p.problem(v, fmt.Sprintf("SET … %s takes YES or NO, or nothing (YES)", w), "SET <unit> "+w+" NO")
				return false
			}
			s.Col = v.Col
		}
	}
	return true
}

// setLeaderValue reads the value of leader field w.
func (p *parser) setLeaderValue(s *SetOrder, w string) bool {
	s.Field = "with"
	v, more := p.next()
	if !more {
		p.problem(p.endTok(), "SET <leader> "+w+" takes the "+map[string]string{"HEX": "hex", "WITH": "unit"}[w], "SET <leader> WITH <unit>")
		return false
	}
	s.Col = v.Col
	if w == "HEX" {
		h, ok := p.parseHex(v)
		if !ok {
			return false
		}
		// A leader stands with a unit (GCACW 2.2j): the one of its side in h.
		l := p.st.leader(s.Target)
		var there []string
		for _, u := range p.st.unitsAt(h) {
			if u.Side == l.Side {
				there = append(there, u.ID)
			}
		}
		switch len(there) {
		case 0:
			p.problem(v, fmt.Sprintf("no %s unit is in %s: a leader stands with a unit (GCACW 2.2j)", l.Side, h), "SET <leader> WITH <unit>")
			return false
		case 1:
			s.Value = there[0]
		default:
			p.problem(v, fmt.Sprintf("%s holds %s: say which unit %s joins", h, strings.Join(there, " and "), l.Name), "SET "+l.ID+" WITH "+there[0])
			return false
		}
		return true
	}
	if isWord(v, "TO", 2) { // SET <leader> WITH TO <unit> reads as well
		if v, more = p.next(); !more {
			p.problem(p.endTok(), "name the unit", "SET <leader> WITH <unit>")
			return false
		}
	}
	id, ok := p.resolve(v, "unit", func(e entity) bool { return !e.leader })
	if !ok {
		return false
	}
	s.Value, s.Col = id, v.Col
	return true
}

// setGameValue reads the value of game field s.Field.
func (p *parser) setGameValue(s *SetOrder) bool {
	choose := func(valid []string, ex string) bool {
		v, more := p.next()
		if !more {
			p.problem(p.endTok(), "SET "+strings.ToUpper(s.Field)+" takes one of "+strings.Join(valid, ", "), ex)
			return false
		}
		s.Col = v.Col
		w, cands := keyword(v.Text, upper(valid))
		if w == "" || v.Quoted || v.Punct {
			msg := fmt.Sprintf("%q is not a %s: want %s", v.Text, s.Field, strings.Join(valid, ", "))
			if len(cands) > 1 {
				msg = fmt.Sprintf("%q could be %s", v.Text, strings.Join(cands, " or "))
			}
			p.problem(v, msg, ex)
			return false
		}
		s.Value = strings.ToLower(w)
		if s.Value == "usa" || s.Value == "csa" {
			s.Value = strings.ToUpper(s.Value)
		}
		return true
	}
	switch s.Field {
	case "turn":
		return p.setNumber(s, 1, p.st.Scn.Turns, fmt.Sprintf("the scenario has turns 1 to %d", p.st.Scn.Turns), "SET TURN 2")
	case "action":
		return p.setNumber(s, 1, 99, "Action Phases are numbered from 1 (GCACW 4.1)", "SET ACTION 3")
	case "recorded":
		return p.setNumber(s, 0, 6, "the recorded initiative die is 1 to 6, or 0 for none (GCACW 4.2c)", "SET RECORDED 4")
	case "phase":
		return choose(setPhases, "SET PHASE action-cycle")
	case "stage":
		return choose(setStages, "SET STAGE choose")
	default: // initiative, holder
		return choose([]string{USA, CSA, "none"}, "SET "+strings.ToUpper(s.Field)+" USA")
	}
}

// setNumber reads a number from lo to hi as the value.
func (p *parser) setNumber(s *SetOrder, lo, hi int, why, ex string) bool {
	v, more := p.next()
	if !more {
		p.problem(p.endTok(), fmt.Sprintf("SET … %s takes a number from %d to %d", strings.ToUpper(s.Field), lo, hi), ex)
		return false
	}
	n, err := strconv.Atoi(v.Text)
	if err != nil || v.Quoted || v.Punct {
		p.problem(v, fmt.Sprintf("%q is not a number: want %d to %d", v.Text, lo, hi), ex)
		return false
	}
	if n < lo || n > hi {
		p.problem(v, fmt.Sprintf("%d is out of range: %s", n, why), ex)
		return false
	}
	s.Value, s.Col = strconv.Itoa(n), v.Col
	return true
}

func upper(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.ToUpper(s)
	}
	return out
}

// set decides one SET line against the state the lines before it made.
func (m sim) set(o Order) *events.Problem {
	s := o.Set
	st := m.State
	bad := func(msg, hint string) *events.Problem {
		p := problemAt(o, s.Col, msg, hint)
		return &p
	}
	name := st.targetName(s.Target)
	switch {
	case s.Target == gameTarget:
		if slices.Contains(cycleFields, s.Field) && st.Phase != PhaseCycle {
			return bad(fmt.Sprintf("%s belongs to the action cycle, and the game is in the %s phase (GCACW 3)", s.Field, st.Phase), "SET PHASE action-cycle first")
		}
	case s.Leader:
		l, u := st.leader(s.Target), st.unit(s.Value)
		switch {
		case u.Side != l.Side:
			return bad(fmt.Sprintf("%s is a %s unit and %s a %s leader", u.Name, u.Side, l.Name, l.Side), "")
		case u.Eliminated:
			return bad(u.Name+" has been eliminated: a leader stands with a unit on the map (GCACW 2.2j)", "")
		}
	default:
		u := st.unit(s.Target)
		if s.Field == "strength" {
			return m.setStrength(o, u)
		}
		if u.Eliminated {
			p := problemAt(o, o.UnitCol, u.Name+" has been eliminated", "SET "+u.ID+" STRENGTH <n> brings it back")
			return &p
		}
		if s.Field == "hex" {
			h := hex.MustParse(s.Value)
			if st.Scn.Map.Terrain(h) == Water {
				return bad(fmt.Sprintf("%s is water: no unit stands there", h), "")
			}
			if st.hasEnemy(u.Side, h) {
				return bad(fmt.Sprintf("%s holds enemy units", h), "")
			}
		}
	}
	old, err := st.setValue(s.Target, s.Field)
	if err != nil {
		panic(internal{err})
	}
	if old == s.Value {
		return bad(fmt.Sprintf("%s's %s is %s already", name, s.Field, old), "")
	}
	m.emitSet(s.Target, s.Field, old, s.Value)
	return nil
}

// setStrength sets a unit's strength (GCACW 2.2o): 0 eliminates it (and
// a leader left with no unit waits for the referee, 2.2j), a strength
// given to an eliminated unit brings it back.
func (m sim) setStrength(o Order, u *Unit) *events.Problem {
	n, _ := strconv.Atoi(o.Set.Value)
	switch {
	case n == u.Manpower && !u.Eliminated || n == 0 && u.Eliminated:
		p := problemAt(o, o.Set.Col, fmt.Sprintf("%s's strength is %d already", u.Name, n), "")
		return &p
	case n == 0:
		m.emitSet(u.ID, "strength", strconv.Itoa(u.Manpower), "0")
		m.Emit(kUnitEliminated, aUnit.Arg(u.ID), aReason.Arg("referee"))
		m.leadersAlone()
	default:
		if u.Eliminated {
			m.emitSet(u.ID, "eliminated", "yes", "no")
		}
		m.emitSet(u.ID, "strength", strconv.Itoa(m.State.unit(u.ID).Manpower), o.Set.Value)
	}
	return nil
}

func (m sim) emitSet(target, field, old, value string) {
	m.Emit(kSet, aTarget.Arg(target), aField.Arg(field), aOld.Arg(old), aNew.Arg(value))
}

// targetName is how a SET's echo names its target.
func (s *State) targetName(id string) string {
	if u := s.unit(id); u != nil {
		return u.Name
	}
	if l := s.leader(id); l != nil {
		return l.Name
	}
	return id
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// setValue is the value field of target has in s, as a set fact writes it.
func (s *State) setValue(target, field string) (string, error) {
	if target == gameTarget {
		c := s.Cycle
		switch field {
		case "turn":
			return strconv.Itoa(s.Turn), nil
		case "phase":
			return s.Phase, nil
		case "action":
			return strconv.Itoa(c.N), nil
		case "stage":
			return orNone(c.Stage), nil
		case "initiative":
			return orNone(c.Winner), nil
		case "holder":
			return orNone(c.Holder), nil
		case "recorded":
			return strconv.Itoa(c.Recorded), nil
		}
	} else if u := s.unit(target); u != nil {
		switch field {
		case "hex":
			return u.Hex.String(), nil
		case "strength":
			return strconv.Itoa(u.Manpower), nil
		case "fatigue":
			return strconv.Itoa(u.Fatigue), nil
		case "disorganized":
			return yesNo(u.Disorganized), nil
		case "exhausted":
			return yesNo(u.Exhausted), nil
		case "marched":
			return yesNo(u.Marched), nil
		case "activated":
			return yesNo(u.Activated), nil
		case "eliminated":
			return yesNo(u.Eliminated), nil
		}
	} else if l := s.leader(target); l != nil {
		if field == "with" {
			return l.With, nil
		}
	} else {
		return "", fmt.Errorf("set: no unit or leader %q", target)
	}
	return "", fmt.Errorf("set: %s has no field %q", target, field)
}

// set applies a set fact: the field must hold the fact's old value.
func (b *batch) set(f events.Fact) error {
	target, field, old, v := aTarget.Of(f), aField.Of(f), aOld.Of(f), aNew.Of(f)
	cur, err := b.c.setValue(target, field)
	if err != nil {
		return err
	}
	if cur != old {
		return fmt.Errorf("set %s %s: the state has %q, the fact says it had %q", target, field, cur, old)
	}
	num := func(lo, hi int) (int, error) {
		n, err := strconv.Atoi(v)
		if err != nil || n < lo || n > hi {
			return 0, fmt.Errorf("set %s %s: bad value %q", target, field, v)
		}
		return n, nil
	}
	flag := func() (bool, error) {
		if v != "yes" && v != "no" {
			return false, fmt.Errorf("set %s %s: bad value %q", target, field, v)
		}
		return v == "yes", nil
	}
	none := func(valid ...string) (string, error) {
		if v == "none" {
			return "", nil
		}
		if !slices.Contains(valid, v) {
			return "", fmt.Errorf("set %s %s: bad value %q", target, field, v)
		}
		return v, nil
	}
	c := b.c
	if target == gameTarget {
		switch field {
		case "turn":
			c.Turn, err = num(1, 1<<20)
		case "phase":
			if !slices.Contains(setPhases, v) {
				return fmt.Errorf("set phase: bad value %q", v)
			}
			c.Phase = v
		case "action":
			c.Cycle.N, err = num(0, 1<<20)
		case "stage":
			c.Cycle.Stage, err = none(StageAct, StageChoose, StageDone, StageLoser)
		case "initiative":
			c.Cycle.Winner, err = none(USA, CSA)
		case "holder":
			c.Cycle.Holder, err = none(USA, CSA)
		case "recorded":
			c.Cycle.Recorded, err = num(0, 6)
		}
		return err
	}
	if i, ok := c.unitIndex(target); ok {
		u := b.unitAt(i)
		switch field {
		case "hex":
			u.Hex, err = hex.Parse(v)
		case "strength":
			u.Manpower, err = num(0, 1<<20)
		case "fatigue":
			u.Fatigue, err = num(0, 4)
		case "disorganized":
			u.Disorganized, err = flag()
		case "exhausted":
			u.Exhausted, err = flag()
		case "marched":
			u.Marched, err = flag()
		case "activated":
			u.Activated, err = flag()
		case "eliminated":
			u.Eliminated, err = flag()
		}
		return err
	}
	i, _ := c.leaderIndex(target)
	if c.unit(v) == nil {
		return fmt.Errorf("set %s with: no unit %q", target, v)
	}
	b.leaderAt(i).With = v
	return nil
}

// describeSet writes a set fact for the echo: "SET Vane strength 4 → 3".
func describeSet(st *State, f events.Fact) string {
	target := aTarget.Of(f)
	name := ""
	if target != gameTarget {
		name = st.targetName(target) + " "
	}
	return fmt.Sprintf("SET %s%s %s → %s", name, aField.Of(f), aOld.Of(f), aNew.Of(f))
}

// readBackSet says how a SET line was read.
func readBackSet(st *State, o Order, name func(string) string) string {
	s := o.Set
	if s.Target == gameTarget {
		return fmt.Sprintf("SET %s %s", strings.ToUpper(s.Field), s.Value)
	}
	v := s.Value
	if s.Leader {
		v = name(v)
	}
	return fmt.Sprintf("SET %s %s %s", name(s.Target), strings.ToUpper(s.Field), v)
}
