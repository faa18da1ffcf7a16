// Package intake reads players' order mails from the game mailbox over
// IMAP and turns each into an event: an order (or a referee's command) in
// its game's log, or a record in the quarantine, with the mailbox's
// checkpoint advanced in the same transaction. Only then is the message
// marked \Seen, so a crash at any point loses nothing and, with the
// Message-ID as the idempotency key, duplicates nothing. On a node of a
// cluster (Config.Route), each mail addressed to a game waits in that
// game's queue until its owner has taken it, so that a dead or paused
// owner holds up only its own games' mail, and the checkpoint stays
// before the oldest mail still waiting (queues.go).
//
// Who is writing is checked three times: the mail must be addressed to
// the player's reply address (a token bound to game and player) or carry
// the token on a Key line with the game in the subject tag; it must come
// from one of the player's registered addresses; and, since a From line is
// easy to forge and a reply key leaks with any forwarded mail, its sender
// must be authenticated (a trusted Authentication-Results, or a DKIM
// signature aligned with From) or at least its envelope sender and Sender
// must agree with From. A mail that fails the last check is held, and the
// player confirms it from the registered address with a one-time code
// (the game's sender-auth mode: strict, confirm or lenient; see auth.go).
//
// Automatic mail (auto-replies, bounces, lists, null senders) is never
// turned into an order and never answered; unknown senders get no reply
// at all and are logged and quarantined, with bounded evidence. A
// registered player's mail is never dropped without a reply: a mail too
// large, one whose Key line is only quoted, one reusing a Message-ID, a
// copy of an accepted mail sent again (a replay, recognised by its
// content whatever its Message-ID, also after a rollback), one over the
// rate limit (counted per authenticated player, and apart for mail that
// is not authenticated: forged mail counts against its own envelope
// sender, so it cannot lock a player out) each leave a record in the
// game's log and a notice to the registered address.
package intake

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"

	"pbem/events"
	"pbem/internal/logx"
	"pbem/mail/oauth"
	"pbem/mail/parse"
	"pbem/mail/token"
	"pbem/store"
)

// Config says which mailbox to read and how.
type Config struct {
	Addr string // host:port of the IMAP server
	TLS  string // "none", "starttls" or "tls"
	// TLSConfig, if set, configures TLS (a private CA's roots, say).
	TLSConfig *tls.Config
	Username  string
	Password  string
	// Auth is how to log in: "login" (the IMAP LOGIN command, the default),
	// "plain" (AUTHENTICATE PLAIN, RFC 4616), or by OAuth 2.0 with a
	// bearer token from Tokens: "xoauth2" or "oauthbearer" (RFC 7628).
	Auth string
	// Tokens gives the access tokens of the OAuth mechanisms.
	Tokens  TokenSource
	Mailbox string // default INBOX
	// CheckpointKey names the mailbox's checkpoint in the store (default:
	// Mailbox). A server whose mail does not outlive it (the built-in
	// host) gets a key per run.
	CheckpointKey string
	// Local and Domain form the game mailbox address local@domain whose
	// plus-addresses carry reply tokens.
	Local, Domain string
	Secret        []byte // reply-token secret
	// Roster, if set, gives a game's players, referees and settings as
	// they are now (a referee may replace a player's address, or change
	// the game's sender-auth setting); without it, those the game was
	// created with are used.
	Roster func(game string) (Seats, error)
	// Games, if set, lists the games here: a mail with no key and no game
	// in its subject from an address registered in one of them is told
	// how to reply (without it, only a mail naming its game is).
	Games func() ([]string, error)
	// Senders says how senders are authenticated.
	Senders AuthConfig
	// Notifier renders the notices to players (nil: none are mailed; the
	// refusals are still logged).
	Notifier Notifier
	// PollEvery re-checks the mailbox even while IDLE, since a server may
	// miss a notification (default 30s).
	PollEvery time.Duration
	// FetchBatch bounds how many messages one FETCH asks for (default 50).
	FetchBatch int
	Limits     parse.Limits
	// RateBurst mails per RateWindow are taken per authenticated player,
	// per player for unauthenticated mail whose envelope agrees with From,
	// and per envelope sender for mail whose envelope does not; more are
	// refused (default 30 per hour). NoticeBurst bounds the notices mailed
	// to one player per RateWindow (default 10).
	RateBurst   int
	RateWindow  time.Duration
	NoticeBurst int
	// RateKeys bounds the senders the rate limit remembers (default 10000).
	RateKeys int
	Logger   *slog.Logger
	// Now is the intake clock (the time recorded on each event).
	Now func() time.Time
	// Route, if set, is asked first about every mail addressed to a game
	// (by its reply address or subject tag, not yet verified): a node of
	// a cluster hands the mail to the game's owner, which judges and
	// commits it, and says handled once the owner has acknowledged it
	// durably; the intake then advances its checkpoint. Not handled: the
	// mail is judged here, as without Route.
	//
	// With Route set, the intake keeps a queue per game: a mail Route
	// cannot place now (an error: the owner is dead, paused, or the game
	// is being taken over) waits in its game's queue and is offered again
	// every RetryEvery at most, while other games' mails go on; the
	// mailbox's checkpoint stays before the oldest mail not yet taken.
	Route func(game string, raw []byte) (handled bool, err error)
	// Known, if set, says whether a game exists elsewhere (a cluster's
	// owner records): a mail for such a game that this node does not have
	// is not quarantined as for an unknown game; Take returns a
	// *NotReadyError and the mail waits.
	Known func(game string) bool
	// RetryEvery bounds the wait between two offers of a mail that could
	// not be placed (with Route; default 2s; the first retries come
	// sooner).
	RetryEvery time.Duration
}

