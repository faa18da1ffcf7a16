package gbacw

import (
	"fmt"
	"strings"

	"pbem/engine"
	"pbem/events"
)

// factSchemas are every fact Decide makes (engine.Teller).
func factSchemas() []engine.FactSchema {
	return []engine.FactSchema{
		engine.Schema("turn.begun", "turn:i"),
		engine.Schema("initiative.rolled", "usa:i csa:i usa_drm:i csa_drm:i side:s"),
		engine.Schema("unit.arrived", "unit:s"),
		engine.Schema("leader.arrived", "leader:s"),
		engine.Schema("brigade.arrived", "brigade:s"),
		engine.Schema("command.traced", "side:s out:ss"),
		engine.Schema("division.ams", "division:s n:i dr:i why:s"),
		engine.Schema("march.ams", "side:s n:i dr:i"),
		engine.Schema("ruling.asked", "key:s what:s examples:ss"),
		engine.Schema("ruling.given", "key:s value:s"),
		engine.Schema("phase.set", "phase:s"),
		engine.Schema("side.done", "side:s"),
		engine.Schema("release.ordered", "brigade:s order:s"),
		engine.Schema("brigade.ordered", "brigade:s order:s units:ss facings:is how:s"),
		engine.Schema("am.first", "side:s am:s"),
		engine.Schema("pool.filled", "ams:ss"),
		engine.Schema("am.drawn", "am:s dr:i acting:ss skipping:ss"),
		engine.Schema("am.ended", "am:s"),
		engine.Schema("prog.set", "side:s text:ss"),
		engine.Schema("prog.asked", "side:s key:s what:s examples:ss"),
		engine.Schema("prog.held", "at:i step:i text:ss rolls:is"),
		engine.Schema("prog.answered", "key:s answer:s"),
		engine.Schema("order.rolled", "brigade:s to:s dr:i drm:i need:i ok:b"),
		engine.Schema("coordination.rolled", "brigades:ss dr:i need:i ok:b"),
		engine.Schema("group.begun", "brigades:ss"),
		engine.Schema("unit.moved", "unit:s hex:i facing:i mp:i extended:b"),
		engine.Schema("unit.faced", "unit:s facing:i mp:i moved:b"),
		engine.Schema("stack.set", "hex:i units:ss"),
		engine.Schema("unit.marked", "unit:s flag:s on:b"),
		engine.Schema("udd.rolled", "unit:s why:s dr:i drm:i need:i ok:b"),
		engine.Schema("unit.disordered", "unit:s why:s"),
		engine.Schema("unit.recovered", "unit:s why:s"),
		engine.Schema("unit.rallied", "unit:s why:s"),
		engine.Schema("unit.lost", "unit:s sp:i lost:i why:s"),
		engine.Schema("unit.routed", "unit:s why:s"),
		engine.Schema("unit.removed", "unit:s why:s"),
		engine.Schema("unit.fatigue", "unit:s fatigue:i why:s"),
		engine.Schema("unit.works", "unit:s works:i"),
		engine.Schema("works.built", "hex:i"),
		engine.Schema("leader.moved", "leader:s hex:i mp:i"),
		engine.Schema("oc.moved", "side:s mp:i hexes:i"),
		engine.Schema("leader.killed", "leader:s why:s"),
		engine.Schema("leader.replaced", "leader:s hex:i"),
		engine.Schema("fire.resolved", "firer:s target:s sp:i range:i col:s dr:i drm:i result:s kind:s"),
		engine.Schema("shock.declared", "attackers:ss hex:i"),
		engine.Schema("shock.resolved", "attackers:ss defenders:ss asp:i dsp:i odds:s dr:i drm:i result:s"),
		engine.Schema("standing.set", "side:s scope:s reaction:s rule:s"),
		engine.Schema("brigade.ci", "brigade:s ci:b"),
		engine.Schema("division.ci", "division:s ci:b"),
		engine.Schema("game.over", "winner:s result:s vp:is"),
		engine.Schema("referee.set", "target:s field:s value:s was:s"),
	}
}

func yes(b bool, y, n string) string {
	if b {
		return y
	}
	return n
}

