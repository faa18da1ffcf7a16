// The referee's game commands (ROLLBACK, PAUSE, DEADLINE, REPLACE,
// REFEREE ADD, SETTING, ORDER, END, ...): how a referee's mail of commands
// is read line by line and decided into game facts, the same for every
// rule system.

package play

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"

	"pbem/engine"
	"pbem/engine/names"
	"pbem/events"
)

// The referee's game commands, the same for every rule system. A
// referee's mail (or 'pbem referee' command) is either game commands, one
// per line, or rulings and corrections for the ruleset (RULE …, SET …),
// never both: each mail is one decision, and mixing the two would make it
// unclear what a rollback or a pause applies to.
const (
	CmdRollback = "ROLLBACK"
	CmdPause    = "PAUSE"
	CmdResume   = "RESUME"
	CmdDeadline = "DEADLINE"
	CmdExtend   = "EXTEND"
	CmdReplace  = "REPLACE"
	CmdObserver = "OBSERVER"
	CmdAnnounce = "ANNOUNCE"
	CmdEnd      = "END"
	CmdSetting  = "SETTING"
	CmdOrder    = "ORDER"
	CmdMessage  = "MESSAGE"
	CmdReferee  = "REFEREE"
)

var gameCommands = []string{CmdRollback, CmdPause, CmdResume, CmdDeadline, CmdExtend, CmdReplace, CmdObserver, CmdAnnounce, CmdEnd, CmdSetting,
	CmdOrder, CmdMessage, CmdReferee}

// GameCommandForms are the forms of the referee's game commands, for help
// texts.
var GameCommandForms = []string{
	"ROLLBACK TO <seq>             the game as it was after event <seq>",
	"ROLLBACK <n> ACTIONS          undo the last n accepted actions",
	"PAUSE [reason]                no orders, no deadline runs; holds a",
	"                              players' pause (it then does not run out)",
	"RESUME                        any pause; deadlines resume the time left",
	"DEADLINE <player|side|ALL> <72h|3d|2026-12-01 18:00>   (who must act)",
	"EXTEND <player|side|ALL> <24h|2d>",
	"ORDER <player> <orders, to the end of the mail>   for a late player",
	"REPLACE <player> WITH <address>[,<address>] [NAME <name>]   (new key)",
	"REFEREE ADD <address> [NAME <name>]  /  REFEREE REMOVE <referee>",
	"OBSERVER ADD <address>  /  OBSERVER REMOVE <address>",
	"MESSAGE <player|side|ALL> <text, to the end of the mail>",
	"ANNOUNCE <text, to the end of the mail>",
	"END WINNER <side> [reason]  /  END DRAW [reason]",
	"SETTING <deadline|reminder|at-deadline|grace|overrides> <value>",
	"SETTING <pause-max|absence-max> <value>  /  SETTING tz <player> <zone>",
	"LOG [n]  /  GAMES  /  STATUS                 (no secret needed)",
}

// cmdLine is one non-blank line of a command text.
type cmdLine struct {
	no    int
	text  string // trimmed
	col   int    // column of its first character
	word  string // first word, upper case
	words []string
}

func commandLines(text string) []cmdLine {
	var out []cmdLine
	for i, raw := range strings.Split(text, "\n") {
		t := strings.TrimSpace(raw)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		f := strings.Fields(t)
		out = append(out, cmdLine{no: i + 1, text: t, col: strings.Index(raw, t) + 1, word: strings.ToUpper(f[0]), words: f})
	}
	return out
}

func isGameCommand(word string) bool { return contains(gameCommands, word) }

func (l cmdLine) problem(msg, hint string) events.Problem {
	return events.Problem{Line: l.no, Col: l.col, Text: l.text, Msg: msg, Hint: hint}
}

// decideReferee decides a referee's command: game commands here, anything
// else through the ruleset as the referee side.
func (g *Game) decideReferee(in *events.Envelope, cmd *events.RefereeCommand, dice engine.Dice, rolled func() []events.Die) (events.Payload, engine.State, engine.Outcome, error) {
	if cmd.Refused != "" {
		return g.reject(in, cmd.Referee, refusedProblem(cmd.Refused))
	}
	ls := commandLines(cmd.Text)
	if len(ls) > 0 && ls[0].word == CmdOrder {
		return g.decideOrderFor(in, cmd, ls[0], dice, rolled)
	}
	if len(ls) == 0 || !isGameCommand(ls[0].word) {
		for _, l := range ls {
			if isGameCommand(l.word) {
				return g.reject(in, cmd.Referee, l.problem(fmt.Sprintf("%s is a game command, and this mail holds rulings", l.word),
					"send game commands and rulings in separate mails"))
			}
		}
		p, st, out, err := g.decideAs(in, cmd.Referee, engine.RefereeSide, cmd.Text, dice, rolled)
		return g.withDeadlines(p, st, out, "", in.At), st, out, err
	}
	c := &commandDecision{g: g, in: in, by: cmd.Referee, withdraws: withdrawal(in, cmd), seen: cmd.Seen, st: g.State, pol: g.Policy(), plan: newDeadlinePlan(g), paused: g.Paused}
	for i := 0; i < len(ls); i++ {
		l := ls[i]
		if !isGameCommand(l.word) {
			c.problem(l.problem(fmt.Sprintf("%q is not a game command (game commands: %s)", l.words[0], strings.Join(gameCommands, ", ")),
				"send rulings (RULE, SET …) in a mail of their own"))
			continue
		}
		if l.word == CmdAnnounce || l.word == CmdMessage {
			// ANNOUNCE and MESSAGE take the rest of the mail.
			rest := []string{strings.TrimSpace(l.text[len(l.words[0]):])}
			for _, m := range ls[i+1:] {
				rest = append(rest, m.text)
			}
			text := strings.TrimSpace(strings.Join(rest, "\n"))
			if l.word == CmdAnnounce {
				c.announce(l, text)
			} else {
				c.message(l, text)
			}
			break
		}
		if l.word == CmdOrder {
			c.problem(l.problem("ORDER takes the whole mail: the player's orders follow it", "send ORDER <player> <orders> in a mail of its own"))
			continue
		}
		c.command(l)
		c.takePlan()
	}
	if c.rolledBack && len(c.probs) == 0 {
		// The game is as it was: whoever must act now has the whole time.
		c.plan.fresh(c.st, in.At, c.pol)
		c.takePlan()
	}
	if len(c.probs) > 0 {
		return g.reject(in, cmd.Referee, c.probs...)
	}
	c.sinceSeen()
	acc := &events.OrderAccepted{Input: in.Seq, Player: cmd.Referee, RulesetVersion: g.Rules.Version(), Echo: c.echo, Facts: c.facts}
	c.visibility(acc)
	return acc, c.st, c.out, nil
}