// TokenSource gives OAuth 2.0 access tokens (package oauth's Source):
// Token a valid one, refreshed as needed; Invalidate forgets the one the
// server refused, so that the next session refreshes it.
type TokenSource interface {
	Token(ctx context.Context) (string, error)
	Invalidate()
}

// NotReadyError is Take's answer for a mail addressed to a game the
// cluster knows (Config.Known) that this node does not have yet: nothing
// was committed, and the mail must be offered again later.
type NotReadyError struct{ Game string }

func (e *NotReadyError) Error() string {
	return fmt.Sprintf("game %s is known to the cluster but not loaded on this node yet", e.Game)
}

// Seats are a game's seats and settings as they are now.
type Seats struct {
	Players, Referees []events.Player
	// Observers are the addresses that follow the game: a mail from one
	// is taken only to be answered.
	Observers []string
	// Epochs are the key epochs of the seats that changed hands (a seat
	// not listed is at 0): only the key of the current epoch is valid.
	Epochs map[string]uint64
	// Settings are the game's settings (sender-auth among them).
	Settings []events.Setting
}

// Log is what intake needs of the event store. DoAll commits several
// appends in one transaction, each with its own outcome: a batch of mails
// is one commit (see takeBatch).
type Log interface {
	Do(store.Request) (store.Result, error)
	DoAll([]store.Request) ([]store.Result, []error)
	Lookup(game, key string) (uint64, bool, error)
	Head(game string) (store.Head, error)
	Read(game string, from uint64, fn func(*events.Envelope) error) error
	Checkpoint(mailbox string) (store.Checkpoint, error)
	Quarantine(q store.Quarantined, cp store.Checkpoint) (string, error)
	PutCheckpoint(mailbox string, cp store.Checkpoint) error
}

// idleEndTimeout bounds the wait for the server to end IDLE after DONE.
const idleEndTimeout = 15 * time.Second

// Intake reads one mailbox.
type Intake struct {
	cfg Config
	log Log
	lg  *slog.Logger

	limit   *limiter // mails per sender (see rateKey)
	notices *limiter // notices per sender (see noticeKeyFor)
	keys    *keyCache

	mu     sync.Mutex
	games  map[string]*events.GameCreated
	seeded map[string]bool // games whose recent mails the limiters counted
	// Processed counts the mails committed (orders and quarantined).
	processed int
	sessions  int
	// queues are the games' mail queues, with Route set (see queues.go).
	queues *queues
	wake   chan struct{}
	// What Status reports.
	connected    bool
	idling       bool      // in IDLE, with every mail committed
	caughtUp     time.Time // the last time every mail in the mailbox was committed
	failingSince time.Time // the first failed session since the last good one
	lastErr      string
	// noHostField counts the mails without the receiving host's
	// Authentication-Results on top (with Senders.ServID set), and
	// noHostFieldLast is when the last one came.
	noHostField     int
	noHostFieldLast time.Time
}

// Status is what an intake reports on itself, for metrics and health.
type Status struct {
	Connected bool
	// CaughtUp is the last time the intake had committed every mail the
	// mailbox held: now, while it idles caught up (the server tells it of
	// new mail); else when it last looked (at least every PollEvery).
	CaughtUp time.Time
	// FailingSince is when sessions began failing (zero while one works).
	FailingSince time.Time
	LastError    string
	Processed    int
	// NoHostField counts the mails that arrived without the receiving
	// host's Authentication-Results on top while mail.authserv_id is set
	// (the host seems not to add its field); NoHostFieldLast is when the
	// last one came.
	NoHostField     int
	NoHostFieldLast time.Time
}

// Status reports the intake's state now.
func (in *Intake) Status() Status {
	in.mu.Lock()
	defer in.mu.Unlock()
	st := Status{Connected: in.connected, CaughtUp: in.caughtUp, FailingSince: in.failingSince, LastError: in.lastErr, Processed: in.processed,
		NoHostField: in.noHostField, NoHostFieldLast: in.noHostFieldLast}
	if in.connected && in.idling {
		st.CaughtUp = time.Now()
	}
	return st
}

func (in *Intake) setIdling(on bool) {
	in.mu.Lock()
	in.idling = on
	in.mu.Unlock()
}

