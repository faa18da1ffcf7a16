package engine

import "pbem/events"

// Linked games: a campaign's rule system (GCACW) may have an engagement
// fought out as a game of another rule system (a tactical battle) and
// carry its result back. The rule systems never import each other: the
// campaign's ruleset says, as data, which battles its state waits on and
// what order carries a battle's end back; the runtime (engine/play)
// creates the battle games and appends that order to the campaign.

// Battle is an engagement a campaign's state waits on, to be fought out
// as a game of another rule system.
type Battle struct {
	// Key names the battle within its campaign, unique in the campaign's
	// game ("t2-a5-0711"); the battle's game id is derived from it.
	Key string
	// What says what is fought out, for the players: "the assault on 0711".
	What     string
	System   string // the tactical rule system's name ("gbacw")
	Scenario string // its built-in scenario
	// Sides map each campaign side to the tactical side it plays.
	Sides []BattleSide
	// Forces say how the campaign's units become the tactical forces, one
	// line each ("ORNE as Hale's Brigade"); none when the referee sets
	// the battle up.
	Forces []string
}

// BattleSide is a campaign side and the tactical side it plays.
type BattleSide struct {
	Side     string
	Tactical string
}

// Campaign side of tactical side t, or "".
func (b Battle) Campaign(t string) string {
	for _, s := range b.Sides {
		if s.Tactical == t {
			return s.Side
		}
	}
	return ""
}

// BattleEnd is how a battle ended, as its own log says: its game id, the
// hash of its last event, the winner (a tactical side, "" for a draw) and
// each tactical side's losses as the tactical game counts them (none when
// its rule system does not count them: LossCounter).
type BattleEnd struct {
	Game   string
	Final  events.Hash
	Winner string
	Reason string
	Lost   map[string]int
	Routed string // a tactical side whose units routed or retreated, or ""
}

// Linker is implemented by a campaign rule system whose state may wait on
// battles fought out in other rule systems.
type Linker interface {
	// Battles are the battles state s waits on.
	Battles(s State) []Battle
	// BattleResult is the referee's order that carries the end of battle
	// b back into the campaign.
	BattleResult(b Battle, end BattleEnd) string
}

// LossCounter is implemented by a tactical rule system that counts each
// side's losses (what a campaign's result table may read).
type LossCounter interface {
	Losses(s State) map[string]int
}
