package gbacw

import (
	"fmt"
	"slices"
	"strings"

	"pbem/engine/hex"
	"pbem/events"
)

// evolve applies one fact to a copy of st. Facts carry the values they
// set, so evolve only records them.
func evolve(st *State, f events.Fact) (*State, error) {
	s := st.clone()
	if err := s.apply(f); err != nil {
		return nil, err
	}
	return s, nil
}

// evolveAll applies a decision's facts to one copy of st.
func evolveAll(st *State, fs []events.Fact) (*State, error) {
	s := st.clone()
	for _, f := range fs {
		if err := s.apply(f); err != nil {
			return nil, fmt.Errorf("evolve %s: %w", f.Kind, err)
		}
	}
	return s, nil
}

// evolveOwned applies a decision's facts to st itself, which the caller
// owns (engine.OwnedEvolver): st records which of its parts and units are
// its own already (own, mutUnit), so a fold copies each shared part and
// unit once, the first time one of its facts changes it, and the states
// before st, which share the rest, stay as they were.
func evolveOwned(st *State, fs []events.Fact) (*State, error) {
	for _, f := range fs {
		if err := st.apply(f); err != nil {
			return nil, fmt.Errorf("evolve %s: %w", f.Kind, err)
		}
	}
	return st, nil
}

func ints(xs []int64) []int {
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = int(x)
	}
	return out
}

// inertFacts are the facts apply records by doing nothing (its first
// case): a fold skips them (engine.InertFacter).
var inertFacts = []string{"udd.rolled", "fire.resolved", "shock.declared", "shock.resolved"}

