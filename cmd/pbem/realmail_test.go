//go:build linux

package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"pbem/demo"
	"pbem/demo/servetest"
	"pbem/internal/waitfor"
)

// Mail from real people end to end through a real Postfix (it
// writes the envelope sender as Return-Path) in front of a real Dovecot
// (the game mailbox pbem reads), players and a forger with mailboxes on a
// mail host of their own, which Postfix relays pbem's mail to.

// newRealMail is a servetest.World of g1 with the referee Carol, whose
// mail through Postfix and Dovecot the tests follow.
func newRealMail(t *testing.T, ratePerHour int) *servetest.World {
	t.Helper()
	return servetest.NewWorld(t, pbemBin, servetest.WorldConfig{RatePerHour: ratePerHour, CmdBin: contentBin,
		NewArgs: []string{"--referee", "carol:carol@players.test:Carol"}, People: []string{"anna", "taro", "carol", "eve"}})
}

var confirmLineRE = regexp.MustCompile(`(?m)^    (CONFIRM [a-z2-7]{4}-[a-z2-7]{4})$`)

// A forged mail (envelope eve, From anna, to anna's reply address) is not
// applied; the confirmation goes to anna, never to eve; the hold survives
// a restart; anna's confirmation applies the order. After a rollback, a
// copy of anna's accepted mail under a new Message-ID is refused. A flood
// of forgeries cannot rate-limit anna. Every silent-drop case of the
// issue gets its answer at anna's address.
func TestMailFromRealPeopleThroughPostfixAndDovecot(t *testing.T) {
	t.Parallel()
	r := newRealMail(t, 4)
	srv := startServe(t, r.Dir, r.Env...)
	welcome := r.Next("anna", "Welcome: you play USA")
	r.Next("taro", "Welcome: you play CSA")
	secret := regexp.MustCompile(`(?m)^    Secret: ([a-z2-7]+)$`).FindStringSubmatch(r.Next("carol", "Welcome: you referee").Body)
	if welcome.Subject != "[pbem g1] Harrow Creek" || secret == nil {
		t.Fatalf("welcome: %q, secret %v", welcome.Subject, secret)
	}

	// 1. Eve forges anna's From on a mail to anna's leaked reply address.
	// (Its order goes on over an indented line, as the welcome says one
	// may: item 6.)
	forged := strings.Replace(r.Reply("anna", welcome, "", "TRANSFER Brand\n    TO Pask"), "Message-ID: <anna-", "Message-ID: <eve-", 1)
	r.Send("eve@players.test", welcome.ReplyTo, forged)
	confirm := r.Next("anna", "Please confirm your orders")
	code := confirmLineRE.FindStringSubmatch(confirm.Body)
	if code == nil || !strings.Contains(squeezeText(confirm.Body), "envelope sender eve@players.test is not its From address anna@players.test") ||
		!strings.Contains(confirm.Body, "    TRANSFER Brand TO Pask") || confirm.Subject != welcome.Subject {
		t.Fatalf("the confirmation:\n%s", confirm.Body)
	}
	log := r.WaitLog("g1", "order.held/v1", 1)
	if strings.Contains(log, "order.received") {
		t.Fatalf("the forged mail became an order:\n%s", tail(log, 30))
	}
	r.None("eve")
	r.None("taro")
	// The hold is anna's: taro's view of the log has none of it, and an
	// export keeps the code out as it does the reply keys.
	if asTaro := r.Pbem("log", "g1", "--as", "taro"); strings.Contains(asTaro, "order.held") || strings.Contains(asTaro, "TRANSFER Brand") {
		t.Fatalf("taro sees anna's held order:\n%s", tail(asTaro, 20))
	}
	if export := r.Pbem("export", "g1"); strings.Contains(export, strings.TrimPrefix(code[1], "CONFIRM ")) || !strings.Contains(export, "order.held") {
		t.Fatal("the export shows the confirmation code, or not the hold")
	}

	// The hold is in the log: it survives a restart.
	stopServe(t, srv)
	srv = startServe(t, r.Dir, r.Env...)
	defer func() { stopServe(t, srv) }()

	// 2. Anna confirms from her registered address: the order applies.
	r.Send("anna@players.test", confirm.ReplyTo, r.Reply("anna", confirm, "", code[1]))
	after := r.Next("anna", "Report")
	if !strings.Contains(after.Body, "BRND moves from ORNE to PASK") {
		t.Fatalf("anna's report after confirming:\n%s", after.Body)
	}
	taroMove := r.Next("taro", "Your move")
	log = r.WaitLog("g1", "order.confirmed/v1", 1)
	if !strings.Contains(log, "sender authenticated: confirmed by code from anna@players.test") {
		t.Fatalf("the confirmed order:\n%s", tail(log, 30))
	}

	// 3. Taro moves; the referee rolls it back; a copy of taro's mail
	// under a new Message-ID is refused (it used to be applied again).
	move := demo.Offered(taroMove.Body)
	taroMail := r.Reply("taro", taroMove, "", move[0])
	r.Send("taro@players.test", taroMove.ReplyTo, taroMail)
	r.Next("taro", "")
	received := strings.Count(r.WaitLog("g1", "order.accepted/v", 2), "order.received/v2")
	// The referee answers the report of Taro's move: a count is taken
	// relative to the mail a referee answers, and refused if the game
	// moved on after it.
	carolMail := r.Next("carol", "")
	for !strings.Contains(squeezeText(carolMail.Body), "Taro (CSA) sent orders") {
		carolMail = r.Next("carol", "")
	}
	r.Send("carol@players.test", carolMail.ReplyTo, r.Reply("carol", carolMail, "", "ROLLBACK 1 ACTIONS\nReason: replay test\nSecret: "+secret[1]))
	r.Next("taro", "The referee changed the game")
	replay := strings.Replace(taroMail, "Message-ID: <taro-", "Message-ID: <replayed-taro-", 1)
	r.Send("taro@players.test", taroMove.ReplyTo, replay)
	notice := r.Next("taro", "A copy of an earlier mail")
	if !strings.Contains(squeezeText(notice.Body), "It was not applied again") {
		t.Fatalf("the replay notice:\n%s", notice.Body)
	}
	log = r.WaitLog("g1", "replay", 1)
	if n := strings.Count(log, "order.received/v2"); n != received {
		t.Fatalf("the replay became an order: %d orders received, %d before", n, received)
	}

	// 4. Eve floods anna's name (envelope eve): her own envelope's limit
	// stops her; anna is told once; anna's own mail still goes through.
	for i := range 6 {
		r.Send("eve@players.test", welcome.ReplyTo, strings.Replace(r.Reply("anna", welcome, "", fmt.Sprintf("STATUS\n# %d", i)), "Message-ID: <anna-", "Message-ID: <eve-", 1))
	}
	for range 3 {
		r.Take("anna", "", "Please confirm your orders")
	}
	limited := r.Take("anna", "", "Too many mails")
	if !strings.Contains(squeezeText(limited.Body), "come from the envelope sender eve@players.test") {
		t.Fatalf("the limit notice:\n%s", limited.Body)
	}
	if !waitfor.True(20*time.Second, func() bool { return strings.Contains(r.Pbem("quarantine"), "rate limited") }) {
		t.Fatalf("the sixth forgery was not quarantined:\n%s", r.Pbem("quarantine"))
	}
	status := r.Reply("anna", welcome, "", "STATUS")
	r.Send("anna@players.test", welcome.ReplyTo, status)
	if m := r.Next("anna", "Status"); !strings.Contains(m.Body, "whose move") && !strings.Contains(m.Body, "USA") {
		t.Fatalf("anna's STATUS after the flood:\n%s", m.Body)
	}
	r.None("eve")

	// 5. No silent drops.
	photo := strings.Repeat(strings.Repeat("A", 76)+"\r\n", 36000) // 2.7 MB of base64
	big := strings.Replace(r.Reply("anna", welcome, "", "PASS"), "Content-Type: text/plain; charset=utf-8\r\n\r\n",
		"Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n", 1) +
		"--b\r\nContent-Type: image/jpeg\r\nContent-Transfer-Encoding: base64\r\nContent-Disposition: attachment; filename=IMG_0001.jpg\r\n\r\n" + photo + "--b--\r\n"
	r.Send("anna@players.test", welcome.ReplyTo, big)
	if m := r.Next("anna", "Your mail was too large"); !strings.Contains(squeezeText(m.Body), "without attachments") {
		t.Fatalf("too large:\n%s", m.Body)
	}
	key := regexp.MustCompile(`(?m)^Key: (\S+)$`).FindStringSubmatch(welcome.Body)
	quotedKey := fmt.Sprintf("From: Anna <anna@players.test>\r\nTo: pbem@game.test\r\nSubject: Re: [pbem g1] Harrow Creek\r\nMessage-ID: <anna-q@players.test>\r\nDate: %s\r\n\r\nSTATUS\r\n\r\n> Key: %s\r\n",
		time.Now().UTC().Format(time.RFC1123Z), key[1])
	r.Send("anna@players.test", "pbem@game.test", quotedKey)
	if m := r.Next("anna", "Your mail had no Key line of its own"); !strings.Contains(m.Body, "without the '>'") {
		t.Fatalf("quoted key:\n%s", m.Body)
	}
	reused := strings.Replace(status, "STATUS\r\n", "PASS\r\n", 1)
	r.Send("anna@players.test", welcome.ReplyTo, reused)
	if m := r.Next("anna", "A mail reused a Message-ID"); !strings.Contains(m.Body, "other content") {
		t.Fatalf("reused Message-ID:\n%s", m.Body)
	}
	if q := r.Pbem("quarantine"); !strings.Contains(q, "reused with other content") {
		t.Fatalf("quarantine:\n%s", q)
	}
	// The log still re-decides alike and verifies.
	if audit := r.Pbem("audit", "g1"); !strings.Contains(audit, "re-decided alike") {
		t.Fatalf("audit:\n%s", tail(audit, 30))
	}
}

