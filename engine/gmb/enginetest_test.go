package gmb

import (
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/enginetest"
	"pbem/events"
	"pbem/mail/compose/composetest"
)

var testReferees = []events.Player{{ID: "ref", Name: "Ref", Addresses: []string{"ref@example.org"}}}

// setupOrders are a whole setup by mail, robust to the dice: whoever wins
// the battlefield roll, the referee makes Union Player A on an Offensive
// battlefield, so the terrain and markers below are the rules' whatever
// the roll. Indexes are used by the secrets.
var setupOrders = []string{
	"anna", "TABLE 48x48",
	"taro", "TABLE 48x48",
	"anna", "YEAR 1862",
	"taro", "YEAR 1863",
	"anna", "DEAL GENERALS",
	"taro", "DEAL GENERALS",
	"anna", "DONE",
	"taro", "DONE",
	"anna", "KEEP 1, 2, 3", // 8: the kept cards
	"taro", "KEEP 1, 2, 3",
	"anna", "BATTLEFIELD OFFENSIVE", // 10: the sealed declaration
	"taro", "BATTLEFIELD NEUTRAL",
	"ref", "SET game PLAYERA Union",
	"ref", "SET game BATTLEFIELD Offensive",
	"anna", "LIST TYPICAL",
	// 13.10h: linear terrain, Player B first.
	"taro", "ROAD BASE B, SP2, NORTH",
	"anna", "RIVER 0,30 48,30",
	"taro", "BRIDGE 14,30 36,30",
	"taro", "STREAM 0,18 48,18",
	"anna", "PASS",
	"taro", "PASS",
	// 13.10k: normal terrain, Player B first.
	"taro", "PLACE hill 4x3 AT 6,6",
	"anna", "PLACE hill 4x3 AT 6,42",
	"taro", "PLACE hill 4x3 AT 6,22",
	"anna", "PLACE hill 4x3 AT 6,34",
	"taro", "PLACE rough 4x3 AT 14,6",
	"anna", "PLACE rough 4x3 AT 14,42",
	"taro", "PLACE rough 4x3 AT 40,22",
	"anna", "PLACE rough 4x3 AT 40,34",
	"taro", "PLACE woods 4x3 AT 32,6",
	"anna", "PLACE woods 4x3 AT 32,42",
	"taro", "PLACE woods 4x3 AT 14,14",
	"anna", "PLACE woods 4x3 AT 14,26",
	"taro", "PLACE built-up 4x3 AT 40,6",
	"anna", "PLACE built-up 4x3 AT 40,42",
	"taro", "PLACE built-up 4x3 AT 32,14",
	// 13.10p, 13.10l, 13.7f, 13.10m.
	"taro", "FENCE ALONG road 1 FROM 0 TO 10",
	"anna", "WALL ALONG rough 2 EDGE 1",
	"taro", "PASS",
	"anna", "PASS",
	"anna", "MOVE hill 4 TO 6,36", // 13.10r: Player A's changes first
	"anna", "NO SWAP",
	"taro", "PLACE woods 4x3 AT 20,6",
	"taro", "FORTIFY 26,10 32,10",
	// 13.12-13.14.
	"anna", "TACTIC AGGRESSIVE", // 44: the army tactic
	"taro", "TACTIC NEUTRAL",
	"anna", "CAVALRY Screen", // 46: the sealed cavalry tactic
	"taro", "CAVALRY Flank March",
	"anna", "PATROL I Corps AT 8,45, II Corps AT 22,45, Cavalry Corps AT 34,45, Artillery Reserve AT 44,45",
	"taro", "PATROL First Corps AT 10,4, Second Corps AT 30,4, Cavalry Division AT 40,4",
}

// battleScenario is the sample with the setup cut short (the table and
// the year agreed beforehand, a two-piece terrain list, no cavalry
// tactics), for a script about the battle.
func battleScenario(t testing.TB) []byte {
	t.Helper()
	sc := strings.Replace(string(scenario(t, "table-size 48x48", "battle-year 1863", "option cavalry-tactics off")),
		"terrain-list Union | hill 3 | woods 4 | rough 3 | built-up 2", "terrain-list Union | hill 1 | woods 1", 1)
	return []byte(sc)
}

