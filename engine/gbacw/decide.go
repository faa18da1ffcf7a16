package gbacw

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pbem/engine"
	"pbem/engine/hex"
	"pbem/events"
)

// sim decides one action: each fact is applied to the state as it is
// made (engine.Sim's model), with what an activation's steps need on
// top: a checkpoint per step, so a step that must wait for an answer
// (a reaction no standing order covers, a ruling no chart gives) leaves
// nothing behind but the dice it rolled, which it rolls again from when
// it runs once more (sticky); and a dry run, which checks a program of
// orders with benign dice and no reactions before it is carried out.
type sim struct {
	st      *State
	dice    engine.Dice
	facts   []events.Fact
	echo    []string
	echoVis []events.Vis

	dry    bool  // a trial: no reactions, benign dice, no results
	probe  bool  // a look ahead for the questions a step asks: benign dice, each question noted and passed
	probed []Ask // the questions a probe noted
	sticky []int // the suspended step's rolls, used before new ones
	rolled []int // this step's rolls

	// The program being run, and the step: answers are filed under it.
	text     []string
	at, step int
}

// bug is a ruleset error found while deciding.
type bug struct{ err error }

// suspend stops a step to wait for an answer.
type suspend struct{ ask Ask }

// failure stops a step that cannot be carried out.
type failure struct{ p events.Problem }

func (m *sim) emitFact(f events.Fact) {
	next, err := evolve(m.st, f)
	if err != nil {
		panic(bug{fmt.Errorf("gbacw: %s: %w", f, err)})
	}
	m.st = next
	m.facts = append(m.facts, f)
}

func (m *sim) emit(kind string, args ...events.Arg) { m.emitFact(events.NewFact(kind, args...)) }

func (m *sim) emitTo(vis events.Vis, kind string, args ...events.Arg) {
	m.emitFact(events.NewFact(kind, args...).To(vis))
}

func (m *sim) say(format string, a ...any) { m.sayTo(events.Vis{}, format, a...) }

func (m *sim) sayTo(vis events.Vis, format string, a ...any) {
	m.echo = append(m.echo, fmt.Sprintf(format, a...))
	m.echoVis = append(m.echoVis, vis)
}

// d10 rolls the game's die: a ten-sided die whose 0 is 0, not 10, so
// results run 0-9 (GBACW 1.1). In a dry run it gives benign, the value
// the order's author would hope for.
func (m *sim) d10(purpose string, benign int) int {
	var v int
	switch {
	case len(m.sticky) > 0:
		v, m.sticky = m.sticky[0], m.sticky[1:]
	case m.dry || m.probe:
		v = benign
	default:
		v = m.dice.Roll(purpose, 10) % 10
	}
	m.rolled = append(m.rolled, v)
	return v
}

// roll draws one of n (1..n) for something not a d10: an AM from the
// pool (3.3).
func (m *sim) roll(purpose string, n int) int {
	var v int
	switch {
	case len(m.sticky) > 0:
		v, m.sticky = m.sticky[0], m.sticky[1:]
	case m.dry || m.probe:
		v = 1
	default:
		v = m.dice.Roll(purpose, n)
	}
	m.rolled = append(m.rolled, v)
	return v
}

// checkpoint is what a step restores when it stops.
type checkpoint struct {
	st         *State
	nf, ne, nv int
}

func (m *sim) mark() checkpoint {
	return checkpoint{m.st, len(m.facts), len(m.echo), len(m.echoVis)}
}

func (m *sim) restore(c checkpoint) {
	m.st, m.facts, m.echo, m.echoVis = c.st, m.facts[:c.nf], m.echo[:c.ne], m.echoVis[:c.nv]
}

// try runs fn as one step: it returns the answer it waits for, or the
// problem that stopped it, and in both cases leaves the state as it was
// before the step.
func (m *sim) try(fn func()) (asked *Ask, prob *events.Problem) {
	c := m.mark()
	m.rolled = nil
	func() {
		defer func() {
			if r := recover(); r != nil {
				switch x := r.(type) {
				case suspend:
					asked = &x.ask
				case failure:
					prob = &x.p
				default:
					panic(r)
				}
			}
		}()
		fn()
	}()
	if asked != nil || prob != nil {
		m.restore(c)
	}
	return asked, prob
}

