package main

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
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

// mailboxPassword returns user's password on the built-in mail host:
// random, made on first use and kept with pbem.db's secrets (never in the
// log, never logged).
func mailboxPassword(log logStore, user string) (string, error) {
	pw, err := log.ServerSecret("mailbox:"+strings.ToLower(user), func() ([]byte, error) {
		b := make([]byte, 15) // 120 bits
		if _, err := rand.Read(b); err != nil {
			return nil, err
		}
		return []byte(strings.ToLower(base32.StdEncoding.EncodeToString(b))), nil
	})
	if err != nil {
		return "", fmt.Errorf("password of mailbox %s: %w", user, err)
	}
	return string(pw), nil
}

// builtinHost reports whether pbem runs its own mail host (no IMAP server
// is configured).
func (c MailCfg) builtinHost() bool { return c.IMAP.Addr == "" }

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
	cc := compose.Config{Domain: a.cfg.Mail.Domain, Local: a.cfg.Mail.Local, Secret: secret,
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
		}}
	if a.cfg.Mail.builtinHost() {
		cc.Mailhost = &compose.Mailhost{IMAP: a.cfg.Mail.Builtin.IMAP, SMTP: a.cfg.Mail.Builtin.SMTP}
	}
	a.comp = compose.New(cc, t)
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
	cfg     MailCfg
	lg      *slog.Logger
	started time.Time
	log     logStore // for the built-in host's passwords
	comp    *compose.Composer
	host    *mailhost.Host
	mu      sync.Mutex
	ensured map[string]bool // games whose built-in mailboxes exist
	intake  *intake.Intake
	sender  *outbox.Sender
	wg      sync.WaitGroup
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

// intakeLog is what the intake appends to.
type intakeLog = intake.Log

func startMail(ctx context.Context, a *app, b *bus.Bus, runner *play.Runner, m0 *metrics) (*mailSystem, error) {
	if _, err := a.composer(); err != nil {
		return nil, err
	}
	m := &mailSystem{cfg: a.cfg.Mail, lg: a.lg.With("component", "mail"), log: a.log, comp: a.comp, started: time.Now(),
		ensured: map[string]bool{}}
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
	if m.cfg.builtinHost() {
		pw, err := mailboxPassword(m.log, m.cfg.Local)
		if err != nil {
			return nil, err
		}
		host, err := mailhost.Start(mailhost.Config{Path: filepath.Join(a.cfg.DataDir, mailhostFile), Domain: m.cfg.Domain,
			IMAPAddr: m.cfg.Builtin.IMAP, SMTPAddr: m.cfg.Builtin.SMTP, Logger: a.lg, Password: m.password})
		if err != nil {
			return nil, fmt.Errorf("built-in mail host: %w", err)
		}
		m.host = host
		if err := host.AddUser(m.cfg.Local, pw); err != nil {
			host.Close()
			return nil, err
		}
		imapCfg.Addr, imapCfg.TLS, imapCfg.Username, imapCfg.Password = host.IMAPAddr(), "none", m.cfg.Local, pw
		imapCfg.CheckpointKey = "builtin:" + m.cfg.Local
		// pbem sends as its own mailbox, logged in like any player.
		smtpCfg.Addr, smtpCfg.TLS, smtpCfg.Username, smtpCfg.Password = host.SMTPAddr(), "none", m.cfg.Local, pw
		smtpCfg.Fill = m.fill
		a.lg.Warn("LOCAL MAIL HOST: no mail host is configured, so pbem runs its own on loopback; it delivers only to mailboxes at its domain, each with its own password ('pbem mailboxes' lists them)",
			"imap", host.IMAPAddr(), "smtp", host.SMTPAddr(), "domain", m.cfg.Domain, "game_mailbox", m.cfg.Local+"@"+m.cfg.Domain,
			"mail", filepath.Join(a.cfg.DataDir, mailhostFile))
	} else if smtpCfg.Addr == "" {
		return nil, fmt.Errorf("mail.imap.addr is set but mail.smtp.addr is not: pbem needs both, or neither for the built-in host")
	}
	if err := smtpCfg.Validate(); err != nil {
		return nil, err
	}
	m.intake = intake.New(imapCfg, countingIntakeLog{b, m0})
	m.sender = outbox.New(smtpCfg, b)
	return m, nil
}

// password is the built-in host's lookup of a user's password: only
// users pbem made a password for have a mailbox.
func (m *mailSystem) password(user string) (string, bool) {
	pw, err := m.log.ServerSecret("mailbox:"+user, func() ([]byte, error) { return nil, errNoMailbox })
	if err != nil {
		if !errors.Is(err, errNoMailbox) {
			m.lg.Warn("reading a mailbox password", "user", user, "err", err)
		}
		return "", false
	}
	return string(pw), true
}