var battleSetup = []string{
	"anna", "DEAL GENERALS",
	"taro", "DEAL GENERALS",
	"anna", "DONE",
	"taro", "DONE",
	"anna", "KEEP 1, 2, 3",
	"taro", "KEEP 1, 2, 3",
	"anna", "BATTLEFIELD OFFENSIVE",
	"taro", "BATTLEFIELD NEUTRAL",
	"ref", "SET game PLAYERA Union",
	"ref", "SET game BATTLEFIELD Offensive",
	"anna", "LIST MINE",
	"taro", "PASS",
	"anna", "PASS",
	"taro", "PLACE hill 4x3 AT 6,6",
	"anna", "PLACE woods 4x3 AT 32,42",
	"anna", "DONE",
	"anna", "NO SWAP",
	"taro", "DONE",
	"taro", "DONE",
	"anna", "TACTIC AGGRESSIVE", // the army tactic, secret to the end
	"taro", "TACTIC NEUTRAL",
	"anna", "PATROL I Corps AT 8,45, II Corps AT 22,45, Cavalry Corps AT 34,45, Artillery Reserve AT 44,45",
	"taro", "PATROL First Corps AT 10,4, Second Corps AT 30,4, Cavalry Division AT 40,10",
}

// turnOrders are one turn with Union first (the referee says who has the
// initiative: the roll is the dice'): a corps each, combat ruled by the
// referee, moves, passes, and the passages of lines.
func turnOrders(turn int) []string {
	var os []string
	if turn > 1 {
		os = append(os, "ref", "SET game TOACT Union", "ref", "SET game INITIATIVE Union")
	}
	return append(os,
		"anna", "ACTIVATE I Corps",
		"ref", "COMBAT DONE",
		"anna", "Iron Brigade: MARCH FORWARD 2; Irish Brigade: FORWARD 2",
		"taro", "ACTIVATE First Corps",
		"ref", "SET Texas Brigade ENGAGED on\nFORCE Washington Artillery FORWARD PURSUIT\nCOMBAT DONE",
		"taro", "Texas Brigade: FORWARD 2", // refused: engaged (7.1c)
		"taro", "Alabama Brigade: FORWARD 2",
		"anna", "PASS",
		"taro", "PASS",
		"taro", "NONE", // 7.6i: the opponent declares, the initiative orders
		"anna", "PASSAGE Iron Brigade AND Irish Brigade",
	)
}

// battleOrders are the short setup, three turns and the referee's end.
func battleOrders() []string {
	os := append([]string(nil), battleSetup...)
	for t := 1; t <= 3; t++ {
		os = append(os, turnOrders(t)...)
	}
	return append(os,
		"ref", "SET Union TACTIC Aggressive", // a secret the referee sets: Union's alone until the end
		"ref", "OBJECTIVES Union 3 4 5\nOBJECTIVES Confederate 1 2",
		"ref", "SCORE")
}

func indexOf(t *testing.T, orders []string, text string) int {
	t.Helper()
	for i := 1; i < len(orders); i += 2 {
		if orders[i] == text {
			return i / 2
		}
	}
	t.Fatalf("no order %q", text)
	return 0
}

