package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The README's main job: a whole GCACW game by mail over the built-in SMTP
// and IMAP servers, NATS and a bbolt file, every mail printed as received.
func TestDemoPlaysAWholeGameByMail(t *testing.T) {
	out, errOut, code := pbem(t, []string{"TMPDIR=" + t.TempDir()}, "demo", "--max-orders", "400", "--timeout", "2m")
	if code != 0 {
		t.Fatalf("demo exit %d\n%s\n%s", code, tail(out, 40), tail(errOut, 40))
	}
	for _, want := range []string{
		"=== Subject: [pbem demo] welcome: you play USA",
		"=== Subject: [pbem demo] welcome: you play CSA",
		"=== Subject: [pbem demo] your move",
		"=== Subject: [pbem demo] order rejected", // Taro's scripted typo
		`no unit is called "Starlng"`,
		"=== Subject: [pbem demo] referee: ruling needed",
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
	if vcode != 0 || !strings.Contains(vout, "intact") || !strings.Contains(vout, "rolls verify") {
		t.Fatalf("verify after the demo: %d %s %s", vcode, vout, verr)
	}
	// GCACW (issue #4): whole game turns by mail, each step of the turn
	// sequence in the log (GCACW 3, 4, 5.1, 5.2).
	log, _, _ := pbem(t, nil, "--data-dir", dir[1], "log", "demo")
	for _, fact := range []string{" transfer.done ", " initiative.rolled ", " initiative.taken ", " unit.marched ",
		" unit.fatigue_raised ", " leader.activated ", " reorganization.ended ", " turn.begun ", " game.ended "} {
		if !strings.Contains(log, fact) {
			t.Errorf("the game's log has no%s", fact)
		}
	}
	// Both players' mails, as they received them.
	byPlayer := map[string]string{}
	for _, m := range strings.Split(out, "=== mail to ")[1:] {
		name, _, _ := strings.Cut(m, " ")
		byPlayer[name] += m
	}
	for _, name := range []string{"Anna", "Taro"} {
		mails := byPlayer[name]
		for _, want := range []string{
			"Subject: [pbem demo] welcome: you play",
			"Subject: [pbem demo] your move",
			"For example, you could send:",
			"Subject: [pbem demo] report",
			"What happened",
			"Dice",
			"Key: ",
			"[attachment: map-demo-",
			"Subject: [pbem demo] game over",
		} {
			if !strings.Contains(mails, want) {
				t.Errorf("%s's mails lack %q", name, want)
			}
		}
		// Every board in a mail body fits a 78-column mail client.
		for _, l := range strings.Split(mails, "\n") {
			if len([]rune(l)) > 78 && !strings.HasPrefix(l, "=== ") && !strings.HasPrefix(l, ">>>") {
				t.Errorf("%s got a line of %d columns: %q", name, len([]rune(l)), l)
				break
			}
		}
	}
}

func tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
