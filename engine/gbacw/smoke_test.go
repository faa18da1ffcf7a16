package gbacw

import (
	"testing"

	"pbem/engine"
)

func TestSmokePlayToEnd(t *testing.T) {
	h := newHarness(t, "smoke")
	n := h.playToEnd(400)
	t.Logf("%d orders; %s", n, h.st.Result)
	t.Logf("\n%s", render(h.st, engine.Viewer{Referee: true}).Window)
	if h.st.Phase != PhaseOver {
		t.Fatalf("not over after %d", n)
	}
}
