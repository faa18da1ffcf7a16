// Package bus rings a doorbell over NATS for every committed event: an
// in-process nats-server by default, or an external server or cluster when
// URLs are configured. Every append goes through Bus.Do, which commits to
// the store and then publishes, on pbem.game.<id>.events, a message that
// says only "game <id> has an event at seq <n>" (a message id of
// <game>/<seq>, a Pbem-Seq header, no body). A subscriber catches up from
// the store and then, at each doorbell, reads from the store what it has
// not seen, filling any gap and dropping duplicates, so it sees each event
// exactly once and in order.
//
// bbolt is the only system of record, and NATS is never trusted: the
// events a subscriber delivers are read from the store, so a message
// forged on pbem's subjects changes nothing and sends nothing (at most it
// makes a subscriber look at the store early), and a process listening
// in learns no event's content — no reply key, no referee's secret. The
// embedded server's optional listener requires a user and password;
// an external server can be reached with a user and password, an NKey or
// a credentials file, over TLS. A "published up to" marker per game,
// advanced only once the server has confirmed the messages (a flush round
// trip), lets a restarted or reconnected pbem republish what NATS missed.
package bus

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"golang.org/x/crypto/bcrypt"

	"pbem/events"
	"pbem/internal/logx"
	"pbem/store"
)

// Subject returns the subject game's events are published on.
func Subject(game string) string { return "pbem.game." + game + ".events" }

const allSubjects = "pbem.game.*.events"

// SeqHeader carries the seq a doorbell rings for.
const SeqHeader = "Pbem-Seq"

// gameOf returns the game a subject names.
func gameOf(subject string) (string, bool) {
	g, ok := strings.CutPrefix(subject, "pbem.game.")
	if !ok {
		return "", false
	}
	g, ok = strings.CutSuffix(g, ".events")
	return g, ok && g != "" && !strings.ContainsAny(g, ".*> ")
}

// Config says which NATS to use.
type Config struct {
	// URLs of an external server or cluster; empty runs an embedded server.
	URLs []string
	// Listen is the embedded server's client address ("127.0.0.1:4222"),
	// for external consumers; empty keeps it in-process only.
	Listen string
	// Name identifies this connection to the server.
	Name string
	// MarkEvery is how often published markers are confirmed and stored
	// (default 200ms).
	MarkEvery time.Duration
	// ResyncEvery is how often subscribers compare their positions with
	// the store, catching anything NATS dropped (default 2s).
	ResyncEvery time.Duration
	// User and Password authenticate to an external server. With Listen,
	// they are what the embedded server requires of every client (and
	// Open refuses a listener without them).
	User, Password string
	// Creds (a credentials file: JWT and NKey seed) or NKeyFile (a file
	// holding an NKey seed) authenticate to an external server instead.
	Creds, NKeyFile string
	// TLSCA verifies an external server's certificate; TLSCert and TLSKey
	// are the client certificate for a server that asks for one.
	TLSCA, TLSCert, TLSKey string
}

// Appender commits an append request durably (the store itself, or a
// cluster node that replicates it first).
type Appender interface {
	Do(store.Request) (store.Result, error)
}

// authOptions are the connection's credentials and TLS settings.
func (c Config) authOptions() []nats.Option {
	var opts []nats.Option
	if c.User != "" {
		opts = append(opts, nats.UserInfo(c.User, c.Password))
	}
	if c.Creds != "" {
		opts = append(opts, nats.UserCredentials(c.Creds))
	}
	if c.TLSCA != "" {
		opts = append(opts, nats.RootCAs(c.TLSCA))
	}
	if c.TLSCert != "" {
		opts = append(opts, nats.ClientCert(c.TLSCert, c.TLSKey))
	}
	return opts
}

// Bus is a connection to NATS bound to the store. It is not the store:
// it commits appends (Do, Append) and publishes them, and reads from the
// store for its subscribers; whoever reads the log holds the store.
type Bus struct {
	st  *store.Store
	cfg Config
	nc  *nats.Conn
	srv *server.Server
	lg  *slog.Logger
	// app commits appends: the store, unless SetAppender changed it.
	app Appender

	mu      sync.Mutex
	sent    map[string]uint64 // published, not yet confirmed by a flush
	marked  map[string]uint64 // confirmed and stored
	subs    []*Subscription
	stop    chan struct{}
	done    chan struct{}
	closeMu sync.Once
}

