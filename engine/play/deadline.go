package play

import (
	"fmt"
	"strings"
	"time"

	"pbem/engine"
	"pbem/events"
)

// Deadlines run only for the players who must act: those whose side the
// ruleset's prompts name. Every change to a deadline is one pbem.deadline
// fact, and the echo beside it says what that fact holds.

// dueFor is when a deadline given to player at from, for span, falls due:
// from + span, and later by the part of the player's declared absence
// that lies in it (the deadline does not run while they are away).
func (g *Game) dueFor(player string, from int64, span time.Duration) int64 {
	due := from + int64(span)
	if a, ok := g.AbsenceOf(player); ok {
		due = shiftByAbsence(a, from, due)
	}
	return due
}

// shiftByAbsence moves a deadline running from..due on by the part of the
// absence a that lies after from, if a begins before due.
func shiftByAbsence(a Absence, from, due int64) int64 {
	if a.To <= from || a.From >= due {
		return due
	}
	return due + a.To - max(a.From, from)
}

// passing reports whether the clock's deadline.passed for d is in the
// log and not yet decided: deadlines that pass in the same tick are
// decided one after the other, each by its own input, so that each gets
// its default once and none is renewed by another's decision.
func (g *Game) passing(d Deadline) bool {
	if !d.Passed {
		return false
	}
	for i := range g.Pending {
		if g.Pending[i].Type != events.TypeDeadlinePassed {
			continue
		}
		p, err := events.Decode(&g.Pending[i])
		if dp, ok := p.(*events.DeadlinePassed); err == nil && ok && dp.Player == d.Player && dp.Due == d.Due {
			return true
		}
	}
	return false
}

// mustAct reports whether player p's side is prompted to act in st.
func (g *Game) mustAct(st engine.State, p events.Player) bool {
	return p.Side != "" && contains(g.waitingSides(st, nil), p.Side)
}

// movers names who must act in st, for an echo: "anna (USA)".
func (g *Game) movers(st engine.State) string {
	var out []string
	for _, p := range g.Players {
		if g.mustAct(st, p) {
			out = append(out, g.seatName(p.ID))
		}
	}
	if len(out) == 0 {
		return "no player"
	}
	return strings.Join(out, ", ")
}

// dueEcho says what a deadline fact holds, for the echo beside it.
func (g *Game) dueEcho(d Deadline) string {
	if d.Due == 0 {
		return d.Player + ": no deadline"
	}
	s := fmt.Sprintf("%s: orders due %s", d.Player, g.TimeFor(d.Player, d.Due))
	if d.Default == "" || strings.EqualFold(d.Default, "referee") {
		return s + "; if none come, the referee decides"
	}
	return s + "; if none come: " + d.Default
}

// deadlinePlan is the deadlines as the commands of one mail leave them,
// each change logged as it is made, so that the echo of every command
// equals what the log holds after it.
type deadlinePlan struct {
	g     *Game
	dl    []Deadline
	facts []events.Fact
	echo  []string
}

func newDeadlinePlan(g *Game) *deadlinePlan {
	return &deadlinePlan{g: g, dl: append([]Deadline(nil), g.Deadlines...)}
}

func (p *deadlinePlan) get(player string) (Deadline, bool) {
	for _, d := range p.dl {
		if d.Player == player {
			return d, true
		}
	}
	return Deadline{}, false
}

// set logs d (Due 0: no deadline) with its echo, unless it changes nothing.
func (p *deadlinePlan) set(d Deadline, echo string) {
	cur, has := p.get(d.Player)
	if (!has && d.Due == 0) || (has && cur.Due == d.Due && cur.Default == d.Default) {
		return
	}
	var keep []Deadline
	for _, x := range p.dl {
		if x.Player != d.Player {
			keep = append(keep, x)
		}
	}
	if d.Due != 0 {
		if has && cur.Due == d.Due {
			d.Passed, d.Reminded = cur.Passed, cur.Reminded
		}
		keep = append(keep, d)
	}
	p.dl = keep
	if echo == "" {
		echo = p.g.dueEcho(d)
	}
	p.facts = append(p.facts, deadlineFact(d.Player, d.Due, d.Default))
	p.echo = append(p.echo, echo)
}

// fresh gives every player who must act in st a deadline from at, and
// takes theirs from those who need not (after a rollback or an order the
// referee entered).
func (p *deadlinePlan) fresh(st engine.State, at int64, pol Policy) {
	for _, pl := range p.g.Players {
		switch {
		case p.g.mustAct(st, pl) && pol.Deadline > 0:
			p.set(Deadline{Player: pl.ID, Due: p.g.dueFor(pl.ID, at, pol.Deadline), Default: pol.AtDeadline}, "")
		case !p.g.mustAct(st, pl):
			p.set(Deadline{Player: pl.ID}, pl.ID+": no deadline (not to act now)")
		}
	}
}

// resume moves every deadline that had not passed when the game was
// paused on by the time it stood still: it resumes the time it had left.
// A deadline that passed stays passed (its default was applied, or the
// referee was told): resuming never fires it again.
func (p *deadlinePlan) resume(paused time.Duration) {
	for _, d := range append([]Deadline(nil), p.dl...) {
		if d.Passed {
			continue
		}
		d.Due += int64(paused)
		p.set(d, "")
	}
}

