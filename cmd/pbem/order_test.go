package main

import (
	"strings"
	"testing"
)

// mailsQueued counts the mails the log of game g1 in dir queues to addr.
func mailsQueued(t *testing.T, dir, addr string) int {
	t.Helper()
	out, errOut, code := pbem(t, nil, "--data-dir", dir, "log", "g1")
	if code != 0 {
		t.Fatalf("log: exit %d\n%s%s", code, out, errOut)
	}
	n := 0
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "mail.queued/") && strings.Contains(l, " to "+addr+":") {
			n++
		}
	}
	return n
}

// pbem order waits for the engine and says what it decided, as pbem
// referee does: accepted with what pbem read, or rejected with the
// reason and a failing exit status. The rejection is told on the
// terminal only: the player sent no mail, so pbem mails her no "Your
// mail … was rejected"; an accepted order's report still goes to
// everyone. The same without a server and through a running one.
func TestOrderSaysWhetherItWasAcceptedAndWhy(t *testing.T) {
	t.Parallel()
	for _, live := range []bool{false, true} {
		name := "without a server"
		if live {
			name = "through a running server"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := newGame(t, "--mail", "every") // the report of each action to everyone
			if live {
				// What is tested is what pbem order says (content): served on contentBin.
				srv := startServeContent(t, dir)
				defer stopServe(t, srv)
			}
			anna, taro := mailsQueued(t, dir, "anna@pbem.localhost"), mailsQueued(t, dir, "taro@pbem.localhost")

			out, errOut, code := pbem(t, nil, "--data-dir", dir, "order", "g1", "--player", "anna", "MARCH Lyle 1605")
			if code != 1 || !strings.Contains(out, "rejected; nothing of it was applied:") || !strings.Contains(out, "| MARCH Lyle 1605") ||
				!strings.Contains(out, "it is the Leader Transfer Phase") || strings.Contains(out, "when 'pbem serve' runs") {
				t.Fatalf("a rejected order: exit %d\n%s%s", code, out, errOut)
			}
			if n := mailsQueued(t, dir, "anna@pbem.localhost"); n != anna {
				t.Fatalf("pbem mailed anna %d mail(s) about an order she never sent", n-anna)
			}

			out, errOut, code = pbem(t, nil, "--data-dir", dir, "order", "g1", "--player", "anna", "PASS")
			if code != 0 || !strings.Contains(out, "accepted:") || !strings.Contains(out, "read: PASS") || !strings.Contains(out, "USA ends its Leader Transfer Phase") {
				t.Fatalf("an accepted order: exit %d\n%s%s", code, out, errOut)
			}
			if a, b := mailsQueued(t, dir, "anna@pbem.localhost"), mailsQueued(t, dir, "taro@pbem.localhost"); a != anna+1 || b != taro+1 {
				t.Fatalf("an accepted order's report: %d mail(s) to anna, %d to taro, want 1 each", a-anna, b-taro)
			}
		})
	}
}
