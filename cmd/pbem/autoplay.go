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
	script map[string][]string // by participant id
}

// choose returns the order for a participant given the prompt's examples.
func (ap *autoplayer) choose(id string, examples []string) (string, bool) {
	if q := ap.script[id]; len(q) > 0 {
		word := strings.ToUpper(strings.Fields(q[0])[0])
		for _, ex := range examples {
			if f := strings.Fields(ex); len(f) > 0 && strings.ToUpper(f[0]) == word {
				ap.script[id] = q[1:]
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
				if text, ok := ap.choose(pl.ID, p.Examples); ok {
					return pl.ID, text, true
				}
			}
		}
	}
	return "", "", false
}
