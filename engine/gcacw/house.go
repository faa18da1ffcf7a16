package gcacw

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pbem/engine/hex"
)

// House rules: where the rules hand a step to a referee because the seed
// stops (the Reorganization Phase, R14; Cavalry Retreat, R9; victory,
// R24; a leader whose unit is gone, 2.2j), a scenario may give the step
// as data instead, and then no referee is needed for it. These are house
// rules, not the published game's: the sample files that carry them say
// so (SAMPLE), and RefereeSteps lists every step a scenario leaves to a
// referee, so that a game without one is refused at creation.

// HouseRules are the [house-rules] lines.
type HouseRules struct {
	// Retreat is how cavalry retreats before a marching enemy (R9).
	Retreat *RetreatRule `json:"retreat,omitempty"`
	// LeaderAlone is what happens to a leader whose unit is eliminated
	// (2.2j): "nearest", it joins the nearest unit it may stand with, or
	// leaves play if there is none.
	LeaderAlone string `json:"leader_alone,omitempty"`
}

// RetreatRule is a Cavalry Retreat procedure (R9, standing in for the
// full rules' 7.7): the retreating unit moves up to Hexes hexes, each
// farther from the marching unit than the one before, never into an
// enemy unit, enemy ZOC, water, off the map or across a hexside the
// Terrain Effects Chart prohibits to cavalry; its fatigue rises by
// Fatigue (at most to 4).
type RetreatRule struct {
	Hexes   int `json:"hexes"`
	Fatigue int `json:"fatigue,omitempty"`
}

// ReorgTable is a Reorganization Phase procedure (R14), applied to every
// unit on the map in turn: fatigue recovery, then the counter's side,
// then a reorganization roll for a disorganized unit.
type ReorgTable struct {
	Marched int       `json:"marched"` // fatigue recovered by a unit that marched this turn
	Rested  int       `json:"rested"`  // by one that did not
	Exhaust *Span     `json:"exhaust,omitempty"`
	Rest    *Span     `json:"rest,omitempty"`
	Rolls   []OrgRoll `json:"rolls,omitempty"`
}

// Span is a range of numbers, Lo to Hi.
type Span struct {
	Lo int `json:"lo"`
	Hi int `json:"hi"`
}

func (s Span) has(n int) bool { return s.Lo <= n && n <= s.Hi }

func (s Span) String() string {
	if s.Lo == s.Hi {
		return strconv.Itoa(s.Lo)
	}
	return fmt.Sprintf("%d-%d", s.Lo, s.Hi)
}

// OrgRoll is one row of the reorganization roll: a disorganized unit at a
// fatigue in Fatigue becomes organized on a die in On.
type OrgRoll struct {
	Fatigue Span `json:"fatigue"`
	On      Span `json:"on"`
}

// VictoryTable is a scenario's victory conditions (R24), counted after
// the last turn: each objective hex scores for the side with a unit in
// it (or, empty, for its owner), and each side scores one VP for every
// PerManpower Manpower its enemy has lost. The side ahead by Margin or
// more wins; otherwise the game is a draw.
//
// With Referee set ("decide referee", the line Refereed adds) the
// conditions are the scenario's statement of what the referee weighs: the
// referee decides the result at the end (R24), the boards show the
// conditions' state and pbem counts nothing by itself.
type VictoryTable struct {
	Hexes       []VictoryHex `json:"hexes,omitempty"`
	PerManpower int          `json:"per_manpower,omitempty"`
	Margin      int          `json:"margin"`
	Referee     bool         `json:"referee,omitempty"`
}

// counts reports whether pbem counts the result by the table (a house
// rule), rather than the referee deciding it (R24).
func (v *VictoryTable) counts() bool { return v != nil && !v.Referee }

// VictoryHex is an objective.
type VictoryHex struct {
	Hex   hex.Hex `json:"hex"`
	VP    int     `json:"vp"`
	Owner string  `json:"owner"`
	Name  string  `json:"name,omitempty"`
	Line  int     `json:"-"`
}

// span reads "3" or "1-4" within lo..hi.
func span(s string, lo, hi int) (Span, error) {
	a, b, found := strings.Cut(s, "-")
	x, err1 := strconv.Atoi(a)
	y := x
	var err2 error
	if found {
		y, err2 = strconv.Atoi(b)
	}
	if err1 != nil || err2 != nil || x < lo || y > hi || x > y {
		return Span{}, fmt.Errorf("%q: want a number or a range from %d to %d (e.g. %d-%d)", s, lo, hi, lo, hi)
	}
	return Span{x, y}, nil
}