// apply records one fact in s, a copy made by clone or a state a fold
// owns: each kind of fact first owns the parts of the state it changes
// (State.own: copied unless s owns them already); a unit's Used list is
// shared, and copied before it changes.
func (s *State) apply(f events.Fact) error {
	unit := func() (*Unit, error) {
		u := s.mutUnitNamed(f.Str("unit"))
		if u == nil {
			return nil, fmt.Errorf("gbacw: %s: no unit %q", f.Kind, f.Str("unit"))
		}
		return u, nil
	}
	leader := func() (*Leader, error) {
		l := s.leader(f.Str("leader"))
		if l == nil {
			return nil, fmt.Errorf("gbacw: %s: no leader %q", f.Kind, f.Str("leader"))
		}
		return l, nil
	}
	act := func() error {
		if s.Act == nil {
			return fmt.Errorf("gbacw: %s with no activation", f.Kind)
		}
		return nil
	}
	prog := func() error {
		if s.Act == nil || s.Act.Prog == nil {
			return fmt.Errorf("gbacw: %s with no orders being carried out", f.Kind)
		}
		return nil
	}
	switch f.Kind {
	case "udd.rolled", "fire.resolved", "shock.declared", "shock.resolved":
	case "turn.begun":
		s.own(partUnits | partBrigades) // the lists it clears it replaces
		s.Turn = int(f.Int("turn"))
		for i, u := range s.Units {
			if u.Turn != 0 || u.Blown {
				u = s.mutUnit(i)
				u.Turn = 0
				u.Blown = false // a blown unit has its breath back (R12 reading)
			}
		}
		for i := range s.Brigades {
			s.Brigades[i].Acts = 0
		}
		s.Done, s.First, s.Pool, s.Act, s.Focus, s.Releases = nil, nil, nil, nil, nil, nil
	case "initiative.rolled":
		s.Previous, s.Initiative = s.Initiative, f.Str("side")
	case "unit.arrived":
		s.own(partUnits)
		u, err := unit()
		if err != nil {
			return err
		}
		u.Off = false
		s.restackAt(u.Hex)
	case "leader.arrived":
		s.own(partLeaders)
		l, err := leader()
		if err != nil {
			return err
		}
		l.Off = false
	case "brigade.arrived":
		s.own(partBrigades)
		b := s.brigade(f.Str("brigade"))
		if b == nil {
			return fmt.Errorf("gbacw: no brigade %q", f.Str("brigade"))
		}
		b.Arrived = true
	case "command.traced":
		s.own(partUnits | partLeaders | partBrigades | partDivisions)
		side, out := f.Str("side"), f.Strs("out")
		for i, u := range s.Units {
			if u.Side != side {
				continue
			}
			ooc := slices.Contains(out, u.Name)
			skip := 0
			if ooc {
				skip = 1
			}
			if u.OOC != ooc || u.Skip != skip {
				u = s.mutUnit(i)
				u.OOC, u.Skip = ooc, skip
			}
		}
		for i := range s.Leaders {
			if l := &s.Leaders[i]; l.Side == side {
				l.OOC = slices.Contains(out, l.Name)
			}
		}
		for _, bd := range s.Scn.Brigades {
			if s.Scn.sideOfBrigade(bd.Name) == side {
				b := s.brigade(bd.Name)
				b.Skip = 0
				if slices.Contains(out, bd.Leader) {
					b.Skip = 1
				}
			}
		}
		for _, dd := range s.Scn.Divisions {
			if s.Scn.sideOfDivision(dd.Name) == side {
				s.division(dd.Name).OOC = slices.Contains(out, dd.Leader)
			}
		}
	case "division.ams":
		s.own(partDivisions)
		d := s.division(f.Str("division"))
		if d == nil {
			return fmt.Errorf("gbacw: no division %q", f.Str("division"))
		}
		d.AMs = int(f.Int("n"))
	case "march.ams":
		s.own(partMarch)
		s.MarchAMs[s.sideIndex(f.Str("side"))] = int(f.Int("n"))
	case "ruling.asked":
		s.Ruling = &Ask{Key: f.Str("key"), What: f.Str("what"), Examples: slices.Clone(f.Strs("examples"))}
	case "ruling.given":
		s.Ruling = nil
	case "phase.set":
		// Done, OCMP and OCHexes replaced; Leaders owned if a leader's MP changes
		s.Phase, s.Done = f.Str("phase"), nil
		if s.Phase == PhaseCommanders {
			s.OCMP, s.OCHexes = []int{0, 0}, []int{0, 0}
			s.resetLeaderMP()
		}
	case "release.ordered":
		// appends with slices.Clip: a new array
		s.Releases = append(slices.Clip(s.Releases), f.Str("brigade")+"="+f.Str("order"))
	case "side.done":
		s.Done = append(slices.Clip(s.Done), f.Str("side"))
	case "brigade.ordered":
		s.own(partUnits | partBrigades)
		b := s.brigade(f.Str("brigade"))
		if b == nil {
			return fmt.Errorf("gbacw: no brigade %q", f.Str("brigade"))
		}
		ord := f.Str("order")
		b.Order = ord
		fs := f.Ints("facings")
		for i, n := range f.Strs("units") {
			u := s.mutUnitNamed(n)
			if u == nil || i >= len(fs) {
				return fmt.Errorf("gbacw: brigade.ordered: unit %q", n)
			}
			if (u.Order == March) != (ord == March) {
				u.FreeFace = true // 7.3
			}
			u.Order, u.Facing = ord, int(fs[i])
			if ord != March {
				u.Extended = false
			}
		}
	case "am.first":
		s.First = []string{f.Str("am")}
	case "pool.filled":
		s.Pool = slices.Clone(f.Strs("ams"))
		s.owned |= partPool // a new list, this state's own
	case "am.drawn":
		s.own(partUnits | partBrigades) // Pool owned, First and Focus replaced; Leaders as phase.set
		am := f.Str("am")
		if len(s.First) > 0 && s.First[0] == am {
			s.First = nil
		} else if i := slices.Index(s.Pool, am); i >= 0 {
			s.own(partPool)
			s.Pool = slices.Delete(s.Pool, i, i+1)
		} else {
			return fmt.Errorf("gbacw: AM %q is not in the pool", am)
		}
		side, _, _ := strings.Cut(am, "|")
		s.Act = &Activation{AM: am, Side: side, Acting: slices.Clone(f.Strs("acting")), Skipping: slices.Clone(f.Strs("skipping"))}
		for _, n := range f.Strs("skipping") {
			if b := s.brigade(n); b != nil {
				b.Skip--
			} else if u := s.mutUnitNamed(n); u != nil {
				u.Skip--
			}
		}
		for _, n := range f.Strs("acting") {
			if b := s.brigade(n); b != nil && !strings.HasSuffix(am, "|March") {
				b.Acts++
			}
		}
		for i, u := range s.Units {
			if u.MP != 0 || u.Moved || u.Fired || u.Shocked || u.WM || u.Recover || u.Build || u.Charged || u.Switched || u.FreeFace || len(u.Used) > 0 {
				u = s.mutUnit(i)
				u.MP, u.Moved, u.Fired, u.Shocked, u.WM, u.Recover, u.Build, u.Charged, u.Switched, u.FreeFace, u.Used =
					0, false, false, false, false, false, false, false, false, false, nil
			}
		}
		s.resetLeaderMP()
		s.Focus = nil
	case "am.ended":
		s.Act = nil
	case "prog.set":
		s.own(partAct)
		if err := act(); err != nil {
			return err
		}
		s.Act.Prog = &Prog{Text: slices.Clone(f.Strs("text"))}
	case "prog.asked":
		s.own(partAct)
		if err := prog(); err != nil {
			return err
		}
		s.Act.Prog.Ask = &Ask{Side: f.Str("side"), Key: f.Str("key"), What: f.Str("what"), Examples: slices.Clone(f.Strs("examples"))}
	case "prog.held":
		s.own(partAct)
		if err := prog(); err != nil {
			return err
		}
		p := s.Act.Prog
		p.At, p.Step, p.Rolls = int(f.Int("at")), int(f.Int("step")), ints(f.Ints("rolls"))
		if text := f.Strs("text"); len(text) == 0 || !slices.Equal(p.Text, text) {
			// A held program mostly holds the text it had: keep that list
			// (never changed in place) rather than copy it again.
			p.Text = slices.Clone(text)
		}
	case "prog.answered":
		s.own(partAct)
		if err := prog(); err != nil {
			return err
		}
		p := s.Act.Prog
		p.Ask = nil
		if a := f.Str("answer"); a != "" {
			p.Answers = append(slices.Clip(p.Answers), f.Str("key")+"="+a)
		}
	case "order.rolled":
		s.own(partAct)
		if err := act(); err != nil {
			return err
		}
		s.Act.Changed = append(slices.Clip(s.Act.Changed), f.Str("brigade"))
	case "coordination.rolled":
		s.own(partAct)
		if err := act(); err != nil {
			return err
		}
		if f.Bool("ok") {
			s.Act.Group = slices.Clone(f.Strs("brigades"))
		}
	case "group.begun":
		s.own(partUnits)
		for i, u := range s.Units {
			if len(u.Used) > 0 {
				s.mutUnit(i).Used = nil
			}
		}
	case "unit.moved":
		s.own(partUnits) // Focus and Held owned when it changes them
		u, err := unit()
		if err != nil {
			return err
		}
		from := u.Hex
		u.Hex, u.Facing, u.MP = intHex(f.Int("hex")), int(f.Int("facing")), int(f.Int("mp"))
		u.Moved, u.Refused, u.Extended = true, false, f.Bool("extended")
		u.Turn |= turnMoved
		u.Stack = -1
		s.restackAt(from)
		s.restackAt(u.Hex)
		for i, o := range s.Scn.Objectives {
			if o.Hex == u.Hex && s.Held[i] != u.Side {
				s.own(partHeld)
				s.Held[i] = u.Side
			}
		}
		if len(s.Focus) < 16 {
			s.own(partFocus)
			s.Focus = append(s.Focus, u.Hex)
		}
	case "unit.faced":
		s.own(partUnits)
		u, err := unit()
		if err != nil {
			return err
		}
		u.Facing, u.MP = int(f.Int("facing")), int(f.Int("mp"))
		if f.Bool("moved") {
			u.Moved, u.Refused = true, false
			u.Turn |= turnMoved
		}
	case "stack.set":
		s.own(partUnits)
		for i, n := range f.Strs("units") {
			u := s.mutUnitNamed(n)
			if u == nil {
				return fmt.Errorf("gbacw: stack.set: no unit %q", n)
			}
			u.Stack = i
		}
		s.restackAt(intHex(f.Int("hex")))
	case "unit.marked":
		s.own(partUnits)
		u, err := unit()
		if err != nil {
			return err
		}
		return u.mark(f.Str("flag"), f.Bool("on"))
	case "unit.disordered":
		s.own(partUnits)
		u, err := unit()
		if err != nil {
			return err
		}
		u.Disordered = true
	case "unit.recovered":
		s.own(partUnits)
		u, err := unit()
		if err != nil {
			return err
		}
		u.Disordered, u.Routed = false, false
	case "unit.rallied":
		s.own(partUnits)
		u, err := unit()
		if err != nil {
			return err
		}
		u.Routed = false
	case "unit.lost":
		s.own(partUnits | partLost)
		u, err := unit()
		if err != nil {
			return err
		}
		u.SP = int(f.Int("sp"))
		s.Lost[s.sideIndex(u.Side)] += int(f.Int("lost"))
	case "unit.routed":
		s.own(partUnits)
		u, err := unit()
		if err != nil {
			return err
		}
		u.Routed, u.Disordered = true, true
	case "unit.removed":
		s.own(partUnits | partLost)
		u, err := unit()
		if err != nil {
			return err
		}
		u.Removed = true
		s.Lost[s.sideIndex(u.Side)] += u.SP
		s.restackAt(u.Hex)
	case "unit.fatigue":
		s.own(partUnits)
		u, err := unit()
		if err != nil {
			return err
		}
		u.Fatigue = int(f.Int("fatigue"))
	case "unit.works":
		s.own(partUnits)
		u, err := unit()
		if err != nil {
			return err
		}
		u.Works = int(f.Int("works"))
	case "works.built":
		if h := intHex(f.Int("hex")); !slices.Contains(s.Works, h) {
			s.Works = append(slices.Clip(s.Works), h)
		}
	case "leader.moved":
		s.own(partLeaders)
		l, err := leader()
		if err != nil {
			return err
		}
		l.Hex, l.MP = intHex(f.Int("hex")), int(f.Int("mp"))
	case "oc.moved":
		s.own(partOC)
		i := s.sideIndex(f.Str("side"))
		s.OCMP[i], s.OCHexes[i] = int(f.Int("mp")), int(f.Int("hexes"))
	case "leader.killed":
		s.own(partLeaders)
		l, err := leader()
		if err != nil {
			return err
		}
		l.Killed = true
	case "leader.replaced":
		s.own(partLeaders)
		l, err := leader()
		if err != nil {
			return err
		}
		l.Killed, l.Replaced, l.Hex = false, true, intHex(f.Int("hex"))
	case "standing.set":
		// Standing replaced by a new list
		x := Standing{Side: f.Str("side"), Scope: f.Str("scope"), Reaction: f.Str("reaction"), Rule: f.Str("rule")}
		// A new list: the old one is shared with the state before.
		s.Standing = slices.DeleteFunc(slices.Clone(s.Standing), func(y Standing) bool {
			return y.Side == x.Side && y.Scope == x.Scope && y.Reaction == x.Reaction
		})
		if x.Rule != "" {
			s.Standing = append(s.Standing, x)
			slices.SortFunc(s.Standing, func(a, b Standing) int {
				return strings.Compare(a.Side+"\x00"+a.Scope+"\x00"+a.Reaction, b.Side+"\x00"+b.Scope+"\x00"+b.Reaction)
			})
		}
	case "brigade.ci":
		s.own(partBrigades)
		b := s.brigade(f.Str("brigade"))
		if b == nil {
			return fmt.Errorf("gbacw: no brigade %q", f.Str("brigade"))
		}
		b.CI = f.Bool("ci")
	case "division.ci":
		s.own(partDivisions)
		d := s.division(f.Str("division"))
		if d == nil {
			return fmt.Errorf("gbacw: no division %q", f.Str("division"))
		}
		d.CI = f.Bool("ci")
	case "game.over":
		s.Phase, s.Winner, s.Result = PhaseOver, f.Str("winner"), f.Str("result")
	case "referee.set":
		s.own(partAll) // a referee may set any field
		return s.applySet(f)
	default:
		return fmt.Errorf("gbacw: unknown fact %s", f.Kind)
	}
	return nil
}

