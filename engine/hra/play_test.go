package hra

import "testing"

func TestPlayToEndWithPromptExamples(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "seed-1")
	n := h.playToEnd(400)
	if h.st.Phase != PhaseOver {
		t.Fatalf("not over after %d mails", n)
	}
	t.Logf("%d mails: %s", n, h.st.Result)
}
