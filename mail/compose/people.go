package compose

import (
	"errors"
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
	return out
}

// private reports whether a decision is for its sender (and the people it
// names) alone: a message, or the sender's time zone.
func private(d *events.OrderAccepted) bool {
	for _, f := range d.Facts {
		switch {
		case f.Kind == play.FactMessage:
		case f.Kind == play.FactSetting && strings.HasPrefix(f.Str("key"), play.SettingTZPrefix):
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
			subject := "message from " + from
			err := b.add(mail{to: r, tmpl: templates.NameMessage, subject: subject,
				data: func(cm templates.Common, _ templates.Board) any {
					return templates.Message{Common: cm, From: from, ToReferees: toRefs, Text: text}
				}})
			if err != nil {
				return err
			}
		}
	}
	subject := "done"
	for _, f := range d.Facts {
		if f.Kind == play.FactMessage {
			subject = "your message was sent"
		}
	}
	sentByReferee := b.g.IsReferee(o.player) || o.player == play.OperatorID
	for _, r := range readers(b.g.Game) {
		if r.ID != o.player && !(sentByReferee && r.referee) {
			continue
		}
		act := b.action(o, d, r)
		m := mail{to: r, tmpl: templates.NameReport, subject: subject}
		if r.ID == o.player {
			m.inReplyTo = o.messageID
		}
		next := c.prompts(b.g.Game, b.g.Prompts(b.state, nil), r)
		m.data = func(cm templates.Common, _ templates.Board) any {
			return templates.Turn{Common: cm, Action: act, Next: next}
		}
		if err := b.add(m); err != nil {
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
	return b.add(mail{to: r, tmpl: templates.NameReplaced, subject: "your seat has changed hands",
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
		subject := "default order rejected; the game waits for " + who
		if r.referee {
			waits = fmt.Sprintf("The game waits for %s's orders, or for yours: ORDER %s <orders> enters them.", who, o.player)
			subject = "referee: " + subject
		}
		err := b.add(mail{to: r, tmpl: templates.NameRejected, subject: subject,
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

var errLogDone = errors.New("log read")

// log fills the answer to LOG: the last n decided inputs of the game, each
// as the reader may see it now. A referee sees every input, rejected or
// not, as pbem log prints it; a player sees every accepted action (only
// its facts, dice and echo lines they may see, and the words of the mail
// only if it was their own side's), and their own rejected mails.
func (c *Composer) log(b *batch, r recipient, q *templates.Query, n int) error {
	q.LogN = n
	if c.cfg.Log == nil {
		q.Log = []string{"(this pbem cannot read the game's log for mail: ask the operator for 'pbem log " + b.g.ID + "')"}
		return nil
	}
	g := b.g.Game
	sight := g.Sight(r.viewer())
	inputs := map[uint64]events.Envelope{}
	err := c.cfg.Log.Read(g.ID, 1, func(e *events.Envelope) error {
		if e.Seq > g.Seq {
			return errLogDone
		}
		if events.IsInput(e.Type) {
			inputs[e.Seq] = e.Clone()
			return nil
		}
		if !events.IsAccepted(e.Type) && e.Type != events.TypeOrderRejected {
			return nil
		}
		p, err := events.Decode(e)
		if err != nil {
			return err
		}
		var input uint64
		switch d := p.(type) {
		case *events.OrderAccepted:
			input = d.Input
		case *events.OrderRejected:
			input = d.Input
		}
		in, ok := inputs[input]
		delete(inputs, input)
		if !ok {
			return nil
		}
		if line, ok := b.g.logLine(sight, r, &in, p); ok {
			if _, closed := play.InBranch(g.Branches, e.Seq); closed {
				line += " [closed branch: undone by a rollback]"
			}
			q.Log = append(q.Log, line)
			if len(q.Log) > n {
				q.Log = q.Log[1:]
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, errLogDone) {
		return fmt.Errorf("compose LOG: %w", err)
	}
	return nil
}

// logLine is one input and its decision as the reader may see them, or
// false if the reader may not see it at all.
func (g game) logLine(sight play.Sight, r recipient, in *events.Envelope, decision events.Payload) (string, bool) {
	at := in.Time().Format(timeLayout)
	if r.referee {
		line := play.TimelineLine(in, decision)
		seq, rest, _ := strings.Cut(line, "  ")
		return seq + "  " + at + "  " + rest, true
	}
	p, err := events.Decode(in)
	if err != nil {
		return "", false
	}
	var sender, text string
	switch p := p.(type) {
	case *events.OrderReceived:
		sender, text = p.Player, p.Text
	case *events.RefereeCommand:
		sender, text = p.Referee, p.Text
	case *events.DeadlinePassed:
		sender, text = p.Player, "(deadline passed) "+p.Default
	case *events.PauseExpired:
		sender, text = "", "(the players' pause ran out)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "seq %d  %s  ", in.Seq, at)
	if sender != "" {
		b.WriteString(g.playerWho(sender) + ": ")
	}
	if _, isPassed := p.(*events.DeadlinePassed); isPassed || sender == "" || sight.SeesInput(g.Game, sender) || g.IsReferee(sender) && len(commandFirst(text)) > 0 {
		b.WriteString(play.OneLine(text))
	} else {
		b.WriteString("(orders)")
	}
	switch d := decision.(type) {
	case *events.OrderRejected:
		if sender != r.ID {
			return "", false
		}
		b.WriteString(" → rejected")
		for i, q := range d.Problems {
			if i == 0 {
				b.WriteString(": ")
			} else {
				b.WriteString("; ")
			}
			b.WriteString(q.String())
		}
	case *events.OrderAccepted:
		cut := sight.Decision(d)
		var parts []string
		parts = append(parts, cut.Echo...)
		for _, f := range cut.Facts {
			parts = append(parts, play.FactLine(f))
		}
		for _, x := range cut.Dice {
			parts = append(parts, "die "+x.String())
		}
		b.WriteString(" → accepted")
		if len(parts) > 0 {
			b.WriteString(": " + strings.Join(parts, "; "))
		}
	}
	return b.String(), true
}

// commandFirst is the first word of a referee's text if it is a game
// command (whose words are the players' to read, being announced), else "".
func commandFirst(text string) string {
	f := strings.Fields(text)
	if len(f) == 0 {
		return ""
	}
	for _, c := range []string{play.CmdRollback, play.CmdPause, play.CmdResume, play.CmdDeadline, play.CmdExtend, play.CmdEnd, play.CmdAnnounce, play.CmdSetting} {
		if strings.EqualFold(f[0], c) {
			return c
		}
	}
	return ""
}