// fail stops the step: the order cannot be carried out.
func (m *sim) fail(o *Order, col int, msg, hint string) {
	panic(failure{problemAt(*o, col, msg, hint)})
}

// decide is Decide.
func decide(st *State, side string, os []Order, dice engine.Dice) (d engine.Decision, err error) {
	m := &sim{st: st, dice: dice}
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bug)
			if !ok {
				panic(r)
			}
			d, err = engine.Decision{}, b.err
		}
	}()
	var probs []events.Problem
	switch {
	case side == engine.RefereeSide:
		probs = m.referee(os)
	case side != USA && side != CSA:
		probs = []events.Problem{problemAt(os[0], 1, fmt.Sprintf("side %q plays no part in this game", side), "")}
	default:
		probs = m.player(side, os)
	}
	if len(probs) > 0 {
		for i := range probs {
			if probs[i].Hint == "" {
				probs[i].Hint = "HELP shows what you may send now"
			}
		}
		return engine.Decision{Problems: probs}, nil
	}
	return engine.Decision{Echo: m.echo, EchoVis: events.CompactVis(m.echoVis), Facts: m.facts}, nil
}

func one(o Order, msg, hint string) []events.Problem {
	return []events.Problem{problemAt(o, o.Col, msg, hint)}
}

// player decides a player's mail.
func (m *sim) player(side string, os []Order) []events.Problem {
	st := m.st
	if st.Phase == PhaseOver {
		return one(os[0], "the game is over: "+st.Result, "")
	}
	// Standing orders first: any time but the sealed Command Segment,
	// whose lines the other side reads when the orders are opened.
	var rest, standing []Order
	for _, o := range os {
		if o.Kind == oStanding {
			standing = append(standing, o)
		} else {
			rest = append(rest, o)
		}
	}
	if len(standing) > 0 && st.Phase == PhaseCommand {
		return one(standing[0], "standing orders are secret, and every line sent in the Command Segment is shown to the other side when the orders are opened: send STANDING in a mail of its own once they are", "")
	}
	if p := m.standing(side, standing); p != nil {
		return []events.Problem{*p}
	}
	if len(rest) == 0 {
		// Standing orders alone may answer a reaction asked.
		if a := st.asked(); a != nil && a.Side == side {
			if _, ok := m.standingAnswer(side); ok {
				return m.resume()
			}
		}
		return nil
	}
	switch st.Phase {
	case PhaseStart:
		// PASS (a deadline's default) begins the game too: there is
		// nothing else to do.
		if (rest[0].Kind != oBegin && rest[0].Kind != oPass) || len(rest) > 1 {
			return one(rest[0], "the game has not begun: send BEGIN (the first turn's initiative, command and activation markers are rolled)", "BEGIN")
		}
		m.say("BEGIN")
		m.beginTurn(1)
		return nil
	case PhaseCommand:
		return m.commandOrders(side, rest)
	case PhaseActivation:
		if a := st.asked(); a != nil {
			if a.Side != side {
				// The question is the asked side's alone: the other reads
				// only that the game waits for it.
				what := "the game waits for the referee: " + a.What
				if a.Side != "" {
					what = askedLine(a)
					if !strings.HasPrefix(what, "the game waits") {
						what = "the game waits for " + a.Side + ": " + what
					}
				}
				return one(rest[0], what, "send STANDING orders, or wait")
			}
			return m.answer(side, rest)
		}
		if st.Act == nil || st.Act.Side != side {
			who := ""
			if st.Act != nil {
				who = st.Act.Side + "'s "
			}
			return one(rest[0], fmt.Sprintf("it is %sactivation (%s): you may send STANDING orders now", who, st.amName()), "STANDING RETURN FIRE ALWAYS")
		}
		return m.activation(side, rest)
	case PhaseCommanders:
		if slices.Contains(st.Done, side) {
			return one(rest[0], "you have moved your commanders this turn; waiting for the other side", "")
		}
		return m.commanders(side, rest)
	}
	return one(rest[0], "nothing to do now", "")
}

