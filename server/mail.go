package server

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

	"pbem/engine"
	"pbem/engine/draw"
	"pbem/engine/play"
	"pbem/events"
	"pbem/mail/compose"
	"pbem/mail/intake"
	"pbem/mail/mailhost"
	"pbem/mail/oauth"
	"pbem/mail/outbox"
	"pbem/store"
	"pbem/templates"
)

// ReplySecretName names the server secret reply tokens are keyed with.
const ReplySecretName = "reply-token"

// NewSecret makes a server secret: 32 random bytes.
func NewSecret() ([]byte, error) {
	b := make([]byte, 32)
	_, err := rand.Read(b)
	return b, err
}

// MailboxSecret names the store's secret that is user's password on the
// built-in mail host (after it, the user): having one is having a mailbox
// there.
const MailboxSecret = "mailbox:"

// builtinOutboxWorkers is how many mails the outbox delivers to the
// built-in mail host at once.
const builtinOutboxWorkers = 16

// EventLog is what the mail wiring reads of the event log: events, the
// games, and the server's secrets.
type EventLog interface {
	play.Source
	Games() ([]store.GameInfo, error)
	ServerSecret(name string, gen func() ([]byte, error)) ([]byte, error)
	OwnedServerSecret(name, owner string, gen func() ([]byte, error)) ([]byte, string, error)
}

// MailboxPassword returns user's password on the built-in mail host:
// random, made on first use and kept with pbem.db's secrets (never in the
// log, never logged).
func MailboxPassword(log EventLog, user string) (string, error) {
	pw, err := log.ServerSecret(MailboxSecret+strings.ToLower(user), newMailboxPassword)
	if err != nil {
		return "", fmt.Errorf("password of mailbox %s: %w", user, err)
	}
	return string(pw), nil
}

func newMailboxPassword() ([]byte, error) {
	b := make([]byte, 15) // 120 bits
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	return []byte(strings.ToLower(base32.StdEncoding.EncodeToString(b))), nil
}

// Mailbox is a mailbox of the built-in host that a referee's decision
// gave a seat (or made an observer).
type Mailbox struct {
	User, Address string
	// Password is set when the decision made the mailbox; "" when it
	// existed before (its holder has its password, and no one else is
	// given it).
	Password string
}

// GrantMailboxes makes the built-in host's mailboxes that the decision at
// seq decision of game gives seats to, those that have none yet, each with
// a random password recorded as made for that decision (in one store
// transaction: see store.OwnedServerSecret), and returns them all, with
// the password of each it made. Asked again (the outbox filling the
// referee's answer after a restart, the command line), it answers the
// same. Only a referee's or the operator's command makes mailboxes (the
// players' requests cannot add a seat there: see play), and the host
// finds a new mailbox by its password on first use, so a running server
// serves it at once.
func GrantMailboxes(log EventLog, comp *compose.Composer, game string, decision uint64) ([]Mailbox, error) {
	e, err := eventAt(log, game, decision)
	if err != nil || !events.IsAccepted(e.Type) {
		return nil, err
	}
	p, err := events.Decode(e)
	if err != nil {
		return nil, err
	}
	d, ok := p.(*events.OrderAccepted)
	if !ok {
		return nil, nil
	}
	users := comp.MailboxesAdded(d.Facts)
	if len(users) == 0 {
		return nil, nil
	}
	in, err := eventAt(log, game, d.Input)
	if err != nil || in.Type != events.TypeRefereeCommand {
		// The players' own requests may give a seat only to an address
		// that had one at the game's creation, whose mailbox exists.
		return nil, err
	}
	owner := fmt.Sprintf("%s/%d", game, decision)
	out := make([]Mailbox, len(users))
	for i, u := range users {
		pw, madeFor, err := log.OwnedServerSecret(MailboxSecret+u, owner, newMailboxPassword)
		if err != nil {
			return nil, fmt.Errorf("mailbox %s: %w", u, err)
		}
		out[i] = Mailbox{User: u, Address: u + "@" + comp.Domain()}
		if madeFor == owner {
			out[i].Password = string(pw)
		}
	}
	return out, nil
}

