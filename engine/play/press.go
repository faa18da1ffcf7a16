// Press: what players write to each other through the game (PRESS TO
// <player|side|ALL>), delivered by mail to those it names and kept in the
// log for them alone, and for the referees only when the game says so
// (its press-referee setting). It is the runtime's, never a rule
// system's: it changes neither the state nor whose move it is.

package play

import (
	"fmt"
	"sort"
	"strings"

	"pbem/engine"
	"pbem/events"
)

// WordPress starts a player's press: PRESS [TO] <player|side|ALL>[:] and
// the text, on that line and the lines under it to the end of the mail.
const WordPress = "PRESS"

// FactPress is a player's press as one recipient reads it: from (the
// writer's id), to (the recipient's id), addressed (what the writer named:
// a player, a side or ALL), text. Its visibility is the recipient's, kept
// for good (events.ToPlayerKept, or events.ToPlayerAlone when the
// referees read no press).
const FactPress = "pbem.press"

// SettingPressReferee is whether the referees read the players' press:
// "none" (the default) or "all". The default keeps what players write to
// each other between them: a referee umpires the game, not the talk
// around it, and players who want their referee to read along (to hold
// them to an agreement, say) set it to all. The setting in force when a
// press is written decides who may read it, for good.
const SettingPressReferee = "press-referee"

// RefereesReadPress reports whether the game's referees read the press
// written now.
func (g *Game) RefereesReadPress() bool {
	return strings.EqualFold(g.setting(SettingPressReferee), "all")
}

// pressVis is who may read press to (or from) player id: that player,
// and the referees when the game says so; never anyone else, not even
// once the game is over.
func (g *Game) pressVis(id string) events.Vis {
	if g.RefereesReadPress() {
		return events.ToPlayerKept(id)
	}
	return events.ToPlayerAlone(id)
}

// IsPress reports whether an input's text is a player's press: its first
// line (comments and blank lines aside) starts with PRESS. Its text is
// then the writer's alone (and the referees', when they read press): see
// CutLog.
func IsPress(text string) bool {
	ls := commandLines(text)
	return len(ls) > 0 && ls[0].word == WordPress
}

// pressAddress reads a PRESS line: whom it names (a player, a side or
// ALL; "" for none), and the text that follows on the line.
func pressAddress(l cmdLine) (to, rest string) {
	line := strings.TrimSpace(l.text[len(l.words[0]):])
	if len(l.words) > 1 && strings.EqualFold(l.words[1], "TO") {
		line = strings.TrimSpace(line[len("TO"):])
	}
	end := strings.IndexAny(line, ": \t")
	if end < 0 {
		end = len(line)
	}
	to, rest = line[:end], strings.TrimSpace(line[end:])
	return to, strings.TrimSpace(strings.TrimPrefix(rest, ":"))
}

// pressReaders are the players who may know that a player's press mail
// exists: its writer, and the players it names (as the game stands when
// it comes; a press that names no one is its writer's alone).
func (g *Game) pressReaders(sender, text string) []string {
	out := []string{sender}
	ls := commandLines(text)
	if len(ls) == 0 || ls[0].word != WordPress {
		return out
	}
	to, _ := pressAddress(ls[0])
	if to == "" {
		return out
	}
	for _, p := range g.who(to) {
		if p.Side != "" && p.ID != sender {
			out = append(out, p.ID)
		}
	}
	return out
}

// pressText is the text of a press mail: what follows the address on the
// PRESS line, and every line under it as written (blank lines kept, so
// paragraphs stay paragraphs), to the end of the mail.
func pressText(text string, l cmdLine, rest string) string {
	lines := strings.Split(text, "\n")
	var b strings.Builder
	b.WriteString(rest)
	if l.no < len(lines) {
		b.WriteString("\n")
		b.WriteString(strings.Join(lines[l.no:], "\n"))
	}
	return strings.TrimSpace(b.String())
}

// decidePress decides a player's PRESS: one fact for each recipient, kept
// for them; the writer's echo kept for the writer.
func (g *Game) decidePress(in *events.Envelope, who events.Player, text string, l cmdLine) (events.Payload, engine.State, engine.Outcome, error) {
	hint := "PRESS TO ALL: Shall we meet at the mill?"
	to, rest := pressAddress(l)
	if to == "" {
		return g.reject(in, who.ID, l.problem("write PRESS TO <player, side or ALL>: <text>", hint))
	}
	body := pressText(text, l, rest)
	if g.IsReferee(to) || strings.EqualFold(to, "referee") || strings.EqualFold(to, "referees") {
		return g.reject(in, who.ID, l.problem("press goes to players; to write to the referees, start the mail with REFEREE",
			"REFEREE "+firstLine(body)))
	}
	var recipients []events.Player
	for _, p := range g.who(to) {
		if p.Side != "" && p.ID != who.ID && !g.IsReferee(p.ID) {
			recipients = append(recipients, p)
		}
	}
	var cands []string
	for _, p := range g.Players {
		if p.Side != "" && p.ID != who.ID {
			cands = append(cands, p.ID)
		}
	}
	cands = append(cands, g.sides()...)
	sort.Strings(cands)
	cands = append(cands, "ALL")
	switch {
	case len(g.who(to)) == 0:
		return g.reject(in, who.ID, l.problem(fmt.Sprintf("%q is no player, side or ALL (%s)", to, suggestFrom(to, cands)), hint))
	case len(recipients) == 0:
		return g.reject(in, who.ID, l.problem(fmt.Sprintf("%q names no one but you", to), hint))
	case body == "":
		return g.reject(in, who.ID, l.problem("the press is empty: write the text after the colon, or on the lines under it", hint))
	}
	addressed := to
	if strings.EqualFold(to, "ALL") {
		addressed = "ALL"
	} else if len(recipients) == 1 && strings.EqualFold(recipients[0].ID, to) {
		addressed = recipients[0].ID
	} else {
		for _, s := range g.sides() {
			if strings.EqualFold(s, to) {
				addressed = s
			}
		}
	}
	acc := &events.OrderAccepted{Input: in.Seq, Player: who.ID, RulesetVersion: g.Rules.Version()}
	var ids []string
	for _, p := range recipients {
		ids = append(ids, p.ID)
		f := events.NewFact(FactPress, events.S("from", who.ID), events.S("to", p.ID), events.S("addressed", addressed), events.S("text", body))
		f.Vis = g.pressVis(p.ID)
		acc.Facts = append(acc.Facts, f)
	}
	readers := "the referees do not read it"
	if g.RefereesReadPress() {
		readers = "the referees read it too"
	}
	acc.Echo = []string{fmt.Sprintf("PRESS to %s (%s): %s", addressed, strings.Join(ids, ", "), firstLine(body)),
		"it goes by mail to " + strings.Join(ids, ", ") + " alone; " + readers + " (the game's press-referee setting)"}
	acc.EchoVis = []events.Vis{g.pressVis(who.ID), g.pressVis(who.ID)}
	return acc, g.State, engine.Outcome{}, nil
}

// tellPress tells a press in plain words.
func (g *Game) tellPress(f events.Fact) string {
	to := g.nameOf(f.Str("to"))
	if a := f.Str("addressed"); a != f.Str("to") {
		to += " (press to " + a + ")"
	}
	return fmt.Sprintf("%s writes to %s: %s", g.nameOf(f.Str("from")), to, f.Str("text"))
}
