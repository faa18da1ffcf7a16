package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pbem/engine/gbacw"
)

// A GBACW scenario that leaves steps to a referee (charts of
// results it does not load, no victory conditions) makes no game
// without one: pbem new names the steps; with a referee it makes it.
func TestGBACWNewNeedsARefereeForStepsItsScenarioLeaves(t *testing.T) {
	t.Parallel()
	b, err := gbacw.Scenario("tanners-mill")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(b), "tables     sample-tables", "", 1)
	s = s[:strings.Index(s, "\n[victory]")] + `
[terrain]
clear 1 0 0 0
woods 2 1 -1 -1
town 2 1 -1 -1
marsh 3 0 0 -1
climb 1
[hexside-features]
stream 2 0 -1
ford 0 0 -1
bridge 0 0 0
crest 0 0.5 0
wall 0 0.5 -1
[route-mp]
road 1
[weapons]
rifle 3 +1 0 -1
musket 2 +1 -1
carbine 2 0 -1
napoleon 6 +2 +1 0 0 -1 -1
`
	dir := t.TempDir()
	file := filepath.Join(dir, "bare.txt")
	if err := os.WriteFile(file, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"--data-dir", filepath.Join(dir, "data"), "new", "--game", "g1", "--ruleset", "gbacw", "--scenario-file", file,
		"--player", "anna:USA:anna@pbem.localhost", "--player", "taro:CSA:taro@pbem.localhost"}
	_, errOut, code := pbem(t, nil, args...)
	if code == 0 || !strings.Contains(errOut, "hands these steps to a referee") || !strings.Contains(errOut, "no [fire] table, R2") ||
		!strings.Contains(errOut, "no [victory] section, R18") {
		t.Fatalf("without a referee: exit %d\n%s", code, errOut)
	}
	out, errOut, code := pbem(t, nil, append(args, "--referee", "ref:ref@pbem.localhost")...)
	if code != 0 || !strings.Contains(out, "created game g1") {
		t.Fatalf("with a referee: exit %d\n%s\n%s", code, out, errOut)
	}
	// The sample scenario needs none.
	out, errOut, code = pbem(t, nil, "--data-dir", filepath.Join(dir, "data"), "new", "--game", "g2", "--ruleset", "gbacw", "--scenario", "tanners-mill",
		"--player", "anna:USA:anna@pbem.localhost", "--player", "taro:CSA:taro@pbem.localhost")
	if code != 0 {
		t.Fatalf("the sample scenario without a referee: exit %d\n%s\n%s", code, out, errOut)
	}
}
