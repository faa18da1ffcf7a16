package compose

import (
	"fmt"
	"strings"

	"pbem/engine/play"
	"pbem/events"
	"pbem/templates"
)

// The mails of seats changing hands, messages between players and
// referees, a default order the rules refused, and the answers to LOG and
// GAMES.

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// refereeContacts lists the referees with their addresses, so that the
// players can write to them.
func refereeContacts(ps []events.Player) []templates.Participant {
	out := participants(ps)
	for i, p := range ps {
		out[i].Address = strings.Join(p.Addresses, ", ")
	}
	return out
}

// deadlineOf is the player's deadline as their mails state it: in UTC and
// in their time zone, and what happens without orders; "" for none.
func (g game) deadlineOf(id string) string {
	d, ok := g.Deadline(id)
	if !ok || d.Passed {
		return ""
	}
	s := g.TimeFor(id, d.Due)
	if d.Default == "" || strings.EqualFold(d.Default, "referee") {
		if len(g.Referees) == 0 {
			return s + "; if none come, the game waits for them"
		}
		return s + "; if none come, the referee decides"
	}
	return s + "; if none come: " + d.Default
}

// settingLines are the settings a player lives by, for the welcome mail.
func (g game) settingLines() []string {
	pol := g.Policy()
	var out []string
	if pol.Deadline > 0 {
		s := "deadline " + play.Span(pol.Deadline) + " per move"
		if strings.EqualFold(pol.AtDeadline, "referee") {
			s += "; if none come, the referee decides"
		} else {
			s += "; if none come: " + pol.AtDeadline
		}
		out = append(out, s)
	}
	if pol.PauseMax > 0 {
		out = append(out, "a pause the players ask for ends by itself after "+play.Span(pol.PauseMax))
	}
	if pol.AbsenceMax > 0 {
		out = append(out, "ABSENCE of up to "+play.Span(pol.AbsenceMax)+" at a time")
	}
	// A referee who also plays is said to every reader, with what bounds
	// him (referee-plays=yes, set when the game was created).
	for _, r := range g.Referees {
		if side, plays := g.PlayingReferee(r.ID); plays {
			out = append(out, fmt.Sprintf("the referee %s also plays %s", name(r), side))
			if pol.PauseMax > 0 {
				out = append(out, "that referee's pauses end by themselves after "+play.Span(pol.PauseMax))
			}
		}
	}
	if len(g.Referees) > 0 {
		if g.RefereesReadPress() {
			out = append(out, "the referees read the PRESS players write to each other")
		} else {
			out = append(out, "PRESS between players is kept from the referees")
		}
	}
	return out
}

// private reports whether a decision is for its sender (and the people it
// names) alone: a message, or the sender's time zone.
func private(d *events.OrderAccepted) bool {
	for _, f := range d.Facts {
		switch {
		case f.Kind == play.FactMessage, f.Kind == play.FactPress:
		case f.Kind == play.FactSetting && strings.HasPrefix(f.Str("key"), play.SettingTZPrefix):
		case f.Kind == play.FactSetting && strings.HasPrefix(f.Str("key"), play.SettingMailPrefix):
		default:
			return false
		}
	}
	return len(d.Facts) > 0
}