// changedSince says what changed the game after seq seen (the mail a
// referee answered): the actions accepted since and the rollbacks made
// since, with their seqs; "" if nothing did.
func (g *Game) changedSince(seen uint64) string {
	if seen == 0 {
		return ""
	}
	var acts []string
	for _, r := range g.Recent {
		if r > seen {
			acts = append(acts, strconv.FormatUint(r, 10))
		}
	}
	var rbs []string
	for _, b := range g.Branches {
		if b.By > seen {
			rbs = append(rbs, strconv.FormatUint(b.By, 10))
		}
	}
	var parts []string
	switch len(acts) {
	case 0:
	case 1:
		parts = append(parts, "an action was accepted at seq "+acts[0])
	default:
		parts = append(parts, fmt.Sprintf("%d actions were accepted (seqs %s)", len(acts), strings.Join(acts, ", ")))
	}
	switch len(rbs) {
	case 0:
	case 1:
		parts = append(parts, "a rollback was made at seq "+rbs[0])
	default:
		parts = append(parts, fmt.Sprintf("%d rollbacks were made (seqs %s)", len(rbs), strings.Join(rbs, ", ")))
	}
	return strings.Join(parts, " and ")
}

// sinceSeen tells, in the echo every referee reads, that an accepted
// ruling was written against an older game than the one it changed: a
// deadline it sets replaces one set after the mail the referee answered
// (by another referee, or the rules), and the ruling applies to the game
// as it is now, not as the referee saw it.
func (c *commandDecision) sinceSeen() {
	if c.seen == 0 || len(c.facts) == 0 {
		return
	}
	replaces := false // a deadline or setting another ruling may have changed
	for _, f := range c.facts {
		replaces = replaces || f.Kind == FactDeadline || f.Kind == FactSetting
	}
	// The game as the referee saw it is loaded only when there is
	// something to compare with it (a fold of the log up to that seq).
	if replaces && c.g.History != nil {
		if past, err := c.g.History.At(c.seen); err == nil {
			for _, f := range c.facts {
				if f.Kind == FactSetting {
					k := f.Str("key")
					if then, now := past.setting(k), c.g.setting(k); then != now {
						c.echo = append(c.echo, fmt.Sprintf("setting %s was changed after the mail you answered (%s then, %s before this ruling): this ruling replaces that change",
							k, orNone(then), orNone(now)))
					}
					continue
				}
				if f.Kind != FactDeadline {
					continue
				}
				p := f.Str("player")
				then, _ := past.Deadline(p)
				now, _ := c.g.Deadline(p)
				if then.Due != now.Due {
					c.echo = append(c.echo, fmt.Sprintf("%s's deadline was changed after the mail you answered (due %s then, %s before this ruling): this ruling replaces that change",
						c.g.nameOf(p), dueText(then.Due), dueText(now.Due)))
				}
			}
		}
	}
	if what := c.g.changedSince(c.seen); what != "" {
		c.echo = append(c.echo, fmt.Sprintf("Note: the game changed after the mail this ruling answered (%s); it was applied to the game as it is now", what))
	}
}

// dueText is a deadline's due time, or "none".
func dueText(due int64) string {
	if due == 0 {
		return "none"
	}
	return timeText(due)
}

// refusedProblem is what a referee is told of a mail the intake did not
// trust: the whole mail is refused, and nothing of it was read.
func refusedProblem(why string) events.Problem {
	return events.Problem{Msg: "pbem did not apply this mail: " + why + ". A referee's mail that changes the game must carry the line \"Secret: …\" from your welcome mail, written as it stands",
		Hint: "send the mail again with your Secret line (HELP, BOARD, STATUS, LOG and GAMES need none)"}
}

func (g *Game) reject(in *events.Envelope, player string, probs ...events.Problem) (events.Payload, engine.State, engine.Outcome, error) {
	return &events.OrderRejected{Input: in.Seq, Player: player, RulesetVersion: g.Rules.Version(), Problems: probs}, g.State, engine.Outcome{}, nil
}

// withDeadlines adds to an accepted decision that changed the game the
// deadline changes it causes.
func (g *Game) withDeadlines(p events.Payload, st engine.State, out engine.Outcome, actor string, at int64) events.Payload {
	acc, ok := p.(*events.OrderAccepted)
	if !ok || out.Over || len(acc.Facts) == 0 {
		return p
	}
	acc.Facts = append(acc.Facts, g.deadlineFacts(st, acc.Facts, actor, at, g.Policy())...)
	return acc
}

// deadlineFactsFresh gives every player who must act in st a new deadline
// from at (as a game is created).
func (g *Game) deadlineFactsFresh(st engine.State, at int64, pol Policy) []events.Fact {
	if pol.Deadline == 0 || g.Ended != nil {
		return nil
	}
	waiting := g.waitingSides(st, nil)
	var out []events.Fact
	for _, p := range g.Players {
		if contains(waiting, p.Side) {
			out = append(out, deadlineFact(p.ID, at+int64(pol.Deadline), pol.AtDeadline))
		} else if _, has := g.Deadline(p.ID); has {
			out = append(out, deadlineFact(p.ID, 0, ""))
		}
	}
	return out
}

