package gmb

import (
	"fmt"
	"strings"

	"pbem/engine"
)

// A battle fought out for a campaign may be set up by the campaign's
// mapping (engine.MusterWord lines appended to the scenario): on a side
// the lines name forces of, only those forces' units are in its army
// list, a force of several units keeping its campaign unit's share left
// of them (the first in the list, at least one: the campaign scenario's
// house rule, SAMPLE); the side's other units leave the list. A force is
// a unit of the army list, or a formation (a corps, division or
// artillery, with the formations under it).

// musterMeasure is what a mapped force's share is applied to.
const musterMeasure = "the number of units of the force (the first in its army list, at least one)"

// applyMuster sets the scenario up with the forces: it returns the lines
// that tell the players what fights and at what strength.
func (sc *ScenarioDef) applyMuster(forces []engine.BattleForce) ([]string, error) {
	if len(forces) == 0 {
		return nil, nil
	}
	var tell, lines, out []string
	mustered := map[string]bool{}
	for _, f := range forces {
		if sc.Army(f.Side) == nil {
			return nil, fmt.Errorf("gmb: the campaign's force %s: %q is not a side of scenario %s", f.Force, f.Side, sc.Name)
		}
		mustered[f.Side] = true
	}
	for ai := range sc.Armies {
		a := &sc.Armies[ai]
		if !mustered[a.Side] {
			continue
		}
		keep := make([]bool, len(a.Units))
		for _, f := range forces {
			if f.Side != a.Side {
				continue
			}
			var in []int
			for i, u := range a.Units {
				if strings.EqualFold(u.Name, f.Force) || a.under(u.Formation, f.Force) {
					in = append(in, i)
				}
			}
			if len(in) == 0 {
				return nil, fmt.Errorf("gmb: the campaign maps %s to %q, which is no unit or formation of %s's army list in scenario %s", f.Unit, f.Force, a.Side, sc.Name)
			}
			n := f.Scale(len(in), 1)
			for _, i := range in[:n] {
				keep[i] = true
			}
			if n < len(in) {
				var names []string
				for _, i := range in[:n] {
					names = append(names, a.Units[i].Name)
				}
				lines = append(lines, fmt.Sprintf("%s fields %d of its %d units: %s.", f.Force, n, len(in), strings.Join(names, ", ")))
			}
		}
		var units []UnitDef
		for i, u := range a.Units {
			if keep[i] {
				units = append(units, u)
			} else {
				out = append(out, u.Name)
			}
		}
		a.Units = units
	}
	for _, a := range sc.Armies {
		var fs []string
		for _, f := range forces {
			if f.Side == a.Side {
				fs = append(fs, f.Force+" (the campaign's "+f.Share()+")")
			}
		}
		if len(fs) == 0 {
			tell = append(tell, a.Side+": none of its units in the campaign's assault is mapped: its army list is the scenario's as written.")
			continue
		}
		tell = append(tell, a.Side+": "+strings.Join(fs, "; ")+".")
	}
	tell = append(tell, lines...)
	if len(out) > 0 {
		tell = append(tell, "Left out, no unit of theirs in the campaign's assault: "+strings.Join(out, ", ")+".")
	}
	return append(tell, engine.MusterRule(musterMeasure)), nil
}

// under reports whether formation f is formation top or one under it.
func (a *Army) under(f, top string) bool {
	for range 8 { // corps > division: never deeper
		if f == "" {
			return false
		}
		if strings.EqualFold(f, top) {
			return true
		}
		fm, ok := a.Formation(f)
		if !ok {
			return false
		}
		f = fm.Parent
	}
	return false
}
