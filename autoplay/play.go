package autoplay

import (
	"context"
	"crypto/sha256"
	"fmt"
	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
	"pbem/mail/compose"
	"pbem/server"
	"pbem/store"
	"pbem/templates"
	"slices"
	"time"
)

// Play creates game id in st and plays the script s to its end (or
// maxOrders) with the real engine and the mail composer (at the game
// mailbox local@domain), its participants scripted by a Player and every
// mail recorded as sent, returning its log.
func Play(st *store.Store, reg *engine.Registry, domain, local, id string, s Script, maxOrders int) ([]events.Envelope, error) {
	secret, err := st.ServerSecret(server.ReplySecretName, server.NewSecret)
	if err != nil {
		return nil, err
	}
	t, err := templates.Load("")
	if err != nil {
		return nil, err
	}
	comp := compose.New(compose.Config{Domain: domain, Local: local, Secret: secret}, t)
	at := time.Date(1863, 7, 1, 8, 0, 0, 0, time.UTC)
	// A fixed seed: the same dice, so the same game, every run, and the
	// figures of two runs measure the same work.
	seed := sha256.Sum256([]byte("pbem bench: the model game's dice"))
	if _, err := play.Create(st, reg, play.NewGame{ID: id, Ruleset: s.Ruleset, ScenarioName: s.ScenarioName,
		Scenario: s.Scenario, Players: s.Players, Referees: s.Referees, Settings: s.Settings, At: at, Welcome: comp.Welcome, Seed: seed[:]}); err != nil {
		return nil, err
	}
	r := play.NewRunner(st, reg, play.RunnerOptions{SnapshotEvery: 1 << 30, Notifier: comp})
	defer r.Close()
	if err := sendOutbox(r, st, id, at); err != nil { // the welcome mails
		return nil, err
	}
	ap := s.Player()
	for i := 0; i < maxOrders; i++ {
		var who, text string
		var ok, over bool
		if err := r.Query(context.Background(), id, func(g *play.Game) {
			over = g.Ended != nil
			who, text, ok = ap.NextMove(g)
		}); err != nil {
			return nil, err
		}
		if over || !ok {
			break
		}
		h, err := st.Head(id)
		if err != nil {
			return nil, err
		}
		at = at.Add(time.Hour)
		key := fmt.Sprintf("<demo-%d@pbem.invalid>", i)
		var p events.Payload = &events.OrderReceived{Player: who, Text: text, MessageID: key, Source: "bench"}
		for _, ref := range s.Referees {
			if ref.ID == who {
				p = &events.RefereeCommand{Referee: who, Text: text, MessageID: key, Source: "bench"}
			}
		}
		res, err := st.Append(id, h.Seq, events.New(id, at, key, p))
		if err != nil {
			return nil, err
		}
		r.Deliver(&res.Events[0])
		if err := settled(r, st, id); err != nil {
			return nil, err
		}
		if err := sendOutbox(r, st, id, at); err != nil {
			return nil, err
		}
	}
	return st.Events(id, 1)
}

// settled waits until the runner has decided every input of game and
// folded everything its log holds.
func settled(r *play.Runner, st *store.Store, id string) error {
	for {
		var pending int
		var seq uint64
		if err := r.Query(context.Background(), id, func(g *play.Game) { pending, seq = len(g.Pending), g.Seq }); err != nil {
			return err
		}
		h, err := st.Head(id)
		if err != nil {
			return err
		}
		if pending == 0 && seq == h.Seq {
			return nil
		}
		time.Sleep(100 * time.Microsecond)
	}
}

// sendOutbox records every mail in game's outbox as delivered, as the
// outbox sender does once the SMTP server accepts it (one mail.sent each,
// with the reply the built-in server gives): a served game's log holds a
// mail.sent for each mail.queued, and so does the model.
func sendOutbox(r *play.Runner, st *store.Store, id string, at time.Time) error {
	var out []play.QueuedMail
	if err := r.Query(context.Background(), id, func(g *play.Game) { out = slices.Clone(g.Outbox) }); err != nil {
		return err
	}
	for _, m := range out {
		h, err := st.Head(id)
		if err != nil {
			return err
		}
		res, err := st.Append(id, h.Seq, events.New(id, at.Add(time.Second), "", &events.MailSent{MailID: m.MailID, Attempt: 1, Reply: "2.0.0 OK: queued"}))
		if err != nil {
			return err
		}
		r.Deliver(&res.Events[0])
	}
	return settled(r, st, id)
}
