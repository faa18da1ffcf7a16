package server

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"pbem/engine/play"
	"pbem/events"
	"pbem/mail/compose"
	"pbem/mail/outbox"
	"pbem/store"
)

// Undelivered is a mail of a game that failed for good: its recipients
// never got it.
type Undelivered struct {
	MailID, Subject string
	To              []string
	Error           string
	Seq             uint64 // of its mail.failed
}

// UndeliveredMails reads game's log for the mails that failed for good,
// oldest first. The log is read once; only mail events are decoded.
func UndeliveredMails(log play.Source, game string) ([]Undelivered, error) {
	var failed []Undelivered
	queued := map[string]*events.MailQueued{}
	err := log.Read(game, 1, func(e *events.Envelope) error {
		switch e.Type {
		case events.TypeMailFailed, events.TypeMailQueued:
		default:
			return nil
		}
		p, err := events.Decode(e)
		if err != nil {
			return fmt.Errorf("game %s seq %d: %w", game, e.Seq, err)
		}
		switch p := p.(type) {
		case *events.MailQueued:
			// Only the headers are kept: bodies may be large.
			queued[p.MailID] = &events.MailQueued{MailID: p.MailID, To: p.To, Subject: p.Subject}
		case *events.MailFailed:
			if p.Permanent {
				u := Undelivered{MailID: p.MailID, Error: p.Error, Seq: e.Seq}
				if q := queued[p.MailID]; q != nil {
					u.To, u.Subject = q.To, q.Subject
				}
				failed = append(failed, u)
			}
		}
		return nil
	})
	return failed, err
}

// undeliveredLines are the desk's lines for a game's undelivered mails.
func undeliveredLines(us []Undelivered) []string {
	var out []string
	for _, u := range us {
		out = append(out, fmt.Sprintf("UNDELIVERED: the mail %q to %s failed for good (seq %d): %s", u.Subject, strings.Join(u.To, ", "), u.Seq, u.Error))
	}
	return out
}

// undeliveredKey is the idempotency key of the notice to referee ref that
// the mail mailID failed for good.
func undeliveredKey(mailID, ref string) string { return "undelivered:" + mailID + ":" + ref }

// tellReferees mails the game's referees that its mail mailID failed for
// good (seq is the mail.failed), unless the mail was to a referee (they
// could not be told by mail either) or was itself such a notice. Each
// notice is appended once, under its key, however often it is asked.
func (m *mailSystem) tellReferees(ctx context.Context, game string, seq uint64, f *events.MailFailed) error {
	us, err := UndeliveredMails(m.log, game)
	if err != nil {
		return err
	}
	var u *Undelivered
	for i := range us {
		if us[i].Seq == seq {
			u = &us[i]
		}
	}
	if u == nil {
		return fmt.Errorf("game %s has no mail failed for good at seq %d", game, seq)
	}
	if strings.HasPrefix(f.MailID, "undelivered") {
		return nil
	}
	for attempt := 0; ; attempt++ {
		h, err := m.appender.Head(game)
		if err != nil {
			return err
		}
		var evs []events.Envelope
		var keys []string
		qctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		qerr := m.runner.Query(qctx, game, func(g *play.Game) {
			if g == nil || g.Created == nil {
				err = fmt.Errorf("game %s is not loaded", game)
				return
			}
			for _, r := range g.Referees {
				for _, a := range r.Addresses {
					for _, to := range u.To {
						if strings.EqualFold(a, to) {
							return // the failed mail was to a referee
						}
					}
				}
			}
			for _, r := range g.Referees {
				if len(r.Addresses) == 0 {
					continue
				}
				q, nerr := m.comp.Notice(g, compose.Notice{Player: r.ID, Title: "A mail could not be delivered",
					What: fmt.Sprintf("pbem's mail %q to %s failed for good, so they did not get it. The mail server said: %s", u.Subject, strings.Join(u.To, ", "), u.Error),
					Do:   "Check the address with the player. If it is wrong, give the seat the right one (REPLACE <player> WITH <address>); the game's mails then reach them."},
					h.Seq+uint64(len(evs))+1)
				if nerr != nil {
					err = nerr
					return
				}
				evs = append(evs, events.New(game, time.Now(), undeliveredKey(f.MailID, r.ID), q))
				keys = append(keys, undeliveredKey(f.MailID, r.ID))
			}
		})
		cancel()
		if qerr != nil {
			return qerr
		}
		if err != nil || len(evs) == 0 {
			return err
		}
		_, err = m.appender.Do(store.Request{Game: game, Expected: h.Seq, Events: evs, Keys: keys[1:]})
		var conflict *store.ConflictError
		if errors.As(err, &conflict) && attempt < 100 {
			continue
		}
		return err
	}
}

// appender is what tellReferees appends with (the outbox's Appender).
type appender = outbox.Appender
