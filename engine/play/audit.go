package play

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"pbem/engine"
	"pbem/events"
)

// AuditReport is what Audit found in one walk over a game's log.
type AuditReport struct {
	Game string
	// Ruleset and RulesetVersion are the current code's, which re-decided
	// every input; LoggedVersions are the versions named in the log (at
	// creation and in each decision), in order of first appearance.
	Ruleset        string
	RulesetVersion string
	LoggedVersions []string

	// Events is the number of events walked; Verified of them chained
	// correctly. Chain is the first broken link, nil if the chain is intact;
	// the walk stops there, as nothing after it can be trusted.
	Events   int
	Verified uint64
	Chain    *events.ChainError

	Inputs    int // inputs seen (orders, referee commands, deadlines passed)
	Accepted  int
	Rejected  int
	Undecided int // inputs with no decision yet at the end of the log
	Dice      int // dice rolled by the accepted decisions

	// Differences are the decisions the current ruleset does not make the
	// same way, in log order. VersionMismatches counts decisions logged by
	// another ruleset version (each is still re-decided and compared).
	Differences       []Difference
	VersionMismatches int
	// ByLoggedVersion counts decisions re-decided by the earlier ruleset
	// version that made them (kept in the registry), not the current one.
	ByLoggedVersion int

	// Seed is where the dice seed came from: "" (none: dice not checked),
	// "revealed" (game.ended) or "given" (passed to Audit).
	Seed string
	// SeedMatches reports whether the seed matches the logged commitment;
	// DiceVerified counts the rolls recomputed from it, BadDice the rest.
	SeedMatches  bool
	DiceVerified int
	BadDice      []string

	// Timeline has one readable line per input and its decision, in log
	// order, with a heading line where a turn begins (for rulesets that
	// number turns). A referee's override is marked "OVERRIDE", a line in
	// a stretch a rollback closed "closed branch".
	Timeline []string
	// Overrides counts the referee's accepted overrides; Rollbacks the
	// rollbacks among them.
	Overrides int
	Rollbacks int

	timelineSeqs []uint64         // the seq each Timeline line is about (0 for headings)
	kept         map[uint64]bool  // decisions whose game commands a rollback leaves in effect
	reg          *engine.Registry // for earlier ruleset versions
}

func (rep *AuditReport) line(seq uint64, s string) {
	rep.Timeline = append(rep.Timeline, s)
	rep.timelineSeqs = append(rep.timelineSeqs, seq)
}

// Difference is a decision the current ruleset makes differently from the
// log: Seq is the decision's sequence number, InputSeq the input's.
type Difference struct {
	Seq       uint64
	InputSeq  uint64
	Input     string // the input, readably ("anna: MARCH Lyle 1605")
	Logged    string // the logged decision, readably
	Redecided string // the re-decided one, readably ("" if re-deciding failed)
	Note      string
}

// OK reports whether the audit found nothing wrong: an intact chain, no
// difference, and (when a seed was available) a matching seed and no bad die.
func (r *AuditReport) OK() bool {
	return r.Chain == nil && len(r.Differences) == 0 && len(r.BadDice) == 0 && (r.Seed == "" || r.SeedMatches)
}

