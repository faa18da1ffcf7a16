package hra

import (
	"fmt"
	"slices"
	"strings"

	"pbem/engine"
)

// A battle fought out for a campaign may be set up by the campaign's
// mapping (engine.MusterWord lines appended to the scenario): on a side
// the lines name forces of, only those brigades take part, each unit
// starting at its campaign unit's share left of its full state of 3 (the
// campaign scenario's house rule, SAMPLE); the side's other brigades
// leave the table. A force is a brigade (HRA 2e: the brigade is what a
// general commands, so it comes or stays whole).

// musterMeasure is what a mapped force's share is applied to.
const musterMeasure = "each unit's starting state (full is 3, HRA 3a; at least 1)"

// applyMuster sets the scenario up with the forces: it returns the lines
// that tell the players what fights and at what strength.
func (sc *ScenarioDef) applyMuster(forces []engine.BattleForce) ([]string, error) {
	if len(forces) == 0 {
		return nil, nil
	}
	mustered := map[string]bool{}
	byBrigade := map[string]engine.BattleForce{}
	for _, f := range forces {
		if f.Side != Union && f.Side != Confederate {
			return nil, fmt.Errorf("hra: the campaign's force %s: %q is not a side of this game (%s, %s)", f.Force, f.Side, Union, Confederate)
		}
		i := slices.IndexFunc(sc.Brigades, func(b BrigadeDef) bool { return strings.EqualFold(b.Name, f.Force) })
		if i < 0 {
			return nil, fmt.Errorf("hra: the campaign maps %s to %q, which is no brigade of scenario %s", f.Unit, f.Force, sc.Name)
		}
		if b := sc.Brigades[i]; b.Side != f.Side {
			return nil, fmt.Errorf("hra: the campaign maps %s to %s's brigade %s, which is %s's", f.Unit, f.Side, b.Name, b.Side)
		}
		byBrigade[sc.Brigades[i].Name] = f
		mustered[f.Side] = true
	}
	var tell, lines, out []string
	var units []UnitDef
	for _, u := range sc.Units {
		f, in := byBrigade[u.Brigade]
		switch {
		case in:
			u.State = f.Scale(3, 1)
			if u.State < 3 {
				lines = append(lines, fmt.Sprintf("%s starts at state %d of 3.", u.Name, u.State))
			}
			units = append(units, u)
		case mustered[u.Side]:
			out = append(out, u.Name)
		default:
			units = append(units, u)
		}
	}
	sc.Units = units
	sc.Brigades = slices.DeleteFunc(sc.Brigades, func(b BrigadeDef) bool {
		_, in := byBrigade[b.Name]
		return mustered[b.Side] && !in
	})
	for _, side := range Sides {
		var fs []string
		for _, f := range forces {
			if f.Side == side {
				fs = append(fs, f.Force+" (the campaign's "+f.Share()+")")
			}
		}
		if len(fs) == 0 {
			tell = append(tell, side+": none of its units in the campaign's assault is mapped: its forces are the scenario's as written.")
			continue
		}
		tell = append(tell, side+": "+strings.Join(fs, "; ")+".")
	}
	tell = append(tell, lines...)
	if len(out) > 0 {
		tell = append(tell, "Left out, no unit of theirs in the campaign's assault: "+strings.Join(out, ", ")+".")
	}
	return append(tell, engine.MusterRule(musterMeasure)), nil
}

// startState is the state a unit starts the game at: full (3, HRA 3a),
// unless a campaign set the battle up weaker.
func (u UnitDef) startState() int {
	if u.State > 0 {
		return u.State
	}
	return 3
}

// explain is engine.Explainer's: the welcome's section on the forces a
// campaign set the battle up with (HRA says nothing more there).
func explain(st *State, _ engine.Viewer, word string) []engine.Explanation {
	if word != engine.ExplainWelcome || len(st.Scn.Muster) == 0 {
		return nil
	}
	return []engine.Explanation{{Heading: engine.MusterHeading, Lines: st.Scn.Muster}}
}
