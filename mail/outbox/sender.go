package outbox

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"pbem/engine"
	"pbem/engine/draw"
	"pbem/events"
	"pbem/mail/oauth"
	"pbem/store"
)

// Appender is what a Sender needs of the event log: the store, or anything
// that appends to it (the bus, which also publishes what it appended).
type Appender interface {
	Do(store.Request) (store.Result, error)
	Head(game string) (store.Head, error)
}

// TLS modes of Config.TLS.
const (
	TLSNone     = "none"     // plain SMTP (a loopback server)
	TLSStartTLS = "starttls" // plain connection upgraded by STARTTLS (port 587, 25)
	TLSImplicit = "tls"      // TLS from the first byte (port 465)
)

// Config tells a Sender where and how to deliver.
type Config struct {
	// Addr is the SMTP server, host:port.
	Addr string
	// TLS is TLSNone, TLSStartTLS or TLSImplicit. Empty means TLSNone for a
	// loopback host and TLSStartTLS for any other.
	TLS string
	// TLSConfig, when set, is used for TLS (custom roots, client
	// certificates). Its ServerName defaults to Addr's host.
	TLSConfig *tls.Config
	// Username and Password, when Username is set, authenticate with AUTH
	// PLAIN. It is refused without TLS unless the server is on loopback.
	Username, Password string
	// Auth is the SASL mechanism: "plain" (the default, with Password) or,
	// with a bearer token from Tokens, "xoauth2" or "oauthbearer".
	Auth   string
	Tokens TokenSource
	// HeloName is the name given in EHLO (default: From's domain).
	HeloName string
	// From is the From header and, its address, the envelope sender.
	From string
	// ListDomain names each game's List-Id, <GAME.ListDomain>.
	ListDomain string
	// MaxAttempts, when above 0, is the number of attempts after which a
	// temporary failure counts as permanent. The default, 0, never gives
	// up: a mail is retried until the server takes it or refuses it (a
	// 5xx to the transaction) — an operator can fix a server or a
	// configuration in a day as well as in a minute. The attempts are
	// counted within a run (temporary failures are no events): after a
	// restart a mail has MaxAttempts again.
	MaxAttempts int
	// BackoffBase is the delay after the first failed attempt; it doubles
	// with each further one, up to BackoffMax (defaults 2s and 10 min).
	// Each delay is jittered to between half of it and all of it.
	BackoffBase, BackoffMax time.Duration
	// Timeout bounds one attempt, from dialling to QUIT (default 2 min).
	Timeout time.Duration
	// RecordBase and RecordMax bound the backoff between tries to record an
	// attempt's outcome when the log refuses it (a full disk): the outbox
	// tries again for as long as it takes, and sends nothing new meanwhile
	// (defaults 250ms and 30s).
	RecordBase, RecordMax time.Duration
	// Workers is how many mails are attempted at once, each of another
	// game (default 4: many providers refuse more connections at once from
	// one sender): deliveries and their records then share fsyncs.
	Workers int
	// Fill, when set, gives the body the mail at seq of game is sent with
	// (the log keeps the body as composed): pbem fills in mailbox
	// passwords. Its error fails the attempt, temporarily.
	Fill func(game string, seq uint64, q *events.MailQueued) (string, error)
	// Draw, when set, draws the board of a mail's attachment that
	// IsImage (the mail at seq of game, as queued); a mail's drawn board
	// is left out without it, and its text says so. The same event must
	// give the same scene, so a mail sent again is the same bytes.
	Draw func(game string, seq uint64, q *events.MailQueued, a events.Attachment) (*draw.Scene, error)
	// Logger receives a record per attempt (debug), per mail sent (info)
	// and per failure (warn). Default slog.Default().
	Logger *slog.Logger
	// Now schedules retries (default time.Now). It is not used for the
	// mails' bytes (Render takes the event's time) nor for the At of the
	// mail.sent and mail.failed events, which is the wall clock.
	Now func() time.Time
	// JitterSeed seeds the backoff jitter (0: seeded from Now).
	JitterSeed uint64
}

