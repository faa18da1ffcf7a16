package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"reflect"
	"syscall"

	"pbem/server"
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

// serveClock is the clock serve hands the server: nil, the wall clock.
// The end-to-end tests of deadlines run serve in their own binary with a
// clock they move on themselves.
var serveClock server.Clock

// serve runs the server of a's configuration until ctx is done (see
// server.Server.Run); the commands handed to it run as a's (see control).
// ready, if not nil, is called once everything runs.
func serve(ctx context.Context, a *app, ready func(*server.Server)) error {
	cfg := a.cfg.server()
	cfg.Logger, cfg.Registry, cfg.Control, cfg.Ready = a.lg, a.reg, a.serverControl, ready
	cfg.Scenarios = builtinScenario
	if serveClock != nil {
		cfg.Clock = serveClock
	}
	return server.New(cfg).Run(ctx)
}
