package gbacw

import (
	"fmt"

	"pbem/engine"
)

// summarize is what a scenario is, for 'pbem scenarios': its sides, its
// map and its turns. The options it turns on, and every reading, are
// the welcome sections' (explain), which 'pbem scenarios --long' prints.
func summarize(s *State) engine.Summary {
	sc := s.Scn
	return engine.Summary{
		Sides: []string{USA, CSA},
		Size:  fmt.Sprintf("%d x %d hexes", sc.Grid.Cols, sc.Grid.Rows),
		Turns: sc.Turns,
	}
}
