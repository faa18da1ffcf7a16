package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"pbem/bus"
	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
	"pbem/mail/compose"
	"pbem/mail/intake"
	"pbem/mail/mailhost"
	"pbem/mail/outbox"
	"pbem/templates"
)

// replySecretName names the server secret reply tokens are keyed with.
const replySecretName = "reply-token"

func newSecret() ([]byte, error) {
	b := make([]byte, 32)
	_, err := rand.Read(b)
	return b, err
}

// composer builds the mail composer from the configuration and the
// store's reply-token secret (made on first use).
func (a *app) composer() (*compose.Composer, error) {
	if a.comp != nil {
		return a.comp, nil
	}
	log, err := a.open()
	if err != nil {
		return nil, err
	}
	secret, err := log.ServerSecret(replySecretName, newSecret)
	if err != nil {
		return nil, fmt.Errorf("reply-token secret: %w", err)
	}
	t, err := templates.Load(a.cfg.Mail.Templates)
	if err != nil {
		return nil, err
	}
	a.comp = compose.New(compose.Config{Domain: a.cfg.Mail.Domain, Local: a.cfg.Mail.Local, Secret: secret,
		Log: func(game string, v engine.Viewer, upTo uint64, n int) ([]string, error) {
			return play.RecentActions(log, a.reg, game, v, upTo, n)
		},
		Desk: func(addrs []string, now int64) ([]templates.DeskGame, error) {
			ds, err := desks(log, a.reg, addrs, now)
			if err != nil {
				return nil, err
			}
			out := make([]templates.DeskGame, len(ds))
			for i, d := range ds {
				out[i] = templates.DeskGame{Game: d.Game, What: fmt.Sprintf("%s %s, seq %d", d.Ruleset, d.Scenario, d.Seq), State: d.State, Details: d.Lines}
			}
			return out, nil
		}}, t)
	a.secret = secret
	return a.comp, nil
}

// builtinDomain is the setting that tells a game created now that its
// addresses at the mail domain are the built-in mail host's (none when a
// mail host is configured).
func (a *app) builtinDomain() []events.Setting {
	if a.cfg.Mail.IMAP.Addr != "" {
		return nil
	}
	return []events.Setting{{Key: play.SettingBuiltinDomain, Value: a.cfg.Mail.Domain}}
}

// mailSystem is mail in and out for a running server: the intake reading
// the game mailbox, the outbox sending queued mails, and, when no mail host
// is configured, the built-in one.
type mailSystem struct {
	cfg    MailCfg
	lg     *slog.Logger
	host   *mailhost.Host
	intake *intake.Intake
	sender *outbox.Sender
	wg     sync.WaitGroup
}

// roster gives the intake a game's seats as they are now, from the
// runner's folded game (a referee may have replaced a player, and the
// seat then has a new key; observers may have been added).
func roster(r *play.Runner) func(game string) (intake.Seats, error) {
	return func(game string) (intake.Seats, error) {
		var s intake.Seats
		found := false
		// A game busy for longer than this (or that cannot be loaded)
		// must not hold up the intake of every other game's mail.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		err := r.Query(ctx, game, func(g *play.Game) {
			if g != nil && g.Created != nil {
				found = true
				s = intake.SeatsOf(g)
			}
		})
		if err == nil && !found {
			err = fmt.Errorf("game %s is not loaded", game)
		}
		return s, err
	}
}

func startMail(ctx context.Context, a *app, b *bus.Bus, runner *play.Runner) (*mailSystem, error) {
	if _, err := a.composer(); err != nil {
		return nil, err
	}
	m := &mailSystem{cfg: a.cfg.Mail, lg: a.lg.With("component", "mail")}
	imapCfg := intake.Config{Addr: m.cfg.IMAP.Addr, TLS: m.cfg.IMAP.TLS, Username: m.cfg.IMAP.Username, Password: m.cfg.IMAP.Password, Auth: m.cfg.IMAP.Auth,
		Mailbox: m.cfg.IMAP.Mailbox, Local: m.cfg.Local, Domain: m.cfg.Domain, Secret: a.secret, Logger: a.lg,
		RateBurst: m.cfg.RatePerHour, RateWindow: time.Hour, Roster: roster(runner)}
	if m.cfg.IMAP.Poll != "" {
		d, err := time.ParseDuration(m.cfg.IMAP.Poll)
		if err != nil {
			return nil, fmt.Errorf("mail.imap.poll %q: %w", m.cfg.IMAP.Poll, err)
		}
		imapCfg.PollEvery = d
	}
	smtpCfg := outbox.Config{Addr: m.cfg.SMTP.Addr, TLS: m.cfg.SMTP.TLS, Username: m.cfg.SMTP.Username, Password: m.cfg.SMTP.Password,
		From: fmt.Sprintf("%q <%s@%s>", m.cfg.FromName, m.cfg.Local, m.cfg.Domain), ListDomain: m.cfg.Domain, Logger: a.lg}
	if m.cfg.IMAP.Addr == "" {
		host, err := mailhost.Start(mailhost.Config{Domain: m.cfg.Domain, IMAPAddr: m.cfg.Builtin.IMAP, SMTPAddr: m.cfg.Builtin.SMTP, Logger: a.lg})
		if err != nil {
			return nil, fmt.Errorf("built-in mail host: %w", err)
		}
		m.host = host
		if err := host.AddUser(m.cfg.Local, m.cfg.Builtin.Password); err != nil {
			host.Close()
			return nil, err
		}
		imapCfg.Addr, imapCfg.TLS, imapCfg.Username, imapCfg.Password = host.IMAPAddr(), "none", m.cfg.Local, m.cfg.Builtin.Password
		// The built-in host keeps mail in memory: a new run is a new mailbox
		// whose UIDs start again at 1, so its checkpoint is per run.
		imapCfg.CheckpointKey = fmt.Sprintf("builtin:%s@%d", m.cfg.Local, time.Now().UnixNano())
		smtpCfg.Addr, smtpCfg.TLS = host.SMTPAddr(), "none"
		a.lg.Warn("LOCAL MAIL HOST: no mail host is configured, so pbem runs its own on loopback; it delivers only to mailboxes at its domain",
			"imap", host.IMAPAddr(), "smtp", host.SMTPAddr(), "domain", m.cfg.Domain, "password", m.cfg.Builtin.Password,
			"game_mailbox", m.cfg.Local+"@"+m.cfg.Domain)
	} else if smtpCfg.Addr == "" {
		return nil, fmt.Errorf("mail.imap.addr is set but mail.smtp.addr is not: pbem needs both, or neither for the built-in host")
	}
	if err := smtpCfg.Validate(); err != nil {
		return nil, err
	}
	m.intake = intake.New(imapCfg, b)
	m.sender = outbox.New(smtpCfg, b)
	return m, nil
}

