package main

import (
	"flag"

	"pbem/bench"
)

// cmdBench measures pbem against raw baselines (see package bench).
func cmdBench(a *app, fs *flag.FlagSet, args []string) error {
	var o bench.Options
	o.Register(fs)
	if _, err := parseArgs(fs, args, 0); err != nil {
		return err
	}
	return bench.Run(bench.Env{Out: a.out, ErrOut: a.errOut, Logger: a.lg, LogFormat: a.cfg.Log.Format, Registry: a.reg,
		Server: a.cfg.server(), Script: demoScript}, o)
}
