package hra

import (
	"fmt"

	"pbem/engine"
	"pbem/engine/table"
)

// summarize is what a scenario is, for 'pbem scenarios': its table, its
// rounds, and each reading it chose where the seed reads two ways.
func summarize(s *State) engine.Summary {
	sc := s.Scn
	pick := func(on bool, off, yes string) string {
		if on {
			return yes
		}
		return off
	}
	rules := []string{
		fmt.Sprintf("charges %d a day; a brigade whose general is killed goes to status %d; %d VP per enemy unit removed", sc.Charges, sc.LeaderlessStatus, sc.RemovedVP),
		"dismounted-fire " + pick(sc.DismountedFireAsInfantry, "cavalry", "infantry") + " (HRA H15)",
		"turn-over-90 " + pick(sc.TurnPerQuarter, "two-cm", "per-quarter") + " (HRA 9c, H4)",
		"crossing " + pick(sc.CrossingAlone, "ends-march", "alone") + " (T1)",
		"wheel-travel " + pick(sc.WheelTravel, "free", "counted") + " (HRA 9c, 9d)",
	}
	if sc.Sample {
		rules = append(rules, "SAMPLE data: not the rules' own; the scenario file marks each line")
	}
	return engine.Summary{
		Sides: []string{Union, Confederate},
		Size:  fmt.Sprintf("%s x %s table", sc.Width.Format(table.Centimetres), sc.Height.Format(table.Centimetres)),
		Turns: sc.Rounds,
		Rules: rules,
	}
}