func squeezeText(s string) string { return strings.Join(strings.Fields(s), " ") }

// Through Postfix and Dovecot, a result that does not name the player's
// own address applies nothing: eve's mail with anna's address as its
// envelope (MAIL FROM, which SPF does not pass from eve's server), and
// taro's mail as anna from the players' shared domain (DMARC passes for
// the domain, the envelope is taro's) are held, and anna is asked at her
// registered address; anna's own mail from her server is applied.
func TestForgedEnvelopeAndSameDomainForgeryAreHeldThroughPostfix(t *testing.T) {
	t.Parallel()
	r := newRealMail(t, 100)
	srv := startServe(t, r.Dir, r.Env...)
	defer func() { stopServe(t, srv) }()
	welcome := r.Next("anna", "Welcome: you play USA")
	r.Next("taro", "Welcome: you play CSA")

	forged := strings.Replace(r.Reply("anna", welcome, "", "STATUS"), "Message-ID: <anna-", "Message-ID: <eve-", 1)
	r.SendWith("spf=fail smtp.mailfrom=anna@players.test", "anna@players.test", welcome.ReplyTo, forged)
	asked := r.Next("anna", "Please confirm your orders")
	if confirmLineRE.FindStringSubmatch(asked.Body) == nil || !strings.Contains(squeezeText(asked.Body), "spf=fail") {
		t.Fatalf("anna is asked about the forged envelope:\n%s", asked.Body)
	}

	sameDomain := strings.Replace(r.Reply("anna", welcome, "", "STATUS\n# from taro"), "Message-ID: <anna-", "Message-ID: <taro-as-anna-", 1)
	r.SendWith("spf=pass smtp.mailfrom=taro@players.test; dkim=pass header.d=players.test; dmarc=pass header.from=players.test",
		"taro@players.test", welcome.ReplyTo, sameDomain)
	asked = r.Next("anna", "Please confirm your orders")
	if confirmLineRE.FindStringSubmatch(asked.Body) == nil || !strings.Contains(squeezeText(asked.Body), "envelope sender taro@players.test is not its From address anna@players.test") {
		t.Fatalf("anna is asked about taro's mail in her name:\n%s", asked.Body)
	}
	log := r.WaitLog("g1", "order.held/v1", 2)
	if strings.Contains(log, "order.received") {
		t.Fatalf("a forgery became an order:\n%s", tail(log, 30))
	}
	r.None("taro")
	r.None("eve")

	// Anna's own mail, from her server: SPF passes for her envelope.
	r.Send("anna@players.test", welcome.ReplyTo, r.Reply("anna", welcome, "", "STATUS"))
	r.Next("anna", "Status")
	if log := r.WaitLog("g1", "order.received", 1); !strings.Contains(log, "spf anna@players.test") {
		t.Fatalf("anna's own mail:\n%s", tail(log, 20))
	}
}
