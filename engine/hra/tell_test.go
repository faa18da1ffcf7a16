package hra

import (
	"strings"
	"testing"

	"pbem/engine/table"
	"pbem/events"
	"pbem/internal/dicecheck"
)

// The players' mails tell each fact in plain words, with its
// dice, never as the raw "kind key=value" of pbem log.
func TestDescribeTellsFactsInWords(t *testing.T) {
	S, I, B, SL, IL := events.S, events.I, events.B, events.SL, events.IL
	fact := events.NewFact
	for _, c := range []struct {
		f    events.Fact
		want string
	}{
		{fact("volley.fired", S("firer", "6th Wisconsin"), S("target", "2nd Virginia"), S("kind", "volley"), S("weapon", SmallArms), S("range", "short"),
			B("hindered", false), I("state", 3), I("die", 5), I("mod", 0), I("loss", 1), B("flank", false)),
			"6th Wisconsin fires at 2nd Virginia (small arms, short range, state 3) and rolls 5: a hit on the fire table (HRA T2)."},
		{fact("volley.fired", S("firer", "8th Illinois"), S("target", "1st Virginia Cavalry"), S("kind", "defensive volley"), S("weapon", SmallArms), S("range", "short"),
			B("hindered", true), I("state", 2), I("die", 4), I("mod", -1), I("loss", 0), B("flank", true)),
			"Defensive volley (HRA 11c): 8th Illinois fires at 1st Virginia Cavalry (small arms, short range, hindered, state 2, from the flank or rear) and rolls 4, -1 cavalry (HRA 16a) = 3: no hit on the fire table (HRA T2)."},
		{fact("volley.fired", S("firer", "Battery B"), S("target", "5th Virginia"), S("kind", "volley"), S("weapon", Guns), S("range", "short"),
			B("hindered", false), I("state", 3), I("die", 6), I("mod", 0), I("loss", 2), B("flank", false)),
			"Battery B fires at 5th Virginia (artillery, short range, state 3) and rolls 6: 2 hits on the fire table (HRA T2)."},
		{fact("unit.set", S("unit", "2nd Virginia"), S("field", "state"), I("from", 3), I("to", 2), S("cause", "fire (T2)")),
			"2nd Virginia drops to state 2 (was 3) — fire (T2)."},
		{fact("unit.set", S("unit", "2nd Virginia"), S("field", "state"), I("from", 1), I("to", 0), S("cause", "morale (HRA 12e)")),
			"2nd Virginia breaks and leaves the battlefield (state 1 to 0, HRA 3a) — morale (HRA 12e)."},
		// Each HRA 12d modifier with its source, so the line adds up.
		{fact("morale.tested", S("unit", "4th Virginia"), I("die", 2), I("mod", 1), I("total", 3), S("result", MoraleWithdraw.String()), I("general", 1)),
			"4th Virginia tests its morale and rolls 2, +1 its general with it (HRA 12d) = 3: must withdraw next round (HRA 12e)."},
		{fact("morale.tested", S("unit", "2nd Virginia"), I("die", 3), I("mod", 3), I("total", 6), S("result", MoraleSteady.String()), I("general", 1), I("state_mod", 2)),
			"2nd Virginia tests its morale and rolls 3, +1 its general with it (HRA 12d), +2 full state (HRA 12d) = 6: no effect (HRA 12e)."},
		{fact("morale.tested", S("unit", "7th Wisconsin"), I("die", 4), I("mod", -3), I("total", 1), S("result", MoraleShaken.String()), I("state_mod", -1), I("losses", 5), I("status", 3)),
			"7th Wisconsin tests its morale and rolls 4, -1 low state (HRA 12d), -2 brigade losses 5 over its general's status 3 (HRA 12d) = 1: state -1, must withdraw next round (HRA 12e)."},
		{fact("morale.tested", S("unit", "6th Wisconsin"), I("die", 4), I("mod", 0), I("total", 4), S("result", MoraleWithdraw.String())),
			"6th Wisconsin tests its morale and rolls 4: must withdraw next round (HRA 12e)."},
		{fact("generals.rolled", S("side", Union), IL("dice", 3, 5), IL("statuses", 2, 4)),
			"Union rolls for its generals: 3 and 5, so their status is 2, 4 (HRA 3c)."},
		{fact("supply.rolled", S("unit", "Battery B"), I("die", 4), I("supply", 6)), "Battery B rolls 4 for supply: supply 6 (HRA 3e)."},
		{fact("initiative.rolled", I("union", 5), I("confederate", 2), S("side", Union)), "Initiative (HRA 4.0): Union rolls 5, Confederate rolls 2: Union acts first."},
		{fact("initiative.rolled", I("union", 3), I("confederate", 3), S("side", Confederate)),
			"Initiative (HRA 4.0): Union rolls 3, Confederate rolls 3, a tie: it goes to Confederate, who did not have it (HRA 4.0b)."},
		{fact("unit.moved", S("unit", "6th Wisconsin"), I("x", int64(table.CM(50))), I("y", int64(table.CM(24))), I("facing", 0), B("column", false), I("cost", int64(table.CM(6)))),
			"6th Wisconsin moves to (50, 24) facing 0° (N), using 6cm of its move."},
		{fact("unit.moved", S("unit", "2nd Virginia"), I("x", int64(table.MM(405))), I("y", int64(table.CM(70))), I("facing", int64(180*table.Degree)), B("column", true), I("cost", 0), B("forced", true)),
			"2nd Virginia is forced back to (40.5, 70) facing 180° (S), in column (HRA 5)."},
		{fact("unit.ordered", S("unit", "7th Wisconsin"), S("order", "hold (automatic)")), "7th Wisconsin's order this round: hold (automatic)."},
		{fact("volleys.declared", S("side", Union), SL("firers", "6th Wisconsin", "7th Wisconsin"), SL("targets", "2nd Virginia", "4th Virginia")),
			"Union declares its volleys: 6th Wisconsin will fire at 2nd Virginia; 7th Wisconsin will fire at 4th Virginia (HRA 4.III.a)."},
		{fact("volleys.declared", S("side", Confederate), SL("firers"), SL("targets")), "Confederate fires no volley this round."},
		{fact("volleys.declared", S("side", Confederate), SL("firers"), SL("targets"), B("auto", true)), "Confederate has no unit that can fire this round."},
		{fact("picks.stated", S("side", Union), S("what", "fire"), SL("units", "7th Wisconsin")), "Union picks first the confrontations of 7th Wisconsin (HRA 4.III.c)."},
		{fact("picks.stated", S("side", Union), S("what", "retreat"), SL("units", "6th Wisconsin", "2nd Wisconsin")),
			"Union's forced moves go first for 6th Wisconsin, 2nd Wisconsin, then in roster order (HRA 4.I.b)."},
		{fact("picks.stated", S("side", Union), S("what", "retreat"), SL("units")), "Union has no retreat order: its forced moves go in roster order (HRA 4.I.b)."},
		{fact("melee.begun", S("attacker", "1st Virginia Cavalry"), S("defender", "8th Illinois")), "1st Virginia Cavalry attacks 8th Illinois in melee (HRA 11a, 11b)."},
		{fact("unit.set", S("unit", "2nd Wisconsin"), S("field", "busy"), I("to", 11), S("work", "entrench")), "2nd Wisconsin is entrenching: 11 rounds to go (HRA T1)."},
		{fact("unit.set", S("unit", "8th Illinois"), S("field", "pending"), S("work", "dismount")),
			"8th Illinois begins to dismount: it is done in Phase I of the next round (HRA 16c, 17d)."},
		{fact("unit.set", S("unit", "2nd Virginia"), S("field", "retreating"), I("to", 0)), "2nd Virginia stops retreating."},
		{fact("unit.set", S("unit", "8th Illinois"), S("field", "dismounted"), I("to", 1)), "8th Illinois has dismounted (HRA 16c)."},
		{fact("unit.set", S("unit", "4th Virginia"), S("field", "withdraw_next"), I("to", 1)), "4th Virginia must withdraw in Phase I of the next round (HRA 12e)."},
		{fact("general.killed", S("brigade", "Iron Brigade")), "Iron Brigade's general is killed (HRA 12a d)."},
		{fact("referee.set", S("unit", "2nd Wisconsin"), S("field", "supply"), I("from", 4), I("to", 2)), "The referee sets 2nd Wisconsin's supply to 2 (was 4)."},
		{fact("referee.set", S("unit", "6th Wisconsin"), S("field", "facing"), I("from", 0), I("to", int64(-30*table.Degree))),
			"The referee turns 6th Wisconsin, which faced 0° (N), to face 330°."},
		{fact("referee.set", S("field", "initiative"), S("word", Confederate)), "The referee gives the initiative to Confederate."},
		{fact("referee.set", S("unit", "6th Wisconsin"), S("field", "pos"), I("x", int64(table.CM(50))), I("y", int64(table.CM(55)))), "The referee places 6th Wisconsin at (50, 55)."},
		{fact("battle.ended", S("winner", ""), S("reason", "the scenario's 8 rounds have been played; victory points Union 0, Confederate 0: a draw"), I("union", 0), I("confederate", 0)),
			"The battle is over: the scenario's 8 rounds have been played; victory points Union 0, Confederate 0: a draw."},
	} {
		if err := schemas.Check(c.f); err != nil {
			t.Errorf("the table's own fact: %v", err)
		}
		if got := describe(c.f); got != c.want {
			t.Errorf("%s\n got %q\nwant %q", c.f, got, c.want)
		}
		// Every die line shows its modifiers and adds up.
		for _, p := range dicecheck.Check(c.want) {
			t.Errorf("%s: %s", c.f, p)
		}
	}
}

// Every kind of fact HRA decides has a schema, its own sentence and a
// place in evolve; no two schemas share a kind (NewSchemas panics).
func TestEveryFactKindIsToldAndEvolves(t *testing.T) {
	st := newState(mustParse(t, small))
	for _, kind := range schemas.Kinds() {
		f := events.NewFact(kind)
		if s := describe(f); strings.HasPrefix(s, "Recorded: ") || strings.Contains(s, kind) {
			t.Errorf("%s has no sentence of its own: %q", kind, s)
		}
		if _, err := evolve(st, f); err != nil && strings.Contains(err.Error(), "unknown fact") {
			t.Errorf("%s: %v", kind, err)
		}
	}
	if _, err := evolve(st, events.NewFact("no.such")); err == nil || !strings.Contains(err.Error(), "unknown fact") {
		t.Fatalf("the check cannot fail: evolve of an unknown kind says %v", err)
	}
}

func mustParse(t *testing.T, text string) *ScenarioDef {
	t.Helper()
	sc, err := ParseScenario([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}
