package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"
)

// errNoServer is the answer of a command that acts on a running server
// when none holds the data directory.
var errNoServer = errors.New("this command needs a running 'pbem serve' on this data directory")

// cmdTick applies the running server's clock to every game it runs, as
// its own ticks do every engine.clock, and returns once what the time
// means (deadlines passed and their defaults, reminders, pauses run out)
// is decided and its mails queued. A script, or a test on a moved clock,
// then knows that what is not in the log did not happen. A node of a
// cluster ticks the games it owns.
func cmdTick(a *app, fs *flag.FlagSet, args []string) error {
	wait := fs.Duration("wait", time.Minute, "how long to wait for the games")
	if _, err := parseArgs(fs, args, 0); err != nil {
		return err
	}
	if a.tick == nil {
		return errNoServer
	}
	ctx, cancel := context.WithTimeout(context.Background(), *wait)
	defer cancel()
	now, n, err := a.tick(ctx)
	if err != nil {
		return fmt.Errorf("applying the clock: %w", err)
	}
	games := "games"
	if n == 1 {
		games = "game"
	}
	fmt.Fprintf(a.out, "The clock (%s) is applied to %d %s.\n", now.UTC().Format("2006-01-02 15:04:05 UTC"), n, games)
	return nil
}
