// Package autoplay plays scripted games: a rule system's demo game (its
// scenario, participants and their orders) and the Player that sends
// those orders in turn, or what the game's prompts offer when the script
// does not fit, so that a scripted game plays to its end whatever the
// dice. 'pbem demo' plays one by mail; 'pbem bench' and the tests play
// one straight through the engine (Play).
package autoplay

import (
	"strings"

	"pbem/engine/play"
)

// Player plays scripted participants: each has orders to send in turn;
// when what is asked now does not take the next scripted order (its first
// word is not among the prompt's examples), it sends the prompt's first
// example instead. Referees always send the first example. Used by the
// demo's mail bots and by the bench's model game, so both play real games
// whatever the dice.
type Player struct {
	script map[string][]string // by participant id
	// Playable, when set, says whether participant id's next scripted
	// order may be sent now; one it says no to is dropped from the script
	// (the dice have made it impossible) and the example sent instead.
	Playable func(id, order string) bool
}

// NewPlayer plays the orders of script (by participant id; it takes them
// from the map as it sends them).
func NewPlayer(script map[string][]string) *Player { return &Player{script: script} }

// Choose returns the order for a participant given the prompt's examples.
func (ap *Player) Choose(id string, examples []string) (string, bool) {
	if q := ap.script[id]; len(q) > 0 {
		word := strings.ToUpper(strings.Fields(q[0])[0])
		for _, ex := range examples {
			if f := strings.Fields(ex); len(f) > 0 && strings.ToUpper(f[0]) == word {
				ap.script[id] = q[1:]
				if ap.Playable != nil && !ap.Playable(id, q[0]) {
					break
				}
				return q[0], true
			}
		}
	}
	if len(examples) == 0 {
		return "", false
	}
	return examples[0], true
}

// RefereeChoice is what a scripted referee rules: done, when that is
// offered (so a phase the rules hand over ends), else the first example.
func RefereeChoice(examples []string) string {
	for _, ex := range examples {
		if strings.HasSuffix(strings.ToUpper(ex), " DONE") {
			return ex
		}
	}
	return examples[0]
}

// NextMove picks who acts now and what they send, from the prompts.
func (ap *Player) NextMove(g *play.Game) (participant, text string, ok bool) {
	for _, p := range g.Prompts(g.State, nil) {
		if p.Referee {
			if len(g.Created.Referees) == 0 || len(p.Examples) == 0 {
				continue
			}
			return g.Created.Referees[0].ID, RefereeChoice(p.Examples), true
		}
		for _, pl := range g.Created.Players {
			if pl.Side == p.Side {
				if text, ok := ap.Choose(pl.ID, p.Examples); ok {
					return pl.ID, text, true
				}
			}
		}
	}
	return "", "", false
}
