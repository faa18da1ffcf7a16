package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"reflect"
	"syscall"
	"time"

	"pbem/bus"
	"pbem/engine/play"
	"pbem/events"
)

func cmdServe(a *app, fs *flag.FlagSet, args []string) error {
	node := fs.String("node", "", "join the NATS cluster at nats.urls as this node (overrides cluster.node)")
	if _, err := parseArgs(fs, args, 0); err != nil {
		return err
	}
	if *node != "" {
		a.cfg.Cluster.Node = *node
		if errs := a.cfg.crossCheck(); len(errs) > 0 {
			return errors.Join(errs...)
		}
		if err := checkValue("nodename", reflect.ValueOf(*node)); err != nil {
			return fmt.Errorf("--node %q: %w", *node, err)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(ctx, a, nil)
}

// server is a running serve, for whoever started it in-process (the demo).
type server struct {
	bus    *bus.Bus
	runner *play.Runner
	mail   *mailSystem
}

// serve runs until ctx is done, then shuts down in order: stop taking
// commands, stop deliveries, let every actor finish the append in flight,
// confirm what was published, and close the store after its queued
// appends. ready, if not nil, is called once everything runs.
func serve(ctx context.Context, a *app, ready func(*server)) error {
	if err := os.MkdirAll(a.cfg.DataDir, 0o700); err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	sock := a.socketPath()
	if c, err := net.DialTimeout("unix", sock, time.Second); err == nil {
		c.Close()
		return fmt.Errorf("another pbem serve is running on %s", a.cfg.DataDir)
	}
	os.Remove(sock) // a stale socket from a server that died
	st, err := a.openStore(startStore)
	if err != nil {
		return err
	}
	defer st.Close()
	a.log = st // for the composer's secret; commands get the bus below
	nc := a.cfg.NATS
	b, err := bus.Open(bus.Config{URLs: nc.URLs, Listen: nc.Listen, User: nc.User, Password: nc.Password, Creds: nc.Creds,
		NKeyFile: nc.NKey, TLSCA: nc.TLSCA, TLSCert: nc.TLSCert, TLSKey: nc.TLSKey}, st, a.lg)
	if err != nil {
		return err
	}
	defer b.Close()
	var cn *clusterNode
	if a.cfg.Cluster.Node != "" {
		if cn, err = joinCluster(ctx, a, b, st); err != nil {
			return err
		}
		defer cn.close()
	}
	mailCtx, stopMail := context.WithCancel(context.Background())
	defer stopMail()
	if _, err := a.composer(); err != nil {
		return err
	}
	met := newMetrics()
	runner := play.NewRunner(b, a.reg, play.RunnerOptions{SnapshotEvery: a.cfg.Engine.SnapshotEvery, Logger: a.lg, Notifier: a.comp,
		Timings: met.timing})
	defer runner.Close()
	mail, err := startMail(mailCtx, a, b, runner, met)
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
		if n := mail.recover(b, runner, ids); len(ids) > 0 {
			a.lg.Info("every game loaded", "games", len(ids), "mails_requeued", n, "in", time.Since(start).Round(time.Millisecond))
		}
	}()
	defer func() { runner.Close(); <-warmed }()
	ctl := &app{cfg: a.cfg, out: a.out, errOut: a.errOut, lg: a.lg, reg: a.reg, log: b, comp: a.comp, secret: a.secret, mailhost: mail.host, node: cn}
	if cn != nil {
		// Before the intake runs: it hands other nodes' mails to them.
		if err := cn.start(a, sub, runner, mail, ctl); err != nil {
			return err
		}
	}
	mail.start(mailCtx)
	met.watch(st, mail, func() int { return len(runner.Active()) })
	metricsAddr := ""
	if a.cfg.Metrics.Listen != "" {
		stuck, _ := time.ParseDuration(a.cfg.Metrics.StuckAfter)
		if metricsAddr, err = serveMetrics(mailCtx, a.cfg.Metrics.Listen, met, mail, stuck); err != nil {
			return err
		}
	}
	l, err := listenControl(sock)
	if err != nil {
		return fmt.Errorf("control socket: %w", err)
	}
	defer os.Remove(sock)
	defer l.Close()
	go serveControl(l, ctl)
	nats := "embedded, in-process"
	if len(a.cfg.NATS.URLs) > 0 {
		nats = fmt.Sprint(a.cfg.NATS.URLs)
	} else if u := b.Embedded(); u != "" {
		nats = "embedded, " + u
	}
	if cn != nil {
		nats += ", node " + cn.Name()
	}
	a.lg.Info("pbem serving", "data", a.cfg.DataDir, "games", len(games), "nats", nats, "rulesets", a.reg.Names(),
		"control", sock, "metrics", metricsAddr)
	clockEvery := a.cfg.Engine.clockEvery()
	clockDone := make(chan struct{})
	go func() {
		// The server's clock enters games only here, as deadline events.
		defer close(clockDone)
		t := time.NewTicker(clockEvery)
		defer t.Stop()
		runner.Tick(time.Now())
		for {
			select {
			case <-ctx.Done():
				return
			case now := <-t.C:
				runner.Tick(now)
			}
		}
	}()
	if ready != nil {
		ready(&server{bus: b, runner: runner, mail: mail})
	}
	<-ctx.Done()
	<-clockDone
	a.lg.Info("shutting down: finishing the work in flight")
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
	a.lg.Info("pbem stopped cleanly")
	return nil
}
