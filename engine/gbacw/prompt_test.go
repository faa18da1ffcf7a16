package gbacw

import (
	"bytes"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/events"
)

// A cavalry unit's example move along a long path keeps within the
// mail's 78 columns (the mail indents examples four spaces): it is
// wrapped as an indented continuation (docs/ORDERS.md), and copied from
// the mail as it shows it, the mail's indent and all, the example reads
// as the orders it shows, the long move one order.
func TestExampleMoveOfALongPathFitsTheMail(t *testing.T) {
	const long = "1st Maine Volunteer Cavalry Regiment"
	scn := bytes.ReplaceAll(fieldScn("", ""), []byte(`"UCa"`), []byte(`"`+long+`"`))
	h := newHarnessOf(t, "example", scn)
	h.facts0(
		events.NewFact("turn.begun", events.I("turn", 1)),
		events.NewFact("initiative.rolled", events.I("usa", 5), events.I("csa", 1), events.I("usa_drm", 0), events.I("csa_drm", 0), events.S("side", USA)),
		events.NewFact("phase.set", events.S("phase", PhaseActivation)),
	)
	h.activate(USA, "U Cav Div")
	var move string
	for _, p := range prompts(h.st) {
		for _, ex := range p.Examples {
			for _, l := range strings.Split(ex, "\n") {
				if n := len([]rune(l)); n > engine.ExampleWidth {
					t.Errorf("an example line of %d columns: %q", n, l)
				}
			}
			if strings.HasPrefix(ex, long+": MOVE") {
				move = ex
			}
		}
	}
	// The unit's own order: its first line and the indented ones under it.
	lines := strings.Split(move, "\n")
	first := lines[0]
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, "    ") {
			break
		}
		first += " " + strings.TrimSpace(l)
	}
	if move == "" || first == lines[0] {
		t.Fatalf("no wrapped example move of %s:\n%s", long, move)
	}
	from := h.u(long).Hex
	// Copied from the mail with its indent, every line four spaces in.
	h.must(USA, "    "+strings.ReplaceAll(move, "\n", "\n    "))
	if h.u(long).Hex == from {
		t.Errorf("the example %q did not move %s", move, long)
	}
	if echo := h.echo(); !strings.Contains(echo, first+"\n") {
		t.Errorf("pbem read the example as\n%s\nnot as the one move\n%s", echo, first)
	}
}
