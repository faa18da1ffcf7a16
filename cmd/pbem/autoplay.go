package main

import (
	"pbem/engine/play"
	"strings"
)

// autoplayer plays scripted participants: each has orders to send in turn;
// when what is asked now does not take the next scripted order (its first
// word is not among the prompt's examples), it sends the prompt's first
// example instead. Referees always send the first example. Used by the
// demo's mail bots and by the bench's model game, so both play real games
// whatever the dice.
type autoplayer struct {
	script map[string][]string // by side
}

// choose returns the order for side given the prompt's examples.
func (ap *autoplayer) choose(side string, examples []string) (string, bool) {
	if q := ap.script[side]; len(q) > 0 {
		word := strings.ToUpper(strings.Fields(q[0])[0])
		for _, ex := range examples {
			if f := strings.Fields(ex); len(f) > 0 && strings.ToUpper(f[0]) == word {
				ap.script[side] = q[1:]
				return q[0], true
			}
		}
	}
	if len(examples) == 0 {
		return "", false
	}
	return examples[0], true
}

// refereeChoice is what a scripted referee rules: done, when that is
// offered (so a phase the rules hand over ends), else the first example.
func refereeChoice(examples []string) string {
	for _, ex := range examples {
		if strings.HasSuffix(strings.ToUpper(ex), " DONE") {
			return ex
		}
	}
	return examples[0]
}

// demoOrders are the scripted orders of the Harrow Creek demo game, by side.
func demoOrders() map[string][]string {
	return map[string][]string{
		"USA": {"MARCH Lyle 1605 FORCE IF MA < 3", "ACTIVATE Kellogg: Vane 1310 1311", "MARCH Orne 1407 1307 FORCE"},
		"CSA": {"MARCH Starlng 0810", "ACTIVATE Gaines: Becket 0605; Washburn 0507", "MARCH Starling 0810 FORCE"},
		// HRA's Kettle Run (its sides are Union and Confederate): a typo
		// first, then the prompts' examples carry the game to its end.
		"Union":       {"Iron Brigade: ADVANCE 4", "Buford's Horse: ADVANCE 5"},
		"Confederate": {"Stonewall Brigadier: ADVANCE 4", "Stonewall Brigade: ADVANCE 4"},
	}
}

// nextMove picks who acts now and what they send, from the prompts.
func (ap *autoplayer) nextMove(g *play.Game) (participant, text string, ok bool) {
	for _, p := range g.Prompts(g.State, nil) {
		if p.Referee {
			if len(g.Created.Referees) == 0 || len(p.Examples) == 0 {
				continue
			}
			return g.Created.Referees[0].ID, refereeChoice(p.Examples), true
		}
		for _, pl := range g.Created.Players {
			if pl.Side == p.Side {
				if text, ok := ap.choose(p.Side, p.Examples); ok {
					return pl.ID, text, true
				}
			}
		}
	}
	return "", "", false
}