// Open starts (or connects to) NATS and returns a bus over st.
func Open(cfg Config, st *store.Store, lg *slog.Logger) (*Bus, error) {
	if lg == nil {
		lg = slog.Default()
	}
	if cfg.MarkEvery <= 0 {
		cfg.MarkEvery = 200 * time.Millisecond
	}
	if cfg.ResyncEvery <= 0 {
		cfg.ResyncEvery = 2 * time.Second
	}
	if cfg.Name == "" {
		cfg.Name = "pbem"
	}
	b := &Bus{st: st, app: st, cfg: cfg, lg: lg.With("component", "bus"), sent: map[string]uint64{}, marked: map[string]uint64{},
		stop: make(chan struct{}), done: make(chan struct{})}
	gs, err := st.Games()
	if err != nil {
		return nil, err
	}
	for _, g := range gs {
		b.marked[g.Game] = g.Published
	}
	rc := newReach(cfg.URLs)
	opts := []nats.Option{
		nats.Name(cfg.Name),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(250 * time.Millisecond),
		nats.RetryOnFailedConnect(true),
		nats.ReconnectBufSize(64 << 20),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) { b.lg.Warn("NATS disconnected", "urls", rc.urls, "err", err) }),
		nats.ReconnectHandler(func(c *nats.Conn) {
			rc.reset()
			b.lg.Info("NATS reconnected", "url", c.ConnectedUrlRedacted())
			go b.afterReconnect()
		}),
		nats.ErrorHandler(func(_ *nats.Conn, s *nats.Subscription, err error) { b.lg.Warn("NATS error", "err", err) }),
	}
	if len(cfg.URLs) == 0 {
		if b.srv, err = startEmbedded(cfg, b.lg); err != nil {
			return nil, err
		}
		opts = append(opts, nats.InProcessServer(b.srv))
		if cfg.Listen != "" {
			opts = append(opts, nats.UserInfo(cfg.User, cfg.Password))
		}
		b.nc, err = nats.Connect("", opts...)
	} else {
		opts = append(opts, cfg.authOptions()...)
		opts = append(opts, rc.options(b)...)
		if cfg.NKeyFile != "" {
			nk, err := nats.NkeyOptionFromSeed(cfg.NKeyFile)
			if err != nil {
				return nil, fmt.Errorf("nats nkey %s: %w", cfg.NKeyFile, err)
			}
			opts = append(opts, nk)
		}
		b.nc, err = nats.Connect(strings.Join(cfg.URLs, ","), opts...)
	}
	if err != nil {
		b.shutdownServer()
		return nil, fmt.Errorf("connect to NATS: %w", err)
	}
	go b.markLoop()
	// Whatever an earlier run committed but never confirmed on NATS goes out now.
	if err := b.Republish(); err != nil {
		b.lg.Warn("republish at start", "err", err)
	}
	return b, nil
}

func startEmbedded(cfg Config, lg *slog.Logger) (*server.Server, error) {
	listen := cfg.Listen
	opts := &server.Options{ServerName: "pbem-embedded", NoSigs: true, DontListen: listen == ""}
	if listen != "" {
		// Any local process can reach a listener: it requires a login.
		if cfg.User == "" || cfg.Password == "" {
			return nil, errors.New("the embedded NATS listener needs a user and password (nats.user, nats.password): without them any local process could watch and ring pbem's bus")
		}
		// The server keeps only a bcrypt hash of the password (and so does
		// not warn of a plain one). The lowest cost: the password itself
		// sits in pbem's configuration, so a slow hash would buy nothing
		// but a slow login for every client.
		hash, err := bcrypt.GenerateFromPassword([]byte(cfg.Password), bcrypt.MinCost)
		if err != nil {
			return nil, fmt.Errorf("nats password: %w", err)
		}
		opts.Username, opts.Password = cfg.User, string(hash)
		host, port, err := net.SplitHostPort(listen)
		if err != nil {
			return nil, fmt.Errorf("nats listen address %q: %w", listen, err)
		}
		opts.Host = host
		if opts.Port, err = strconv.Atoi(port); err != nil {
			return nil, fmt.Errorf("nats listen port %q: %w", port, err)
		}
		if opts.Port == 0 {
			opts.Port = server.RANDOM_PORT
		}
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("embedded NATS: %w", err)
	}
	srv.SetLoggerV2(logx.NATS{L: lg.With("component", "nats-server")}, false, false, false)
	go srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		srv.Shutdown()
		return nil, errors.New("embedded NATS did not become ready within 10s")
	}
	if listen != "" {
		lg.Info("embedded NATS listening", "url", srv.ClientURL())
	} else {
		lg.Info("embedded NATS running in-process")
	}
	return srv, nil
}

// Embedded returns the embedded server's client URL, or "" when the
// server is in-process only or external.
func (b *Bus) Embedded() string {
	if b.srv == nil || b.cfg.Listen == "" {
		return ""
	}
	return b.srv.ClientURL()
}

// Conn returns the NATS connection.
func (b *Bus) Conn() *nats.Conn { return b.nc }

// SetAppender makes every append go through app (a cluster node, which
// replicates before it commits to the store) instead of the store alone.
// Call it before anything appends.
func (b *Bus) SetAppender(app Appender) { b.app = app }

