package gcacw

import (
	"strings"
	"testing"

	"pbem/engine"
)

// retreatScn is Able (USA infantry, Manpower 5) at 0505 with Stuart (CSA
// cavalry, 2) next to it at 0605, and house, if any, as house rules.
func retreatScn(t *testing.T, house string) *harness {
	t.Helper()
	s := marchScn(ableA, "", "", flatTEC+emTable("")+house)
	s.units += "\nCSA S \"Stuart\" cav X str=2 at=0605 in=Z"
	h := newHarness(t, s.bytes())
	h.start(5, 2)
	return h
}

// GCACW 5.1.2: enemy cavalry in the marching unit's ZOC may retreat
// [7.7] before the march goes on. The choice is its owner's: without a
// standing order the owner is asked, and the march waits for the answer
// (the marching side can do nothing but queue). Without a house rule
// for how cavalry retreats (R9), the owner says whether, the referee how.
func TestGCACW_5_1_2_CavalryRetreatAskedOfItsOwner(t *testing.T) {
	h := retreatScn(t, "")
	h.do(USA, "MARCH Able 0504 0503", "march MA A=2")
	a := h.st.Ask
	if a == nil || a.Side != CSA || strings.Join(a.Units, ",") != "S" || h.st.Pending != nil {
		t.Fatalf("ask %+v, pending %+v: want CSA asked about Stuart, not the referee", a, h.st.Pending)
	}
	ps := prompts(h.st)
	if len(ps) != 1 || ps[0].Side != CSA || !strings.Contains(ps[0].What, "your cavalry Stuart (S) in 0605") || !strings.Contains(ps[0].What, "PASS keeps them all") {
		t.Fatalf("prompts %+v", ps)
	}
	mustContain(t, "the marcher acts", problemsText(h.reject(USA, "MARCH Custer 0403")), "the game waits for CSA to answer the Cavalry Retreat")
	h.do(USA, "QUEUE PASS")
	mustContain(t, "a march while asked", problemsText(h.reject(CSA, "MARCH Zulu 1009")), "first answer the Cavalry Retreat")
	// The owner retreats it: how is the referee's.
	h.do(CSA, "CAVALRY RETREAT Stuart 0705")
	if p := h.st.Pending; p == nil || p.Step != StepRetreat || strings.Join(p.Units, ",") != "S" || h.st.Ask != nil {
		t.Fatalf("pending %+v, ask %+v", p, h.st.Ask)
	}
	h.do(engine.RefereeSide, "RULE RETREAT Stuart 0705 0805", "initiative USA=1", "initiative CSA=2")
	if s, a := h.unit("S"), h.unit("A"); s.Hex.String() != "0805" || a.Hex.String() != "0503" {
		t.Errorf("Stuart at %s, Able at %s; want 0805 and 0503", s.Hex, a.Hex)
	}

	// PASS keeps the cavalry in place, and the march goes on at once.
	h = retreatScn(t, "")
	h.do(USA, "MARCH Able 0504 0503", "march MA A=2")
	dec := h.do(CSA, "PASS", "initiative USA=1", "initiative CSA=2")
	fact(t, dec, "cavalry.stayed")
	if h.unit("S").Hex.String() != "0605" || h.unit("A").Hex.String() != "0503" || h.st.Pending != nil {
		t.Errorf("Stuart at %s, Able at %s, pending %+v", h.unit("S").Hex, h.unit("A").Hex, h.st.Pending)
	}

	// A standing order answers in advance: NEVER asks no one.
	h = retreatScn(t, "")
	h.do(CSA, "STANDING CAVALRY RETREAT ALL NEVER")
	dec = h.do(USA, "MARCH Able 0504 0503", "march MA A=2", "initiative USA=1", "initiative CSA=2")
	if f := fact(t, dec, "cavalry.stayed"); !strings.Contains(f.Str("reason"), "standing order NEVER") {
		t.Errorf("%s", f)
	}
	if h.st.Ask != nil || h.st.Pending != nil {
		t.Errorf("asked %+v, pending %+v", h.st.Ask, h.st.Pending)
	}
	// ASK takes the standing order back.
	h.do(CSA, "CAVALRY RETREAT ALL ASK")
	if len(h.st.Standing) != 0 {
		t.Errorf("standing orders left: %+v", h.st.Standing)
	}
	mustContain(t, "not asked", problemsText(h.reject(CSA, "CAVALRY RETREAT Stuart 0705")), "no Cavalry Retreat is asked of you now")
	mustContain(t, "infantry", problemsText(h.reject(CSA, "STANDING CAVALRY RETREAT Zulu ALWAYS")), "only cavalry makes a Cavalry Retreat")
}

