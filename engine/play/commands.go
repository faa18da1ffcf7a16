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
)

var gameCommands = []string{CmdRollback, CmdPause, CmdResume, CmdDeadline, CmdExtend, CmdReplace, CmdObserver, CmdAnnounce, CmdEnd, CmdSetting}

// GameCommandForms are the forms of the referee's game commands, for help
// texts.
var GameCommandForms = []string{
	"ROLLBACK TO <seq>             the game as it was after event <seq>",
	"ROLLBACK <n> ACTIONS          undo the last n accepted actions",
	"PAUSE [reason]                no orders are taken, no deadline runs",
	"RESUME                        deadlines move on by the time paused",
	"DEADLINE <player|side|ALL> <72h|3d|2026-12-01 18:00>",
	"EXTEND <player|side|ALL> <24h|2d>",
	"REPLACE <player> WITH <address>[,<address>] [NAME <name>]",
	"OBSERVER ADD <address>  /  OBSERVER REMOVE <address>",
	"ANNOUNCE <text, to the end of the mail>",
	"END WINNER <side> [reason]  /  END DRAW [reason]",
	"SETTING <deadline|reminder|at-deadline|grace|overrides> <value>",
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
	ls := commandLines(cmd.Text)
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
	c := &commandDecision{g: g, in: in, by: cmd.Referee, st: g.State, pol: g.Policy()}
	for i := 0; i < len(ls); i++ {
		l := ls[i]
		if !isGameCommand(l.word) {
			c.problem(l.problem(fmt.Sprintf("%q is not a game command (game commands: %s)", l.words[0], strings.Join(gameCommands, ", ")),
				"send rulings (RULE, SET …) in a mail of their own"))
			continue
		}
		if l.word == CmdAnnounce {
			// ANNOUNCE takes the rest of the mail.
			rest := []string{strings.TrimSpace(l.text[len(l.words[0]):])}
			for _, m := range ls[i+1:] {
				rest = append(rest, m.text)
			}
			c.announce(l, strings.TrimSpace(strings.Join(rest, "\n")))
			break
		}
		c.command(l)
	}
	if len(c.probs) > 0 {
		return g.reject(in, cmd.Referee, c.probs...)
	}
	acc := &events.OrderAccepted{Input: in.Seq, Player: cmd.Referee, RulesetVersion: g.Rules.Version(), Echo: c.echo, Facts: c.facts}
	if c.fresh {
		acc.Facts = append(acc.Facts, g.deadlineFactsFresh(c.st, in.At, c.pol)...)
	}
	return acc, c.st, c.out, nil
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
// from at (after a rollback or a new deadline policy).
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
	g     *Game
	in    *events.Envelope
	by    string
	st    engine.State
	pol   Policy
	out   engine.Outcome
	fresh bool // deadlines start afresh after the commands

	facts []events.Fact
	echo  []string
	probs []events.Problem

	paused   bool // a PAUSE in this mail
	deadline map[string]int64
}

func (c *commandDecision) problem(p events.Problem) { c.probs = append(c.probs, p) }

func (c *commandDecision) add(echo string, fs ...events.Fact) {
	c.echo = append(c.echo, echo)
	c.facts = append(c.facts, fs...)
}

