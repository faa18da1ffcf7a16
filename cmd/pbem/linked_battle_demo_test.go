package main

import (
	"regexp"
	"strings"
	"testing"
)

// pbem demo --campaign plays, by mail, a GCACW campaign whose assault is
// fought out as a battle in GBACW, Hair Roller Armies and GM Board Games
// in turn: the players and the referee read each game's mail over IMAP
// and answer over SMTP, every mail printed as its recipient receives it;
// the referee has each assault fought out by mail, each result is
// carried back, the referee ends the campaign by mail, and every game is
// verified and audited, each battle's link checked against the
// campaign's log. It runs race-built: one server runs the campaign and
// its battles side by side, whole games by mail.
func TestLinkedBattleDemoCampaign(t *testing.T) {
	out, errOut, code := pbemUnderRace(t, nil, "demo", "--campaign", "--timeout", "2m")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"opened: gbacw tanners-mill; Anna (USA), Taro (CSA)",
		"opened: hra kettle-run; Anna (Union), Taro (Confederate)",
		"opened: gmb hazel-run; Anna (Union), Taro (Confederate)",
		"END DRAW the demo campaign is over after its three battles -> accepted",
		// The mails, as each participant receives them, of the campaign
		// and of its battles.
		"=== mail to Anna <anna@", "=== mail to Taro <taro@", "=== mail to Referee <ref@",
		"=== Subject: [pbem campaign] Linked Fields",
		"=== Subject: [pbem campaign-t1-a1-",
		">>> Referee answers (campaign):\n>>>   RULE FIGHT OUT",
		"The campaign is over and every participant has the mail saying so.",
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
	// The campaign's orders are all taken (a battle's demo script may
	// send a deliberate typo, rejected by mail with the form).
	if m := regexp.MustCompile(`(?m)^campaign +\S+ .* -> rejected.*$`).FindString(out); m != "" {
		t.Errorf("an order of the campaign was rejected: %s", m)
	}
	for _, game := range []string{"gbacw", "hra", "gmb"} {
		if !regexp.MustCompile(`(?m)^campaign +ref +RULE FIGHT OUT \d{4} IN ` + game + ` \S+ -> accepted$`).MatchString(out) {
			t.Errorf("the referee did not have an assault fought out in %s by mail:\n%s", game, out)
		}
	}
	if n := len(regexp.MustCompile(`(?m)^campaign-t1-\S+ +(anna|taro) +CONCEDE -> accepted$`).FindAllString(out, -1)); n != 3 {
		t.Errorf("%d battles conceded by mail, want 3", n)
	}
}
