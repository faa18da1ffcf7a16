package gcacw

import (
	"regexp"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/events"
)

// rawArg is a fact's argument as pbem log writes it: "unit=LYLE".
var rawArg = regexp.MustCompile(`(^|\s)[a-z_]+=`)

// checkTold fails unless every fact matches its schema and is told in
// words: the harness and the random games call it on every
// decision they make, so every fact the rule tests reach is checked, not
// only those of the acceptance scripts. st is the state before the
// decision.
func checkTold(tb testing.TB, st *State, fs []events.Fact) {
	tb.Helper()
	schemas := engine.SchemasOf(New())
	for _, f := range fs {
		if err := schemas.Check(f); err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		if s := tell(st, f); strings.TrimSpace(s) == "" || strings.Contains(s, f.Kind+" ") || rawArg.MatchString(s) {
			tb.Fatalf("%s is told as %q: say it in words", f, s)
		}
	}
}

// The players' mails tell each fact in plain words: units and
// leaders by their names, hexes as printed, the dice the fact carries,
// never the raw "kind key=value" of pbem log.
func TestDescribeTellsFactsInWords(t *testing.T) {
	b, err := Scenario("harrow-creek")
	if err != nil {
		t.Fatal(err)
	}
	rs := New()
	st, err := rs.Setup(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	teller := rs.(engine.Teller)
	S, I, B, SL, IL := events.S, events.I, events.B, events.SL, events.IL
	fact := events.NewFact
	for _, c := range []struct {
		f    events.Fact
		want string
	}{
		{fact("initiative.rolled", S("side", USA), I("die", 4), I("other", 2)),
			"USA rolls 4 for the initiative, CSA 2: USA may take the initiative (GCACW 4.2)."},
		{fact("initiative.rolled", S("side", CSA), I("die", 3), I("other", 3), B("tie", true), S("rule", "the Confederacy wins ties (GCACW 4.2b)")),
			"Both sides roll 3 for the initiative, a tie: the Confederacy wins ties (GCACW 4.2b), so CSA may take the initiative."},
		{fact("initiative.automatic", S("side", USA), S("reason", "CSA has no unit that can act (GCACW 4.2d)")),
			"USA wins the initiative without a roll: CSA has no unit that can act (GCACW 4.2d)."},
		{fact("march.begun", S("unit", "LYLE"), S("side", USA), I("ma", 3), I("die", 3), S("plan", "1605 FORCE IF MA < 3"), B("opt", false)),
			"Lyle begins its march (1605 FORCE IF MA < 3) and rolls 3 for its Movement Allowance: MA 3 (GCACW 5.1.1)."},
		{fact("march.begun", S("unit", "STAR"), S("side", CSA), I("ma", 8), IL("dice", 3, 4), S("plan", "0810"), B("opt", true)),
			"Starling begins its march (0810) at fatigue 4 (GCACW 5.1-OPT) and rolls 3 + 4 = 7, +1 Confederate (5.1.1) = 8 for its Movement Allowance: MA 8 (GCACW 5.1.1)."},
		{fact("march.begun", S("unit", "VANE"), S("side", USA), I("ma", 6), S("leader", "KELL"), S("plan", "1310 1311"), B("opt", false)),
			"Vane begins its march (1310 1311) with Kellogg's MA of 6 (GCACW 5.2.3)."},
		{fact("unit.fatigue_raised", S("unit", "LYLE"), I("from", 1), I("fatigue", 2), B("extended", false)),
			"Lyle's fatigue rises from 1 to 2 (GCACW 5.1.2)."},
		{fact("unit.fatigue_raised", S("unit", "1OH"), I("from", 4), I("fatigue", 4), B("extended", true)),
			"1st Ohio Squadron's fatigue stays at 4: an Extended March (GCACW 5.1-EM)."},
		{fact("unit.marched", S("unit", "LYLE"), SL("path", "1606", "1605", "1604"), I("mp", 3), I("ma", 5), I("fatigue", 2), S("stopped", "end of path")),
			"Lyle marches 1606–1605–1604 (3 of 5 MP, fatigue 2) to the end of its path."},
		{fact("unit.marched", S("unit", "RART"), SL("path", "1605"), I("mp", 0), I("ma", 2), I("fatigue", 3), S("stopped", "out of MP: 1604 costs 3, 2 left")),
			"Reserve Artillery marches in place in 1605 (0 of 2 MP, fatigue 3) until it is out of MP: 1604 costs 3, 2 left."},
		{fact("unit.marched", S("unit", "ORNE"), SL("path", "1408", "1407"), I("mp", 0), I("ma", 4), I("fatigue", 1), S("stopped", "ruled by the referee")),
			"Orne marches 1408–1407 (MA 4, fatigue 1) and stops where the referee ruled."},
		{fact("unit.force_marched", S("unit", "VANE"), IL("dice", 1, 4), I("roll", 5), I("mp", 4), I("ma", 6)),
			"Vane force marches and rolls 1 + 4 = 5, -1 Force March (5.1-FM.2) = 4: 4 more MP, MA 6 (GCACW 5.1-FM.2)."},
		{fact("unit.force_marched", S("unit", "LYLE"), I("die", 3), I("roll", 3), I("mp", 2), I("ma", 3)),
			"Lyle force marches and rolls 3, -1 Force March (5.1-FM.2) = 2: 2 more MP, MA 3 (GCACW 5.1-FM.2)."},
		{fact("unit.disorganized", S("unit", "LYLE"), S("reason", "force march (GCACW 5.1-FM.1)")),
			"Lyle is disorganized: force march (GCACW 5.1-FM.1)."},
		{fact("strength.lost", S("unit", "ORNE"), I("manpower", 1), I("left", 6), S("reason", "force march (GCACW 5.1-FM.3)")),
			"Orne loses 1 Manpower, 6 left: force march (GCACW 5.1-FM.3)."},
		{fact("extended_march.resolved", S("unit", "PASK"), I("die", 5), I("drm", 1), I("roll", 6), S("column", "O5-8"), S("result", "D"), S("by", "table"), SL("drms", "+1 marched to fatigue 4")),
			"Pask rolls 5, +1 marched to fatigue 4 (Extended March Table) = 6 for its Extended March on the O5-8 column of the Extended March Table: D, disorganized (GCACW 5.1-EM.4)."},
		{fact("extended_march.resolved", S("unit", "PASK"), I("die", 4), S("result", "2"), S("by", "referee")),
			"The referee reads Pask's Extended March roll of 4: 2, a loss of 2 Manpower (GCACW 5.1-EM.4)."},
		{fact("leader.activated", S("leader", "GAIN"), S("side", CSA), SL("units", "BECK", "WASH"), SL("plans", "0605", "0507"), S("limit", "any")),
			"Gaines activates Becket (0605) and Washburn's Battery (0507)."},
		{fact("leader.ma_rolled", S("leader", "KELL"), IL("dice", 2, 3), I("ma", 6), S("class", "cavalry division")),
			"Kellogg (a cavalry division leader) rolls 2 + 3 = 5, +1 Union cavalry division leader (5.2.3) = 6 for the activation: MA 6 (GCACW 5.2.3)."},
		{fact("activation.skipped", S("unit", "WASH"), S("reason", "eliminated before its march")),
			"Washburn's Battery does not march: eliminated before its march."},
		{fact("leader.transferred", S("leader", "ASHL"), S("from", "LYLE"), S("to", "RART")),
			"Ashley moves from Lyle to Reserve Artillery (GCACW 2.2j)."},
		{fact("leader.transferred", S("leader", "ASHL"), S("from", "LYLE"), S("to", "RART"), S("by", "referee")),
			"Ashley moves from Lyle to Reserve Artillery, by the referee's ruling."},
		{fact("cavalry_retreat.asked", S("side", CSA), S("unit", "1OH"), SL("units", "STAR")),
			"1st Ohio Squadron's march waits: CSA may retreat Starling before it (GCACW 5.1.2)."},
		{fact("cavalry.retreated", S("unit", "STAR"), SL("path", "0710", "0610"), S("by", "its owner's answer (R9, house rule)")),
			"Starling retreats 0710–0610: its owner's answer (house rule)."},
		{fact("standing.set", S("side", USA), S("unit", ""), S("when", "never")),
			"USA's standing order: Cavalry Retreat NEVER for all its cavalry (GCACW 5.1.2)."},
		{fact("standing.set", S("side", CSA), S("unit", "STAR"), S("when", "ask")),
			"CSA withdraws its standing Cavalry Retreat order for Starling (GCACW 5.1.2)."},
		{fact("queue.added", S("side", USA), I("n", 2), S("order", "ACTIVATE Brand: Pask 1509 1510;\n  RART 1707")),
			"USA queues order #2: ACTIVATE Brand: Pask 1509 1510; RART 1707."},
		{fact("queue.dropped", S("side", CSA), I("n", 1), S("reason", "Starling cannot march: it has marched in this Action Phase (GCACW 5.1d)")),
			"CSA's queued order #1 is dropped: Starling cannot march: it has marched in this Action Phase (GCACW 5.1d)."},
		{fact("random_event.rolled", I("turn", 2), I("roll", 7), IL("dice", 3, 4), S("event", "Rain")),
			"Random Events, turn 2: pbem rolls 3 + 4 = 7: Rain (GCACW 3, phase 1)."},
		{fact("reorganization.rolled", S("unit", "BECK"), I("die", 2), S("on", "1-3"), B("organized", true)),
			"Becket rolls 2 to reorganize (it needs 1-3): it is organized again."},
		{fact("turn.begun", I("turn", 2)), "Turn 2 of 3 begins with the Leader Transfer Phase (GCACW 3)."},
		{fact("game.ended", S("winner", ""), S("reason", "the referee ruled the result after the last turn (victory conditions: R24)")),
			"The game is over, a draw: the referee ruled the result after the last turn."},
		{fact("set", S("target", "VANE"), S("field", "strength"), S("old", "3"), S("new", "2")),
			"The referee sets Vane's strength from 3 to 2."},
		{fact("referee.pending", S("step", StepRetreat), S("unit", "1OH"), SL("units", "STAR"),
			S("note", "CSA's owner retreats STAR before 1OH's march (GCACW 5.1.2); how cavalry retreats [7.7] is not in the rules pbem has (R9): rule each retreat")),
			"The referee must rule: CSA's owner retreats Starling before 1st Ohio Squadron's march (GCACW 5.1.2); how cavalry retreats is not in the rules pbem has: rule each retreat."},
		{fact("referee.ruled", S("step", StepRetreat), S("result", "none")), "The referee rules that no cavalry retreats (GCACW 5.1.2)."},
		{fact("undo.point", S("side", USA)), "USA may take this order back with UNDO until someone acts."},
		{fact("undo.cleared"), "The last order can no longer be taken back."},
	} {
		if err := engine.SchemasOf(rs).Check(c.f); err != nil {
			t.Errorf("%s: %v", c.f, err)
		}
		if got := teller.Describe(st, c.f); got != c.want {
			t.Errorf("%s\n got: %s\nwant: %s", c.f, got, c.want)
		}
	}
}

// undo.cleared is always the first fact of its decision, so the state
// before the decision names whose order can no longer be taken back.
func TestDescribeUndoClearedNamesTheSide(t *testing.T) {
	h := newHarness(t, refereedHarrow(t))
	h.do(USA, "PASS")
	before := h.st
	d := h.do(CSA, "PASS", "initiative USA=4", "initiative CSA=2")
	if got := New().(engine.Teller).Describe(before, d.Facts[0]); got != "USA's last order can no longer be taken back." {
		t.Errorf("%s is told as %q", d.Facts[0], got)
	}
}
