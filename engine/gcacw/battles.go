package gcacw

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pbem/engine"
	"pbem/engine/hex"
	"pbem/events"
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
	// Strength is how a mapped force's strength follows its unit's:
	// StrengthShare (the default, SAMPLE) or StrengthFull.
	Strength string `json:"strength,omitempty"`
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
	Line  int    `json:"-"`
}

// How a mapped force's strength follows its GCACW unit's (the [battles]
// line "strength share|full"; SAMPLE: the seeds give no conversion).
const (
	// StrengthShare: the force fights with its unit's share left of the
	// Manpower it started the scenario with, applied to the tactical
	// system's own measure (GBACW strength points, HRA state, GMB units),
	// rounded up. The default.
	StrengthShare = "share"
	// StrengthFull: the force fights as the tactical scenario writes it,
	// whatever its unit has lost.
	StrengthFull = "full"
)

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
			cur.Forces = append(cur.Forces, ForceMap{Unit: id, Force: l.Toks[2].Text, Line: l.No})
		case "strength":
			v := ""
			if len(l.Toks) == 2 {
				v = strings.ToLower(l.Toks[1].Text)
			}
			if v != StrengthShare && v != StrengthFull {
				p.errf(l, `write "strength share" (a force fights with its unit's share left of its starting Manpower) or "strength full" (as the tactical scenario writes it)`)
				continue
			}
			cur.Strength = v
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
			p.errf(l, "unknown [battles] line %q (battle, force, forces referee, strength, result)", l.Toks[0].Text)
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
		s += "; forces by the scenario's mapping (SAMPLE): only those whose units are in the assault fight"
		if b.Strength == StrengthFull {
			s += ", each as the tactical scenario writes it"
		} else {
			s += ", each with its unit's share left of its starting Manpower"
		}
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

// StepBattle is an assault being fought out as a battle: the campaign
// waits on it, and on nothing else, until the battle's result comes back
// (RULE BATTLE, which the server sends when the battle ends).
const StepBattle = "battle"

// Battle fact kinds.
const (
	kBattleOpened = "battle.opened"
	kBattleEnded  = "battle.ended"
)

var (
	aKey      = factSet.Str("key")
	aSystem   = factSet.Str("system")
	aScenario = factSet.Str("scenario")
	aSides    = factSet.Strs("sides")
	aGame     = factSet.Str("game")
	aHash     = factSet.Str("hash")
	aAttLost  = factSet.Int("attacker_lost")
	aDefLost  = factSet.Int("defender_lost")
	aRouted   = factSet.Str("routed")
	aMuster   = factSet.Strs("muster")
	aForcesBy = factSet.Str("forces")
)

// Who sets a battle's forces up (the battle.opened fact's "forces").
const (
	forcesCampaign = "campaign" // the scenario's mapping, from the units in the assault
	forcesReferee  = "referee"  // the referee, by mail, before the battle starts
)

var _ = []string{
	factSet.Kind(kBattleOpened, aKey, aHex, aSide, aUnits, aSystem, aScenario, aSides, engine.Opt(aLeader), engine.Opt(aForcesBy), engine.Opt(aMuster)),
	factSet.Kind(kBattleEnded, aKey, aGame, aHash, aWinner, aAttLost, aDefLost, engine.Opt(aRouted), engine.Opt(aResult)),
}

// FoughtOut is the battle an assault waits on (Pending.Battle).
type FoughtOut struct {
	Key      string   `json:"key"`
	System   string   `json:"system"`
	Scenario string   `json:"scenario"`
	Side     string   `json:"side"`  // the attacker
	Sides    []string `json:"sides"` // "USA=USA", "CSA=CSA"
	// Forces says who sets the battle's forces up (forcesCampaign or
	// forcesReferee; "" in a state from before it was recorded: the
	// referee), and Muster the forces the mapping gives, as the fact has
	// them ("<tactical side>|<force>|<Manpower now>|<at start>|<unit>").
	Forces string   `json:"forces,omitempty"`
	Muster []string `json:"muster,omitempty"`
}

