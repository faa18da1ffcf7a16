package gbacw

import (
	"strings"
	"testing"

	"pbem/engine"
	"pbem/events"
)

// Facts told in words (engine.Teller): every kind of fact GBACW makes has a schema
// and is told in words for the players' mails: units, leaders and
// brigades by name, hexes as printed, the dice the fact carries, chart
// results spelt out, never the raw "kind key=value" of pbem log.
func TestGBACW_TellsEveryFactInWords(t *testing.T) {
	h := newField(t, "", "")
	h.activate(USA, "U Div")
	h.facts0(events.NewFact("prog.set", events.SL("text", "1|U1a: FIRE AT 0905")),
		events.NewFact("prog.asked", events.S("side", CSA), events.S("key", "0.0|RETURN FIRE|C1a"), events.S("what", "13.1 Return fire"), events.SL("examples", "RETURN FIRE", "PASS")))
	st := h.st
	S, I, B, SL, IL := events.S, events.I, events.B, events.SL, events.IL
	fact := events.NewFact
	cases := []struct {
		f    events.Fact
		want string
	}{
		{fact("turn.begun", I("turn", 2)), "Turn 2 begins."},
		{fact("initiative.rolled", I("usa", 6), I("csa", 3), I("usa_drm", 1), I("csa_drm", 0), S("side", USA)), "Initiative (4.1): USA rolls 6, +1 initiative DRMs (4.1) = 7; CSA rolls 3: USA has the initiative."},
		{fact("initiative.rolled", I("usa", 4), I("csa", 4), I("usa_drm", 0), I("csa_drm", 0), S("side", "")), "Initiative (4.1): USA rolls 4; CSA rolls 4: neither side has the initiative (a tie, 3.1)."},
		{fact("unit.arrived", S("unit", "U2a")), "U2a arrives as a reinforcement (3.2.4)."},
		{fact("leader.arrived", S("leader", "U2 Leader")), "U2 Leader arrives with his brigade."},
		{fact("brigade.arrived", S("brigade", "U2")), "U2 has arrived."},
		{fact("command.traced", S("side", USA), SL("out")), "Chain of command (5): every USA leader and unit is in command."},
		{fact("command.traced", S("side", CSA), SL("out", "C2 Leader", "C2a")), "Chain of command (5): out of command for CSA: C2 Leader and C2a."},
		{fact("division.ams", S("division", "U Div"), I("n", 2), I("dr", 7), S("why", "")), "U Div has 2 activation markers (the efficiency draw rolls 7)."},
		{fact("division.ams", S("division", "U Div"), I("n", 1), I("dr", 3), S("why", "its leader is out of command (5.5)")), "U Div has 1 activation marker (the efficiency draw rolls 3); its leader is out of command (5.5)."},
		{fact("division.ams", S("division", "C Div"), I("n", -1), I("dr", -1), S("why", "the referee rules it")), "C Div's activation markers: the referee rules them."},
		{fact("march.ams", S("side", CSA), I("n", 2), I("dr", 5)), "CSA's March AM activates its March columns 2 times this turn (10.1)."},
		{fact("march.ams", S("side", CSA), I("n", -1), I("dr", -1)), "CSA's March AM: the referee rules how often it activates."},
		{fact("march.again", S("side", USA), I("n", 2)), "USA's March AM activates its March columns again (10.1): 2 activations left this turn, this one included."},
		{fact("am.drawn", S("am", "USA|March"), I("dr", 0), SL("acting", "U2"), SL("skipping")), "USA's March AM is activated again (10.1)."},
		{fact("ruling.asked", S("key", "ams"), S("what", "each division's activation markers for turn 1 (R5)"), SL("examples", "RULE U Div 2")), "The referee is asked: each division's activation markers for turn 1 (R5)."},
		{fact("ruling.given", S("key", "ams"), S("value", "activation markers")), "The referee has ruled the activation markers."},
		{fact("phase.set", S("phase", PhaseCommand)), "The Command Segment (3.2): each side sends its orders, sealed."},
		{fact("phase.set", S("phase", PhaseActivation)), "The Activation Segment (3.3) begins."},
		{fact("phase.set", S("phase", PhaseCommanders)), "The End of Turn Segment (3.4): commanders move."},
		{fact("phase.set", S("phase", PhaseVerdict)), "The last turn is over: the referee declares the result."},
		{fact("side.done", S("side", USA)), "USA is done for this segment."},
		{fact("release.ordered", S("brigade", "C2"), S("order", Attack)), "C2 is to be released from reserve on attack orders (3.4.2)."},
		{fact("brigade.ordered", S("brigade", "U1"), S("order", Attack), SL("units", "U1a", "U1b", "U Bat"), IL("facings", 2, 2, 2), S("how", "Division Orders, 3.2.3")), "U1 is on attack orders (Division Orders, 3.2.3)."},
		{fact("am.first", S("side", USA), S("am", "USA|U Div")), "USA, with the initiative, activates U Div first (4.2)."},
		{fact("pool.filled", SL("ams", "USA|U Div", "CSA|C Div", "CSA|March")), "3 activation markers go into the pool (3.3)."},
		{fact("am.drawn", S("am", "CSA|C Div"), I("dr", 2), SL("acting", "C1", "C2"), SL("skipping")), "CSA's C Div AM is drawn from the pool (die 2)."},
		{fact("am.drawn", S("am", "USA|U Div"), I("dr", 0), SL("acting", "U1", "U2"), SL("skipping", "U2", "U2a")), "USA's U Div AM is chosen first; out of command, these skip it: U2 and U2a."},
		{fact("am.drawn", S("am", "USA|March"), I("dr", 4), SL("acting", "U1"), SL("skipping")), "USA's March AM is drawn from the pool (die 4)."},
		{fact("am.ended", S("am", "USA|U Div")), "U Div's activation is over."},
		{fact("am.ended", S("am", "CSA|March")), "CSA's March activation is over."},
		{fact("prog.set", S("side", USA), SL("text", "1|U1a: FIRE AT 0905", "|plan", "2|U1b: MOVE 0203")), "USA's orders for this activation: U1a: FIRE AT 0905; U1b: MOVE 0203."},
		{fact("prog.asked", S("side", CSA), S("key", "0.0|RETURN FIRE|C1a"), S("what", "13.1 Return fire: U1a (6) fires at your C1a (6)"), SL("examples", "RETURN FIRE", "PASS")), "The game waits for CSA: 13.1 Return fire: U1a (6) fires at your C1a (6)."},
		{fact("prog.asked", S("side", ""), S("key", "0.0|RULE|fire|U1a"), S("what", "rule the fire's result"), SL("examples", "RULE 1")), "The game waits for the referee: rule the fire's result."},
		{fact("prog.held", I("at", 0), I("step", 1), SL("text", "1|U1a: FIRE AT 0905"), IL("rolls", 4)), "The orders sent wait at order 1: U1a: FIRE AT 0905."},
		{fact("prog.answered", S("key", "0.0|RETURN FIRE|C1a"), S("answer", "yes")), "CSA answers: C1a makes its return fire."},
		{fact("prog.answered", S("key", "0.0|RETURN FIRE|C1a"), S("answer", "no")), "CSA answers: C1a makes no return fire."},
		{fact("prog.answered", S("key", "0.0|REACTION FACE|C1a"), S("answer", "yes:3")), "CSA answers: C1a makes its reaction facing change."},
		{fact("prog.answered", S("key", "0.0|RETURN FIRE|C1a"), S("answer", "")), "A standing order sent since answers what was asked."},
		{fact("prog.answered", S("key", "0.0|ROUT|C1a|0904 0905"), S("answer", "yes:0905")), "CSA answers: C1a routs to 0905."},
		{fact("prog.answered", S("key", "0.0|ROUT|C1a|0904 0905"), S("answer", "no")), "CSA answers: C1a routs to 0904, the hex first in order."},
		{fact("prog.answered", S("key", "0.0|RULE|fire|U1a"), S("answer", "1D")), "The referee rules the fire's result: 1 SP lost and a disorder check."},
		{fact("prog.answered", S("key", "0.0|RULE|shock|0905"), S("answer", "A1/DD/DR")), "The referee rules the shock's result: the attackers lose 1 SP; the defenders are disordered and retreat."},
		{fact("prog.answered", S("key", "0.0|RULE|change|U1"), S("answer", "FAILS")), "The referee rules the order change a failure."},
		{fact("prog.answered", S("key", "0.0|RULE|coordinate"), S("answer", "SUCCEEDS")), "The referee rules the coordination a success."},
		{fact("prog.answered", S("key", "0.0|RULE|build|U1a"), S("answer", "BUILT")), "The referee rules the works built."},
		{fact("order.rolled", S("brigade", "U1"), S("to", Attack), I("dr", 6), I("drm", 1), I("need", 5), B("ok", true)), "U1 tries to change to attack orders (3.3): U1 rolls 6, +1 leaders stacked (3.3) = 7 against 5 needed on the order change chart (R6): it does."},
		{fact("order.rolled", S("brigade", "U1"), S("to", Attack), I("dr", -1), I("drm", 0), I("need", -1), B("ok", false)), "U1's order change to attack: the referee rules it fails."},
		{fact("coordination.rolled", SL("brigades", "U1", "U2"), I("dr", 2), I("need", 4), B("ok", false)), "Coordination of U1 and U2 (3.3): U1 rolls 2 against 4 needed on the coordination chart (R7): each acts alone."},
		{fact("coordination.rolled", SL("brigades", "U1", "U2"), I("dr", -1), I("need", -1), B("ok", true)), "Coordination of U1 and U2: the referee rules it succeeds."},
		{fact("group.begun", SL("brigades", "U1", "U2")), "U1 and U2's Action Phase."},
		{fact("unit.moved", S("unit", "U1a"), I("hex", 203), I("facing", 2), I("mp", 3), B("extended", false)), "U1a moves to 0203, facing SSE (1½ MP spent)."},
		{fact("unit.faced", S("unit", "U1a"), I("facing", 4), I("mp", 2), B("moved", true)), "U1a faces W (it pays 1 MP: 7.4)."},
		{fact("unit.faced", S("unit", "U1a"), I("facing", 3), I("mp", 0), B("moved", false)), "U1a faces SSW."},
		{fact("stack.set", I("hex", 101), SL("units", "U1a", "U Bat")), "The stack at 0101, top first: U1a, U Bat."},
		{fact("unit.marked", S("unit", "U1a"), S("flag", "fired"), B("on", true)), "U1a has fired this phase."},
		{fact("unit.marked", S("unit", "C1a"), S("flag", "used:"+rReturn), B("on", true)), "C1a has used its return fire this phase."},
		{fact("unit.marked", S("unit", "C1a"), S("flag", "used:"+rPreFire+" 2"), B("on", true)), "C1a has used its second pre-shock fire this phase."},
		{fact("unit.marked", S("unit", "C1a"), S("flag", "used:noshock"), B("on", true)), "C1a drops out of the shock."},
		{fact("unit.marked", S("unit", "UCa"), S("flag", "mounted"), B("on", false)), "UCa is dismounted."},
		{fact("udd.rolled", S("unit", "U1a"), S("why", "fired on by C1a"), I("dr", 7), I("drm", -1), I("need", 6), B("ok", true)), "UDD (1.2), fired on by C1a: U1a rolls 7, -1 DRMs = 6 against cohesion 6: passed."},
		{fact("unit.disordered", S("unit", "U1a"), S("why", "fired on by C1a")), "U1a is disordered (fired on by C1a)."},
		{fact("unit.recovered", S("unit", "U1a"), S("why", "recovery (19.3)")), "U1a recovers its order (recovery (19.3))."},
		{fact("unit.rallied", S("unit", "U1a"), S("why", "recovery (19.3)")), "U1a rallies from its rout (recovery (19.3))."},
		{fact("unit.lost", S("unit", "U1a"), I("sp", 5), I("lost", 1), S("why", "fire by C1a")), "U1a loses 1 SP (fire by C1a): 5 left."},
		{fact("unit.routed", S("unit", "U1a"), S("why", "2nd disorder")), "U1a routs (2nd disorder)."},
		{fact("unit.removed", S("unit", "U1a"), S("why", "eliminated")), "U1a is gone (eliminated)."},
		{fact("unit.fatigue", S("unit", "U1a"), I("fatigue", 1), S("why", "end-of-turn recovery (19.6)")), "U1a's fatigue is now 1 (end-of-turn recovery (19.6))."},
		{fact("unit.works", S("unit", "U1a"), I("works", 1)), "U1a has worked 1 turn(s) on its works."},
		{fact("works.built", I("hex", 101)), "Works stand at 0101."},
		{fact("leader.moved", S("leader", "U1 Leader"), I("hex", 102), I("mp", 2)), "U1 Leader goes to 0102."},
		{fact("oc.moved", S("side", USA), I("mp", 21), I("hexes", 6)), "USA's army commander has moved 10½ MP this phase (4.1b)."},
		{fact("leader.killed", S("leader", "U1 Leader"), S("why", "a step loss of U1a (17.3)")), "U1 Leader is killed (a step loss of U1a (17.3))."},
		{fact("leader.replaced", S("leader", "U1 Leader"), I("hex", 101)), "U1 Leader's replacement takes command at 0101 (17.7)."},
		{fact("fire.resolved", S("firer", "U1a"), S("target", "C1a"), I("sp", 6), I("range", 2), S("col", "5-6"), I("dr", 8), I("drm", -1), S("result", "1D"), S("kind", "phase")), "U1a fires 6 SP at C1a (phase fire, 2 hexes): U1a rolls 8, -1 fire DRMs (R2) = 7 on the Fire Results Table (R2), column 5-6: 1 SP lost and a disorder check."},
		{fact("fire.resolved", S("firer", "C1a"), S("target", "U1a"), I("sp", 6), I("range", 1), S("col", "ruled"), I("dr", 2), I("drm", 0), S("result", "-"), S("kind", "return")), "C1a fires 6 SP at U1a (return fire, 1 hex): C1a rolls 2 and with no Fire Results Table (R2) the referee rules: no effect."},
		{fact("fire.resolved", S("firer", "U1a"), S("target", "C1a"), I("sp", 6), I("range", 3), S("col", "5-6"), I("dr", 4), I("drm", 0), S("result", "D"), S("kind", "phase"), SL("mods", "-1 rifle at 3 hexes (R2)", "+1 prepared fire (11.4)")), "U1a fires 6 SP at C1a (phase fire, 3 hexes): U1a rolls 4, -1 rifle at 3 hexes (R2), +1 prepared fire (11.4) = 4 on the Fire Results Table (R2), column 5-6: a disorder check."},
		{fact("initiative.rolled", I("usa", 6), I("csa", 3), I("usa_drm", 3), I("csa_drm", 0), S("side", USA), SL("usa_mods", "+1 initiative last turn (4.1a)", "+2 U Army's initiative rating (4.1b)"), SL("csa_mods")), "Initiative (4.1): USA rolls 6, +1 initiative last turn (4.1a), +2 U Army's initiative rating (4.1b) = 9; CSA rolls 3: USA has the initiative."},
		{fact("udd.rolled", S("unit", "U1a"), S("why", "recovery (19.3)"), I("dr", 3), I("drm", 0), I("need", 4), B("ok", true), SL("mods", "+1 next to the enemy (19.4)", "-1 leaders' stars (18.4)")), "UDD (1.2), recovery (19.3): U1a rolls 3, +1 next to the enemy (19.4), -1 leaders' stars (18.4) = 3 against cohesion 4: passed."},
		{fact("shock.declared", SL("attackers", "U1a", "U1b"), I("hex", 905)), "U1a and U1b will shock 0905 (14.3a)."},
		{fact("shock.resolved", SL("attackers", "U1a", "U1b"), SL("defenders", "C1a"), I("asp", 11), I("dsp", 6), S("odds", "3:2"), I("dr", 6), I("drm", 1), S("result", "D1/Dr")), "Shock: U1a and U1b (11 SP) against C1a (6 SP): U1a rolls 6, +1 shock DRMs (R3) = 7 on the Shock Results Table (R3), odds 3:2: the defenders lose 1 SP and retreat."},
		{fact("shock.resolved", SL("attackers", "U1a"), SL("defenders", "C1a"), I("asp", 6), I("dsp", 6), S("odds", "1:1"), I("dr", 0), I("drm", 0), S("result", "A1/Ad")), "Shock: U1a (6 SP) against C1a (6 SP): U1a rolls 0 on the Shock Results Table (R3), odds 1:1: the attackers lose 1 SP and are disordered."},
		{fact("shock.resolved", SL("attackers", "U1a"), SL("defenders", "C1a"), I("asp", 6), I("dsp", 6), S("odds", "ruled"), I("dr", 4), I("drm", 0), S("result", "-")), "Shock: U1a (6 SP) against C1a (6 SP): U1a rolls 4 and with no Shock Results Table (R3) the referee rules: no effect."},
		{fact("standing.set", S("side", CSA), S("scope", ""), S("reaction", rReturn), S("rule", "ALWAYS")), "CSA's standing order: RETURN FIRE ALL ALWAYS."},
		{fact("standing.set", S("side", CSA), S("scope", "C1"), S("reaction", rRetreat), S("rule", "")), "CSA takes back its standing order PRE-SHOCK RETREAT C1: asked by mail from now on."},
		{fact("brigade.ci", S("brigade", "U1"), B("ci", true)), "U1 is combat ineffective (20.2)."},
		{fact("division.ci", S("division", "U Div"), B("ci", false)), "U Div is combat effective again (20.3)."},
		{fact("game.over", S("winner", USA), S("result", "victory points USA 5, CSA 2: USA wins"), IL("vp", 5, 2)), "The game is over: victory points USA 5, CSA 2: USA wins."},
		{fact("referee.set", S("target", "U1a"), S("field", "SP"), S("value", "4"), S("was", "6")), "The referee sets U1a's SP to 4 (was 6)."},
	}
	told := map[string]bool{}
	teller := New().(engine.Teller)
	for _, c := range cases {
		told[c.f.Kind] = true
		if err := engine.SchemasOf(New()).Check(c.f); err != nil {
			t.Errorf("%s: %v", c.f, err)
		}
		if got := teller.Describe(st, c.f); got != c.want {
			t.Errorf("%s\n got: %s\nwant: %s", c.f, got, c.want)
		}
		if got := describe(st, c.f); rawArg.MatchString(got) || strings.Contains(got, c.f.Kind+" ") {
			t.Errorf("%s is told raw: %q", c.f, got)
		}
	}
	for _, s := range factSet.Schemas() {
		if !told[s.Kind] {
			t.Errorf("no sentence tested for %s", s.Kind)
		}
	}
}