// private queues the mails of a private decision: each message to whom it
// is for, and to the sender (and, when a referee sent it, every referee)
// the report of what was done.
func (c *Composer) private(b *batch, o source, d *events.OrderAccepted) error {
	if err := c.press(b, d); err != nil {
		return err
	}
	for _, f := range d.Facts {
		if f.Kind != play.FactMessage {
			continue
		}
		var to []recipient
		if f.Str("to") == "referees" {
			for _, r := range readers(b.g.Game) {
				if r.referee {
					to = append(to, r)
				}
			}
		} else if r, ok := reader(b.g.Game, f.Str("to")); ok {
			to = append(to, r)
		}
		from, text, toRefs := b.g.playerWho(f.Str("from")), f.Str("text"), f.Str("to") == "referees"
		for _, r := range to {
			kind := "message from " + from
			err := b.add(mail{to: r, tmpl: templates.NameMessage, kind: kind,
				data: func(cm templates.Common, _ templates.Board) any {
					return templates.Message{Common: cm, From: from, ToReferees: toRefs, Text: text}
				}})
			if err != nil {
				return err
			}
		}
	}
	kind := "done"
	for _, f := range d.Facts {
		if f.Kind == play.FactMessage || f.Kind == play.FactPress {
			kind = "your message was sent"
		}
	}
	sentByReferee := b.g.IsReferee(o.player) || o.player == play.OperatorID
	for _, r := range readers(b.g.Game) {
		if r.ID != o.player && !(sentByReferee && r.referee) {
			continue
		}
		act := b.action(o, d, r)
		m := mail{to: r, tmpl: templates.NameReport, kind: kind}
		if r.ID == o.player {
			m.inReplyTo, m.refs = o.messageID, o.refs
		}
		next := c.prompts(b.g.Game, b.promptsOf(b.state, nil), r)
		m.data = func(cm templates.Common, _ templates.Board) any {
			return templates.Turn{Common: cm, Action: act, Next: next}
		}
		if err := b.add(m); err != nil {
			return err
		}
	}
	return nil
}

// press queues a player's press: one mail to each player it names, and,
// when the game's referees read press (its facts are kept for them too),
// one copy to each referee naming every recipient. No one else gets a
// word of it.
func (c *Composer) press(b *batch, d *events.OrderAccepted) error {
	var fs []events.Fact
	for _, f := range d.Facts {
		if f.Kind == play.FactPress {
			fs = append(fs, f)
		}
	}
	if len(fs) == 0 {
		return nil
	}
	from, text, writer := b.g.playerWho(fs[0].Str("from")), fs[0].Str("text"), fs[0].Str("from")
	var all []string
	for _, f := range fs {
		r, ok := reader(b.g.Game, f.Str("to"))
		if !ok {
			continue
		}
		all = append(all, b.g.playerWho(f.Str("to")))
		to := "you"
		if a := f.Str("addressed"); a != f.Str("to") {
			to = "you (press to " + a + ")"
		}
		err := b.add(mail{to: r, tmpl: templates.NameMessage, kind: "press from " + from,
			data: func(cm templates.Common, _ templates.Board) any {
				return templates.Message{Common: cm, From: from, Press: true, To: to, Writer: writer, Text: text}
			}})
		if err != nil {
			return err
		}
	}
	if !fs[0].Vis.RefereesSee() {
		return nil
	}
	to := strings.Join(all, ", ")
	if a := fs[0].Str("addressed"); len(fs) > 1 || a != fs[0].Str("to") {
		to += " (press to " + a + ")"
	}
	for _, r := range readers(b.g.Game) {
		if !r.referee {
			continue
		}
		err := b.add(mail{to: r, tmpl: templates.NameMessage, kind: "referee: press from " + from,
			data: func(cm templates.Common, _ templates.Board) any {
				return templates.Message{Common: cm, From: from, Press: true, To: to, Writer: writer, Text: text}
			}})
		if err != nil {
			return err
		}
	}
	return nil
}

// welcomed are the seats a decision gives to someone new: a seat that
// changed hands, a referee added.
func welcomed(d *events.OrderAccepted) []string {
	var out []string
	for _, f := range d.Facts {
		if f.Kind == play.FactPlayer || f.Kind == play.FactReferee && f.Bool("added") {
			out = append(out, f.Str("id"))
		}
	}
	return out
}

