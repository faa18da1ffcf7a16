package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"pbem/bus"
	"pbem/engine/play"
	"pbem/events"
)

func cmdServe(a *app, fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return err
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
	b, err := bus.Open(bus.Config{URLs: a.cfg.NATS.URLs, Listen: a.cfg.NATS.Listen}, st, a.lg)
	if err != nil {
		return err
	}
	defer b.Close()
	mailCtx, stopMail := context.WithCancel(context.Background())
	defer stopMail()
	if _, err := a.composer(); err != nil {
		return err
	}
	runner := play.NewRunner(b, a.reg, play.RunnerOptions{SnapshotEvery: a.cfg.Engine.SnapshotEvery, Logger: a.lg, Notifier: a.comp})
	defer runner.Close()
	mail, err := startMail(mailCtx, a, b, runner)
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
	if err := mail.prepare(st, ids); err != nil {
		return err
	}
	// Games known at start are loaded by their actors from the store; the
	// subscription brings everything after that.
	sub, err := b.Subscribe(func(g string) uint64 { return heads[g] }, func(e *events.Envelope) {
		runner.Deliver(e)
		mail.handle(e)
	})
	if err != nil {
		return err
	}
	defer sub.Close()
	for _, id := range ids {
		runner.Kick(id)
	}
	if err := mail.recover(b, runner, ids); err != nil {
		return err
	}
	mail.start(mailCtx)
	l, err := net.Listen("unix", sock)
	if err != nil {
		return fmt.Errorf("control socket: %w", err)
	}
	os.Chmod(sock, 0o600)
	defer os.Remove(sock)
	defer l.Close()
	go serveControl(l, &app{cfg: a.cfg, out: a.out, errOut: a.errOut, lg: a.lg, reg: a.reg, log: b, comp: a.comp, secret: a.secret})
	nats := "embedded, in-process"
	if len(a.cfg.NATS.URLs) > 0 {
		nats = fmt.Sprint(a.cfg.NATS.URLs)
	} else if u := b.Embedded(); u != "" {
		nats = "embedded, " + u
	}
	a.lg.Info("pbem serving", "data", a.cfg.DataDir, "games", len(games), "nats", nats, "rulesets", a.reg.Names(),
		"control", sock)
	clockEvery, err := a.cfg.Engine.clockEvery()
	if err != nil {
		return err
	}
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
	sub.Close()
	stopMail()
	mail.wait()
	runner.Close()
	b.Close()
	if err := st.Close(); err != nil {
		return err
	}
	a.lg.Info("pbem stopped cleanly")
	return nil
}