// The acceptance suite, on two scripts run side by side (each plays its
// script many times: with other secrets, with other hidden dice).
func TestEngineAcceptanceSetup(t *testing.T) {
	t.Parallel()
	scn, err := Scenario("hazel-run")
	if err != nil {
		t.Fatal(err)
	}
	setup := enginetest.Script{
		Name: "setup", Ruleset: "gmb", ScenarioName: "hazel-run", Scenario: scn,
		Players: testPlayers, Referees: testReferees, Orders: enginetest.Orders(setupOrders...),
		Secrets: []enginetest.Secret{
			{Name: "other cards kept", Side: "Union", Orders: map[int]string{indexOf(t, setupOrders, "KEEP 1, 2, 3"): "KEEP 3, 4, 5"}},
			{Name: "another sealed declaration", Side: "Union", Orders: map[int]string{indexOf(t, setupOrders, "BATTLEFIELD OFFENSIVE"): "BATTLEFIELD DEFENSIVE FORCED MARCH"}},
			{Name: "another army tactic", Side: "Union", Orders: map[int]string{indexOf(t, setupOrders, "TACTIC AGGRESSIVE"): "TACTIC CAUTIOUS"}},
			{Name: "another sealed cavalry tactic", Side: "Union", Orders: map[int]string{indexOf(t, setupOrders, "CAVALRY Screen"): "CAVALRY Deep Raid"}},
		},
	}
	p := enginetest.Run(t, engine.NewRegistry(New), composetest.New(t), setup)[0]
	if p == nil {
		return // a -run filter left it out
	}
	if st := p.Game.State.(*State); st.Step != StepActivate || st.Turn != 1 {
		t.Errorf("the setup script ended at step %s, turn %d; want turn 1 begun", st.Step, st.Turn)
	}
	if n := refusals(p); len(n) != 0 {
		t.Errorf("the setup refused: %v", n)
	}
}

func TestEngineAcceptanceBattle(t *testing.T) {
	t.Parallel()
	orders := battleOrders()
	battle := enginetest.Script{
		Name: "battle", Ruleset: "gmb", ScenarioName: "hazel-run short", Scenario: battleScenario(t),
		Players: testPlayers, Referees: testReferees, Orders: enginetest.Orders(orders...),
		Secrets: []enginetest.Secret{
			{Name: "another army tactic", Side: "Union", Orders: map[int]string{indexOf(t, orders, "TACTIC AGGRESSIVE"): "TACTIC CAUTIOUS"}},
			{Name: "another tactic set by the referee", Side: "Union", Orders: map[int]string{indexOf(t, orders, "SET Union TACTIC Aggressive"): "SET Union TACTIC Cautious"}},
		},
	}
	p := enginetest.Run(t, engine.NewRegistry(New), composetest.New(t), battle)[0]
	if p == nil {
		return
	}
	st := p.Game.State.(*State)
	if st.Step != StepOver || st.Turn != 3 {
		t.Fatalf("the battle ended at step %s, turn %d", st.Step, st.Turn)
	}
	refused := refusals(p)
	for _, r := range refused {
		if !strings.Contains(r, "engaged in combat (7.1c)") {
			t.Errorf("refused: %s", r)
		}
	}
	if len(refused) != 3 {
		t.Errorf("%d orders refused; want the engaged Texas Brigade's three moves", len(refused))
	}
}

func refusals(p *enginetest.Played) []string {
	var out []string
	for _, d := range p.Decisions() {
		if r, ok := d.(*events.OrderRejected); ok {
			out = append(out, r.Problems[0].Msg)
		}
	}
	return out
}

// TestScriptIsRobustToTheDice plays the acceptance script without the
// runtime under many dice, so a failure of the suite is the runtime's or
// the leak's, not the script's.
func TestScriptIsRobustToTheDice(t *testing.T) {
	robust(t, scenario(t), setupOrders, StepActivate)
	robust(t, battleScenario(t), battleOrders(), StepOver)
}

func robust(t *testing.T, scn []byte, orders []string, end string) {
	for seed := uint64(1); seed <= 8; seed++ {
		st, err := rules{}.Setup(scn, testPlayers)
		if err != nil {
			t.Fatal(err)
		}
		g := &game{t: t, st: st, dice: lcg(seed)}
		for i := 0; i < len(orders); i += 2 {
			who, text := orders[i], orders[i+1]
			side := map[string]string{"anna": "Union", "taro": "Confederate", "ref": engine.RefereeSide}[who]
			if _, probs := g.decide(side, text); len(probs) > 0 && !strings.Contains(probs[0].Msg, "engaged in combat") {
				t.Fatalf("seed %d, order %d (%s %q) at step %s: %v", seed, i/2, who, text, g.st.Step, probs)
			}
		}
		if g.st.Step != end {
			t.Fatalf("seed %d: ended at step %s", seed, g.st.Step)
		}
	}
}
