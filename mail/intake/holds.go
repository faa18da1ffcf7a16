package intake

import (
	"fmt"
	"strings"
	"time"

	"pbem/events"
	"pbem/mail/token"
)

// refuser builds the outcome refusing a mail: a mail.refused event and the
// notice telling the player.
type refuser func(kind, reason, title, what, do string) outcome

// hold keeps a player's order that could not be authenticated until the
// player confirms it: an order.held event, and a notice to the registered
// address with the code that confirms it.
func (in *Intake) hold(o outcome, s *seat, text string, refs []string, a senderAuth, at time.Time) outcome {
	held, err := in.heldOrders(s.game, s.player.ID)
	if err != nil {
		return quarantined(o.msg, "game %s: cannot read its held orders: %v", s.game, err)
	}
	pending := 0
	for _, h := range held {
		if !h.confirmed && at.UnixNano() < h.Expires {
			pending++
		}
	}
	if pending >= in.cfg.Senders.MaxHeld {
		return quarantined(o.msg, "not authenticated (%s), and %d orders of %s in game %s already wait for confirmation", a.suspect(), pending, s.player.ID, s.game)
	}
	why := a.suspect()
	if why != a.why {
		why += ", and " + a.why
	}
	expires := at.Add(in.cfg.Senders.ConfirmWithin)
	o.evs = []events.Payload{&events.OrderHeld{Player: s.player.ID, Text: text, MessageID: o.key, References: refs,
		Sender: a.sender, Reason: why, Expires: expires.UnixNano()}}
	var quote []string
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if strings.TrimSpace(l) != "" {
			quote = append(quote, l)
		}
	}
	o.notice = &Notice{Player: s.player.ID, To: s.player.Addresses, Kind: NoticeHeld, Title: "Please confirm your orders",
		What: fmt.Sprintf("%s brought orders in your name, but pbem could not make sure you sent it: %s. So it has not been applied. These are its orders:",
			mailName(o.msg.Subject, at), why),
		Quote: quote,
		Code:  "CONFIRM " + token.ConfirmCode(in.cfg.Secret, s.game, s.player.ID, o.key),
		Do: fmt.Sprintf("If you sent it, reply to this mail with the line above, unquoted, and the orders are applied as if they had just arrived. The code works once, until %s. %s",
			timeText(expires), "If you did not send it, do nothing: someone may be sending mail in your name, so tell the referee."),
		InReplyTo: o.msg.MessageID, References: refs}
	o.noticeKey = noticeKeyFor(s.game, s.player.ID, a)
	o.evidence, o.what = true, "order held for confirmation: "+a.suspect()
	return o
}

// confirm applies the held order a "CONFIRM <code>" mail names.
func (in *Intake) confirm(o outcome, s *seat, code string, at time.Time, refuse refuser) outcome {
	held, err := in.heldOrders(s.game, s.player.ID)
	if err != nil {
		return quarantined(o.msg, "game %s: cannot read its held orders: %v", s.game, err)
	}
	for _, h := range held {
		if !token.ValidConfirmCode(in.cfg.Secret, s.game, s.player.ID, h.MessageID, code) {
			continue
		}
		switch {
		case h.confirmed:
			return refuse(events.RefusedCode, "the order held at seq "+fmt.Sprint(h.seq)+" was confirmed before", "Already confirmed",
				fmt.Sprintf("The orders this code confirms (held %s) were confirmed and applied before; a code works once.", timeText(time.Unix(0, h.at))),
				"Nothing more to do. To send more orders, write them in a new mail.")
		case at.UnixNano() >= h.Expires:
			return refuse(events.RefusedCode, "the order held at seq "+fmt.Sprint(h.seq)+" expired", "Confirmation too late",
				fmt.Sprintf("The orders this code confirms waited until %s, and that time has passed: they were not applied.", timeText(time.Unix(0, h.Expires))),
				"If you still want them, send them again in a new mail.")
		}
		o.evs = []events.Payload{
			&events.OrderConfirmed{Player: s.player.ID, Held: h.seq, MessageID: o.key},
			&events.OrderReceived{Player: s.player.ID, Text: h.Text, MessageID: h.MessageID, Source: "mail",
				References: h.References, Auth: "confirmed by code from " + strings.ToLower(o.msg.From.Addr)},
		}
		o.keys = []string{"confirmed:" + h.MessageID}
		o.evidence, o.what = true, "held order confirmed"
		return o
	}
	return refuse(events.RefusedCode, "no held order has the code", "Your confirmation did not match",
		"Your mail has a CONFIRM line, but no order of yours waits for that code.",
		"Check that you copied the line from the latest confirmation mail pbem sent you, or send your orders again. "+elseSomeone)
}