// New returns an intake over log.
func New(cfg Config, log Log) *Intake {
	if cfg.Mailbox == "" {
		cfg.Mailbox = "INBOX"
	}
	if cfg.CheckpointKey == "" {
		cfg.CheckpointKey = cfg.Mailbox
	}
	if cfg.PollEvery <= 0 {
		cfg.PollEvery = 30 * time.Second
	}
	if cfg.FetchBatch <= 0 {
		cfg.FetchBatch = 50
	}
	if cfg.RateBurst <= 0 {
		cfg.RateBurst = 30
	}
	if cfg.RateWindow <= 0 {
		cfg.RateWindow = time.Hour
	}
	if cfg.NoticeBurst <= 0 {
		cfg.NoticeBurst = 10
	}
	if cfg.RateKeys <= 0 {
		cfg.RateKeys = 10000
	}
	if cfg.Senders.Mode == "" {
		cfg.Senders.Mode = ModeConfirm
	}
	if cfg.Senders.ConfirmWithin <= 0 {
		cfg.Senders.ConfirmWithin = 48 * time.Hour
	}
	if cfg.Senders.MaxHeld <= 0 {
		cfg.Senders.MaxHeld = 3
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.RetryEvery <= 0 {
		cfg.RetryEvery = 2 * time.Second
	}
	return &Intake{cfg: cfg, log: log, lg: cfg.Logger.With("component", "intake", "mailbox", cfg.Mailbox),
		limit:   newLimiter(cfg.RateBurst, cfg.RateWindow, cfg.RateKeys),
		notices: newLimiter(cfg.NoticeBurst, cfg.RateWindow, cfg.RateKeys),
		keys:    newKeyCache(keyLookup(cfg.Senders.LookupTXT), cfg.Now),
		games:   map[string]*events.GameCreated{}, seeded: map[string]bool{}, wake: make(chan struct{}, 1)}
}

// Processed returns how many mails have been committed so far.
func (in *Intake) Processed() int { in.mu.Lock(); defer in.mu.Unlock(); return in.processed }

// Sessions returns how many times the intake has logged in and selected
// the mailbox.
func (in *Intake) Sessions() int { in.mu.Lock(); defer in.mu.Unlock(); return in.sessions }

// Wake makes the intake check the mailbox now (e.g. after local delivery).
func (in *Intake) Wake() {
	select {
	case in.wake <- struct{}{}:
	default:
	}
}

// Run reads the mailbox until ctx is done, reconnecting with backoff when
// the connection drops.
func (in *Intake) Run(ctx context.Context) error {
	backoff := 250 * time.Millisecond
	for ctx.Err() == nil {
		start := time.Now()
		err := in.session(ctx)
		if ctx.Err() != nil {
			return nil
		}
		in.mu.Lock()
		in.connected, in.idling = false, false
		if in.failingSince.IsZero() {
			in.failingSince = time.Now()
		}
		if err != nil {
			in.lastErr = err.Error()
		}
		in.mu.Unlock()
		if time.Since(start) > time.Minute {
			backoff = 250 * time.Millisecond
		}
		if oauth.IsTokenError(err) {
			// No token: nothing was dialled, and a retry reads a file
			// (a refused refresh token is not offered again), so the
			// new token 'pbem mail login' stores is picked up soon.
			backoff = min(backoff, 5*time.Second)
		}
		in.lg.Warn("IMAP session ended; reconnecting", "err", err, "in", backoff)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, time.Minute)
	}
	return nil
}

func (in *Intake) dial(opts *imapclient.Options) (*imapclient.Client, error) {
	switch in.cfg.TLS {
	case "", "none":
		return imapclient.DialInsecure(in.cfg.Addr, opts)
	case "starttls":
		return imapclient.DialStartTLS(in.cfg.Addr, opts)
	case "tls":
		return imapclient.DialTLS(in.cfg.Addr, opts)
	}
	return nil, fmt.Errorf("imap tls mode %q: use none, starttls or tls", in.cfg.TLS)
}

// credentialRE finds what a wire line must not show: LOGIN's password,
// AUTHENTICATE's initial response (a password or a bearer token).
var credentialRE = regexp.MustCompile(`(?i)\b(LOGIN|AUTHENTICATE[ \t]+[A-Z0-9_-]+)[ \t]+[^\r\n]*`)

// redactingWriter keeps credentials out of the IMAP wire log. The
// client writes what it sends and what it reads from two goroutines, in
// pieces: whole lines are redacted, one write at a time.
type redactingWriter struct {
	mu  *sync.Mutex
	buf *[]byte
	w   io.Writer
}

func newRedactingWriter(w io.Writer) redactingWriter {
	return redactingWriter{mu: &sync.Mutex{}, buf: new([]byte), w: w}
}

func (r redactingWriter) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	*r.buf = append(*r.buf, p...)
	i := bytes.LastIndexByte(*r.buf, '\n')
	if i < 0 {
		return len(p), nil
	}
	lines := credentialRE.ReplaceAll((*r.buf)[:i+1], []byte("$1 [redacted]"))
	*r.buf = append((*r.buf)[:0], (*r.buf)[i+1:]...)
	if _, err := r.w.Write(lines); err != nil {
		return 0, err
	}
	return len(p), nil
}

