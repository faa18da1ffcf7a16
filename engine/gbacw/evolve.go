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
// owns (play.OwnedEvolver): st records which of its parts and units are
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
// case): a fold skips them (play.InertFacter).
var inertFacts = []string{kUddRolled, kFireResolved, kShockDeclared, kShockResolved}

// apply records one fact in s, a copy made by clone or a state a fold
// owns: each kind of fact first owns the parts of the state it changes
// (State.own: copied unless s owns them already); a unit's Used list is
// shared, and copied before it changes.
func (s *State) apply(f events.Fact) error {
	unit := func() (*Unit, error) {
		u := s.mutUnitNamed(aUnit.Of(f))
		if u == nil {
			return nil, fmt.Errorf("gbacw: %s: no unit %q", f.Kind, aUnit.Of(f))
		}
		return u, nil
	}
	leader := func() (*Leader, error) {
		l := s.leader(aLeader.Of(f))
		if l == nil {
			return nil, fmt.Errorf("gbacw: %s: no leader %q", f.Kind, aLeader.Of(f))
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
	case kUddRolled, kFireResolved, kShockDeclared, kShockResolved:
	case kTurnBegun:
		s.own(partUnits | partBrigades) // the lists it clears it replaces
		s.Turn = int(aTurn.Of(f))
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
	case kInitiativeRolled:
		s.Previous, s.Initiative = s.Initiative, aSide.Of(f)
	case kUnitArrived:
		s.own(partUnits)
		u, err := unit()
		if err != nil {
			return err
		}
		u.Off = false
		s.restackAt(u.Hex)
	case kLeaderArrived:
		s.own(partLeaders)
		l, err := leader()
		if err != nil {
			return err
		}
		l.Off = false
	case kBrigadeArrived:
		s.own(partBrigades)
		b := s.brigade(aBrigade.Of(f))
		if b == nil {
			return fmt.Errorf("gbacw: no brigade %q", aBrigade.Of(f))
		}
		b.Arrived = true
	case kCommandTraced:
		s.own(partUnits | partLeaders | partBrigades | partDivisions)
		side, out := aSide.Of(f), aOut.Of(f)
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
	case kDivisionAms:
		s.own(partDivisions)
		d := s.division(aDivision.Of(f))
		if d == nil {
			return fmt.Errorf("gbacw: no division %q", aDivision.Of(f))
		}
		d.AMs = int(aN.Of(f))
	case kMarchAms:
		s.own(partMarch)
		s.MarchAMs[s.sideIndex(aSide.Of(f))] = int(aN.Of(f))
	case kMarchAgain:
		s.own(partMarch)
		s.MarchAMs[s.sideIndex(aSide.Of(f))] = int(aN.Of(f))
		s.Again = aSide.Of(f) + "|March"
	case kRulingAsked:
		s.Ruling = &Ask{Key: aKey.Of(f), What: aWhat.Of(f), Examples: slices.Clone(aExamples.Of(f))}
	case kRulingGiven:
		s.Ruling = nil
	case kPhaseSet:
		// Done, OCMP and OCHexes replaced; Leaders owned if a leader's MP changes
		s.Phase, s.Done = aPhase.Of(f), nil
		if s.Phase == PhaseCommanders {
			s.OCMP, s.OCHexes = []int{0, 0}, []int{0, 0}
			s.resetLeaderMP()
		}
	case kReleaseOrdered:
		// appends with slices.Clip: a new array
		s.Releases = append(slices.Clip(s.Releases), aBrigade.Of(f)+"="+aOrder.Of(f))
	case kSideDone:
		s.Done = append(slices.Clip(s.Done), aSide.Of(f))
	case kBrigadeOrdered:
		s.own(partUnits | partBrigades)
		b := s.brigade(aBrigade.Of(f))
		if b == nil {
			return fmt.Errorf("gbacw: no brigade %q", aBrigade.Of(f))
		}
		ord := aOrder.Of(f)
		b.Order = ord
		fs := aFacings.Of(f)
		for i, n := range aUnits.Of(f) {
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
	case kAmFirst:
		s.First = []string{aAm.Of(f)}
	case kPoolFilled:
		s.Pool = slices.Clone(aAms.Of(f))
		s.owned |= partPool // a new list, this state's own
	case kAmDrawn:
		s.own(partUnits | partBrigades) // Pool owned, First and Focus replaced; Leaders as phase.set
		am := aAm.Of(f)
		if aDr.Of(f) == 0 && s.Again == am {
			s.Again = ""
		} else if len(s.First) > 0 && s.First[0] == am {
			s.First = nil
		} else if i := slices.Index(s.Pool, am); i >= 0 {
			s.own(partPool)
			s.Pool = slices.Delete(s.Pool, i, i+1)
		} else {
			return fmt.Errorf("gbacw: AM %q is not in the pool", am)
		}
		side, _, _ := strings.Cut(am, "|")
		s.Act = &Activation{AM: am, Side: side, Acting: slices.Clone(aActing.Of(f)), Skipping: slices.Clone(aSkipping.Of(f))}
		for _, n := range aSkipping.Of(f) {
			if b := s.brigade(n); b != nil {
				b.Skip--
			} else if u := s.mutUnitNamed(n); u != nil {
				u.Skip--
			}
		}
		for _, n := range aActing.Of(f) {
			if b := s.brigade(n); b != nil && !strings.HasSuffix(am, "|March") {
				b.Acts++
			}
		}
		for i, u := range s.Units {
			if u.MP != 0 || u.Moved || u.Fired || u.Shocked || u.WM || u.Recover || u.Build || u.Charged || u.Switched || u.FreeFace || u.HexTurns != 0 || len(u.Used) > 0 {
				u = s.mutUnit(i)
				u.MP, u.Moved, u.Fired, u.Shocked, u.WM, u.Recover, u.Build, u.Charged, u.Switched, u.FreeFace, u.HexTurns, u.Used =
					0, false, false, false, false, false, false, false, false, false, 0, nil
			}
		}
		s.resetLeaderMP()
		s.Focus = nil
	case kAmEnded:
		s.Act = nil
	case kProgSet:
		s.own(partAct)
		if err := act(); err != nil {
			return err
		}
		s.Act.Prog = &Prog{Text: slices.Clone(aText.Of(f))}
	case kProgAsked:
		s.own(partAct)
		if err := prog(); err != nil {
			return err
		}
		s.Act.Prog.Ask = &Ask{Side: aSide.Of(f), Key: aKey.Of(f), What: aWhat.Of(f), Examples: slices.Clone(aExamples.Of(f))}
	case kProgHeld:
		s.own(partAct)
		if err := prog(); err != nil {
			return err
		}
		p := s.Act.Prog
		p.At, p.Step, p.Rolls = int(aAt.Of(f)), int(aStep.Of(f)), ints(aRolls.Of(f))
		if text := aText.Of(f); len(text) == 0 || !slices.Equal(p.Text, text) {
			// A held program mostly holds the text it had: keep that list
			// (never changed in place) rather than copy it again.
			p.Text = slices.Clone(text)
		}
	case kProgAnswered:
		s.own(partAct)
		if err := prog(); err != nil {
			return err
		}
		p := s.Act.Prog
		p.Ask = nil
		if a := aAnswer.Of(f); a != "" {
			p.Answers = append(slices.Clip(p.Answers), aKey.Of(f)+"="+a)
		}
	case kOrderRolled:
		s.own(partAct)
		if err := act(); err != nil {
			return err
		}
		s.Act.Changed = append(slices.Clip(s.Act.Changed), aBrigade.Of(f))
	case kCoordinationRolled:
		s.own(partAct)
		if err := act(); err != nil {
			return err
		}
		if aOk.Of(f) {
			s.Act.Group = slices.Clone(aBrigades.Of(f))
		}
	case kGroupBegun:
		// A brigade activation: reactions are the non-phasing units'
		// again (13.1, B12; option b12-once-per-am: once per AM), and the
		// brigade and division leaders have their 10 MP again (17.1).
		s.own(partUnits)
		if !s.Scn.Options.OncePerAM {
			for i, u := range s.Units {
				if len(u.Used) > 0 {
					s.mutUnit(i).Used = nil
				}
			}
		}
		s.resetLeaderMP()
	case kUnitMoved:
		s.own(partUnits) // Focus and Held owned when it changes them
		u, err := unit()
		if err != nil {
			return err
		}
		from := u.Hex
		u.Hex, u.Facing, u.MP = intHex(aHex.Of(f)), int(aFacing.Of(f)), int(aMp.Of(f))
		u.Moved, u.Refused, u.Extended = true, false, aExtended.Of(f)
		u.HexTurns = 0 // a new hex: its turns are counted afresh (7.4)
		// A retreat or rout is not the unit's moving for 19.6 (option
		// retreat-is-moving: it is).
		if !aForced.Of(f) || s.Scn.Options.RetreatMoves {
			u.Turn |= turnMoved
		}
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
	case kUnitFaced:
		s.own(partUnits)
		u, err := unit()
		if err != nil {
			return err
		}
		u.HexTurns += turnPoints(u, int(aFacing.Of(f)))
		u.Facing, u.MP = int(aFacing.Of(f)), int(aMp.Of(f))
		if aMoved.Of(f) {
			u.Moved, u.Refused = true, false
			u.Turn |= turnMoved
		}
	case kStackSet:
		s.own(partUnits)
		for i, n := range aUnits.Of(f) {
			u := s.mutUnitNamed(n)
			if u == nil {
				return fmt.Errorf("gbacw: stack.set: no unit %q", n)
			}
			u.Stack = i
		}
		s.restackAt(intHex(aHex.Of(f)))
	case kUnitMarked:
		s.own(partUnits)
		u, err := unit()
		if err != nil {
			return err
		}
		return u.mark(aFlag.Of(f), aOn.Of(f))
	case kUnitDisordered:
		s.own(partUnits)
		u, err := unit()
		if err != nil {
			return err
		}
		u.Disordered = true
	case kUnitRecovered:
		s.own(partUnits)
		u, err := unit()
		if err != nil {
			return err
		}
		u.Disordered, u.Routed = false, false
	case kUnitRallied:
		s.own(partUnits)
		u, err := unit()
		if err != nil {
			return err
		}
		u.Routed = false
	case kUnitLost:
		s.own(partUnits | partLost)
		u, err := unit()
		if err != nil {
			return err
		}
		u.SP = int(aSp.Of(f))
		s.Lost[s.sideIndex(u.Side)] += int(aLost.Of(f))
	case kUnitRouted:
		s.own(partUnits)
		u, err := unit()
		if err != nil {
			return err
		}
		u.Routed, u.Disordered = true, true
	case kUnitRemoved:
		s.own(partUnits | partLost)
		u, err := unit()
		if err != nil {
			return err
		}
		u.Removed = true
		s.Lost[s.sideIndex(u.Side)] += u.SP
		s.restackAt(u.Hex)
	case kUnitFatigue:
		s.own(partUnits)
		u, err := unit()
		if err != nil {
			return err
		}
		u.Fatigue = int(aFatigue.Of(f))
	case kUnitWorks:
		s.own(partUnits)
		u, err := unit()
		if err != nil {
			return err
		}
		u.Works = int(aWorks.Of(f))
	case kWorksBuilt:
		if h := intHex(aHex.Of(f)); !slices.Contains(s.Works, h) {
			s.Works = append(slices.Clip(s.Works), h)
		}
	case kLeaderMoved:
		s.own(partLeaders)
		l, err := leader()
		if err != nil {
			return err
		}
		l.Hex, l.MP = intHex(aHex.Of(f)), int(aMp.Of(f))
	case kOcMoved:
		s.own(partOC)
		i := s.sideIndex(aSide.Of(f))
		s.OCMP[i], s.OCHexes[i] = int(aMp.Of(f)), int(aHexes.Of(f))
	case kLeaderKilled:
		s.own(partLeaders)
		l, err := leader()
		if err != nil {
			return err
		}
		l.Killed = true
	case kLeaderReplaced:
		s.own(partLeaders)
		l, err := leader()
		if err != nil {
			return err
		}
		l.Killed, l.Replaced, l.Hex = false, true, intHex(aHex.Of(f))
	case kStandingSet:
		// Standing replaced by a new list
		x := Standing{Side: aSide.Of(f), Scope: aScope.Of(f), Reaction: aReaction.Of(f), Rule: aRule.Of(f)}
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
	case kBrigadeCi:
		s.own(partBrigades)
		b := s.brigade(aBrigade.Of(f))
		if b == nil {
			return fmt.Errorf("gbacw: no brigade %q", aBrigade.Of(f))
		}
		b.CI = aCi.Of(f)
	case kDivisionCi:
		s.own(partDivisions)
		d := s.division(aDivision.Of(f))
		if d == nil {
			return fmt.Errorf("gbacw: no division %q", aDivision.Of(f))
		}
		d.CI = aCi.Of(f)
	case kGameOver:
		s.Phase, s.Winner, s.Result = PhaseOver, aWinner.Of(f), aResult.Of(f)
	case kRefereeSet:
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
