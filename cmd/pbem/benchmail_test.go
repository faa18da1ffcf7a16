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
	t.Logf("%s", out)
}