func (c Config) withDefaults() Config {
	if c.Workers <= 0 {
		c.Workers = 4
	}
	if c.MaxAttempts < 0 {
		c.MaxAttempts = 0
	}
	if c.RecordBase <= 0 {
		c.RecordBase = 250 * time.Millisecond
	}
	if c.RecordMax < c.RecordBase {
		c.RecordMax = max(c.RecordBase, 30*time.Second)
	}
	if c.BackoffBase <= 0 {
		c.BackoffBase = 2 * time.Second
	}
	if c.BackoffMax <= 0 {
		c.BackoffMax = 10 * time.Minute
	}
	if c.BackoffMax < c.BackoffBase {
		c.BackoffMax = c.BackoffBase
	}
	if c.Timeout <= 0 {
		c.Timeout = 2 * time.Minute
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	host, _, _ := net.SplitHostPort(c.Addr)
	if c.TLS == "" {
		c.TLS = TLSStartTLS
		if isLoopback(host) {
			c.TLS = TLSNone
		}
	}
	if c.HeloName == "" {
		c.HeloName = "localhost"
		if a, err := parseAddress(c.From); err == nil {
			if i := strings.LastIndexByte(a.Address, '@'); i >= 0 && i+1 < len(a.Address) {
				c.HeloName = a.Address[i+1:]
			}
		}
	}
	return c
}

// Validate reports what is wrong with c, if anything. A Sender built from
// an invalid Config fails every attempt with the same error.
func (c Config) Validate() error {
	c = c.withDefaults()
	var errs []error
	if _, _, err := net.SplitHostPort(c.Addr); err != nil {
		errs = append(errs, fmt.Errorf("smtp addr %q: %w", c.Addr, err))
	}
	switch c.TLS {
	case TLSNone, TLSStartTLS, TLSImplicit:
	default:
		errs = append(errs, fmt.Errorf("smtp tls mode %q: use %s, %s or %s", c.TLS, TLSNone, TLSStartTLS, TLSImplicit))
	}
	if _, err := parseAddress(c.From); err != nil {
		errs = append(errs, fmt.Errorf("from: %w", err))
	}
	if c.ListDomain == "" || !isDotAtom(c.ListDomain) {
		errs = append(errs, fmt.Errorf("list domain %q is not a domain name", c.ListDomain))
	}
	if err := c.authAllowed(); err != nil {
		errs = append(errs, err)
	}
	switch strings.ToLower(c.Auth) {
	case "", "plain":
	case oauth.XOAuth2, oauth.OAuthBearer:
		if c.Tokens == nil {
			errs = append(errs, fmt.Errorf("smtp auth %s: no OAuth token source is configured", c.Auth))
		}
	default:
		errs = append(errs, fmt.Errorf("smtp auth %q: use plain, xoauth2 or oauthbearer", c.Auth))
	}
	return errors.Join(errs...)
}

// authAllowed refuses to send a password in clear text off this machine.
func (c Config) authAllowed() error {
	host, _, _ := net.SplitHostPort(c.Addr)
	if c.Username != "" && c.TLS == TLSNone && !isLoopback(host) {
		return fmt.Errorf("smtp auth to %s without TLS would send the password in clear text", c.Addr)
	}
	return nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// TokenSource gives OAuth 2.0 access tokens (package oauth's Source):
// Token a valid one, refreshed as needed; Invalidate forgets the one the
// server refused.
type TokenSource interface {
	Token(ctx context.Context) (string, error)
	Invalidate()
}

// Sender delivers queued mails, a few SMTP transactions at a time (one
// per game), and records in the game's log how each ends (sent, or failed
// for good). Its methods are safe for
// concurrent use; Run must not be called twice at once.
type Sender struct {
	cfg Config
	log Appender
	lg  *slog.Logger

	running atomic.Bool
	wake    chan struct{}  // a mail was enqueued
	records sync.WaitGroup // mails sent whose outcome is being recorded

	mu    sync.Mutex
	queue map[mailKey]*item
	// The queue indexed for next (under mu), so that a backlog of
	// thousands of mails is not looked through for every mail: its items
	// by due time (then order), the readers with items and with items in
	// flight (counts, by each item's streams), and the items whose
	// outcome the log refused and that wait, out of flight, to be
	// recorded again.
	byDue   []*item
	streams map[string]int
	busy    map[string]int
	refused map[*item]struct{}
	order   uint64        // enqueue counter, breaks ties between due times
	idle    chan struct{} // closed while the queue is empty
	rnd     *rand.Rand    // backoff jitter

	// What Status reports (under mu).
	sent, failed      uint64
	storeFailingSince time.Time // first refused record since the last one taken
	smtpFailingSince  time.Time // first failed attempt since the last delivery
	lastError         string
	storeLog, smtpLog throttle
}

type mailKey struct{ game, mailID string }

// item is one mail waiting or in flight.
type item struct {
	game string
	// streams are the item's readers, each address of its game's mail to
	// them: a reader's mails go out one after the other (see next).
	streams   []string
	seq       uint64
	at        time.Time
	q         *events.MailQueued
	attempts  int // failed attempts so far (this run's, and those an older log records)
	due       time.Time
	order     uint64
	inflight  bool
	cancelled bool
	// delivered: the server took the mail (inflight stays set until its
	// mail.sent is recorded), so its readers' next mail may go meanwhile.
	delivered bool

	// An attempt made but not yet in the log: its outcome is recorded
	// again (never the mail sent again) until the log takes it.
	unrecorded *attemptOutcome
}

// toRecord says whether it has an outcome the log has not taken yet (a
// temporary failure has none to take).
func (it *item) toRecord() bool { return it.unrecorded != nil && it.unrecorded.p != nil }

// attemptOutcome is an attempt's result, to record (p nil: nothing to
// record, a temporary failure).
type attemptOutcome struct {
	p         events.Payload
	at        time.Time
	err       error // the attempt's error (nil: sent)
	reply     string
	permanent bool
	tries     int // refused records so far
}

// New returns a Sender delivering through cfg's server and appending to
// log. It sends nothing until Run.
func New(cfg Config, log Appender) *Sender {
	cfg = cfg.withDefaults()
	seed := cfg.JitterSeed
	if seed == 0 {
		seed = uint64(cfg.Now().UnixNano())
	}
	s := &Sender{
		cfg:     cfg,
		log:     log,
		lg:      cfg.Logger.With("component", "outbox"),
		wake:    make(chan struct{}, 1),
		queue:   map[mailKey]*item{},
		streams: map[string]int{}, busy: map[string]int{}, refused: map[*item]struct{}{},
		idle: make(chan struct{}),
		rnd:  rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
	}
	close(s.idle)
	if err := cfg.Validate(); err != nil {
		s.lg.Error("outbox configuration is invalid; every attempt will fail", "err", err)
	}
	return s
}

// Enqueue schedules the mail queued as event seq of game at time at.
// attempt is the number of failed attempts already made (those a log
// written before temporary failures stopped being events records), which
// count towards MaxAttempts; the next attempt is attempt+1, made at once. A mail already queued is left as it is. q must
// not be modified afterwards.
func (s *Sender) Enqueue(game string, seq uint64, at time.Time, q *events.MailQueued, attempt int) {
	if q == nil {
		s.lg.Error("outbox: nil mail enqueued", "game", game, "seq", seq)
		return
	}
	k := mailKey{game, q.MailID}
	s.mu.Lock()
	if _, ok := s.queue[k]; ok {
		s.mu.Unlock()
		return
	}
	if len(s.queue) == 0 {
		s.idle = make(chan struct{})
	}
	s.order++
	it := &item{game: game, streams: streamsOf(game, q.To), seq: seq, at: at, q: q, attempts: max(attempt, 0),
		due: s.cfg.Now(), order: s.order}
	s.queue[k] = it
	s.place(it)
	s.track(it)
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Cancel forgets a queued mail (it was sent or failed elsewhere). An
// attempt already in flight is finished and recorded, but not retried.
func (s *Sender) Cancel(game, mailID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	it, ok := s.queue[mailKey{game, mailID}]
	if !ok {
		return
	}
	if it.inflight {
		it.cancelled = true
		return
	}
	s.remove(it)
}

// CancelGame drops every mail of game from the queue: the game is no
// longer this server's (another node of a cluster owns it, and sends its
// unsent mails, under the same Message-IDs). A mail in flight finishes.
func (s *Sender) CancelGame(game string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, it := range s.queue {
		if k.game != game {
			continue
		}
		if it.inflight {
			it.cancelled = true
			continue
		}
		s.remove(it)
	}
}

// remove drops it from the queue; s.mu is held.
func (s *Sender) remove(it *item) {
	s.untrack(it)
	s.unplace(it)
	delete(s.queue, mailKey{it.game, it.q.MailID})
	if len(s.queue) == 0 {
		close(s.idle)
	}
}

// place puts it into byDue and counts its game; unplace takes it out.
// An item's due time changes only between the two. s.mu is held.
func (s *Sender) place(it *item) {
	i, _ := slices.BinarySearchFunc(s.byDue, it, cmpDue)
	s.byDue = slices.Insert(s.byDue, i, it)
	for _, k := range it.streams {
		s.streams[k]++
	}
}

func (s *Sender) unplace(it *item) {
	if i, ok := slices.BinarySearchFunc(s.byDue, it, cmpDue); ok && s.byDue[i] == it {
		s.byDue = slices.Delete(s.byDue, i, i+1)
		for _, k := range it.streams {
			if s.streams[k]--; s.streams[k] <= 0 {
				delete(s.streams, k)
			}
		}
	}
}

// cmpDue orders items by due time, then by the order they were queued.
func cmpDue(a, b *item) int {
	if c := a.due.Compare(b.due); c != 0 {
		return c
	}
	return cmp.Compare(a.order, b.order)
}

// track counts it among the games in flight and the outcomes waiting to
// be recorded, as it stands; untrack uncounts it. An item's inflight and
// unrecorded change only between the two. s.mu is held.
func (s *Sender) track(it *item) {
	if it.inflight && !it.delivered {
		for _, k := range it.streams {
			s.busy[k]++
		}
	}
	if it.toRecord() && !it.inflight {
		s.refused[it] = struct{}{}
	}
}

func (s *Sender) untrack(it *item) {
	if it.inflight && !it.delivered {
		for _, k := range it.streams {
			if s.busy[k]--; s.busy[k] <= 0 {
				delete(s.busy, k)
			}
		}
	}
	delete(s.refused, it)
}

// change runs f, which changes it's due time, inflight or unrecorded, and
// keeps the index of the queue. s.mu is held.
func (s *Sender) change(it *item, f func()) {
	s.untrack(it)
	s.unplace(it)
	f()
	s.place(it)
	s.track(it)
}

// Len returns the number of mails queued or in flight.
func (s *Sender) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue)
}

// WaitIdle blocks until no mail is queued or in flight (every mail has been
// sent or has failed for good, and its event is appended), or until ctx is
// done.
func (s *Sender) WaitIdle(ctx context.Context) error {
	s.mu.Lock()
	idle := s.idle
	s.mu.Unlock()
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("outbox: waiting for an empty queue: %w", ctx.Err())
	}
}