// asked is the question the game waits on, if any.
func (s *State) asked() *Ask {
	if s.Ruling != nil {
		return s.Ruling
	}
	if s.Act != nil && s.Act.Prog != nil {
		return s.Act.Prog.Ask
	}
	return nil
}

// amName names the activated AM in words: "USA's U Div AM".
func (s *State) amName() string {
	if s.Act == nil {
		return "none"
	}
	side, what, _ := strings.Cut(s.Act.AM, "|")
	return fmt.Sprintf("%s's %s AM", side, what)
}

// --- standing orders ---

func (m *sim) standing(side string, os []Order) *events.Problem {
	own := events.ToSide(side)
	for _, o := range os {
		if o.Reaction == "" {
			l := m.st.standingList(side)
			if len(l) == 0 {
				m.sayTo(own, "STANDING: you have no standing orders; every reaction is asked of you by mail")
			}
			for _, s := range l {
				m.sayTo(own, "STANDING %s", s)
			}
			continue
		}
		if o.Scope != "" {
			if u := m.st.unit(o.Scope); u != nil && u.Side != side {
				p := problemAt(o, o.Col, o.Scope+" is not yours", standingForm)
				return &p
			}
			if b := m.st.Scn.brigadeDef(o.Scope); b != nil && m.st.Scn.sideOfBrigade(b.Name) != side {
				p := problemAt(o, o.Col, o.Scope+" is not yours", standingForm)
				return &p
			}
		}
		rule := o.Rule
		if rule == "CLEAR" {
			rule = ""
		}
		m.emitTo(own, kStandingSet, aSide.Arg(side), aScope.Arg(o.Scope), aReaction.Arg(o.Reaction), aRule.Arg(rule))
		m.sayTo(own, "STANDING %s", standingText(Standing{Side: side, Scope: o.Scope, Reaction: o.Reaction, Rule: rule}))
	}
	return nil
}

func standingText(s Standing) string {
	scope := s.Scope
	if scope == "" {
		scope = "ALL"
	}
	rule := s.Rule
	if rule == "" {
		rule = "CLEAR (asked by mail)"
	}
	return s.Reaction + " " + scope + " " + rule
}

func (s *State) standingList(side string) []string {
	var out []string
	for _, x := range s.Standing {
		if x.Side == side {
			out = append(out, standingText(x))
		}
	}
	return out
}

// standingFor is the standing order for u's reaction r: the unit's own,
// else its brigade's, else its side's (docs/ORDERS.md).
func (s *State) standingFor(u *Unit, r string) string {
	best, rank := "", 0
	for _, x := range s.Standing {
		if x.Side != u.Side || x.Reaction != r {
			continue
		}
		k := 0
		switch x.Scope {
		case u.Name:
			k = 3
		case u.Brigade:
			k = 2
		case "":
			k = 1
		}
		if k > rank {
			best, rank = x.Rule, k
		}
	}
	return best
}

// askSep joins the keys of questions asked together.
const askSep = " && "

