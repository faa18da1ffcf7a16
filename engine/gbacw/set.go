package gbacw

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pbem/engine/hex"
	"pbem/events"
)

// The referee's part: SET any field of the state (a correction, told to
// everyone as a fact naming the field and both values), RULE what a
// scenario's charts leave to the referee, and ANSWER a reaction asked of
// a side (when the side's deadline passed and the game's at-deadline
// policy is the referee's).

// field is one settable field: how to read its value and set it.
type field struct {
	kind string // int, bool, hex, facing, order, side
	get  func(s *State, target string) string
	set  func(s *State, target string, v string) error
}

func atoiField(v string) (int, error) { return strconv.Atoi(v) }

func boolField(v string) (bool, error) {
	switch strings.ToLower(v) {
	case "on", "yes", "true", "1":
		return true, nil
	case "off", "no", "false", "0":
		return false, nil
	}
	return false, fmt.Errorf("%q is not on or off", v)
}

func unitInt(get func(*Unit) *int) field {
	return field{kind: "int",
		get: func(s *State, t string) string { return strconv.Itoa(*get(s.unit(t))) },
		set: func(s *State, t, v string) error {
			n, err := atoiField(v)
			if err != nil {
				return err
			}
			*get(s.mutUnitNamed(t)) = n
			return nil
		}}
}

func unitBool(get func(*Unit) *bool) field {
	return field{kind: "bool",
		get: func(s *State, t string) string { return onOffText(*get(s.unit(t))) },
		set: func(s *State, t, v string) error {
			b, err := boolField(v)
			if err != nil {
				return err
			}
			*get(s.mutUnitNamed(t)) = b
			return nil
		}}
}

func onOffText(b bool) string { return yes(b, "on", "off") }

var unitFields = map[string]field{
	"hex": {kind: "hex",
		get: func(s *State, t string) string { return s.unit(t).Hex.String() },
		set: func(s *State, t, v string) error {
			h, err := hex.Parse(v)
			if err != nil {
				return err
			}
			u := s.mutUnitNamed(t)
			from := u.Hex
			u.Hex = h
			s.restackAt(from)
			s.restackAt(h)
			return nil
		}},
	"facing": {kind: "facing",
		get: func(s *State, t string) string { u := s.unit(t); return facingName(u.Facing, u.onSide()) },
		set: func(s *State, t, v string) error {
			u := s.mutUnitNamed(t)
			if vx, err := hex.ParseVertex(v); err == nil && !u.onSide() {
				u.Facing = int(vx)
				return nil
			}
			if d, err := hex.ParseDirection(v); err == nil && u.onSide() {
				u.Facing = int(d)
				return nil
			}
			return fmt.Errorf("%q: a vertex (NNE, E, SSE, SSW, W, NNW), or a side for a March column", v)
		}},
	"order": {kind: "order",
		get: func(s *State, t string) string { return s.unit(t).Order },
		set: func(s *State, t, v string) error {
			v = strings.ToLower(v)
			if !slices.Contains(orderNames, v) {
				return fmt.Errorf("%q is no order", v)
			}
			s.mutUnitNamed(t).Order = v
			return nil
		}},
	"sp":      unitInt(func(u *Unit) *int { return &u.SP }),
	"stack":   unitInt(func(u *Unit) *int { return &u.Stack }),
	"fatigue": unitInt(func(u *Unit) *int { return &u.Fatigue }),
	"skip":    unitInt(func(u *Unit) *int { return &u.Skip }),
	"works":   unitInt(func(u *Unit) *int { return &u.Works }),
	"mp": {kind: "MP",
		get: func(s *State, t string) string { return halfMP(s.unit(t).MP) },
		set: func(s *State, t, v string) error {
			n, err := atoiField(v)
			s.mutUnitNamed(t).MP = 2 * n
			return err
		}},
	"turn":       unitInt(func(u *Unit) *int { return &u.Turn }),
	"disordered": unitBool(func(u *Unit) *bool { return &u.Disordered }),
	"routed":     unitBool(func(u *Unit) *bool { return &u.Routed }),
	"removed":    unitBool(func(u *Unit) *bool { return &u.Removed }),
	"off":        unitBool(func(u *Unit) *bool { return &u.Off }),
	"mounted":    unitBool(func(u *Unit) *bool { return &u.Mounted }),
	"blown":      unitBool(func(u *Unit) *bool { return &u.Blown }),
	"extended":   unitBool(func(u *Unit) *bool { return &u.Extended }),
	"refused":    unitBool(func(u *Unit) *bool { return &u.Refused }),
	"ooc":        unitBool(func(u *Unit) *bool { return &u.OOC }),
	"moved":      unitBool(func(u *Unit) *bool { return &u.Moved }),
	"fired":      unitBool(func(u *Unit) *bool { return &u.Fired }),
	"shocked":    unitBool(func(u *Unit) *bool { return &u.Shocked }),
	"wm":         unitBool(func(u *Unit) *bool { return &u.WM }),
	"recover":    unitBool(func(u *Unit) *bool { return &u.Recover }),
	"build":      unitBool(func(u *Unit) *bool { return &u.Build }),
	"charged":    unitBool(func(u *Unit) *bool { return &u.Charged }),
	"switched":   unitBool(func(u *Unit) *bool { return &u.Switched }),
	"freeface":   unitBool(func(u *Unit) *bool { return &u.FreeFace }),
}