// Audit walks game's whole log once: it verifies the hash chain, folds the
// log with the current ruleset, and re-decides every input from the state
// just before its decision with the decision's logged dice, reporting each
// decision that comes out differently. If seed is nil, the seed revealed by
// game.ended (if any) is used; with a seed, the commitment and every die are
// checked. The error is for a log that cannot be audited at all (unreadable
// store, unknown ruleset); what the audit finds is in the report.
func Audit(src Source, reg *engine.Registry, game string, seed []byte) (*AuditReport, error) {
	rep := &AuditReport{Game: game, reg: reg}
	if seed != nil {
		rep.Seed = "given"
	}
	v := events.Verifier{Game: game}
	g := &Game{ID: game, History: sourceHistory{src, reg, game}}
	var dice []events.Die
	turn := 0
	var stepErr error // an error of step, as opposed to one of the store
	step := func(e *events.Envelope) error {
		rep.Events++
		if err := v.Next(e); err != nil {
			return err
		}
		rep.Verified = v.Seq()
		var d *Difference
		switch {
		case events.IsInput(e.Type):
			rep.Inputs++
		case events.IsAccepted(e.Type) || e.Type == events.TypeOrderRejected:
			var err error
			if d, err = rep.decision(g, e, &dice); err != nil {
				return err
			}
		case e.Type == events.TypeGameEnded:
			p, err := events.Decode(e)
			if err != nil {
				return fmt.Errorf("audit %s: %w", game, err)
			}
			end := p.(*events.GameEnded)
			rep.line(e.Seq, fmt.Sprintf("seq %d  game ended: %s; winner %q", e.Seq, end.Reason, end.Winner))
			if seed == nil && end.Seed != nil {
				seed, rep.Seed = end.Seed, "revealed"
			}
		}
		if err := g.Apply(reg, e); err != nil {
			if d == nil {
				d = &Difference{Seq: e.Seq}
			}
			d.Note = joinNote(d.Note, "the log does not fold with the current ruleset: "+err.Error())
			rep.Differences = append(rep.Differences, *d)
			return errStop
		}
		if d != nil {
			rep.Differences = append(rep.Differences, *d)
		}
		if e.Type == events.TypeGameCreated {
			rep.Ruleset, rep.RulesetVersion = g.Rules.Name(), g.Rules.Version()
			rep.noteVersion(g.Created.RulesetVersion)
		}
		if t, ok := g.Rules.(engine.Turner); ok {
			if n := t.Turn(g.State); n != turn {
				turn = n
				rep.line(0, fmt.Sprintf("— turn %d (from seq %d) —", n, e.Seq))
			}
		}
		return nil
	}
	err := src.Read(game, 1, func(e *events.Envelope) error {
		stepErr = step(e)
		return stepErr
	})
	var ce *events.ChainError
	switch {
	case err == nil, errors.Is(err, errStop):
	case errors.As(err, &ce):
		rep.Chain = ce
	case stepErr == nil && errors.Is(err, events.ErrCorrupt):
		// The store could not decode the envelope after the last good one.
		rep.Events++
		rep.Chain = &events.ChainError{Game: game, Seq: v.Seq() + 1, Reason: err.Error()}
	default:
		return rep, fmt.Errorf("audit %s: %w", game, err)
	}
	for _, in := range g.Pending {
		rep.Undecided++
		rep.line(in.Seq, fmt.Sprintf("seq %d  %s → not yet decided", in.Seq, InputLine(&in)))
	}
	for i, seq := range rep.timelineSeqs {
		if br, ok := InBranch(g.Branches, seq); ok {
			if rep.kept[seq] {
				rep.Timeline[i] = fmt.Sprintf("%s   [in a closed branch (rolled back at seq %d), still in effect: a rollback does not undo game commands]", rep.Timeline[i], br.By)
			} else {
				rep.Timeline[i] = fmt.Sprintf("%s   [closed branch: rolled back at seq %d]", rep.Timeline[i], br.By)
			}
		}
	}
	if seed != nil && g.Created != nil {
		rep.checkDice(g, seed, dice)
	}
	return rep, nil
}