// Run delivers mails until ctx is done, then returns nil. Once ctx is
// done it starts no attempt, and the attempt in flight is either abandoned
// unrecorded, if the end of its DATA has not been sent (the server
// discards the transaction), or finished and its event appended before Run
// returns. So every attempt the server saw through has its event — unless
// the log itself refuses it.
//
// Run never stops for an error. When the log refuses an attempt's outcome
// (a full disk, a failing file), the outcome is kept and recorded again
// with backoff for as long as it takes, and no new mail is sent
// meanwhile; a mail whose outcome is still unrecorded when Run returns is
// sent again by the next Run (at least once).
func (s *Sender) Run(ctx context.Context) error {
	if !s.running.CompareAndSwap(false, true) {
		return errors.New("outbox: Run called while already running")
	}
	defer s.running.Store(false)
	s.lg.Info("outbox running", "addr", s.cfg.Addr, "tls", s.cfg.TLS, "queued", s.Len(), "workers", s.cfg.Workers)
	var wg sync.WaitGroup
	for range s.cfg.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.work(ctx)
		}()
	}
	wg.Wait()
	s.records.Wait()
	s.stopping()
	return nil
}

// work is one of Run's workers: it takes the next mail due and attempts
// it, or records an outcome the log refused, until ctx is done.
func (s *Sender) work(ctx context.Context) {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	var sc smtpConn // the worker's connection, kept between mails sent back to back
	defer sc.close(true)
	for {
		if ctx.Err() != nil {
			return
		}
		it, wait := s.next()
		if it == nil {
			var fire, expire <-chan time.Time
			if wait >= 0 {
				timer.Reset(wait)
				fire = timer.C
			}
			var idle *time.Timer
			if sc.c != nil {
				// Nothing to send for keepIdle: say goodbye.
				idle = time.NewTimer(max(keepIdle-time.Since(sc.used), 0))
				expire = idle.C
			}
			select {
			case <-ctx.Done():
				return
			case <-s.wake:
			case <-fire:
			case <-expire:
				sc.close(true)
			}
			timer.Stop()
			if idle != nil {
				idle.Stop()
			}
			continue
		}
		// More may be due: let another idle worker look.
		s.poke()
		if it.unrecorded != nil {
			s.recordOutcome(it)
			continue
		}
		s.attempt(ctx, it, &sc)
	}
}