// lineKV reads a table line's key=value tokens and bare words.
func lineKV(l srcLine, keys ...string) (map[string]string, []token, error) {
	kv, words, bad := keyVals(l.Toks[1:])
	if bad != "" {
		return nil, nil, l.errf("%s", bad)
	}
	out := map[string]string{}
	for _, k := range sortedKeys(kv) {
		if !slices.Contains(keys, k) {
			return nil, nil, l.errf("unknown key %s= (keys: %s)", k, strings.Join(keys, ", "))
		}
		out[k] = kv[k].Text
	}
	return out, words, nil
}

func (t *Tables) parseHouse(lines []srcLine) []error {
	var errs []error
	h := &HouseRules{}
	seen := map[string]int{}
	for _, l := range lines {
		key := strings.ToLower(l.Toks[0].Text)
		if prev, dup := seen[key]; dup {
			errs = append(errs, l.errf("%s is given twice (first at line %d)", key, prev))
			continue
		}
		seen[key] = l.No
		switch key {
		case "cavalry-retreat":
			kv, words, err := lineKV(l, "hexes", "fatigue")
			if err == nil && len(words) > 0 {
				err = l.errf("%q: write cavalry-retreat hexes=2 [fatigue=1]", words[0].Text)
			}
			if err != nil {
				errs = append(errs, err)
				continue
			}
			r := &RetreatRule{}
			n, err1 := strconv.Atoi(kv["hexes"])
			f, err2 := strconv.Atoi(orZero(kv["fatigue"]))
			if err1 != nil || n < 1 || n > 6 || err2 != nil || f < 0 || f > 4 {
				errs = append(errs, l.errf("cavalry-retreat takes hexes=1 to 6 and fatigue=0 to 4, e.g. \"cavalry-retreat hexes=2 fatigue=0\" (R9)"))
				continue
			}
			r.Hexes, r.Fatigue = n, f
			h.Retreat = r
		case "leader-alone":
			if len(l.Toks) != 2 || !strings.EqualFold(l.Toks[1].Text, "nearest") {
				errs = append(errs, l.errf("write \"leader-alone nearest\": a leader whose unit is eliminated joins the nearest unit it may stand with (GCACW 2.2j)"))
				continue
			}
			h.LeaderAlone = "nearest"
		default:
			errs = append(errs, l.errf("unknown house rule %q (house rules: cavalry-retreat, leader-alone)", l.Toks[0].Text))
		}
	}
	t.House = h
	return errs
}

func orZero(s string) string {
	if s == "" {
		return "0"
	}
	return s
}

func (t *Tables) parseReorg(lines []srcLine) []error {
	var errs []error
	r := &ReorgTable{}
	haveFatigue := false
	for _, l := range lines {
		key := strings.ToLower(l.Toks[0].Text)
		switch key {
		case "fatigue":
			kv, words, err := lineKV(l, "marched", "rested")
			if err == nil && (len(words) > 0 || len(kv) != 2) {
				err = l.errf("write \"fatigue marched=1 rested=2\": the fatigue a unit recovers if it marched this turn, and if it did not")
			}
			if err != nil {
				errs = append(errs, err)
				continue
			}
			a, err1 := strconv.Atoi(kv["marched"])
			b, err2 := strconv.Atoi(kv["rested"])
			if err1 != nil || err2 != nil || a < 0 || a > 4 || b < 0 || b > 4 {
				errs = append(errs, l.errf("fatigue recovery is 0 to 4 levels"))
				continue
			}
			if haveFatigue {
				errs = append(errs, l.errf("the fatigue line is given twice"))
				continue
			}
			r.Marched, r.Rested, haveFatigue = a, b, true
		case "exhaust", "rest":
			kv, words, err := lineKV(l, "fatigue")
			if err == nil && (len(words) > 0 || kv["fatigue"] == "") {
				err = l.errf("write \"%s fatigue=3-4\"", key)
			}
			if err != nil {
				errs = append(errs, err)
				continue
			}
			sp, err := span(kv["fatigue"], 0, 4)
			if err != nil {
				errs = append(errs, l.errf("fatigue=%v", err))
				continue
			}
			if key == "exhaust" {
				r.Exhaust = &sp
			} else {
				r.Rest = &sp
			}
		case "organize":
			kv, words, err := lineKV(l, "fatigue", "on")
			if err == nil && (len(words) > 0 || len(kv) != 2) {
				err = l.errf("write \"organize fatigue=0-1 on=1-5\": a disorganized unit at that fatigue is organized on those die rolls")
			}
			if err != nil {
				errs = append(errs, err)
				continue
			}
			f, err1 := span(kv["fatigue"], 0, 4)
			on, err2 := span(kv["on"], 1, 6)
			if err1 != nil || err2 != nil {
				errs = append(errs, l.errf("organize: fatigue= is 0 to 4 and on= 1 to 6 (e.g. fatigue=0-1 on=1-5)"))
				continue
			}
			for _, o := range r.Rolls {
				if o.Fatigue.Lo <= f.Hi && f.Lo <= o.Fatigue.Hi {
					errs = append(errs, l.errf("organize fatigue=%s overlaps fatigue=%s", f, o.Fatigue))
				}
			}
			r.Rolls = append(r.Rolls, OrgRoll{Fatigue: f, On: on})
		default:
			errs = append(errs, l.errf("unknown reorganization line %q (lines: fatigue, exhaust, rest, organize)", l.Toks[0].Text))
		}
	}
	if !haveFatigue && len(errs) == 0 {
		errs = append(errs, fmt.Errorf("the [reorganization] table needs a fatigue line, e.g. \"fatigue marched=1 rested=2\""))
	}
	t.Reorg = r
	return errs
}

