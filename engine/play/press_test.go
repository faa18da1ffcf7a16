package play_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/enginetest"
	"pbem/engine/play"
	"pbem/events"
	"pbem/mail/compose/composetest"
)

// pressPlayers are two allies against one: north writes to south, and
// his own ally west must not read it.
var pressPlayers = []events.Player{
	{ID: "north", Name: "Anna", Side: "USA", Addresses: []string{"anna@example.org"}},
	{ID: "west", Name: "Wim", Side: "USA", Addresses: []string{"wim@example.org"}},
	{ID: "south", Name: "Taro", Side: "CSA", Addresses: []string{"taro@example.jp"}},
}

// logAs is the whole log as 'pbem log --as' shows it to v (replay and
// export --as and the campaign report are cut by the same CutLog).
func (tb *table) logAs(v engine.Viewer) string {
	tb.t.Helper()
	var b strings.Builder
	err := play.CutLog(tb.st, tb.reg, "g1", v, func(_ *play.Game, e *events.Envelope, p events.Payload) error {
		if p != nil {
			b.WriteString(play.LogEntry(e, p) + "\n")
		}
		return nil
	})
	if err != nil {
		tb.t.Fatal(err)
	}
	return b.String()
}

// A player's press reaches the players it names and no one else — not
// the writer's ally, not an observer, not the referee unless the game
// says so, not even once the game is over — and changes neither the
// state nor whose move it is.
func TestPressIsReadByItsRecipientsAlone(t *testing.T) {
	for _, tc := range []struct {
		name       string
		settings   []events.Setting
		refereeSee bool
	}{
		{"by default the referee reads none", nil, false},
		{"press-referee all", []events.Setting{{Key: play.SettingPressReferee, Value: "all"}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := newTableFor(t, "target 40", pressPlayers, tc.settings...)
			before := tb.game()
			d := accepted(t, tb.send("north", "PRESS TO south: Meet me at the mill?\n\nBring cider."))
			if len(d.Facts) != 1 || d.Facts[0].Kind != play.FactPress || d.Facts[0].Str("to") != "south" ||
				d.Facts[0].Str("text") != "Meet me at the mill?\n\nBring cider." {
				t.Fatalf("press decision: %+v", d)
			}
			after := tb.game()
			if !reflect.DeepEqual(after.State, before.State) || !reflect.DeepEqual(after.Prompts(after.State, nil), before.Prompts(before.State, nil)) {
				t.Fatalf("press changed the game: %+v -> %+v", before.State, after.State)
			}
			// The game goes on, and ends; the press stays where it was.
			accepted(t, tb.send("north", "ADD 1"))
			accepted(t, tb.send("ref", "END WINNER USA the test is over"))
			for _, v := range []struct {
				who  string
				view engine.Viewer
				sees bool
			}{
				{"the writer", engine.Viewer{Player: "north", Side: "USA"}, true},
				{"the recipient", engine.Viewer{Player: "south", Side: "CSA"}, true},
				{"the writer's ally", engine.Viewer{Player: "west", Side: "USA"}, false},
				{"an observer", engine.Viewer{}, false},
				{"the referee", engine.Viewer{Player: "ref", Referee: true}, tc.refereeSee},
			} {
				log := tb.logAs(v.view)
				if got := strings.Contains(log, "mill"); got != v.sees {
					t.Errorf("%s reads the press: %v, want %v; log:\n%s", v.who, got, v.sees, log)
				}
				// One outside it does not learn that it was written.
				if got := strings.Contains("\n"+log, fmt.Sprintf("\n%5d  ", d.Input)); got != v.sees {
					t.Errorf("%s sees the press mail come: %v, want %v; log:\n%s", v.who, got, v.sees, log)
				}
				if !strings.Contains(log, "ADD 1") && !strings.Contains(log, "order.accepted") {
					t.Errorf("%s's log lost the game:\n%s", v.who, log)
				}
			}
		})
	}
}

// PRESS TO a side reaches its players, ALL every player but the writer;
// bad addresses are answered with what would do.
func TestPressAddressesAndMistakes(t *testing.T) {
	tb := newTableFor(t, "target 40", pressPlayers)
	tos := func(d *events.OrderAccepted) []string {
		var out []string
		for _, f := range d.Facts {
			out = append(out, f.Str("to")+"/"+f.Vis.To)
		}
		return out
	}
	if got := tos(accepted(t, tb.send("north", "PRESS ALL: hello all"))); !reflect.DeepEqual(got, []string{"west/alone:west", "south/alone:south"}) {
		t.Errorf("PRESS ALL went to %v", got)
	}
	if got := tos(accepted(t, tb.send("south", "press to usa\nWe will not yield."))); !reflect.DeepEqual(got, []string{"north/alone:north", "west/alone:west"}) {
		t.Errorf("PRESS TO usa went to %v", got)
	}
	rejected(t, tb.send("north", "PRESS TO sotuh: hi"), `"sotuh" is no player, side or ALL (did you mean south?`)
	rejected(t, tb.send("north", "PRESS TO ref: hi"), "start the mail with REFEREE")
	rejected(t, tb.send("north", "PRESS TO north: hi"), "names no one but you")
	rejected(t, tb.send("north", "PRESS TO south:"), "the press is empty")
	rejected(t, tb.send("north", "PRESS"), "write PRESS TO")
	// A rejected press is its writer's alone, as the press would be.
	if log := tb.logAs(engine.Viewer{Player: "west", Side: "USA"}); strings.Contains(log, "sotuh") || strings.Contains(log, "hello all") == false {
		t.Errorf("the writer's ally reads a rejected press, or not the press to ALL:\n%s", log)
	}
	if log := tb.logAs(engine.Viewer{Player: "ref", Referee: true}); strings.Contains(log, "yield") || strings.Contains(log, "sotuh") {
		t.Errorf("the referee reads press kept from referees:\n%s", log)
	}
	// The audit re-decides press as any other decision.
	rep, err := play.Audit(tb.st, tb.reg, "g1", nil)
	if err != nil || !rep.OK() {
		t.Fatalf("audit: %v %+v", err, rep.Differences)
	}
	if log := tb.logAs(engine.Viewer{Player: "north", Side: "USA"}); !strings.Contains(log, "yield") || !strings.Contains(log, "sotuh") {
		t.Errorf("north does not read the press to his side, or his own rejected press:\n%s", log)
	}
}

