package gmb

import (
	"strings"
	"testing"
)

// A line indented further than the order's first continues it
// (docs/ORDERS.md); orders copied from a mail with its indent, every line
// alike, stay the orders they are.
func TestContinuedLines(t *testing.T) {
	g := newGame(t)
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"a deeper line continues", "RIVER 0,10 20,10\n    40,10 72,10", []string{"RIVER 0,10 20,10 40,10 72,10"}},
		{"alike lines are orders each", "    YEAR 1862\n    YEAR 1863", []string{"YEAR 1862", "YEAR 1863"}},
		{"copied with a wrapped one", "    RIVER 0,10 20,10\n        40,10 72,10\n    YEAR 1862", []string{"RIVER 0,10 20,10 40,10 72,10", "YEAR 1862"}},
		{"a tab is deeper than four spaces", "    RIVER 0,10 20,10\n\t40,10 72,10", []string{"RIVER 0,10 20,10 40,10 72,10"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			os, probs := parseOrders(g.st, "", tc.text)
			var got []string
			for _, o := range os {
				got = append(got, strings.TrimSpace(o.Text))
			}
			if len(probs) > 0 || len(got) != len(tc.want) {
				t.Fatalf("%q read as %q, problems %+v; want %q", tc.text, got, probs, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("order %d read as %q, want %q", i+1, got[i], tc.want[i])
				}
			}
		})
	}
}