func (s *Sender) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// stopping logs the outcomes Run leaves unrecorded.
func (s *Sender) stopping() {
	s.mu.Lock()
	n := 0
	for _, it := range s.queue {
		if it.unrecorded != nil {
			n++
		}
	}
	s.mu.Unlock()
	if n > 0 {
		s.lg.Warn("outbox stopping with attempts not recorded: those mails are sent again after the restart", "mails", n)
	}
}

// next returns the item due first, marked in flight, or nil and how long
// until the first is due (-1: the queue is empty). While any outcome
// waits to be recorded, only those are due: nothing new is sent into a
// log that cannot record it.
func (s *Sender) next() (*item, time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	// One mail to a reader at a time: each reader's mails of a game go
	// out one after the other, in the order the game queued them, and
	// the readers' side by side (a turn's reports to each side at once,
	// rather than one after the other). A mail to several addresses
	// waits until none of them has one in flight. A mail the server took
	// holds its readers back no longer, while its record commits. An
	// outcome the log refused waits, out of flight, to be recorded again
	// (one in flight is being recorded for the first time): while one
	// does, only those are due.
	if len(s.busy) >= len(s.streams) {
		return nil, -1 // every reader with mail has one in flight
	}
	recording := len(s.refused) > 0
	var first *item
	for _, it := range s.byDue { // the first one free is due first
		if it.inflight || s.busyFor(it) || recording && it.unrecorded == nil {
			continue
		}
		first = it
		break
	}
	if first == nil {
		return nil, -1
	}
	if wait := first.due.Sub(s.cfg.Now()); wait > 0 {
		return nil, wait
	}
	s.change(first, func() { first.inflight = true })
	return first, 0
}

// busyFor says whether one of it's readers has a mail in flight. s.mu is
// held.
func (s *Sender) busyFor(it *item) bool {
	for _, k := range it.streams {
		if s.busy[k] > 0 {
			return true
		}
	}
	return false
}

