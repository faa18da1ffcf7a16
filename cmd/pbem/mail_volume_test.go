package main

import (
	"strings"
	"testing"
)

// pbem new --mail sets how much mail everyone gets, or one participant
// (ID=VOLUME), forgiving as MAIL is; the game keeps it as a setting.
func TestNewSetsTheMailVolume(t *testing.T) {
	t.Parallel()
	dir := newGame(t, "--mail", "Turn", "--mail", "anna=ev")
	out, errOut, code := pbem(t, nil, "--data-dir", dir, "log", "g1")
	if code != 0 || !strings.Contains(out, "setting mail = turn") || !strings.Contains(out, "setting mail.anna = every") {
		t.Fatalf("log: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = pbem(t, nil, "--data-dir", t.TempDir(), "new", "--game", "g1", "--ruleset", "gcacw", "--scenario", "harrow-creek",
		"--player", "anna:USA:anna@example.org", "--player", "taro:CSA:taro@example.jp", "--referee", "ref:ref@example.org", "--mail", "taro=sometimes")
	if code == 0 || !strings.Contains(errOut, `--mail "taro=sometimes": "sometimes" is not a mail volume (write EVERY, TURN or MOVE)`) {
		t.Fatalf("a bad volume: exit %d\n%s%s", code, out, errOut)
	}
}
