// The players' game words (PAUSE, RESUME, DRAW, CONCEDE, ABSENCE, TZ,
// REFEREE): how a player's mail that starts with one is decided, and how
// the requests every side must make (a pause, a draw, a referee) are
// gathered until every side has asked.

package play

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"pbem/engine"
	"pbem/events"
)

// The words every player may send, whatever the rule system, each in a
// mail of its own (REFEREE takes the rest of the mail as its message).
// What every side must ask for (a pause, its end, a draw, a referee) is
// granted once every side has asked the same; an ask expires when the
// game moves on.
const (
	WordPause   = "PAUSE"   // PAUSE [reason]
	WordResume  = "RESUME"  // RESUME
	WordDraw    = "DRAW"    // DRAW: every side agrees to a draw
	WordConcede = "CONCEDE" // CONCEDE [reason]: the other side wins
	WordAbsence = "ABSENCE" // ABSENCE <from> <to> | ABSENCE CANCEL
	WordTZ      = "TZ"      // TZ <zone>
	WordReferee = "REFEREE" // REFEREE <message> | REFEREE ADD … | REFEREE REPLACE …
)

var playerWords = []string{WordPause, WordResume, WordDraw, WordConcede, WordAbsence, WordTZ, WordReferee, WordMail}

// PlayerWordForms are the forms of the players' game words, for HELP.
var PlayerWordForms = []string{
	"PAUSE [reason]        the game pauses once every side sent PAUSE",
	"RESUME                and resumes once every side sent RESUME",
	"DRAW                  a draw, once every side sent DRAW",
	"CONCEDE [reason]      you give up: the other side wins",
	"ABSENCE <from> <to>   your deadlines stand still while you are away",
	"                      (2026-12-01 or 2026-12-01 18:00; ABSENCE CANCEL)",
	"TZ <zone>             your time zone (Europe/Berlin) for times in mails",
	"MAIL EVERY|TURN|MOVE  a mail for every action, a digest each turn, or",
	"                      a mail only when you must act",
	"REFEREE <message>     to the referees (the rest of the mail)",
	"REFEREE ADD <address> [NAME <name>]     a referee, once every side sent it",
	"PRESS TO <who>: <text>   to other players: a player, a side or ALL",
	"                      (the rest of the mail; the referees read it only",
	"                      if the game's press-referee setting is all)",
	"LOG [n]               the last n actions, as you may see them",
}

// ObserverPrefix starts the id an observer's mail is logged under
// ("observer:kim@example.org"): observers send no orders, but a mail from
// one is answered.
const ObserverPrefix = "observer:"

// playerWord returns the first line of text if it starts with one of the
// players' game words.
func playerWord(text string) (cmdLine, []cmdLine, bool) {
	ls := commandLines(text)
	if len(ls) == 0 || !contains(playerWords, ls[0].word) {
		return cmdLine{}, nil, false
	}
	return ls[0], ls, true
}

// decidePlayerWord decides a mail that starts with a player's game word.
func (g *Game) decidePlayerWord(in *events.Envelope, who events.Player, l cmdLine, ls []cmdLine) (events.Payload, engine.State, engine.Outcome, error) {
	if l.word != WordReferee && len(ls) > 1 {
		return g.reject(in, who.ID, ls[1].problem(fmt.Sprintf("%s goes alone in a mail; this line was not read", l.word),
			"send "+l.word+" in a mail of its own"))
	}
	if g.Ended != nil && l.word != WordTZ && l.word != WordReferee && l.word != WordMail {
		return g.reject(in, who.ID, l.problem("the game is over: "+g.Ended.Reason, ""))
	}
	pw := &playerDecision{g: g, in: in, who: who, l: l,
		acc: &events.OrderAccepted{Input: in.Seq, Player: who.ID, RulesetVersion: g.Rules.Version()}}
	rest := strings.TrimSpace(l.text[len(l.words[0]):])
	switch l.word {
	case WordPause, WordResume:
		pw.pause(rest)
	case WordDraw:
		pw.draw()
	case WordConcede:
		pw.concede(rest)
	case WordAbsence:
		pw.absence(l.words[1:])
	case WordTZ:
		pw.tz(l.words[1:])
	case WordMail:
		pw.mail(l.words[1:])
	case WordReferee:
		var more []string
		for _, m := range ls[1:] {
			more = append(more, m.text)
		}
		pw.referee(l.words[1:], strings.TrimSpace(strings.Join(append([]string{rest}, more...), "\n")))
	}
	if len(pw.probs) > 0 {
		return g.reject(in, who.ID, pw.probs...)
	}
	return pw.acc, g.State, pw.out, nil
}

