package gcacw

import (
	"fmt"

	"pbem/engine"
)

// summarize is what a scenario is, for 'pbem scenarios' (its options,
// readings and house rules are in Explain's welcome sections).
func summarize(s *State) engine.Summary {
	m := s.Scn.Map
	return engine.Summary{
		Sides: []string{USA, CSA},
		Size:  fmt.Sprintf("%d x %d hexes", m.Last.Col-m.First.Col+1, m.Last.Row-m.First.Row+1),
		Turns: s.Scn.Turns,
	}
}
