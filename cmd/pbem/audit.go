package main

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"pbem/engine"
	"pbem/events"
	"pbem/store"
)

// errAudit marks an audit that found something wrong (exit status 1); the
// findings are already printed.
var errAudit = errors.New("the audit found problems")

func cmdAudit(a *app, fs *flag.FlagSet, args []string) error {
	withSecret := fs.Bool("with-secret", false, "before the game ends, check the dice against the server's stored seed (operator only)")
	quiet := fs.Bool("quiet", false, "omit the timeline")
	game, err := gameArg(fs, args)
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
	rep, err := engine.Audit(log, a.reg, game, seed)
	if err != nil {
		return err
	}
	h, err := log.Head(game)
	if err != nil {
		return fmt.Errorf("audit %s: %w", game, err)
	}
	if rep.Chain == nil && h.Seq != uint64(rep.Events) {
		rep.Chain = &events.ChainError{Game: game, Seq: uint64(rep.Events) + 1,
			Reason: fmt.Sprintf("head says %d events, log holds %d", h.Seq, rep.Events)}
	}
	printAudit(a.out, rep, h, *quiet)
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

func printAudit(w io.Writer, rep *engine.AuditReport, h store.Head, quiet bool) {
	fmt.Fprintf(w, "audit of game %s: re-decided with %s %s (the log names %s)\n",
		rep.Game, rep.Ruleset, rep.RulesetVersion, strings.Join(rep.LoggedVersions, ", "))
	if rep.Chain != nil {
		fmt.Fprintf(w, "hash chain: BROKEN at seq %d: %s\n  %d events intact before it; nothing from seq %d on was audited\n",
			rep.Chain.Seq, rep.Chain.Reason, rep.Verified, rep.Chain.Seq)
	} else {
		fmt.Fprintf(w, "hash chain: %d events, intact; head %s\n", rep.Verified, h.Hash.Hex())
	}
	if len(rep.Differences) == 0 {
		fmt.Fprintf(w, "decisions: all %d re-decided alike\n", rep.Accepted+rep.Rejected)
	} else {
		fmt.Fprintf(w, "decisions: %d of %d re-decided differently:\n", len(rep.Differences), rep.Accepted+rep.Rejected)
		for _, d := range rep.Differences {
			fmt.Fprintf(w, "  seq %d (input %d, %s)", d.Seq, d.InputSeq, d.Input)
			if d.Note != "" {
				fmt.Fprintf(w, ": %s", d.Note)
			}
			fmt.Fprintf(w, "\n    logged:\n%s\n", indent(d.Logged, "      "))
			if d.Redecided != "" {
				fmt.Fprintf(w, "    re-decided:\n%s\n", indent(d.Redecided, "      "))
			}
		}
	}
	if rep.VersionMismatches > 0 {
		fmt.Fprintf(w, "versions: %d decision(s) were logged by another ruleset version than %s; each was still compared\n",
			rep.VersionMismatches, rep.RulesetVersion)
	}
	source := "the server's stored seed"
	if rep.Seed == "revealed" {
		source = "the seed revealed at the end of the game"
	}
	switch {
	case rep.Seed == "":
		fmt.Fprintf(w, "dice: %d rolls; the seed is not revealed yet, so they can be checked when the game ends (or with --with-secret)\n", rep.Dice)
	case len(rep.BadDice) > 0:
		fmt.Fprintf(w, "dice: %s: %d problem(s), %d of %d rolls verify:\n  %s\n", source, len(rep.BadDice), rep.DiceVerified, rep.Dice,
			strings.Join(rep.BadDice, "\n  "))
	default:
		fmt.Fprintf(w, "dice: %s matches the commitment; all %d rolls verify\n", source, rep.DiceVerified)
	}
	fmt.Fprintf(w, "counts: %d events, %d inputs (%d accepted, %d rejected, %d undecided), %d dice\n",
		rep.Events, rep.Inputs, rep.Accepted, rep.Rejected, rep.Undecided, rep.Dice)
	if !quiet {
		fmt.Fprintln(w, "\ntimeline:")
		for _, l := range rep.Timeline {
			fmt.Fprintln(w, "  "+l)
		}
	}
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

func cmdExport(a *app, fs *flag.FlagSet, args []string) error {
	format := fs.String("format", "jsonl", "jsonl (one JSON object per event) or text (a readable campaign report)")
	game, err := gameArg(fs, args)
	if err != nil {
		return err
	}
	if *format != "jsonl" && *format != "text" {
		return fmt.Errorf("%w: --format %q: want jsonl or text", errUsage, *format)
	}
	log, err := a.open()
	if err != nil {
		return err
	}
	w := bufio.NewWriter(a.out)
	if *format == "jsonl" {
		err = exportJSONL(w, log, game)
	} else {
		err = exportText(w, log, a.reg, game)
	}
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	return err
}

// exportedEvent is one line of the jsonl export.
type exportedEvent struct {
	Seq     uint64 `json:"seq"`
	Type    string `json:"type"`
	At      string `json:"at"`
	Key     string `json:"key,omitempty"`
	Prev    string `json:"prev"`
	Hash    string `json:"hash"`
	Payload any    `json:"payload"`
}

func exportJSONL(w io.Writer, log logStore, game string) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return log.Read(game, 1, func(e *events.Envelope) error {
		p, err := events.Decode(e)
		if err != nil {
			return fmt.Errorf("export %s: %w", game, err)
		}
		err = enc.Encode(exportedEvent{Seq: e.Seq, Type: e.Type, At: e.Time().Format(time.RFC3339Nano), Key: e.Key,
			Prev: e.Prev.Hex(), Hash: e.Hash.Hex(), Payload: jsonPayload(p)})
		if err != nil {
			return fmt.Errorf("export %s seq %d: %w", game, e.Seq, err)
		}
		return nil
	})
}

// jsonArg is a fact's argument in JSON, in the fact's own order.
type jsonArg struct {
	Key   string `json:"key"`
	Value any    `json:"value"`
}

type jsonFact struct {
	Kind string    `json:"kind"`
	Args []jsonArg `json:"args,omitempty"`
	Text string    `json:"text"`
}

func jsonFacts(fs []events.Fact) []jsonFact {
	out := make([]jsonFact, len(fs))
	for i, f := range fs {
		out[i] = jsonFact{Kind: f.Kind, Text: engine.FactLine(f)}
		for _, a := range f.Args {
			var v any
			switch a.Kind {
			case events.ArgInt:
				v = a.Int
			case events.ArgStr:
				v = a.Str
			case events.ArgBool:
				v = a.Int == 1
			case events.ArgInts:
				v = a.Ints
			case events.ArgStrs:
				v = a.Strs
			}
			out[i].Args = append(out[i].Args, jsonArg{Key: a.Key, Value: v})
		}
	}
	return out
}

// jsonPayload is p as JSON shows it best: texts as text, hashes and seeds
// in hex, facts as ordered arguments; everything else as the struct is.
func jsonPayload(p events.Payload) any {
	switch p := p.(type) {
	case *events.GameCreated:
		type plain events.GameCreated
		return struct {
			*plain
			Scenario       string
			SeedCommitment string
		}{(*plain)(p), string(p.Scenario), p.SeedCommitment.Hex()}
	case *events.OrderAccepted:
		type plain events.OrderAccepted
		return struct {
			*plain
			Facts []jsonFact
		}{(*plain)(p), jsonFacts(p.Facts)}
	case *events.GameEnded:
		type plain events.GameEnded
		return struct {
			*plain
			Seed string
		}{(*plain)(p), hex.EncodeToString(p.Seed)}
	}
	return p
}

// exportText writes a readable campaign report: the timeline, the board
// (referee's view) after each turn.ended fact if the ruleset has turns,
// else after every 20th decision, and the final board.
func exportText(w io.Writer, log logStore, reg *engine.Registry, game string) error {
	const every = 20
	type item struct {
		text   string
		byTurn bool // a board after a turn ended
		byN    bool // a board after the 20th, 40th … decision
	}
	var items []item
	g := &engine.Game{ID: game}
	board := func(title string) string {
		b := g.Rules.Render(g.Rules.View(g.State, engine.Viewer{Referee: true}))
		return fmt.Sprintf("\n=== %s ===\n%s\n", title, strings.TrimRight(b.Full, "\n"))
	}
	decisions, turns := 0, 0
	err := log.Read(game, 1, func(e *events.Envelope) error {
		var line string
		var turnEnded []int64
		decision := e.Type == events.TypeOrderAccepted || e.Type == events.TypeOrderRejected
		if decision || e.Type == events.TypeGameEnded {
			p, err := events.Decode(e)
			if err != nil {
				return fmt.Errorf("export %s: %w", game, err)
			}
			switch p := p.(type) {
			case *events.OrderAccepted:
				for _, f := range p.Facts {
					if f.Kind == "turn.ended" {
						turnEnded = append(turnEnded, f.Int("turn"))
					}
				}
			case *events.GameEnded:
				line = fmt.Sprintf("seq %d  game ended: %s; winner %q", e.Seq, p.Reason, p.Winner)
			}
			if decision && len(g.Pending) > 0 {
				line = engine.TimelineLine(&g.Pending[0], p)
			}
		}
		if err := g.Apply(reg, e); err != nil {
			return fmt.Errorf("export %s: %w", game, err)
		}
		if line != "" {
			items = append(items, item{text: line + "\n"})
		}
		for _, t := range turnEnded {
			turns++
			items = append(items, item{text: board(fmt.Sprintf("board after turn %d ended (seq %d)", t, e.Seq)), byTurn: true})
		}
		if decision {
			if decisions++; decisions%every == 0 {
				items = append(items, item{text: board(fmt.Sprintf("board after %d decisions (seq %d)", decisions, e.Seq)), byN: true})
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if g.Created == nil {
		return fmt.Errorf("export %s: the log is empty", game)
	}
	c := g.Created
	fmt.Fprintf(w, "campaign report: game %s, %s %s, scenario %s\n", game, c.Ruleset, c.RulesetVersion, c.ScenarioName)
	for _, p := range c.Players {
		fmt.Fprintf(w, "  %s plays %s (%s)\n", p.Name, p.Side, p.ID)
	}
	for _, r := range c.Referees {
		fmt.Fprintf(w, "  %s referees (%s)\n", r.Name, r.ID)
	}
	fmt.Fprintf(w, "%d events, %d decisions\n\n", g.Seq, decisions)
	for _, it := range items {
		if (it.byTurn && turns == 0) || (it.byN && turns > 0) {
			continue
		}
		io.WriteString(w, it.text)
	}
	for _, in := range g.Pending {
		fmt.Fprintf(w, "seq %d  %s → not yet decided\n", in.Seq, engine.InputLine(&in))
	}
	title := fmt.Sprintf("final board (seq %d)", g.Seq)
	if g.Ended != nil {
		title = fmt.Sprintf("final board (seq %d): %s; winner %q", g.Seq, g.Ended.Reason, g.Ended.Winner)
	}
	_, err = io.WriteString(w, board(title))
	return err
}
