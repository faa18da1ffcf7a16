package gmb

import (
	"fmt"
	"slices"

	"pbem/engine"
	"pbem/engine/table"
	"pbem/events"
)

// evolve applies one fact to a copy of the state.
func evolve(s *State, f events.Fact) (*State, error) {
	st := *s
	st.own = nil
	if err := st.apply(f, &cow{}); err != nil {
		return nil, err
	}
	return &st, nil
}

// evolveAll applies a decision's facts to one copy of the state. The copy
// remembers the lists it copied, for a fold that goes on evolving it in
// place (evolveOwned).
func evolveAll(s *State, fs []events.Fact) (*State, error) {
	st := *s
	c := &cow{}
	for _, f := range fs {
		if err := st.apply(f, c); err != nil {
			return nil, fmt.Errorf("evolve %s: %w", f.Kind, err)
		}
	}
	st.own = c
	return &st, nil
}

// evolveOwned applies a decision's facts to st itself, which the caller
// owns (play.OwnedEvolver): the lists st copied in its earlier decisions
// (st.own) are its own and change in place, and those it still shares
// with the states before it are copied the first time a fact changes
// them, once per fold rather than once per decision.
func evolveOwned(st *State, fs []events.Fact) (*State, error) {
	c := st.own
	if c == nil {
		c = &cow{}
	}
	for _, f := range fs {
		if err := st.apply(f, c); err != nil {
			return nil, fmt.Errorf("evolve %s: %w", f.Kind, err)
		}
	}
	st.own = c
	return st, nil
}

// cow is copy on write: which lists of a state being evolved are its own
// already (a state shares every list with the one it was evolved from
// until it changes one: a replay copies only what a decision changes).
type cow struct {
	sides, units, pieces, generals, left bool
	side                                 []bool
	// The lists only ever appended to (or set anew), which appendOwn
	// copies at their first append and then appends to in place.
	bridges, bases, markers, activated, inactive bool
}

// appendOwn appends xs to s, a list *own says is the state's own already
// or not: one that is not is copied by this append (and is its own from
// then on), so that the state it shares the list with never sees it
// change.
func appendOwn[T any](own *bool, s []T, xs ...T) []T {
	if !*own {
		s, *own = slices.Clip(s), true
	}
	return append(s, xs...)
}

func (st *State) ownSides(c *cow) {
	if !c.sides {
		st.Sides = slices.Clone(st.Sides)
		c.sides, c.side = true, make([]bool, len(st.Sides))
	}
}

// ownSide returns a side whose lists are the state's own, nil for none.
func (st *State) ownSide(c *cow, name string) *Side {
	i := slices.IndexFunc(st.Sides, func(sd Side) bool { return sd.Name == name })
	if i < 0 {
		return nil
	}
	st.ownSides(c)
	sd := &st.Sides[i]
	if !c.side[i] {
		sd.Groups = slices.Clone(sd.Groups)
		for j := range sd.Groups {
			sd.Groups[j].Formations = slices.Clone(sd.Groups[j].Formations)
			sd.Groups[j].SetAside = slices.Clone(sd.Groups[j].SetAside)
		}
		sd.Out, sd.Hand, sd.Drawn5, sd.Deck = slices.Clone(sd.Out), slices.Clone(sd.Hand), slices.Clone(sd.Drawn5), slices.Clone(sd.Deck)
		sd.Played, sd.Objectives = slices.Clone(sd.Played), slices.Clone(sd.Objectives)
		c.side[i] = true
	}
	return sd
}

func (st *State) ownUnits(c *cow) {
	if !c.units {
		st.Units, c.units = slices.Clone(st.Units), true
	}
}

func (st *State) ownPieces(c *cow) {
	if !c.pieces {
		st.Pieces, c.pieces = slices.Clone(st.Pieces), true
	}
}

func (st *State) ownGenerals(c *cow) {
	if !c.generals {
		st.Generals, c.generals = slices.Clone(st.Generals), true
	}
}

func (st *State) ownLeft(c *cow) {
	if !c.left {
		st.Left, c.left = slices.Clone(st.Left), true
	}
}

