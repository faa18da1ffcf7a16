package gbacw

import (
	"fmt"
	"slices"
	"strings"

	"pbem/engine"
)

// A battle fought out for a campaign may be set up by the campaign's
// mapping (engine.MusterWord lines appended to the scenario): on a side
// the lines name forces of, only those forces take part, each unit's
// strength points cut to its campaign unit's share left (the campaign
// scenario's house rule, SAMPLE); the other brigades of that side leave
// the scenario with their leaders. A force is a brigade, division or
// corps of the scenario, or one unit.

// musterMeasure is what a mapped force's share is applied to.
const musterMeasure = "each unit's strength points (its counter's SP, at least 1)"

// applyMuster sets the scenario up with the forces: it returns the lines
// that tell the players what fights and at what strength.
func (sc *ScenarioDef) applyMuster(forces []engine.BattleForce) ([]string, error) {
	if len(forces) == 0 {
		return nil, nil
	}
	scale := make([]*engine.BattleForce, len(sc.Units)) // the force each unit is in
	mustered := map[string]bool{}
	for i := range forces {
		f := &forces[i]
		if f.Side != USA && f.Side != CSA {
			return nil, fmt.Errorf("gbacw: the campaign's force %s: %q is not a side of this game (%s, %s)", f.Force, f.Side, USA, CSA)
		}
		n := 0
		for j, u := range sc.Units {
			if sc.unitIn(u, f.Force) {
				if side := sc.sideOfBrigade(u.Brigade); side != f.Side {
					return nil, fmt.Errorf("gbacw: the campaign maps %s to %s's force %s, which is %s's", f.Unit, f.Side, f.Force, side)
				}
				scale[j] = f
				n++
			}
		}
		if n == 0 {
			return nil, fmt.Errorf("gbacw: the campaign maps %s to %q, which is no brigade, division, corps or unit of scenario %s", f.Unit, f.Force, sc.Name)
		}
		mustered[f.Side] = true
	}
	var lines []string
	var out []string
	var units []UnitDef
	for j, u := range sc.Units {
		f := scale[j]
		switch {
		case f != nil:
			sp := f.Scale(u.SP, 1)
			if sp != u.SP {
				lines = append(lines, fmt.Sprintf("%s fights with %d SP of its %d.", u.Name, sp, u.SP))
			}
			u.SP = sp
			u.StartSP = f.Scale(u.StartSP, 1)
			units = append(units, u)
		case mustered[sc.sideOfBrigade(u.Brigade)]:
			out = append(out, u.Name)
		default:
			units = append(units, u)
		}
	}
	sc.Units = units
	// A brigade with no unit left leaves with its leader.
	var brigades []BrigadeDef
	for _, b := range sc.Brigades {
		if slices.ContainsFunc(sc.Units, func(u UnitDef) bool { return u.Brigade == b.Name }) {
			brigades = append(brigades, b)
			continue
		}
		sc.Leaders = slices.DeleteFunc(sc.Leaders, func(l LeaderDef) bool { return l.Name == b.Leader })
	}
	sc.Brigades = brigades
	var tell []string
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

// unitIn reports whether unit u is force: its name or code, or that of
// its brigade, division or corps.
func (sc *ScenarioDef) unitIn(u UnitDef, force string) bool {
	if strings.EqualFold(u.Name, force) || strings.EqualFold(u.Code, force) || strings.EqualFold(u.Brigade, force) {
		return true
	}
	b := sc.brigadeDef(u.Brigade)
	if b == nil {
		return false
	}
	if strings.EqualFold(b.Division, force) {
		return true
	}
	d := sc.divisionDef(b.Division)
	return d != nil && strings.EqualFold(d.Corps, force)
}
