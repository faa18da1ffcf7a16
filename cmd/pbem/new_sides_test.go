package main

import (
	"strings"
	"testing"
)

// pbem new matches sides without regard to case, as orders do, and the
// game records each side as the scenario spells it.
func TestNewMatchesSidesWithoutRegardToCase(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out, errOut, code := pbem(t, nil, "--data-dir", dir, "new", "--game", "g1", "--ruleset", "gcacw", "--scenario", "harrow-creek",
		"--player", "anna:usa:anna@pbem.localhost:Anna", "--player", "taro:Csa:taro@pbem.localhost:Taro")
	if code != 0 {
		t.Fatalf("new with sides in lower case: exit %d\n%s%s", code, out, errOut)
	}
	out, _, _ = pbem(t, nil, "--data-dir", dir, "log", "g1")
	if !strings.Contains(out, "player anna (USA)") || !strings.Contains(out, "player taro (CSA)") {
		t.Fatalf("the game does not record the sides as the scenario spells them:\n%s", out)
	}
	out, errOut, code = pbem(t, nil, "--data-dir", dir, "order", "g1", "--player", "anna", "PASS")
	if code != 0 || !strings.Contains(out, "accepted:") {
		t.Fatalf("an order of a side given in lower case: exit %d\n%s%s", code, out, errOut)
	}

	// The armies of a gmb scenario are its own: matched the same way.
	out, errOut, code = pbem(t, nil, "--data-dir", dir, "new", "--game", "g2", "--ruleset", "gmb", "--scenario", "hazel-run",
		"--player", "anna:UNION:anna@pbem.localhost", "--player", "taro:confederate:taro@pbem.localhost", "--referee", "ref:ref@pbem.localhost")
	if code != 0 {
		t.Fatalf("gmb new with sides in another case: exit %d\n%s%s", code, out, errOut)
	}
	out, _, _ = pbem(t, nil, "--data-dir", dir, "log", "g2")
	if !strings.Contains(out, "player anna (Union)") || !strings.Contains(out, "player taro (Confederate)") {
		t.Fatalf("gmb: the sides are not as the scenario spells them:\n%s", out)
	}
}
