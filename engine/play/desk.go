package play

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"pbem/engine"
	"pbem/events"
)

// Desk is a game as a referee who runs several sees it at a glance: whose
// move it is, the deadlines (those overdue marked; stopped, with the time
// left, while the game is paused), the pause, the
// rulings waited for, and what some sides asked for.
type Desk struct {
	Game     string
	Ruleset  string
	Scenario string
	Seq      uint64
	// State is one line: "USA (Anna) to move", "paused by …", "over: …".
	State string
	// Lines are the rest, one thing a line.
	Lines []string
	// Overdue: a deadline has passed with no orders; Ruling: the rules
	// wait for a referee; Paused, Over as the game is.
	Overdue, Ruling, Paused, Over bool
}

// Desk is g at the time now (unix ns; for the deadlines overdue). A
// panic of the rule system (its Prompt) leaves a desk line saying so.
func (g *Game) Desk(now int64) (d Desk) {
	var err error
	defer func() {
		if err != nil {
			d = Desk{Game: g.ID, Seq: g.Seq, State: "cannot be shown: " + err.Error()}
			if g.Created != nil {
				d.Ruleset, d.Scenario = g.Created.Ruleset, g.Created.ScenarioName
			}
		}
	}()
	defer engine.Recover(&err, "the desk")
	return g.desk(now)
}

func (g *Game) desk(now int64) Desk {
	d := Desk{Game: g.ID, Seq: g.Seq}
	if g.Created != nil {
		d.Ruleset, d.Scenario = g.Created.Ruleset, g.Created.ScenarioName
	}
	if g.Ended != nil {
		d.Over = true
		w := "a draw"
		if g.Ended.Winner != "" {
			w = g.Ended.Winner + " won"
		}
		d.State = "over: " + w + " (" + g.Ended.Reason + ")"
		d.Lines = append(d.Lines, familyLines(g)...)
		return d
	}
	var movers []string
	for _, p := range g.Prompts(g.State, nil) {
		if p.Referee {
			d.Ruling = true
			d.Lines = append(d.Lines, "ruling waited for: "+p.What)
			continue
		}
		movers = append(movers, g.sideWho(p.Side))
	}
	switch {
	case g.Paused != nil:
		d.Paused = true
		d.State = "paused " + g.PausedText()
		if len(movers) > 0 {
			d.Lines = append(d.Lines, "then to move: "+strings.Join(movers, ", "))
		}
	case len(movers) > 0:
		d.State = strings.Join(movers, ", ") + " to move"
	case d.Ruling:
		d.State = "waiting for a referee's ruling"
	case len(Battles(g)) > 0:
		d.State = "waiting on its battle"
	default:
		d.State = "no one is asked to act"
	}
	if len(g.Referees) == 0 && d.Ruling {
		d.Lines = append(d.Lines, "this game has no referee: the operator rules (pbem referee "+g.ID+" --as operator …), or the players add one")
	}
	for _, dl := range g.Deadlines {
		who := g.seatName(dl.Player)
		dflt := dl.Default
		if dflt == "" || strings.EqualFold(dflt, "referee") {
			dflt = "the referee decides"
		}
		switch {
		case dl.Passed:
			d.Overdue = true
			d.Lines = append(d.Lines, fmt.Sprintf("OVERDUE %s: was due %s; no orders (ORDER %s … enters them)", who, timeText(dl.Due), dl.Player))
		case g.Paused != nil:
			// No deadline runs during a pause: RESUME gives back the
			// time it had left when the game was paused.
			left := time.Duration(max(dl.Due-g.Paused.At, 0))
			if left == 0 {
				d.Lines = append(d.Lines, fmt.Sprintf("%s: stopped while the game is paused; it runs out when the game resumes; then: %s", who, dflt))
				continue
			}
			d.Lines = append(d.Lines, fmt.Sprintf("%s: stopped while the game is paused, %s left; then: %s", who, Span(left), dflt))
		case dl.Due <= now:
			d.Overdue = true
			d.Lines = append(d.Lines, fmt.Sprintf("OVERDUE %s: was due %s, %s ago; then: %s", who, timeText(dl.Due), Span(time.Duration(now-dl.Due)), dflt))
		default:
			d.Lines = append(d.Lines, fmt.Sprintf("%s: due %s, in %s; then: %s", who, timeText(dl.Due), Span(time.Duration(dl.Due-now)), dflt))
		}
	}
	for _, a := range g.Absences {
		if a.To > now {
			d.Lines = append(d.Lines, fmt.Sprintf("%s away from %s to %s", g.seatName(a.Player), timeText(a.From), timeText(a.To)))
		}
	}
	for _, a := range g.Asks {
		what := strings.ToUpper(a.Kind)
		if a.Kind == AskReferee {
			what = "REFEREE " + a.Text
		}
		d.Lines = append(d.Lines, fmt.Sprintf("%s asked %s; waiting for %s", a.Side, what, strings.Join(g.notAsked(a.Kind, a.Text, a.Side), ", ")))
	}
	if n := len(g.Pending); n > 0 {
		d.Lines = append(d.Lines, fmt.Sprintf("%d input(s) not yet decided", n))
	}
	d.Lines = append(d.Lines, familyLines(g)...)
	return d
}

