package gcacw

import (
	"slices"
	"strings"
	"testing"

	"pbem/engine/hex"
)

// GCACW 5.1.5: the march ends when its MP are spent or when the player
// stops it, so it may end before any MP is spent: MARCH <unit> END (or
// MARCH <unit> alone) is a march in place. Steps 1 and 2 still happen:
// the MA is rolled and fatigue rises (GCACW 5.1.2). A player who took the
// initiative can always finish the action this way, even boxed in.
func TestGCACW_5_1_5_MarchInPlace(t *testing.T) {
	boxed := "0504 water\n0506 water\n0404 water\n0405 water\n0604 water\n0605 water"
	h := newHarness(t, marchScn(ableA, boxed, "", "").bytes())
	h.start(5, 2)
	h.do(USA, "TAKE")
	p := problemsText(h.reject(USA, "PASS"))
	mustContain(t, "PASS after TAKE", p, "you took the initiative, so you must act (GCACW 4.2f)")
	mustContain(t, "PASS after TAKE", p, "MARCH Able END")
	mustContain(t, "boxed in", problemsText(h.reject(USA, "MARCH Able 0504")), "try: MARCH Able END (a march in place")
	dec := h.do(USA, "MARCH Able END", "march MA A=3", "initiative USA=5", "initiative CSA=2")
	if f := fact(t, dec, "unit.marched"); strings.Join(f.Strs("path"), " ") != "0505" || f.Int("mp") != 0 {
		t.Errorf("%s, want a march in place", f)
	}
	if u := h.unit("A"); u.Fatigue != 1 || u.Hex.String() != "0505" {
		t.Errorf("Able: fatigue %d at %s, want 1 at 0505", u.Fatigue, u.Hex)
	}
	mustContain(t, "echo", strings.Join(dec.Echo, "\n"), "read: MARCH Able (A) END (in place)")
	// MARCH <unit> alone is the same.
	h.do(USA, "MARCH Knox", "march MA K=2", "initiative USA=5", "initiative CSA=2")
	if u := h.unit("K"); u.Fatigue != 1 {
		t.Errorf("Knox fatigue %d after a march in place", u.Fatigue)
	}
}

// MARCH <unit> TO <hex> marches the cheapest legal route there (by the
// chart's costs, around enemy units, water and hexsides it may not
// cross); the echo shows the route.
func TestMarchToTakesTheCheapestLegalRoute(t *testing.T) {
	mapL := "0504/0505 river-minor\n0503 woods"
	s := marchScn(ableA, mapL, "", "")
	s.units += "\nCSA Y \"Yoke\" inf X str=2 at=0604 in=Z"
	h := newHarness(t, s.bytes())
	h.start(5, 2)
	dec := h.do(USA, "MARCH Able to 0502", "march MA A=6", "initiative USA=5", "initiative CSA=2")
	read := strings.Join(dec.Echo, "\n")
	// Not across the river (0505/0504), not through Yoke (0604), and round
	// the woods of 0503 (2 MP): west and north, 4 MP.
	mustContain(t, "echo", read, "read: MARCH Able (A) 0404 0403 0402 0502")
	mustContain(t, "echo", read, "(4 of 6 MP; end of path)")
	if u := h.unit("A"); u.Hex.String() != "0502" {
		t.Errorf("Able at %s, want 0502", u.Hex)
	}
	mustContain(t, "no route", problemsText(h.reject(USA, "MARCH Knox TO 0604")), "Knox has no legal route from 0305 to 0604")
}

// A refused path gets a legal route as its hint: the cheapest route to
// where the path was going, within the most the unit can roll (GCACW
// 5.1.1), around enemy units and hexsides it may not cross; the hint is
// an order that would be accepted.
func TestRefusedPathHintsALegalRoute(t *testing.T) {
	for _, tc := range []struct {
		name, mapL, enemy, order, why string
	}{
		{"through an enemy", "", "0504", "MARCH Able 0504 0503", "0504 holds an enemy unit"},
		{"across a river", "0504/0505 river-minor\n0404/0504 river-minor\n0504/0604 river-minor", "", "MARCH Able 0504", "cannot be crossed here"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := marchScn(ableA, tc.mapL, "", "")
			if tc.enemy != "" {
				s.units += "\nCSA Y \"Yoke\" inf X str=2 at=" + tc.enemy + " in=Z"
			}
			h := newHarness(t, s.bytes())
			h.start(5, 2)
			ps := h.reject(USA, tc.order)
			mustContain(t, tc.order, problemsText(ps), tc.why)
			hint := ps[0].Hint
			want := tc.order[strings.LastIndex(tc.order, " ")+1:]
			if !strings.HasPrefix(hint, "MARCH Able ") || !strings.HasSuffix(hint, want) {
				t.Fatalf("hint %q, want a MARCH of Able ending in %s", hint, want)
			}
			os, probs := parseOrders(h.st, USA, hint)
			if len(probs) > 0 {
				t.Fatalf("hint %q: %v", hint, probs)
			}
			if ps := trial(h.st).validateAction(USA, os[0]); len(ps) > 0 {
				t.Fatalf("hint %q refused: %v", hint, ps)
			}
			if c, ok := h.st.pathCost(h.unit("A"), os[0].Plan); !ok || c > h.st.maxMA(h.unit("A")) {
				t.Errorf("hint %q costs %d, more than Able can roll (%d)", hint, c, h.st.maxMA(h.unit("A")))
			}
			if tc.enemy != "" && slices.Contains(os[0].Plan.Path, hex.MustParse(tc.enemy)) {
				t.Errorf("hint %q goes through the enemy", hint)
			}
		})
	}
}