// answerAll takes the answer to several questions asked together (one
// event, several units): a line "<REACTION> <unit> [<arg>]" for each
// reaction made, PASS for none; a question no line answers is passed.
func (m *sim) answerAll(keys []string, os []Order) []events.Problem {
	ans := make([]string, len(keys))
	for _, o := range os {
		if o.Kind == oPass {
			continue
		}
		if o.Kind != oReact {
			return one(o, "you are asked about your units' reactions: "+m.st.asked().What, "PASS")
		}
		i := -1
		for j, k := range keys {
			r, who := keyParts(k)
			if r != o.Reaction || o.Unit != "" && o.Unit != who {
				continue
			}
			if i >= 0 {
				return one(o, "name the unit: "+o.Reaction+" <unit>", o.Reaction+" "+who)
			}
			i = j
		}
		if i < 0 {
			return one(o, fmt.Sprintf("%s %s is not asked of you now", o.Reaction, o.Unit), "PASS")
		}
		_, who := keyParts(keys[i])
		a := "yes"
		if o.HasFace {
			a += ":" + strconv.Itoa(o.Face)
		}
		if o.HasTo {
			if why := m.hexAnswerWhy(keys[i], who, o.To); why != "" {
				return one(o, why, o.Reaction+" "+who)
			}
			a += ":" + o.To.String()
		}
		ans[i] = a
	}
	for i, k := range keys {
		r, who := keyParts(k)
		if ans[i] == "" {
			ans[i] = "no"
		}
		m.say("%s %s: %s", r, who, answerShort(k, ans[i]))
		m.emit(kProgAnswered, aKey.Arg(k), aAnswer.Arg(ans[i]))
	}
	return m.resume()
}

// gather adds to the question a step stopped on every other question
// the same step asks the same side (one event that concerns several
// units), found by running the step ahead on a copy, each question
// passed: they are asked in one mail. A question that depends on an
// answer (a return fire after a reaction facing) may still come later.
func (m *sim) gather(side, entry string, step int, asked *Ask) *Ask {
	o, err := m.entry(side, entry)
	if err != nil || asked.Side == "" {
		return asked
	}
	p := &sim{st: m.st, dice: m.dice, probe: true, sticky: slices.Clone(m.rolled), text: m.text, at: m.at, step: step}
	p.try(func() { p.execStep(&o, step) })
	all := []Ask{*asked}
	for _, a := range p.probed {
		if a.Side == asked.Side && !slices.ContainsFunc(all, func(b Ask) bool { return b.Key == a.Key }) {
			all = append(all, a)
		}
	}
	if len(all) == 1 {
		return asked
	}
	var keys, whats, lines []string
	for _, a := range all {
		r, who := keyParts(a.Key)
		keys = append(keys, a.Key)
		w, _, _ := strings.Cut(a.What, " Answer ")
		whats = append(whats, strings.TrimSpace(w))
		if hs := keyHexes(a.Key); len(hs) > 0 {
			lines = append(lines, r+" "+who+" "+hs[0])
		} else {
			lines = append(lines, r+" "+who)
		}
	}
	r0, u0 := keyParts(all[0].Key)
	routs := ""
	if slices.ContainsFunc(keys, func(k string) bool { r, _ := keyParts(k); return r == rRout }) {
		routs = " A rout no line names, or PASS, takes its first hex."
	}
	return &Ask{Side: asked.Side, Key: strings.Join(keys, askSep),
		What:     strings.Join(whats, " ") + fmt.Sprintf(" These %d are asked together: answer each reaction you want on a line of its own, naming the unit (%s), or PASS for none (a STANDING order would answer them from now on).%s", len(all), lines[0], routs),
		Examples: []string{strings.Join(lines, "\n"), oPass, fmt.Sprintf("STANDING %s %s ALWAYS", r0, u0)}}
}

// --- answers: reactions and rulings ---

// key files an answer: the step asking, the reaction (or ruling) and
// the unit.
func (m *sim) key(r, unit string) string { return fmt.Sprintf("%d.%d|%s|%s", m.at, m.step, r, unit) }

// keyParts splits a key into the reaction and the unit.
func keyParts(key string) (r, unit string) {
	parts := strings.SplitN(key, "|", 4)
	if len(parts) < 3 {
		return "", ""
	}
	return parts[1], parts[2]
}

// keyHexes are the hexes a choice's key offers (a rout's ends, R11),
// after the unit: the first is the one taken on PASS.
func keyHexes(key string) []string {
	parts := strings.SplitN(key, "|", 4)
	if len(parts) < 4 {
		return nil
	}
	return strings.Fields(parts[3])
}

