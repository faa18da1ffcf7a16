//go:build linux

package mailtrust

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"pbem/internal/waitfor"
)

// A field the sender wrote in the receiving host's name is not the
// host's. Below the host's own field it is ignored: anna is asked to
// confirm. When the host writes no field, a mail whose field with the
// host's id is below another host's, or that has none, is
// unauthenticated (anna is asked), and the operator is warned: once in
// the log, on /healthz and in a metric.
func TestAFieldTheSenderWroteInTheHostsNameIsIgnoredAndTheOperatorWarned(t *testing.T) {
	t.Parallel()
	w := newWorld(t, 100)
	w.Serve("")
	welcome := w.Next("anna", "Welcome: you play USA")
	w.Next("taro", "Welcome: you play CSA")
	forgedField := "Authentication-Results: " + authservID + "; auth=pass smtp.auth=anna@players.test\r\n"

	// 1. The host writes its field (SPF fails for anna's address from
	// eve's server); eve's own, below it, says anna logged in.
	w.SendWith("spf=fail smtp.mailfrom=anna@players.test", "anna@players.test", welcome.ReplyTo,
		forgedField+w.Forge("anna", welcome, "", "STATUS\n# below the host's field"))
	asked := w.Next("anna", "Please confirm your orders")
	if confirmLineRE.FindStringSubmatch(asked.Body) == nil || !strings.Contains(squeeze(asked.Body), "spf=fail") {
		t.Fatalf("anna is not asked about the mail under the host's field:\n%s", asked.Body)
	}
	w.WaitLog("g1", "order.held/v1", 1)
	if h := w.Healthz(); strings.TrimSpace(h) != "ok" {
		t.Fatalf("/healthz warns while the host writes its field:\n%s", h)
	}
	if n := w.Metric("pbem_mails_without_host_auth_results_total"); n != "0" {
		t.Fatalf("%s mails counted without the host's field, want 0", n)
	}

	// 2. The host writes no field: eve's, with the host's id, is below a
	// field another host wrote; 3. a mail with no field at all.
	w.SendWith("", "anna@players.test", welcome.ReplyTo,
		"Authentication-Results: relay.players.test; dkim=pass header.d=players.test\r\n"+forgedField+w.Forge("anna", welcome, "", "STATUS\n# below another host's field"))
	w.SendWith("", "anna@players.test", welcome.ReplyTo, w.Forge("anna", welcome, "", "STATUS\n# no field"))
	for range 2 {
		asked := w.Take("anna", "", "Please confirm your orders")
		if confirmLineRE.FindStringSubmatch(asked.Body) == nil || strings.Contains(asked.Body, "smtp.auth") {
			t.Fatalf("anna's confirmation request for a mail without the host's field:\n%s", asked.Body)
		}
	}
	if log := w.WaitLog("g1", "order.held/v1", 3); strings.Contains(log, "order.received") {
		t.Fatalf("a mail with a field the sender wrote became an order:\n%s", tail(log, 30))
	}
	w.None("eve")
	w.None("taro")

	// The operator is told: once in the log, and on /healthz and in the
	// metric for as long as it goes on.
	if n := strings.Count(w.ServeLog(), "seems not to add its field"); n != 1 {
		t.Fatalf("the log warns %d times that the host seems not to add its field, want once:\n%s", n, tail(w.ServeLog(), 30))
	}
	if h := squeeze(w.Healthz()); !strings.Contains(h, "2 mails arrived without the Authentication-Results of "+authservID+" on top") ||
		!strings.Contains(h, "the host seems not to add its field") {
		t.Fatalf("/healthz does not warn of the mails without the host's field:\n%s", h)
	}
	if n := w.Metric("pbem_mails_without_host_auth_results_total"); n != "2" {
		t.Fatalf("%s mails counted without the host's field, want 2", n)
	}
}