func (c *commandDecision) command(l cmdLine) {
	g := c.g
	if g.Ended != nil && l.word != CmdObserver {
		c.problem(l.problem("the game is over: "+g.Ended.Reason, "ANNOUNCE or OBSERVER still work"))
		return
	}
	args := l.words[1:]
	switch l.word {
	case CmdRollback:
		c.rollback(l, args)
	case CmdPause:
		if g.Paused != nil || c.paused {
			c.problem(l.problem("the game is already paused", "RESUME"))
			return
		}
		reason := strings.TrimSpace(l.text[len(l.words[0]):])
		c.paused = true
		c.add("PAUSE: the game is paused"+suffix(": ", reason), events.NewFact(FactPause, events.S("by", c.by), events.S("reason", reason), events.I("at", c.in.At)))
	case CmdResume:
		if g.Paused == nil {
			c.problem(l.problem("the game is not paused", ""))
			return
		}
		c.add("RESUME: "+g.resumeEcho(c.in.At), g.resumeFacts(c.by, c.in.At)...)
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
		to = g.Recent[len(g.Recent)-n] - 1
	default:
		c.problem(l.problem("write ROLLBACK TO <seq> or ROLLBACK <n> ACTIONS", hint))
		return
	}
	if to >= c.in.Seq-1 {
		c.problem(l.problem(fmt.Sprintf("seq %d is not before the last event (%d): there is nothing to roll back", to, c.in.Seq-1), hint))
		return
	}
	if len(c.facts) > 0 {
		c.problem(l.problem("a rollback must come first in the mail", "send the other commands after it, in the same mail or another"))
		return
	}
	if g.History == nil {
		c.problem(l.problem("pbem cannot read this game's log here", ""))
		return
	}
	past, err := g.History.At(to)
	if err != nil {
		c.problem(l.problem(fmt.Sprintf("the game at seq %d cannot be loaded: %v", to, err), ""))
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
	c.st, c.fresh = past.State, true
	c.add(fmt.Sprintf("ROLLBACK to seq %d: the game is as it was after seq %d; %s undone; seqs %d–%d stay in the log as a closed branch",
		to, to, plural(undone, "action"), to+1, c.in.Seq-1),
		events.NewFact(FactRollback, events.I("to", int64(to)), events.S("state", base64.StdEncoding.EncodeToString(enc)), events.S("by", c.by)))
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

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// resumeFacts end a pause at at: deadlines move on by the time paused.
func (g *Game) resumeFacts(by string, at int64) []events.Fact {
	paused := at - g.Paused.At
	fs := []events.Fact{events.NewFact(FactResume, events.S("by", by), events.I("at", at), events.I("paused", paused))}
	for _, d := range g.Deadlines {
		fs = append(fs, deadlineFact(d.Player, d.Due+paused, d.Default))
	}
	return fs
}

func (g *Game) resumeEcho(at int64) string {
	s := "the game resumes after " + Span(time.Duration(at-g.Paused.At))
	if len(g.Deadlines) > 0 {
		s += "; deadlines move on by as much"
	}
	return s
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
	for _, p := range ps {
		cur, has := g.Deadline(p.ID)
		if c.deadline != nil {
			if d, ok := c.deadline[p.ID]; ok {
				cur.Due, has = d, true
			}
		}
		d := due
		if l.word == CmdExtend {
			if !has || cur.Due == 0 {
				c.problem(l.problem(fmt.Sprintf("%s has no deadline to extend", p.ID), "DEADLINE "+p.ID+" 48h"))
				continue
			}
			d = cur.Due + int64(span)
		}
		dflt := cur.Default
		if !has || dflt == "" {
			dflt = c.pol.AtDeadline
		}
		if c.deadline == nil {
			c.deadline = map[string]int64{}
		}
		c.deadline[p.ID] = d
		c.add(fmt.Sprintf("%s %s: orders due %s", l.word, p.ID, time.Unix(0, d).UTC().Format("Mon 2 Jan 2006 15:04 MST")),
			deadlineFact(p.ID, d, dflt))
	}
}

func (c *commandDecision) replace(l cmdLine, args []string) {
	g := c.g
	hint := "REPLACE anna WITH bob@example.org NAME Bob Smith"
	if len(args) < 3 || !strings.EqualFold(args[1], "WITH") {
		c.problem(l.problem("write REPLACE <player> WITH <address> [NAME <name>]", hint))
		return
	}
	p, _ := g.seat(args[0])
	if p == nil {
		var ids []string
		for _, q := range append(append([]events.Player(nil), g.Players...), g.Referees...) {
			ids = append(ids, q.ID)
		}
		c.problem(l.problem(fmt.Sprintf("%q is no player or referee of this game", args[0]), suggestFrom(args[0], ids)))
		return
	}
	rest := args[2:]
	var name string
	for i, w := range rest {
		if strings.EqualFold(w, "NAME") {
			name, rest = strings.Join(rest[i+1:], " "), rest[:i]
			break
		}
	}
	var addrs []string
	for _, a := range strings.Split(strings.Join(rest, ","), ",") {
		a = strings.ToLower(strings.Trim(strings.TrimSpace(a), "<>"))
		if a == "" {
			continue
		}
		if !strings.Contains(a, "@") || strings.ContainsAny(a, " \t") {
			c.problem(l.problem(fmt.Sprintf("%q is not a mail address", a), hint))
			return
		}
		addrs = append(addrs, a)
	}
	if len(addrs) == 0 {
		c.problem(l.problem("REPLACE needs the new address", hint))
		return
	}
	args2 := []events.Arg{events.S("id", p.ID)}
	echo := fmt.Sprintf("REPLACE %s: mail now goes to %s (was %s)", p.ID, strings.Join(addrs, ", "), strings.Join(p.Addresses, ", "))
	if name != "" {
		args2 = append(args2, events.S("name", name))
		echo += fmt.Sprintf("; name %s (was %s)", name, p.Name)
	}
	args2 = append(args2, events.SL("addresses", addrs...), events.SL("was", p.Addresses...))
	c.add(echo, events.NewFact(FactPlayer, args2...))
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
	if len(args) < 2 {
		c.problem(l.problem("write SETTING <key> <value>", "SETTING deadline 72h (keys: "+strings.Join(SettingKeys(), ", ")+")"))
		return
	}
	key, value := strings.ToLower(args[0]), strings.Join(args[1:], " ")
	if err := c.pol.set(key, value); err != nil {
		c.problem(l.problem(err.Error(), suggestFrom(key, SettingKeys())))
		return
	}
	var was string
	for _, s := range c.g.Settings {
		if s.Key == key {
			was = s.Value
		}
	}
	if key == SettingDeadline || key == SettingAtDeadline {
		c.fresh = true
	}
	c.add(fmt.Sprintf("SETTING %s %s (was %s)", key, value, orNone(was)),
		events.NewFact(FactSetting, events.S("key", key), events.S("value", value), events.S("was", was)))
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

// pauseWord reports whether a player's text is PAUSE or RESUME (with an
// optional reason on the same line), alone.
func pauseWord(text string) (word, reason string, ok bool) {
	ls := commandLines(text)
	if len(ls) != 1 || (ls[0].word != CmdPause && ls[0].word != CmdResume) {
		return "", "", false
	}
	return ls[0].word, strings.TrimSpace(ls[0].text[len(ls[0].words[0]):]), true
}

// decidePause decides a player's PAUSE or RESUME: a pause (or the end of
// one) needs every side to ask for it, or the referee.
func (g *Game) decidePause(in *events.Envelope, who events.Player, word, reason string) (events.Payload, engine.State, engine.Outcome, error) {
	l := commandLines(g.inputText(in))[0]
	if g.Ended != nil {
		return g.reject(in, who.ID, l.problem("the game is over: "+g.Ended.Reason, ""))
	}
	resume := word == CmdResume
	switch {
	case resume && g.Paused == nil:
		return g.reject(in, who.ID, l.problem("the game is not paused", ""))
	case !resume && g.Paused != nil:
		return g.reject(in, who.ID, l.problem("the game is already paused", "RESUME (every side must send it)"))
	case resume && g.Paused.By != "players":
		return g.reject(in, who.ID, l.problem("the referee paused the game; only the referee resumes it", "write to the referee"))
	}
	acc := &events.OrderAccepted{Input: in.Seq, Player: who.ID, RulesetVersion: g.Rules.Version()}
	if contains(g.PauseAsks, who.Side) {
		acc.Echo = []string{fmt.Sprintf("%s: %s has already asked; waiting for %s", word, who.Side, strings.Join(g.sidesNotAsked(who.Side), ", "))}
		return acc, g.State, engine.Outcome{}, nil
	}
	acc.Facts = append(acc.Facts, events.NewFact(FactPauseAsk, events.S("side", who.Side), events.B("resume", resume)))
	missing := g.sidesNotAsked(who.Side)
	switch {
	case len(missing) > 0:
		what := "pauses"
		if resume {
			what = "resumes"
		}
		acc.Echo = []string{fmt.Sprintf("%s: %s asks; the game %s once %s also send %s", word, who.Side, what, strings.Join(missing, ", "), word)}
	case resume:
		acc.Echo = []string{"RESUME: every side asked; " + g.resumeEcho(in.At)}
		acc.Facts = append(acc.Facts, g.resumeFacts("players", in.At)...)
	default:
		acc.Echo = []string{"PAUSE: every side asked; the game is paused" + suffix(": ", reason)}
		acc.Facts = append(acc.Facts, events.NewFact(FactPause, events.S("by", "players"), events.S("reason", reason), events.I("at", in.At)))
	}
	return acc, g.State, engine.Outcome{}, nil
}

// sidesNotAsked are the sides, other than side, that have not asked for
// the pending pause or resume.
func (g *Game) sidesNotAsked(side string) []string {
	var out []string
	for _, p := range g.Players {
		if p.Side != side && !contains(g.PauseAsks, p.Side) && !contains(out, p.Side) {
			out = append(out, p.Side)
		}
	}
	return out
}

func (g *Game) inputText(in *events.Envelope) string {
	p, err := events.Decode(in)
	if err != nil {
		return ""
	}
	switch p := p.(type) {
	case *events.OrderReceived:
		return p.Text
	case *events.RefereeCommand:
		return p.Text
	}
	return ""
}

// SetWord is the referee's correction order every rule system takes:
// SET <thing> <field> <value>, an explicit change of the state.
const SetWord = "SET"

// IsOverride reports whether a referee's accepted command (its text and
// decision) overrode the game: a correction (SET), or a game command
// that changed something. A ruling on a step the rules hand to the
// referee (RULE …) is part of play, not an override.
func IsOverride(text string, d *events.OrderAccepted) bool {
	if d == nil || len(d.Facts) == 0 {
		return false
	}
	for _, f := range d.Facts {
		if engine.IsGameFact(f) {
			return true
		}
	}
	for _, l := range commandLines(text) {
		if l.word == SetWord {
			return true
		}
	}
	return false
}