// streamsOf are the streams of a game's mail to the addresses to: one
// for each address (its mailbox, lower-cased, without the name before
// it), or the game's own for a mail to none.
func streamsOf(game string, to []string) []string {
	if len(to) == 0 {
		return []string{game + "\x00"}
	}
	out := make([]string, 0, len(to))
	for _, a := range to {
		if p, err := parseAddress(a); err == nil {
			a = p.Address
		}
		k := game + "\x00" + strings.ToLower(strings.TrimSpace(a))
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// attempt makes one delivery attempt of it and records its outcome.
func (s *Sender) attempt(ctx context.Context, it *item, sc *smtpConn) {
	n := it.attempts + 1
	lg := s.lg.With("game", it.game, "mail_id", it.q.MailID, "attempt", n)
	lg.Debug("mail delivery attempt", "to", it.q.To, "addr", s.cfg.Addr)

	var reply string
	var q *events.MailQueued
	// Filling in and rendering call the composer (and through it a rule
	// system): a panic there fails this attempt, not the server.
	err := engine.Guard("filling in the mail", func() (err error) { q, err = s.fill(it); return err })
	if stack := engine.PanicStack(err); stack != "" {
		lg.Error("filling in a mail panicked", "err", err, "stack", stack)
	}
	if err == nil {
		var m *message
		h := Headers{From: s.cfg.From, ListDomain: s.cfg.ListDomain}
		if s.cfg.Draw != nil {
			h.Draw = func(a events.Attachment) (*draw.Scene, error) { return s.cfg.Draw(it.game, it.seq, it.q, a) }
		}
		if err = engine.Guard("rendering the mail", func() (err error) { m, err = build(it.game, it.seq, it.at, q, h); return err }); err != nil {
			if stack := engine.PanicStack(err); stack != "" {
				lg.Error("rendering a mail panicked", "err", err, "stack", stack)
			}
			err = &stageError{stage: stageRender, err: err}
		} else {
			reply, err = s.deliver(ctx, m, sc)
		}
	}
	if errors.Is(err, errShutdown) {
		s.release(it)
		lg.Debug("mail delivery abandoned before DATA ended: shutting down")
		return
	}
	o := &attemptOutcome{at: time.Now(), err: err, reply: reply} // the outcome is an input from the outside world
	if err == nil {
		o.p = &events.MailSent{MailID: it.q.MailID, Attempt: n, Reply: reply}
	} else if o.permanent = isPermanent(err) || s.cfg.MaxAttempts > 0 && n >= s.cfg.MaxAttempts; o.permanent {
		o.p = &events.MailFailed{MailID: it.q.MailID, Attempt: n, Permanent: true, Error: err.Error()}
	}
	// A temporary failure is no event (o.p stays nil): the game's log
	// records how a mail ends, sent or failed for good, not each retry
	// of a server that is down (one an attempt every 10 minutes, for
	// days). Status counts the attempts, and the queue keeps the count
	// and the backoff of this run; after a restart the mail, still unsent
	// in the log, is sent again.
	s.mu.Lock()
	s.change(it, func() { it.unrecorded, it.delivered = o, err == nil })
	if err == nil {
		s.sent++
		s.smtpFailingSince = time.Time{}
	} else {
		s.failed++
		if s.smtpFailingSince.IsZero() {
			s.smtpFailingSince = o.at
		}
		s.lastError = err.Error()
	}
	s.mu.Unlock()
	if err == nil {
		// Pipelined: the worker sends the next mail while this one's
		// mail.sent commits, in the store's transaction with the other
		// workers' records. The mail stays in flight until recorded
		// (never sent again meanwhile), but it is delivered: its
		// readers' next mail may go at once, after it as their mails
		// always go. Waiting for the record too would add a commit to
		// every mail to a reader with several coming. A crash before the
		// record sends this mail again after the restart, as it would
		// have without the next one.
		s.records.Add(1)
		go func() {
			defer s.records.Done()
			s.recordOutcome(it)
			s.poke() // the game's next mail may go now
		}()
		return
	}
	s.recordOutcome(it)
}

// fill returns the mail as it is sent (Config.Fill).
func (s *Sender) fill(it *item) (*events.MailQueued, error) {
	if s.cfg.Fill == nil {
		return it.q, nil
	}
	body, err := s.cfg.Fill(it.game, it.seq, it.q)
	if err != nil {
		return nil, &stageError{stage: stagePrepare, err: err}
	}
	q := *it.q
	q.Body = body
	return &q, nil
}

// recordOutcome appends it's unrecorded outcome to the log (a mail sent
// or failed for good), then drops the mail or schedules its next attempt;
// if the log refuses, the outcome is tried again after a backoff.
func (s *Sender) recordOutcome(it *item) {
	o := it.unrecorded
	n := it.attempts + 1
	lg := s.lg.With("game", it.game, "mail_id", it.q.MailID, "attempt", n)
	if o.p == nil {
		// Nothing to record: a temporary failure.
	} else if rerr := s.record(it.game, o.at, o.p); rerr != nil {
		s.mu.Lock()
		o.tries++
		delay := backoff(s.cfg.RecordBase, s.cfg.RecordMax, o.tries, s.rnd)
		now := s.cfg.Now()
		if s.storeFailingSince.IsZero() {
			s.storeFailingSince = now
		}
		since := s.storeFailingSince
		s.lastError = rerr.Error()
		// Out of flight, and no longer delivered as far as its readers'
		// next mail is concerned: while the record is tried again
		// nothing new is sent to them (nor to anyone: see next).
		s.change(it, func() { it.due, it.inflight, it.delivered = now.Add(delay), false, false })
		if it.cancelled {
			s.remove(it)
		}
		logIt, suppressed := s.storeLog.allow(now, rerr.Error())
		s.mu.Unlock()
		if logIt {
			lg.Error("outbox cannot record an attempt in the log; it keeps trying, and sends nothing new meanwhile",
				"err", rerr, "delivered", o.err == nil, "failing_for", time.Since(since).Round(time.Second), "retry_in", delay, "suppressed", suppressed)
		}
		return
	}

	var delay time.Duration
	s.mu.Lock()
	recovered := o.p != nil && !s.storeFailingSince.IsZero()
	down := time.Since(s.storeFailingSince)
	if o.p != nil {
		s.storeFailingSince = time.Time{}
		s.storeLog.reset()
	}
	s.change(it, func() { it.unrecorded = nil })
	done := o.err == nil || o.permanent
	if done || it.cancelled {
		s.remove(it)
	} else {
		delay = backoff(s.cfg.BackoffBase, s.cfg.BackoffMax, n, s.rnd)
		it.attempts = n
		due := s.cfg.Now().Add(delay)
		s.change(it, func() { it.due, it.inflight = due, false })
	}
	var logIt bool
	var suppressed int
	if o.err != nil && !o.permanent {
		logIt, suppressed = s.smtpLog.allow(s.cfg.Now(), o.err.Error())
	} else if o.err == nil {
		s.smtpLog.reset()
	}
	s.mu.Unlock()
	if recovered {
		lg.Info("outbox records attempts in the log again", "after", down.Round(time.Millisecond))
	}

	switch {
	case o.err == nil:
		lg.Info("mail sent", "to", it.q.To, "reply", o.reply)
	case o.permanent:
		class := "permanent"
		if !isPermanent(o.err) {
			class = "temporary" // but MaxAttempts is reached
		}
		lg.Warn("mail failed", "class", class, "final", true, "err", o.err, "to", it.q.To)
	case logIt:
		lg.Warn("mail failed", "class", "temporary", "final", false, "err", o.err, "to", it.q.To, "retry_in", delay, "suppressed", suppressed)
	default:
		// The same failure as the last one logged, within a minute: one
		// line a minute says it, not one per mail and attempt.
		lg.Debug("mail failed", "class", "temporary", "final", false, "err", o.err, "to", it.q.To, "retry_in", delay)
	}
}

// throttle lets the same message through once per throttleEvery, counting
// what it holds back.
type throttle struct {
	key        string
	last       time.Time
	suppressed int
}

const throttleEvery = time.Minute

func (t *throttle) allow(now time.Time, key string) (bool, int) {
	if key != t.key || now.Sub(t.last) >= throttleEvery {
		n := t.suppressed
		t.key, t.last, t.suppressed = key, now, 0
		return true, n
	}
	t.suppressed++
	return false, 0
}

func (t *throttle) reset() { *t = throttle{} }

// release puts it back in the queue, unchanged, after an attempt that is
// not in the log (abandoned).
func (s *Sender) release(it *item) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.change(it, func() { it.inflight = false })
	if it.cancelled {
		s.remove(it)
	}
}

// Status is what an outbox reports on itself, for metrics and health.
type Status struct {
	Queued     int       // mails waiting or in flight
	Retrying   int       // of those, mails with at least one failed attempt
	Unrecorded int       // attempts made whose outcome the log has not taken yet
	Oldest     time.Time // when the oldest waiting mail was queued (zero: none)
	// Sent and Failed count, since New, mails sent and failed attempts.
	Sent, Failed uint64
	// StoreFailingSince is when the log began refusing outcomes (zero
	// while it takes them); SMTPFailingSince when attempts began failing
	// without a delivery since (zero after a delivery).
	StoreFailingSince, SMTPFailingSince time.Time
	LastError                           string
}

// Status reports the outbox's state now.
func (s *Sender) Status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := Status{Queued: len(s.queue), Sent: s.sent, Failed: s.failed,
		StoreFailingSince: s.storeFailingSince, SMTPFailingSince: s.smtpFailingSince, LastError: s.lastError}
	for _, it := range s.queue {
		if it.attempts > 0 {
			st.Retrying++
		}
		if it.toRecord() {
			st.Unrecorded++
		}
		if st.Oldest.IsZero() || it.at.Before(st.Oldest) {
			st.Oldest = it.at
		}
	}
	if len(s.queue) == 0 {
		st.SMTPFailingSince = time.Time{}
	}
	return st
}