// firstHex is the hex a choice's key takes on PASS, in words.
func firstHex(key string) string {
	if hs := keyHexes(key); len(hs) > 0 {
		return hs[0]
	}
	return "the first hex open"
}

// hexAnswerWhy says why h cannot answer the question filed under key
// for unit who, or "": a pre-shock retreat ends in a hex its retreat
// may reach (14.3b; two hexes for mounted cavalry), a rout in a hex the
// question named (R11).
func (m *sim) hexAnswerWhy(key, who string, h hex.Hex) string {
	if r, _ := keyParts(key); r == rRout {
		if !slices.Contains(keyHexes(key), h.String()) {
			return fmt.Sprintf("%s is not a hex %s may rout to: %s", h, who, joinOr(keyHexes(key)))
		}
		return ""
	}
	u := m.st.unit(who)
	if u == nil {
		return fmt.Sprintf("%s is not a hex %s may retreat into (14.3b)", h, who)
	}
	n := 1
	if m.st.mountedCav(u) {
		n = 2
	}
	if ends, _ := m.st.retreatEnds(u, n); !slices.Contains(ends, h.String()) {
		return fmt.Sprintf("%s is not a hex %s may retreat into (14.3b)", h, who)
	}
	return ""
}

// answered returns the answer filed under key in the suspended step.
func (m *sim) answered(key string) (string, bool) {
	if m.st.Act == nil || m.st.Act.Prog == nil {
		return "", false
	}
	for _, a := range m.st.Act.Prog.Answers {
		if k, v, ok := strings.Cut(a, "="); ok && k == key {
			return v, true
		}
	}
	return "", false
}

// answeredChoice returns the answer filed in the suspended step under a
// key that starts with prefix (a choice's step, kind and unit, whatever
// hexes it offered).
func (m *sim) answeredChoice(prefix string) (string, bool) {
	if m.st.Act == nil || m.st.Act.Prog == nil {
		return "", false
	}
	for _, a := range m.st.Act.Prog.Answers {
		if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, prefix) {
			return v, true
		}
	}
	return "", false
}

// reactCtx is what a standing order's conditions are tested against.
type reactCtx struct {
	enemy   *Unit  // the enemy unit the reaction answers
	trigger string // "fired", "adjacent", "moved", "shocked", "leaving"
	odds    int    // the enemy's SP (OUTNUMBERED)
}

// react decides whether u makes reaction r: an answer given, else its
// standing order, else it is asked by mail (the step waits). A dry run
// never reacts.
func (m *sim) react(r string, u *Unit, c reactCtx, what string) (bool, string) {
	if m.dry {
		return false, ""
	}
	key := m.key(r, u.Name)
	if v, ok := m.answered(key); ok {
		yes, arg, _ := strings.Cut(v, ":")
		return yes == "yes", arg
	}
	rule := m.st.standingFor(u, r)
	switch rule {
	case "ALWAYS":
		return true, ""
	case "NEVER":
		return false, ""
	case "", "ASK":
		ex := []string{r, oPass, fmt.Sprintf("STANDING %s %s ALWAYS", r, u.Name)}
		if m.probe {
			m.probed = append(m.probed, Ask{Side: u.Side, Key: key, What: what})
			return false, ""
		}
		panic(suspend{Ask{Side: u.Side, Key: key, What: what + fmt.Sprintf(" Answer %s or PASS (a STANDING order would answer it from now on).", r), Examples: ex}})
	}
	return m.st.ruleHolds(rule, u, c), ""
}