// decideDeadlinePassed decides a deadline.passed the server's clock wrote:
// the default order is applied in the player's name only if the deadline
// still stands and the player still must act.
func (g *Game) decideDeadlinePassed(in *events.Envelope, p *events.DeadlinePassed, dice engine.Dice, rolled func() []events.Die) (events.Payload, engine.State, engine.Outcome, error) {
	player, text := p.Player, p.Default
	cur, has := g.Deadline(player)
	accept := func(echo string, facts ...events.Fact) (events.Payload, engine.State, engine.Outcome, error) {
		return &events.OrderAccepted{Input: in.Seq, Player: player, RulesetVersion: g.Rules.Version(), Echo: []string{echo}, Facts: facts}, g.State, engine.Outcome{}, nil
	}
	who, ok := g.PlayerByID(player)
	switch {
	case g.Ended != nil:
		return accept("deadline passed after the game ended: nothing applied")
	case !has || cur.Due != p.Due:
		return accept("the deadline no longer applies (orders came, or the referee changed it): nothing applied")
	case g.Paused != nil:
		// Written just before the pause took effect: the deadline runs out
		// again once the game resumes.
		rearm := g.Paused.At
		if rearm == p.Due {
			rearm++
		}
		return accept("deadline passed as the game was paused: nothing applied; it runs out again when the game resumes",
			deadlineFact(player, rearm, cur.Default))
	case !ok || !g.mustAct(g.State, who):
		return accept(fmt.Sprintf("%s is not to act now: nothing applied", player), deadlineFact(player, 0, ""))
	case text == "" || strings.EqualFold(text, "referee"):
		// The policy is to wait for the referee: nothing is applied.
		if len(g.Referees) == 0 {
			return accept(fmt.Sprintf("deadline passed: the game waits for %s's orders (it has no referee to decide)", player))
		}
		return accept("deadline passed: waiting for the referee")
	}
	dec, st, out, err := g.decideAs(in, player, who.Side, text, dice, rolled)
	return g.withDeadlines(dec, st, out, player, in.At), st, out, err
}

// DefaultApplied reports whether d, the decision on a deadline.passed,
// applied the default order: it did if it changed the game, not only the
// deadlines. The decisions that apply nothing (the deadline no longer
// applies, the player is not to act, the game waits for the referee)
// carry no other fact.
func DefaultApplied(d *events.OrderAccepted) bool {
	for _, f := range d.Facts {
		if f.Kind != FactDeadline {
			return true
		}
	}
	return false
}

// decidePauseExpired decides a pause.expired the server's clock wrote: a
// pause the players asked for ends by itself after the game's pause-max,
// unless a referee took it over (or it ended) meanwhile.
func (g *Game) decidePauseExpired(in *events.Envelope, p *events.PauseExpired) (events.Payload, engine.State, engine.Outcome, error) {
	acc := &events.OrderAccepted{Input: in.Seq, RulesetVersion: g.Rules.Version()}
	if g.Ended != nil || g.Paused == nil || !g.pauseBounded(g.Paused) || g.Paused.At != p.At {
		acc.Echo = []string{"the pause this was about has ended, or a referee holds it: nothing changed"}
		return acc, g.State, engine.Outcome{}, nil
	}
	plan := newDeadlinePlan(g)
	fs := []events.Fact{events.NewFact(FactResume, events.S("by", "pause-max"), events.I("at", in.At), events.I("paused", in.At-g.Paused.At))}
	plan.resume(time.Duration(in.At - g.Paused.At))
	whose := "the players' pause"
	if g.Paused.By != PausedByPlayers {
		whose = fmt.Sprintf("the pause of %s, who also plays", g.nameOf(g.Paused.By))
	}
	acc.Echo = append([]string{fmt.Sprintf("RESUME: %s ended by itself after %s (the game's pause-max)", whose, Span(time.Duration(in.At-g.Paused.At)))}, plan.echo...)
	acc.Facts = append(fs, plan.facts...)
	return acc, g.State, engine.Outcome{}, nil
}

// PausedByPlayers is Pause.By for a pause every side asked for.
const PausedByPlayers = "players"

// PauseEnds is when the pause in force ends by itself (the players' pause
// after pause-max), or 0 if it does not.
func (g *Game) PauseEnds() int64 {
	if g.Paused == nil || !g.pauseBounded(g.Paused) {
		return 0
	}
	if pm := g.Policy().PauseMax; pm > 0 {
		return g.Paused.At + int64(pm)
	}
	return 0
}

// pauseBounded reports whether pause p ends by itself after the game's
// pause-max: the players' pause, and one by a referee who also plays (a
// game created with referee-plays=yes), whose pauses are bounded like a
// player's so that his opponent is never held by him alone.
func (g *Game) pauseBounded(p *Pause) bool {
	if p.By == PausedByPlayers {
		return true
	}
	_, plays := g.PlayingReferee(p.By)
	return plays
}

// PauseExpiredKey is the idempotency key of the pause.expired input for
// the pause that began at at.
func PauseExpiredKey(at int64) string { return fmt.Sprintf("pause-expired/%d", at) }
