package gmb

import (
	"fmt"
	"slices"

	"pbem/engine/table"
	"pbem/events"
)

// evolve applies one fact to a copy of the state.
func evolve(s *State, f events.Fact) (*State, error) {
	st := *s
	if err := st.apply(f, &cow{}); err != nil {
		return nil, err
	}
	return &st, nil
}

// evolveAll applies a decision's facts to one copy of the state.
func evolveAll(s *State, fs []events.Fact) (*State, error) {
	st := *s
	c := &cow{}
	for _, f := range fs {
		if err := st.apply(f, c); err != nil {
			return nil, fmt.Errorf("evolve %s: %w", f.Kind, err)
		}
	}
	return &st, nil
}

// cow is copy on write: which lists of a state being evolved are its own
// already (a state shares every list with the one it was evolved from
// until it changes one: a replay copies only what a decision changes).
type cow struct {
	sides, units, pieces, generals, left bool
	side                                 []bool
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
	st.Points, st.Bridges, st.Bases = slices.Clip(st.Points), slices.Clip(st.Bridges), slices.Clip(st.Bases)
	st.Markers, st.Activated, st.Inactive = slices.Clip(st.Markers), slices.Clip(st.Activated), slices.Clip(st.Inactive)
}

func strs(f events.Fact, key string) []string { return slices.Clone(f.Strs(key)) }

func remove(list []string, x string) []string {
	if i := slices.Index(list, x); i >= 0 {
		return slices.Delete(slices.Clone(list), i, i+1)
	}
	return list
}

