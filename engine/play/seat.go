package play

import (
	"fmt"
	"strings"
)

// CheckSender says whether g would decide an input from id at all: an
// order (referee false) from a player who plays a side, or a referee's
// command (referee true) from one of its referees or the operator. The
// error says why not, in the words the engine would reject it with, so a
// command can refuse it before anything is recorded (pbem order).
func (g *Game) CheckSender(id string, referee bool) error {
	if referee {
		if id == OperatorID || g.IsReferee(id) {
			return nil
		}
		return fmt.Errorf("%q is not a referee of game %s (its referees: %s)", id, g.ID, idList(g.refereeNames()))
	}
	if strings.HasPrefix(id, ObserverPrefix) {
		return fmt.Errorf("%q observes game %s: pbem takes no orders from observers", id, g.ID)
	}
	who, ok := g.PlayerByID(id)
	switch {
	case !ok:
		return fmt.Errorf("%q is no player of game %s (its players: %s)", id, g.ID, idList(g.playerNames()))
	case who.Side == "":
		return fmt.Errorf("%q plays no side in game %s: a referee's ruling or command is given with --referee", id, g.ID)
	}
	return nil
}

func (g *Game) refereeNames() []string {
	var out []string
	for _, p := range g.Referees {
		out = append(out, p.ID)
	}
	return out
}

func idList(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ", ")
}
