package gcacw

import (
	"fmt"
	"slices"
	"strings"

	"pbem/engine/hex"
)

// Battles: a campaign scenario may have an assault fought out as a
// battle of a tactical rule system (GBACW, Hair Roller Armies, GM Board
// Games) instead of by the [combat] table or the referee. Its [battles]
// section names, for an assault on a hex (or by default), the tactical
// system and scenario, which tactical side each GCACW side plays, how the
// GCACW units map to the tactical scenario's forces (or that the referee
// sets them up), and how the battle's outcome maps to the assault's
// result (or that the referee rules it with the battle's report in hand).
// None of this is in the rules: the seeds give no conversion, so a
// [battles] section is a house rule and the shipped ones say SAMPLE.
//
//	[battles]
//	battle   1007     gbacw  tanners-mill  USA=USA  CSA=CSA
//	force    ORNE     "Hale's Brigade"      # a GCACW unit -> a tactical force
//	result   winner=attacker  defender-lost=3-99  D2/Dr
//	result   winner=attacker  D1/Dr
//	result   winner=defender  A1
//	result   winner=draw      A1/D1
//	battle   default  hra  kettle-run  USA=Union  CSA=Confederate
//	forces   referee                    # the referee sets the battle up
//	result   referee                    # the referee rules the result
//
// A result line's conditions are the winner (attacker, defender or draw),
// optional ranges of each side's losses as the tactical game counts them
// (attacker-lost=, defender-lost=) and whose units routed or retreated
// (routed=attacker|defender); the first line that matches gives the
// result, in the [combat] table's notation (NE, A1, D2, Ad, Dd, Dr, joined
// by "/"). A battle whose outcome no line matches goes to the referee.

// secBattles is the scenario section of the battles.
const secBattles = "battles"

// Battle is one [battles] entry: how an assault is fought out.
type Battle struct {
	// At is the hex attacked this entry is for; nil is the default, for
	// an assault on any hex no other entry names.
	At       *hex.Hex `json:"at,omitempty"`
	System   string   `json:"system"`
	Scenario string   `json:"scenario"`
	// Sides maps each GCACW side to the tactical scenario's side, in the
	// order USA, CSA.
	Sides []SideMap `json:"sides"`
	// Forces maps GCACW units to the tactical scenario's forces (SAMPLE:
	// no seed gives a conversion); RefereeForces: the referee sets the
	// battle up instead.
	Forces        []ForceMap `json:"forces,omitempty"`
	RefereeForces bool       `json:"referee_forces,omitempty"`
	// Results map the battle's outcome to the assault's result, the first
	// that matches; RefereeResult: the referee rules it.
	Results       []BattleResult `json:"results,omitempty"`
	RefereeResult bool           `json:"referee_result,omitempty"`
	Line          int            `json:"-"`
}

// SideMap is a GCACW side and the tactical side it plays.
type SideMap struct {
	Side     string `json:"side"`
	Tactical string `json:"tactical"`
}

// ForceMap is a GCACW unit and the tactical force it fights as.
type ForceMap struct {
	Unit  string `json:"unit"`
	Force string `json:"force"`
}

// BattleResult is one line of a battle's result table.
type BattleResult struct {
	Winner       string `json:"winner"` // attacker, defender or draw
	AttackerLost *Span  `json:"attacker_lost,omitempty"`
	DefenderLost *Span  `json:"defender_lost,omitempty"`
	Routed       string `json:"routed,omitempty"` // attacker, defender or ""
	Result       string `json:"result"`
	Line         int    `json:"-"`
}

// BattleOutcome is how a battle ended, as the campaign reads it: the
// winner in the campaign's own terms and each side's losses as the
// tactical game counted them.
type BattleOutcome struct {
	Winner       string // attacker, defender or draw
	AttackerLost int
	DefenderLost int
	Routed       string // attacker, defender or ""
}

// Battle winners.
const (
	WinAttacker = "attacker"
	WinDefender = "defender"
	WinDraw     = "draw"
)

// matches reports whether the outcome o meets the line's conditions.
func (r BattleResult) matches(o BattleOutcome) bool {
	switch {
	case r.Winner != o.Winner,
		r.AttackerLost != nil && !r.AttackerLost.has(o.AttackerLost),
		r.DefenderLost != nil && !r.DefenderLost.has(o.DefenderLost),
		r.Routed != "" && r.Routed != o.Routed:
		return false
	}
	return true
}

// Result maps the outcome o through the battle's result table: the
// assault's result in the [combat] notation, or "" when the referee
// rules it (the table says so, or no line matches).
func (b *Battle) Result(o BattleOutcome) string {
	if b.RefereeResult {
		return ""
	}
	for _, r := range b.Results {
		if r.matches(o) {
			return r.Result
		}
	}
	return ""
}

