package gmb

import (
	"strings"
	"testing"

	"pbem/engine"
)

// layoutLines are a small layout on the 48" table: a river with its
// bridge, a road across it (a second bridge), a fence along the road and
// two woods.
var layoutLines = []string{
	"piece RIVER 0,30 48,30",
	"piece BRIDGE 14,30",
	"piece ROAD BASE B, SP2, NORTH",
	"piece FENCE ALONG road 1 FROM 0 TO 10",
	"piece PLACE woods 6x4 AT 10,8",
	"piece PLACE woods 6x4 AT 38,40",
}

// TestGMB_13_10a_AScenariosLayoutIsLaidAfterTheBattlefieldRoll: a
// scenario's terrain layout (its piece lines) replaces 13.10's method;
// the setup goes on with the special terrain and the rest.
func TestGMB_13_10a_AScenariosLayoutIsLaidAfterTheBattlefieldRoll(t *testing.T) {
	g := newGame(t, append([]string{"table-size 48x48"}, layoutLines...)...)
	g.auto(300, func(s *State) bool { return s.PlayerA != "" && s.Step != StepList && s.Step != StepCards })
	if len(g.st.Pieces) != 5 || len(g.st.Bridges) != 2 || len(g.st.Points) != 3 {
		t.Fatalf("after the battlefield roll: %d pieces, %d bridges, %d points; want the layout's 5, 2 and 3", len(g.st.Pieces), len(g.st.Bridges), len(g.st.Points))
	}
	if g.st.Step == StepLinear || g.st.Step == StepNormal || g.st.Step == StepList {
		t.Errorf("step %s: the layout replaces 13.10's method", g.st.Step)
	}
	if p := g.st.piece("woods 1"); p.By != LayoutBy {
		t.Errorf("woods 1 placed by %q", p.By)
	}
	// The boards show the layout's pieces as its own.
	if b := render(g.st, engine.Viewer{Side: "Union"}); !strings.Contains(b.Full, "woods 1: ") || !strings.Contains(b.Full, "[The layout]") {
		t.Errorf("the board's terrain list does not show the layout:\n%s", b.Full)
	}
	if svg := drawn(t, g.st, engine.Viewer{Side: "Confederate"}); !strings.Contains(string(svg), "woods") {
		t.Error("the drawn board shows no woods")
	}
	g.auto(300, atStep(StepActivate))
}

// TestGMB_13_10a_13_2a_13_10o_13_10q_ALayoutIsCheckedByTheRules: a
// scenario's piece that breaks a rule is a scenario error with its line
// and the rule; a historical scenario lifts the 12" x 6" limit and the
// ban on terrain on terrain.
func TestGMB_13_10a_13_2a_13_10o_13_10q_ALayoutIsCheckedByTheRules(t *testing.T) {
	for _, tc := range []struct {
		lines []string
		want  string
	}{
		{[]string{"piece PLACE woods 14x6 AT 10,8"}, "a piece is at most 12\" x 6\""},
		{[]string{"piece PLACE woods 6x4 AT 10,8", "piece PLACE hill 6x4 AT 12,8"}, "a normal piece is not placed on another (13.10o)"},
		{[]string{"piece RIVER 0,30 48,30", "piece BRIDGE 14,30 16,30"}, "at least 3\" apart (13.10q)"},
		{[]string{"piece RIVER 0,30 48,30"}, "needs 2 bridges"},
		{[]string{"piece RIVER 0,30 48,30", "piece BRIDGE 14,30 36,30", "piece PLACE hill 6x4 AT 30,30"}, "may not be placed on a river (13.10o)"},
		{[]string{"piece ROAD WEST, SP1, EAST"}, "a road must (1)"},
		{[]string{"piece PASS"}, "a terrain layout holds RIVER"},
	} {
		_, err := rules{}.Setup(scenario(t, append([]string{"table-size 48x48"}, tc.lines...)...), testPlayers)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "line ") {
			t.Errorf("layout %q: %v; want a scenario error with its line saying %q", tc.lines, err, tc.want)
		}
	}
	if _, err := (rules{}).Setup(scenario(t, "piece PLACE woods 6x4 AT 10,8"), testPlayers); err == nil || !strings.Contains(err.Error(), "table-size") {
		t.Errorf("a layout on no fixed table: %v", err)
	}
	// 13.2a, 13.10o: a special or historical scenario.
	if _, err := (rules{}).Setup(scenario(t, "table-size 48x48", "historical", "piece PLACE woods 14x6 AT 10,8", "piece PLACE hill 6x4 AT 12,8"), testPlayers); err != nil {
		t.Errorf("a historical scenario's large and overlapping pieces: %v", err)
	}
}

// TestGMB_13_2a_13_10o_AHistoricalScenarioLiftsTheLimits: by mail too,
// a historical scenario takes a piece larger than 12" x 6" and a piece
// on another.
func TestGMB_13_2a_13_10o_AHistoricalScenarioLiftsTheLimits(t *testing.T) {
	g := atNormal(t)
	g.refuse("Confederate", "PLACE woods 14x6 AT 10,8", "a piece is at most 12\" x 6\"")
	g = atNormal(t, "historical")
	g.send("Confederate", "PLACE woods 14x6 AT 10,8")
	g.send("Union", "PLACE woods 6x4 AT 24,30")
	g.send("Confederate", "PLACE hill 6x4 AT 12,8")
}

// TestGMB_13_10a_TheRefereesLayout: a referee's LAYOUT mail lays the
// terrain once the battlefield roll is won, checked by the same rules,
// and refused with the rule where a piece breaks one.
func TestGMB_13_10a_TheRefereesLayout(t *testing.T) {
	g := setupTo(t, StepList)
	var lines []string
	for _, l := range layoutLines {
		lines = append(lines, strings.TrimPrefix(l, "piece "))
	}
	g.refuse(engine.RefereeSide, "LAYOUT\nRIVER 0,30 48,30\nBRIDGE 14,30 16,30", "any two bridges must be at least 3\" apart (13.10q)")
	g.refuse(engine.RefereeSide, "LAYOUT\nPLACE swamp 4x4 AT 24,24", "no impassable terrain under a strategic point (13.7e)")
	if len(g.st.Pieces) != 0 {
		t.Fatalf("a refused layout left %d pieces", len(g.st.Pieces))
	}
	g.send(engine.RefereeSide, "LAYOUT\n"+strings.Join(lines, "\n"))
	if len(g.st.Pieces) != 5 || len(g.st.Bridges) != 2 {
		t.Fatalf("after the referee's layout: %d pieces, %d bridges", len(g.st.Pieces), len(g.st.Bridges))
	}
	if g.st.Step == StepList || g.st.Step == StepLinear {
		t.Errorf("step %s after the layout", g.st.Step)
	}
	g.refuse(engine.RefereeSide, "LAYOUT\nPLACE woods 6x4 AT 10,20", "before any terrain is placed (13.10a)")
}

// TestGMB_13_10a_ScenariosSayTheirLayout: pbem scenarios tells a
// historical scenario and its layout.
func TestGMB_13_10a_ScenariosSayTheirLayout(t *testing.T) {
	st, err := rules{}.Setup(scenario(t, append([]string{"table-size 48x48", "historical"}, layoutLines...)...), testPlayers)
	if err != nil {
		t.Fatal(err)
	}
	rs := strings.Join(summarize(st).Rules, "\n")
	for _, want := range []string{"historical: no 12\" x 6\" limit", "terrain layout of 6 pieces"} {
		if !strings.Contains(rs, want) {
			t.Errorf("the summary lacks %q:\n%s", want, rs)
		}
	}
}