// session is one connection: log in, select, then fetch what is new each
// time the server says so (IDLE) or the poll timer fires.
func (in *Intake) session(ctx context.Context) error {
	newMail := make(chan struct{}, 1)
	signal := func() {
		select {
		case newMail <- struct{}{}:
		default:
		}
	}
	opts := &imapclient.Options{
		TLSConfig: in.cfg.TLSConfig,
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			Mailbox: func(d *imapclient.UnilateralDataMailbox) {
				if d.NumMessages != nil {
					signal()
				}
			},
		},
	}
	if in.lg.Enabled(ctx, slog.LevelDebug-4) {
		opts.DebugWriter = newRedactingWriter(logx.Writer(in.lg, slog.LevelDebug-4, "imap wire"))
	}
	if oauth.IsMechanism(in.cfg.Auth) && in.cfg.Tokens != nil {
		// A token first: without one, there is no point in connecting.
		if _, err := in.cfg.Tokens.Token(ctx); err != nil {
			return fmt.Errorf("imap auth %s as %s: %w", in.cfg.Auth, in.cfg.Username, err)
		}
	}
	c, err := in.dial(opts)
	if err != nil {
		return fmt.Errorf("dial %s: %w", in.cfg.Addr, err)
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	switch in.cfg.Auth {
	case "", "login":
		if err := c.Login(in.cfg.Username, in.cfg.Password).Wait(); err != nil {
			return fmt.Errorf("login as %s: %w", in.cfg.Username, err)
		}
	case "plain":
		if err := c.Authenticate(sasl.NewPlainClient("", in.cfg.Username, in.cfg.Password)); err != nil {
			return fmt.Errorf("authenticate PLAIN as %s: %w", in.cfg.Username, err)
		}
	case oauth.XOAuth2, oauth.OAuthBearer:
		if err := in.authenticateOAuth(ctx, c); err != nil {
			return err
		}
	default:
		return fmt.Errorf("imap auth %q: use login, plain, xoauth2 or oauthbearer", in.cfg.Auth)
	}
	sel, err := c.Select(in.cfg.Mailbox, nil).Wait()
	if err != nil {
		return fmt.Errorf("select %s: %w", in.cfg.Mailbox, err)
	}
	cp, err := in.log.Checkpoint(in.cfg.CheckpointKey)
	if err != nil {
		return err
	}
	if cp.UIDValidity == sel.UIDValidity && uint32(sel.UIDNext) <= cp.UID && sel.UIDNext != 0 {
		// The server hands out UIDs we already passed under the same
		// UIDVALIDITY: it reset the mailbox without changing it (RFC 3501
		// forbids this, but in-memory servers do it on restart). Rescan.
		in.lg.Warn("the mailbox's UIDs went back under the same UIDVALIDITY: rescanning (committed mails are recognised by their Message-ID)",
			"checkpoint_uid", cp.UID, "uidnext", sel.UIDNext)
		cp = store.Checkpoint{UIDValidity: sel.UIDValidity}
	}
	if cp.UIDValidity != sel.UIDValidity {
		if cp.UIDValidity != 0 {
			in.lg.Warn("UIDVALIDITY changed: rescanning the whole mailbox (already committed mails are recognised by their Message-ID)",
				"was", cp.UIDValidity, "now", sel.UIDValidity)
		}
		cp = store.Checkpoint{UIDValidity: sel.UIDValidity}
	}
	in.lg.Info("reading mailbox", "addr", in.cfg.Addr, "messages", sel.NumMessages, "from_uid", cp.UID+1, "idle", c.Caps().Has(imap.CapIdle))
	in.mu.Lock()
	in.sessions++
	in.connected, in.failingSince = true, time.Time{}
	in.mu.Unlock()
	poll := time.NewTicker(in.cfg.PollEvery)
	defer poll.Stop()
	var q *queues
	if in.cfg.Route != nil {
		q = in.queuesFor(cp)
	}
	for {
		if q != nil {
			if err := in.fetchQueued(ctx, c, q); err != nil {
				return err
			}
		} else if err := in.fetchNew(ctx, c, &cp); err != nil {
			return err
		}
		in.mu.Lock()
		in.caughtUp = time.Now()
		in.mu.Unlock()
		if c.Caps().Has(imap.CapIdle) {
			idle, err := c.Idle()
			if err != nil {
				return fmt.Errorf("idle: %w", err)
			}
			in.setIdling(true)
			select {
			case <-ctx.Done():
			case <-newMail:
			case <-in.wake:
			case <-poll.C:
			case <-c.Closed():
			}
			in.setIdling(false)
			if err := idle.Close(); err != nil {
				return fmt.Errorf("end idle: %w", err)
			}
			// A server that never answers DONE must not stall the intake:
			// give up on the connection and reconnect.
			waited := make(chan error, 1)
			go func() { waited <- idle.Wait() }()
			select {
			case err := <-waited:
				if err != nil {
					return fmt.Errorf("idle: %w", err)
				}
			case <-time.After(idleEndTimeout):
				c.Close()
				return fmt.Errorf("the server did not end IDLE within %v", idleEndTimeout)
			}
		} else {
			select {
			case <-ctx.Done():
			case <-in.wake:
			case <-poll.C:
			case <-c.Closed():
			}
			if ctx.Err() == nil {
				if err := c.Noop().Wait(); err != nil {
					return fmt.Errorf("noop: %w", err)
				}
			}
		}
		if ctx.Err() != nil {
			return nil
		}
	}
}