// commandDecision collects the facts and echo of a referee's game commands.
type commandDecision struct {
	g  *Game
	in *events.Envelope
	by string
	// withdraws is the battle whose result this command withdraws (the
	// runtime's ROLLBACK of a campaign to before it took the result of a
	// battle whose end was rolled back, link.go Withdraw); else "".
	withdraws string
	// seen is the seq of the mail the referee answered (0: unknown).
	seen uint64
	st   engine.State
	pol  Policy
	out  engine.Outcome

	facts []events.Fact
	echo  []string
	probs []events.Problem

	// plan holds the deadlines, and paused the pause, as the commands so
	// far leave them; rolledBack: a ROLLBACK came first.
	plan       *deadlinePlan
	paused     *Pause
	rolledBack bool
	// vis and echoVis are the facts and echo lines only some may see (a
	// message to one player), by their index.
	vis, echoVis map[int]events.Vis
}

func (c *commandDecision) problem(p events.Problem) { c.probs = append(c.probs, p) }

// takePlan logs the deadline changes the last command made, after its
// own echo.
func (c *commandDecision) takePlan() {
	c.facts = append(c.facts, c.plan.facts...)
	c.echo = append(c.echo, c.plan.echo...)
	c.plan.facts, c.plan.echo = nil, nil
}

// visibility gives the facts and echo lines only some may see their
// visibility (the rest are public).
func (c *commandDecision) visibility(acc *events.OrderAccepted) {
	for i, v := range c.vis {
		acc.Facts[i].Vis = v
	}
	if len(c.echoVis) > 0 {
		acc.EchoVis = make([]events.Vis, len(acc.Echo))
		for i, v := range c.echoVis {
			acc.EchoVis[i] = v
		}
	}
}

func (c *commandDecision) add(echo string, fs ...events.Fact) {
	c.echo = append(c.echo, echo)
	c.facts = append(c.facts, fs...)
}

func (c *commandDecision) command(l cmdLine) {
	g := c.g
	if g.Ended != nil && l.word != CmdObserver && !(l.word == CmdRollback && rollsBackEnd(g, c.withdraws)) {
		c.problem(l.problem("the game is over: "+g.Ended.Reason, "ANNOUNCE, MESSAGE or OBSERVER still work"))
		return
	}
	args := l.words[1:]
	switch l.word {
	case CmdRollback:
		c.rollback(l, args)
	case CmdPause:
		c.pause(l)
	case CmdResume:
		if c.paused == nil {
			c.problem(l.problem("the game is not paused", ""))
			return
		}
		paused := time.Duration(c.in.At - c.paused.At)
		c.add("RESUME: the game resumes after "+Span(paused)+"; deadlines resume the time they had left",
			events.NewFact(FactResume, events.S("by", c.by), events.I("at", c.in.At), events.I("paused", int64(paused))))
		c.plan.resume(paused)
		c.paused = nil
	case CmdReferee:
		c.referee(l, args)
	case CmdDeadline, CmdExtend:
		c.deadlineCmd(l, args)
	case CmdReplace:
		c.replace(l, args)
	case CmdObserver:
		if len(args) != 2 || (!strings.EqualFold(args[0], "ADD") && !strings.EqualFold(args[0], "REMOVE")) || !strings.Contains(args[1], "@") {
			c.problem(l.problem("write OBSERVER ADD <address> or OBSERVER REMOVE <address>", "OBSERVER ADD kim@example.org"))
			return
		}
		a := strings.ToLower(strings.Trim(args[1], "<>"))
		add := strings.EqualFold(args[0], "ADD")
		if add == contains(g.Observers, a) {
			if add {
				c.problem(l.problem(a+" already observes this game", ""))
			} else {
				c.problem(l.problem(a+" does not observe this game", suggestFrom(a, g.Observers)))
			}
			return
		}
		verb := "added"
		if !add {
			verb = "removed"
		}
		c.add(fmt.Sprintf("OBSERVER %s %s", verb, a), events.NewFact(FactObserver, events.S("address", a), events.B("added", add)))
	case CmdEnd:
		c.end(l, args)
	case CmdSetting:
		c.setting(l, args)
	}
}

func suffix(sep, s string) string {
	if s == "" {
		return ""
	}
	return sep + s
}

