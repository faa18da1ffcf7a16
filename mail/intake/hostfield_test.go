package intake

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// With mail.authserv_id set, only the host's field on top is trusted: a
// mail without it, or with the host's id only below another host's
// field (written by the sender, not the host), is unauthenticated, and
// the operator is warned once that the host seems not to add its field.
func TestAMailWithoutTheHostsFieldIsUnauthenticatedAndTheOperatorWarned(t *testing.T) {
	st := newGame(t)
	var logs bytes.Buffer
	c := &clock{time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	in := newAuthIntake(st, c, Config{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	forged := func(id, fields string) []byte {
		return envelope("anna@example.org", []byte(fields+string(mail("anna@example.org", reply("usa"), "x", id, "", "PASS\n# "+id+"\n"))))
	}
	take(t, in, forged("<n1@x>", "Authentication-Results: "+testServID+"; auth=pass smtp.auth=anna@example.org\r\n"))
	if _, types := logged(t, st); types != "order.received" || in.Status().NoHostField != 0 || strings.Contains(logs.String(), "seems not to add") {
		t.Fatalf("the host's own field on top: %q, %d without, log %s", types, in.Status().NoHostField, logs.String())
	}
	c.t = c.t.Add(time.Minute)
	take(t, in, forged("<n2@x>", "Authentication-Results: mx.relay.example; none\r\nAuthentication-Results: "+testServID+"; auth=pass smtp.auth=anna@example.org\r\n"))
	c.t = c.t.Add(time.Minute)
	take(t, in, forged("<n3@x>", ""))
	_, types := logged(t, st)
	if types != "order.received order.held mail.queued order.held mail.queued" {
		t.Fatalf("the host's id below another field, then no field: %q", types)
	}
	if s := in.Status(); s.NoHostField != 2 || !s.NoHostFieldLast.Equal(c.t) {
		t.Fatalf("status: %d without the host's field, last %v", s.NoHostField, s.NoHostFieldLast)
	}
	if n := strings.Count(logs.String(), "seems not to add its field"); n != 1 {
		t.Fatalf("warned %d times, want once:\n%s", n, logs.String())
	}
}