// resetLeaderMP sets every leader's MP spent to 0, copying the leaders
// only if one has spent some.
func (s *State) resetLeaderMP() {
	for i := range s.Leaders {
		if s.Leaders[i].MP != 0 {
			s.own(partLeaders)
			s.Leaders[i].MP = 0
		}
	}
}

// mark sets a unit's flag.
func (u *Unit) mark(flag string, on bool) error {
	if r, ok := strings.CutPrefix(flag, "used:"); ok {
		used := slices.DeleteFunc(slices.Clone(u.Used), func(x string) bool { return x == r })
		if on {
			used = append(used, r)
		}
		u.Used = used
		return nil
	}
	switch flag {
	case "fired":
		u.Fired = on
		if on {
			u.Turn |= turnFired
		}
	case "shocked":
		u.Shocked = on
		if on {
			u.Turn |= turnShocked
		}
	case "moved":
		u.Moved = on
		if on {
			u.Turn |= turnMoved
		}
	case "wm":
		u.WM = on
	case "recover":
		u.Recover = on
	case "build":
		u.Build = on
	case "charged":
		u.Charged = on
	case "switched":
		u.Switched = on
	case "mounted":
		u.Mounted = on
	case "blown":
		u.Blown = on
	case "refused":
		u.Refused = on
	default:
		return fmt.Errorf("gbacw: unit.marked: unknown flag %q", flag)
	}
	return nil
}

// restackAt numbers the stack in h 0, 1, ... in its order.
func (s *State) restackAt(h hex.Hex) {
	var buf [8]*Unit // a stack's units, without an allocation
	for i, u := range s.appendUnitsAt(buf[:0], h) {
		if u.Stack != i {
			s.mutUnitNamed(u.Name).Stack = i
		}
	}
}