func (t *Tables) parseVictory(lines []srcLine) []error {
	var errs []error
	v := &VictoryTable{Margin: 1}
	seen := map[hex.Hex]int{}
	for _, l := range lines {
		key := strings.ToLower(l.Toks[0].Text)
		switch key {
		case "hex":
			if len(l.Toks) < 3 {
				errs = append(errs, l.errf("write \"hex 1007 vp=3 owner=USA \\\"Ashford\\\"\""))
				continue
			}
			h, err := hex.Parse(l.Toks[1].Text)
			if err != nil {
				errs = append(errs, l.errf("%v", err))
				continue
			}
			vh := VictoryHex{Hex: h, Line: l.No}
			rest := l
			rest.Toks = l.Toks[1:]
			kv, words, err := lineKV(rest, "vp", "owner")
			if err != nil {
				errs = append(errs, err)
				continue
			}
			for _, w := range words {
				if !w.Quoted {
					err = l.errf("hex %s: %q is not vp=, owner= or a \"name\"", h, w.Text)
				}
				vh.Name = w.Text
			}
			if err != nil {
				errs = append(errs, err)
				continue
			}
			n, err := strconv.Atoi(kv["vp"])
			vh.Owner = strings.ToUpper(kv["owner"])
			if err != nil || n < 1 || n > 99 || vh.Owner != USA && vh.Owner != CSA {
				errs = append(errs, l.errf("hex %s: give vp=1 to 99 and owner=USA or owner=CSA (the side that holds it while no unit is in it)", h))
				continue
			}
			vh.VP = n
			if prev, dup := seen[h]; dup {
				errs = append(errs, l.errf("hex %s is an objective twice (first at line %d)", h, prev))
				continue
			}
			seen[h] = l.No
			v.Hexes = append(v.Hexes, vh)
		case "manpower":
			kv, words, err := lineKV(l, "per")
			n, err2 := strconv.Atoi(kv["per"])
			if err != nil || len(words) > 0 || err2 != nil || n < 1 || n > 99 {
				errs = append(errs, l.errf("write \"manpower per=2\": one VP for every 2 Manpower the enemy lost"))
				continue
			}
			v.PerManpower = n
		case "decide":
			if len(l.Toks) != 2 || !strings.EqualFold(l.Toks[1].Text, "referee") {
				errs = append(errs, l.errf("write \"decide referee\": the referee decides the result at the end, weighing these conditions (or leave the line out: pbem counts them)"))
				continue
			}
			v.Referee = true
		case "margin":
			n, err := strconv.Atoi(l.Toks[len(l.Toks)-1].Text)
			if len(l.Toks) != 2 || err != nil || n < 1 || n > 99 {
				errs = append(errs, l.errf("write \"margin 2\": the VP lead that wins (less is a draw)"))
				continue
			}
			v.Margin = n
		default:
			errs = append(errs, l.errf("unknown victory line %q (lines: hex, manpower, margin, decide)", l.Toks[0].Text))
		}
	}
	if len(v.Hexes) == 0 && v.PerManpower == 0 && len(errs) == 0 {
		errs = append(errs, fmt.Errorf("the [victory] table scores nothing: give objective hexes or a manpower line"))
	}
	t.Victory = v
	return errs
}

