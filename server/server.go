// Package server is pbem's running server, what 'pbem serve' runs: it
// opens the data directory's store, puts the bus over it, starts the
// engine's runner, the mail intake, outbox and (when no mail host is
// configured) the built-in mail host, joins a cluster when it is a node
// of one, and serves the control socket and the metrics. How the mail
// system follows the log (queued mails to the sender, mailboxes made as
// games are created, unsent mails recovered at start or on a takeover)
// lives here too.
//
// The server does not know the commands: a command handed to it (over the
// control socket, or by another node of a cluster) is run by the
// Config.Control function its caller gives it.
package server

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"time"

	"pbem/bus"
	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
	"pbem/mail/compose"
	"pbem/mail/mailhost"
	"pbem/store"
)

// Config is what a server runs with: the configuration's sections it
// uses, and what its caller gives it.
type Config struct {
	DataDir string
	NATS    NATSConfig
	Engine  EngineConfig
	Mail    MailConfig
	Metrics MetricsConfig
	Cluster ClusterConfig
	Web     WebConfig

	Logger   *slog.Logger
	Registry *engine.Registry
	// Scenarios reads a rule system's built-in scenario; when set, a
	// campaign's games open the battles they wait on as games of their
	// own, and an ended battle carries its result back (play.Links).
	Scenarios func(system, name string) ([]byte, error)
	// Control runs a command handed to the server (nil: none is taken).
	Control ControlFunc
	// Ready, if not nil, is called once everything runs.
	Ready func(*Server)
	// Clock is the time the server hands the games: the time stamped on
	// each mail taken in, and the time the deadlines are checked against
	// (looked at every Engine.Clock, measured on the wall clock). Nil: the
	// wall clock.
	Clock Clock
}

// A Clock tells the time. The server reads it where time enters a game;
// a test gives one it moves on itself, so that a deadline passes without
// the test waiting for it.
type Clock interface {
	Now() time.Time
}

// wallClock is the real time.
type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

// Inside is what a command run inside the server reaches.
type Inside struct {
	// Log is the server's log: appends through it are published, so the
	// engine sees them.
	Log      *Log
	Composer *compose.Composer
	// Secret keys reply tokens (and referees' secrets).
	Secret   []byte
	Mailhost *mailhost.Host // nil: a mail host is configured
	Node     *Node          // nil: a server alone
	// Tick applies the server's clock to every game it runs now, as the
	// clock's own ticks do, and returns once each has written and
	// decided what the time means for it (deadlines passed, reminders,
	// pauses run out), its mails queued: the time it applied and how many
	// games it reached.
	Tick func(ctx context.Context) (time.Time, int, error)
}

// ControlFunc runs one command inside the server. forwarded says another
// node of the cluster handed it here: it runs here, whoever owns its game.
type ControlFunc func(in *Inside, req ControlRequest, forwarded bool) ControlResponse

// Log is the server's event log: the store, with appends committed
// through the bus, which publishes them.
type Log struct {
	*store.Store
	bus *bus.Bus
}

// Do commits r through the bus (see bus.Bus.Do).
func (l *Log) Do(r store.Request) (store.Result, error) { return l.bus.Do(r) }

// DoAll appends rs in one transaction, where it can, and publishes them.
func (l *Log) DoAll(rs []store.Request) ([]store.Result, []error) { return l.bus.DoAll(rs) }

// Append commits events to game through the bus.
func (l *Log) Append(game string, expected uint64, evs ...events.Envelope) (store.Result, error) {
	return l.bus.Append(game, expected, evs...)
}

// Server is pbem's server. New makes one; Run runs it.
type Server struct {
	cfg Config
	lg  *slog.Logger
	reg *engine.Registry
	// Set by Run before it calls Config.Ready.
	log    *Log
	runner *play.Runner
	mail   *mailSystem
	comp   *compose.Composer
	secret []byte
	// mailhostAt is where comp tells players the built-in mail host
	// listens (nil without one), set once the host has started.
	mailhostAt *compose.Mailhost
}

// New returns a server for cfg; nothing runs before Run.
func New(cfg Config) *Server {
	lg := cfg.Logger
	if lg == nil {
		lg = slog.Default()
	}
	if cfg.Clock == nil {
		cfg.Clock = wallClock{}
	}
	return &Server{cfg: cfg, lg: lg, reg: cfg.Registry}
}