// authenticateOAuth logs in with a bearer token. A token the server
// refuses is forgotten, so the next session gets a fresh one (the server
// may have revoked it before its expiry).
func (in *Intake) authenticateOAuth(ctx context.Context, c *imapclient.Client) error {
	if in.cfg.Tokens == nil {
		return fmt.Errorf("imap auth %s: no OAuth token source is configured", in.cfg.Auth)
	}
	tok, err := in.cfg.Tokens.Token(ctx)
	if err != nil {
		return fmt.Errorf("imap auth %s as %s: %w", in.cfg.Auth, in.cfg.Username, err)
	}
	host, portStr, _ := net.SplitHostPort(in.cfg.Addr)
	port, _ := strconv.Atoi(portStr)
	sc, err := oauth.SASL(in.cfg.Auth, in.cfg.Username, tok, host, port)
	if err != nil {
		return err
	}
	if err := c.Authenticate(sc); err != nil {
		in.cfg.Tokens.Invalidate()
		return fmt.Errorf("authenticate %s as %s: the server refused the access token: %w", strings.ToUpper(in.cfg.Auth), in.cfg.Username, err)
	}
	return nil
}

// fetchNew commits every message after the checkpoint, in UID order, in
// bounded batches (takeBatch), marking each batch \Seen once it is
// committed.
func (in *Intake) fetchNew(ctx context.Context, c *imapclient.Client, cp *store.Checkpoint) error {
	// Marking the mails \Seen is for whoever looks at the mailbox: the
	// checkpoint, not the flag, says what is taken. So the next batch is
	// read while the server stores the flags of the last one (its answer
	// is waited for before the next STORE and before IDLE, which allows
	// no other command).
	var seen *imapclient.FetchCommand
	flagged := func() {
		if seen == nil {
			return
		}
		if err := seen.Close(); err != nil && ctx.Err() == nil {
			in.lg.Warn("marking mails \\Seen", "err", err)
		}
		seen = nil
	}
	defer flagged()
	return in.fetchAfter(ctx, c, cp.UID, func(ms []fetched) ([]imap.UID, error) {
		return in.takeBatch(ms, cp)
	}, func(done []imap.UID) {
		if len(done) == 0 {
			return
		}
		flagged()
		flags := &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagSeen}}
		seen = c.Store(imap.UIDSetNum(done...), flags, nil)
	})
}

// fetched is one message read from the mailbox.
type fetched struct {
	uid uint32
	raw []byte
}

// takeBatch commits a batch of mails read after the checkpoint cp and
// advances cp past those committed with none before them left out.
//
// The games' mails are taken side by side, each game's in UID order and
// its runs of plain mails in one append (takeGame), so that they share
// the store's transactions (one fsync for the lot, not one per mail).
// The last run of each game (all of a game's mails, when they are all
// plain, as they mostly are) is not committed by takeGame but with the
// other games' in one transaction, in UID order, which also moves the
// checkpoint past the batch when every mail of it is then taken: one
// commit for the batch, checkpoint included. When one of them is not (a
// copy of an earlier mail is answered once it is recognised, an error
// leaves a mail for the next read), the checkpoint follows in a write of
// its own, past the mails taken with none before them left out.
//
// A lone mail, or a batch with a mail addressed to no game (its answer
// may go to any game's log), is taken one mail after the other, each with
// the checkpoint in its transaction.
func (in *Intake) takeBatch(ms []fetched, cp *store.Checkpoint) ([]imap.UID, error) {
	mailbox := in.cfg.CheckpointKey
	byGame := map[string][]int{}
	var games []string
	for i, m := range ms {
		g, _, ok := in.Addressed(m.raw)
		if !ok {
			games = nil
			break
		}
		if byGame[g] == nil {
			games = append(games, g)
		}
		byGame[g] = append(byGame[g], i)
	}
	done := make([]imap.UID, 0, len(ms))
	if len(games) == 0 || len(ms) == 1 {
		for _, m := range ms {
			next := store.Checkpoint{UIDValidity: cp.UIDValidity, UID: m.uid}
			if err := in.take(m.raw, mailbox, m.uid, next, true); err != nil {
				return nil, err // not committed: the checkpoint stays, the mail is read again
			}
			*cp = next
			done = append(done, imap.UID(m.uid))
		}
		return done, nil
	}
	errs := make([]error, len(ms))
	taken := make([]bool, len(ms))
	tails := make([][]planned, len(games))
	var wg sync.WaitGroup
	for k, g := range games {
		wg.Go(func() { in.takeGame(ms, byGame[g], *cp, taken, errs, &tails[k]) })
	}
	wg.Wait()
	var run []planned
	for _, t := range tails {
		run = append(run, t...)
	}
	checkpointed := false
	if len(run) > 0 {
		slices.SortFunc(run, func(a, b planned) int { return cmp.Compare(a.i, b.i) })
		// The run's mails are not taken yet: every other mail is.
		rest := len(ms)-len(run) == countTrue(taken)
		reqs := in.requests(ms, run)
		next := store.Checkpoint{UIDValidity: cp.UIDValidity, UID: ms[len(ms)-1].uid}
		if rest && mailbox != "" {
			last := &reqs[len(reqs)-1]
			last.Checkpoint = &store.MailboxCheckpoint{Mailbox: mailbox, Checkpoint: next}
			last.CheckpointAfterAll = true
		}
		res, rerrs := in.log.DoAll(reqs)
		in.settle(ms, run, res, rerrs, *cp, taken, errs)
		k := len(res) - 1
		checkpointed = rest && mailbox != "" && rerrs[k] == nil && res[k].Checkpointed
	}
	n := 0
	for n < len(ms) && taken[n] {
		done = append(done, imap.UID(ms[n].uid))
		n++
	}
	if n > 0 {
		next := store.Checkpoint{UIDValidity: cp.UIDValidity, UID: ms[n-1].uid}
		if !checkpointed { // the batch's commit moved it already
			if err := in.log.PutCheckpoint(mailbox, next); err != nil {
				return nil, err // committed, and recognised by their keys when read again
			}
		}
		*cp = next
	}
	if n < len(ms) {
		for _, err := range errs {
			if err != nil {
				return nil, err
			}
		}
	}
	return done, nil
}