// record appends p to game's log after whatever is there when it is
// written (a mail's outcome says the same wherever it lands), so that
// the engine's appends to the same game never make it read the head and
// try again, a transaction each time.
func (s *Sender) record(game string, at time.Time, p events.Payload) error {
	env := events.New(game, at, "", p)
	if _, err := s.log.Do(store.Request{Game: game, AtHead: true, Events: []events.Envelope{env}}); err != nil {
		return fmt.Errorf("record %s in game %s: %w", p.EventType(), game, err)
	}
	return nil
}

// backoff returns the delay after the n-th failed attempt: base·2^(n-1)
// capped at max, jittered uniformly into its upper half so that mails that
// failed together do not all retry together, yet never retry much sooner
// than planned.
func backoff(base, max time.Duration, n int, r *rand.Rand) time.Duration {
	d := base
	for i := 1; i < n && d < max; i++ {
		d *= 2
	}
	if d > max || d <= 0 {
		d = max
	}
	half := d / 2
	return half + time.Duration(r.Int64N(int64(d-half)+1))
}

// Stages of an attempt, for classifying its failure.
const (
	stageRender  = "render"
	stagePrepare = "prepare"
	stageConnect = "connect"
	stageHello   = "hello"
	stageAuth    = "auth"
	stageMail    = "MAIL FROM"
	stageRcpt    = "RCPT TO"
	stageData    = "DATA"
)