// eventAt reads game's event at seq (an error if there is none).
func eventAt(log play.Source, game string, seq uint64) (*events.Envelope, error) {
	var found *events.Envelope
	err := log.Read(game, seq, func(e *events.Envelope) error {
		c := e.Clone()
		found = &c
		return errStop
	})
	if err != nil && !errors.Is(err, errStop) {
		return nil, err
	}
	if found == nil || found.Seq != seq {
		return nil, fmt.Errorf("game %s has no event at seq %d", game, seq)
	}
	return found, nil
}

// decisionBefore returns the seq of the decision whose mails include the
// mail.queued at seq mail of game: a decision and its mails are appended
// together, so it is the last event before that is not a mail.queued.
func decisionBefore(log play.Source, game string, mail uint64) (uint64, error) {
	for s := mail - 1; s >= 1; s-- {
		e, err := eventAt(log, game, s)
		if err != nil {
			return 0, err
		}
		// A decision's mails, and the reports it held for readers' next
		// mails (mail.held), follow it.
		if e.Type != events.TypeMailQueued && e.Type != events.TypeMailHeld {
			return s, nil
		}
	}
	return 0, fmt.Errorf("game %s: no decision before mail %d", game, mail)
}

// BuiltinHost reports whether pbem runs its own mail host (no IMAP server
// is configured).
func (c MailConfig) BuiltinHost() bool { return c.IMAP.Addr == "" }

// NewComposer builds the mail composer from the configuration and the
// store's reply-token secret (made on first use), and returns it with
// that secret. With the pages served (wc), its mails carry page links.
func NewComposer(mc MailConfig, wc WebConfig, log EventLog, reg *engine.Registry) (*compose.Composer, []byte, error) {
	c, secret, _, err := newComposer(mc, wc.pageBase(), log, reg)
	return c, secret, err
}

// newComposer is NewComposer, which also returns where the composer
// tells players the built-in mail host listens (nil: no built-in host),
// for the server to set to the ports the host really listens on once it
// has started (the configuration may say ":0").
func newComposer(mc MailConfig, pageBase string, log EventLog, reg *engine.Registry) (*compose.Composer, []byte, *compose.Mailhost, error) {
	secret, err := log.ServerSecret(ReplySecretName, NewSecret)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("reply-token secret: %w", err)
	}
	t, err := templates.Load(mc.Templates)
	if err != nil {
		return nil, nil, nil, err
	}
	cc := compose.Config{Domain: mc.Domain, Local: mc.Local, Secret: secret, PageBase: pageBase,
		Log: func(game string, v engine.Viewer, upTo uint64, n int) ([]string, error) {
			return play.RecentActions(log, reg, game, v, upTo, n)
		},
		Desk: func(addrs []string, now int64) ([]templates.DeskGame, error) {
			ds, err := Desks(log, reg, addrs, now)
			if err != nil {
				return nil, err
			}
			out := make([]templates.DeskGame, len(ds))
			for i, d := range ds {
				out[i] = templates.DeskGame{Game: d.Game, What: fmt.Sprintf("%s %s, seq %d", d.Ruleset, d.Scenario, d.Seq), State: d.State, Details: d.Lines}
			}
			return out, nil
		}}
	if mc.BuiltinHost() {
		cc.Mailhost = &compose.Mailhost{IMAP: mc.Builtin.IMAP, SMTP: mc.Builtin.SMTP}
	}
	return compose.New(cc, t), secret, cc.Mailhost, nil
}

// BuiltinDomain is the setting that tells a game created now that its
// addresses at the mail domain are the built-in mail host's (none when a
// mail host is configured).
func (c MailConfig) BuiltinDomain() []events.Setting {
	if c.IMAP.Addr != "" {
		return nil
	}
	return []events.Setting{{Key: play.SettingBuiltinDomain, Value: c.Domain}}
}

// mailSystem is mail in and out for a running server: the intake reading
// the game mailbox, the outbox sending queued mails, and, when no mail host
// is configured, the built-in one.
type mailSystem struct {
	cfg     MailConfig
	lg      *slog.Logger
	started time.Time
	log     EventLog // for the built-in host's passwords, and to draw boards from
	reg     *engine.Registry
	comp    *compose.Composer
	host    *mailhost.Host
	mu      sync.Mutex
	ensured map[string]bool // games whose built-in mailboxes exist
	intake  *intake.Intake
	sender  *outbox.Sender
	tokens  *oauth.Source // the OAuth logins' access tokens (nil: none)
	// runner and appender make the notices to referees of mails that
	// failed for good (see tellReferees); notes waits for them.
	runner   *play.Runner
	appender appender
	notes    sync.WaitGroup
	wg       sync.WaitGroup
}

