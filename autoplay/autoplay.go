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
// word is not among the prompt's examples), it sends its rest (what a
// player with nothing more planned sends) if the prompt offers that, else
// the prompt's first example. Referees send their scripted rulings when asked for
// one of the kind, else RULE DONE or the first example. Used by the
// demo's mail bots and by the bench's model game, so both play real games
// whatever the dice.
type Player struct {
	script  map[string][]string // by participant id
	answers map[string][]string // sent when asked, out of turn (engine.Demo)
	rest    string              // sent when the script does not fit (engine.Demo's Rest)
	// Playable, when set, says whether participant id's next scripted
	// order may be sent now; one it says no to is dropped from the script
	// (the dice have made it impossible) and the example sent instead.
	Playable func(id, order string) bool
}

// NewPlayer plays the orders of script (by participant id; it takes them
// from the map as it sends them).
func NewPlayer(script map[string][]string) *Player { return &Player{script: script} }

// Answering adds answers: orders a participant sends whenever a mail
// offers one of their kind (the first word), whatever its script's turn;
// each is sent once.
func (ap *Player) Answering(answers map[string][]string) *Player {
	ap.answers = answers
	return ap
}

// Choose returns the order for a participant given the prompt's examples.
func (ap *Player) Choose(id string, examples []string) (string, bool) {
	for i, a := range ap.answers[id] {
		word := strings.ToUpper(strings.Fields(a)[0])
		for _, ex := range examples {
			if f := strings.Fields(ex); len(f) > 0 && strings.ToUpper(f[0]) == word {
				ap.answers[id] = append(ap.answers[id][:i:i], ap.answers[id][i+1:]...)
				return a, true
			}
		}
	}
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
	if ap.rest != "" && offers(examples, ap.rest) {
		return ap.rest, true
	}
	return examples[0], true
}

// offers reports whether examples hold an order of order's kind (its
// first word).
func offers(examples []string, order string) bool {
	f := strings.Fields(order)
	if len(f) == 0 {
		return false
	}
	for _, ex := range examples {
		if e := strings.Fields(ex); len(e) > 0 && strings.EqualFold(e[0], f[0]) {
			return true
		}
	}
	return false
}

// ChooseReferee returns what the scripted referee id rules now: its next
// scripted ruling when the examples offer a command of the same kind
// (the same first two words, "RULE LOSS"), so a demo's referee rules an
// assault by mail; else RefereeChoice.
func (ap *Player) ChooseReferee(id string, examples []string) string {
	if q := ap.script[id]; len(q) > 0 {
		want := strings.ToUpper(strings.Join(firstWords(q[0], 2), " "))
		for _, ex := range examples {
			if strings.ToUpper(strings.Join(firstWords(ex, 2), " ")) == want {
				ap.script[id] = q[1:]
				return q[0]
			}
		}
	}
	return RefereeChoice(examples)
}

// firstWords returns the first n words of s.
func firstWords(s string, n int) []string {
	f := strings.Fields(s)
	return f[:min(n, len(f))]
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
			id := g.Created.Referees[0].ID
			return id, ap.ChooseReferee(id, p.Examples), true
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