func leaderBool(get func(*Leader) *bool) field {
	return field{kind: "bool",
		get: func(s *State, t string) string { return onOffText(*get(s.leader(t))) },
		set: func(s *State, t, v string) error {
			b, err := boolField(v)
			if err != nil {
				return err
			}
			*get(s.leader(t)) = b
			return nil
		}}
}

var leaderFields = map[string]field{
	"hex": {kind: "hex",
		get: func(s *State, t string) string { return s.leader(t).Hex.String() },
		set: func(s *State, t, v string) error {
			h, err := hex.Parse(v)
			if err != nil {
				return err
			}
			s.leader(t).Hex = h
			return nil
		}},
	"mp": {kind: "MP",
		get: func(s *State, t string) string { return halfMP(s.leader(t).MP) },
		set: func(s *State, t, v string) error {
			n, err := atoiField(v)
			s.leader(t).MP = 2 * n
			return err
		}},
	"killed":   leaderBool(func(l *Leader) *bool { return &l.Killed }),
	"replaced": leaderBool(func(l *Leader) *bool { return &l.Replaced }),
	"ooc":      leaderBool(func(l *Leader) *bool { return &l.OOC }),
	"off":      leaderBool(func(l *Leader) *bool { return &l.Off }),
}

var brigadeFields = map[string]field{
	"order": {kind: "order",
		get: func(s *State, t string) string { return s.brigade(t).Order },
		set: func(s *State, t, v string) error {
			v = strings.ToLower(v)
			if !slices.Contains(orderNames, v) {
				return fmt.Errorf("%q is no order", v)
			}
			s.brigade(t).Order = v
			return nil
		}},
	"skip": {kind: "int", get: func(s *State, t string) string { return strconv.Itoa(s.brigade(t).Skip) },
		set: func(s *State, t, v string) error { n, err := atoiField(v); s.brigade(t).Skip = n; return err }},
	"acts": {kind: "int", get: func(s *State, t string) string { return strconv.Itoa(s.brigade(t).Acts) },
		set: func(s *State, t, v string) error { n, err := atoiField(v); s.brigade(t).Acts = n; return err }},
	"ci": {kind: "bool", get: func(s *State, t string) string { return onOffText(s.brigade(t).CI) },
		set: func(s *State, t, v string) error { b, err := boolField(v); s.brigade(t).CI = b; return err }},
	"arrived": {kind: "bool", get: func(s *State, t string) string { return onOffText(s.brigade(t).Arrived) },
		set: func(s *State, t, v string) error { b, err := boolField(v); s.brigade(t).Arrived = b; return err }},
}

var divisionFields = map[string]field{
	"ams": {kind: "int", get: func(s *State, t string) string { return strconv.Itoa(s.division(t).AMs) },
		set: func(s *State, t, v string) error { n, err := atoiField(v); s.division(t).AMs = n; return err }},
	"ci": {kind: "bool", get: func(s *State, t string) string { return onOffText(s.division(t).CI) },
		set: func(s *State, t, v string) error { b, err := boolField(v); s.division(t).CI = b; return err }},
	"ooc": {kind: "bool", get: func(s *State, t string) string { return onOffText(s.division(t).OOC) },
		set: func(s *State, t, v string) error { b, err := boolField(v); s.division(t).OOC = b; return err }},
}

func sideField(get func(*State) *string) field {
	return field{kind: "side", get: func(s *State, _ string) string { return *get(s) },
		set: func(s *State, _, v string) error {
			v = strings.ToUpper(v)
			if v == "NONE" {
				v = ""
			}
			if v != "" && v != USA && v != CSA {
				return fmt.Errorf("%q: USA, CSA or NONE", v)
			}
			*get(s) = v
			return nil
		}}
}