// takeGame takes the mails ms[idx] of one game, in order, marking each
// taken or its error, and stops at the first error (the later ones wait
// for the next read), leaving the checkpoint at cp. A run of mails that
// become only events of the game's log (plain) is judged one after the
// other and committed in one transaction; any other mail is taken alone
// once those before it are committed. A mail of such
// a run that its log finds taken before (a copy of one before it in the
// run, say) is judged again once they are in the log, and answered as a
// copy is.
//
// The game's last run is not committed but left in *tail, for the caller
// to commit with the other games' (takeBatch); everything of the game
// before it is committed by then.
func (in *Intake) takeGame(ms []fetched, idx []int, cp store.Checkpoint, taken []bool, errs []error, tail *[]planned) {
	mailbox := in.cfg.CheckpointKey
	var run []planned
	flush := func() bool {
		if len(run) == 0 {
			return true
		}
		res, rerrs := in.log.DoAll(in.requests(ms, run))
		ok := in.settle(ms, run, res, rerrs, cp, taken, errs)
		run = run[:0]
		return ok
	}
	for _, i := range idx {
		at, o, err := in.judged(ms[i].raw)
		if err != nil {
			if flush() {
				errs[i] = err
			}
			return
		}
		if o.plain() {
			run = append(run, planned{i: i, at: at, o: o})
			continue
		}
		if !flush() {
			return
		}
		if errs[i] = in.finish(ms[i].raw, mailbox, ms[i].uid, cp, false, at, o); errs[i] != nil {
			return
		}
		taken[i] = true
	}
	*tail = run
}

