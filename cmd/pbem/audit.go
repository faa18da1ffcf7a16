package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"strings"

	"pbem/engine/play"
	"pbem/events"
	"pbem/report"
)

// errAudit marks an audit that found something wrong (exit status 1); the
// findings are already printed.
var errAudit = errors.New("the audit found problems")

func cmdAudit(a *app, fs *flag.FlagSet, args []string) error {
	withSecret := fs.Bool("with-secret", false, "before the game ends, check the dice against the server's stored seed (operator only)")
	quiet := fs.Bool("quiet", false, "omit the timeline")
	game, err := a.gameArg(fs, args)
	if err != nil {
		return err
	}
	log, err := a.open()
	if err != nil {
		return err
	}
	var seed []byte
	if *withSecret {
		if seed, err = log.Secret(game); err != nil {
			return err
		}
	}
	// The head is read first: a running server may append (a mail sent)
	// while the audit reads, which makes the log longer than the head
	// read, never shorter; a log shorter than its head lost events.
	h, err := log.Head(game)
	if err != nil {
		return fmt.Errorf("audit %s: %w", game, err)
	}
	rep, err := play.Audit(log, a.reg, game, seed)
	if err != nil {
		return err
	}
	if rep.Chain == nil && h.Seq > uint64(rep.Events) {
		rep.Chain = &events.ChainError{Game: game, Seq: uint64(rep.Events) + 1,
			Reason: fmt.Sprintf("head says %d events, log holds %d", h.Seq, rep.Events)}
	}
	report.PrintAudit(a.out, rep, h, *quiet)
	if rep.OK() {
		return nil
	}
	var what []string
	if rep.Chain != nil {
		what = append(what, fmt.Sprintf("the hash chain is broken at seq %d", rep.Chain.Seq))
	}
	if n := len(rep.Differences); n > 0 {
		what = append(what, fmt.Sprintf("%d decision(s) differ", n))
	}
	if n := len(rep.BadDice); n > 0 {
		what = append(what, fmt.Sprintf("%d dice problem(s)", n))
	}
	return fmt.Errorf("%w in game %s: %s", errAudit, game, strings.Join(what, ", "))
}

func cmdExport(a *app, fs *flag.FlagSet, args []string) error {
	format := fs.String("format", "jsonl", "jsonl (one JSON object per event), text (a readable campaign report) or html (the report as a web page)")
	as := fs.String("as", "", "export what this player (id or side), observer or referee could see at each step (default: everything, for the operator)")
	withSecrets := fs.Bool("with-secrets", false, "keep the credentials in stored mails (reply keys and addresses, referee secrets): a full backup; keep it safe")
	game, err := a.gameArg(fs, args)
	if err != nil {
		return err
	}
	if *format != "jsonl" && *format != "text" && *format != "html" {
		return fmt.Errorf("%w: --format %q: want jsonl, text or html", errUsage, *format)
	}
	log, err := a.open()
	if err != nil {
		return err
	}
	g, err := play.Replay(log, a.reg, game, 0)
	if err != nil {
		return err
	}
	v, who, err := viewerArg(g, *as)
	if err != nil {
		return err
	}
	x := report.Exporter{Log: log, Reg: a.reg, Game: game, Viewer: v, Who: who, Cut: *as != ""}
	if *withSecrets {
		fmt.Fprintln(a.errOut, "pbem export --with-secrets: this export holds every reply key and referee secret of the game's mails; whoever has it can act as its players and referees")
	} else {
		comp, err := a.composer()
		if err != nil {
			return err
		}
		x.Redact = report.Redactor(comp.Credentials(g))
	}
	w := bufio.NewWriter(a.out)
	switch *format {
	case "jsonl":
		err = x.JSONL(w)
	case "html":
		err = x.HTML(w)
	default:
		err = x.Text(w)
	}
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	return err
}