// Twelve forgeries in anna's name (her address as the envelope, which
// SPF fails from eve's server), each too large to read, spend the notices
// of mail anyone could send, ten an hour: anna is told of ten, not
// twelve. They do not silence anna: her own mails, from her server, are
// answered, a too large one and an order.
func TestForgeriesDoNotSilenceThePlayer(t *testing.T) {
	t.Parallel()
	w := newWorld(t, 100)
	w.Serve("")
	welcome := w.Next("anna", "Welcome: you play USA")
	w.Next("taro", "Welcome: you play CSA")
	tooLong := strings.Repeat(strings.Repeat("x", 70)+"\n", 1000) // 70 KB of text, over the 64 KB pbem reads
	for i := range 12 {
		w.SendWith("spf=fail smtp.mailfrom=anna@players.test", "anna@players.test", welcome.ReplyTo,
			w.Forge("anna", welcome, "", fmt.Sprintf("STATUS\n# forgery %d\n%s", i, tooLong)))
	}
	for range 10 {
		w.Take("anna", "", "Your mail was too large")
	}

	// Anna's own mails: one too large to read, and an order.
	own := strings.Replace(w.Reply("anna", welcome, "", "STATUS\n"+tooLong), "Subject: Re: ", "Subject: my own, Re: ", 1)
	w.Send("anna@players.test", welcome.ReplyTo, own)
	if m := w.Take("anna", "", "Your mail was too large"); !strings.Contains(squeeze(m.Body), "my own, Re:") {
		t.Fatalf("the first answer after the forgeries' ten is not to anna's own mail:\n%s", m.Body)
	}
	w.Send("anna@players.test", welcome.ReplyTo, w.Reply("anna", welcome, "", "STATUS"))
	w.Take("anna", "", "Status")
	// The forgeries past the budget were set aside without a word: once
	// anna's own mail, read after them, is answered, every mail pbem sent
	// is delivered.
	w.Settled("g1")
	if n := w.Count("anna", "Your mail was too large"); n != 0 {
		t.Fatalf("anna was told of %d more forgeries: their notices are not bounded", n)
	}
	// The operator sees them: eleven refused in the game's log (ten
	// forgeries and anna's own), two set aside, saying why anna was not
	// told.
	log, q := w.Pbem("log", "g1"), w.Pbem("quarantine")
	if strings.Count(log, ": too-large") != 11 || strings.Count(q, "not told: 10 notices within 1h0m0s caused by mail anyone writing in the player's name could send") != 2 {
		t.Fatalf("want eleven mails too large refused in the log and two set aside:\n%s\n%s", tail(log, 30), q)
	}
}

// CONFIRM lines are mails like any other. Eve's guesses at a code, in
// anna's name from eve's own server, are rate limited (three an hour
// here): anna is told of three wrong codes, each saying that someone
// may be sending mail in her name, and once of the limit; the rest are
// set aside unread.
func TestConfirmGuessesAreRateLimitedAndWarnThePlayer(t *testing.T) {
	t.Parallel()
	w := newWorld(t, 3)
	w.Serve("")
	welcome := w.Next("anna", "Welcome: you play USA")
	w.Next("taro", "Welcome: you play CSA")
	for i := range 5 {
		w.Send("eve@players.test", welcome.ReplyTo, w.Forge("anna", welcome, "", fmt.Sprintf("CONFIRM aaaa-bbb%c", 'a'+i)))
	}
	for range 3 {
		m := w.Take("anna", "", "Your confirmation did not match")
		if s := squeeze(m.Body); !strings.Contains(s, "no order of yours waits for that code") || !strings.Contains(s, "someone may be sending mail in your name") {
			t.Fatalf("a wrong code's notice does not warn anna:\n%s", m.Body)
		}
	}
	if m := w.Take("anna", "", "Too many mails"); !strings.Contains(squeeze(m.Body), "come from the envelope sender eve@players.test") {
		t.Fatalf("the limit notice:\n%s", m.Body)
	}
	if !waitfor.True(20*time.Second, func() bool { return strings.Contains(w.Pbem("quarantine"), "rate limited") }) {
		t.Fatalf("the fifth guess was not set aside:\n%s", w.Pbem("quarantine"))
	}
	// The fifth guess is set aside: every notice pbem sent by then is
	// delivered once its mail settles.
	w.Settled("g1")
	if n := w.Count("anna", "Your confirmation did not match"); n != 0 {
		t.Fatalf("anna was told of %d more wrong codes past the limit", n)
	}
	w.None("eve")
}

// Anna answers the confirmation request as people do: "Yes", above the
// request quoted whole, CONFIRM line and all. Her held order is applied.
func TestAQuotedConfirmLineConfirmsTheHeldOrder(t *testing.T) {
	t.Parallel()
	w := newWorld(t, 100)
	w.Serve("")
	welcome := w.Next("anna", "Welcome: you play USA")
	w.Next("taro", "Welcome: you play CSA")
	// Anna's order, sent through a server that fails SPF for her address
	// (a forwarder, say): held, and anna asked.
	w.SendWith("spf=fail smtp.mailfrom=anna@players.test", "anna@players.test", welcome.ReplyTo, w.Reply("anna", welcome, "", "TRANSFER Brand TO Pask"))
	confirm := w.Next("anna", "Please confirm your orders")
	if confirmLineRE.FindStringSubmatch(confirm.Body) == nil || !strings.Contains(confirm.Body, "    TRANSFER Brand TO Pask") {
		t.Fatalf("the confirmation request:\n%s", confirm.Body)
	}
	w.Send("anna@players.test", confirm.ReplyTo, w.Reply("anna", confirm, "", "Yes, that was me."))
	report := w.Next("anna", "Report")
	if !strings.Contains(report.Body, "BRND moves from ORNE to PASK") {
		t.Fatalf("anna's report after confirming:\n%s", report.Body)
	}
	if log := w.WaitLog("g1", "order.confirmed/v1", 1); !strings.Contains(log, "confirmed by code from anna@players.test") {
		t.Fatalf("the confirmed order:\n%s", tail(log, 30))
	}
	w.Fetch("anna")
	for _, m := range append(w.Queued["anna"], report) {
		if strings.Contains(squeeze(m.Body), "is not an order") {
			t.Fatalf("anna was told that her answer is not an order:\n%s", m.Body)
		}
	}
}