func (c *commandDecision) rollback(l cmdLine, args []string) {
	g := c.g
	hint := "ROLLBACK TO <seq> or ROLLBACK <n> ACTIONS"
	var to uint64
	switch {
	case len(args) == 2 && strings.EqualFold(args[0], "TO"), len(args) == 3 && strings.EqualFold(args[0], "TO") && strings.EqualFold(args[1], "SEQ"):
		n, err := strconv.ParseUint(args[len(args)-1], 10, 64)
		if err != nil || n == 0 {
			c.problem(l.problem(fmt.Sprintf("%q is not a sequence number", args[len(args)-1]), hint))
			return
		}
		to = n
	case len(args) >= 1 && len(args) <= 2:
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 1 || (len(args) == 2 && !strings.HasPrefix(strings.ToUpper(args[1]), "ACTION")) {
			c.problem(l.problem("write ROLLBACK TO <seq> or ROLLBACK <n> ACTIONS", hint))
			return
		}
		if n > len(g.Recent) {
			c.problem(l.problem(fmt.Sprintf("pbem remembers the last %d actions; %d is too many", len(g.Recent), n), "ROLLBACK TO <seq> (pbem log shows the seqs)"))
			return
		}
		if what := g.changedSince(c.seen); what != "" {
			// A count is relative to the game as the referee saw it: two
			// referees undoing one slip must not undo two actions.
			c.problem(l.problem(fmt.Sprintf("the game changed after the mail you answered (%s): ROLLBACK %d ACTIONS counts back from now and would not undo what you saw", what, n),
				"ROLLBACK TO <seq> names the point itself (LOG shows the seqs); or send ROLLBACK "+strconv.Itoa(n)+" ACTIONS again in answer to this mail"))
			return
		}
		to = g.Recent[len(g.Recent)-n] - 1
	default:
		c.problem(l.problem("write ROLLBACK TO <seq> or ROLLBACK <n> ACTIONS", hint))
		return
	}
	if to >= c.in.Seq-1 {
		c.problem(l.problem(fmt.Sprintf("seq %d is not before the last event (%d): there is nothing to roll back", to, c.in.Seq-1), hint))
		return
	}
	if br, closed := InBranch(g.Branches, to); closed {
		// The game never went on from there: going back to it would
		// revive what a rollback undid.
		c.problem(l.problem(fmt.Sprintf("seq %d lies in a closed branch (seqs %d–%d, rolled back at seq %d): the game did not go on from it",
			to, br.From, br.To, br.By), fmt.Sprintf("ROLLBACK TO %d (where that branch began), or a seq after %d; LOG shows the live seqs", br.From-1, br.By)))
		return
	}
	if len(c.facts) > 0 {
		c.problem(l.problem("a rollback must come first in the mail", "send the other commands after it, in the same mail or another"))
		return
	}
	ended := g.Ended != nil
	if g.History == nil {
		c.problem(l.problem("pbem cannot read this game's log here", ""))
		return
	}
	past, err := g.History.At(to)
	if err != nil {
		c.problem(l.problem(fmt.Sprintf("the game at seq %d cannot be loaded: %v", to, err), ""))
		return
	}
	if ended && past.Ended != nil {
		c.problem(l.problem(fmt.Sprintf("the game had ended by seq %d: a rollback of an ended game goes to before its end", to), "ROLLBACK TO <seq> before the end (LOG shows the seqs)"))
		return
	}
	enc, err := g.Rules.EncodeState(past.State)
	if err != nil {
		c.problem(l.problem(fmt.Sprintf("the game at seq %d cannot be encoded: %v", to, err), ""))
		return
	}
	undone := 0
	for _, r := range g.Recent {
		if r > to {
			undone++
		}
	}
	c.st, c.rolledBack = past.State, true
	fact := events.NewFact(FactRollback, events.I("to", int64(to)), events.S("state", base64.StdEncoding.EncodeToString(enc)), events.S("by", c.by))
	if c.withdraws != "" {
		fact = events.NewFact(FactRollback, events.I("to", int64(to)), events.S("state", base64.StdEncoding.EncodeToString(enc)), events.S("by", c.by), events.S("withdraws", c.withdraws))
	}
	c.add(fmt.Sprintf("ROLLBACK to seq %d: the game is as it was after seq %d; %s undone; seqs %d–%d stay in the log as a closed branch",
		to, to, plural(undone, "action"), to+1, c.in.Seq-1), fact)
	if c.withdraws != "" {
		c.echo = append(c.echo, "the result of battle "+c.withdraws+" is withdrawn: its end was rolled back, and this game waits on it again")
	}
	if ended {
		// The end revealed the seed: say so, since the dice from here
		// on are ones anyone who read the end could work out.
		c.echo = append(c.echo, "the game had ended and goes on from here; its dice seed was revealed at the end, so its dice from here on can be worked out by anyone who read that")
	}
	// Orders sealed by then and not yet opened come back, still sealed;
	// those whose step has opened since are not (everyone has seen them:
	// that side orders again).
	for _, o := range past.Sealed {
		if contains(g.Revealed, o.Reveal) {
			continue
		}
		c.facts = append(c.facts, events.NewFact(FactSealed, events.S("step", o.Step), events.S("reveal", o.Reveal), events.S("side", o.Side),
			events.S("player", o.Player), events.S("text", o.Text)).To(events.ToSide(o.Side).UntilReveal(o.Reveal)))
	}
}

// withdrawal is the battle whose result in is the runtime's withdrawal
// of (the operator's command, keyed "withdraw:<battle>:<final hash>",
// link.go Withdraw); "" for any other command.
func withdrawal(in *events.Envelope, cmd *events.RefereeCommand) string {
	if cmd.Referee != OperatorID || cmd.Source != "battle" {
		return ""
	}
	rest, ok := strings.CutPrefix(in.Key, "withdraw:")
	if !ok {
		return ""
	}
	battle, _, _ := strings.Cut(rest, ":")
	return battle
}