// muster is the forces the scenario's mapping sets a battle of system's
// scenario up with, for an attack by side's units ids on at: each mapped
// unit in the assault (the attackers and the defenders in at), in the
// mapping's order, with its Manpower now and at the scenario's start; by
// is forcesReferee when the scenario has the referee set it up (or has no
// mapping for this system and scenario: a battle the referee ordered).
func (st *State) muster(side string, ids []string, at hex.Hex, system, scenario string) (by string, lines []string) {
	b := st.Scn.BattleFor(at)
	if b == nil || b.System != system || b.Scenario != scenario || b.RefereeForces || len(b.Forces) == 0 {
		return forcesReferee, nil
	}
	in := map[string]bool{}
	for _, id := range ids {
		in[id] = true
	}
	for _, u := range st.unitsAt(at) {
		if u.Side != side {
			in[u.ID] = true
		}
	}
	for _, f := range b.Forces {
		u := st.unit(f.Unit)
		if u == nil || !in[u.ID] || u.Eliminated || u.Manpower <= 0 {
			continue
		}
		start := u.Manpower
		for _, su := range st.Scn.Units {
			if su.ID == u.ID {
				start = su.Manpower
			}
		}
		now := u.Manpower
		if b.Strength == StrengthFull || start <= 0 {
			now, start = max(start, 1), max(start, 1)
		}
		lines = append(lines, strings.Join([]string{b.TacticalSide(u.Side), f.Force, strconv.Itoa(now), strconv.Itoa(start), u.Name}, "|"))
	}
	return forcesCampaign, lines
}

// musterForces reads the muster lines of a FoughtOut.
func musterForces(lines []string) []engine.BattleForce {
	var out []engine.BattleForce
	for _, l := range lines {
		p := strings.SplitN(l, "|", 5)
		if len(p) != 5 {
			continue
		}
		now, _ := strconv.Atoi(p[2])
		start, _ := strconv.Atoi(p[3])
		out = append(out, engine.BattleForce{Side: p[0], Force: p[1], Present: now, Start: start, Unit: p[4]})
	}
	return out
}

// musterWords tells the forces in plain words: "Able (4 of 6 Manpower)
// as Hale's Brigade".
func musterWords(lines []string) []string {
	var out []string
	for _, f := range musterForces(lines) {
		w := fmt.Sprintf("%s (%d of %d Manpower) as %s", f.Unit, f.Present, f.Start, f.Force)
		if f.Present >= f.Start {
			w = fmt.Sprintf("%s (full strength) as %s", f.Unit, f.Force)
		}
		out = append(out, w)
	}
	return out
}

// battleKey names the battle of an assault on at in this Action Phase,
// unique in the campaign: "t2-a5-0711".
func (st *State) battleKey(at hex.Hex) string {
	return fmt.Sprintf("t%d-a%d-%s", st.Turn, st.Cycle.N, at)
}

// defaultTacticalSides are the sides of each tactical system's shipped
// scenarios, for a battle the referee orders with no side named.
var defaultTacticalSides = map[string][2]string{
	"gbacw": {"USA", "CSA"},
	"hra":   {"Union", "Confederate"},
	"gmb":   {"Union", "Confederate"},
}

// openBattle has an attack by side's units on at fought out as a battle
// of system's scenario: the campaign waits on it (StepBattle).
func (m sim) openBattle(side string, ids []string, at hex.Hex, leader, system, scenario string, sides []SideMap) {
	var ss []string
	for _, s := range sides {
		ss = append(ss, s.Side+"="+s.Tactical)
	}
	args := []events.Arg{aKey.Arg(m.State.battleKey(at)), aHex.Arg(at.String()), aSide.Arg(side), aUnits.Arg(ids...),
		aSystem.Arg(system), aScenario.Arg(scenario), aSides.Arg(ss...)}
	if leader != "" {
		args = append(args, aLeader.Arg(leader))
	}
	by, lines := m.State.muster(side, ids, at, system, scenario)
	args = append(args, aForcesBy.Arg(by))
	if len(lines) > 0 {
		args = append(args, aMuster.Arg(lines...))
	}
	m.Emit(kBattleOpened, args...)
}