// describe tells a fact in words (engine.Teller); st is the state before
// the decision that made it.
func describe(st *State, f events.Fact) string {
	u, l := f.Str("unit"), f.Str("leader")
	switch f.Kind {
	case "turn.begun":
		return fmt.Sprintf("Turn %d begins.", f.Int("turn"))
	case "initiative.rolled":
		who := "neither side has the initiative (a tie, 3.1)"
		if s := f.Str("side"); s != "" {
			who = s + " has the initiative"
		}
		return fmt.Sprintf("Initiative (4.1): USA rolls %d%s, CSA %d%s: %s.", f.Int("usa"), drmText(f.Int("usa_drm")), f.Int("csa"), drmText(f.Int("csa_drm")), who)
	case "unit.arrived":
		return u + " arrives as a reinforcement (3.2.4)."
	case "leader.arrived":
		return l + " arrives with his brigade."
	case "brigade.arrived":
		return f.Str("brigade") + " has arrived."
	case "command.traced":
		if len(f.Strs("out")) == 0 {
			return fmt.Sprintf("Chain of command (5): every %s leader and unit is in command.", f.Str("side"))
		}
		return fmt.Sprintf("Chain of command (5): out of command for %s: %s.", f.Str("side"), joinAnd(f.Strs("out")))
	case "division.ams":
		if f.Int("n") < 0 {
			return fmt.Sprintf("%s's activation markers: the referee rules them.", f.Str("division"))
		}
		s := fmt.Sprintf("%s has %d activation marker%s", f.Str("division"), f.Int("n"), yes(f.Int("n") == 1, "", "s"))
		if f.Int("dr") >= 0 {
			s += fmt.Sprintf(" (efficiency draw, dr %d)", f.Int("dr"))
		}
		if w := f.Str("why"); w != "" {
			s += "; " + w
		}
		return s + "."
	case "march.ams":
		if f.Int("n") < 0 {
			return fmt.Sprintf("%s's March AM: the referee rules how often it activates.", f.Str("side"))
		}
		return fmt.Sprintf("%s's March AM activates its March columns %d time%s this turn (10.1).", f.Str("side"), f.Int("n"), yes(f.Int("n") == 1, "", "s"))
	case "ruling.asked":
		return "The referee is asked: " + f.Str("what") + "."
	case "ruling.given":
		return "The referee has ruled the " + f.Str("value") + "."
	case "phase.set":
		return phaseWords(f.Str("phase"))
	case "side.done":
		return f.Str("side") + " is done for this segment."
	case "release.ordered":
		return fmt.Sprintf("%s is to be released from reserve on %s orders (3.4.2).", f.Str("brigade"), f.Str("order"))
	case "brigade.ordered":
		return fmt.Sprintf("%s is on %s orders (%s).", f.Str("brigade"), f.Str("order"), f.Str("how"))
	case "am.first":
		_, am, _ := strings.Cut(f.Str("am"), "|")
		return fmt.Sprintf("%s, with the initiative, activates %s first (4.2).", f.Str("side"), am)
	case "pool.filled":
		return fmt.Sprintf("%d activation markers go into the pool (3.3).", len(f.Strs("ams")))
	case "am.drawn":
		side, am, _ := strings.Cut(f.Str("am"), "|")
		how := "chosen first"
		if f.Int("dr") > 0 {
			how = fmt.Sprintf("drawn from the pool (die %d)", f.Int("dr"))
		}
		s := fmt.Sprintf("%s's %s AM is %s", side, am, how)
		if sk := f.Strs("skipping"); len(sk) > 0 {
			s += "; out of command, these skip it: " + joinAnd(sk)
		}
		return s + "."
	case "am.ended":
		side, am, _ := strings.Cut(f.Str("am"), "|")
		if am == "March" {
			return side + "'s March activation is over."
		}
		return am + "'s activation is over."
	case "prog.set":
		return fmt.Sprintf("%s's orders for this activation: %s.", f.Str("side"), strings.Join(progLines(f.Strs("text")), "; "))
	case "prog.asked":
		if f.Str("side") == "" {
			return "The game waits for the referee: " + sentence(f.Str("what"))
		}
		return fmt.Sprintf("The game waits for %s: %s", f.Str("side"), sentence(f.Str("what")))
	case "prog.held":
		return fmt.Sprintf("Your orders wait at order %d: %s.", f.Int("at")+1, strings.Join(progLines(f.Strs("text")), "; "))
	case "prog.answered":
		return answerWords(st, f.Str("key"), f.Str("answer"))
	case "order.rolled":
		if f.Int("dr") < 0 {
			return fmt.Sprintf("%s's order change to %s: the referee rules it %s.", f.Str("brigade"), f.Str("to"), yes(f.Bool("ok"), "succeeds", "fails"))
		}
		return fmt.Sprintf("%s tries to change to %s orders (3.3): dr %d%s, needs %d: %s.", f.Str("brigade"), f.Str("to"), f.Int("dr"), drmText(f.Int("drm")), f.Int("need"), yes(f.Bool("ok"), "it does", "it fails"))
	case "coordination.rolled":
		if f.Int("dr") < 0 {
			return fmt.Sprintf("Coordination of %s: the referee rules it %s.", joinAnd(f.Strs("brigades")), yes(f.Bool("ok"), "succeeds", "fails"))
		}
		return fmt.Sprintf("%s try to coordinate (3.3): dr %d, needs %d: %s.", joinAnd(f.Strs("brigades")), f.Int("dr"), f.Int("need"), yes(f.Bool("ok"), "they act together", "each acts alone"))
	case "group.begun":
		return fmt.Sprintf("%s's Action Phase.", joinAnd(f.Strs("brigades")))
	case "unit.moved":
		return fmt.Sprintf("%s moves to %s, facing %s (%s MP spent).", u, intHex(f.Int("hex")), facingWord(st, u, f.Int("facing")), halfMP(int(f.Int("mp"))))
	case "unit.faced":
		return fmt.Sprintf("%s faces %s%s.", u, facingWord(st, u, f.Int("facing")), yes(f.Bool("moved"), " (it pays 1 MP: 7.4)", ""))
	case "stack.set":
		return fmt.Sprintf("The stack at %s, top first: %s.", intHex(f.Int("hex")), strings.Join(f.Strs("units"), ", "))
	case "unit.marked":
		return markText(u, f.Str("flag"), f.Bool("on"))
	case "udd.rolled":
		return fmt.Sprintf("%s's UDD (%s): dr %d%s against cohesion %d: %s.", u, f.Str("why"), f.Int("dr"), drmText(f.Int("drm")), f.Int("need"), yes(f.Bool("ok"), "passed", "failed"))
	case "unit.disordered":
		return fmt.Sprintf("%s is disordered (%s).", u, f.Str("why"))
	case "unit.recovered":
		return fmt.Sprintf("%s recovers its order (%s).", u, f.Str("why"))
	case "unit.rallied":
		return fmt.Sprintf("%s rallies from its rout (%s).", u, f.Str("why"))
	case "unit.lost":
		return fmt.Sprintf("%s loses %d SP (%s): %d left.", u, f.Int("lost"), f.Str("why"), f.Int("sp"))
	case "unit.routed":
		return fmt.Sprintf("%s routs (%s).", u, f.Str("why"))
	case "unit.removed":
		return fmt.Sprintf("%s is gone (%s).", u, f.Str("why"))
	case "unit.fatigue":
		return fmt.Sprintf("%s's fatigue is now %d (%s).", u, f.Int("fatigue"), f.Str("why"))
	case "unit.works":
		return fmt.Sprintf("%s has worked %d turn(s) on its works.", u, f.Int("works"))
	case "works.built":
		return fmt.Sprintf("Works stand at %s.", intHex(f.Int("hex")))
	case "leader.moved":
		return fmt.Sprintf("%s goes to %s.", l, intHex(f.Int("hex")))
	case "oc.moved":
		return fmt.Sprintf("%s's army commander has moved %s MP this phase (4.1b).", f.Str("side"), halfMP(int(f.Int("mp"))))
	case "leader.killed":
		return fmt.Sprintf("%s is killed (%s).", l, f.Str("why"))
	case "leader.replaced":
		return fmt.Sprintf("%s's replacement takes command at %s (17.7).", l, intHex(f.Int("hex")))
	case "fire.resolved":
		col := "column " + f.Str("col")
		if f.Str("col") == "ruled" {
			col = "no chart: the referee rules"
		}
		return fmt.Sprintf("%s fires %d SP at %s (%s fire, %d hex%s, %s): dr %d%s: %s.", f.Str("firer"), f.Int("sp"), f.Str("target"), f.Str("kind"),
			f.Int("range"), yes(f.Int("range") == 1, "", "es"), col, f.Int("dr"), drmText(f.Int("drm")), resultWords(f.Str("result")))
	case "shock.declared":
		return fmt.Sprintf("%s will shock %s (14.3a).", joinAnd(f.Strs("attackers")), intHex(f.Int("hex")))
	case "shock.resolved":
		odds := "odds " + f.Str("odds")
		if f.Str("odds") == "ruled" {
			odds = "no chart: the referee rules"
		}
		return fmt.Sprintf("Shock: %s (%d SP) against %s (%d SP), %s, dr %d%s: %s.", joinAnd(f.Strs("attackers")), f.Int("asp"), joinAnd(f.Strs("defenders")), f.Int("dsp"),
			odds, f.Int("dr"), drmText(f.Int("drm")), shockWords(f.Str("result")))
	case "standing.set":
		x := Standing{Side: f.Str("side"), Scope: f.Str("scope"), Reaction: f.Str("reaction"), Rule: f.Str("rule")}
		if x.Rule == "" {
			x.Rule = "ALWAYS" // not told: only the scope and reaction are
			w := standingText(x)
			return fmt.Sprintf("%s takes back its standing order %s: asked by mail from now on.", x.Side, strings.TrimSuffix(w, " ALWAYS"))
		}
		return fmt.Sprintf("%s's standing order: %s.", x.Side, standingText(x))
	case "brigade.ci":
		return fmt.Sprintf("%s is %s (20.2).", f.Str("brigade"), yes(f.Bool("ci"), "combat ineffective", "combat effective again"))
	case "division.ci":
		return fmt.Sprintf("%s is %s (20.3).", f.Str("division"), yes(f.Bool("ci"), "combat ineffective", "combat effective again"))
	case "game.over":
		return "The game is over: " + f.Str("result") + "."
	case "referee.set":
		return fmt.Sprintf("The referee sets %s's %s to %s (was %s).", f.Str("target"), f.Str("field"), f.Str("value"), f.Str("was"))
	}
	return ""
}

