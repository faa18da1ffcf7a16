package play

import (
	"fmt"
	"strings"

	"pbem/engine"
	"pbem/events"
)

// Sight is what one viewer may know at one point of a game's log: who
// they are, which reveals have been made by then, and whether the game
// has ended (then everything is open: the dice seed is published, and
// with it every hidden roll and draw could be recomputed anyway).
//
// Everything a person receives is cut from the log by a Sight: each mail
// (the decision it reports, its dice, how orders were read), pbem log,
// replay and export --as, the campaign report, HELP and STATUS. So one
// leak test covers them all. What is kept for good (the players' press:
// events.Vis.Kept) stays with its readers even once the game is over.
type Sight struct {
	Viewer   engine.Viewer
	revealed []string
	over     bool
}

// Sight is what v may know of g as it is now.
func (g *Game) Sight(v engine.Viewer) Sight {
	return Sight{Viewer: v, revealed: g.Revealed, over: g.Ended != nil}
}

// After is s once the decision d is applied, and the game ended too if
// ended: a mail about d is cut by the reveals d itself makes.
func (s Sight) After(d *events.OrderAccepted, ended bool) Sight {
	for _, f := range d.Facts {
		if f.Kind == FactReveal {
			s.revealed = addSorted(s.revealed, f.Str("reveal"))
		}
	}
	s.over = s.over || ended
	return s
}

// Sees reports whether the viewer may see something of visibility vis.
func (s Sight) Sees(vis events.Vis) bool {
	switch {
	case vis.Kept():
		return s.Viewer.Sees(vis) // never opened, not by the end either
	case vis.Public(), s.over, s.Viewer.Sees(vis):
		return true
	case vis.Until != "":
		return contains(s.revealed, vis.Until)
	}
	return false
}

// Decision returns the part of d the viewer may see: d itself when they
// may see all of it, else a copy without the facts, dice and echo lines
// hidden from them.
func (s Sight) Decision(d *events.OrderAccepted) *events.OrderAccepted {
	all := true
	for _, f := range d.Facts {
		all = all && s.Sees(f.Vis)
	}
	for _, x := range d.Dice {
		all = all && s.Sees(x.Vis)
	}
	for i := range d.Echo {
		all = all && s.Sees(d.EchoLineVis(i))
	}
	if all {
		return d
	}
	c := &events.OrderAccepted{Input: d.Input, Player: d.Player, RulesetVersion: d.RulesetVersion}
	for i, e := range d.Echo {
		if v := d.EchoLineVis(i); s.Sees(v) {
			c.Echo = append(c.Echo, e)
			c.EchoVis = append(c.EchoVis, v)
		}
	}
	c.EchoVis = events.CompactVis(c.EchoVis)
	for _, f := range d.Facts {
		if s.Sees(f.Vis) {
			c.Facts = append(c.Facts, f)
		}
	}
	for _, x := range d.Dice {
		if s.Sees(x.Vis) {
			c.Dice = append(c.Dice, x)
		}
	}
	return c
}

// SeesInput reports whether the viewer may read the text of the input a
// player or referee sent: the sender's side and the referees may; other
// players read how it was decided (the decision's echo and facts, as far
// as they may see them), never the mail's own words.
func (s Sight) SeesInput(g *Game, sender string) bool {
	if s.Viewer.Referee || s.over {
		return true
	}
	p, ok := g.PlayerByID(sender)
	if !ok || g.IsReferee(sender) {
		return false
	}
	return (s.Viewer.Player != "" && s.Viewer.Player == p.ID) || (s.Viewer.Side != "" && s.Viewer.Side == p.Side)
}

// ViewerOf is the viewer a participant of g is: a player (with their
// side), a referee, or (anyone else, an observer) a viewer of what is
// public.
func (g *Game) ViewerOf(id string) engine.Viewer {
	p, ok := g.PlayerByID(id)
	switch {
	case !ok:
		return engine.Viewer{}
	case g.IsReferee(id):
		return engine.Viewer{Player: p.ID, Referee: true}
	}
	return engine.Viewer{Player: p.ID, Side: p.Side}
}