// duplicate checks whether the mail was taken before: under its
// Message-ID with the same content (a rescan: nothing new), under its
// Message-ID with other content (quarantined, the player told), or under
// another Message-ID with the same content (a replay: refused, the player
// told). Keys outlive rollbacks, so a mail accepted on a branch since
// rolled back is still a replay.
func (in *Intake) duplicate(o outcome, refuse refuser) (outcome, bool) {
	seq, ok, err := in.log.Lookup(o.game, o.key)
	if err != nil {
		return o, false // the append's own key check still catches it
	}
	if ok {
		same := len(o.keys) == 0 // nothing to compare: the same mail
		for _, k := range o.keys {
			if s, ok, _ := in.log.Lookup(o.game, k); ok && s == seq {
				same = true
			}
		}
		if same {
			return outcome{msg: o.msg, game: o.game, player: o.player, already: true, what: "mail taken before"}, true
		}
		fp := o.keys[0]
		r := refuse(events.RefusedReused, fmt.Sprintf("Message-ID %s was taken at seq %d by a mail with other content", o.key, seq),
			"A mail reused a Message-ID",
			fmt.Sprintf("A mail in your name arrived with the Message-ID %s, which an earlier mail of yours already had, but with other content. pbem applied nothing of it and set it aside for the operator.", o.key),
			"If you sent it, send it again as a new mail (your mail program gives each new mail its own Message-ID). "+elseSomeone)
		r.key = "reused:" + o.key + ":" + fp
		r.quarantine = fmt.Sprintf("Message-ID %s reused with other content (the first is seq %d of game %s); the player was told", o.key, seq, o.game)
		return r, true
	}
	for _, k := range o.keys {
		seq, ok, err := in.log.Lookup(o.game, k)
		if err != nil || !ok {
			continue
		}
		r := refuse(events.RefusedReplay, fmt.Sprintf("a copy of the mail taken at seq %d, under a new Message-ID", seq),
			"A copy of an earlier mail",
			fmt.Sprintf("pbem received a copy of a mail it already has from you (taken at seq %d), under the new Message-ID %s. It was not applied again.", seq, o.key),
			"If you meant to send the same orders again, write them in a new mail. If you did not send this copy, someone may be replaying your mail: tell the referee.")
		r.key = "replay:" + o.key
		return r, true
	}
	return o, false
}

// heldOrder is an order.held event and what became of it.
type heldOrder struct {
	events.OrderHeld
	seq       uint64
	at        int64
	confirmed bool
}

// heldOrders reads the player's held orders from the game's log.
func (in *Intake) heldOrders(game, player string) ([]heldOrder, error) {
	var out []heldOrder
	err := in.log.Read(game, 1, func(e *events.Envelope) error {
		if e.Type != events.TypeOrderHeld && e.Type != events.TypeOrderConfirmed {
			return nil
		}
		p, err := events.Decode(e)
		if err != nil {
			return err
		}
		switch p := p.(type) {
		case *events.OrderHeld:
			if p.Player == player {
				out = append(out, heldOrder{OrderHeld: *p, seq: e.Seq, at: e.At})
			}
		case *events.OrderConfirmed:
			for i := range out {
				if out[i].seq == p.Held {
					out[i].confirmed = true
				}
			}
		}
		return nil
	})
	return out, err
}

// seed counts, once per game and run, the game's mails within the rate
// window from its log, so that a restart does not reset the limits.
func (in *Intake) seed(game string, now time.Time) {
	in.mu.Lock()
	done := in.seeded[game]
	in.seeded[game] = true
	in.mu.Unlock()
	if done {
		return
	}
	from := now.Add(-in.cfg.RateWindow).UnixNano()
	err := in.log.Read(game, 1, func(e *events.Envelope) error {
		switch {
		case e.At < from:
			return nil
		case e.Type != events.TypeOrderReceived && e.Type != events.TypeOrderHeld && e.Type != events.TypeMailRefused:
			return nil
		}
		p, err := events.Decode(e)
		if err != nil {
			return err
		}
		t := e.Time()
		switch p := p.(type) {
		case *events.OrderReceived:
			if p.Source != "mail" {
				return nil
			}
			a := senderAuth{}
			// "dkim …", "spf …", "smtp.auth …" (and "dmarc …" of logs
			// older than the table "Who sent it"): counted as
			// authenticated, as they were when taken.
			if p.Auth != "" && !strings.HasPrefix(p.Auth, "none") && !strings.HasPrefix(p.Auth, "confirmed") {
				a.how = p.Auth
			}
			in.limit.record(rateKey(game, p.Player, a), t, now)
		case *events.OrderHeld:
			in.limit.record(rateKey(game, p.Player, senderAuth{sender: p.Sender}), t, now)
			in.notices.record(noticeKeyFor(game, p.Player, senderAuth{sender: p.Sender}), t, now)
		case *events.MailRefused:
			in.notices.record(noticeKeyFor(game, p.Player, senderAuth{sender: p.Sender}), t, now)
			if p.Kind == events.RefusedRateLimited {
				keys := []string{rateKey(game, p.Player, senderAuth{sender: p.Sender})}
				if p.Sender == "" {
					keys = append(keys, rateKey(game, p.Player, senderAuth{how: "x"}))
				}
				for _, k := range keys {
					in.limit.told(k, t, now)
				}
			}
		}
		return nil
	})
	if err != nil {
		in.lg.Warn("counting a game's recent mails for the rate limits", "game", game, "err", err)
	}
}
