package engine

import "pbem/events"

// FixedDice answers every roll with the same value, recording nothing: a
// ruleset uses it to try an order without rolling (are these examples
// legal now?), never to decide one.
type FixedDice int

// Roll implements Dice.
func (d FixedDice) Roll(string, int) int { return int(d) }

// As implements Dice.
func (d FixedDice) As(events.Vis) Dice { return d }

// DiceFunc makes a Dice of a function (tests that script their rolls);
// rolls made through As go to the same function.
type DiceFunc func(purpose string, sides int) int

// Roll implements Dice.
func (f DiceFunc) Roll(purpose string, sides int) int { return f(purpose, sides) }

// As implements Dice.
func (f DiceFunc) As(events.Vis) Dice { return f }

// Shuffle returns the cards of deck in a new order drawn from dice (a
// Fisher–Yates shuffle: for each place from the last down, one roll picks
// which of the cards not yet placed goes there), leaving deck as it was.
// Pass dice.As(vis) to keep the order, and so every card drawn from it,
// hidden from all but vis's viewers: the draw is then as verifiable as
// any roll once the game's seed is revealed, and as secret until then.
func Shuffle(dice Dice, purpose string, deck []string) []string {
	out := append([]string(nil), deck...)
	for i := len(out) - 1; i > 0; i-- {
		j := dice.Roll(purpose, i+1) - 1
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// Deal shuffles deck with dice and returns its first n cards and the rest
// (n is cut to the deck's size).
func Deal(dice Dice, purpose string, deck []string, n int) (hand, rest []string) {
	d := Shuffle(dice, purpose, deck)
	n = min(max(n, 0), len(d))
	return d[:n:n], d[n:]
}