// familyLines tie a campaign and its battles together in the list of
// games: a battle names its campaign, a campaign the battle it waits on.
func familyLines(g *Game) []string {
	var out []string
	if _, what := ParentText(g); what != "" {
		out = append(out, "battle: "+what)
	}
	for _, b := range Battles(g) {
		out = append(out, fmt.Sprintf("waits on battle %s: %s, fought out in %s %s", BattleID(g, b), b.What, b.System, b.Scenario))
	}
	return out
}

// sideWho names a side with its players' ids: "USA (anna)".
func (g *Game) sideWho(side string) string {
	var ids []string
	for _, p := range g.Players {
		if p.Side == side {
			ids = append(ids, p.ID)
		}
	}
	if len(ids) == 0 {
		return side
	}
	return side + " (" + strings.Join(ids, ", ") + ")"
}

// RefereedBy reports whether any of addrs is an address of one of g's
// referees.
func (g *Game) RefereedBy(addrs []string) bool {
	for _, r := range g.Referees {
		for _, a := range r.Addresses {
			for _, b := range addrs {
				if strings.EqualFold(a, b) {
					return true
				}
			}
		}
	}
	return false
}

// tellTimeline is TimelineLineOf as a player reads it (the answer to LOG):
// each fact told in a sentence, as the mails tell it, not as the raw
// fact 'pbem log' shows the operator.
func tellTimeline(g *Game, seq uint64, input, decision events.Payload) string {
	d, ok := decision.(*events.OrderAccepted)
	if !ok || len(d.Facts) == 0 || g == nil || g.Rules == nil {
		return TimelineLineOf(seq, input, decision)
	}
	var parts []string
	for _, f := range d.Facts {
		if s := strings.TrimSpace(g.Tell(g.State, f)); s != "" {
			parts = append(parts, s)
		}
	}
	line := fmt.Sprintf("seq %d  %s → accepted", seq, InputLineOf(input))
	if len(parts) > 0 {
		line += ": " + strings.Join(parts, " ")
	}
	if len(d.Dice) > 0 {
		ds := make([]string, len(d.Dice))
		for i, x := range d.Dice {
			ds[i] = x.String()
		}
		line += " Dice: " + strings.Join(ds, ", ") + "."
	}
	return line
}

// RecentActions are the last n decided inputs of game's log up to seq
// upTo, each on one line with its seq and intake time, as v may see them:
// cut by CutLog, the same cut as v's mails and 'pbem log --as' (a player
// sees others' orders only by what came of them, and only their own
// side's rejections). An action in a stretch a rollback closed says so.
// It answers LOG by mail.
func RecentActions(src Source, reg *engine.Registry, game string, v engine.Viewer, upTo uint64, n int) ([]string, error) {
	type input struct {
		at string
		p  events.Payload
	}
	inputs := map[uint64]input{}
	var lines []string
	var seqs []uint64
	var g *Game
	err := CutLog(src, reg, game, v, func(gg *Game, e *events.Envelope, p events.Payload) error {
		if e.Seq > upTo {
			return errStop
		}
		g = gg
		if p == nil {
			return nil
		}
		if events.IsInput(e.Type) {
			inputs[e.Seq] = input{e.Time().Format("Mon 2 Jan 2006 15:04 MST"), p}
			return nil
		}
		if !events.IsAccepted(e.Type) && e.Type != events.TypeOrderRejected {
			return nil
		}
		in, ok := inputs[InputOf(p)]
		if !ok {
			return nil
		}
		delete(inputs, InputOf(p))
		line := tellTimeline(gg, InputOf(p), in.p, p)
		seq, rest, _ := strings.Cut(line, "  ")
		lines = append(lines, seq+"  "+in.at+"  "+rest)
		seqs = append(seqs, e.Seq)
		if len(lines) > n {
			lines, seqs = lines[1:], seqs[1:]
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		return nil, err
	}
	if g != nil {
		for i, seq := range seqs {
			if br, closed := InBranch(g.Branches, seq); closed {
				lines[i] += fmt.Sprintf("   [closed branch: undone by the rollback at seq %d]", br.By)
			}
		}
	}
	return lines, nil
}

// ToldAt is what v was told by the decision at seq of game's log, one
// line each, as their mails and 'pbem log --as' cut it: how the orders
// were read (the echo lines v may see), then the runtime's facts (a
// press, a message, a pause) in words, the rule system's as logged.
// Nothing when the event at seq is no decision, or nothing of it is v's.
// It answers 'pbem replay --at seq --as v'.
func ToldAt(src Source, reg *engine.Registry, game string, v engine.Viewer, seq uint64) ([]string, error) {
	var out []string
	err := CutLog(src, reg, game, v, func(g *Game, e *events.Envelope, p events.Payload) error {
		if e.Seq < seq {
			return nil
		}
		if d, ok := p.(*events.OrderAccepted); ok && e.Seq == seq {
			out = append(out, d.Echo...)
			for _, f := range d.Facts {
				if engine.IsGameFact(f) {
					out = append(out, g.tellGameFact(f))
				} else {
					out = append(out, FactLine(f))
				}
			}
		}
		return errStop
	})
	if err != nil && !errors.Is(err, errStop) {
		return nil, err
	}
	return out, nil
}
