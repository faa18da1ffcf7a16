package gmb

import (
	"fmt"
	"slices"

	"pbem/engine"
)

// ArmyFormation is the formation a commander-in-chief commands.
const ArmyFormation = "army"

// Group names of the draw (13.5b), for REDRAW.
const (
	GroupCiC         = "commander-in-chief"
	GroupCorps       = "corps commanders"
	GroupCavCorps    = "cavalry corps commanders"
	GroupDivision    = "division commanders"
	GroupCavDivision = "cavalry division commanders"
	GroupCavalry     = "cavalry commanders"
	GroupArmyArt     = "army artillery commanders"
	GroupCorpsArt    = "corps artillery commanders"
	GroupArtillery   = "artillery commanders"
	GroupBrigade     = "brigade generals"
)

// drawPlan is one draw of 13.5d: a group of the deck, the command levels
// it holds and the formations it fills, in the procedure's order.
type drawPlan struct {
	Group      string
	Levels     []string
	Formations []string
}

func formationsOf(a *Army, kinds ...string) []string {
	var out []string
	for _, f := range a.Formations {
		if slices.Contains(kinds, f.Kind) {
			out = append(out, f.Name)
		}
	}
	return out
}

func hasLevel(a *Army, l string) bool {
	return slices.ContainsFunc(a.Generals, func(g GeneralDef) bool { return g.Level == l })
}

// plans is 13.5d for an army: the commander-in-chief (13.5d.2), corps
// (13.5d.3-4), divisions (13.5d.5), cavalry (13.5d.6) and artillery
// (13.5d.7). A branch's two levels are drawn apart when the deck has
// cards for both and the army fields both (G12; option generals-split
// deck: whenever the deck has both); else every general of the branch is
// drawn together and assigned freely (13.5e, 13.5f, 13.5-EX1).
func plans(sc *ScenarioDef, a *Army) []drawPlan {
	out := []drawPlan{{GroupCiC, []string{LevelArmy, LevelArmyCorps}, []string{ArmyFormation}}}
	if fs := formationsOf(a, KindCorps); len(fs) > 0 {
		out = append(out, drawPlan{GroupCorps, []string{LevelCorps}, fs})
	}
	if fs := formationsOf(a, KindDivision); len(fs) > 0 {
		out = append(out, drawPlan{GroupDivision, []string{LevelDivision}, fs})
	}
	branch := func(upper, lower string, upKind, lowKind, upGroup, lowGroup, allGroup string, extra ...string) {
		ups, lows := formationsOf(a, upKind), formationsOf(a, lowKind)
		deckSplit := hasLevel(a, upper) && hasLevel(a, lower)
		armySplit := len(ups) > 0 && len(lows) > 0
		split := deckSplit && armySplit
		if sc.Option("generals-split") == "deck" {
			split = deckSplit
		}
		if split {
			if len(ups) > 0 {
				out = append(out, drawPlan{upGroup, []string{upper}, ups})
			}
			if len(lows) > 0 {
				out = append(out, drawPlan{lowGroup, []string{lower}, lows})
			}
			return
		}
		if fs := append(ups, lows...); len(fs) > 0 {
			out = append(out, drawPlan{allGroup, append([]string{upper, lower}, extra...), fs})
		}
	}
	branch(LevelCavCorps, LevelCavDivision, KindCavCorps, KindCavDivision, GroupCavCorps, GroupCavDivision, GroupCavalry, LevelCavalry)
	branch(LevelArmyArt, LevelArtillery, KindArmyArt, KindCorpsArt, GroupArmyArt, GroupCorpsArt, GroupArtillery)
	return out
}

// pool lists the generals of an army of the plan's levels, in the deck's
// order.
func pool(a *Army, levels []string) []string {
	var out []string
	for _, g := range a.Generals {
		if slices.Contains(levels, g.Level) {
			out = append(out, g.Name)
		}
	}
	return out
}

// drawPlanCheck makes sure every group holds a general for each of its
// formations (else the scenario cannot be played by the rules).
func drawPlanCheck(sc *ScenarioDef, a *Army) error {
	for i, p := range plans(sc, a) {
		n := len(pool(a, p.Levels))
		if i == 1 && p.Group == GroupCorps {
			// The Army/Corps generals the commander-in-chief's draw leaves
			// (at worst it takes one of them).
			n += max(0, len(pool(a, []string{LevelArmyCorps}))-1)
		}
		if n < len(p.Formations) {
			return fmt.Errorf("army %s: %d generals for the %d formations of %s (13.5)", a.Side, n, len(p.Formations), p.Group)
		}
	}
	return nil
}