// battleEnded carries a battle's result back: the outcome as the campaign
// reads it, mapped through the scenario's table to the assault's result,
// or handed to the referee.
func (m sim) battleEnded(o Order) {
	st, r := m.State, o.Rule
	p := st.Pending
	at := hex.MustParse(p.Path[len(p.Path)-1])
	out := BattleOutcome{AttackerLost: r.Lost[0], DefenderLost: r.Lost[1]}
	if p.Battle.Side == CSA {
		out.AttackerLost, out.DefenderLost = r.Lost[1], r.Lost[0]
	}
	switch r.Result {
	case "DRAW":
		out.Winner = WinDraw
	case p.Battle.Side:
		out.Winner = WinAttacker
	default:
		out.Winner = WinDefender
	}
	switch r.Routed {
	case "":
	case p.Battle.Side:
		out.Routed = WinAttacker
	default:
		out.Routed = WinDefender
	}
	res := ""
	if b := st.Scn.BattleFor(at); b != nil && b.System == p.Battle.System && b.Scenario == p.Battle.Scenario {
		res = b.Result(out)
	}
	args := []events.Arg{aKey.Arg(p.Battle.Key), aGame.Arg(r.Game), aHash.Arg(r.Hash), aWinner.Arg(out.Winner),
		aAttLost.Arg(int64(out.AttackerLost)), aDefLost.Arg(int64(out.DefenderLost))}
	if out.Routed != "" {
		args = append(args, aRouted.Arg(out.Routed))
	}
	if res != "" {
		args = append(args, aResult.Arg(res))
	}
	side, ids := p.Battle.Side, p.attackers()
	m.Emit(kBattleEnded, args...)
	if res == "" {
		m.Emit(kRefereePending, aStep.Arg(StepAssault), aUnits.Arg(ids...), aPath.Arg(at.String()),
			aNote.Arg(fmt.Sprintf("the battle fought out for the assault on %s has ended (game %s: the %s won, attacker lost %d, defender lost %d); the scenario's table does not rule it: rule what it costs each side (RULE LOSS <unit> <n>, RULE DISORGANIZED <unit>, RULE RETREAT <unit> <hex>..., RULE FATIGUE <unit> <n>, RULE CASUALTY <leader>, RULE ADVANCE <unit> <hex>), then RULE DONE",
				at, r.Game, out.Winner, out.AttackerLost, out.DefenderLost)))
		return
	}
	m.applyCombat(side, ids, at, res, StepBattle)
}

// tellBattle tells the battle facts for the players' mails.
func tellBattle(s *State, f events.Fact) (string, bool) {
	switch f.Kind {
	case kBattleOpened:
		var sides []string
		for _, sd := range aSides.Of(f) {
			a, b, _ := strings.Cut(sd, "=")
			sides = append(sides, a+" as "+b)
		}
		t := fmt.Sprintf("The assault on %s by %s is fought out as a battle of %s, scenario %s (%s): a game of its own, battle %s. The campaign waits on it; its result comes back when it ends.",
			aHex.Of(f), s.unitNames(aUnits.Of(f)), systemTitle(aSystem.Of(f)), aScenario.Of(f), strings.Join(sides, ", "), aKey.Of(f))
		switch {
		case aForcesBy.Of(f) == forcesReferee:
			t += " The referee sets its forces up before it starts."
		case aForcesBy.Of(f) == forcesCampaign && len(aMuster.Of(f)) == 0:
			t += " None of the units in the assault is in the scenario's mapping: the battle is fought with its forces as written."
		case aForcesBy.Of(f) == forcesCampaign:
			t += " By the scenario's mapping (a house rule, SAMPLE) these fight, each with its share left of its starting Manpower: " + strings.Join(musterWords(aMuster.Of(f)), "; ") + "; the tactical forces of no unit in the assault stay out."
		}
		return t, true
	case kBattleEnded:
		t := fmt.Sprintf("Battle %s (game %s) has ended: the %s won; the attacker lost %d, the defender %d", aKey.Of(f), aGame.Of(f), aWinner.Of(f), aAttLost.Of(f), aDefLost.Of(f))
		if r := aRouted.Of(f); r != "" {
			t += "; the " + r + "'s units routed or retreated"
		}
		if res := aResult.Of(f); res != "" {
			return t + ". By the scenario's battle table (a house rule) the assault's result is: " + resultWords(res) + ".", true
		}
		return t + ". The referee rules what it costs each side.", true
	}
	return "", false
}