// stageError is a failed attempt and the step it failed at.
type stageError struct {
	stage string
	err   error
}

func (e *stageError) Error() string { return e.stage + ": " + e.err.Error() }
func (e *stageError) Unwrap() error { return e.err }

// isPermanent classifies a failed attempt. Permanent (no retry): the mail
// cannot be rendered, or the server answered a 5xx to the transaction
// itself (MAIL FROM, RCPT TO, DATA): it refuses this mail. Temporary
// (retry after a backoff): a 4xx, any network error, and any failure
// before the transaction (connecting, TLS, EHLO, AUTH, even with a 5xx),
// since those say nothing about the mail, only about the server or the
// configuration, which an operator can fix before MaxAttempts runs out.
func isPermanent(err error) bool {
	var se *stageError
	if !errors.As(err, &se) {
		return false
	}
	if se.stage == stageRender {
		return true
	}
	var smtpErr *smtp.SMTPError
	if errors.As(err, &smtpErr) {
		switch se.stage {
		case stageMail, stageRcpt, stageData:
			return smtpErr.Code >= 500 && smtpErr.Code < 600
		}
	}
	return false
}

// auth logs in as Config says. A failed token refresh, or a token the
// server refuses, fails the attempt before the transaction: a temporary
// failure, retried like any other (see isPermanent).
func (s *Sender) auth(ctx context.Context, c *smtp.Client, host string) error {
	cfg := s.cfg
	switch strings.ToLower(cfg.Auth) {
	case oauth.XOAuth2, oauth.OAuthBearer:
		tok, err := cfg.Tokens.Token(ctx)
		if err != nil {
			return fmt.Errorf("%s as %s: %w", cfg.Auth, cfg.Username, err)
		}
		_, portStr, _ := net.SplitHostPort(cfg.Addr)
		port, _ := strconv.Atoi(portStr)
		sc, err := oauth.SASL(cfg.Auth, cfg.Username, tok, host, port)
		if err != nil {
			return err
		}
		if err := c.Auth(sc); err != nil {
			cfg.Tokens.Invalidate()
			return fmt.Errorf("%s as %s: the server refused the access token: %w", strings.ToUpper(cfg.Auth), cfg.Username, err)
		}
		return nil
	}
	return c.Auth(sasl.NewPlainClient("", cfg.Username, cfg.Password))
}

// errShutdown reports an attempt abandoned because Run's context was
// done before the end of DATA was sent: the server discards such a
// transaction, so it is no attempt at all and nothing is recorded.
var errShutdown = errors.New("outbox: attempt abandoned for shutdown")

// Phases of an attempt, for abandoning it on shutdown.
const (
	phaseOpen      int32 = iota // may be abandoned: the server has not got the final dot
	phaseCommitted              // the final dot is going out: finish, whatever happens
	phaseAbandoned              // ctx was done first; the connection is closed
)

// keepIdle is how long a worker keeps its SMTP connection open with
// nothing to send: mails that follow one another share the connection,
// its greeting and its login (an SMTP server may close it sooner: the next
// mail then opens a new one).
const keepIdle = 10 * time.Second

// smtpConn is a worker's SMTP connection, logged in, between two
// transactions (c nil: none).
type smtpConn struct {
	conn net.Conn
	c    *smtp.Client
	used time.Time // when its last transaction ended
}

// close ends the connection, saying QUIT first if quit (bounded by a
// second: a server that does not answer does not hold up a shutdown).
func (sc *smtpConn) close(quit bool) {
	if sc.c == nil {
		return
	}
	if quit {
		sc.conn.SetDeadline(time.Now().Add(time.Second))
		sc.c.Quit()
	}
	sc.c.Close()
	*sc = smtpConn{}
}

