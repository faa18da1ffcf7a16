package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pbem/engine/gcacw"
)

// A game without a referee must never wait for one. 'pbem new'
// refuses it when its scenario hands a step to a referee (and names the
// steps), or when a missed deadline would wait for the referee; a
// scenario whose tables and house rules cover every step is accepted.
func TestNewRefusesAGameThatWouldWaitForAMissingReferee(t *testing.T) {
	t.Parallel()
	b, err := gcacw.Scenario("harrow-creek")
	if err != nil {
		t.Fatal(err)
	}
	before, _, ok := strings.Cut(string(b), "[victory]")
	if !ok {
		t.Fatal("Harrow Creek has no [victory] table")
	}
	noVictory := filepath.Join(t.TempDir(), "no-victory.txt")
	if err := os.WriteFile(noVictory, []byte(before), 0o600); err != nil {
		t.Fatal(err)
	}
	players := []string{"--player", "anna:USA:anna@pbem.localhost", "--player", "taro:CSA:taro@pbem.localhost"}
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"a step left to a referee, and no referee", []string{"--scenario-file", noVictory}, 1,
			"hands these steps to a referee, and the game has none"},
		{"the step is named", []string{"--scenario-file", noVictory}, 1, "the result after the last turn (R24)"},
		{"the same scenario with a referee", []string{"--scenario-file", noVictory, "--referee", "ref:ref@pbem.localhost"}, 0, "created game"},
		{"every step covered", []string{"--scenario", "harrow-creek"}, 0, "created game"},
		{"deadlines waiting for a missing referee", []string{"--scenario", "harrow-creek", "--set", "deadline=72h"}, 1,
			"--set at-deadline=PASS"},
		{"deadlines with a default order", []string{"--scenario", "harrow-creek", "--set", "deadline=72h", "--set", "at-deadline=PASS"}, 0, "created game"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"--data-dir", t.TempDir(), "new", "--game", "g1", "--ruleset", "gcacw"}, tc.args...)
			out, errOut, code := pbem(t, nil, append(args, players...)...)
			if code != tc.code || !strings.Contains(out+errOut, tc.want) {
				t.Fatalf("exit %d (want %d), want %q in:\n%s%s", code, tc.code, tc.want, out, errOut)
			}
		})
	}
}
