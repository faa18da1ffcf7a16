package gcacw

import (
	"strings"
	"testing"
)

// UNDO (docs/ORDERS.md) takes back the side's last order while no die has
// been rolled for it and no one has acted since: the game is exactly as
// it was before the order. An order that rolled a die, an order someone
// has answered, another side's order, or an order already taken back
// cannot be.
func TestUndoTakesBackTheLastOrder(t *testing.T) {
	b, _ := Scenario("harrow-creek")
	h := newHarness(t, b)
	start := mustEncode(t, h.st)
	h.do(USA, "TRANSFER Brand TO Pask")
	mustContain(t, "another side's order", problemsText(h.reject(CSA, "UNDO")), "nothing of yours to take back")
	dec := h.do(USA, "UNDO")
	mustContain(t, "echo", strings.Join(dec.Echo, "\n"), "USA takes back its last order (UNDO)")
	if got := mustEncode(t, h.st); string(got) != string(start) {
		t.Fatalf("after UNDO the state is not as before:\n%s\nwant\n%s", got, start)
	}
	mustContain(t, "twice", problemsText(h.reject(USA, "UNDO")), "nothing of yours to take back")
	mustContain(t, "with other orders", problemsText(h.reject(USA, "PASS\nUNDO")), "send other orders in the next mail")

	// Someone acted since: the order stands.
	h.do(USA, "QUEUE PASS")
	h.do(CSA, "QUEUE PASS")
	mustContain(t, "answered", problemsText(h.reject(USA, "UNDO")), "no one has acted since")
	h.do(CSA, "UNDO")
	if len(h.st.Queue) != 1 || h.st.Queue[0].Side != USA {
		t.Errorf("queue %+v, want only USA's", h.st.Queue)
	}

	// A die was rolled: the order stands.
	h.do(USA, "PASS")
	h.do(CSA, "PASS", "initiative USA=5", "initiative CSA=2")
	mustContain(t, "dice", problemsText(h.reject(CSA, "UNDO")), "no die has been rolled for it")
	// USA's queued PASS was used when the cycle began; TAKE then is an
	// order of its own that may be taken back.
	if h.st.Cycle.Holder != CSA || h.st.Cycle.Stage != StageLoser {
		t.Fatalf("cycle %+v, want CSA to choose after USA's queued pass", h.st.Cycle)
	}
	before := mustEncode(t, h.st)
	h.do(CSA, "TAKE")
	h.do(CSA, "UNDO")
	if got := mustEncode(t, h.st); string(got) != string(before) {
		t.Errorf("TAKE then UNDO: the state is not as before")
	}
	h.do(CSA, "MARCH Rusk 0506", "march MA RUSK=3", "initiative USA=5", "initiative CSA=2")
	mustContain(t, "a march", problemsText(h.reject(CSA, "UNDO")), "nothing of yours to take back")
}