var errNoMailbox = errors.New("no such mailbox")

// fill puts the mailbox password into a welcome mail as it is sent.
func (m *mailSystem) fill(_ string, q *events.MailQueued) (string, error) {
	return m.comp.FillPassword(q, func(user string) (string, error) { return mailboxPassword(m.log, user) })
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
		m.sender.Run(ctx) // never stops before ctx is done
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
		m.ensure(e.Game)
		m.sender.Enqueue(e.Game, e.Seq, e.Time(), p, 0)
	case *events.MailSent:
		m.sender.Cancel(e.Game, p.MailID)
	case *events.MailFailed:
		if p.Permanent {
			m.sender.Cancel(e.Game, p.MailID)
		}
	case *events.GameCreated:
		m.mu.Lock()
		m.ensured[e.Game] = true
		m.mu.Unlock()
		m.addLocalUsers(p)
	}
}

func (m *mailSystem) addLocalUsers(gc *events.GameCreated) {
	if m.host == nil {
		return
	}
	for _, p := range append(append([]events.Player(nil), gc.Players...), gc.Referees...) {
		for _, addr := range p.Addresses {
			user, ok := m.comp.MailhostUser(addr)
			if !ok {
				continue
			}
			pw, err := mailboxPassword(m.log, user)
			if err == nil {
				err = m.host.AddUser(user, pw)
			}
			if err != nil {
				m.lg.Warn("built-in mailbox", "user", user, "err", err)
			}
		}
	}
}

// ensure makes sure game's players and referees at the built-in host have
// their mailboxes (with passwords) before mail to them goes out: a game
// made by an older pbem, or out of the server's sight, may not have them.
// It reads the game's creation once per run.
func (m *mailSystem) ensure(game string) {
	if m.host == nil {
		return
	}
	m.mu.Lock()
	done := m.ensured[game]
	m.ensured[game] = true
	m.mu.Unlock()
	if done {
		return
	}
	gc, err := gameCreated(m.log, game)
	if err != nil {
		m.lg.Warn("built-in mailboxes of a game", "game", game, "err", err)
		return
	}
	m.addLocalUsers(gc)
}

// errStop ends a read early.
var errStop = errors.New("stop")

// gameCreated reads game's first event, its game.created.
func gameCreated(log logStore, game string) (*events.GameCreated, error) {
	var gc *events.GameCreated
	err := log.Read(game, 1, func(e *events.Envelope) error {
		p, err := events.Decode(e)
		if err != nil {
			return err
		}
		if gc, _ = p.(*events.GameCreated); gc == nil {
			return fmt.Errorf("its first event is %s, not game.created", e.Type)
		}
		return errStop
	})
	if err != nil && !errors.Is(err, errStop) || gc == nil && err == nil {
		return nil, fmt.Errorf("game %s: %v", game, err)
	}
	return gc, nil
}

// recover queues the mails a previous run left unsent, game by game as
// each loads, and returns how many it queued.
func (m *mailSystem) recover(log logStore, runner *play.Runner, games []string) int {
	total := 0
	for _, id := range games {
		var pending []play.QueuedMail
		if err := runner.Query(context.Background(), id, func(g *play.Game) { pending = append(pending, g.Outbox...) }); err != nil {
			if errors.Is(err, play.ErrNotRunning) {
				return total
			}
			// A game that cannot be loaded keeps its unsent mails until it
			// can; the others' go out.
			m.lg.Error("cannot recover a game's unsent mails", "game", id, "err", err)
			continue
		}
		if len(pending) == 0 {
			continue
		}
		m.ensure(id)
		for _, q := range pending {
			var mq *events.MailQueued
			var at time.Time
			err := log.Read(id, q.Seq, func(e *events.Envelope) error {
				p, err := events.Decode(e)
				if err != nil {
					return err
				}
				mq, _ = p.(*events.MailQueued)
				at = e.Time()
				return errStop
			})
			if err != nil && !errors.Is(err, errStop) || mq == nil {
				m.lg.Error("cannot read an unsent mail", "game", id, "seq", q.Seq, "err", err)
				continue
			}
			m.sender.Enqueue(id, q.Seq, at, mq, q.Attempts)
			total++
		}
		m.lg.Info("resending mails left unsent", "game", id, "mails", len(pending))
	}
	return total
}

// wait waits for the intake and the sender to stop (after ctx is done),
// then stops the built-in host.
func (m *mailSystem) wait() {
	m.wg.Wait()
	if m.host != nil {
		m.host.Close()
	}
}
