package gmb

import (
	"fmt"
	"strings"

	"pbem/engine"
)

// summarize is what a scenario is, for 'pbem scenarios': its armies, its
// table (fixed, or the sizes the players choose from by mail), its turns,
// and the reading it chose of every switch.
func summarize(s *State) engine.Summary {
	sc := s.Scn
	var sides []string
	for _, a := range sc.Armies {
		sides = append(sides, a.Side)
	}
	size := sc.TableSize + " inch table"
	if sc.TableSize == "" {
		var sizes []string
		for _, t := range sc.Tables {
			sizes = append(sizes, t.Size)
		}
		size = "table chosen by mail: " + strings.Join(sizes, " or ") + " inches"
	}
	rules := []string{"combat " + sc.Combat, "initiative-ties " + sc.InitTies}
	for _, o := range options {
		rules = append(rules, fmt.Sprintf("option %s %s", o.Key, sc.Option(o.Key)))
	}
	if sc.Historical {
		rules = append(rules, "historical: no 12\" x 6\" limit on a piece, terrain on terrain allowed (13.2a, 13.10o)")
	}
	if len(sc.Layout) > 0 {
		rules = append(rules, fmt.Sprintf("terrain layout of %d pieces instead of 13.10's method (13.10a)", len(sc.Layout)))
	}
	if sc.Sample {
		rules = append(rules, "SAMPLE data: not the publisher's")
	}
	return engine.Summary{Sides: sides, Size: size, Turns: sc.Turns, Rules: rules}
}