// rollsBackEnd says whether ended game g takes a ROLLBACK: a battle
// (rolled back to before its end, which re-opens the assault in its
// campaign; not one its campaign abandoned), or a campaign withdrawing
// the result of such a battle.
func rollsBackEnd(g *Game, withdraws string) bool {
	_, _, battle := Parent(g)
	abandoned := g.Ended != nil && strings.Contains(g.Ended.Reason, abandonedBy)
	return battle && !abandoned || withdraws != ""
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// Span prints a duration the way players write one: "2d 3h", "45m".
func Span(d time.Duration) string {
	if d < time.Minute {
		return d.Round(time.Second).String()
	}
	d = d.Round(time.Minute)
	days, h, m := d/(24*time.Hour), (d%(24*time.Hour))/time.Hour, (d%time.Hour)/time.Minute
	var parts []string
	if days > 0 {
		parts = append(parts, fmt.Sprintf("%dd", days))
	}
	if h > 0 {
		parts = append(parts, fmt.Sprintf("%dh", h))
	}
	if m > 0 {
		parts = append(parts, fmt.Sprintf("%dm", m))
	}
	return strings.Join(parts, " ")
}

// who resolves a player id, a side or ALL to players.
func (g *Game) who(s string) []events.Player {
	var out []events.Player
	for _, p := range g.Players {
		if strings.EqualFold(s, "ALL") || strings.EqualFold(p.ID, s) || strings.EqualFold(p.Side, s) {
			out = append(out, p)
		}
	}
	return out
}

func (g *Game) playerNames() []string {
	var out []string
	for _, p := range g.Players {
		out = append(out, p.ID)
	}
	return out
}

// deadlineLayouts are the absolute times DEADLINE takes (UTC).
var deadlineLayouts = []string{time.RFC3339, "2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02"}

func (c *commandDecision) deadlineCmd(l cmdLine, args []string) {
	g := c.g
	hint := "DEADLINE anna 48h, DEADLINE ALL 2026-12-01 18:00 or EXTEND USA 1d"
	if len(args) < 2 {
		c.problem(l.problem(fmt.Sprintf("write %s <player, side or ALL> <time>", l.word), hint))
		return
	}
	ps := g.who(args[0])
	if len(ps) == 0 {
		c.problem(l.problem(fmt.Sprintf("%q is no player, side or ALL", args[0]), suggestFrom(args[0], g.playerNames())))
		return
	}
	when := strings.Join(args[1:], " ")
	span, spanErr := ParseSpan(when)
	var due int64
	if l.word == CmdExtend {
		if spanErr != nil || span == 0 {
			c.problem(l.problem(fmt.Sprintf("%q is not a span of time", when), "EXTEND anna 24h"))
			return
		}
	} else if spanErr == nil && span > 0 {
		due = c.in.At + int64(span)
	} else {
		for _, lay := range deadlineLayouts {
			if t, err := time.Parse(lay, when); err == nil {
				due = t.UnixNano()
				break
			}
		}
		if due == 0 {
			c.problem(l.problem(fmt.Sprintf("%q is neither a span of time nor a date (UTC)", when), hint))
			return
		}
		if due <= c.in.At {
			c.problem(l.problem(fmt.Sprintf("%s is already past", time.Unix(0, due).UTC().Format("2006-01-02 15:04 MST")), hint))
			return
		}
	}
	// A deadline runs only for a player who must act: one named alone who
	// need not is an error; of a side or ALL, those who need not are
	// left out, and the echo says so.
	var skipped []string
	set := 0
	for _, p := range ps {
		if !g.mustAct(c.st, p) {
			skipped = append(skipped, p.ID)
			continue
		}
		d := due
		if l.word == CmdExtend {
			cur, has := c.plan.get(p.ID)
			if !has {
				c.problem(l.problem(fmt.Sprintf("%s has no deadline to extend", p.ID), "DEADLINE "+p.ID+" 48h"))
				continue
			}
			if d = cur.Due + int64(span); d <= c.in.At {
				c.problem(l.problem(fmt.Sprintf("%s's deadline would still be past (%s)", p.ID, timeText(d)), "DEADLINE "+p.ID+" 48h"))
				continue
			}
		}
		set++
		dl := Deadline{Player: p.ID, Due: d, Default: c.pol.AtDeadline}
		c.plan.set(dl, l.word+" "+g.dueEcho(dl))
	}
	switch {
	case set == 0 && len(skipped) > 0:
		c.problem(l.problem(fmt.Sprintf("%s %s not to act now (%s must): a deadline runs only for a player who must act",
			strings.Join(skipped, ", "), isAre(len(skipped)), g.movers(c.st)), "STATUS says who must act"))
	case len(skipped) > 0:
		c.plan.echo = append(c.plan.echo, fmt.Sprintf("%s: no deadline for %s, not to act now", l.word, strings.Join(skipped, ", ")))
	}
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func (c *commandDecision) replace(l cmdLine, args []string) {
	g := c.g
	hint := "REPLACE anna WITH bob@example.org NAME Bob Smith"
	if len(args) < 3 || !strings.EqualFold(args[1], "WITH") {
		c.problem(l.problem("write REPLACE <player> WITH <address> [NAME <name>]", hint))
		return
	}
	p, _ := g.seat(strings.ToLower(args[0]))
	if p == nil {
		var ids []string
		for _, q := range append(append([]events.Player(nil), g.Players...), g.Referees...) {
			ids = append(ids, q.ID)
		}
		c.problem(l.problem(fmt.Sprintf("%q is no player or referee of this game", args[0]), suggestFrom(args[0], ids)))
		return
	}
	addrs, name, bad := addressesAndName(args[2:])
	if bad != "" {
		c.problem(l.problem(bad, hint))
		return
	}
	if bad := g.seatConflict(p, g.IsReferee(p.ID), addrs); bad != "" {
		c.problem(l.problem(bad, ""))
		return
	}
	echo, fact := g.replaceFact(p, addrs, name)
	c.add(echo, fact)
}

// replaceFact is a seat changing hands: the new addresses and name, and
// a new key epoch, so that the reply key (and a referee's secret) the old
// holder has stops working.
func (g *Game) replaceFact(p *events.Player, addrs []string, name string) (string, events.Fact) {
	args := []events.Arg{events.S("id", p.ID)}
	echo := fmt.Sprintf("REPLACE %s: mail now goes to %s (was %s)", p.ID, strings.Join(addrs, ", "), strings.Join(p.Addresses, ", "))
	if name != "" {
		args = append(args, events.S("name", name))
		echo += fmt.Sprintf("; name %s (was %s)", name, p.Name)
	}
	echo += "; the seat has a new key, and the old one no longer works"
	args = append(args, events.SL("addresses", addrs...), events.SL("was", p.Addresses...), events.I("epoch", int64(g.KeyEpoch(p.ID)+1)))
	return echo, events.NewFact(FactPlayer, args...)
}

// addressesAndName reads "<address>[,<address>…] [NAME <name>]"; bad
// says what is wrong, if anything.
func addressesAndName(words []string) (addrs []string, name, bad string) {
	rest := words
	for i, w := range rest {
		if strings.EqualFold(w, "NAME") {
			name, rest = strings.Join(rest[i+1:], " "), rest[:i]
			break
		}
	}
	for _, a := range strings.Split(strings.Join(rest, ","), ",") {
		a = strings.ToLower(strings.Trim(strings.TrimSpace(a), "<>"))
		if a == "" {
			continue
		}
		if !validAddress(a) {
			return nil, "", fmt.Sprintf("%q is not a mail address", a)
		}
		addrs = append(addrs, a)
	}
	if len(addrs) == 0 {
		return nil, "", "the new address is missing"
	}
	return addrs, name, ""
}

// validAddress is a plain address, local@domain, with nothing a header
// could be bent with.
func validAddress(a string) bool {
	local, domain, ok := strings.Cut(a, "@")
	return ok && local != "" && domain != "" && !strings.Contains(domain, "@") && !strings.ContainsAny(a, " \t\r\n<>,;:\"()[]\\")
}

// pause is a referee's PAUSE: a new pause, or the players' pause taken
// over (it then no longer ends by itself, and only a referee lifts it).
func (c *commandDecision) pause(l cmdLine) {
	reason := strings.TrimSpace(l.text[len(l.words[0]):])
	// A referee who also plays (referee-plays=yes) pauses like a player:
	// the pause ends by itself after the game's pause-max.
	bounded := ""
	if side, plays := c.g.PlayingReferee(c.by); plays {
		if pm := c.pol.PauseMax; pm > 0 {
			bounded = fmt.Sprintf("; as you also play %s, it ends by itself after the game's pause-max of %s", side, Span(pm))
		}
	}
	switch {
	case c.paused == nil:
		c.paused = &Pause{By: c.by, At: c.in.At, Reason: reason}
		c.add("PAUSE: the game is paused"+suffix(": ", reason)+bounded, events.NewFact(FactPause, events.S("by", c.by), events.S("reason", reason), events.I("at", c.in.At)))
	case c.paused.By == PausedByPlayers:
		if reason == "" {
			reason = c.paused.Reason
		}
		c.paused = &Pause{By: c.by, At: c.paused.At, Reason: reason}
		ends := "; it no longer ends by itself, and a referee lifts it"
		if bounded != "" {
			ends = bounded
		}
		c.add(fmt.Sprintf("PAUSE: %s holds the players' pause (since %s)%s%s",
			c.g.seatName(c.by), timeText(c.paused.At), suffix(": ", reason), ends),
			events.NewFact(FactPause, events.S("by", c.by), events.S("reason", reason), events.I("at", c.paused.At)))
	default:
		c.problem(l.problem("the game is already paused "+c.g.pauseBy(c.paused), "RESUME first, in the same mail, to pause it anew"))
	}
}

// referee is REFEREE ADD <address> [NAME <name>] or REFEREE REMOVE <id>.
func (c *commandDecision) referee(l cmdLine, args []string) {
	hint := "REFEREE ADD dana@example.org NAME Dana  or  REFEREE REMOVE dana"
	switch {
	case len(args) >= 2 && strings.EqualFold(args[0], "ADD"):
		addrs, name, bad := addressesAndName(args[1:])
		if bad != "" {
			c.problem(l.problem(bad, hint))
			return
		}
		if bad := c.g.seatConflict(nil, true, addrs); bad != "" {
			c.problem(l.problem(bad, ""))
			return
		}
		echo, fact := c.g.refereeAddFact(addrs, name)
		c.add(echo, fact)
	case len(args) == 2 && strings.EqualFold(args[0], "REMOVE"):
		id := strings.ToLower(args[1])
		if !c.g.IsReferee(id) {
			var ids []string
			for _, r := range c.g.Referees {
				ids = append(ids, r.ID)
			}
			c.problem(l.problem(fmt.Sprintf("%q is no referee of this game", args[1]), suggestFrom(args[1], ids)))
			return
		}
		c.add("REFEREE REMOVE "+id+": no longer a referee of this game", events.NewFact(FactReferee, events.S("id", id), events.B("added", false)))
	default:
		c.problem(l.problem("write REFEREE ADD <address> [NAME <name>] or REFEREE REMOVE <referee>", hint))
	}
}

// refereeAddFact adds a referee at addrs, with an id made from the address.
func (g *Game) refereeAddFact(addrs []string, name string) (string, events.Fact) {
	id := g.newRefereeID(addrs[0])
	if name == "" {
		name = id
	}
	return fmt.Sprintf("REFEREE ADD %s <%s>: now a referee of this game, as %s; a welcome mail brings the referee's secret", name, strings.Join(addrs, ", "), id),
		events.NewFact(FactReferee, events.S("id", id), events.S("name", name), events.SL("addresses", addrs...), events.B("added", true))
}

// message is MESSAGE <player|side|ALL> <text>: a referee's word to some
// players, which only they (and the referees) see.
func (c *commandDecision) message(l cmdLine, text string) {
	hint := "MESSAGE anna Please send your orders by Friday."
	to, body, _ := strings.Cut(text, " ")
	body = strings.TrimSpace(body)
	ps := c.g.who(to)
	if len(l.words) < 2 || len(ps) == 0 {
		c.problem(l.problem(fmt.Sprintf("write MESSAGE <player, side or ALL> <text> (%q is no player, side or ALL)", to), hint))
		return
	}
	if body == "" {
		c.problem(l.problem("the message is empty", hint))
		return
	}
	for _, p := range ps {
		if c.vis == nil {
			c.vis, c.echoVis = map[int]events.Vis{}, map[int]events.Vis{}
		}
		c.vis[len(c.facts)], c.echoVis[len(c.echo)] = events.ToPlayer(p.ID), events.ToPlayer(p.ID)
		c.add(fmt.Sprintf("MESSAGE to %s: %s", p.ID, firstLine(body)),
			events.NewFact(FactMessage, events.S("from", c.by), events.S("to", p.ID), events.S("text", body)))
	}
}

// decideOrderFor decides a referee's ORDER <player> <orders>: the orders
// are decided as the player's own, entered by the referee (for a player
// who is late, say), and said to be so.
func (g *Game) decideOrderFor(in *events.Envelope, cmd *events.RefereeCommand, l cmdLine, dice engine.Dice, rolled func() []events.Die) (events.Payload, engine.State, engine.Outcome, error) {
	hint := "ORDER taro PASS"
	if len(l.words) < 2 {
		return g.reject(in, cmd.Referee, l.problem("write ORDER <player> <orders>", hint))
	}
	who, ok := g.PlayerByID(strings.ToLower(l.words[1]))
	if !ok || who.Side == "" {
		return g.reject(in, cmd.Referee, l.problem(fmt.Sprintf("%q is no player of this game", l.words[1]), suggestFrom(l.words[1], g.playerNames())))
	}
	if g.Paused != nil {
		return g.reject(in, cmd.Referee, l.problem(g.pausedMsg(), "RESUME first, in a mail of its own"))
	}
	// The orders are the rest of the ORDER line and the lines after it, at
	// their own line numbers, so that a problem points where they were
	// written.
	lines := strings.Split(cmd.Text, "\n")
	first := lines[l.no-1]
	i := strings.Index(strings.ToUpper(first), strings.ToUpper(l.words[1])) + len(l.words[1])
	lines[l.no-1] = strings.Repeat(" ", i) + first[i:]
	for k := 0; k < l.no-1; k++ {
		lines[k] = ""
	}
	text := strings.Join(lines, "\n")
	dec, st, out, err := g.decideAs(in, who.ID, who.Side, text, dice, rolled)
	if err != nil {
		return dec, st, out, err
	}
	switch d := dec.(type) {
	case *events.OrderAccepted:
		if len(d.Facts) == 0 {
			return g.reject(in, cmd.Referee, l.problem("ORDER enters orders that change the game; HELP, BOARD and STATUS need none", hint))
		}
		d.Player = cmd.Referee
		d.Echo = append([]string{fmt.Sprintf("ORDER %s: the referee enters %s's orders", who.ID, g.seatName(who.ID))}, d.Echo...)
		if len(d.EchoVis) > 0 {
			d.EchoVis = append([]events.Vis{{}}, d.EchoVis...)
		}
		d.Facts = append([]events.Fact{events.NewFact(FactOrdered, events.S("by", cmd.Referee), events.S("player", who.ID))}, d.Facts...)
		return g.withDeadlines(d, st, out, who.ID, in.At), st, out, nil
	case *events.OrderRejected:
		d.Player = cmd.Referee
	}
	return dec, st, out, nil
}

func (c *commandDecision) announce(l cmdLine, text string) {
	if text == "" {
		c.problem(l.problem("ANNOUNCE needs a text", "ANNOUNCE The next turn starts on Monday."))
		return
	}
	c.add("ANNOUNCE: "+firstLine(text), events.NewFact(FactAnnounce, events.S("by", c.by), events.S("text", text)))
}

func (c *commandDecision) end(l cmdLine, args []string) {
	g := c.g
	hint := "END WINNER USA Lee surrendered  or  END DRAW agreed by both players"
	var winner, reason string
	switch {
	case len(args) >= 1 && strings.EqualFold(args[0], "DRAW"):
		reason = strings.Join(args[1:], " ")
	case len(args) >= 2 && strings.EqualFold(args[0], "WINNER"):
		for _, p := range g.Players {
			if strings.EqualFold(p.Side, args[1]) {
				winner = p.Side
			}
		}
		if winner == "" {
			var sides []string
			for _, p := range g.Players {
				sides = addSorted(sides, p.Side)
			}
			c.problem(l.problem(fmt.Sprintf("%q is not a side of this game", args[1]), suggestFrom(args[1], sides)))
			return
		}
		reason = strings.Join(args[2:], " ")
	default:
		c.problem(l.problem("write END WINNER <side> [reason] or END DRAW [reason]", hint))
		return
	}
	if reason == "" {
		reason = "ended by the referee"
	} else {
		reason = "ended by the referee: " + reason
	}
	c.out = engine.Outcome{Over: true, Winner: winner, Reason: reason}
	echo := "END: a draw"
	if winner != "" {
		echo = "END: " + winner + " wins"
	}
	c.add(echo+" ("+reason+")", events.NewFact(FactEnd, events.S("by", c.by), events.S("winner", winner), events.S("reason", reason)))
}

func (c *commandDecision) setting(l cmdLine, args []string) {
	if len(args) >= 1 && strings.EqualFold(args[0], "tz") {
		c.tzSetting(l, args[1:])
		return
	}
	if len(args) == 3 && strings.EqualFold(args[0], SettingMail) {
		// SETTING mail <player> <volume>: one reader's own volume.
		if p, _ := c.g.seat(strings.ToLower(args[1])); p != nil {
			args = []string{SettingMailPrefix + p.ID, args[2]}
		}
	}
	if len(args) < 2 {
		c.problem(l.problem("write SETTING <key> <value>", "SETTING deadline 72h (keys: "+strings.Join(SettingKeys(), ", ")+")"))
		return
	}
	key, value := strings.ToLower(args[0]), strings.Join(args[1:], " ")
	if key == SettingBuiltinDomain {
		c.problem(l.problem("builtin-domain is the server's to set, when the game is created", ""))
		return
	}
	if strings.EqualFold(key, SettingRefereePlays) {
		// Players agreed to their game as it was created: whether its
		// referee may also play is not for the referee to change later.
		c.problem(l.problem("referee-plays is set when the game is created (pbem new --set referee-plays=yes) and never after", ""))
		return
	}
	if err := c.pol.set(key, value); err != nil {
		c.problem(l.problem(err.Error(), suggestFrom(key, SettingKeys())))
		return
	}
	if key == SettingAtDeadline {
		if err := c.g.checkAtDeadline(c.st, value); err != nil {
			c.problem(l.problem(err.Error(), "SETTING at-deadline PASS, or SETTING at-deadline referee"))
			return
		}
	}
	c.add(fmt.Sprintf("SETTING %s %s (was %s)", key, value, orNone(c.g.setting(key))),
		events.NewFact(FactSetting, events.S("key", key), events.S("value", value), events.S("was", c.g.setting(key))))
	c.settingEffects(key)
}

// settingEffects logs what a new setting does to the deadlines running
// now, each change with its own echo.
func (c *commandDecision) settingEffects(key string) {
	switch key {
	case SettingDeadline:
		if c.pol.Deadline == 0 {
			// No deadlines: the running ones end too.
			for _, d := range append([]Deadline(nil), c.plan.dl...) {
				c.plan.set(Deadline{Player: d.Player}, d.Player+": deadline cleared")
			}
			return
		}
		// Who must act and has no deadline running gets one; a running
		// one stays as it is (DEADLINE changes it).
		for _, p := range c.g.Players {
			if cur, has := c.plan.get(p.ID); c.g.mustAct(c.st, p) && (!has || cur.Passed && !c.g.passing(cur)) {
				c.plan.set(Deadline{Player: p.ID, Due: c.g.dueFor(p.ID, c.in.At, c.pol.Deadline), Default: c.pol.AtDeadline}, "")
			}
		}
	case SettingAtDeadline:
		// The running deadlines get the new default; one that passed
		// already stays passed (ORDER enters the late player's orders).
		for _, d := range append([]Deadline(nil), c.plan.dl...) {
			if d.Passed {
				c.plan.echo = append(c.plan.echo, fmt.Sprintf("%s: the deadline passed already; ORDER %s <orders> enters their orders", d.Player, d.Player))
				continue
			}
			d.Default = c.pol.AtDeadline
			c.plan.set(d, "")
		}
	case SettingPauseMax:
		if c.paused != nil && c.paused.By == PausedByPlayers {
			if c.pol.PauseMax > 0 {
				c.echo = append(c.echo, "the players' pause now ends by itself "+timeText(c.paused.At+int64(c.pol.PauseMax)))
			} else {
				c.echo = append(c.echo, "the players' pause now lasts until they resume")
			}
		}
	}
}

// tzSetting is SETTING tz <player> <zone>: the player's time zone.
func (c *commandDecision) tzSetting(l cmdLine, args []string) {
	hint := "SETTING tz anna Europe/Berlin"
	if len(args) != 2 {
		c.problem(l.problem("write SETTING tz <player> <zone>", hint))
		return
	}
	p, _ := c.g.seat(strings.ToLower(args[0]))
	if p == nil {
		c.problem(l.problem(fmt.Sprintf("%q is no player or referee of this game", args[0]), suggestFrom(args[0], c.g.playerNames())))
		return
	}
	if _, err := loadZone(args[1]); err != nil {
		c.problem(l.problem(err.Error(), hint))
		return
	}
	key := SettingTZPrefix + p.ID
	c.add(fmt.Sprintf("SETTING tz %s %s (was %s)", p.ID, args[1], orNone(c.g.setting(key))),
		events.NewFact(FactSetting, events.S("key", key), events.S("value", args[1]), events.S("was", c.g.setting(key))))
}

// setting returns the value of a game setting, or "".
func (g *Game) setting(key string) string {
	for _, s := range g.Settings {
		if s.Key == key {
			return s.Value
		}
	}
	return ""
}

// checkAtDeadline checks an at-deadline value: "referee", or an order
// every side could send in st (it is read as each side would write it).
func (g *Game) checkAtDeadline(st engine.State, value string) error {
	if strings.EqualFold(strings.TrimSpace(value), "referee") {
		return nil
	}
	for _, side := range g.sides() {
		if _, probs := g.Rules.Parse(st, side, value); len(probs) > 0 {
			return fmt.Errorf("at-deadline %q is not an order %s could send: %s", value, side, probs[0].Msg)
		}
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "not set"
	}
	return s
}

// suggestFrom returns the candidate closest to s, when one is close.
func suggestFrom(s string, cands []string) string {
	best, bestD := "", 3
	for _, c := range cands {
		if d := names.Distance(names.Fold(s), names.Fold(c)); d < bestD {
			best, bestD = c, d
		}
	}
	if best == "" {
		if len(cands) > 0 {
			return "one of: " + strings.Join(cands, ", ")
		}
		return ""
	}
	return "did you mean " + best + "?"
}

// SetWord is the referee's correction order every rule system takes:
// SET <thing> <field> <value>, an explicit change of the state.
const SetWord = "SET"

// IsOverride reports whether a referee's accepted command (its text and
// decision) overrode the game: a correction (SET), an order entered for a
// player (ORDER), or a game command that changed the game (a rollback, a
// pause, a seat, a setting, a deadline …). A ruling on a step the rules
// hand to the referee (RULE …) is part of play, not an override, even
// though the deadlines move on after it; nor is an announcement or a
// message, which change nothing.
func IsOverride(text string, d *events.OrderAccepted) bool {
	if d == nil || len(d.Facts) == 0 {
		return false
	}
	for _, l := range commandLines(text) {
		if l.word == SetWord {
			return true
		}
	}
	ls := commandLines(text)
	if len(ls) == 0 || !isGameCommand(ls[0].word) {
		return false // rulings: their deadline facts are play's own
	}
	for _, f := range d.Facts {
		switch f.Kind {
		case FactAnnounce, FactMessage:
		default:
			if engine.IsGameFact(f) {
				return true
			}
		}
	}
	return false
}

// StillInEffect reports whether an accepted decision inside a branch a
// rollback closed still holds: a rollback returns the rules' state, but
// the seats, observers, settings, pauses and referees a game command
// changed stay as they were changed.
func StillInEffect(d *events.OrderAccepted) bool {
	if d == nil {
		return false
	}
	for _, f := range d.Facts {
		switch f.Kind {
		case FactPlayer, FactObserver, FactSetting, FactPause, FactResume, FactReferee, FactAbsence:
			return true
		}
	}
	return false
}