// echoBattle is the echo line of a battle fact.
func echoBattle(f events.Fact) (string, bool) {
	switch f.Kind {
	case kBattleOpened:
		return fmt.Sprintf("The assault on %s is fought out in %s %s as battle %s.", aHex.Of(f), aSystem.Of(f), aScenario.Of(f), aKey.Of(f)), true
	case kBattleEnded:
		s := fmt.Sprintf("Battle %s ended (game %s, final hash %s): %s won, attacker lost %d, defender lost %d", aKey.Of(f), aGame.Of(f), aHash.Of(f), aWinner.Of(f), aAttLost.Of(f), aDefLost.Of(f))
		if res := aResult.Of(f); res != "" {
			s += ": " + res
		}
		return s + ".", true
	}
	return "", false
}

const (
	fightForm        = "RULE FIGHT OUT <hex> IN <gbacw|hra|gmb> <scenario> [USA=<tactical side> CSA=<tactical side>]"
	battleResultForm = "RULE BATTLE <battle> GAME <game> HASH <final hash> WINNER USA|CSA|DRAW LOST <USA's losses> <CSA's losses> [ROUTED USA|CSA]"
)

// fightOut reads RULE FIGHT OUT <hex> IN <system> <scenario> [USA=… CSA=…].
func (p *parser) fightOut(o Order, r *Rule) bool {
	word := func(w string, min int) bool {
		t, more := p.next()
		if !more || !isWord(t, w, min) {
			if !more {
				t = p.endTok()
			}
			p.problem(t, "write "+fightForm, fightForm)
			return false
		}
		return true
	}
	if !word("OUT", 3) {
		return false
	}
	t, more := p.next()
	if !more {
		p.problem(p.endTok(), "name the hex of the assault", fightForm)
		return false
	}
	h, ok := p.parseHex(t)
	if !ok {
		return false
	}
	r.Hexes = []hex.Hex{h}
	if !word("IN", 2) {
		return false
	}
	t, more = p.next()
	sys := strings.ToLower(t.Text)
	if !more || !slices.Contains(battleSystems, sys) {
		if !more {
			t = p.endTok()
		}
		p.problem(t, fmt.Sprintf("the tactical systems are %s", strings.Join(battleSystems, ", ")), fightForm)
		return false
	}
	r.System = sys
	t, more = p.next()
	if !more {
		p.problem(p.endTok(), "name the tactical scenario", fightForm)
		return false
	}
	r.Scenario = t.Text
	var rest []token
	for {
		n, more := p.next()
		if !more {
			break
		}
		rest = append(rest, n.token)
	}
	kv, words, bad := keyVals(rest)
	if bad != "" || len(words) > 0 || len(kv) == 1 || len(kv) > 2 {
		p.problem(p.endTok(), "after the scenario, name both sides or neither: USA=<tactical side> CSA=<tactical side>", fightForm)
		return false
	}
	def := defaultTacticalSides[sys]
	for i, side := range []string{USA, CSA} {
		tac := def[i]
		if t, ok := kv[strings.ToLower(side)]; ok {
			tac = t.Text
		}
		r.Sides = append(r.Sides, SideMap{Side: side, Tactical: tac})
	}
	return true
}

