package play

import (
	"fmt"
	"slices"

	"pbem/engine"
	"pbem/events"
)

// CutLog reads game's log from its first event and calls fn for each
// event with the game as it is once the event is folded and the part of
// the event v may see then: nil when v may see nothing of it, else the
// payload (a copy, when something of it is hidden from v). It is how
// pbem log, replay and export --as, and the campaign report, show a
// player or an observer the log: cut by the same Sight as their mails.
//
// What a player sees of each event: the game's creation (without the
// other participants' addresses); the text of their own side's orders,
// and of others' only that they came; every decision as its Sight cuts
// it; their own side's rejections; of a referee's command its reason, not
// its text; deadlines; the mails addressed to them and their delivery;
// the end. A referee sees everything but the players' press when the
// game keeps it from the referees (its press-referee setting): a press
// mail's text, its rejection and its facts are its writer's and its
// recipients' alone, never anyone else's, not even after the game's end.
func CutLog(src Source, reg *engine.Registry, game string, v engine.Viewer, fn func(g *Game, e *events.Envelope, p events.Payload) error) error {
	g := &Game{ID: game, History: sourceHistory{src, reg, game}}
	var (
		pending []events.Envelope // inputs folded, not yet decided: a decision names its input
		mine    = map[string]bool{}
		// pressMails are the mails queued for a press decision the
		// referees may not read (they follow it in the log): a referee
		// does not see them.
		pressMails = map[string]bool{}
		lastPress  bool
	)
	err := src.Read(game, 1, func(e *events.Envelope) error {
		p, err := events.Decode(e)
		if err != nil {
			return err
		}
		var sender string
		press := false
		switch {
		case events.IsAccepted(e.Type) || e.Type == events.TypeOrderRejected:
			for _, in := range pending {
				if in.Seq == InputOf(p) {
					sender, press = inputSender(&in)
				}
			}
			lastPress = press && !g.RefereesReadPress()
		case events.IsInput(e.Type):
			lastPress = false
		case e.Type == events.TypeMailQueued && lastPress:
			pressMails[p.(*events.MailQueued).MailID] = true
		}
		if err := g.Apply(reg, e); err != nil {
			return err
		}
		pending = g.Pending
		if v.Referee && pressMailOf(p, pressMails) {
			return fn(g, e, nil)
		}
		return fn(g, e, cut(g, v, p, sender, press, mine))
	})
	if err != nil {
		return fmt.Errorf("cut %s for %+v: %w", game, v, err)
	}
	return nil
}

// InputOf is the seq of the input a decision (accepted or rejected)
// decides; 0 for anything else.
func InputOf(p events.Payload) uint64 {
	switch d := p.(type) {
	case *events.OrderAccepted:
		return d.Input
	case *events.OrderRejected:
		return d.Input
	}
	return 0
}

// inputSender is who sent an input (the player whose deadline passed),
// and whether it is a player's press.
func inputSender(in *events.Envelope) (string, bool) {
	p, err := events.Decode(in)
	if err != nil {
		return "", false
	}
	switch p := p.(type) {
	case *events.OrderReceived:
		return p.Player, IsPress(p.Text)
	case *events.RefereeCommand:
		return p.Referee, false
	case *events.DeadlinePassed:
		return p.Player, false
	}
	return "", false
}

// pressMailOf reports whether p is a mail of a press decision, or its
// delivery.
func pressMailOf(p events.Payload, pressMails map[string]bool) bool {
	switch p := p.(type) {
	case *events.MailQueued:
		return pressMails[p.MailID]
	case *events.MailSent:
		return pressMails[p.MailID]
	case *events.MailFailed:
		return pressMails[p.MailID]
	}
	return false
}

// seesPress reports whether v may read the text of a press written by
// sender: the writer, and the referees when the game's referees read
// press. (Its recipients read it in its facts, not in the writer's mail.)
func seesPress(g *Game, v engine.Viewer, sender string) bool {
	return v.Player != "" && v.Player == sender || v.Referee && g.RefereesReadPress()
}

// cut is the part of p (folded into g) v may see; mine are the ids of the
// mails addressed to v so far; press says p decides a player's press.
func cut(g *Game, v engine.Viewer, p events.Payload, sender string, press bool, mine map[string]bool) events.Payload {
	s := g.Sight(v)
	switch p := p.(type) {
	case *events.OrderReceived:
		switch {
		case !IsPress(p.Text) || seesPress(g, v, p.Player):
		case slices.Contains(g.pressReaders(p.Player, p.Text), v.Player) && v.Player != "":
			return &events.OrderReceived{Player: p.Player, Source: p.Source} // its recipients read it in its facts
		default:
			return nil // not even that it was written
		}
	case *events.OrderHeld:
		if IsPress(p.Text) && !seesPress(g, v, p.Player) {
			return nil
		}
	case *events.OrderRejected:
		if press && !seesPress(g, v, sender) {
			return nil
		}
	case *events.OrderAccepted:
		if press {
			// The referees too, when press is kept from them; nothing at
			// all for a viewer it does not name.
			if d := s.Decision(p); len(d.Facts) > 0 || len(d.Echo) > 0 {
				return d
			}
			return nil
		}
	}
	if v.Referee {
		return p
	}
	switch p := p.(type) {
	case *events.GameCreated:
		c := *p
		c.Players = ownAddresses(p.Players, v.Player)
		c.Referees = ownAddresses(p.Referees, v.Player)
		return &c
	case *events.OrderReceived:
		if s.SeesInput(g, p.Player) {
			return p
		}
		return &events.OrderReceived{Player: p.Player, Source: p.Source}
	case *events.RefereeCommand:
		return &events.RefereeCommand{Referee: p.Referee, Reason: p.Reason, Source: p.Source}
	case *events.OrderHeld:
		// A held order is the player's until confirmed (and may never be).
		if s.SeesInput(g, p.Player) {
			return p
		}
		return nil
	case *events.OrderConfirmed:
		if s.SeesInput(g, p.Player) {
			return p
		}
		return nil
	case *events.MailRefused:
		if s.SeesInput(g, p.Player) {
			return p
		}
		return nil
	case *events.OrderAccepted:
		// The game has folded the decision: its reveals count.
		return s.Decision(p)
	case *events.OrderRejected:
		if sender != "" && s.SeesInput(g, sender) {
			return p
		}
		return nil
	case *events.MailQueued:
		if own, ok := g.PlayerByID(v.Player); ok && slices.ContainsFunc(p.To, func(a string) bool { return slices.Contains(own.Addresses, a) }) {
			mine[p.MailID] = true
			return p
		}
		return nil
	case *events.MailHeld:
		// What was held for a reader is theirs alone: it was rendered
		// for their view of the game.
		if p.Reader != "" && p.Reader == v.Player {
			return p
		}
		return nil
	case *events.MailSent:
		if mine[p.MailID] {
			return p
		}
		return nil
	case *events.MailFailed:
		if mine[p.MailID] {
			return p
		}
		return nil
	}
	return p
}

// ownAddresses is ps with every address but id's left out.
func ownAddresses(ps []events.Player, id string) []events.Player {
	out := make([]events.Player, len(ps))
	for i, p := range ps {
		if p.ID != id {
			p.Addresses = nil
		}
		out[i] = p
	}
	return out
}