// deliver makes one SMTP transaction on sc's connection, or a new one,
// and returns the server's reply to the end of DATA. A connection kept
// from the mail before that fails before the transaction has begun (the
// server closed it meanwhile) is replaced by a new one at once. When ctx
// is done before the final dot is sent, it closes the connection and
// returns errShutdown; after that point it finishes the transaction
// (bounded by Config.Timeout) whatever ctx says.
func (s *Sender) deliver(ctx context.Context, m *message, sc *smtpConn) (string, error) {
	if sc.c != nil && time.Since(sc.used) >= keepIdle {
		sc.close(true)
	}
	reused := sc.c != nil
	for {
		if sc.c == nil {
			if err := s.open(ctx, sc); err != nil {
				return "", err
			}
		}
		reply, err := s.transact(ctx, m, sc)
		if err == nil {
			sc.used = time.Now()
			return reply, nil
		}
		sc.close(false)
		var se *stageError
		if reused && errors.As(err, &se) && se.stage == stageMail && !isPermanent(err) {
			reused = false
			continue
		}
		return reply, err
	}
}

// abandonable runs fn on conn, closing conn if ctx is done first or
// Config.Timeout passes; fn's error is then errShutdown or its own.
func (s *Sender) abandonable(ctx context.Context, conn net.Conn, fn func(phase *atomic.Int32) (string, error)) (string, error) {
	// A hard bound on the whole attempt: the client's own timeouts are per
	// command.
	timeout := time.AfterFunc(s.cfg.Timeout, func() { conn.Close() })
	defer timeout.Stop()
	var phase atomic.Int32
	stopAbandon := context.AfterFunc(ctx, func() {
		if phase.CompareAndSwap(phaseOpen, phaseAbandoned) {
			conn.Close()
		}
	})
	defer stopAbandon()
	reply, err := fn(&phase)
	if err != nil && phase.Load() == phaseAbandoned {
		return "", errShutdown
	}
	return reply, err
}

// open dials the server and says hello and logs in as Config says, into sc.
func (s *Sender) open(ctx context.Context, sc *smtpConn) error {
	cfg := s.cfg
	if err := cfg.authAllowed(); err != nil {
		return &stageError{stageConnect, err}
	}
	host, _, err := net.SplitHostPort(cfg.Addr)
	if err != nil {
		return &stageError{stageConnect, fmt.Errorf("smtp addr %q: %w", cfg.Addr, err)}
	}
	d := net.Dialer{Timeout: cfg.Timeout}
	conn, err := d.DialContext(ctx, "tcp", cfg.Addr)
	if err != nil {
		if ctx.Err() != nil {
			return errShutdown
		}
		return &stageError{stageConnect, err}
	}
	var c *smtp.Client
	_, err = s.abandonable(ctx, conn, func(*atomic.Int32) (string, error) {
		tlsCfg := &tls.Config{}
		if cfg.TLSConfig != nil {
			tlsCfg = cfg.TLSConfig.Clone()
		}
		if tlsCfg.ServerName == "" {
			tlsCfg.ServerName = host
		}
		switch cfg.TLS {
		case TLSNone:
			c = smtp.NewClient(conn)
		case TLSImplicit:
			c = smtp.NewClient(tls.Client(conn, tlsCfg))
		case TLSStartTLS:
			// go-smtp says EHLO as "localhost" before STARTTLS; HeloName is
			// used after it, on the encrypted connection.
			var err error
			if c, err = smtp.NewClientStartTLS(conn, tlsCfg); err != nil {
				return "", &stageError{stageConnect, fmt.Errorf("starttls: %w", err)}
			}
		default:
			return "", &stageError{stageConnect, fmt.Errorf("smtp tls mode %q: use %s, %s or %s", cfg.TLS, TLSNone, TLSStartTLS, TLSImplicit)}
		}
		c.CommandTimeout = cfg.Timeout
		c.SubmissionTimeout = cfg.Timeout
		if err := c.Hello(cfg.HeloName); err != nil {
			return "", &stageError{stageHello, err}
		}
		if cfg.Username != "" {
			if err := s.auth(ctx, c, host); err != nil {
				return "", &stageError{stageAuth, err}
			}
		}
		return "", nil
	})
	if err != nil {
		if c != nil {
			c.Close()
		}
		conn.Close()
		return err
	}
	*sc = smtpConn{conn: conn, c: c}
	return nil
}

// transact sends m in one SMTP transaction on sc's connection.
func (s *Sender) transact(ctx context.Context, m *message, sc *smtpConn) (string, error) {
	c := sc.c
	return s.abandonable(ctx, sc.conn, func(phase *atomic.Int32) (string, error) {
		if err := c.Mail(m.from, nil); err != nil {
			return "", &stageError{stageMail, err}
		}
		for _, r := range m.rcpts {
			if err := c.Rcpt(r, nil); err != nil {
				return "", &stageError{stageRcpt, fmt.Errorf("<%s>: %w", r, err)}
			}
		}
		w, err := c.Data()
		if err != nil {
			return "", &stageError{stageData, err}
		}
		if _, err := w.Write(m.data); err != nil {
			// No final dot: closing the connection makes the server discard
			// the partial message.
			return "", &stageError{stageData, err}
		}
		if !phase.CompareAndSwap(phaseOpen, phaseCommitted) {
			return "", errShutdown
		}
		resp, err := w.CloseWithResponse()
		if err != nil {
			return "", &stageError{stageData, err}
		}
		return resp.StatusText, nil
	})
}