// perSide is a field held for each side: its value is "<side>=<n>";
// scale is how many of the state's units make one of the value's (2 for
// MP kept in half MPs).
func perSide(get func(*State) []int, scale int) field {
	return field{kind: "side=int", get: func(s *State, _ string) string {
		xs := get(s)
		return fmt.Sprintf("USA=%s,CSA=%s", scaled(xs[0], scale), scaled(xs[1], scale))
	}, set: func(s *State, _, v string) error {
		side, n, ok := strings.Cut(v, "=")
		x, err := atoiField(n)
		if !ok || err != nil || (strings.ToUpper(side) != USA && strings.ToUpper(side) != CSA) {
			return fmt.Errorf("%q: write <side>=<n>, e.g. USA=4", v)
		}
		get(s)[s.sideIndex(strings.ToUpper(side))] = x * scale
		return nil
	}}
}

func scaled(n, scale int) string {
	if scale == 2 {
		return halfMP(n)
	}
	return strconv.Itoa(n)
}

var gameFields = map[string]field{
	"turn": {kind: "int", get: func(s *State, _ string) string { return strconv.Itoa(s.Turn) },
		set: func(s *State, _, v string) error { n, err := atoiField(v); s.Turn = n; return err }},
	"initiative": sideField(func(s *State) *string { return &s.Initiative }),
	"previous":   sideField(func(s *State) *string { return &s.Previous }),
	"oc-mp":      perSide(func(s *State) []int { return s.OCMP }, 2),
	"oc-hexes":   perSide(func(s *State) []int { return s.OCHexes }, 1),
	"march-ams":  perSide(func(s *State) []int { return s.MarchAMs }, 1),
	"lost":       perSide(func(s *State) []int { return s.Lost }, 1),
	"held": {kind: "hex=side", get: func(s *State, _ string) string {
		var ps []string
		for i, o := range s.Scn.Objectives {
			ps = append(ps, o.Hex.String()+"="+s.Held[i])
		}
		return strings.Join(ps, ",")
	}, set: func(s *State, _, v string) error {
		hs, side, ok := strings.Cut(v, "=")
		h, err := hex.Parse(hs)
		side = strings.ToUpper(side)
		if !ok || err != nil || (side != USA && side != CSA) {
			return fmt.Errorf("%q: write <objective hex>=<side>, e.g. 0805=CSA", v)
		}
		for i, o := range s.Scn.Objectives {
			if o.Hex == h {
				s.Held[i] = side
				return nil
			}
		}
		return fmt.Errorf("%s is no objective", h)
	}},
}

// fieldsOf returns the settable fields of a target and its kind.
func (s *State) fieldsOf(target string) (map[string]field, string) {
	switch {
	case target == "GAME":
		return gameFields, "the game"
	case s.unit(target) != nil:
		return unitFields, "a unit"
	case s.leader(target) != nil:
		return leaderFields, "a leader"
	case s.brigade(target) != nil:
		return brigadeFields, "a brigade"
	case s.division(target) != nil:
		return divisionFields, "a division"
	}
	return nil, ""
}