// roster gives the intake a game's seats and settings as they are now,
// from the runner's folded game (a referee may have replaced a player, or
// changed the game's sender-auth setting).
func roster(r *play.Runner) func(game string) (intake.Seats, error) {
	return func(game string) (intake.Seats, error) {
		// The seats as the game's actor last published them: a busy
		// actor (deciding, appending) does not hold up the intake.
		if v, ok := r.View(game); ok {
			if s, ok := v.(intake.Seats); ok {
				return s, nil
			}
		}
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

// seatsView is what the runner publishes of each game for roster: its
// seats, once it is created.
func seatsView(g *play.Game) any {
	if g.Created == nil {
		return nil
	}
	return intake.SeatsOf(g)
}

// gameIDs lists the games of st, for the intake to find who wrote a mail
// with no key and no game in its subject.
func gameIDs(st *store.Store) func() ([]string, error) {
	return func() ([]string, error) {
		gs, err := st.Games()
		if err != nil {
			return nil, err
		}
		ids := make([]string, len(gs))
		for i, g := range gs {
			ids[i] = g.Game
		}
		return ids, nil
	}
}

// intakeLog is what the intake appends to.
type intakeLog = intake.Log

// notifier renders the intake's notices with the composer, for the game
// as the runner holds it.
type notifier struct {
	r    *play.Runner
	comp *compose.Composer
}

func (n notifier) Notice(game string, no intake.Notice, seq uint64) (*events.MailQueued, error) {
	var q *events.MailQueued
	var err error
	// As the roster: a game busy for long must not hold up the intake.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	qerr := n.r.Query(ctx, game, func(g *play.Game) {
		if g == nil || g.Created == nil {
			err = fmt.Errorf("game %s is not loaded", game)
			return
		}
		q, err = n.comp.Notice(g, compose.Notice{Player: no.Player, To: no.To, Title: no.Title, What: no.What, Do: no.Do,
			Quote: no.Quote, Code: no.Code, InReplyTo: no.InReplyTo, References: no.References}, seq)
	})
	if qerr != nil {
		return nil, qerr
	}
	return q, err
}