// pressScript is a race game with two allies, an opponent and a referee
// who reads no press, in which each side writes press: what one writes
// differently must not reach anyone it does not name.
func pressScript() enginetest.Script {
	return enginetest.Script{
		Name: "race with press", Ruleset: "race", ScenarioName: "press", Scenario: []byte("target 12"),
		Players: pressPlayers, Referees: raceReferee,
		Orders: enginetest.Orders(
			"north", "ADD 1",
			"north", "PRESS TO south: I shall go high.",
			"south", "ADD 2",
			"south", "PRESS TO USA: We hold the ford.\n\nCome and see.",
			"west", "ADD 3",
			"north", "PRESS ALL: good game",
			"south", "ADD 4",
			"ref", "END WINNER CSA the test is over",
			"south", "PRESS TO north: well played",
		),
		Secrets: []enginetest.Secret{
			{Name: "another press to one player", Side: "USA", Orders: map[int]string{1: "PRESS TO south: I shall go low."}, Readers: []string{"north", "south"}},
			{Name: "another press to a side", Side: "CSA", Orders: map[int]string{3: "PRESS TO USA: We leave the ford."}, Readers: []string{"south", "north", "west"}},
			{Name: "another press to all", Side: "USA", Orders: map[int]string{5: "PRESS ALL: bad game"}, Readers: []string{"north", "west", "south"}},
			{Name: "another press after the end", Side: "CSA", Orders: map[int]string{8: "PRESS TO north: lucky dice"}, Readers: []string{"south", "north"}},
		},
	}
}

// Press passes the acceptance suite's leak test: the writer's ally, an
// observer and the referee (who reads no press in this game) receive the
// same mails, boards, logs and answers whatever the press says, through
// the game's end and after it.
func TestPressPassesTheLeakTest(t *testing.T) {
	t.Parallel()
	enginetest.Run(t, raceRegistry(), composetest.New(t), pressScript())
}

// The setting in force when a press is written decides who may read it,
// for good: what was written before the referees read press stays
// between the players, and what was written while they read it stays
// readable to them after the setting is changed back.
func TestPressRefereeSettingDecidesWhenThePressIsWritten(t *testing.T) {
	tb := newTableFor(t, "target 40", pressPlayers)
	accepted(t, tb.send("north", "PRESS TO south: before"))
	accepted(t, tb.send("ref", "SETTING press-referee all"))
	accepted(t, tb.send("north", "PRESS TO south: during"))
	accepted(t, tb.send("ref", "SETTING press-referee none"))
	accepted(t, tb.send("north", "PRESS TO south: after"))
	rejected(t, tb.send("ref", "SETTING press-referee some"), "want none or all")
	ref := tb.logAs(engine.Viewer{Player: "ref", Referee: true})
	if strings.Contains(ref, "before") || !strings.Contains(ref, "during") || strings.Contains(ref, "text=after") {
		t.Errorf("the referee's log:\n%s", ref)
	}
	if south := tb.logAs(engine.Viewer{Player: "south", Side: "CSA"}); !strings.Contains(south, "before") || !strings.Contains(south, "during") || !strings.Contains(south, "text=after") {
		t.Errorf("south's log:\n%s", south)
	}
}

// Press in a sealed step is press, not the side's sealed orders: it goes
// at once, and the step still waits for the side's bid.
func TestPressInASealedStepIsNoSealedOrder(t *testing.T) {
	tb := newTableOf(t, "target 30\nhand 3")
	accepted(t, tb.send("north", "DEAL"))
	accepted(t, tb.send("north", "ADD 1"))
	accepted(t, tb.send("south", "ADD 2"))
	before := tb.game()
	if ps := before.Prompts(before.State, nil); len(ps) == 0 || ps[0].Sealed == "" {
		t.Fatalf("not a sealed step: %+v", ps)
	}
	d := accepted(t, tb.send("north", "PRESS TO south: I bid high."))
	if len(d.Facts) != 1 || d.Facts[0].Kind != play.FactPress {
		t.Fatalf("press in a sealed step: %+v", d)
	}
	after := tb.game()
	if !reflect.DeepEqual(after.Sealed, before.Sealed) || !reflect.DeepEqual(after.Prompts(after.State, nil), before.Prompts(before.State, nil)) {
		t.Fatalf("the press was taken as sealed orders: %+v", after.Sealed)
	}
	accepted(t, tb.send("north", "BID HIGH"))
}