// Tell tells a fact in plain words for a mail: the runtime's own facts
// here, the ruleset's by its Describe (st is the state before the
// decision that made the fact).
func (g *Game) Tell(st engine.State, f events.Fact) string {
	if engine.IsGameFact(f) {
		return g.tellGameFact(f)
	}
	return g.Rules.Describe(st, f)
}

func (g *Game) tellGameFact(f events.Fact) string {
	switch f.Kind {
	case FactRollback:
		return fmt.Sprintf("%s rolled the game back to seq %d: what came after is undone.", g.nameOf(f.Str("by")), f.Int("to"))
	case FactPause:
		s := fmt.Sprintf("The game is paused by %s.", g.nameOf(f.Str("by")))
		if r := f.Str("reason"); r != "" {
			s = strings.TrimSuffix(s, ".") + ": " + r + "."
		}
		return s
	case FactResume:
		return fmt.Sprintf("The game resumes (%s).", g.nameOf(f.Str("by")))
	case FactPauseAsk:
		if f.Bool("resume") {
			return fmt.Sprintf("%s asks to resume the game; it resumes when every side has asked.", f.Str("side"))
		}
		return fmt.Sprintf("%s asks to pause the game; it pauses when every side has asked.", f.Str("side"))
	case FactDeadline:
		if f.Int("due") == 0 {
			return fmt.Sprintf("%s has no deadline now.", g.nameOf(f.Str("player")))
		}
		s := fmt.Sprintf("%s's orders are due %s", g.nameOf(f.Str("player")), timeText(f.Int("due")))
		switch d := f.Str("default"); {
		case d == "" || strings.EqualFold(d, "referee"):
			return s + "; if none come, the referee decides."
		default:
			return s + "; if none come, " + d + " is applied."
		}
	case FactPlayer:
		return fmt.Sprintf("The seat of %s is now held by %s.", f.Str("id"), g.nameOf(f.Str("id")))
	case FactObserver:
		if f.Bool("added") {
			return fmt.Sprintf("%s now follows the game as an observer.", f.Str("address"))
		}
		return fmt.Sprintf("%s no longer follows the game.", f.Str("address"))
	case FactAnnounce:
		return fmt.Sprintf("%s announces: %s", g.nameOf(f.Str("by")), f.Str("text"))
	case FactEnd:
		w := "a draw"
		if f.Str("winner") != "" {
			w = f.Str("winner") + " wins"
		}
		return fmt.Sprintf("%s ends the game: %s (%s).", g.nameOf(f.Str("by")), w, f.Str("reason"))
	case FactSetting:
		return fmt.Sprintf("Setting %s is now %s (was %s).", f.Str("key"), orNone(f.Str("value")), orNone(f.Str("was")))
	case FactSealed:
		return fmt.Sprintf("%s's sealed orders for %s: %s", f.Str("side"), f.Str("step"), strings.ReplaceAll(f.Str("text"), "\n", " / "))
	case FactArrived:
		if f.Bool("replaced") {
			return fmt.Sprintf("%s sent new orders for %s, sealed; they replace the ones sent before.", f.Str("side"), f.Str("step"))
		}
		return fmt.Sprintf("%s's orders for %s have arrived, sealed: they open when every side has sent its own.", f.Str("side"), f.Str("step"))
	case FactReveal:
		return fmt.Sprintf("Every side's orders for %s are in: they are opened, and decided in turn.", f.Str("step"))
	case FactRefused:
		return fmt.Sprintf("%s's sealed orders for %s could not be applied once the others' were: %s orders again.", f.Str("side"), f.Str("step"), f.Str("side"))
	}
	return g.tellPeopleFact(f)
}

// nameOf names a participant by id: "Anna", or the id.
func (g *Game) nameOf(id string) string {
	if p, ok := g.PlayerByID(id); ok && p.Name != "" {
		if g.IsReferee(id) {
			return "the referee " + p.Name
		}
		return p.Name
	}
	switch id {
	case "":
		return "the referee"
	case OperatorID:
		return "the operator"
	case PausedByPlayers:
		return "the players"
	case "pause-max":
		return "the game's pause-max"
	}
	return id
}