// countTrue counts the true in bs.
func countTrue(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// planned is a mail of a batch judged plain, in a run committed in one
// transaction.
type planned struct {
	i  int // in the batch
	at time.Time
	o  outcome
}

// requests are the appends of run's mails, in its order.
func (in *Intake) requests(ms []fetched, run []planned) []store.Request {
	reqs := make([]store.Request, len(run))
	for k := range run {
		reqs[k] = in.request(&run[k].o, ms[run[k].i].raw, run[k].at)
	}
	return reqs
}

// settle marks the mails of run taken as the DoAll of their requests
// came out (res, errs), answering a copy the log recognised as copies are
// (taking it again, now that what it copies is in the log): a game's
// mails after one that failed are left for the next read, even when
// their requests were committed (they are recognised as taken then). It
// reports whether every mail of the run is taken.
func (in *Intake) settle(ms []fetched, run []planned, res []store.Result, rerrs []error, cp store.Checkpoint, taken []bool, errs []error) bool {
	mailbox := in.cfg.CheckpointKey
	var stopped map[string]bool // games with a mail not taken
	for k, p := range run {
		m := ms[p.i]
		if stopped[p.o.game] {
			continue
		}
		switch {
		case rerrs[k] != nil:
			errs[p.i] = fmt.Errorf("commit mail %s: %w", p.o.key, rerrs[k])
		case res[k].Duplicate:
			errs[p.i] = in.take(m.raw, mailbox, m.uid, cp, false)
		default:
			in.lg.Info("mail committed", "outcome", p.o.what, "game", p.o.game, "player", p.o.player, "seq", res[k].First, "message_id", p.o.key)
			in.count()
		}
		if errs[p.i] != nil {
			if stopped == nil {
				stopped = map[string]bool{}
			}
			stopped[p.o.game] = true
			continue
		}
		taken[p.i] = true
	}
	return len(stopped) == 0
}

// fetchAfter reads every message with a UID above from, in UID order and
// in batches of cfg.FetchBatch, hands each batch to take, and after each
// calls batchDone with the UIDs take committed. An error from take ends
// it at once (that batch's batchDone is not called): the mails not
// committed are read again next time.
func (in *Intake) fetchAfter(ctx context.Context, c *imapclient.Client, from uint32, take func(ms []fetched) ([]imap.UID, error), batchDone func(done []imap.UID)) error {
	search, err := c.UIDSearch(&imap.SearchCriteria{UID: []imap.UIDSet{{imap.UIDRange{Start: imap.UID(from + 1), Stop: 0}}}}, nil).Wait()
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	var uids []imap.UID
	for _, u := range search.AllUIDs() {
		if uint32(u) > from { // "n:*" always matches the last message
			uids = append(uids, u)
		}
	}
	sort.Slice(uids, func(i, j int) bool { return uids[i] < uids[j] })
	for len(uids) > 0 && ctx.Err() == nil {
		n := min(len(uids), in.cfg.FetchBatch)
		batch := uids[:n]
		uids = uids[n:]
		section := &imap.FetchItemBodySection{Peek: true}
		msgs, err := c.Fetch(imap.UIDSetNum(batch...), &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
		if err != nil {
			return fmt.Errorf("fetch: %w", err)
		}
		sort.Slice(msgs, func(i, j int) bool { return msgs[i].UID < msgs[j].UID })
		if !in.cfg.Senders.NoDKIM {
			// The batch's key lookups at once: one mail's slow key server
			// delays the others by one timeout at most, not one each.
			for _, m := range msgs {
				in.keys.prefetch(m.FindBodySection(section), in.cfg.Senders.ServID)
			}
		}
		ms := make([]fetched, len(msgs))
		for i, m := range msgs {
			ms[i] = fetched{uid: uint32(m.UID), raw: m.FindBodySection(section)}
		}
		done, err := take(ms)
		if err != nil {
			return err
		}
		batchDone(done)
	}
	return nil
}

// Take commits one raw mail read from mailbox at checkpoint cp: as an order
// or referee command in its game's log, a held order or a refusal there
// (with the notice to the player), or to the quarantine. It returns an
// error only when nothing could be committed (the caller retries).
func (in *Intake) Take(raw []byte, mailbox string, cp store.Checkpoint) error {
	return in.take(raw, mailbox, cp.UID, cp, true)
}

// take is Take of the mail with UID uid. With advance, its commit moves
// the checkpoint to cp; without, cp is the checkpoint already durable
// and stays (the caller advances it once every mail before this one is
// committed too: see takeBatch).
func (in *Intake) take(raw []byte, mailbox string, uid uint32, cp store.Checkpoint, advance bool) error {
	if in.cfg.Route != nil {
		if game, _, ok := in.Addressed(raw); ok {
			handled, err := in.cfg.Route(game, raw)
			if err != nil {
				return fmt.Errorf("handing a mail to game %s's owner: %w", game, err)
			}
			if handled {
				in.count()
				if mailbox == "" || !advance {
					return nil
				}
				return in.log.PutCheckpoint(mailbox, cp)
			}
		}
	}
	at, o, err := in.judged(raw)
	if err != nil {
		return err
	}
	return in.finish(raw, mailbox, uid, cp, advance, at, o)
}

// judged judges a mail and returns the time it is taken at and what it
// becomes, with the notice budget spent.
func (in *Intake) judged(raw []byte) (time.Time, outcome, error) {
	at := in.cfg.Now().UTC()
	o := in.judge(raw, at)
	if o.notReady {
		return at, o, &NotReadyError{Game: o.game}
	}
	if o.notice != nil && o.evs != nil && o.noticeKey != "" && !in.notices.allow(o.noticeKey, at) {
		// A flood of mails in a player's name must not become a flood of
		// mails to the player, nor grow the game's log; it spends the
		// budget of its own sender, never the player's authenticated
		// mail's (noticeKeyFor).
		o = quarantined(o.msg, "%s; not told: %d notices within %v caused by mail %s could send", o.what, in.cfg.NoticeBurst, in.cfg.RateWindow, noticeWho(o.noticeKey))
	}
	return at, o, nil
}

// plain says whether o is only events for its game's log, which say the
// same wherever they land (no notice naming its seq, no quarantine).
func (o *outcome) plain() bool {
	return len(o.evs) > 0 && o.quarantine == "" && !o.already && !o.notReady && o.notice == nil && o.game != ""
}

// request is the append of a plain outcome, without the checkpoint.
func (in *Intake) request(o *outcome, raw []byte, at time.Time) store.Request {
	evs := make([]events.Envelope, 0, len(o.evs))
	for i, p := range o.evs {
		key := ""
		if i == 0 {
			key = o.key
		}
		evs = append(evs, events.New(o.game, at, key, p))
	}
	req := store.Request{Game: o.game, AtHead: true, Events: evs, Keys: o.keys}
	if o.evidence {
		req.Raw = raw
	}
	return req
}

// finish commits the judged outcome o of a mail (take).
func (in *Intake) finish(raw []byte, mailbox string, uid uint32, cp store.Checkpoint, advance bool, at time.Time, o outcome) error {
	if len(o.evs) > 0 {
		last := o.quarantine == "" && advance // the quarantine, if any, moves the checkpoint
		if err := in.commit(o, raw, mailbox, cp, at, last); err != nil {
			return err
		}
	}
	switch {
	case o.quarantine != "":
		from, subject := "", ""
		if o.msg != nil {
			from, subject = o.msg.From.Addr, o.msg.Subject
		}
		q := store.Quarantined{At: at, Mailbox: mailbox, UID: uid, From: from, Subject: subject, Reason: o.quarantine, Raw: raw}
		// Without advance, cp is where the checkpoint already is: the
		// record's transaction leaves it there.
		id, err := in.log.Quarantine(q, cp)
		if err != nil {
			return err
		}
		in.lg.Info("mail quarantined", "reason", o.quarantine, "from", from, "uid", uid, "id", id[:12])
	case o.already:
		// Already committed (a crash before the checkpoint, or a rescan):
		// only the checkpoint moves.
		if mailbox != "" && advance {
			if err := in.log.PutCheckpoint(mailbox, cp); err != nil {
				return err
			}
		}
		in.lg.Info("mail taken before", "game", o.game, "player", o.player, "message_id", o.msg.MessageID)
	}
	in.count()
	return nil
}

// commit appends the outcome's events and notice to its game's log, with
// the raw mail as evidence and, if withCheckpoint, the mailbox's
// checkpoint, in one transaction.
func (in *Intake) commit(o outcome, raw []byte, mailbox string, cp store.Checkpoint, at time.Time, withCheckpoint bool) error {
	for {
		h, err := in.log.Head(o.game)
		if err != nil {
			return err
		}
		evs := make([]events.Envelope, 0, len(o.evs)+1)
		for i, p := range o.evs {
			key := ""
			if i == 0 {
				key = o.key
			}
			evs = append(evs, events.New(o.game, at, key, p))
		}
		if o.notice != nil && in.cfg.Notifier != nil {
			mq, err := in.cfg.Notifier.Notice(o.game, *o.notice, h.Seq+uint64(len(evs))+1)
			if err != nil {
				// The refusal is logged even when its notice cannot be made.
				in.lg.Error("rendering a notice failed", "game", o.game, "player", o.player, "kind", o.notice.Kind, "err", err)
			} else {
				evs = append(evs, events.New(o.game, at, "", mq))
			}
		}
		// What the mail says does not depend on where it lands, only a
		// notice (which names its seq) does: without one, the append
		// follows whatever the log holds by then, rather than read the
		// head again and retry, a transaction each time, when the engine
		// or the outbox appended to the game meanwhile (as the loop did).
		req := store.Request{Game: o.game, Expected: h.Seq, AtHead: len(evs) == len(o.evs), Events: evs, Keys: o.keys}
		if o.evidence {
			req.Raw = raw
		}
		if mailbox != "" && withCheckpoint {
			// Advanced even for a duplicate (a crash before the checkpoint,
			// or a rescan): the mail is committed either way.
			req.Checkpoint = &store.MailboxCheckpoint{Mailbox: mailbox, Checkpoint: cp}
		}
		res, err := in.log.Do(req)
		var conflict *store.ConflictError
		if errors.As(err, &conflict) {
			continue
		}
		if err != nil {
			return fmt.Errorf("commit mail %s: %w", o.key, err)
		}
		if res.Duplicate {
			in.lg.Info("mail taken before", "game", o.game, "player", o.player, "seq", res.First, "by", res.DuplicateKey)
			return nil
		}
		in.lg.Info("mail committed", "outcome", o.what, "game", o.game, "player", o.player, "seq", res.First, "message_id", o.key)
		return nil
	}
}

// SetRoute sets Config.Route; call it before Run.
func (in *Intake) SetRoute(route func(game string, raw []byte) (bool, error)) { in.cfg.Route = route }

// SetKnown sets Config.Known; call it before Run.
func (in *Intake) SetKnown(known func(game string) bool) { in.cfg.Known = known }

// mailKey is a mail's idempotency key: its Message-ID, else its hash.
func mailKey(messageID string, raw []byte) string {
	if messageID != "" {
		return messageID
	}
	sum := sha256.Sum256(raw)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Addressed returns the game a mail is addressed to, by a reply address
// on a recipient header or the subject tag, and the idempotency key it
// would be taken under. Nothing is verified (token, sender): it says
// where to route a mail, never whether to take it.
func (in *Intake) Addressed(raw []byte) (game, key string, ok bool) {
	msg, err := parse.Parse(raw, in.cfg.Limits)
	var lim *parse.LimitError
	if err != nil && !errors.As(err, &lim) || msg == nil {
		return "", "", false // a mail too large still goes to its game's owner, which answers the player
	}
	id := strings.TrimSpace(msg.MessageID)
	if id != "" && !strings.HasPrefix(id, "<") {
		id = "<" + id + ">"
	}
	for _, r := range msg.Recipients() {
		if who, found := token.ParseAddress(r, in.cfg.Local, in.cfg.Domain); found {
			return who.Game, mailKey(id, raw), true
		}
	}
	if g, found := token.SubjectGame(msg.Subject); found {
		return g, mailKey(id, raw), true
	}
	return "", "", false
}

func (in *Intake) count() { in.mu.Lock(); in.processed++; in.mu.Unlock() }