// Bus is the running server's bus.
func (s *Server) Bus() *bus.Bus { return s.log.bus }

// Log is the running server's log (appends published).
func (s *Server) Log() *Log { return s.log }

// Composer is the server's mail composer.
func (s *Server) Composer() *compose.Composer { return s.comp }

// Secret is the server's reply-token secret.
func (s *Server) Secret() []byte { return s.secret }

// Mailhost is the built-in mail host (nil when one is configured).
func (s *Server) Mailhost() *mailhost.Host { return s.mail.host }

// WakeIntake has the intake look at the mailbox now.
func (s *Server) WakeIntake() { s.mail.intake.Wake() }

// SocketPath is the control socket of the data directory dir.
func SocketPath(dir string) string { return filepath.Join(dir, "pbem.sock") }

// Run serves until ctx is done, then shuts down in order: stop taking
// commands, stop deliveries, let every actor finish the append in flight,
// confirm what was published, and close the store after its queued
// appends. Config.Ready, if not nil, is called once everything runs.
func (s *Server) Run(ctx context.Context) error {
	if err := os.MkdirAll(s.cfg.DataDir, 0o700); err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	sock := SocketPath(s.cfg.DataDir)
	if c, err := net.DialTimeout("unix", sock, time.Second); err == nil {
		c.Close()
		return fmt.Errorf("another pbem serve is running on %s", s.cfg.DataDir)
	}
	os.Remove(sock) // a stale socket from a server that died
	st, err := OpenStore(s.cfg.DataDir, StartStore, s.cfg.Mail.QuarantineMB, s.lg)
	if err != nil {
		return err
	}
	defer st.Close()
	nc := s.cfg.NATS
	b, err := bus.Open(bus.Config{URLs: nc.URLs, Listen: nc.Listen, User: nc.User, Password: nc.Password, Creds: nc.Creds,
		NKeyFile: nc.NKey, TLSCA: nc.TLSCA, TLSCert: nc.TLSCert, TLSKey: nc.TLSKey}, st, s.lg)
	if err != nil {
		return err
	}
	defer b.Close()
	log := &Log{Store: st, bus: b}
	var cn *Node
	if s.cfg.Cluster.Node != "" {
		if cn, err = s.joinCluster(ctx, b, st); err != nil {
			return err
		}
		defer cn.close()
	}
	mailCtx, stopMail := context.WithCancel(context.Background())
	defer stopMail()
	if s.comp, s.secret, s.mailhostAt, err = newComposer(s.cfg.Mail, s.cfg.Web.pageBase(), st, s.reg); err != nil {
		return err
	}
	met := newMetrics()
	var links *play.Links
	if s.cfg.Scenarios != nil {
		links = &play.Links{Scenario: s.cfg.Scenarios, Welcome: s.comp.Welcome}
		if cn != nil {
			// A campaign and its battles may be held by different nodes:
			// a result goes to the campaign's node, and a battle another
			// node holds is not opened again (server/linkcluster.go).
			links.Hand, links.Exists, links.HandAbandon, links.HandWithdraw = cn.handResult, cn.Created, cn.handAbandon, cn.handWithdraw
		}
	}
	runner := play.NewRunner(log, s.reg, play.RunnerOptions{SnapshotEvery: s.cfg.Engine.SnapshotEvery, Logger: s.lg, Notifier: s.comp,
		Timings: met.timing, Links: links, View: seatsView})
	defer runner.Close()
	mail, err := s.startMail(mailCtx, st, log, runner, met)
	if err != nil {
		return err
	}
	// On an early return the deferred calls stop mail (cancel, then wait:
	// waiting first would wait for ever); on the normal path the shutdown
	// below does it in order, and these do nothing more.
	defer func() {
		stopMail()
		mail.wait()
	}()
	games, err := st.Games()
	if err != nil {
		return err
	}
	heads := make(map[string]uint64, len(games))
	ids := make([]string, 0, len(games))
	for _, g := range games {
		heads[g.Game] = g.Head.Seq
		ids = append(ids, g.Game)
	}
	// Games known at start are loaded by their actors from the store; the
	// subscription brings everything after that.
	met.games.Set(float64(len(games)))
	sub, err := b.Subscribe(func(g string) uint64 { return heads[g] }, func(e *events.Envelope) {
		runner.Deliver(e)
		mail.handle(e)
		met.event(e)
	})
	if err != nil {
		return err
	}
	defer sub.Close()
	if cn != nil {
		// A node decides only the games it owns: each is loaded as the
		// node takes its lease (see joinCluster's Gained), never from
		// what this data directory held before.
		ids = nil
	}
	// Serving begins now; the games are loaded behind it (an input for a
	// game not loaded yet loads it first), and the mails a previous run
	// left unsent are queued as their games load.
	warmed := make(chan struct{})
	go func() {
		defer close(warmed)
		start := time.Now()
		for _, id := range ids {
			runner.Kick(id)
		}
		if n := mail.recover(log, runner, ids); len(ids) > 0 {
			s.lg.Info("every game loaded", "games", len(ids), "mails_requeued", n, "in", time.Since(start).Round(time.Millisecond))
		}
	}()
	defer func() { runner.Close(); <-warmed }()
	in := &Inside{Log: log, Composer: s.comp, Secret: s.secret, Mailhost: mail.host, Node: cn,
		Tick: func(ctx context.Context) (time.Time, int, error) {
			now := s.cfg.Clock.Now()
			n, err := runner.TickAndWait(ctx, now)
			return now, n, err
		}}
	control := func(req ControlRequest, forwarded bool) ControlResponse {
		if s.cfg.Control == nil {
			return ControlResponse{Err: "this server takes no commands"}
		}
		return s.cfg.Control(in, req, forwarded)
	}
	if cn != nil {
		// Before the intake runs: it hands other nodes' mails to them.
		if err := cn.start(sub, log, runner, mail, control); err != nil {
			return err
		}
	}
	mail.start(mailCtx)
	met.watch(st, mail, func() int { return len(runner.Active()) })
	metricsAddr := ""
	if s.cfg.Metrics.Listen != "" {
		stuck, _ := time.ParseDuration(s.cfg.Metrics.StuckAfter)
		if metricsAddr, err = serveMetrics(mailCtx, s.cfg.Metrics.Listen, met, mail, stuck); err != nil {
			return err
		}
	}
	webAddr := ""
	if s.cfg.Web.Listen != "" {
		if webAddr, err = serveWeb(mailCtx, s.cfg.Web.Listen, log, s, s.comp, s.lg); err != nil {
			return err
		}
	}
	l, err := listenControl(sock)
	if err != nil {
		return fmt.Errorf("control socket: %w", err)
	}
	defer os.Remove(sock)
	defer l.Close()
	go serveControl(l, control)
	nats := "embedded, in-process"
	if len(s.cfg.NATS.URLs) > 0 {
		nats = fmt.Sprint(s.cfg.NATS.URLs)
	} else if u := b.Embedded(); u != "" {
		nats = "embedded, " + u
	}
	if cn != nil {
		nats += ", node " + cn.Name()
	}
	s.lg.Info("pbem serving", "data", s.cfg.DataDir, "games", len(games), "nats", nats, "rulesets", s.reg.Names(),
		"control", sock, "metrics", metricsAddr, "web", webAddr)
	clockEvery := s.cfg.Engine.clockEvery()
	clockDone := make(chan struct{})
	go func() {
		// The server's clock enters games only here, as deadline events.
		defer close(clockDone)
		t := time.NewTicker(clockEvery)
		defer t.Stop()
		runner.Tick(s.cfg.Clock.Now())
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				runner.Tick(s.cfg.Clock.Now())
			}
		}
	}()
	s.log, s.runner, s.mail = log, runner, mail
	if s.cfg.Ready != nil {
		s.cfg.Ready(s)
	}
	<-ctx.Done()
	<-clockDone
	s.lg.Info("shutting down: finishing the work in flight")
	l.Close()
	if cn != nil {
		// Stop renewing and taking over, and release the games: other
		// nodes take them at once.
		cn.close()
	}
	sub.Close()
	stopMail()
	mail.wait()
	runner.Close()
	<-warmed
	b.Close()
	if err := st.Close(); err != nil {
		return err
	}
	s.lg.Info("pbem stopped cleanly")
	return nil
}