// playerDecision collects the decision on a player's game word.
type playerDecision struct {
	g     *Game
	in    *events.Envelope
	who   events.Player
	l     cmdLine
	acc   *events.OrderAccepted
	out   engine.Outcome
	probs []events.Problem
}

func (pw *playerDecision) problem(msg, hint string) {
	pw.probs = append(pw.probs, pw.l.problem(msg, hint))
}

func (pw *playerDecision) add(echo string, fs ...events.Fact) {
	pw.acc.Echo = append(pw.acc.Echo, echo)
	pw.acc.Facts = append(pw.acc.Facts, fs...)
}

func askFact(kind, side, text string) events.Fact {
	return events.NewFact(FactAsk, events.S("kind", kind), events.S("side", side), events.S("text", text))
}

// pause is a player's PAUSE or RESUME: the game pauses (or resumes) once
// every side has asked, and a pause the players made alone ends by itself
// after the game's pause-max. A referee's pause only a referee lifts.
func (pw *playerDecision) pause(reason string) {
	g, side, word := pw.g, pw.who.Side, pw.l.word
	resume := word == WordResume
	kind := AskPause
	if resume {
		kind = AskResume
	}
	switch {
	case resume && g.Paused == nil:
		pw.problem("the game is not paused", "")
		return
	case !resume && g.Paused != nil:
		pw.problem("the game is already paused "+g.PausedText(), "RESUME (every side must send it)")
		return
	case resume && g.Paused.By != PausedByPlayers:
		msg := "the game was paused " + g.pauseBy(g.Paused) + "; only a referee resumes it"
		if end := g.PauseEnds(); end != 0 {
			// A referee who also plays: his pause is bounded.
			msg = fmt.Sprintf("the game was paused %s; it ends by itself %s (the game's pause-max), and only a referee resumes it sooner",
				g.pauseBy(g.Paused), timeText(end))
		}
		pw.problem(msg, g.RefereeContact())
		return
	}
	if _, ok := g.asked(kind, side); ok {
		pw.add(fmt.Sprintf("%s: %s has already asked; waiting for %s", word, side, strings.Join(g.notAsked(kind, "", side), ", ")))
		return
	}
	pw.acc.Facts = append(pw.acc.Facts, askFact(kind, side, reason))
	missing := g.notAsked(kind, "", side)
	pol := g.Policy()
	switch {
	case len(missing) > 0:
		what := "pauses"
		if resume {
			what = "resumes"
		}
		pw.add(fmt.Sprintf("%s: %s asks%s; the game %s once %s also send %s; the ask expires if the game moves on first",
			word, side, suffix(": ", reason), what, strings.Join(missing, ", "), word))
	case resume:
		paused := time.Duration(pw.in.At - g.Paused.At)
		plan := newDeadlinePlan(g)
		plan.resume(paused)
		pw.add("RESUME: every side asked; the game resumes after "+Span(paused)+"; deadlines resume the time they had left",
			events.NewFact(FactResume, events.S("by", PausedByPlayers), events.I("at", pw.in.At), events.I("paused", int64(paused))))
		pw.acc.Echo = append(pw.acc.Echo, plan.echo...)
		pw.acc.Facts = append(pw.acc.Facts, plan.facts...)
	default:
		// Every side's reason is kept, in the order of the sides.
		var reasons []string
		for _, s := range g.sides() {
			r := reason
			if s != side {
				a, _ := g.asked(AskPause, s)
				r = a.Text
			}
			if r != "" {
				reasons = append(reasons, s+": "+r)
			}
		}
		all := strings.Join(reasons, "; ")
		echo := "PAUSE: every side asked; the game is paused" + suffix(" (", all) + closeIf(all)
		if pol.PauseMax > 0 {
			echo += fmt.Sprintf("; it ends by itself %s (after the game's pause-max of %s) unless every side sends RESUME sooner or a referee holds it",
				timeText(pw.in.At+int64(pol.PauseMax)), Span(pol.PauseMax))
		}
		pw.add(echo, events.NewFact(FactPause, events.S("by", PausedByPlayers), events.S("reason", all), events.I("at", pw.in.At)))
	}
}

