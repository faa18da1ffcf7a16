package main

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// The demo's welcome mails give the ports its mail host really listens
// on (not the configuration's ":0"), and its closing hint runs as
// printed: "pbem …" when that is the binary on the PATH (else the
// binary's own path, or "go run ./cmd/pbem" after go run).
func TestDemoMailsGiveRealPortsAndItsClosingHintRunsAsPrinted(t *testing.T) {
	t.Parallel() // playedDemo takes a CPU slot while it plays
	// The whole game (a demo stopped early by --max-orders can hang in its
	// shutdown on a loaded machine, seen before this test, with the old
	// code too, which is not what this test is about): the one the test
	// of a game without a referee plays, run with the binary on the PATH.
	out, _, _ := playedDemo(t, demoAloneArgs...)
	host := regexp.MustCompile(`built-in mail host: IMAP (\S+), SMTP (\S+),`).FindStringSubmatch(out)
	if host == nil || strings.HasSuffix(host[1], ":0") || strings.HasSuffix(host[2], ":0") {
		t.Fatalf("the demo does not say where its mail host listens:\n%s", tail(out, 30))
	}
	imapLines := regexp.MustCompile(`(?m)^\s+IMAP\s+(\S+), plain login`).FindAllStringSubmatch(out, -1)
	smtpLines := regexp.MustCompile(`(?m)^\s+SMTP\s+(\S+), AUTH PLAIN`).FindAllStringSubmatch(out, -1)
	if len(imapLines) == 0 || len(smtpLines) == 0 {
		t.Fatalf("the welcome mails give no mailbox logins:\n%s", out)
	}
	for _, m := range imapLines {
		if m[1] != host[1] {
			t.Errorf("a welcome mail gives IMAP %s; the host listens on %s", m[1], host[1])
		}
	}
	for _, m := range smtpLines {
		if m[1] != host[2] {
			t.Errorf("a welcome mail gives SMTP %s; the host listens on %s", m[1], host[2])
		}
	}
	hint := regexp.MustCompile(`(?m)^  ((\S+) --data-dir \S+ log demo)$`).FindStringSubmatch(out)
	if hint == nil {
		t.Fatalf("no closing hint:\n%s", tail(out, 10))
	}
	if hint[2] != "pbem" {
		t.Fatalf("the hint runs %q, want %q", hint[2], "pbem")
	}
	// As a shell runs the line pasted, with the same PATH.
	cmd := exec.Command("sh", "-c", hint[1])
	cmd.Env = append(os.Environ(), demoEnv(contentBin, t.TempDir())...)
	got, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(got), "game.created/") {
		t.Fatalf("the hint as printed: %v\n%s", err, got)
	}
}