// startMail makes the mail system: the intake and the outbox over log
// (st for the built-in host's passwords, and to draw boards from), and
// the built-in host if no mail host is configured.
func (s *Server) startMail(ctx context.Context, st *store.Store, log *Log, runner *play.Runner, m0 *metrics) (*mailSystem, error) {
	m := &mailSystem{cfg: s.cfg.Mail, lg: s.lg.With("component", "mail"), log: st, reg: s.reg, comp: s.comp, started: time.Now(),
		ensured: map[string]bool{}, runner: runner, appender: log}
	senders, err := m.cfg.senders()
	if err != nil {
		return nil, err
	}
	imapCfg := intake.Config{Addr: m.cfg.IMAP.Addr, TLS: m.cfg.IMAP.TLS, Username: m.cfg.IMAP.Username, Password: m.cfg.IMAP.Password, Auth: m.cfg.IMAP.Auth,
		Mailbox: m.cfg.IMAP.Mailbox, Local: m.cfg.Local, Domain: m.cfg.Domain, Secret: s.secret, Logger: s.lg,
		RateBurst: m.cfg.RatePerHour, RateWindow: time.Hour, Roster: roster(runner), Games: gameIDs(st),
		Senders: senders, Notifier: notifier{runner, s.comp}, Now: s.cfg.Clock.Now}
	if m.cfg.IMAP.Poll != "" {
		d, err := time.ParseDuration(m.cfg.IMAP.Poll)
		if err != nil {
			return nil, fmt.Errorf("mail.imap.poll %q: %w", m.cfg.IMAP.Poll, err)
		}
		imapCfg.PollEvery = d
	}
	if m.cfg.UsesOAuth() && !m.cfg.BuiltinHost() {
		oc, err := m.cfg.OAuthConfig(s.cfg.DataDir)
		if err != nil {
			return nil, err
		}
		m.tokens = oauth.NewSource(oc)
		imapCfg.Tokens = m.tokens
	}
	smtpCfg := outbox.Config{Addr: m.cfg.SMTP.Addr, TLS: m.cfg.SMTP.TLS, Username: m.cfg.SMTP.Username, Password: m.cfg.SMTP.Password,
		Auth: m.cfg.SMTP.Auth,
		From: fmt.Sprintf("%q <%s@%s>", m.cfg.FromName, m.cfg.Local, m.cfg.Domain), ListDomain: m.cfg.Domain, Logger: s.lg,
		Draw: m.draw}
	if m.cfg.BuiltinHost() {
		pw, err := MailboxPassword(m.log, m.cfg.Local)
		if err != nil {
			return nil, err
		}
		host, err := mailhost.Start(mailhost.Config{Path: filepath.Join(s.cfg.DataDir, MailhostFile), Domain: m.cfg.Domain,
			IMAPAddr: m.cfg.Builtin.IMAP, SMTPAddr: m.cfg.Builtin.SMTP, Logger: s.lg, Password: m.password})
		if err != nil {
			return nil, fmt.Errorf("built-in mail host: %w", err)
		}
		m.host = host
		// The outbox's default of four connections is for a provider's
		// host; the built-in one is on loopback and shares an fsync among
		// the mails that arrive together, so more at once commit in fewer
		// (pbem bench throughput: 880-890 orders/s beside 740-805 with four).
		smtpCfg.Workers = builtinOutboxWorkers
		if s.mailhostAt != nil {
			// The mails composed from now on give the ports the host
			// listens on, not the configuration's ":0". Nothing has been
			// composed yet: the runner gets its first input later.
			s.mailhostAt.IMAP, s.mailhostAt.SMTP = host.IMAPAddr(), host.SMTPAddr()
		}
		if err := host.AddUser(m.cfg.Local, pw); err != nil {
			host.Close()
			return nil, err
		}
		imapCfg.Addr, imapCfg.TLS, imapCfg.Username, imapCfg.Password = host.IMAPAddr(), "none", m.cfg.Local, pw
		imapCfg.CheckpointKey = "builtin:" + m.cfg.Local
		// The host names the user who logged in to send each mail in its
		// own Authentication-Results (and strips the senders'): that is
		// the result the intake trusts, whatever authserv_id says.
		imapCfg.Senders.ServID = host.AuthServID()
		// pbem sends as its own mailbox, logged in like any player.
		smtpCfg.Addr, smtpCfg.TLS, smtpCfg.Username, smtpCfg.Password = host.SMTPAddr(), "none", m.cfg.Local, pw
		imapCfg.Auth, smtpCfg.Auth = "login", "plain"
		smtpCfg.Fill = m.fill
		s.lg.Warn("LOCAL MAIL HOST: no mail host is configured, so pbem runs its own on loopback; it delivers only to mailboxes at its domain, each with its own password ('pbem mailboxes' lists them)",
			"imap", host.IMAPAddr(), "smtp", host.SMTPAddr(), "domain", m.cfg.Domain, "game_mailbox", m.cfg.Local+"@"+m.cfg.Domain,
			"mail", filepath.Join(s.cfg.DataDir, MailhostFile))
	} else if smtpCfg.Addr == "" {
		return nil, fmt.Errorf("mail.imap.addr is set but mail.smtp.addr is not: pbem needs both, or neither for the built-in host")
	}
	if m.tokens != nil {
		smtpCfg.Tokens = m.tokens
	}
	if err := smtpCfg.Validate(); err != nil {
		return nil, err
	}
	m.intake = intake.New(imapCfg, countingIntakeLog{log, m0})
	m.sender = outbox.New(smtpCfg, log)
	return m, nil
}

// draw draws the board a mail names (compose.IsDrawn) as the outbox
// sends it: from the state the composer kept when it composed the mail,
// else (after a restart, or a mail composed long ago or on another node)
// from the game loaded at the decision the mail follows. Both are the
// same state, so a mail sent again is the same bytes.
func (m *mailSystem) draw(game string, seq uint64, q *events.MailQueued, a events.Attachment) (*draw.Scene, error) {
	if sc, ok := m.comp.Drawn(q, a); ok {
		if sc == nil {
			return nil, draw.ErrNothing
		}
		return sc, nil
	}
	d, err := decisionBefore(m.log, game, seq)
	if err != nil {
		return nil, err
	}
	g, err := play.Load(m.log, m.reg, game, d)
	if err != nil {
		return nil, err
	}
	return compose.DrawBoard(g, a)
}