func closeIf(s string) string {
	if s == "" {
		return ""
	}
	return ")"
}

// draw is a player's DRAW: the game ends in a draw once every side sent it.
func (pw *playerDecision) draw() {
	g, side := pw.g, pw.who.Side
	if _, ok := g.asked(AskDraw, side); ok {
		pw.add(fmt.Sprintf("DRAW: %s has already offered a draw; waiting for %s", side, strings.Join(g.notAsked(AskDraw, "", side), ", ")))
		return
	}
	missing := g.notAsked(AskDraw, "", side)
	if len(missing) > 0 {
		pw.add(fmt.Sprintf("DRAW: %s offers a draw; the game ends in a draw once %s also send DRAW; the offer expires if the game moves on first",
			side, strings.Join(missing, ", ")), askFact(AskDraw, side, ""))
		return
	}
	reason := "a draw agreed by every side"
	pw.out = engine.Outcome{Over: true, Reason: reason}
	pw.add("DRAW: every side agreed; the game ends in a draw",
		askFact(AskDraw, side, ""), events.NewFact(FactEnd, events.S("by", pw.who.ID), events.S("winner", ""), events.S("reason", reason)))
}

// concede is a player's CONCEDE: the player's side gives up, and the
// other side wins (with more than two sides, the referee decides).
func (pw *playerDecision) concede(reason string) {
	g, side := pw.g, pw.who.Side
	var others []string
	for _, s := range g.sides() {
		if s != side {
			others = append(others, s)
		}
	}
	if len(others) != 1 {
		pw.problem(fmt.Sprintf("this game has %d other sides: who wins is the referee's to say", len(others)), g.RefereeContact())
		return
	}
	why := side + " conceded"
	if reason != "" {
		why += ": " + reason
	}
	pw.out = engine.Outcome{Over: true, Winner: others[0], Reason: why}
	pw.add(fmt.Sprintf("CONCEDE: %s gives up; %s wins", side, others[0]),
		events.NewFact(FactEnd, events.S("by", pw.who.ID), events.S("winner", others[0]), events.S("reason", why)))
}

// absence is a player's ABSENCE <from> <to> (or ABSENCE CANCEL): while
// away, the player's deadlines stand still, within the game's absence-max.
func (pw *playerDecision) absence(args []string) {
	g, id := pw.g, pw.who.ID
	hint := "ABSENCE 2026-12-20 2027-01-03"
	pol := g.Policy()
	if len(args) == 1 && strings.EqualFold(args[0], "CANCEL") {
		if _, ok := g.AbsenceOf(id); !ok {
			pw.problem("you have declared no absence", "")
			return
		}
		pw.add("ABSENCE cancelled: your deadlines run as before",
			events.NewFact(FactAbsence, events.S("player", id), events.I("from", 0), events.I("to", 0)))
		return
	}
	if pol.AbsenceMax == 0 {
		pw.problem("this game takes no absences (its absence-max is none)", g.RefereeContact())
		return
	}
	asked, to, bad := parseAbsence(args, pw.in.At, g.TimeZone(id))
	from := max(asked, pw.in.At) // never backdated
	switch {
	case bad != "":
		pw.problem(bad, hint)
		return
	case to <= pw.in.At:
		pw.problem("that absence is already over", hint)
		return
	case time.Duration(to-from) > pol.AbsenceMax:
		pw.problem(fmt.Sprintf("that absence is %s long; this game allows at most %s (its absence-max)", Span(time.Duration(to-from)), Span(pol.AbsenceMax)), "")
		return
	}
	a := Absence{Player: id, From: from, To: to}
	pw.add(fmt.Sprintf("ABSENCE: %s is away from %s to %s", id, g.TimeFor(id, from), g.TimeFor(id, to)),
		events.NewFact(FactAbsence, events.S("player", id), events.I("from", from), events.I("to", to)))
	if asked < from {
		pw.acc.Echo = append(pw.acc.Echo, fmt.Sprintf("the absence starts now, %s, not %s: an absence is never backdated",
			g.TimeFor(id, from), g.TimeFor(id, asked)))
	}
	pw.acc.Echo = append(pw.acc.Echo, pw.absenceMoves(a, pol)...)
	pw.acc.Echo = append(pw.acc.Echo, fmt.Sprintf("deadlines %s is given before %s stand still until then", id, g.TimeFor(id, to)))
}

