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
}

func tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