// ownAll makes every list the state's own (a referee's SET may change any).
func (st *State) ownAll(c *cow) {
	for _, sd := range st.Sides {
		st.ownSide(c, sd.Name)
	}
	st.ownUnits(c)
	st.ownPieces(c)
	st.ownGenerals(c)
	st.ownLeft(c)
	st.Points, st.Bridges, st.Bases = slices.Clone(st.Points), slices.Clone(st.Bridges), slices.Clone(st.Bases)
	st.Markers, st.Activated, st.Inactive = slices.Clone(st.Markers), slices.Clone(st.Activated), slices.Clone(st.Inactive)
	c.bridges, c.bases, c.markers, c.activated, c.inactive = true, true, true, true, true
}

func strs(f events.Fact, d engine.StrsField) []string { return slices.Clone(d.Of(f)) }

// removeOwn removes x from list, a list of a side ownSide made the
// state's own: in place.
func removeOwn(list []string, x string) []string {
	if i := slices.Index(list, x); i >= 0 {
		return slices.Delete(list, i, i+1)
	}
	return list
}

// apply changes st (a shallow copy: its lists are another state's until
// c says they are its own) by one fact. It keeps nothing of f but
// strings: every list is copied.
func (st *State) apply(f events.Fact, c *cow) error {
	var sd *Side
	needSide := func() error {
		if sd = st.ownSide(c, aSide.Of(f)); sd == nil {
			return fmt.Errorf("%s: no side %q", f.Kind, aSide.Of(f))
		}
		return nil
	}
	switch f.Kind {
	case kTableProposed:
		if err := needSide(); err != nil {
			return err
		}
		sd.TableVote = aSize.Of(f)
	case kTableSet:
		g, ok := st.Scn.Geom(aSize.Of(f))
		if !ok {
			return fmt.Errorf("no table %q", aSize.Of(f))
		}
		st.TableSize, st.W, st.H = g.Size, g.Width, g.Height
	case kYearProposed:
		if err := needSide(); err != nil {
			return err
		}
		sd.YearVote = int(aYear.Of(f))
	case kYearSet:
		st.Year = int(aYear.Of(f))
	case kStepBegun:
		st.Step = aStep.Of(f)
		side, n := aSide.Of(f), int(aN.Of(f))
		st.ownSides(c)
		for i := range st.Sides {
			st.Sides[i].Done = false
		}
		switch st.Step {
		case StepLinear, StepFences:
			st.Placer, st.Pool, st.Passed = side, n, ""
		case StepBridges:
			st.Placer, st.BridgesDue = side, n
			st.RiverBy = st.other(side)
		case StepNormal, StepSpecial, StepFortify, StepSwap, StepList:
			st.Placer, st.Passed = side, ""
		case StepActivate, StepCombat, StepMove, StepPassage:
			st.ToAct = side
		}
	case kTurnPassed:
		st.Placer = aSide.Of(f)
	case kGeneralsDrawn:
		if err := needSide(); err != nil {
			return err
		}
		fs, gs := aFormations.Of(f), aGenerals.Of(f)
		if len(fs) != len(gs) {
			return fmt.Errorf("generals.drawn: %d generals for %d formations", len(gs), len(fs))
		}
		grp := aGroup.Of(f)
		st.ownGenerals(c)
		for i, g := range gs {
			st.Generals = append(st.Generals, General{Name: g, Side: sd.Name, Group: grp, Formation: fs[i]})
		}
		sd.Groups = append(sd.Groups, DrawGroup{Name: grp, Formations: strs(f, aFormations), SetAside: strs(f, aAside)})
	case kArmyDrawn:
		if err := needSide(); err != nil {
			return err
		}
		sd.Drawn = true
	case kGeneralRedrawn:
		if err := needSide(); err != nil {
			return err
		}
		grp := sd.group(aGroup.Of(f))
		if grp == nil {
			return fmt.Errorf("no group %q", aGroup.Of(f))
		}
		grp.SetAside = removeOwn(grp.SetAside, aGeneral.Of(f))
		sd.Redrawn, sd.RedrawGroup = aGeneral.Of(f), grp.Name
		sd.Redraws--
	case kGeneralSwapped:
		if err := needSide(); err != nil {
			return err
		}
		st.ownGenerals(c)
		old := st.general(aOld.Of(f))
		if old == nil {
			return fmt.Errorf("no general %q", aOld.Of(f))
		}
		st.Generals = append(st.Generals, General{Name: aGeneral.Of(f), Side: sd.Name, Group: old.Group, Formation: old.Formation})
		old = st.general(aOld.Of(f))
		old.Formation = ""
		sd.Out = append(sd.Out, old.Name)
		sd.Redrawn, sd.RedrawGroup = "", ""
	case kGeneralDiscarded:
		if err := needSide(); err != nil {
			return err
		}
		sd.Out = append(sd.Out, aGeneral.Of(f))
		sd.Redrawn, sd.RedrawGroup = "", ""
	case kGeneralAssigned:
		st.ownGenerals(c)
		g := st.general(aGeneral.Of(f))
		if g == nil {
			return fmt.Errorf("no general %q", aGeneral.Of(f))
		}
		to, from := aFormation.Of(f), g.Formation
		if h := st.generalOf(g.Side, to); h != nil {
			h.Formation = from
		}
		g = st.general(aGeneral.Of(f))
		g.Formation = to
	case kGeneralsDone, kSpecialDone, kPatrolDone:
		if err := needSide(); err != nil {
			return err
		}
		sd.Done = true
	case kCardsDrawn:
		if err := needSide(); err != nil {
			return err
		}
		cs := aCards.Of(f)
		for _, c := range cs {
			if !slices.Contains(sd.Deck, c) {
				return fmt.Errorf("cards.drawn: %s's deck holds no %q", sd.Name, c)
			}
			sd.Deck = removeOwn(sd.Deck, c)
		}
		if aInto.Of(f) == "choice" {
			sd.Drawn5 = append(append(slices.Clone(sd.Drawn5), sd.Hand...), cs...)
			sd.Hand, sd.Kept = nil, false
		} else {
			sd.Hand = append(sd.Hand, cs...) // the side's own list (ownSide)
		}
	case kCardsDealt, kHandKept, kTacticMade, kInitiativeTied, kCombatResolved, kCommandTested,
		kPassagesDone, kObjectivesNoted, kTurnNoted:
		if f.Kind == kHandKept {
			if err := needSide(); err != nil {
				return err
			}
			sd.Kept = true
		}
		if f.Kind == kTacticMade {
			if err := needSide(); err != nil {
				return err
			}
			sd.TacticMade = true
		}
	case kCardsKept:
		if err := needSide(); err != nil {
			return err
		}
		sd.Hand = strs(f, aKept)
		sd.Deck = append(sd.Deck, aReturned.Of(f)...)
		sd.Drawn5 = nil
		sd.Kept = true
	case kBattlefieldDeclared:
		if err := needSide(); err != nil {
			return err
		}
		sd.Battlefield, sd.Forced = aField.Of(f), aForced.Of(f)
	case kMoraleSet:
		if err := needSide(); err != nil {
			return err
		}
		sd.Morale = aLevel.Of(f)
	case kInitiativeRolled:
		if err := needSide(); err != nil {
			return err
		}
		sd.Successes = int(aSuccesses.Of(f))
	case kInitiativeWon:
		if aBattlefield.In(f) {
			st.PlayerA, st.Battlefield = aSide.Of(f), aBattlefield.Of(f)
		}
		st.Initiative = aSide.Of(f)
	case kListChosen:
		l, ok := st.Scn.List(aList.Of(f))
		if !ok {
			return fmt.Errorf("no terrain list %q", aList.Of(f))
		}
		st.List = l.Name
		st.Left, c.left = nil, true
		for _, e := range terrainAmount(l, st.Scn.Option("terrain-amount")) {
			st.Left = append(st.Left, ListEntry{e.Kind, 2 * e.Count}) // in half pieces (13.10f)
		}
	case kPointsPlaced:
		st.Points = intsPoly(aAt.Of(f))
	case kTerrainPlaced:
		p := Piece{ID: aId.Of(f), Kind: aKind.Of(f), By: aBy.Of(f), Flags: strs(f, aFlags), Along: aAlong.Of(f), Half: aHalf.Of(f)}
		if aPath.In(f) {
			p.Path = table.Polyline(intsPoly(aPath.Of(f)))
		} else {
			p.Poly = table.Polygon(intsPoly(aPoly.Of(f)))
		}
		if len(p.Flags) == 0 {
			p.Flags = nil
		}
		st.ownPieces(c)
		st.Pieces = append(st.Pieces, p)
		switch {
		case p.Kind == River:
			st.RiverBy = p.By
			st.Pool--
		case p.Kind == Stream || p.Kind == Road || p.Kind == Railway:
			st.Pool--
		case p.Kind == Fence || p.Kind == Wall:
			st.Pool--
		case p.Kind == Fortification:
			if s := st.ownSide(c, p.By); s != nil {
				s.Forts--
			}
		case !slices.Contains(p.Flags, "special") && st.Step == StepNormal:
			st.ownLeft(c)
			i := slices.IndexFunc(st.Left, func(e ListEntry) bool { return e.Kind == p.Kind })
			if i >= 0 {
				n := 2
				if p.Half {
					n = 1
				}
				st.Left[i].Count = max(0, st.Left[i].Count-n)
			}
		}
		st.Passed = ""
	case kTerrainPassed:
		if st.Step == StepNormal {
			st.Left = nil
		} else if st.Scn.Option("linear-pool") == "pool" || st.Step == StepFences {
			st.Pool--
		}
		st.Passed = aSide.Of(f)
	case kBridgePlaced:
		st.Bridges = appendOwn(&c.bridges, st.Bridges, Bridge{ID: aId.Of(f), At: table.Pt(table.Length(aX.Of(f)), table.Length(aY.Of(f))), Over: aOver.Of(f), By: aBy.Of(f)})
	case kTerrainMoved:
		st.ownPieces(c)
		p := st.piece(aId.Of(f))
		if p == nil {
			return fmt.Errorf("no piece %q", aId.Of(f))
		}
		p.Poly = p.Poly.Translate(table.Vector{X: table.Length(aDx.Of(f)), Y: table.Length(aDy.Of(f))})
		p.MovedBy = aBy.Of(f)
	case kTerrainSwapped:
		st.ownPieces(c)
		a, b := st.piece(aA.Of(f)), st.piece(aB.Of(f))
		if a == nil || b == nil {
			return fmt.Errorf("terrain.swapped: no piece %q or %q", aA.Of(f), aB.Of(f))
		}
		v := b.Poly.Centroid().Sub(a.Poly.Centroid())
		a.Poly, b.Poly = a.Poly.Translate(v), b.Poly.Translate(v.Neg())
		a.MovedBy, b.MovedBy = aBy.Of(f), aBy.Of(f)
	case kFortsGranted:
		if err := needSide(); err != nil {
			return err
		}
		sd.Forts += int(aN.Of(f))
	case kFortsDone:
		if err := needSide(); err != nil {
			return err
		}
		sd.Forts = 0
	case kBasePlaced:
		st.Bases = appendOwn(&c.bases, st.Bases, Piece{ID: aSide.Of(f) + " operational base", Kind: "base", By: aSide.Of(f), Poly: table.Polygon(intsPoly(aPoly.Of(f)))})
	case kTacticChosen:
		if err := needSide(); err != nil {
			return err
		}
		sd.Tactic = aTactic.Of(f)
	case kCavalryChosen:
		if err := needSide(); err != nil {
			return err
		}
		sd.CavTactic = aTactic.Of(f)
	case kMarkerPlaced:
		st.Markers = appendOwn(&c.markers, st.Markers, Marker{Side: aSide.Of(f), Corps: aCorps.Of(f), At: table.Pt(table.Length(aX.Of(f)), table.Length(aY.Of(f)))})
	case kUnitPlaced:
		st.ownUnits(c)
		u := st.unit(aUnit.Of(f))
		if u == nil {
			return fmt.Errorf("no unit %q", aUnit.Of(f))
		}
		u.Front = table.Pt(table.Length(aX.Of(f)), table.Length(aY.Of(f)))
		u.Facing = table.Angle(aFacing.Of(f))
		u.Placed = true
	case kTurnBegun:
		st.Turn = int(aTurn.Of(f))
		st.Pending = nil
		st.Activated, st.Inactive, st.Active = nil, nil, ""
		st.ownUnits(c)
		for i := range st.Units {
			u := &st.Units[i]
			u.Moved, u.Paid, u.Passage = false, false, false
			u.Attacked, u.Supported, u.Retreated = false, false, false
			u.Bonus = 0
		}
	case kCorpsSkipped:
		st.Inactive = appendOwn(&c.inactive, st.Inactive, aCorpsStrs.Of(f)...)
	case kCorpsActivated:
		st.Active = aCorps.Of(f)
		st.Activated = appendOwn(&c.activated, st.Activated, aSide.Of(f)+"/"+aCorps.Of(f))
	case kActivationEnded:
		st.Active = ""
	case kUnitMoved, kUnitForced:
		st.ownUnits(c)
		u := st.unit(aUnit.Of(f))
		if u == nil {
			return fmt.Errorf("no unit %q", aUnit.Of(f))
		}
		u.Front = table.Pt(table.Length(aX.Of(f)), table.Length(aY.Of(f)))
		if f.Kind == kUnitMoved {
			u.Facing = table.Angle(aFacing.Of(f))
			u.Moved = true
			if aPaid.In(f) {
				u.Paid = true
			}
		}
	case kPassagesDeclared:
		st.Pending = strs(f, aUnits)
	case kPassageMade:
		for i := 0; i+1 < len(st.Pending); i += 2 {
			if st.Pending[i] == aA.Of(f) && st.Pending[i+1] == aB.Of(f) {
				st.Pending = slices.Delete(slices.Clone(st.Pending), i, i+2)
				break
			}
		}
		st.ownUnits(c)
		a, b := st.unit(aA.Of(f)), st.unit(aB.Of(f))
		if a == nil || b == nil {
			return fmt.Errorf("passage.made: no unit %q or %q", aA.Of(f), aB.Of(f))
		}
		a.Passage, b.Passage = true, true
		if aOk.Of(f) {
			// 7.6a: the two swap places.
			a.Front, b.Front = b.Front, a.Front
			a.Facing, b.Facing = b.Facing, a.Facing
		}
	case kCohesionLost:
		st.ownUnits(c)
		u := st.unit(aUnit.Of(f))
		if u == nil {
			return fmt.Errorf("no unit %q", aUnit.Of(f))
		}
		u.Cohesion -= int(aN.Of(f))
	case kCardPlayed:
		if err := needSide(); err != nil {
			return err
		}
		sd.Hand = removeOwn(sd.Hand, aCard.Of(f))
		sd.Played = append(sd.Played, aCard.Of(f))
	case kRefereeSet:
		st.ownAll(c)
		return st.applySet(aObject.Of(f), aField.Of(f), aValue.Of(f))
	case kGeneralReplaced:
		st.ownGenerals(c)
		old := st.general(aOld.Of(f))
		if old == nil {
			return fmt.Errorf("no general %q", aOld.Of(f))
		}
		st.Generals = append(st.Generals, General{Name: aGeneral.Of(f), Side: old.Side, Group: GroupBrigade, Formation: old.Formation})
		old = st.general(aOld.Of(f))
		old.Formation = ""
		if s := st.ownSide(c, old.Side); s != nil {
			s.Out = append(s.Out, old.Name)
		}
	case kObjectivesSet:
		if err := needSide(); err != nil {
			return err
		}
		sd.Objectives = nil
		for _, n := range aDone.Of(f) {
			sd.Objectives = append(sd.Objectives, int(n))
		}
	case kTacticRevealed:
	case kRewardScored:
		if err := needSide(); err != nil {
			return err
		}
		sd.Reward = int(aAmount.Of(f))
	case kBattleEnded:
		st.Step, st.Winner, st.Result = StepOver, aWinner.Of(f), aReason.Of(f)
	default:
		return fmt.Errorf("gmb: unknown fact %s", f.Kind)
	}
	return nil
}