// absenceMoves says what the absence a does to the player's deadline
// running now, and logs its move: one that passed (or is in its grace)
// keeps its default; one running moves on by the part of the absence in
// it; one due before the absence begins stays.
func (pw *playerDecision) absenceMoves(a Absence, pol Policy) []string {
	g, id, now := pw.g, a.Player, pw.in.At
	d, ok := g.Deadline(id)
	if !ok {
		return nil
	}
	if d.Passed || now >= d.Due {
		s := fmt.Sprintf("%s's deadline of %s has passed", id, g.TimeFor(id, d.Due))
		if end := d.Due + int64(pol.Grace); !d.Passed && now < end {
			s += " and is in its grace until " + g.TimeFor(id, end)
		}
		if d.Default == "" || strings.EqualFold(d.Default, "referee") {
			return []string{s + ": the absence does not move it, and the referee decides as before"}
		}
		return []string{s + ": the absence does not move it, and its default still applies: " + d.Default}
	}
	was := d.Due
	if old, had := g.AbsenceOf(id); had && old.To > now {
		// The earlier absence no longer counts: take its shift back.
		d.Due -= shiftByAbsence(old, now, d.Due) - d.Due
	}
	due := shiftByAbsence(a, now, d.Due)
	switch {
	case due == was && due == d.Due:
		return []string{fmt.Sprintf("%s's deadline of %s falls before the absence begins: it does not move", id, g.TimeFor(id, was))}
	case due == was:
		return []string{fmt.Sprintf("%s's deadline of %s does not move", id, g.TimeFor(id, was))}
	}
	say := fmt.Sprintf("%s's deadline of %s moves on by the time away in it:", id, g.TimeFor(id, was))
	if due < was {
		say = fmt.Sprintf("%s's deadline of %s moves back, as the earlier absence no longer counts:", id, g.TimeFor(id, was))
	}
	d.Due = due
	plan := newDeadlinePlan(g)
	plan.set(d, "")
	pw.acc.Facts = append(pw.acc.Facts, plan.facts...)
	return append([]string{say}, plan.echo...)
}

// absenceLayouts are the times ABSENCE takes, in the player's zone (UTC if
// none is set).
var absenceLayouts = []string{"2006-01-02 15:04", "2006-01-02"}

// parseAbsence reads "<from> <to>" (each a date, or a date and a time, or
// NOW for from; an optional TO between), as asked: from may be past.
func parseAbsence(args []string, now int64, loc *time.Location) (from, to int64, bad string) {
	if loc == nil {
		loc = time.UTC
	}
	var ts []int64
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch {
		case strings.EqualFold(w, "TO") || w == "-":
			continue
		case strings.EqualFold(w, "NOW") && len(ts) == 0:
			ts = append(ts, now)
			continue
		}
		if i+1 < len(args) && strings.Contains(args[i+1], ":") {
			if t, err := time.ParseInLocation(absenceLayouts[0], w+" "+args[i+1], loc); err == nil {
				ts = append(ts, t.UnixNano())
				i++
				continue
			}
		}
		t, err := time.ParseInLocation(absenceLayouts[1], w, loc)
		if err != nil {
			return 0, 0, fmt.Sprintf("%q is not a date (write 2026-12-20, or 2026-12-20 18:00)", w)
		}
		ts = append(ts, t.UnixNano())
	}
	if len(ts) != 2 {
		return 0, 0, "write ABSENCE <from> <to>, two dates"
	}
	if ts[1] <= ts[0] {
		return 0, 0, "the absence ends before it begins"
	}
	return ts[0], ts[1], ""
}

// tz is a player's TZ <zone>: the times in their mails in their zone too.
func (pw *playerDecision) tz(args []string) {
	if len(args) != 1 {
		pw.problem("write TZ <zone>", "TZ Europe/Berlin")
		return
	}
	if _, err := loadZone(args[0]); err != nil {
		pw.problem(err.Error(), "TZ Europe/Berlin")
		return
	}
	key := SettingTZPrefix + pw.who.ID
	pw.add(fmt.Sprintf("TZ %s (was %s): your mails give times in UTC and in %s", args[0], orNone(pw.g.setting(key)), args[0]),
		events.NewFact(FactSetting, events.S("key", key), events.S("value", args[0]), events.S("was", pw.g.setting(key))))
}