// ruleHolds tests a standing order's conditions.
func (s *State) ruleHolds(rule string, u *Unit, c reactCtx) bool {
	for _, cond := range strings.Split(rule, " AND ") {
		ok := true
		switch {
		case cond == "IF DISORDERED":
			ok = u.Disordered
		case cond == "IF NOT DISORDERED":
			ok = !u.Disordered
		case cond == "IF OUTNUMBERED":
			ok = c.odds > s.stackSP(u.Hex)
		case cond == "IF FIRED ON":
			ok = c.trigger == "fired"
		case cond == "IF ADJACENT":
			ok = c.trigger == "adjacent"
		case strings.HasPrefix(cond, "IF FROM "):
			sec := ""
			if c.enemy != nil {
				sec = sector(u, c.enemy.Hex).String()
			}
			want := strings.ToLower(strings.TrimPrefix(cond, "IF FROM "))
			ok = sec == want || (want == "flank or rear" && (sec == "flank" || sec == "rear"))
		case strings.HasPrefix(cond, "AT "):
			want := map[string]string{"AT INFANTRY": Infantry, "AT CAVALRY": Cavalry, "AT ARTILLERY": Artillery}[cond]
			ok = c.enemy != nil && s.typ(c.enemy) == want
		case strings.HasPrefix(cond, "WITHIN "):
			n, _ := strconv.Atoi(strings.TrimPrefix(cond, "WITHIN "))
			ok = c.enemy != nil && hex.Distance(u.Hex, c.enemy.Hex) <= n
		}
		if !ok {
			return false
		}
	}
	return true
}

// stackSP is the strength of the units in h.
func (s *State) stackSP(h hex.Hex) int {
	n := 0
	for _, u := range s.unitsAt(h) {
		n += s.strength(u)
	}
	return n
}

// rule asks the referee for a ruling the scenario's charts do not give:
// the step waits until it comes. A dry run takes benign.
func (m *sim) rule(key, what string, examples []string, benign string) string {
	if m.dry {
		return benign
	}
	key = m.key("RULE", key)
	if v, ok := m.answered(key); ok {
		return v
	}
	panic(suspend{Ask{Key: key, What: what, Examples: examples}})
}

// standingAnswer reports whether the side's standing orders now answer
// the reaction asked of it.
func (m *sim) standingAnswer(side string) (string, bool) {
	a := m.st.asked()
	if a == nil || a.Side != side {
		return "", false
	}
	r, unit := keyParts(a.Key)
	u := m.st.unit(unit)
	if u == nil {
		return "", false
	}
	switch rule := m.st.standingFor(u, r); rule {
	case "", "ASK":
		return "", false
	}
	return "", true
}

// answerShort is an answer as the echo gives it: yes or no, or for a
// rout (R11) the hex it ends in.
func answerShort(key, ans string) string {
	if r, _ := keyParts(key); r == rRout {
		if _, h, ok := strings.Cut(ans, ":"); ok {
			return h
		}
		return firstHex(key)
	}
	return map[bool]string{true: "yes", false: "no"}[strings.HasPrefix(ans, "yes")]
}

// answer takes the asked side's answer and carries the activation on.
func (m *sim) answer(side string, os []Order) []events.Problem {
	a := m.st.asked()
	if keys := strings.Split(a.Key, askSep); len(keys) > 1 {
		return m.answerAll(keys, os)
	}
	r, who := keyParts(a.Key)
	var ans string
	for _, o := range os {
		switch {
		case o.Kind == oPass:
			ans = "no"
		case o.Kind == oReact && o.Reaction == r && o.Unit != "" && o.Unit != who:
			return one(o, fmt.Sprintf("you are asked about %s's %s, not %s's", who, r, o.Unit), r+" or PASS")
		case o.Kind == oReact && o.Reaction == r:
			ans = "yes"
			if o.HasFace {
				ans += ":" + strconv.Itoa(o.Face)
			}
			if o.HasTo {
				if why := m.hexAnswerWhy(a.Key, who, o.To); why != "" {
					return one(o, why, r+" or PASS")
				}
				ans += ":" + o.To.String()
			}
		case o.Kind == oReact:
			return one(o, fmt.Sprintf("you are asked about %s, not %s", r, o.Reaction), r+" or PASS")
		default:
			return one(o, "you are asked about "+r+": "+a.What, r+" or PASS")
		}
	}
	m.say("%s: %s", r, answerShort(a.Key, ans))
	m.emit(kProgAnswered, aKey.Arg(a.Key), aAnswer.Arg(ans))
	return m.resume()
}
