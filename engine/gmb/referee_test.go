package gmb

import (
	"strings"
	"testing"

	"pbem/engine"
	"pbem/events"
)

// TestRefereeSetsEveryField: SET reaches every field of the state a
// referee may need to correct, and reads back what it set.
func TestRefereeSetsEveryField(t *testing.T) {
	g := setupTo(t, StepActivate)
	gen := g.st.Generals[1]
	var piece string
	for _, p := range g.st.Pieces {
		if p.Path == nil {
			piece = p.ID
			break
		}
	}
	for _, tc := range []struct{ obj, field, value, want string }{
		{"game", "STEP", "move", ""}, {"game", "TURN", "2", ""}, {"game", "INITIATIVE", "Confederate", ""},
		{"game", "TOACT", "Confederate", ""}, {"game", "PLAYERA", "Confederate", ""}, {"game", "BATTLEFIELD", "Defensive", ""},
		{"game", "LIST", "Union", ""}, {"game", "YEAR", "1864", ""}, {"game", "TABLE", "72x48", ""}, {"game", "PLACER", "Union", ""},
		{"game", "POOL", "3", ""}, {"game", "ACTIVE", "I Corps", ""}, {"game", "BRIDGESDUE", "2", ""},
		{"Union", "MORALE", "Wavering", ""}, {"Union", "HAND", "Rebel Yell", "Union has no card"}, {"Union", "HAND", "Signal Station, Balloon Corps", ""},
		{"Union", "DECK", "Telegraph Orders", ""}, {"Union", "TACTIC", "Cautious", ""}, {"Union", "CAVALRY", "Deep Raid", ""},
		{"Union", "DECLARED", "Neutral", ""}, {"Union", "FORCED", "on", ""}, {"Union", "REDRAWS", "2", ""}, {"Union", "FORTS", "1", ""},
		{"Union", "DONE", "on", ""}, {"Union", "KEPT", "off", ""},
		{"Iron Brigade", "POS", "10,20", ""}, {"Iron Brigade", "FACING", "90", ""}, {"Iron Brigade", "COHESION", "1", ""},
		{"Iron Brigade", "BONUS", "2", ""}, {"Iron Brigade", "PINNED", "on", ""}, {"Iron Brigade", "ENGAGED", "on", ""},
		{"Iron Brigade", "ATTACKED", "on", ""}, {"Iron Brigade", "SUPPORTED", "on", ""}, {"Iron Brigade", "RETREATED", "on", ""},
		{"Iron Brigade", "MOVED", "on", ""}, {"Iron Brigade", "PAID", "on", ""}, {"Iron Brigade", "PASSAGE", "on", ""},
		{"Iron Brigade", "PLACED", "on", ""}, {"Iron Brigade", "REMOVED", "on", ""}, {"Iron Brigade", "COHESION", "many", "not a whole number"},
		{gen.Name, "FORMATION", "none", ""},
		{piece, "POS", "20,20", ""},
	} {
		d, probs := g.decide(engine.RefereeSide, "SET "+tc.obj+" "+tc.field+" "+tc.value)
		if tc.want != "" {
			if len(probs) == 0 || !strings.Contains(probs[0].Msg, tc.want) {
				t.Errorf("SET %s %s %s: %v; want a refusal saying %q", tc.obj, tc.field, tc.value, probs, tc.want)
			}
			continue
		}
		if len(probs) > 0 {
			t.Errorf("SET %s %s %s refused: %v", tc.obj, tc.field, tc.value, probs)
			continue
		}
		got := g.st.getField(tc.obj, tc.field)
		if tc.value == "none" {
			got = "none"
		}
		if !strings.EqualFold(strings.ReplaceAll(got, " ", ""), strings.ReplaceAll(tc.value, " ", "")) && tc.field != "LIST" {
			t.Errorf("SET %s %s %s reads back %q", tc.obj, tc.field, tc.value, got)
		}
		// A side's hand, deck and tactic are its own.
		hidden := tc.obj == "Union" && (tc.field == "HAND" || tc.field == "DECK" || tc.field == "TACTIC")
		if vis := d.Facts[0].Vis; hidden != (vis == events.ToSide("Union")) {
			t.Errorf("SET %s %s is told to %v", tc.obj, tc.field, vis)
		}
	}
	g.send(engine.RefereeSide, "SET "+piece+" REMOVED on")
	if g.st.piece(piece) != nil {
		t.Errorf("%s was not removed", piece)
	}
}