// TacticalSide is the tactical side a GCACW side plays in the battle.
func (b *Battle) TacticalSide(side string) string {
	for _, s := range b.Sides {
		if s.Side == side {
			return s.Tactical
		}
	}
	return ""
}

// BattleFor is the [battles] entry for an assault on hex at: the one
// naming at, else the default, else nil (the assault is resolved by the
// [combat] table or the referee, as before).
func (s *ScenarioDef) BattleFor(at hex.Hex) *Battle {
	var def *Battle
	for i := range s.Battles {
		b := &s.Battles[i]
		switch {
		case b.At != nil && *b.At == at:
			return b
		case b.At == nil:
			def = b
		}
	}
	return def
}

// battleSystems are the tactical rule systems a battle may be fought in
// (their registered names: the runtime checks the scenario exists when it
// opens the battle).
var battleSystems = []string{"gbacw", "gmb", "hra"}

const battleForm = `battle <hex>|default <system> <scenario> USA=<tactical side> CSA=<tactical side>`

// parseBattles reads the [battles] section; units and leaders are read
// already, so a force line can name its unit.
func (p *scnParser) parseBattles(lines []srcLine) {
	s := p.s
	var cur *Battle
	forcesSeen := map[string]int{}
	for _, l := range lines {
		key := strings.ToLower(l.Toks[0].Text)
		if key != "battle" && cur == nil {
			p.errf(l, "%s comes before any battle line (%s)", key, battleForm)
			continue
		}
		switch key {
		case "battle":
			b, err := p.battleLine(l)
			if err != nil {
				p.errs = append(p.errs, err)
				cur = &Battle{} // the lines that follow belong to the bad entry
				continue
			}
			for _, o := range s.Battles {
				if o.At == nil && b.At == nil || o.At != nil && b.At != nil && *o.At == *b.At {
					p.errf(l, "the battle for %s is given twice (first at line %d)", where(b.At), o.Line)
				}
			}
			s.Battles = append(s.Battles, b)
			cur = &s.Battles[len(s.Battles)-1]
			forcesSeen = map[string]int{}
		case "forces":
			if len(l.Toks) != 2 || !strings.EqualFold(l.Toks[1].Text, "referee") {
				p.errf(l, `write "forces referee" (the referee sets the battle up), or one "force <unit> <tactical force>" line per unit`)
				continue
			}
			if len(cur.Forces) > 0 {
				p.errf(l, "this battle maps its forces already: forces referee or force lines, not both")
				continue
			}
			cur.RefereeForces = true
		case "force":
			if len(l.Toks) != 3 || l.Toks[2].Text == "" {
				p.errf(l, `write "force <GCACW unit> <tactical force>", e.g. force ORNE "Hale's Brigade"`)
				continue
			}
			if cur.RefereeForces {
				p.errf(l, "this battle says forces referee: the referee sets it up")
				continue
			}
			id := strings.ToUpper(l.Toks[1].Text)
			if !slices.ContainsFunc(s.Units, func(u Unit) bool { return u.ID == id }) {
				p.errf(l, "%s is not a unit of this scenario", l.Toks[1].Text)
				continue
			}
			if prev, dup := forcesSeen[id]; dup {
				p.errf(l, "%s is mapped twice (first at line %d)", id, prev)
				continue
			}
			forcesSeen[id] = l.No
			cur.Forces = append(cur.Forces, ForceMap{Unit: id, Force: l.Toks[2].Text})
		case "result":
			if len(l.Toks) == 2 && strings.EqualFold(l.Toks[1].Text, "referee") {
				if len(cur.Results) > 0 {
					p.errf(l, "this battle has a result table already: result referee or result lines, not both")
					continue
				}
				cur.RefereeResult = true
				continue
			}
			if cur.RefereeResult {
				p.errf(l, "this battle says result referee: the referee rules its result")
				continue
			}
			r, err := battleResultLine(l)
			if err != nil {
				p.errs = append(p.errs, err)
				continue
			}
			cur.Results = append(cur.Results, r)
		default:
			p.errf(l, "unknown [battles] line %q (battle, force, forces referee, result)", l.Toks[0].Text)
		}
	}
	for _, b := range s.Battles {
		if b.System == "" {
			continue
		}
		if len(b.Forces) == 0 && !b.RefereeForces {
			p.errs = append(p.errs, fmt.Errorf("%s line %d: the battle for %s says neither how the units map to the tactical forces (force lines) nor forces referee", p.file, b.Line, where(b.At)))
		}
		if len(b.Results) == 0 && !b.RefereeResult {
			p.errs = append(p.errs, fmt.Errorf("%s line %d: the battle for %s has no result lines and no result referee", p.file, b.Line, where(b.At)))
		}
	}
}