// drawGenerals draws an army's generals (13.5d) with public dice: the
// opponent draws them, openly (13.5a).
func (m *sim) drawGenerals(army string, by string) {
	st := m.State
	a := st.Scn.Army(army)
	var left []string // Army/Corps generals left by the commander-in-chief's draw (13.5d.3)
	for _, p := range plans(st.Scn, a) {
		cands := pool(a, p.Levels)
		if p.Group == GroupCorps {
			cands = append(cands, left...)
			left = nil
		}
		if len(cands) == 1 && len(p.Formations) == 1 {
			// 13.5d.8: a group of one general is assigned, not drawn.
			m.Emit(kGeneralsDrawn, aSide.Arg(army), aGroup.Arg(p.Group), aFormations.Arg(p.Formations...),
				aGenerals.Arg(cands...), aAside.Arg(), aAuto.Arg(true))
			continue
		}
		sh := engine.Shuffle(m.Dice, fmt.Sprintf("shuffle %s's %s", army, p.Group), cands)
		n := len(p.Formations)
		drawn, rest := sh[:n], sh[n:]
		var aside []string
		if p.Group == GroupCiC && len(formationsOf(a, KindCorps)) > 0 {
			for _, g := range rest {
				if levelOf(a, g) == LevelArmyCorps {
					left = append(left, g)
				} else {
					aside = append(aside, g)
				}
			}
		} else {
			aside = rest
		}
		m.Emit(kGeneralsDrawn, aSide.Arg(army), aGroup.Arg(p.Group), aFormations.Arg(p.Formations...),
			aGenerals.Arg(drawn...), aAside.Arg(aside...))
	}
	m.Emit(kArmyDrawn, aSide.Arg(army), aBy.Arg(by))
}

func levelOf(a *Army, name string) string {
	for _, g := range a.Generals {
		if g.Name == name {
			return g.Level
		}
	}
	return ""
}

// character is a general's character (13.8b).
func (s *State) character(side, name string) string {
	for _, g := range s.Scn.Army(side).Generals {
		if g.Name == name {
			return g.Character
		}
	}
	return ""
}

// commandDice is a general's command test dice (R2).
func (s *State) commandDice(side, name string) int {
	for _, g := range s.Scn.Army(side).Generals {
		if g.Name == name {
			return g.Command
		}
	}
	return 1 // a brigade general of the generic deck (13.5i)
}

// cic is a side's commander-in-chief.
func (s *State) cic(side string) string {
	if g := s.generalOf(side, ArmyFormation); g != nil {
		return g.Name
	}
	return ""
}

// group returns a side's draw group of a name.
func (sd *Side) group(name string) *DrawGroup {
	for i := range sd.Groups {
		if sd.Groups[i].Name == name {
			return &sd.Groups[i]
		}
	}
	return nil
}

// nextBrigadeGeneral is who replaces an eliminated general (13.5i, 4.15):
// the army's historical brigade generals first, by lot among several,
// then the generic deck.
func (m *sim) nextBrigadeGeneral(side string) string {
	st := m.State
	used := func(n string) bool {
		return st.general(n) != nil || slices.ContainsFunc(st.Sides, func(sd Side) bool { return slices.Contains(sd.Out, n) })
	}
	var hist []string
	for _, g := range pool(st.Scn.Army(side), []string{LevelBrigade}) {
		if !used(g) {
			hist = append(hist, g)
		}
	}
	if len(hist) == 1 {
		return hist[0]
	}
	if len(hist) > 1 {
		return hist[m.Dice.Roll("lot among "+side+"'s historical brigade generals", len(hist))-1]
	}
	var generic []string
	for _, g := range st.Scn.BrigadeDeck {
		if !used(g) {
			generic = append(generic, g)
		}
	}
	if len(generic) == 0 {
		return ""
	}
	return generic[m.Dice.Roll("draw from the brigade generals' deck", len(generic))-1]
}