// reorganize plays the Reorganization Phase by the scenario's table (R14;
// GCACW 3, phase 4): for every unit on the map, in code order, fatigue
// recovery, then its counter's side, then a reorganization roll if it is
// disorganized. The turn then ends (GCACW 3, phase 5).
func (m sim) reorganize() {
	t := m.State.Scn.Tables.Reorg
	const by = "reorganization (R14, house rule)"
	for _, u := range m.State.live() {
		rec := t.Rested
		if u.MarchedTurn {
			rec = t.Marched
		}
		if nf := max(u.Fatigue-rec, 0); nf != u.Fatigue {
			m.Emit(kUnitFatigueSet, aUnit.Arg(u.ID), aFatigue.Arg(int64(nf)), aBy.Arg(by))
		}
		u = m.State.unit(u.ID)
		switch {
		case t.Exhaust != nil && !u.Exhausted && t.Exhaust.has(u.Fatigue):
			m.Emit(kUnitExhausted, aUnit.Arg(u.ID), aBy.Arg(by))
		case t.Rest != nil && u.Exhausted && t.Rest.has(u.Fatigue):
			m.Emit(kUnitRested, aUnit.Arg(u.ID), aBy.Arg(by))
		}
		if !u.Disorganized {
			continue
		}
		for _, r := range t.Rolls {
			if !r.Fatigue.has(u.Fatigue) {
				continue
			}
			die := m.Dice.Roll("reorganization "+u.ID, 6)
			ok := r.On.has(die)
			m.Emit(kReorganizationRolled, aUnit.Arg(u.ID), aDie.Arg(int64(die)), aOn.Arg(r.On.String()), aOrganized.Arg(ok))
			if ok {
				m.Emit(kUnitOrganized, aUnit.Arg(u.ID), aReason.Arg("reorganization roll (R14, house rule)"))
			}
		}
	}
	m.endReorganization()
}

// endReorganization ends the Reorganization Phase and the turn (GCACW 3,
// phases 4 and 5); the next turn begins, if there is one.
func (m sim) endReorganization() {
	st := m.State
	m.Emit(kReorganizationEnded, aTurn.Arg(int64(st.Turn)))
	m.Emit(kTurnEnded, aTurn.Arg(int64(st.Turn)))
	if st.Turn < st.Scn.Turns {
		m.beginTurn(st.Turn + 1)
	}
}

// victory counts the scenario's victory points after the last turn (R24,
// house rule) and ends the game.
func (m sim) victory() {
	st := m.State
	v := st.Scn.Tables.Victory
	vp, detail := st.score()
	m.Emit(kVictoryCounted, aUsa.Arg(int64(vp[0])), aCsa.Arg(int64(vp[1])), aDetail.Arg(detail...))
	winner := ""
	switch {
	case vp[0]-vp[1] >= v.Margin:
		winner = USA
	case vp[1]-vp[0] >= v.Margin:
		winner = CSA
	}
	res := "a draw"
	if winner != "" {
		res = winner + " wins"
	}
	m.Emit(kGameEnded, aWinner.Arg(winner),
		aReason.Arg(fmt.Sprintf("victory points USA %d, CSA %d: %s by the scenario's victory conditions (a house rule; a lead of %d VP wins)", vp[0], vp[1], res, v.Margin)))
}

// score counts the scenario's victory points as they stand (the victory
// table, a house rule: R24), USA then CSA, with how each was counted.
func (st *State) score() ([2]int, []string) {
	v := st.Scn.Tables.Victory
	var vp [2]int
	var detail []string
	for _, vh := range v.Hexes {
		holder, how := vh.Owner, "empty, its owner's"
		if us := st.unitsAt(vh.Hex); len(us) > 0 {
			holder, how = us[0].Side, "held"
		}
		vp[sideIdx(holder)] += vh.VP
		name := vh.Hex.String()
		if vh.Name != "" {
			name += " " + vh.Name
		}
		detail = append(detail, fmt.Sprintf("%s: %d VP to %s (%s)", name, vh.VP, holder, how))
	}
	if v.PerManpower > 0 {
		lost := st.manpowerLost()
		for _, side := range Sides {
			enemy := lost[sideIdx(opponent(side))]
			n := enemy / v.PerManpower
			vp[sideIdx(side)] += n
			detail = append(detail, fmt.Sprintf("%s: %d VP for %d Manpower %s lost", side, n, enemy, opponent(side)))
		}
	}
	return vp, detail
}