const houseRetreat = "[house-rules]\ncavalry-retreat hexes=2 fatigue=1\n"

// R9 (house rule): with a cavalry-retreat house rule no referee is
// needed. The owner's path is checked against it (up to 2 hexes, each
// farther from the marching unit, not into enemy units or ZOC); with no
// path, or by a standing order, pbem picks the retreat that ends
// farthest away. The retreat costs the fatigue the rule says.
func TestR9_HouseRuleCavalryRetreat(t *testing.T) {
	h := retreatScn(t, houseRetreat)
	h.do(USA, "MARCH Able 0504 0503", "march MA A=2")
	ps := prompts(h.st)
	if len(ps) != 1 || ps[0].Examples[0] != "CAVALRY RETREAT Stuart 0606 0607" {
		t.Fatalf("prompt %+v, want the farthest retreat as the first example", ps)
	}
	for text, want := range map[string]string{
		"CAVALRY RETREAT Stuart 0604":           "not farther than 0605 from the marching unit in 0505",
		"CAVALRY RETREAT Stuart 0705 0805 0905": "at most 2 hexes",
		"CAVALRY RETREAT Stuart 0707":           "0707 is not next to 0605",
		"CAVALRY RETREAT Custer 0403":           "Custer (C) is a USA unit",
	} {
		mustContain(t, text, problemsText(h.reject(CSA, text)), want)
	}
	dec := h.do(CSA, "CAVALRY RETREAT Stuart 0706", "initiative USA=1", "initiative CSA=2")
	if f := fact(t, dec, "cavalry.retreated"); strings.Join(f.Strs("path"), " ") != "0605 0706" || !strings.Contains(f.Str("by"), "house rule") {
		t.Errorf("%s", f)
	}
	if s := h.unit("S"); s.Hex.String() != "0706" || s.Fatigue != 1 {
		t.Errorf("Stuart at %s, fatigue %d; want 0706, 1", s.Hex, s.Fatigue)
	}
	if h.unit("A").Hex.String() != "0503" || h.st.Pending != nil {
		t.Errorf("Able at %s, pending %+v", h.unit("A").Hex, h.st.Pending)
	}

	// Standing orders, by condition: Able (5) outnumbers Stuart (2).
	for _, tc := range []struct{ order, at string }{
		{"STANDING CAVALRY RETREAT Stuart ALWAYS", "0607"},
		{"STANDING CAVALRY RETREAT ALL IF OUTNUMBERED", "0607"},
		{"CAVALRY RETREAT Stuart IF ENEMY CAV", "0605"},
		{"STANDING CAVALRY RETREAT ALL NEVER", "0605"},
	} {
		h := retreatScn(t, houseRetreat)
		h.do(CSA, tc.order)
		h.do(USA, "MARCH Able 0504 0503", "march MA A=2", "initiative USA=1", "initiative CSA=2")
		if s := h.unit("S"); s.Hex.String() != tc.at || h.st.Ask != nil {
			t.Errorf("%s: Stuart at %s (asked %+v), want %s", tc.order, s.Hex, h.st.Ask, tc.at)
		}
	}
	// A standing order given in the answer settles the Cavalry Retreat.
	h = retreatScn(t, houseRetreat)
	h.do(USA, "MARCH Able 0504 0503", "march MA A=2")
	h.do(CSA, "STANDING CAVALRY RETREAT ALL ALWAYS", "initiative USA=1", "initiative CSA=2")
	if s := h.unit("S"); s.Hex.String() != "0607" {
		t.Errorf("Stuart at %s, want 0607", s.Hex)
	}
	d := h.do(CSA, "STANDING")
	mustContain(t, "STANDING", strings.Join(d.Echo, "\n"), "your standing orders: STANDING CAVALRY RETREAT ALL ALWAYS")
}