// seats queues, after a decision that gave seats to someone new, the
// welcome of each new holder (with the seat's new key, and a referee's
// secret) and the notice to each former holder, whose key no longer
// works.
func (c *Composer) seats(b *batch, o source, d *events.OrderAccepted) error {
	by := b.g.playerWho(o.player)
	if o.kind == "order" {
		by = "every side, agreeing by mail,"
	}
	for _, f := range d.Facts {
		id := f.Str("id")
		switch {
		case f.Kind == play.FactPlayer:
			before, _ := b.orig.PlayerByID(id)
			if r, ok := reader(b.g.Game, id); ok {
				if err := c.welcome(b, r, name(before), false); err != nil {
					return err
				}
			}
			if err := c.replaced(b, before, b.orig.IsReferee(id), f.Strs("was"), by); err != nil {
				return err
			}
		case f.Kind == play.FactReferee && f.Bool("added"):
			if r, ok := reader(b.g.Game, id); ok {
				if err := c.welcome(b, r, "", true); err != nil {
					return err
				}
			}
		case f.Kind == play.FactReferee:
			before, _ := b.orig.PlayerByID(id)
			if err := c.replaced(b, before, true, before.Addresses, by); err != nil {
				return err
			}
		}
	}
	return nil
}

// replaced tells a seat's former holder that it changed hands.
func (c *Composer) replaced(b *batch, p events.Player, referee bool, was []string, by string) error {
	if len(was) == 0 {
		return nil
	}
	seat := p.Side
	if referee {
		seat = "referee"
	}
	r := recipient{Player: events.Player{ID: "former:" + p.ID, Name: name(p), Side: p.Side, Addresses: was}, former: true}
	return b.add(mail{to: r, tmpl: templates.NameReplaced, kind: "your seat has changed hands",
		data: func(cm templates.Common, _ templates.Board) any {
			return templates.Replaced{Common: cm, SeatOf: seat, By: by}
		}})
}

// defaultRejected tells the referees (or, in a game without one, the
// other players) that a player's default order was refused at their
// deadline, and that the game waits.
func (c *Composer) defaultRejected(b *batch, o source, probs []templates.Problem) error {
	who := b.g.playerWho(o.player)
	refs := len(b.g.Referees) > 0
	for _, r := range readers(b.g.Game) {
		if r.ID == o.player || r.observer || refs != r.referee {
			continue
		}
		waits := fmt.Sprintf("The game waits for %s's orders.", who)
		kind := "default order rejected; the game waits for " + who
		if r.referee {
			waits = fmt.Sprintf("The game waits for %s's orders, or for yours: ORDER %s <orders> enters them.", who, o.player)
			kind = "referee: " + kind
		}
		err := b.add(mail{to: r, tmpl: templates.NameRejected, kind: kind,
			data: func(cm templates.Common, _ templates.Board) any {
				return templates.Rejected{Common: cm, Kind: o.kind, Received: o.received, Problems: probs, For: who, Waits: waits}
			}})
		if err != nil {
			return err
		}
	}
	return nil
}

// desk fills the answer to GAMES: the games the reader referees, by any
// of their addresses, as they stand at the intake time of the query.
func (c *Composer) desk(b *batch, o source, r recipient, q *templates.Query) error {
	q.Now = timeOf(o.at)
	if c.cfg.Desk == nil {
		q.Games = []templates.DeskGame{{Game: b.g.ID, State: "(this pbem lists only this game by mail)"}}
		return nil
	}
	gs, err := c.cfg.Desk(r.Addresses, o.at)
	if err != nil {
		return fmt.Errorf("compose GAMES: %w", err)
	}
	q.Games = gs
	return nil
}

// log fills the answer to LOG: the last n decided inputs of the game,
// each as the reader may see it now (cut as their mails and 'pbem log
// --as' are: see play.RecentActions).
func (c *Composer) log(b *batch, r recipient, q *templates.Query, n int) error {
	q.LogN = n
	if c.cfg.Log == nil {
		q.Log = []string{"(this pbem cannot read the game's log for mail: ask the operator for 'pbem log " + b.g.ID + "')"}
		return nil
	}
	lines, err := c.cfg.Log(b.g.ID, r.viewer(), b.g.Seq, n)
	if err != nil {
		return fmt.Errorf("compose LOG: %w", err)
	}
	q.Log = lines
	return nil
}
