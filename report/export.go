// Package report writes what an operator or a player reads of a game's
// log after the fact: the log printed readably, its hash chain and dice
// verified, the audit's findings printed, and the export of a game as
// JSON lines, as a readable campaign report, or as an HTML page stepping
// through the game, each as a viewer may see it and with the credentials
// in its mails redacted.
package report

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
	"pbem/store"
)

// PrintAudit prints an audit report: the chain, the decisions that
// differ, the dice, the counts and (unless quiet) the timeline.
func PrintAudit(w io.Writer, rep *play.AuditReport, h store.Head, quiet bool) {
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
	if rep.ByLoggedVersion > 0 {
		fmt.Fprintf(w, "versions: %d decision(s) were re-decided by the earlier version that made them, which this binary keeps\n", rep.ByLoggedVersion)
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
	fmt.Fprintf(w, "counts: %d events, %d inputs (%d accepted, %d rejected, %d undecided), %d dice, %d referee override(s) (%d rollback(s))\n",
		rep.Events, rep.Inputs, rep.Accepted, rep.Rejected, rep.Undecided, rep.Dice, rep.Overrides, rep.Rollbacks)
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

// Exporter writes one game's log as a viewer may see it (everything, for
// the operator), with the credentials in its mails redacted unless
// redact is nil.
type Exporter struct {
	Log    play.Source
	Reg    *engine.Registry
	Game   string
	Viewer engine.Viewer
	// Who names the viewer in the report's header; Cut is set when the
	// export is a viewer's, not everything.
	Who string
	Cut bool
	// Redact marks credentials (nil: a full backup, credentials kept).
	Redact *strings.Replacer
}

// each calls fn with every event and its payload as the export shows it
// (nil: nothing of it for this viewer).
func (x Exporter) each(fn func(g *play.Game, e *events.Envelope, p events.Payload) error) error {
	show := func(g *play.Game, e *events.Envelope, p events.Payload) error {
		if p != nil && x.Redact != nil {
			p = redactPayload(p, x.Redact)
		}
		return fn(g, e, p)
	}
	if x.Cut {
		return play.CutLog(x.Log, x.Reg, x.Game, x.Viewer, show)
	}
	g := &play.Game{ID: x.Game}
	return x.Log.Read(x.Game, 1, func(e *events.Envelope) error {
		p, err := events.Decode(e)
		if err != nil {
			return fmt.Errorf("export %s: %w", x.Game, err)
		}
		if err := g.Apply(x.Reg, e); err != nil {
			return fmt.Errorf("export %s: %w", x.Game, err)
		}
		return show(g, e, p)
	})
}

// credentialLine is a line of a mail that carries a credential whatever
// the templates call it, a held order's one-time code included
// ("CONFIRM abcd-efgh").
var credentialLine = regexp.MustCompile(`(?im)^(\s*(?:key|secret|password)\s*:\s*|\s*confirm\s+)\S.*$`)

// Redactor replaces every credential by a mark.
func Redactor(creds []string) *strings.Replacer {
	var pairs []string
	for _, c := range creds {
		pairs = append(pairs, c, "[redacted]")
	}
	return strings.NewReplacer(pairs...)
}

// redactPayload is p without credentials: a queued mail's reply address,
// body and attachments with every known credential, and every line that
// names one, marked [redacted].
func redactPayload(p events.Payload, r *strings.Replacer) events.Payload {
	m, ok := p.(*events.MailQueued)
	if !ok {
		return p
	}
	c := *m
	clean := func(s string) string { return credentialLine.ReplaceAllString(r.Replace(s), "${1}[redacted]") }
	c.ReplyTo = clean(m.ReplyTo)
	c.Body = clean(m.Body)
	c.Attachments = nil
	for _, at := range m.Attachments {
		at.Body = clean(at.Body)
		c.Attachments = append(c.Attachments, at)
	}
	return &c
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

// JSONL writes the log as JSON lines, one object per event.
func (x Exporter) JSONL(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return x.each(func(_ *play.Game, e *events.Envelope, p events.Payload) error {
		if p == nil {
			return nil
		}
		err := enc.Encode(exportedEvent{Seq: e.Seq, Type: e.Type, At: e.Time().Format(time.RFC3339Nano), Key: e.Key,
			Prev: e.Prev.Hex(), Hash: e.Hash.Hex(), Payload: jsonPayload(p)})
		if err != nil {
			return fmt.Errorf("export %s seq %d: %w", x.Game, e.Seq, err)
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
		out[i] = jsonFact{Kind: f.Kind, Text: play.FactLine(f)}
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
// report is a campaign report: the game's timeline with boards, as the
// text and HTML exports print it.
type report struct {
	g         *play.Game
	who       string // whose view it is
	items     []reportItem
	decisions int
}

// reportItem is a timeline line or a board.
type reportItem struct {
	seq    uint64 // the event it is about (0: none)
	line   string // a timeline line, or
	title  string // a board's title and
	board  string // the board
	turn   int    // a turn heading, when > 0
	byN    bool   // a board after the 20th, 40th … decision (used when no turns are known)
	byTurn bool   // a board after a turn ended
	closed bool   // in a stretch a rollback closed
	kept   bool   // a game command there, which the rollback left in effect
}

// branchNote marks a line in a closed branch.
func (it reportItem) branchNote() string {
	if it.kept {
		return " [closed branch, still in effect: a rollback does not undo game commands]"
	}
	return " [closed branch]"
}

func (x Exporter) report() (*report, error) {
	const every = 20
	r := &report{who: x.Who}
	var g *play.Game
	board := func() string {
		return strings.TrimRight(g.Rules.Render(g.Rules.View(g.State, x.Viewer)).Full, "\n")
	}
	turn := 0
	inputs := map[uint64]events.Payload{} // inputs not yet decided, as the viewer saw them
	err := x.each(func(gg *play.Game, e *events.Envelope, p events.Payload) error {
		g = gg
		var line string
		var kept bool
		var turnEnded []int64
		decision := events.IsAccepted(e.Type) || e.Type == events.TypeOrderRejected
		if events.IsInput(e.Type) && p != nil {
			inputs[e.Seq] = p
		}
		switch p := p.(type) {
		case *events.OrderAccepted:
			kept = play.StillInEffect(p)
			for _, f := range p.Facts {
				if f.Kind == "turn.ended" {
					turnEnded = append(turnEnded, f.Int("turn"))
				}
			}
		case *events.GameEnded:
			line = fmt.Sprintf("seq %d  game ended: %s; winner %q", e.Seq, p.Reason, p.Winner)
		}
		if decision && p != nil {
			in := play.InputOf(p)
			if ip, ok := inputs[in]; ok {
				line = play.TimelineLineOf(in, ip, p)
				if acc, ok := p.(*events.OrderAccepted); ok {
					if rc, ok := ip.(*events.RefereeCommand); ok && play.IsOverride(rc.Text, acc) {
						line = "OVERRIDE " + line
					}
				}
				delete(inputs, in)
			}
		}
		if line != "" {
			r.items = append(r.items, reportItem{seq: e.Seq, line: line, kept: kept})
		}
		if t, ok := g.Rules.(engine.Turner); ok {
			// Turns as the rules number them: a board as each turn ends.
			turnEnded = nil
			if n := t.Turn(g.State); n != turn {
				if turn > 0 && e.Seq > 1 {
					turnEnded = []int64{int64(turn)}
				}
				defer func() { r.items = append(r.items, reportItem{seq: e.Seq, turn: n}) }()
				turn = n
			}
		}
		for _, t := range turnEnded {
			r.items = append(r.items, reportItem{seq: e.Seq, title: fmt.Sprintf("board after turn %d ended (seq %d)", t, e.Seq), board: board(), byTurn: true})
		}
		if decision {
			if r.decisions++; r.decisions%every == 0 {
				r.items = append(r.items, reportItem{seq: e.Seq, title: fmt.Sprintf("board after %d decisions (seq %d)", r.decisions, e.Seq), board: board(), byN: true})
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if g == nil || g.Created == nil {
		return nil, fmt.Errorf("export %s: the log is empty", x.Game)
	}
	r.g = g
	turns := false
	for _, it := range r.items {
		turns = turns || it.byTurn
	}
	keep := r.items[:0]
	for _, it := range r.items {
		if (it.byTurn && !turns) || (it.byN && turns) {
			continue
		}
		_, it.closed = play.InBranch(g.Branches, it.seq)
		keep = append(keep, it)
	}
	r.items = keep
	for _, in := range g.Pending {
		if ip, ok := inputs[in.Seq]; ok {
			r.items = append(r.items, reportItem{seq: in.Seq, line: fmt.Sprintf("seq %d  %s → not yet decided", in.Seq, play.InputLineOf(ip))})
		}
	}
	title := fmt.Sprintf("final board (seq %d)", g.Seq)
	if g.Ended != nil {
		title = fmt.Sprintf("final board (seq %d): %s; winner %q", g.Seq, g.Ended.Reason, g.Ended.Winner)
	}
	r.items = append(r.items, reportItem{title: title, board: board()})
	return r, nil
}

func (r *report) header() []string {
	c := r.g.Created
	out := []string{fmt.Sprintf("campaign report: game %s, %s %s, scenario %s", r.g.ID, c.Ruleset, c.RulesetVersion, c.ScenarioName),
		"as " + r.who + " saw it at each step"}
	for _, p := range r.g.Players {
		out = append(out, fmt.Sprintf("  %s plays %s (%s)", p.Name, p.Side, p.ID))
	}
	for _, p := range r.g.Referees {
		out = append(out, fmt.Sprintf("  %s referees (%s)", p.Name, p.ID))
	}
	out = append(out, fmt.Sprintf("%d events, %d decisions", r.g.Seq, r.decisions))
	for _, b := range r.g.Branches {
		out = append(out, fmt.Sprintf("seqs %d–%d are a closed branch: rolled back at seq %d (kept, marked below)", b.From, b.To, b.By))
	}
	return out
}

// Text writes the readable campaign report.
func (x Exporter) Text(w io.Writer) error {
	r, err := x.report()
	if err != nil {
		return err
	}
	fmt.Fprintln(w, strings.Join(r.header(), "\n"))
	fmt.Fprintln(w)
	for _, it := range r.items {
		switch {
		case it.turn > 0:
			fmt.Fprintf(w, "\n--- turn %d ---\n", it.turn)
		case it.board != "":
			fmt.Fprintf(w, "\n=== %s ===\n%s\n\n", it.title, it.board)
		case it.closed:
			fmt.Fprintf(w, "%s  %s\n", it.line, it.branchNote())
		default:
			fmt.Fprintln(w, it.line)
		}
	}
	return nil
}