// battleResult reads RULE BATTLE <battle> GAME <game> HASH <hash> WINNER
// USA|CSA|DRAW LOST <n> <n> [ROUTED USA|CSA].
func (p *parser) battleResult(r *Rule) bool {
	fail := func(t ptok, msg string) bool {
		p.problem(t, msg, battleResultForm)
		return false
	}
	t, more := p.next()
	if !more {
		return fail(p.endTok(), "name the battle")
	}
	r.Note = strings.ToLower(t.Text)
	for {
		t, more := p.next()
		if !more {
			break
		}
		val := func() (ptok, bool) {
			v, more := p.next()
			if !more {
				return p.endTok(), false
			}
			return v, true
		}
		switch strings.ToUpper(t.Text) {
		case "GAME":
			v, ok := val()
			if !ok {
				return fail(v, "GAME takes the battle's game id")
			}
			r.Game = strings.ToLower(v.Text)
		case "HASH":
			v, ok := val()
			if !ok || len(v.Text) != 64 || strings.Trim(strings.ToLower(v.Text), "0123456789abcdef") != "" {
				return fail(v, "HASH takes the battle's final hash, 64 hexadecimal digits")
			}
			r.Hash = strings.ToLower(v.Text)
		case "WINNER":
			v, ok := val()
			w := strings.ToUpper(v.Text)
			if !ok || w != USA && w != CSA && w != "DRAW" {
				return fail(v, "WINNER is USA, CSA or DRAW")
			}
			r.Result = w
		case "LOST":
			for i := range 2 {
				v, ok := val()
				n, err := strconv.Atoi(v.Text)
				if !ok || err != nil || n < 0 {
					return fail(v, "LOST takes USA's losses, then CSA's, as the battle counted them")
				}
				r.Lost[i] = n
			}
		case "ROUTED":
			v, ok := val()
			w := strings.ToUpper(v.Text)
			if !ok || w != USA && w != CSA {
				return fail(v, "ROUTED is USA or CSA: whose units routed or retreated")
			}
			r.Routed = w
		default:
			return fail(t, fmt.Sprintf("%q: the parts are GAME, HASH, WINNER, LOST and ROUTED", t.Text))
		}
	}
	if r.Game == "" || r.Hash == "" || r.Result == "" {
		return fail(p.endTok(), "a battle's result names its GAME, its final HASH and its WINNER")
	}
	return true
}

// battlePlans are the battles of scenario's [battles] section
// (engine.BattlePlanner): each mapped force on the tactical side its
// unit's side plays, at full strength, so the runtime can check the
// mapping against the tactical scenario it names.
func battlePlans(scenario []byte) ([]engine.BattlePlan, error) {
	sc, err := ParseScenario(scenario)
	if err != nil {
		return nil, err
	}
	var out []engine.BattlePlan
	for _, b := range sc.Battles {
		p := engine.BattlePlan{Line: b.Line, What: "the battle for " + where(b.At), System: b.System, Scenario: b.Scenario}
		for _, sd := range b.Sides {
			p.Sides = append(p.Sides, engine.BattleSide{Side: sd.Side, Tactical: sd.Tactical})
		}
		for _, f := range b.Forces {
			i := slices.IndexFunc(sc.Units, func(u Unit) bool { return u.ID == f.Unit })
			if i < 0 {
				continue // refused by ParseScenario already
			}
			u := sc.Units[i]
			p.Forces = append(p.Forces, engine.PlannedForce{Line: f.Line, Unit: f.Unit,
				Force: engine.BattleForce{Side: b.TacticalSide(u.Side), Force: f.Force, Unit: u.Name, Present: 1, Start: 1}})
		}
		out = append(out, p)
	}
	return out, nil
}

// Battles are the battles the campaign waits on (engine.Linker): the
// assault being fought out, if any.
func battlesWaited(st *State) []engine.Battle {
	p := st.Pending
	if p == nil || p.Step != StepBattle || p.Battle == nil {
		return nil
	}
	at := p.Path[len(p.Path)-1]
	b := engine.Battle{Key: p.Battle.Key, What: "the assault on " + at, System: p.Battle.System, Scenario: p.Battle.Scenario}
	for _, sd := range p.Battle.Sides {
		side, tac, _ := strings.Cut(sd, "=")
		b.Sides = append(b.Sides, engine.BattleSide{Side: side, Tactical: tac})
	}
	switch p.Battle.Forces {
	case forcesCampaign:
		b.Muster = musterForces(p.Battle.Muster)
		b.Forces = musterWords(p.Battle.Muster)
	default:
		b.RefereeForces = true
	}
	return []engine.Battle{b}
}

// BattleResult is the RULE BATTLE that carries the end of battle b back
// (engine.Linker).
func battleResultOrder(b engine.Battle, end engine.BattleEnd) string {
	w := b.Campaign(end.Winner)
	if w == "" {
		w = "DRAW"
	}
	lost := func(side string) int {
		for _, s := range b.Sides {
			if s.Side == side {
				return end.Lost[s.Tactical]
			}
		}
		return 0
	}
	s := fmt.Sprintf("RULE BATTLE %s GAME %s HASH %s WINNER %s LOST %d %d", b.Key, end.Game, end.Final.Hex(), w, lost(USA), lost(CSA))
	if r := b.Campaign(end.Routed); r != "" {
		s += " ROUTED " + r
	}
	return s
}
