package play_test

import (
	"strings"
	"testing"

	"pbem/engine/play"
	"pbem/events"
)

func TestEachPlayerChoosesTheirMailVolume(t *testing.T) {
	tb := newTable(t)
	if got := tb.game().Volume("south"); got != play.VolumeMove {
		t.Fatalf("the default volume is %s, want move", got)
	}
	d := accepted(t, tb.send("south", "MAIL every"))
	if !strings.Contains(echoOf(d), "MAIL EVERY (was MOVE): a mail for every action") {
		t.Fatalf("echo %q", d.Echo)
	}
	// Forgiving, as the rest of the order language: any case, a unique
	// prefix, a word of the same meaning.
	for _, tc := range []struct{ text, want string }{
		{"mail t", play.VolumeTurn}, {"Mail Digest", play.VolumeTurn}, {"MAIL mo", play.VolumeMove},
		{"mail ALL", play.VolumeEvery}, {"MAIL ev", play.VolumeEvery},
	} {
		accepted(t, tb.send("south", tc.text))
		if got := tb.game().Volume("south"); got != tc.want {
			t.Errorf("%s: volume %s, want %s", tc.text, got, tc.want)
		}
	}
	if got := tb.game().Volume("north"); got != play.VolumeMove {
		t.Errorf("south's MAIL changed north's volume to %s", got)
	}
	rejected(t, tb.send("south", "MAIL sometimes"), `"sometimes" is not a mail volume (write EVERY, TURN or MOVE)`)
	accepted(t, tb.send("south", "MAIL m")) // MOVE or MINE: the same volume
	if got := tb.game().Volume("south"); got != play.VolumeMove {
		t.Errorf("MAIL m: volume %s, want move", got)
	}
	rejected(t, tb.send("south", "MAIL"), "write MAIL EVERY")
	// The referee sets the game's volume, or one reader's.
	accepted(t, tb.send("ref", "SETTING mail turn"))
	if got := tb.game().Volume("north"); got != play.VolumeTurn {
		t.Errorf("after SETTING mail turn, north's volume is %s", got)
	}
	accepted(t, tb.send("ref", "SETTING mail north every"))
	if got := tb.game().Volume("north"); got != play.VolumeEvery {
		t.Errorf("after SETTING mail north every, north's volume is %s", got)
	}
	rejected(t, tb.send("ref", "SETTING mail sometimes"), "not a mail volume")
}

func TestTheMailVolumeIsSetWhenTheGameIsCreated(t *testing.T) {
	tb := newTable(t, events.Setting{Key: "mail", Value: "turn"}, events.Setting{Key: "mail.north", Value: "EVERY"})
	if got := tb.game().Volume("south"); got != play.VolumeTurn {
		t.Errorf("south: %s, want turn (the game's)", got)
	}
	if got := tb.game().Volume("north"); got != play.VolumeEvery {
		t.Errorf("north: %s, want every (their own)", got)
	}
	if _, err := play.ParsePolicy([]events.Setting{{Key: "mail.north", Value: "often"}}); err == nil || !strings.Contains(err.Error(), "not a mail volume") {
		t.Errorf("a bad volume at creation: %v", err)
	}
}