// scoreLine is the board's line on victory: the points as they stand,
// or, where the referee decides (R24), the state of the conditions the
// referee will weigh.
func (st *State) scoreLine() string {
	v := st.Scn.Tables.Victory
	if v == nil {
		return fmt.Sprintf(" victory: the referee decides the result after turn %d (this scenario states no victory conditions)", st.Scn.Turns)
	}
	if v.Referee {
		return " victory: " + st.weighLine()
	}
	vp, _ := st.score()
	lead := "level"
	switch {
	case vp[0] > vp[1]:
		lead = fmt.Sprintf("USA leads by %d", vp[0]-vp[1])
	case vp[1] > vp[0]:
		lead = fmt.Sprintf("CSA leads by %d", vp[1]-vp[0])
	}
	return fmt.Sprintf(" victory points now: USA %d, CSA %d, %s; after turn %d a lead of %d VP wins", vp[0], vp[1], lead, st.Scn.Turns, v.Margin)
}

// weighLine is the state of the victory conditions the referee weighs
// (R24, "decide referee"): who holds each objective now, the Manpower
// each side has lost, and the points the conditions would give; the
// referee decides the result after the last turn.
func (st *State) weighLine() string {
	v := st.Scn.Tables.Victory
	var held []string
	for _, vh := range v.Hexes {
		name := vh.Hex.String()
		if vh.Name != "" {
			name = vh.Name + " " + name
		}
		how := "empty, " + vh.Owner + "'s"
		if us := st.unitsAt(vh.Hex); len(us) > 0 {
			how = us[0].Side + " holds it"
		}
		held = append(held, fmt.Sprintf("%s %d VP (%s)", name, vh.VP, how))
	}
	out := fmt.Sprintf("the referee decides the result after turn %d, weighing the scenario's conditions", st.Scn.Turns)
	if len(held) > 0 {
		out += ": " + strings.Join(held, ", ")
	}
	lost := st.manpowerLost()
	vp, _ := st.score()
	return out + fmt.Sprintf("; Manpower lost USA %d, CSA %d; their count now USA %d VP, CSA %d VP, a lead of %d wins", lost[0], lost[1], vp[0], vp[1], v.Margin)
}

// manpowerLost is the Manpower each side has lost since the start, USA
// then CSA.
func (st *State) manpowerLost() [2]int {
	var lost [2]int
	for _, u0 := range st.Scn.Units {
		if u := st.unit(u0.ID); u != nil {
			lost[sideIdx(u.Side)] += max(u0.Manpower-u.Manpower, 0)
		}
	}
	return lost
}

// placeAloneLeaders moves every leader whose unit is gone to the nearest
// unit it may stand with (GCACW 2.2j: a leader never stands alone; house
// rule leader-alone nearest): nearest to where its unit was, then by code.
// A leader with no such unit left leaves play.
func (m sim) placeAloneLeaders() {
	for _, l := range m.State.Leaders {
		if l.Removed {
			continue
		}
		gone := m.State.unit(l.With)
		if gone != nil && !gone.Eliminated {
			continue
		}
		var best *Unit
		bd := 0
		for _, u := range m.State.live() {
			if m.State.transferWhy(l, u, true) != "" {
				continue
			}
			d := 0
			if gone != nil {
				d = hex.Distance(gone.Hex, u.Hex)
			}
			if best == nil || d < bd {
				best, bd = u, d
			}
		}
		if best == nil {
			m.Emit(kLeaderRemoved, aLeader.Arg(l.ID), aReason.Arg("no unit it may stand with is left (GCACW 2.2j, house rule)"))
			continue
		}
		m.Emit(kLeaderTransferred, aLeader.Arg(l.ID), aFrom.Arg(l.With), aTo.Arg(best.ID),
			aBy.Arg("house rule: the nearest unit it may stand with (GCACW 2.2j)"))
	}
}
