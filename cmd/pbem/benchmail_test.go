//go:build linux

package main

import (
	"regexp"
	"strings"
	"testing"

	"pbem/internal/dovecottest"
)

// pbem bench measures mail → reply latency against a real Dovecot as the
// game mailbox too, beside that server's own IDLE floor.
func TestBenchMailAgainstDovecot(t *testing.T) {
	cpuBound(t)
	dc := dovecottest.Start(t)
	out, errOut, code := pbem(t, nil, "bench", "--parts", "mail", "--mail-orders", "4",
		"--mail-imap", dc.Addr, "--mail-imap-user", dovecottest.User, "--mail-imap-pass", dovecottest.Password)
	if code != 0 {
		t.Fatalf("bench: %d\n%s\n%s", code, out, tail(errOut, 20))
	}
	if !strings.Contains(out, "game mailbox on "+dc.Addr) {
		t.Fatalf("bench did not use Dovecot:\n%s", out)
	}
	m := regexp.MustCompile(`floor: IDLE notification alone\s+p50\s+(\S+)`).FindStringSubmatch(out)
	if m == nil || !strings.Contains(out, "(4 of 4 notifications seen)") {
		t.Fatalf("no floor measured:\n%s", out)
	}
	// The summary's row: above the floor at p50 / p99, the floor, the goal.
	if !regexp.MustCompile(`(?m)^  mail → reply above the IDLE floor\s+-?[0-9.]+[µm]?s / -?[0-9.]+[µm]?s\s+[0-9.]+[µm]?s / [0-9.]+[µm]?s\s+-\s+p50 ≤ 5ms / p99 ≤ 20ms\s+(met|NOT MET)$`).MatchString(out) {
		t.Fatalf("no mail latency row in the summary:\n%s", out)
	}
	t.Logf("%s", out)
}
