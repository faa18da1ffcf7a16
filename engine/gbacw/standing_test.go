package gbacw

import (
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/hex"
	"pbem/events"
)

// Standing reactions (docs/ORDERS.md): declared per unit, brigade or
// side, with conditions, changeable any time (but in the sealed Command
// Segment), applied in the moving side's activation with no mail; a
// reaction none covers is asked by mail.

func TestStandingOrderForms(t *testing.T) {
	h := newField(t, "", "")
	for _, tc := range []struct{ line, want string }{
		{"STANDING RETURN FIRE ALWAYS", "RETURN FIRE ALL ALWAYS"},
		{"STANDING PRE-SHOCK RETREAT IF DISORDERED", "PRE-SHOCK RETREAT ALL IF DISORDERED"},
		{"STANDING CLOSING FIRE U1 AT CAVALRY", "CLOSING FIRE U1 AT CAVALRY"},
		{"STANDING REACTION FACE U1a IF FIRED ON FROM FLANK", "REACTION FACE U1a IF FROM FLANK"},
		{"STANDING CLOSING FIRE u1a within 2 and if not disordered", "CLOSING FIRE U1a WITHIN 2 AND IF NOT DISORDERED"},
		{"STANDING WITHDRAW UCa IF OUTNUMBERED", "WITHDRAW UCa IF OUTNUMBERED"},
		{"STANDING PRE-SHOCK FIRE ALL NEVER", "PRE-SHOCK FIRE ALL NEVER"},
		{"STANDING WITHDRAWAL FIRE ASK", "WITHDRAWAL FIRE ALL ASK"},
	} {
		h.must(USA, tc.line)
		if !strings.Contains(h.echo(), tc.want) {
			t.Errorf("%q read as %q, want %q", tc.line, h.echo(), tc.want)
		}
	}
	for _, tc := range []struct{ line, want string }{
		{"STANDING RETURN FIR ALWAYS", "no reaction"},
		{"STANDING RETURN FIRE ALWAYZ", "ALWAYS, NEVER, ASK"},
		{"STANDING RETURN FIRE C1a ALWAYS", "not yours"},
		{"STANDING RETURN FIRE IF SUNNY", "unknown condition"},
		{"STANDING RETURN FIRE U Div ALWAYS", "a unit, a brigade or ALL"},
	} {
		h.refused(USA, tc.line, tc.want)
	}
	// CLEAR takes one back: the reaction is asked again.
	h.must(USA, "STANDING RETURN FIRE CLEAR")
	if r := h.st.standingFor(h.u("U1b"), rReturn); r != "" {
		t.Errorf("after CLEAR: %q", r)
	}
}

func TestStandingOrdersAreTheirSidesAlone(t *testing.T) {
	h := newField(t, "", "")
	h.must(CSA, "STANDING PRE-SHOCK RETREAT ALL IF DISORDERED")
	for _, f := range h.last.Facts {
		if f.Vis != events.ToSide(CSA) {
			t.Errorf("%s is seen by %q", f, f.Vis)
		}
	}
	for i := range h.last.Echo {
		if v := h.last.EchoVis; len(v) <= i || v[i] != events.ToSide(CSA) {
			t.Errorf("echo %q is not CSA's alone", h.last.Echo[i])
		}
	}
	mine := render(h.st, engine.Viewer{Side: CSA}).Full
	theirs := render(h.st, engine.Viewer{Side: USA}).Full
	if !strings.Contains(mine, "PRE-SHOCK RETREAT ALL IF DISORDERED") || strings.Contains(theirs, "PRE-SHOCK RETREAT") {
		t.Error("the standing orders on the boards: CSA's should show them, USA's not")
	}
	// STANDING alone lists them, to the side alone.
	h.must(CSA, "STANDING")
	if !strings.Contains(h.echo(), "PRE-SHOCK RETREAT") || h.last.EchoVis[0] != events.ToSide(CSA) {
		t.Errorf("the list: %q", h.echo())
	}
}

func TestStandingOrdersUnitOverBrigadeOverSide(t *testing.T) {
	h := newField(t, "", "")
	h.standing(CSA, "RETURN FIRE ALL NEVER", "RETURN FIRE C1 ALWAYS", "RETURN FIRE C1a IF DISORDERED")
	for unit, want := range map[string]string{"C1a": "IF DISORDERED", "C1b": "ALWAYS", "C2a": "NEVER"} {
		if got := h.st.standingFor(h.u(unit), rReturn); got != want {
			t.Errorf("%s: %q, want %q", unit, got, want)
		}
	}
}

func TestStandingOrderConditions(t *testing.T) {
	h := clearField(t, "", "U1a", "UCa", "C1a", "U Bat")
	h.put("C1a", "0505", "E")
	h.put("U1a", nb("0505", hex.N), "SSE")  // its flank
	h.put("UCa", nb("0505", hex.NE), "SSW") // its front
	h.put("U Bat", "0101", "SSE")
	c := h.u("C1a")
	for _, tc := range []struct {
		rule  string
		enemy string
		want  bool
	}{
		{"IF FROM FLANK", "U1a", true},
		{"IF FROM FLANK", "UCa", false},
		{"IF FROM FLANK OR REAR", "U1a", true},
		{"AT CAVALRY", "UCa", true},
		{"AT CAVALRY", "U1a", false},
		{"AT ARTILLERY", "U Bat", true},
		{"WITHIN 1", "U1a", true},
		{"WITHIN 3", "U Bat", false},
		{"IF DISORDERED", "U1a", false},
		{"IF NOT DISORDERED AND AT INFANTRY", "U1a", true},
		{"IF OUTNUMBERED", "U1a", false},
	} {
		e := h.u(tc.enemy)
		if got := h.st.ruleHolds(tc.rule, c, reactCtx{enemy: e, trigger: "fired", odds: h.st.stackSP(e.Hex)}); got != tc.want {
			t.Errorf("%s with %s: %v, want %v", tc.rule, tc.enemy, got, tc.want)
		}
	}
	h.set("U1a SP 8")
	if !h.st.ruleHolds("IF OUTNUMBERED", c, reactCtx{enemy: h.u("U1a"), odds: 8}) {
		t.Error("8 SP against 6: not outnumbered")
	}
}