// referee is a player's REFEREE <message>, or a request every side must
// make: REFEREE ADD <address> [NAME <name>], REFEREE REPLACE <referee>
// WITH <address> [NAME <name>].
func (pw *playerDecision) referee(args []string, text string) {
	g, side := pw.g, pw.who.Side
	if len(args) >= 1 && (strings.EqualFold(args[0], "ADD") || strings.EqualFold(args[0], "REPLACE")) && strings.Contains(strings.Join(args, " "), "@") {
		if g.Ended != nil {
			pw.problem("the game is over: "+g.Ended.Reason, "")
			return
		}
		req, fact, echo, bad := pw.refereeRequest(args)
		if bad != "" {
			pw.problem(bad, "REFEREE ADD dana@example.org NAME Dana")
			return
		}
		if a, ok := g.asked(AskReferee, side); ok && a.Text == req {
			pw.add(fmt.Sprintf("REFEREE %s: %s has already asked; waiting for %s", req, side, strings.Join(g.notAsked(AskReferee, req, side), ", ")))
			return
		}
		missing := g.notAsked(AskReferee, req, side)
		if len(missing) > 0 {
			pw.add(fmt.Sprintf("REFEREE %s: %s asks; done once %s also send the same line; the ask expires if the game moves on first",
				req, side, strings.Join(missing, ", ")), askFact(AskReferee, side, req))
			return
		}
		pw.add("REFEREE "+req+": every side asked", askFact(AskReferee, side, req))
		pw.add(echo, fact)
		return
	}
	if len(g.Referees) == 0 {
		pw.problem("this game has no referee to write to", "REFEREE ADD <address> [NAME <name>], sent by every side, adds one")
		return
	}
	if text == "" {
		pw.problem("the message is empty", "REFEREE Can Lyle's brigade cross at the mill?")
		return
	}
	f := events.NewFact(FactMessage, events.S("from", pw.who.ID), events.S("to", "referees"), events.S("text", text))
	f.Vis = events.ToPlayer(pw.who.ID)
	pw.add("REFEREE: your message goes to the referees: "+firstLine(text), f)
	pw.acc.EchoVis = []events.Vis{events.ToPlayer(pw.who.ID)}
}

// refereeRequest reads a player's REFEREE ADD or REPLACE into the request
// as every side must write it, and the fact granting it.
func (pw *playerDecision) refereeRequest(args []string) (req string, f events.Fact, echo, bad string) {
	g := pw.g
	if strings.EqualFold(args[0], "ADD") {
		addrs, name, bad := addressesAndName(args[1:])
		if bad == "" {
			bad = g.askMailboxProblem(addrs)
		}
		if bad == "" {
			bad = g.seatConflict(nil, true, addrs)
		}
		if bad != "" {
			return "", f, "", bad
		}
		for _, r := range g.Referees {
			for _, a := range r.Addresses {
				if contains(addrs, a) {
					return "", f, "", a + " already referees this game"
				}
			}
		}
		echo, f := g.refereeAddFact(addrs, name)
		return "ADD " + strings.Join(addrs, ",") + suffix(" NAME ", name), f, echo, ""
	}
	if len(args) < 4 || !strings.EqualFold(args[2], "WITH") {
		return "", f, "", "write REFEREE REPLACE <referee> WITH <address> [NAME <name>]"
	}
	id := strings.ToLower(args[1])
	p, isRef := g.seat(id)
	if p == nil || !isRef {
		var ids []string
		for _, r := range g.Referees {
			ids = append(ids, r.ID)
		}
		sort.Strings(ids)
		return "", f, "", fmt.Sprintf("%q is no referee of this game (%s)", args[1], suggestFrom(args[1], ids))
	}
	addrs, name, bad := addressesAndName(args[3:])
	if bad == "" {
		bad = g.askMailboxProblem(addrs)
	}
	if bad == "" {
		bad = g.seatConflict(p, true, addrs)
	}
	if bad != "" {
		return "", f, "", bad
	}
	echo, f = g.replaceFact(p, addrs, name)
	return "REPLACE " + id + " WITH " + strings.Join(addrs, ",") + suffix(" NAME ", name), f, echo, ""
}