// Do commits r (to the store, through the appender), then publishes the
// committed events.
func (b *Bus) Do(r store.Request) (store.Result, error) {
	res, err := b.app.Do(r)
	if err == nil && !res.Duplicate {
		b.publish(res.Events)
	}
	return res, err
}

// DoAll commits rs in one transaction when the appender can (the store
// can; else one after the other) and publishes what each appended.
func (b *Bus) DoAll(rs []store.Request) ([]store.Result, []error) {
	var res []store.Result
	var errs []error
	if all, ok := b.app.(interface {
		DoAll([]store.Request) ([]store.Result, []error)
	}); ok {
		res, errs = all.DoAll(rs)
	} else {
		res, errs = make([]store.Result, len(rs)), make([]error, len(rs))
		for i, r := range rs {
			res[i], errs[i] = b.app.Do(r)
		}
	}
	for i := range rs {
		if errs[i] == nil && !res[i].Duplicate {
			b.publish(res[i].Events)
		}
	}
	return res, errs
}

// Append commits events to game and publishes them (see store.Store.Append).
func (b *Bus) Append(game string, expected uint64, evs ...events.Envelope) (store.Result, error) {
	return b.Do(store.Request{Game: game, Expected: expected, Events: evs})
}

// publish rings one doorbell for the events one request appended (they
// are of one game): its last seq. A subscriber reads from the store every
// event past what it has, so a doorbell for each event would only make
// it look again; a decision appends several (the order, its mails), and
// each publish takes the NATS connection's lock.
func (b *Bus) publish(es []events.Envelope) {
	if len(es) > 1 {
		es = es[len(es)-1:]
	}
	for i := range es {
		e := &es[i]
		// A doorbell: where to look, never what is there.
		m := nats.NewMsg(Subject(e.Game))
		seq := strconv.FormatUint(e.Seq, 10)
		m.Header.Set(nats.MsgIdHdr, e.Game+"/"+seq)
		m.Header.Set(SeqHeader, seq)
		if err := b.nc.PublishMsg(m); err != nil {
			// Not lost: the marker stays behind, and Republish sends it later.
			b.lg.Warn("publish failed; will republish", "game", e.Game, "seq", e.Seq, "err", err)
			return
		}
		b.mu.Lock()
		if e.Seq > b.sent[e.Game] {
			b.sent[e.Game] = e.Seq
		}
		b.mu.Unlock()
	}
}

// Republish rings, for every game whose confirmed marker is behind its
// head, one doorbell for the head: a subscriber reads everything up to it
// from the store.
func (b *Bus) Republish() error {
	gs, err := b.st.Games()
	if err != nil {
		return err
	}
	for _, g := range gs {
		b.mu.Lock()
		from := b.marked[g.Game]
		b.mu.Unlock()
		if g.Head.Seq <= from {
			continue
		}
		b.publish([]events.Envelope{{Game: g.Game, Seq: g.Head.Seq}})
	}
	return nil
}

func (b *Bus) afterReconnect() {
	if err := b.Republish(); err != nil {
		b.lg.Warn("republish after reconnect", "err", err)
	}
	b.mu.Lock()
	subs := append([]*Subscription(nil), b.subs...)
	b.mu.Unlock()
	for _, s := range subs {
		s.Resync()
	}
}

// markLoop confirms published events with a flush round trip and stores
// the markers.
func (b *Bus) markLoop() {
	defer close(b.done)
	t := time.NewTicker(b.cfg.MarkEvery)
	defer t.Stop()
	for {
		select {
		case <-b.stop:
			b.mark()
			return
		case <-t.C:
			b.mark()
		}
	}
}

func (b *Bus) mark() {
	b.mu.Lock()
	pending := map[string]uint64{}
	for g, s := range b.sent {
		if s > b.marked[g] {
			pending[g] = s
		}
	}
	b.mu.Unlock()
	if len(pending) == 0 {
		return
	}
	// Everything published before the flush has reached the server once it returns.
	if err := b.nc.FlushTimeout(2 * time.Second); err != nil {
		return
	}
	if err := b.st.SetPublished(pending); err != nil {
		b.lg.Warn("storing published markers", "err", err)
		return
	}
	b.mu.Lock()
	for g, s := range pending {
		if s > b.marked[g] {
			b.marked[g] = s
		}
	}
	b.mu.Unlock()
}

// Close stops subscribers, confirms what was published, closes the
// connection and stops an embedded server. It does not close the store.
func (b *Bus) Close() {
	b.closeMu.Do(func() {
		b.mu.Lock()
		subs := b.subs
		b.subs = nil
		b.mu.Unlock()
		for _, s := range subs {
			s.Close()
		}
		close(b.stop)
		<-b.done
		b.nc.Close()
		b.shutdownServer()
	})
}

func (b *Bus) shutdownServer() {
	if b.srv != nil {
		b.srv.Shutdown()
		b.srv.WaitForShutdown()
	}
}