// decision re-decides the input of the logged decision e (g's oldest
// pending input) and returns a Difference if it comes out otherwise.
func (rep *AuditReport) decision(g *Game, e *events.Envelope, dice *[]events.Die) (*Difference, error) {
	p, err := events.Decode(e)
	if err != nil {
		return nil, fmt.Errorf("audit %s: %w", g.ID, err)
	}
	var version string
	var input uint64
	switch p := p.(type) {
	case *events.OrderAccepted:
		rep.Accepted++
		rep.Dice += len(p.Dice)
		*dice = append(*dice, p.Dice...)
		version, input = p.RulesetVersion, p.Input
	case *events.OrderRejected:
		rep.Rejected++
		version, input = p.RulesetVersion, p.Input
	}
	rep.noteVersion(version)
	inLine := fmt.Sprintf("input %d", input)
	if len(g.Pending) > 0 && g.Pending[0].Seq == input {
		inLine = InputLine(&g.Pending[0])
		line := TimelineLine(&g.Pending[0], p)
		if acc, ok := p.(*events.OrderAccepted); ok && StillInEffect(acc) {
			if rep.kept == nil {
				rep.kept = map[uint64]bool{}
			}
			rep.kept[e.Seq] = true
		}
		if cmd, ok := refereeText(&g.Pending[0]); ok {
			if acc, ok := p.(*events.OrderAccepted); ok && IsOverride(cmd, acc) {
				rep.Overrides++
				for _, f := range acc.Facts {
					if f.Kind == FactRollback {
						rep.Rollbacks++
					}
				}
				line = "OVERRIDE " + line
			}
		}
		rep.line(e.Seq, line)
	}
	// A decision for another input does not fold: Apply says so.
	if g.Rules == nil || len(g.Pending) == 0 || g.Pending[0].Seq != input {
		return nil, nil
	}
	// Re-decide with the version that decided, when this binary keeps it;
	// else with the current one, saying so.
	by := g
	if version != g.Rules.Version() {
		if old, ok := rep.reg.GetVersion(g.Rules.Name(), version); ok {
			c := *g
			c.Rules = old
			by = &c
			rep.ByLoggedVersion++
		}
	}
	again, note, err := by.Redecide(rep.reg, p)
	d := &Difference{Seq: e.Seq, InputSeq: input, Input: inLine, Logged: DescribeDecision(p)}
	if version != by.Rules.Version() {
		rep.VersionMismatches++
		d.Note = fmt.Sprintf("decided by %s %s, re-decided by %s (this binary does not keep %s)", g.Rules.Name(), version, g.Rules.Version(), version)
	}
	rej, _ := p.(*events.OrderRejected)
	switch {
	case err != nil && rej != nil && IsUndecided(rej):
		return nil, nil // it could not be decided then, and cannot be now
	case err != nil:
		d.Note = joinNote(d.Note, "re-deciding failed: "+err.Error())
		return d, nil
	case note != "":
		d.Redecided = DescribeDecision(again)
		d.Note = joinNote(d.Note, "dice: "+note)
		return d, nil
	case !reflect.DeepEqual(again, p):
		d.Redecided = DescribeDecision(again)
		return d, nil
	}
	return nil, nil
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

func (rep *AuditReport) noteVersion(v string) {
	for _, have := range rep.LoggedVersions {
		if have == v {
			return
		}
	}
	rep.LoggedVersions = append(rep.LoggedVersions, v)
}

// checkDice checks seed against the logged commitment and recomputes every
// die from it; the dice must be the stream's rolls 0, 1, 2 … in order.
func (rep *AuditReport) checkDice(g *Game, seed []byte, dice []events.Die) {
	rep.SeedMatches = Commit(seed) == g.Created.SeedCommitment
	if !rep.SeedMatches {
		rep.BadDice = append(rep.BadDice, fmt.Sprintf("the %s seed does not match the commitment %s logged at creation", rep.Seed, g.Created.SeedCommitment.Hex()))
		return
	}
	for i, d := range dice {
		if d.Index != uint64(i) {
			rep.BadDice = append(rep.BadDice, fmt.Sprintf("roll #%d is missing or repeated (found #%d)", i, d.Index))
			continue
		}
		if err := VerifyDie(seed, g.ID, d); err != nil {
			rep.BadDice = append(rep.BadDice, err.Error())
			continue
		}
		rep.DiceVerified++
	}
}

// Redecide decides g's oldest pending input again, without changing g,
// with the dice of logged (the decision the log holds for that input) in
// their logged order, using g's current ruleset. note says how the dice
// were asked for differently from how they were logged ("" if alike).
// The re-decided payload carries the logged RulesetVersion, so that it can
// be compared with logged by reflect.DeepEqual whatever version decided it.
func (g *Game) Redecide(reg *engine.Registry, logged events.Payload) (again events.Payload, note string, err error) {
	var dice []events.Die
	if acc, ok := logged.(*events.OrderAccepted); ok {
		dice = acc.Dice
	}
	rec := &Recorded{Dice: dice}
	again, _, _, err = g.DecideNext(reg, rec, func() []events.Die { return rec.Dice[:rec.i:rec.i] })
	if err != nil {
		return nil, "", fmt.Errorf("re-decide: %w", err)
	}
	switch {
	case rec.Mismatch != "":
		note = rec.Mismatch
	case !rec.Used():
		note = fmt.Sprintf("%d rolls logged, %d asked for", len(dice), rec.i)
	}
	switch a := again.(type) {
	case *events.OrderAccepted:
		if l, ok := logged.(*events.OrderAccepted); ok {
			a.RulesetVersion = l.RulesetVersion
		}
	case *events.OrderRejected:
		if l, ok := logged.(*events.OrderRejected); ok {
			a.RulesetVersion = l.RulesetVersion
		}
	}
	// Decode the re-decided payload as the log's would be, so that empty
	// and nil lists compare alike.
	enc := events.Envelope{Game: g.ID, Seq: g.Pending[0].Seq, Type: again.EventType(), Payload: events.EncodePayload(again)}
	if again, err = events.Decode(&enc); err != nil {
		return nil, "", fmt.Errorf("re-decide: %w", err)
	}
	return again, note, nil
}

// refereeText is a referee command's text.
func refereeText(in *events.Envelope) (string, bool) {
	if !events.IsRefereeCommand(in.Type) {
		return "", false
	}
	p, err := events.Decode(in)
	if err != nil {
		return "", false
	}
	return p.(*events.RefereeCommand).Text, true
}

// InputLine renders an input on one line: who sent what.
func InputLine(e *events.Envelope) string {
	p, err := events.Decode(e)
	if err != nil {
		return fmt.Sprintf("(undecodable %s: %v)", e.Type, err)
	}
	return InputLineOf(p)
}

// InputLineOf is InputLine of an input already decoded (or cut for a viewer).
func InputLineOf(p events.Payload) string {
	switch p := p.(type) {
	case *events.OrderReceived:
		if p.Text == "" {
			return p.Player + ": (orders: their words are the sender's; what came of them follows)"
		}
		return p.Player + ": " + OneLine(p.Text)
	case *events.RefereeCommand:
		text := OneLine(p.Text)
		if text == "" {
			text = "(a ruling or command: what came of it follows)"
		}
		s := p.Referee + " (referee): " + text
		if p.Reason != "" {
			s += " (reason: " + p.Reason + ")"
		}
		return s
	case *events.DeadlinePassed:
		return p.Player + " (deadline passed): " + OneLine(p.Default)
	}
	return p.EventType()
}

// OneLine joins the non-blank lines of s with " / ".
func OneLine(s string) string {
	var ls []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			ls = append(ls, l)
		}
	}
	return strings.Join(ls, " / ")
}

