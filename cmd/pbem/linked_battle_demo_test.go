package main

import (
	"strings"
	"testing"
)

// pbem demo --campaign plays a GCACW campaign whose assault is fought out
// as a battle in GBACW, Hair Roller Armies and GM Board Games in turn,
// carries each result back, ends the campaign, and verifies and audits
// every game, each battle's link checked against the campaign's log.
func TestLinkedBattleDemoCampaign(t *testing.T) {
	out, errOut, code := pbem(t, nil, "demo", "--campaign", "--timeout", "2m")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"opened: gbacw tanners-mill; Anna (USA), Taro (CSA)",
		"opened: hra kettle-run; Anna (Union), Taro (Confederate)",
		"opened: gmb hazel-run; Anna (Union), Taro (Confederate)",
		"END DRAW the demo campaign is over after its three battles -> accepted",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "its result carried back into the campaign"); n != 3 {
		t.Errorf("%d results carried back, want 3:\n%s", n, out)
	}
	if n := strings.Count(out, "matches its log"); n != 3 {
		t.Errorf("the campaign's verify checked %d links, want 3:\n%s", n, out)
	}
	if n := strings.Count(out, "took this battle's result, final hash"); n != 3 {
		t.Errorf("%d battles verified against the campaign, want 3:\n%s", n, out)
	}
	if n := strings.Count(out, "audit: every decision re-decided the same"); n != 4 {
		t.Errorf("%d games audited, want 4:\n%s", n, out)
	}
	if strings.Contains(out, "rejected") {
		t.Errorf("an order of the demo was rejected:\n%s", out)
	}
}