func fieldNames(fs map[string]field) string {
	var ns []string
	for n := range fs {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	return strings.Join(ns, ", ")
}

// applySet applies a referee.set fact.
func (s *State) applySet(f events.Fact) error {
	fs, _ := s.fieldsOf(aTarget.Of(f))
	fd, ok := fs[aField.Of(f)]
	if !ok {
		return fmt.Errorf("gbacw: referee.set: %s has no field %q", aTarget.Of(f), aField.Of(f))
	}
	return fd.set(s, aTarget.Of(f), aValue.Of(f))
}

// referee decides a referee's mail: SET lines, a RULE, an ANSWER.
func (m *sim) referee(os []Order) []events.Problem {
	for i, o := range os {
		switch o.Kind {
		case oSet:
			target := o.Unit
			switch {
			case o.Brigade != "":
				target = o.Brigade
			case len(o.Brigades) == 1:
				target = o.Brigades[0]
			}
			fs, what := m.st.fieldsOf(target)
			fd, ok := fs[o.Field]
			if !ok {
				return one(o, fmt.Sprintf("%s is %s; its fields are %s", target, what, fieldNames(fs)), "SET "+target+" <field> <value>")
			}
			was := fd.get(m.st, target)
			// Tried on a copy first: a value that does not read is refused.
			trial := m.st.clone()
			trial.own(partAll)
			if err := fd.set(trial, target, o.Value); err != nil {
				return one(o, fmt.Sprintf("%s %s: %v", target, o.Field, err), "")
			}
			m.emit(kRefereeSet, aTarget.Arg(target), aField.Arg(o.Field), aValue.Arg(o.Value), aWas.Arg(was))
			m.say("SET %s %s %s (was %s)", target, o.Field, o.Value, was)
		case oRule:
			return m.ruling(os[i:])
		case oAnswer:
			a := m.st.asked()
			if a == nil || a.Side == "" {
				return one(o, "no reaction is asked of a side now", "")
			}
			r, _ := keyParts(a.Key)
			if o.Reaction != oPass && o.Reaction != r {
				return one(o, fmt.Sprintf("%s is asked about %s", a.Side, r), "ANSWER "+r+" or ANSWER PASS")
			}
			ans := yes(o.Reaction != oPass, "yes", "no")
			m.say("ANSWER for %s: %s", a.Side, ans)
			for _, k := range strings.Split(a.Key, askSep) { // every question asked together
				m.emit(kProgAnswered, aKey.Arg(k), aAnswer.Arg(ans))
			}
			if ps := m.resume(); len(ps) > 0 {
				return ps
			}
			if len(os) > i+1 {
				return one(os[i+1], "nothing may follow an ANSWER in the same mail", "")
			}
			return nil
		}
	}
	return nil
}

// ruling takes RULE lines: the AM counts of a turn (3.2.2 without a
// chart), or the ruling an activation's step waits for.
func (m *sim) ruling(os []Order) []events.Problem {
	st := m.st
	if st.Ruling != nil && st.Ruling.Key == "ams" {
		for _, o := range os {
			if o.Kind != oRule {
				return one(o, "only RULE lines here", "")
			}
			w := o.Words
			n, err := strconv.Atoi(w[len(w)-1])
			if err != nil || n < 0 || n > 9 {
				return one(o, "a ruling of AMs ends with their number", st.amsExamples()[0])
			}
			if len(w) == 3 && w[0] == "MARCH" && (w[1] == USA || w[1] == CSA) {
				if n > 4 {
					return one(o, "the March AM activates 1 to 4 times (10.1)", "")
				}
				m.emit(kMarchAms, aSide.Arg(w[1]), aN.Arg(int64(n)), aDr.Arg(-1))
				continue
			}
			p := &parser{st: st, side: ""}
			var ws []word
			for j, x := range w[:len(w)-1] {
				ws = append(ws, word{x, j + 1})
			}
			d, ok := p.name(o, ws, "division")
			if !ok {
				return p.probs
			}
			m.emit(kDivisionAms, aDivision.Arg(d), aN.Arg(int64(n)), aDr.Arg(-1), aWhy.Arg("ruled by the referee"))
		}
		if m.st.amsPending() {
			m.say("Still to rule: %s", m.st.amsExamples()[0])
			return nil
		}
		m.emit(kRulingGiven, aKey.Arg("ams"), aValue.Arg("activation markers"))
		m.maybeStartActivations()
		return nil
	}
	a := st.asked()
	if a == nil || a.Side != "" {
		return one(os[0], "no ruling is asked of the referee now", "")
	}
	if len(os) != 1 {
		return one(os[1], "one RULE line answers the ruling asked", "")
	}
	if err := checkRuling(a.Key, os[0].Value); err != nil {
		return one(os[0], err.Error(), a.Examples[0])
	}
	m.say("RULE %s", os[0].Value)
	m.emit(kProgAnswered, aKey.Arg(a.Key), aAnswer.Arg(os[0].Value))
	return m.resume()
}

// checkRuling checks a referee's ruling against what the step asked
// (key, as the step filed it): a result of the chart it stands in for,
// or one of the step's answers. A ruling the step would misread is
// refused, never taken as another.
func checkRuling(key, v string) error {
	_, who := keyParts(key)
	kind, _, _ := strings.Cut(who, "|")
	one := func(ok ...string) error {
		if slices.Contains(ok, v) {
			return nil
		}
		return fmt.Errorf("%q is not a ruling of this step: it is %s", v, strings.Join(ok, " or "))
	}
	switch kind {
	case "fire", "shock":
		if err := checkResult(v, kind); err != nil {
			return fmt.Errorf("%q is not a %s result: %v", v, kind, err)
		}
		return nil
	case "change", "coordinate":
		return one("SUCCEEDS", "FAILS")
	case "build":
		return one("BUILT", "NOT YET")
	}
	return nil
}
