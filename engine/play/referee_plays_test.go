package play_test

import (
	"strings"
	"testing"
	"time"

	"pbem/engine/play"
	"pbem/events"
)

// annaReferees is a referee at the address Anna plays USA from.
var annaReferees = []events.Player{{ID: "ref", Name: "Anna", Addresses: []string{"Anna@Example.org"}}}

// newTableWithReferees is newTable with the given referees, or the error
// creating the game gave.
func newTableWithReferees(t *testing.T, referees []events.Player, settings ...events.Setting) (*table, error) {
	t.Helper()
	return newRaceTable(t, "target 40", racePlayers, referees, settings...)
}

// An address that plays a side is refused as the game's referee when the
// game is created, with what to do instead; a game created with
// referee-plays=yes allows it and says so.
func TestAnAddressThatPlaysIsRefusedAsTheGamesReferee(t *testing.T) {
	_, err := newTableWithReferees(t, annaReferees)
	if err == nil {
		t.Fatal("a game whose referee plays USA was created")
	}
	for _, want := range []string{"anna@example.org", "USA", "referee-plays=yes"} {
		if !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(want)) {
			t.Errorf("the refusal does not say %q: %v", want, err)
		}
	}
	tb, err := newTableWithReferees(t, annaReferees, events.Setting{Key: play.SettingRefereePlays, Value: "yes"})
	if err != nil {
		t.Fatalf("referee-plays=yes: %v", err)
	}
	if side, plays := tb.game().PlayingReferee("ref"); !plays || side != "USA" {
		t.Fatalf("PlayingReferee = %q, %v; want USA, true", side, plays)
	}
	// Whether the referee may play is the game's as created, never the
	// referee's to change.
	rejected(t, tb.send("ref", "SETTING referee-plays no"), "set when the game is created")
}

// Nor can a player be made a co-referee, or a seat moved so that one
// address both plays and referees: by the referee or by every side.
func TestAPlayerIsRefusedAsACoReferee(t *testing.T) {
	for _, tc := range []struct {
		name, who, text, want string
	}{
		{"the referee adds a player", "ref", "REFEREE ADD anna@example.org NAME Anna", "plays USA"},
		{"the referee adds a player's second address", "ref", "REFEREE ADD TARO@work.example.jp", "plays CSA"},
		{"the referee gives his seat to a player", "ref", "REPLACE ref WITH anna@example.org", "plays USA"},
		{"the referee gives a player's seat to himself", "ref", "REPLACE south WITH carol@example.org", "referees this game"},
		{"a side asks for a player as referee", "north", "REFEREE ADD taro@example.jp", "plays CSA"},
		{"a side asks to replace the referee by a player", "north", "REFEREE REPLACE ref WITH anna@example.org", "plays USA"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := newTable(t)
			rejected(t, tb.send(tc.who, tc.text), tc.want)
			if g := tb.game(); len(g.Referees) != 1 || g.Referees[0].Addresses[0] != "carol@example.org" {
				t.Fatalf("referees now %+v", g.Referees)
			}
		})
	}
	// The same requests stand in a game that allows a playing referee.
	tb, err := newTableWithReferees(t, raceReferee, events.Setting{Key: play.SettingRefereePlays, Value: "yes"})
	if err != nil {
		t.Fatal(err)
	}
	accepted(t, tb.send("ref", "REFEREE ADD anna@example.org NAME Anna"))
}

// A referee who also plays pauses like a player: the pause ends by itself
// after the game's pause-max, so the opponent is never held by him alone.
func TestAPlayingRefereesPauseEndsByItself(t *testing.T) {
	tb, err := newTableWithReferees(t, annaReferees,
		events.Setting{Key: play.SettingRefereePlays, Value: "yes"}, events.Setting{Key: play.SettingPauseMax, Value: "3h"})
	if err != nil {
		t.Fatal(err)
	}
	d := accepted(t, tb.send("ref", "PAUSE my holidays"))
	if !strings.Contains(echoOf(d), "as you also play USA, it ends by itself after the game's pause-max of 3h") {
		t.Fatalf("the pause does not say it is bounded: %q", d.Echo)
	}
	g := tb.game()
	if g.PauseEnds() != g.Paused.At+int64(3*time.Hour) {
		t.Fatalf("the pause ends at %d, want 3h after %d", g.PauseEnds(), g.Paused.At)
	}
	// The opponent is told when it ends.
	p := rejected(t, tb.send("south", "RESUME"), "only a referee resumes it")
	if !strings.Contains(p.Msg, "ends by itself") {
		t.Fatalf("the opponent is not told when the pause ends: %q", p.Msg)
	}
	tb.tick(time.Unix(0, g.Paused.At).Add(3*time.Hour + time.Minute))
	if g = tb.game(); g.Paused != nil {
		t.Fatalf("the playing referee's pause did not end after pause-max: %+v", g.Paused)
	}
	// A referee who does not play keeps his pause as long as he likes.
	tb = newTable(t, events.Setting{Key: play.SettingPauseMax, Value: "3h"})
	accepted(t, tb.send("ref", "PAUSE a rules question"))
	tb.tick(start.Add(10 * time.Hour))
	if g = tb.game(); g.Paused == nil {
		t.Fatal("a referee's pause ended by itself")
	}
}