// start runs the intake and the sender until ctx is done. serve calls it
// once every mailbox exists and the mails a previous run left are queued:
// a mail sent before its recipient's built-in mailbox exists would bounce.
func (m *mailSystem) start(ctx context.Context) {
	m.wg.Add(2)
	go func() {
		defer m.wg.Done()
		if err := m.intake.Run(ctx); err != nil {
			m.lg.Error("intake stopped", "err", err)
		}
	}()
	go func() {
		defer m.wg.Done()
		if err := m.sender.Run(ctx); err != nil {
			m.lg.Error("outbox stopped", "err", err)
		}
	}()
}

// handle follows the log for mail work: queued mails go to the sender,
// sent or finally failed ones leave it, and players at the built-in
// host's domain get a mailbox when their game is created.
func (m *mailSystem) handle(e *events.Envelope) {
	switch e.Type {
	case events.TypeMailQueued, events.TypeMailSent, events.TypeMailFailed, events.TypeGameCreated:
	default:
		return
	}
	p, err := events.Decode(e)
	if err != nil {
		m.lg.Error("undecodable mail event", "game", e.Game, "seq", e.Seq, "err", err)
		return
	}
	switch p := p.(type) {
	case *events.MailQueued:
		m.sender.Enqueue(e.Game, e.Seq, e.Time(), p, 0)
	case *events.MailSent:
		m.sender.Cancel(e.Game, p.MailID)
	case *events.MailFailed:
		if p.Permanent {
			m.sender.Cancel(e.Game, p.MailID)
		}
	case *events.GameCreated:
		m.addLocalUsers(p)
	}
}

func (m *mailSystem) addLocalUsers(gc *events.GameCreated) {
	if m.host == nil {
		return
	}
	for _, p := range append(append([]events.Player(nil), gc.Players...), gc.Referees...) {
		for _, addr := range p.Addresses {
			local, dom, ok := strings.Cut(addr, "@")
			if !ok || !strings.EqualFold(dom, m.cfg.Domain) {
				continue
			}
			if err := m.host.AddUser(local, m.cfg.Builtin.Password); err != nil {
				m.lg.Warn("built-in mailbox", "user", local, "err", err)
			}
		}
	}
}

// prepare makes the built-in host's mailboxes for the existing games,
// before any of their mail can be queued.
func (m *mailSystem) prepare(log logStore, games []string) error {
	if m.host == nil {
		return nil
	}
	for _, id := range games {
		// One game that cannot be read must not keep the others from
		// being served: it is logged, and left out.
		es, err := log.Events(id, 1)
		if err == nil && len(es) == 0 {
			err = errors.New("its log is empty")
		}
		if err != nil {
			m.lg.Error("cannot read a game's players for the built-in mail host", "game", id, "err", err)
			continue
		}
		p, err := events.Decode(&es[0])
		if err != nil {
			m.lg.Error("cannot read a game's players for the built-in mail host", "game", id, "err", err)
			continue
		}
		if gc, ok := p.(*events.GameCreated); ok {
			m.addLocalUsers(gc)
		}
	}
	return nil
}

// recover queues the mails a previous run left unsent.
func (m *mailSystem) recover(log logStore, runner *play.Runner, games []string) error {
	for _, id := range games {
		var pending []play.QueuedMail
		if err := runner.Query(context.Background(), id, func(g *play.Game) { pending = append(pending, g.Outbox...) }); err != nil {
			// A game that cannot be loaded keeps its unsent mails until it
			// can; the others' go out.
			m.lg.Error("cannot recover a game's unsent mails", "game", id, "err", err)
			continue
		}
		for _, q := range pending {
			es, err := log.Events(id, q.Seq)
			if err != nil || len(es) == 0 {
				return fmt.Errorf("game %s: queued mail at %d: %v", id, q.Seq, err)
			}
			p, err := events.Decode(&es[0])
			if err != nil {
				return err
			}
			if mq, ok := p.(*events.MailQueued); ok {
				m.sender.Enqueue(id, q.Seq, es[0].Time(), mq, q.Attempts)
			}
		}
		if len(pending) > 0 {
			m.lg.Info("resending mails left unsent", "game", id, "mails", len(pending))
		}
	}
	return nil
}

// wait waits for the intake and the sender to stop (after ctx is done),
// then stops the built-in host.
func (m *mailSystem) wait() {
	m.wg.Wait()
	if m.host != nil {
		m.host.Close()
	}
}
