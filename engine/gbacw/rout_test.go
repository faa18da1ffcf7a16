package gbacw

import (
	"strings"
	"testing"

	"pbem/engine"
)

// routScene: U1a (Attack) shocks C1a, disordered at 0705 facing W, and
// the defender's UDD (14.3d) fails: a second disorder, a rout (R11).
// CSA's standing order for C1a's rout is rule, or none (ASK).
func routScene(t *testing.T, rule string) *harness {
	h := shockField(t)
	h.put("U1a", "0605", "E")
	h.put("C1a", "0705", "W")
	h.set("C1a DISORDERED on")
	if rule != "" {
		h.standing(CSA, "ROUT C1a "+rule)
	}
	h.activate(USA, "U Div")
	h.rolls = []int{9, 9, 9, 9, 9, 9, 9, 9}
	h.must(USA, "U1a: SHOCK 0705")
	return h
}

// TestGBACW_R11_TheRoutHexIsThePlayers: where a rout (R11: two hexes
// back keeping the facing, into hexes a retreat may enter, 14.3b) may
// end in two hexes or more, its owner chooses by mail: the question
// names the hexes, ROUT <unit> <hex> chooses, PASS (what the deadline
// sends) takes the first, the hex pbem took before; the other side reads
// only that the game waits. A standing order answers it unasked.
func TestGBACW_R11_TheRoutHexIsThePlayers(t *testing.T) {
	h := routScene(t, "ASK")
	a := h.st.asked()
	if a == nil || a.Side != CSA {
		t.Fatalf("no question of CSA for C1a's rout:\n%s", h.echo())
	}
	// C1a faces W: its rear hexes are 0804 and 0805, and theirs 0904,
	// 0905 and 0906; the first found (by 0804) is the one pbem took.
	ends := []string{"0904", "0905", "0906"}
	usa, csa := h.seenBy(USA), h.seenBy(CSA)
	if !strings.Contains(csa, "Rout: your C1a") || !strings.Contains(csa, joinOr(ends)) {
		t.Errorf("CSA's question does not name C1a and the hexes %v:\n%s", ends, csa)
	}
	if strings.Contains(usa, "C1a") || strings.Contains(strings.ToLower(usa), "rout") || !strings.Contains(usa, "The game waits for CSA to answer.") {
		t.Errorf("USA reads more than that the game waits:\n%s", usa)
	}
	for _, p := range prompts(h.st) {
		if strings.Contains(p.What, "C1a") || strings.Contains(strings.ToLower(p.What), "rout") {
			t.Errorf("the prompt every reader sees: %q", p.What)
		}
	}
	if w := render(h.st, engine.Viewer{Side: USA}).Window; strings.Contains(w, "C1a routs") || strings.Contains(w, "Rout: ") {
		t.Errorf("USA's board tells the rout asked:\n%s", w)
	}
	h.refused(CSA, "ROUT C1a 0101", "not a hex C1a may rout to")
	h.refused(USA, "PASS", "the game waits for CSA")
	if p := h.send(USA, "PASS"); len(p) != 1 || strings.Contains(p[0].Msg, "C1a") || strings.Contains(strings.ToLower(p[0].Msg), "rout") {
		t.Errorf("USA's refusal while CSA is asked tells the question: %+v", p)
	}
	h.must(CSA, "ROUT C1a "+ends[1])
	if u := h.u("C1a"); u.Hex.String() != ends[1] || !u.Routed {
		t.Errorf("C1a at %s routed %v; its player chose %s", u.Hex, u.Routed, ends[1])
	}
	if !h.told("answers: C1a routs to " + ends[1]) {
		t.Errorf("the answer is not told:\n%s", h.echo())
	}

	// PASS, the deadline's order, takes the first hex.
	h = routScene(t, "ASK")
	h.must(CSA, "PASS")
	if got := h.u("C1a").Hex.String(); got != ends[0] {
		t.Errorf("C1a routed to %s on PASS; want the first hex %s", got, ends[0])
	}
	// And the referee's ANSWER PASS (a deadline whose policy is the
	// referee's).
	h = routScene(t, "ASK")
	h.must(engine.RefereeSide, "ANSWER PASS")
	if got := h.u("C1a").Hex.String(); got != ends[0] {
		t.Errorf("C1a routed to %s on the referee's PASS; want %s", got, ends[0])
	}
	// So does a standing order, with no question.
	h = routScene(t, "ALWAYS")
	if h.st.asked() != nil {
		t.Fatalf("a standing order did not answer: %s", h.st.asked().What)
	}
	if got := h.u("C1a").Hex.String(); got != ends[0] {
		t.Errorf("C1a routed to %s under its standing order; want %s", got, ends[0])
	}
}