// TimelineLine renders an input and its decision on one line:
//
//	seq 12  anna: MARCH Lyle 1605 → accepted: unit.marched …, dice #3 d6=4 (march MA)
func TimelineLine(input *events.Envelope, decision events.Payload) string {
	p, err := events.Decode(input)
	if err != nil {
		return fmt.Sprintf("seq %d  (undecodable %s: %v)", input.Seq, input.Type, err)
	}
	return TimelineLineOf(input.Seq, p, decision)
}

// TimelineLineOf is TimelineLine of an input already decoded (or cut for
// a viewer), stored at seq.
func TimelineLineOf(seq uint64, input, decision events.Payload) string {
	var b strings.Builder
	fmt.Fprintf(&b, "seq %d  %s → ", seq, InputLineOf(input))
	switch d := decision.(type) {
	case *events.OrderAccepted:
		b.WriteString("accepted")
		var parts []string
		if len(d.Facts) == 0 {
			parts = append(parts, d.Echo...)
		}
		for _, f := range d.Facts {
			parts = append(parts, FactLine(f))
		}
		if len(parts) > 0 {
			b.WriteString(": " + strings.Join(parts, "; "))
		}
		if len(d.Dice) > 0 {
			ds := make([]string, len(d.Dice))
			for i, x := range d.Dice {
				ds[i] = x.String()
			}
			b.WriteString(", dice " + strings.Join(ds, ", "))
		}
	case *events.OrderRejected:
		b.WriteString("rejected")
		ps := make([]string, len(d.Problems))
		for i, p := range d.Problems {
			ps[i] = p.String()
		}
		if len(ps) > 0 {
			b.WriteString(": " + strings.Join(ps, "; "))
		}
	default:
		fmt.Fprintf(&b, "%T", decision)
	}
	return b.String()
}

// DescribeDecision renders a decision readably, one item a line: its
// version, echo, dice and facts, or its problems.
func DescribeDecision(p events.Payload) string {
	var ls []string
	switch d := p.(type) {
	case *events.OrderAccepted:
		ls = append(ls, fmt.Sprintf("accepted input %d from %s (%s)", d.Input, d.Player, d.RulesetVersion))
		for _, e := range d.Echo {
			ls = append(ls, "  echo: "+e)
		}
		for _, x := range d.Dice {
			ls = append(ls, "  die "+x.String())
		}
		for _, f := range d.Facts {
			ls = append(ls, "  "+FactLine(f))
		}
	case *events.OrderRejected:
		ls = append(ls, fmt.Sprintf("rejected input %d from %s (%s)", d.Input, d.Player, d.RulesetVersion))
		for _, q := range d.Problems {
			ls = append(ls, "  "+q.String())
		}
	case nil:
		ls = append(ls, "(none)")
	default:
		ls = append(ls, fmt.Sprintf("%s %+v", p.EventType(), p))
	}
	return strings.Join(ls, "\n")
}
