package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// Issue #6: the HRA sample scenario (Kettle Run) played to its end by mail
// over the built-in SMTP and IMAP servers, NATS and a bbolt file.
func TestHRADemoPlaysKettleRunToItsEndByMail(t *testing.T) {
	out, errOut, code := pbem(t, []string{"TMPDIR=" + t.TempDir()}, "demo", "--ruleset", "hra", "--max-orders", "400", "--timeout", "3m")
	if code != 0 {
		t.Fatalf("demo exit %d\n%s\n%s", code, tail(out, 60), tail(errOut, 40))
	}
	for _, want := range []string{
		"=== Subject: [pbem demo] welcome: you play Union",
		"=== Subject: [pbem demo] welcome: you play Confederate",
		"=== Subject: [pbem demo] your move",
		"=== Subject: [pbem demo] order rejected", // Taro's scripted typo
		`no unit or brigade is called "Stonewall Brigadier"`,
		"=== Subject: [pbem demo] game over",
		"The game is over and every participant has the mail saying so.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q", want)
		}
	}
	dir := regexp.MustCompile(`pbem --data-dir (\S+) verify demo`).FindStringSubmatch(out)
	if dir == nil {
		t.Fatal("demo did not say where its log is")
	}
	defer os.RemoveAll(dir[1])
	vout, verr, vcode := pbem(t, nil, "--data-dir", dir[1], "verify", "demo")
	if vcode != 0 || !strings.Contains(vout, "intact") {
		t.Fatalf("verify after the demo: %d %s %s", vcode, vout, verr)
	}
	log, _, _ := pbem(t, nil, "--data-dir", dir[1], "log", "demo")
	for _, fact := range []string{" general.rolled ", " supply.rolled ", " initiative.rolled ", " unit.moved ", " volleys.declared ", " battle.ended "} {
		if !strings.Contains(log, fact) {
			t.Errorf("the game's log has no%s", fact)
		}
	}
	// The final mails say who won (or that it is a draw), to both players.
	byPlayer := map[string]string{}
	for _, m := range strings.Split(out, "=== mail to ")[1:] {
		name, _, _ := strings.Cut(m, " ")
		byPlayer[name] += m
	}
	won := regexp.MustCompile(`victory points Union \d+, Confederate \d+[^:]*: (Union wins|Confederate wins|a draw)`)
	for _, name := range []string{"Anna", "Taro"} {
		mails := byPlayer[name]
		_, last, ok := strings.Cut(mails, "Subject: [pbem demo] game over")
		if !ok {
			t.Errorf("%s got no game-over mail", name)
			continue
		}
		if !won.MatchString(strings.Join(strings.Fields(last), " ")) {
			t.Errorf("%s's game-over mail does not say who won:\n%s", name, tail(last, 30))
		}
		for _, l := range strings.Split(mails, "\n") {
			if len([]rune(l)) > 78 && !strings.HasPrefix(l, "=== ") && !strings.HasPrefix(l, ">>>") {
				t.Errorf("%s got a line of %d columns: %q", name, len([]rune(l)), l)
				break
			}
		}
	}
}