// sentence ends s with a full stop unless it ends a sentence already.
func sentence(s string) string {
	if strings.HasSuffix(s, ".") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "!") {
		return s
	}
	return s + "."
}

func drmText(n int64) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" %+d", n)
}

// facingWord names a unit's facing as the fact gives it: a side for a
// March column.
func facingWord(st *State, unit string, f int64) string {
	side := false
	if u := st.unit(unit); u != nil {
		side = u.onSide()
	}
	return facingName(int(f), side)
}

// resultWords tells a fire result (R2) in words. Every result a game
// logs has been checked (a table's at setup, a referee's ruling when it
// is given), so the last line is not reached by a played game.
func resultWords(code string) string {
	res, err := parseFireResult(code)
	if err != nil {
		return "a result the charts do not have"
	}
	var parts []string
	if res.Loss > 0 {
		parts = append(parts, fmt.Sprintf("%d SP lost", res.Loss))
	}
	if res.Check {
		parts = append(parts, "a disorder check")
	}
	if len(parts) == 0 {
		return "no effect"
	}
	return strings.Join(parts, " and ")
}

// shockWords tells a shock result (R3) in words: what befalls the
// attackers, then the defenders.
func shockWords(code string) string {
	res, err := parseShockResult(code)
	if err != nil {
		return "a result the charts do not have"
	}
	side := func(who string, loss int, dis, ret bool) string {
		var parts []string
		if loss > 0 {
			parts = append(parts, fmt.Sprintf("lose %d SP", loss))
		}
		if dis {
			parts = append(parts, "are disordered")
		}
		if ret {
			parts = append(parts, "retreat")
		}
		if len(parts) == 0 {
			return ""
		}
		return "the " + who + " " + joinAnd(parts)
	}
	var out []string
	for _, s := range []string{side("attackers", res.ALoss, res.ADis, res.ARet), side("defenders", res.DLoss, res.DDis, res.DRet)} {
		if s != "" {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return "no effect"
	}
	return strings.Join(out, "; ")
}

// phaseWords tells the segment a game enters.
func phaseWords(phase string) string {
	switch phase {
	case PhaseCommand:
		return "The Command Segment (3.2): each side sends its orders, sealed."
	case PhaseActivation:
		return "The Activation Segment (3.3) begins."
	case PhaseCommanders:
		return "The End of Turn Segment (3.4): commanders move."
	case PhaseVerdict:
		return "The last turn is over: the referee declares the result."
	case PhaseStart:
		return "The game waits for its first turn to begin."
	case PhaseOver:
		return "The game is over."
	}
	return "The game moves on to another segment of the turn."
}

// reactionNames are the reactions as a sentence names them.
var reactionNames = map[string]string{
	rFace: "reaction facing change", rReturn: "return fire", rClosing: "closing fire", rWithdrawF: "withdrawal fire",
	rRetreat: "pre-shock retreat", rPreFire: "pre-shock fire", rPreFire + " 2": "second pre-shock fire",
	rWM: "reaction withdrawal", rCounter: "counter-charge",
}

func reactionName(r string) string {
	if n, ok := reactionNames[r]; ok {
		return n
	}
	return "reaction"
}

// answerWords tells the answer to what a step of an activation waited
// for (key, as the step filed it): a side's reaction, or the referee's
// ruling. st is the state before, which still holds the question.
func answerWords(st *State, key, answer string) string {
	what, who := keyParts(key)
	if answer == "" {
		return "A standing order sent since answers what was asked."
	}
	if what == oRule {
		kind, _, _ := strings.Cut(who, "|")
		switch kind {
		case "fire":
			return "The referee rules the fire's result: " + resultWords(answer) + "."
		case "shock":
			return "The referee rules the shock's result: " + shockWords(answer) + "."
		case "change":
			return "The referee rules the order change " + yes(answer == "SUCCEEDS", "a success.", "a failure.")
		case "coordinate":
			return "The referee rules the coordination " + yes(answer == "SUCCEEDS", "a success.", "a failure.")
		case "build":
			return "The referee rules the works " + yes(answer == "BUILT", "built.", "not yet built.")
		}
		return "The referee gives the ruling asked for."
	}
	side := "The side asked"
	if a := st.asked(); a != nil && a.Side != "" {
		side = a.Side
	}
	if strings.HasPrefix(answer, "yes") {
		return fmt.Sprintf("%s answers: %s makes its %s.", side, who, reactionName(what))
	}
	return fmt.Sprintf("%s answers: %s makes no %s.", side, who, reactionName(what))
}

func markText(u, flag string, on bool) string {
	if r, ok := strings.CutPrefix(flag, "used:"); ok {
		if r == "noshock" {
			return u + " drops out of the shock."
		}
		return fmt.Sprintf("%s has used its %s this phase.", u, reactionName(r))
	}
	switch flag {
	case "fired":
		return u + " has fired this phase."
	case "shocked":
		return u + " has shocked this phase."
	case "moved":
		return u + " has moved this phase."
	case "wm":
		return u + " has made a withdrawal movement (9.5)."
	case "recover":
		return u + " tries to recover."
	case "build":
		return u + " is building."
	case "charged":
		return u + " charges."
	case "switched":
		return u + " mounts or dismounts this phase (16.2)."
	case "mounted":
		return u + yes(on, " is mounted.", " is dismounted.")
	case "blown":
		return u + yes(on, " is blown.", " has its breath back.")
	case "refused":
		return u + yes(on, " refuses its flank.", " no longer refuses its flank.")
	}
	return u + "'s marker changes."
}

// progLines are a program's orders as written (markers left out).
func progLines(text []string) []string {
	var out []string
	for _, t := range text {
		if n, body, _ := strings.Cut(t, "|"); n != "" {
			out = append(out, body)
		}
	}
	return out
}