// TestGBACW_R11_ARoutWithOneHexIsNotAsked: a March column (a hexside
// facing: one rear hex) that routs has one hex to go to: no question
// (R11, 10.8).
func TestGBACW_R11_ARoutWithOneHexIsNotAsked(t *testing.T) {
	h := newField(t, "", "")
	for _, u := range h.st.Units {
		if u.Name != "U2b" && u.Name != "C1a" {
			h.set(u.Name + " REMOVED on")
		}
	}
	h.noReactions(USA)
	h.noReactions(CSA)
	h.standing(USA, "ROUT ALL ASK")
	h.set("U2 ORDER march", "U2a ORDER march", "U2b ORDER march")
	h.set("C1 ORDER attack", "C1a ORDER attack")
	h.put("U2b", "0505", "NE")
	h.put("C1a", nb("0505", 1), "SSW")
	h.activate(CSA, "C Div")
	h.rolls = []int{9, 5, 5, 5, 5, 5, 5}
	h.must(CSA, "C1a: SHOCK 0505")
	if !strings.Contains(h.facts(), "unit.routed unit=U2b") {
		t.Fatalf("U2b did not rout:\n%s", h.facts())
	}
	if a := h.st.asked(); a != nil {
		t.Errorf("a rout with one hex open was asked: %s", a.What)
	}
}

// TestGBACW_R11_TheRoutsOfOneEventAreAskedOnce: a shock that routs two
// units of a stack (R11: each disordered again, 14.3g) asks their player
// once, naming both; the answer gives each its hex, and nothing is asked
// again when the first unit's rout changes what the second may enter.
func TestGBACW_R11_TheRoutsOfOneEventAreAskedOnce(t *testing.T) {
	h := shockField(t)
	h.put("U1a", "0605", "E")
	h.put("U1b", "0605", "E")
	h.put("C1a", "0705", "W")
	h.put("C1b", "0705", "W")
	h.set("C1a DISORDERED on", "C1b DISORDERED on")
	h.standing(CSA, "ROUT ALL ASK")
	h.activate(USA, "U Div")
	h.rolls = []int{0, 9, 9, 9, 9, 9, 9, 9, 9}
	h.must(USA, "U1a, U1b: SHOCK 0705")
	var asks []string
	for _, f := range h.last.Facts {
		if f.Kind == "prog.asked" {
			asks = append(asks, f.Str("what"))
		}
	}
	if len(asks) != 1 || !strings.Contains(asks[0], "your C1a") || !strings.Contains(asks[0], "your C1b") || !strings.Contains(asks[0], "1003, 1004 or 1005") {
		t.Fatalf("want one question naming C1a, C1b and their hexes, got %q", asks)
	}
	h.must(CSA, "ROUT C1a 1005\nROUT C1b 1004")
	if a := h.st.asked(); a != nil {
		t.Errorf("asked again after the answer: %s", a.What)
	}
	if a, b := h.u("C1a").Hex.String(), h.u("C1b").Hex.String(); a != "1005" || b != "1004" {
		t.Errorf("C1a routed to %s, C1b to %s; their player chose 1005 and 1004", a, b)
	}
}