// where names a battle entry's hex, or "any other hex" for the default.
func where(at *hex.Hex) string {
	if at == nil {
		return "any other hex (default)"
	}
	return at.String()
}

// battleLine reads "battle <hex>|default <system> <scenario> USA=… CSA=…".
func (p *scnParser) battleLine(l srcLine) (Battle, error) {
	b := Battle{Line: l.No}
	kv, words, bad := keyVals(l.Toks[1:])
	if bad != "" {
		return b, l.errf("%s (%s)", bad, battleForm)
	}
	if len(words) != 3 {
		return b, l.errf("write %s", battleForm)
	}
	if !strings.EqualFold(words[0].Text, "default") {
		h, err := hex.Parse(words[0].Text)
		if err != nil || !p.s.Map.OnMap(h) {
			return b, l.errf("%q is not a hex of the map, nor default", words[0].Text)
		}
		b.At = &h
	}
	b.System = strings.ToLower(words[1].Text)
	if !slices.Contains(battleSystems, b.System) {
		return b, l.errf("%q is not a tactical rule system (%s)", words[1].Text, strings.Join(battleSystems, ", "))
	}
	b.Scenario = words[2].Text
	for _, side := range []string{USA, CSA} {
		t, ok := kv[strings.ToLower(side)]
		if !ok || t.Text == "" {
			return b, l.errf("say which tactical side %s plays: %s=<side of %s>", side, side, b.Scenario)
		}
		b.Sides = append(b.Sides, SideMap{Side: side, Tactical: t.Text})
	}
	if len(kv) != 2 {
		return b, l.errf("the only keys of a battle line are USA= and CSA=")
	}
	if strings.EqualFold(b.Sides[0].Tactical, b.Sides[1].Tactical) {
		return b, l.errf("USA and CSA play the same tactical side %s", b.Sides[0].Tactical)
	}
	return b, nil
}

// battleResultLine reads "result winner=… [attacker-lost=a-b]
// [defender-lost=a-b] [routed=attacker|defender] <result>".
func battleResultLine(l srcLine) (BattleResult, error) {
	r := BattleResult{Line: l.No}
	kv, words, err := lineKV(l, "winner", "attacker-lost", "defender-lost", "routed")
	if err != nil {
		return r, err
	}
	const form = "result winner=attacker|defender|draw [attacker-lost=0-2] [defender-lost=3-99] [routed=attacker|defender] <result, e.g. D1/Dr>"
	r.Winner = strings.ToLower(kv["winner"])
	if !slices.Contains([]string{WinAttacker, WinDefender, WinDraw}, r.Winner) {
		return r, l.errf("winner= is attacker, defender or draw: %s", form)
	}
	for _, k := range []struct {
		key string
		dst **Span
	}{{"attacker-lost", &r.AttackerLost}, {"defender-lost", &r.DefenderLost}} {
		key, dst := k.key, k.dst
		if v, ok := kv[key]; ok {
			sp, err := span(v, 0, 9999)
			if err != nil {
				return r, l.errf("%s: %v", key, err)
			}
			*dst = &sp
		}
	}
	if v, ok := kv["routed"]; ok {
		r.Routed = strings.ToLower(v)
		if r.Routed != WinAttacker && r.Routed != WinDefender {
			return r, l.errf("routed= is attacker or defender: %s", form)
		}
	}
	if len(words) != 1 {
		return r, l.errf("give one result: %s", form)
	}
	r.Result = words[0].Text
	for _, part := range strings.Split(r.Result, "/") {
		if !combatPart(part) {
			return r, l.errf("%q is not a result: write NE, A1, D2, Ad, Dd or Dr, joined by / (as in the [combat] table)", r.Result)
		}
	}
	return r, nil
}

// describe writes a battle entry for the players' lists of house rules.
func (b *Battle) describe() string {
	var sides []string
	for _, s := range b.Sides {
		sides = append(sides, s.Side+" as "+s.Tactical)
	}
	s := fmt.Sprintf("an assault on %s is fought out as a battle of %s, scenario %s (%s)", where(b.At), systemTitle(b.System), b.Scenario, strings.Join(sides, ", "))
	if b.RefereeForces {
		s += "; the referee sets the forces up"
	} else {
		s += "; forces by the scenario's mapping (SAMPLE)"
	}
	if b.RefereeResult {
		return s + "; the referee rules its result"
	}
	return s + "; its result by the scenario's battle table (SAMPLE), else the referee"
}

// systemTitle is a tactical system's name as players read it.
func systemTitle(sys string) string {
	switch sys {
	case "gbacw":
		return "Great Battles of the American Civil War"
	case "hra":
		return "Hair Roller Armies"
	case "gmb":
		return "GM Board Games"
	}
	return sys
}