// apply changes st (a shallow copy: its lists are another state's until
// c says they are its own) by one fact. It keeps nothing of f but
// strings: every list is copied.
func (st *State) apply(f events.Fact, c *cow) error {
	var sd *Side
	needSide := func() error {
		if sd = st.ownSide(c, f.Str("side")); sd == nil {
			return fmt.Errorf("%s: no side %q", f.Kind, f.Str("side"))
		}
		return nil
	}
	switch f.Kind {
	case "table.proposed":
		if err := needSide(); err != nil {
			return err
		}
		sd.TableVote = f.Str("size")
	case "table.set":
		g, ok := st.Scn.Geom(f.Str("size"))
		if !ok {
			return fmt.Errorf("no table %q", f.Str("size"))
		}
		st.TableSize, st.W, st.H = g.Size, g.Width, g.Height
	case "year.proposed":
		if err := needSide(); err != nil {
			return err
		}
		sd.YearVote = int(f.Int("year"))
	case "year.set":
		st.Year = int(f.Int("year"))
	case "step.begun":
		st.Step = f.Str("step")
		side, n := f.Str("side"), int(f.Int("n"))
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
	case "turn.passed":
		st.Placer = f.Str("side")
	case "generals.drawn":
		if err := needSide(); err != nil {
			return err
		}
		fs, gs := f.Strs("formations"), f.Strs("generals")
		if len(fs) != len(gs) {
			return fmt.Errorf("generals.drawn: %d generals for %d formations", len(gs), len(fs))
		}
		grp := f.Str("group")
		st.ownGenerals(c)
		for i, g := range gs {
			st.Generals = append(st.Generals, General{Name: g, Side: sd.Name, Group: grp, Formation: fs[i]})
		}
		sd.Groups = append(sd.Groups, DrawGroup{Name: grp, Formations: strs(f, "formations"), SetAside: strs(f, "aside")})
	case "army.drawn":
		if err := needSide(); err != nil {
			return err
		}
		sd.Drawn = true
	case "general.redrawn":
		if err := needSide(); err != nil {
			return err
		}
		grp := sd.group(f.Str("group"))
		if grp == nil {
			return fmt.Errorf("no group %q", f.Str("group"))
		}
		grp.SetAside = remove(grp.SetAside, f.Str("general"))
		sd.Redrawn, sd.RedrawGroup = f.Str("general"), grp.Name
		sd.Redraws--
	case "general.swapped":
		if err := needSide(); err != nil {
			return err
		}
		st.ownGenerals(c)
		old := st.general(f.Str("old"))
		if old == nil {
			return fmt.Errorf("no general %q", f.Str("old"))
		}
		st.Generals = append(st.Generals, General{Name: f.Str("general"), Side: sd.Name, Group: old.Group, Formation: old.Formation})
		old = st.general(f.Str("old"))
		old.Formation = ""
		sd.Out = append(sd.Out, old.Name)
		sd.Redrawn, sd.RedrawGroup = "", ""
	case "general.discarded":
		if err := needSide(); err != nil {
			return err
		}
		sd.Out = append(sd.Out, f.Str("general"))
		sd.Redrawn, sd.RedrawGroup = "", ""
	case "general.assigned":
		st.ownGenerals(c)
		g := st.general(f.Str("general"))
		if g == nil {
			return fmt.Errorf("no general %q", f.Str("general"))
		}
		to, from := f.Str("formation"), g.Formation
		if h := st.generalOf(g.Side, to); h != nil {
			h.Formation = from
		}
		g = st.general(f.Str("general"))
		g.Formation = to
	case "generals.done", "special.done", "patrol.done":
		if err := needSide(); err != nil {
			return err
		}
		sd.Done = true
	case "cards.drawn":
		if err := needSide(); err != nil {
			return err
		}
		cs := f.Strs("cards")
		for _, c := range cs {
			if !slices.Contains(sd.Deck, c) {
				return fmt.Errorf("cards.drawn: %s's deck holds no %q", sd.Name, c)
			}
			sd.Deck = remove(sd.Deck, c)
		}
		if f.Str("into") == "choice" {
			sd.Drawn5 = append(append(slices.Clone(sd.Drawn5), sd.Hand...), cs...)
			sd.Hand, sd.Kept = nil, false
		} else {
			sd.Hand = append(sd.Hand, cs...) // the side's own list (ownSide)
		}
	case "cards.dealt", "hand.kept", "tactic.made", "initiative.tied", "combat.resolved", "command.tested",
		"passages.done", "objectives.noted", "turn.noted":
		if f.Kind == "hand.kept" {
			if err := needSide(); err != nil {
				return err
			}
			sd.Kept = true
		}
		if f.Kind == "tactic.made" {
			if err := needSide(); err != nil {
				return err
			}
			sd.TacticMade = true
		}
	case "cards.kept":
		if err := needSide(); err != nil {
			return err
		}
		sd.Hand = strs(f, "kept")
		sd.Deck = append(sd.Deck, f.Strs("returned")...)
		sd.Drawn5 = nil
		sd.Kept = true
	case "battlefield.declared":
		if err := needSide(); err != nil {
			return err
		}
		sd.Battlefield, sd.Forced = f.Str("field"), f.Bool("forced")
	case "morale.set":
		if err := needSide(); err != nil {
			return err
		}
		sd.Morale = f.Str("level")
	case "initiative.rolled":
		if err := needSide(); err != nil {
			return err
		}
		sd.Successes = int(f.Int("successes"))
	case "initiative.won":
		if f.Has("battlefield") {
			st.PlayerA, st.Battlefield = f.Str("side"), f.Str("battlefield")
		}
		st.Initiative = f.Str("side")
	case "list.chosen":
		l, ok := st.Scn.List(f.Str("list"))
		if !ok {
			return fmt.Errorf("no terrain list %q", f.Str("list"))
		}
		st.List = l.Name
		st.Left, c.left = nil, true
		for _, e := range terrainAmount(l, st.Scn.Option("terrain-amount")) {
			st.Left = append(st.Left, ListEntry{e.Kind, 2 * e.Count}) // in half pieces (13.10f)
		}
	case "points.placed":
		st.Points = intsPoly(f.Ints("at"))
	case "terrain.placed":
		p := Piece{ID: f.Str("id"), Kind: f.Str("kind"), By: f.Str("by"), Flags: strs(f, "flags"), Along: f.Str("along"), Half: f.Bool("half")}
		if f.Has("path") {
			p.Path = table.Polyline(intsPoly(f.Ints("path")))
		} else {
			p.Poly = table.Polygon(intsPoly(f.Ints("poly")))
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
	case "terrain.passed":
		if st.Step == StepNormal {
			st.Left = nil
		} else if st.Scn.Option("linear-pool") == "pool" || st.Step == StepFences {
			st.Pool--
		}
		st.Passed = f.Str("side")
	case "bridge.placed":
		st.Bridges = append(slices.Clip(st.Bridges), Bridge{ID: f.Str("id"), At: table.Pt(table.Length(f.Int("x")), table.Length(f.Int("y"))), Over: f.Str("over"), By: f.Str("by")})
	case "terrain.moved":
		st.ownPieces(c)
		p := st.piece(f.Str("id"))
		if p == nil {
			return fmt.Errorf("no piece %q", f.Str("id"))
		}
		p.Poly = p.Poly.Translate(table.Vector{X: table.Length(f.Int("dx")), Y: table.Length(f.Int("dy"))})
		p.MovedBy = f.Str("by")
	case "terrain.swapped":
		st.ownPieces(c)
		a, b := st.piece(f.Str("a")), st.piece(f.Str("b"))
		if a == nil || b == nil {
			return fmt.Errorf("terrain.swapped: no piece %q or %q", f.Str("a"), f.Str("b"))
		}
		v := b.Poly.Centroid().Sub(a.Poly.Centroid())
		a.Poly, b.Poly = a.Poly.Translate(v), b.Poly.Translate(v.Neg())
		a.MovedBy, b.MovedBy = f.Str("by"), f.Str("by")
	case "forts.granted":
		if err := needSide(); err != nil {
			return err
		}
		sd.Forts += int(f.Int("n"))
	case "forts.done":
		if err := needSide(); err != nil {
			return err
		}
		sd.Forts = 0
	case "base.placed":
		st.Bases = append(slices.Clip(st.Bases), Piece{ID: f.Str("side") + " operational base", Kind: "base", By: f.Str("side"), Poly: table.Polygon(intsPoly(f.Ints("poly")))})
	case "tactic.chosen":
		if err := needSide(); err != nil {
			return err
		}
		sd.Tactic = f.Str("tactic")
	case "cavalry.chosen":
		if err := needSide(); err != nil {
			return err
		}
		sd.CavTactic = f.Str("tactic")
	case "marker.placed":
		st.Markers = append(slices.Clip(st.Markers), Marker{Side: f.Str("side"), Corps: f.Str("corps"), At: table.Pt(table.Length(f.Int("x")), table.Length(f.Int("y")))})
	case "unit.placed":
		st.ownUnits(c)
		u := st.unit(f.Str("unit"))
		if u == nil {
			return fmt.Errorf("no unit %q", f.Str("unit"))
		}
		u.Front = table.Pt(table.Length(f.Int("x")), table.Length(f.Int("y")))
		u.Facing = table.Angle(f.Int("facing"))
		u.Placed = true
	case "turn.begun":
		st.Turn = int(f.Int("turn"))
		st.Activated, st.Inactive, st.Active = nil, nil, ""
		st.ownUnits(c)
		for i := range st.Units {
			u := &st.Units[i]
			u.Moved, u.Paid, u.Passage = false, false, false
			u.Attacked, u.Supported, u.Retreated = false, false, false
			u.Bonus = 0
		}
	case "corps.skipped":
		st.Inactive = append(slices.Clip(st.Inactive), f.Strs("corps")...)
	case "corps.activated":
		st.Active = f.Str("corps")
		st.Activated = append(slices.Clip(st.Activated), f.Str("side")+"/"+f.Str("corps"))
	case "activation.ended":
		st.Active = ""
	case "unit.moved", "unit.forced":
		st.ownUnits(c)
		u := st.unit(f.Str("unit"))
		if u == nil {
			return fmt.Errorf("no unit %q", f.Str("unit"))
		}
		u.Front = table.Pt(table.Length(f.Int("x")), table.Length(f.Int("y")))
		if f.Kind == "unit.moved" {
			u.Facing = table.Angle(f.Int("facing"))
			u.Moved = true
			if f.Has("paid") {
				u.Paid = true
			}
		}
	case "passage.made":
		st.ownUnits(c)
		a, b := st.unit(f.Str("a")), st.unit(f.Str("b"))
		if a == nil || b == nil {
			return fmt.Errorf("passage.made: no unit %q or %q", f.Str("a"), f.Str("b"))
		}
		a.Passage, b.Passage = true, true
		if f.Bool("ok") {
			// 7.6a: the two swap places.
			a.Front, b.Front = b.Front, a.Front
			a.Facing, b.Facing = b.Facing, a.Facing
		}
	case "cohesion.lost":
		st.ownUnits(c)
		u := st.unit(f.Str("unit"))
		if u == nil {
			return fmt.Errorf("no unit %q", f.Str("unit"))
		}
		u.Cohesion -= int(f.Int("n"))
	case "card.played":
		if err := needSide(); err != nil {
			return err
		}
		sd.Hand = remove(sd.Hand, f.Str("card"))
		sd.Played = append(sd.Played, f.Str("card"))
	case "referee.set":
		st.ownAll(c)
		return st.applySet(f.Str("object"), f.Str("field"), f.Str("value"))
	case "general.replaced":
		st.ownGenerals(c)
		old := st.general(f.Str("old"))
		if old == nil {
			return fmt.Errorf("no general %q", f.Str("old"))
		}
		st.Generals = append(st.Generals, General{Name: f.Str("general"), Side: old.Side, Group: GroupBrigade, Formation: old.Formation})
		old = st.general(f.Str("old"))
		old.Formation = ""
		if s := st.ownSide(c, old.Side); s != nil {
			s.Out = append(s.Out, old.Name)
		}
	case "objectives.set":
		if err := needSide(); err != nil {
			return err
		}
		sd.Objectives = nil
		for _, n := range f.Ints("done") {
			sd.Objectives = append(sd.Objectives, int(n))
		}
	case "tactic.revealed":
	case "reward.scored":
		if err := needSide(); err != nil {
			return err
		}
		sd.Reward = int(f.Int("amount"))
	case "battle.ended":
		st.Step, st.Winner, st.Result = StepOver, f.Str("winner"), f.Str("reason")
	default:
		return fmt.Errorf("gmb: unknown fact %s", f.Kind)
	}
	return nil
}