// password is the built-in host's lookup of a user's password: only
// users pbem made a password for have a mailbox.
func (m *mailSystem) password(user string) (string, bool) {
	pw, _, err := m.log.OwnedServerSecret(MailboxSecret+user, "", nil)
	if err != nil {
		m.lg.Warn("reading a mailbox password", "user", user, "err", err)
	}
	return string(pw), err == nil && pw != nil
}

// fill gives the mail at seq of game the mailbox passwords it shows as it
// is sent: a welcome its reader's, the answer to a referee's mail the
// passwords of the mailboxes its command made. It first makes those
// mailboxes if the decision the mail follows gave seats at the built-in
// host that have none yet (a mail to a seat added later is its first use).
func (m *mailSystem) fill(game string, seq uint64, q *events.MailQueued) (string, error) {
	var pws map[string]string // user: the password of the mailbox the decision made, else ""
	made := func() (map[string]string, error) {
		if pws != nil {
			return pws, nil
		}
		// The decision the mail follows, by the mail's place in the log
		// (compose.NewMailboxMark).
		d, err := decisionBefore(m.log, game, seq)
		if err != nil {
			return nil, err
		}
		boxes, err := GrantMailboxes(m.log, m.comp, game, d)
		if err != nil {
			return nil, err
		}
		pws = map[string]string{}
		for _, b := range boxes {
			pws[b.User] = b.Password
		}
		return pws, nil
	}
	for _, a := range q.To {
		if u, ok := m.comp.MailhostUser(a); ok && pws == nil {
			if _, ok := m.password(u); !ok {
				if _, err := made(); err != nil {
					return "", fmt.Errorf("the mailbox of %s: %w", a, err)
				}
			}
		}
	}
	return m.comp.FillPassword(q, compose.Passwords{
		Own: func(user string) (string, error) { return MailboxPassword(m.log, user) },
		Made: func(user string) (string, error) {
			pws, err := made()
			return pws[user], err
		}})
}

// start runs the intake and the sender until ctx is done. Run calls it
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
	defer engine.RecoverLogged(m.lg, "handling a mail event panicked; it is skipped", "game", e.Game, "seq", e.Seq)
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
			game, seq := e.Game, e.Seq
			m.notes.Add(1)
			go func() {
				defer m.notes.Done()
				defer engine.RecoverLogged(m.lg, "telling the referees of an undelivered mail panicked", "game", game, "seq", seq)
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				if err := m.tellReferees(ctx, game, seq, p); err != nil {
					m.lg.Warn("cannot tell the referees of a mail that failed for good", "game", game, "seq", seq, "err", err)
				}
			}()
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
			pw, err := MailboxPassword(m.log, user)
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
func gameCreated(log play.Source, game string) (*events.GameCreated, error) {
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
func (m *mailSystem) recover(log play.Source, runner *play.Runner, games []string) int {
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
	m.notes.Wait()
	if m.host != nil {
		m.host.Close()
	}
}

// Desks are the games of the log as a referee's desk shows them at the
// time now, only those refereed by one of addrs when addrs are given.
func Desks(log EventLog, reg *engine.Registry, addrs []string, now int64) ([]play.Desk, error) {
	gs, err := log.Games()
	if err != nil {
		return nil, err
	}
	var out []play.Desk
	for _, gi := range gs {
		g, err := play.Load(log, reg, gi.Game, 0)
		if err != nil {
			if addrs == nil {
				out = append(out, play.Desk{Game: gi.Game, Seq: gi.Head.Seq, State: "cannot be loaded: " + err.Error()})
			}
			continue
		}
		if addrs != nil && !g.RefereedBy(addrs) {
			continue
		}
		d := g.Desk(now)
		if us, err := UndeliveredMails(log, gi.Game); err != nil {
			d.Lines = append(d.Lines, "its mails cannot be read: "+err.Error())
		} else {
			d.Lines = append(d.Lines, undeliveredLines(us)...)
		}
		out = append(out, d)
	}
	return out, nil
}
