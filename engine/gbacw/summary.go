package gbacw

import (
	"fmt"
	"sort"

	"pbem/engine"
)

// summarize is what a scenario is, for 'pbem scenarios': its map, its
// turns, and the options (gbacw.md B1-B21) it turns on.
func summarize(s *State) engine.Summary {
	sc := s.Scn
	var keys []string
	for k := range optionNames {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var rules []string
	for _, k := range keys {
		if k == "b5-march-fixed" {
			if sc.Options.MarchFixed != 0 {
				rules = append(rules, fmt.Sprintf("option %s=%d", k, sc.Options.MarchFixed))
			}
			continue
		}
		o := sc.Options
		if optionNames[k](&o, "") == nil && o == sc.Options {
			rules = append(rules, "option "+k) // already on: setting it changed nothing
		}
	}
	return engine.Summary{
		Sides: []string{USA, CSA},
		Size:  fmt.Sprintf("%d x %d hexes", sc.Grid.Cols, sc.Grid.Rows),
		Turns: sc.Turns,
		Rules: rules,
	}
}