func TestAReactionNoStandingOrderCoversIsAskedByMail(t *testing.T) {
	h := clearField(t, "", "U1a", "C1a")
	h.must(CSA, "STANDING RETURN FIRE CLEAR") // clearField declined them all
	h.put("U1a", "0402", "E")
	h.put("C1a", "0702", "W")
	h.activate(USA, "U Div")
	h.must(USA, "U1a: FIRE AT 0702")
	a := h.st.asked()
	if a == nil || a.Side != CSA || !strings.Contains(a.What, "13.1 Return fire") {
		t.Fatalf("asked %+v", a)
	}
	ps := prompts(h.st)
	if len(ps) != 1 || ps[0].Side != CSA || ps[0].Examples[0] != rReturn || ps[0].Examples[1] != "PASS" || !strings.HasPrefix(ps[0].Examples[2], "STANDING RETURN FIRE C1a") {
		t.Errorf("prompt %+v", ps)
	}
	// The fire waits: nothing of it is told yet.
	if strings.Contains(h.facts(), "fire.resolved") {
		t.Error("the fire was resolved before the return fire was declared (13.1)")
	}
	// While it waits the moving side may only send standing orders.
	h.refused(USA, "DONE", "waits for CSA")
	h.must(USA, "STANDING RETURN FIRE ALL NEVER")
	h.refused(CSA, "CLOSING FIRE", "asked about RETURN FIRE")
	h.must(CSA, "RETURN FIRE")
	if n := strings.Count(h.facts(), "fire.resolved"); n != 2 {
		t.Errorf("after the answer: %d fires\n%s", n, h.facts())
	}
	// Answered with a standing order instead: the order answers it.
	h2 := clearField(t, "", "U1a", "C1a")
	h2.must(CSA, "STANDING RETURN FIRE CLEAR")
	h2.put("U1a", "0402", "E")
	h2.put("C1a", "0702", "W")
	h2.activate(USA, "U Div")
	h2.must(USA, "U1a: FIRE AT 0702")
	h2.must(CSA, "STANDING RETURN FIRE C1a NEVER")
	if h2.st.asked() != nil || strings.Count(h2.facts(), "fire.resolved") != 1 {
		t.Errorf("a standing order sent while asked did not answer\n%s", h2.facts())
	}
	// The referee may answer for a side (a deadline's policy).
	h3 := clearField(t, "", "U1a", "C1a")
	h3.must(CSA, "STANDING RETURN FIRE CLEAR")
	h3.put("U1a", "0402", "E")
	h3.put("C1a", "0702", "W")
	h3.activate(USA, "U Div")
	h3.must(USA, "U1a: FIRE AT 0702")
	h3.must(engine.RefereeSide, "ANSWER PASS")
	if h3.st.asked() != nil {
		t.Error("the referee's ANSWER did not answer")
	}
}

func TestStandingOrdersAreNotSentInTheSealedCommandSegment(t *testing.T) {
	h := newHarnessOf(t, "sealed", fieldScn("", ""))
	h.must(USA, "BEGIN")
	h.refused(CSA, "STANDING RETURN FIRE ALWAYS", "shown to the other side")
	// Before the game begins they may be.
	h2 := newHarnessOf(t, "early", fieldScn("", ""))
	h2.must(CSA, "STANDING RETURN FIRE ALWAYS")
}

func TestStandingOrdersApplyWithNoMail(t *testing.T) {
	h := clearField(t, "", "U1a", "C1a")
	h.standing(CSA, "RETURN FIRE ALL ALWAYS")
	h.put("U1a", "0402", "E")
	h.put("C1a", "0702", "W")
	h.activate(USA, "U Div")
	h.rolls = make([]int, 4)
	h.must(USA, "U1a: FIRE AT 0702")
	if h.st.asked() != nil || !strings.Contains(h.facts(), "kind=return") {
		t.Errorf("the standing return fire: asked %+v\n%s", h.st.asked(), h.facts())
	}
}

// Every hint of a refused order fits a mail's 78 columns after "    try: ".
func TestHintsFitAMail(t *testing.T) {
	h := newField(t, "", "")
	h.activate(USA, "U Div")
	for _, text := range []string{"FOO", "STANDING RETURN FIR ALWAYS", "STANDING RETURN FIRE ALL ALWAYZ", "STANDING RETURN FIRE IF SUNNY",
		"U1a: DANCE", "U1a: MOVE north", "ORDER U1 ATTACK", "U1a: FIRE", "U1a: SHOCK", "Nobody: MOVE 0101", "COORDINATE U1",
		"U1a: FACE UP", "U1a, U1b: MOVE 0202", "BEGIN now", "FIRST", "U1a: WITHDRAW 0101 0102 0103"} {
		probs := h.send(USA, text)
		if len(probs) == 0 {
			t.Errorf("%q accepted", text)
		}
		for _, p := range probs {
			if len(p.Hint) > 69 {
				t.Errorf("%q: the hint %q is %d characters", text, p.Hint, len(p.Hint))
			}
		}
	}
}
