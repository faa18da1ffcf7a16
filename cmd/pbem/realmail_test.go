//go:build linux

package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"pbem/demo"
	"pbem/internal/dovecottest"
	"pbem/internal/postfixtest"
	"pbem/internal/waitfor"
	"pbem/mail/mailhost"
)

// Issue 12 end to end: mail from real people through a real Postfix (it
// writes the envelope sender as Return-Path) in front of a real Dovecot
// (the game mailbox pbem reads), players and a forger with mailboxes on a
// mail host of their own, which Postfix relays pbem's mail to.

// realMail is a game whose mail goes through Postfix and Dovecot.
type realMail struct {
	t      *testing.T
	pf     *postfixtest.Server
	env    []string
	dir    string
	people map[string]*demo.Mailbox
	queued map[string][]demo.Mail // fetched, not yet looked at
	n      int
}

func newRealMail(t *testing.T, ratePerHour int) *realMail {
	t.Helper()
	dc := dovecottest.Start(t)
	host, err := mailhost.Start(mailhost.Config{Domain: "players.test", OpenDelivery: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	pf := postfixtest.Start(t, postfixtest.Config{Domain: "game.test", Mailbox: dovecottest.User, Maildir: dc.Maildir,
		UID: dc.MailUID, GID: dc.MailGID, Relay: map[string]string{"players.test": host.SMTPAddr()}})
	r := &realMail{t: t, pf: pf, dir: t.TempDir(), queued: map[string][]demo.Mail{},
		env: []string{"PBEM_MAIL_DOMAIN=game.test", fmt.Sprintf("PBEM_MAIL_RATE_PER_HOUR=%d", ratePerHour),
			"PBEM_MAIL_IMAP_ADDR=" + dc.Addr, "PBEM_MAIL_IMAP_USERNAME=" + dovecottest.User, "PBEM_MAIL_IMAP_PASSWORD=" + dovecottest.Password,
			"PBEM_MAIL_IMAP_POLL=1s", "PBEM_MAIL_SMTP_ADDR=" + pf.Addr, "PBEM_MAIL_AUTHSERV_ID=" + testAuthservID}}
	r.pbem("new", "--game", "g1", "--ruleset", "gcacw", "--scenario", "harrow-creek",
		"--player", "anna:USA:anna@players.test:Anna", "--player", "taro:CSA:taro@players.test:Taro",
		"--referee", "carol:carol@players.test:Carol",
		"--mail", "every") // a mail for every action: these tests follow each one
	r.people = mailboxes(t, host, "anna", "taro", "carol", "eve")
	return r
}

func (r *realMail) pbem(args ...string) string {
	r.t.Helper()
	out, errOut, code := pbem(r.t, r.env, append([]string{"--data-dir", r.dir}, args...)...)
	if code != 0 {
		r.t.Fatalf("pbem %v: exit %d\n%s\n%s", args, code, out, errOut)
	}
	return out
}

// next waits for who's next mail whose first line (what it is) starts
// with kind, skipping others.
func (r *realMail) next(who, kind string) demo.Mail {
	r.t.Helper()
	return r.find(who, kind, true)
}

// take is next for mails whose order of arrival is not fixed (Postfix
// may deliver two mails queued together in either order): it removes
// only the mail it returns and leaves the others for later calls.
func (r *realMail) take(who, kind string) demo.Mail {
	r.t.Helper()
	return r.find(who, kind, false)
}

func (r *realMail) find(who, kind string, dropEarlier bool) demo.Mail {
	r.t.Helper()
	var got demo.Mail
	if waitfor.True(45*time.Second, func() bool {
		ms, err := r.people[who].FetchNew()
		if err != nil {
			r.t.Fatal(err)
		}
		r.queued[who] = append(r.queued[who], ms...)
		for i, m := range r.queued[who] {
			if strings.HasPrefix(m.Kind, kind) {
				got = m
				if dropEarlier {
					r.queued[who] = r.queued[who][i+1:]
				} else {
					r.queued[who] = append(r.queued[who][:i:i], r.queued[who][i+1:]...)
				}
				return true
			}
		}
		return false
	}) {
		return got
	}
	r.t.Fatalf("%s got no %q mail\nquarantine:\n%s\nlog:\n%s\npostfix:\n%s", who, kind, r.pbem("quarantine"), tail(r.pbem("log", "g1"), 40), tail(r.pf.Logs(), 20))
	return demo.Mail{}
}

// none checks that who got no new mail.
func (r *realMail) none(who string) {
	r.t.Helper()
	ms, err := r.people[who].FetchNew()
	if err != nil {
		r.t.Fatal(err)
	}
	for _, m := range append(r.queued[who], ms...) {
		r.t.Errorf("%s got a mail: %s\n%s", who, m.Kind, m.Body)
	}
	r.queued[who] = nil
}

// send hands raw to Postfix from the envelope sender, for rcpt, from
// the players' own server (SPF passes for the envelope).
func (r *realMail) send(envelope, rcpt, raw string) {
	r.t.Helper()
	r.sendWith("spf=pass smtp.mailfrom="+envelope, envelope, rcpt, raw)
}

// sendWith is send with the results the receiving host finds for the
// mail (this Postfix has no SPF, DKIM or DMARC service to find them, so
// the client hands them in as the host's, on top).
func (r *realMail) sendWith(results, envelope, rcpt, raw string) {
	r.t.Helper()
	c, err := smtp.Dial(r.pf.Addr)
	if err != nil {
		r.t.Fatal(err)
	}
	defer c.Close()
	if err := c.Hello("client.players.test"); err != nil {
		r.t.Fatal(err)
	}
	raw = "Authentication-Results: " + testAuthservID + "; " + results + "\r\n" + raw
	if err := c.SendMail(envelope, []string{rcpt}, strings.NewReader(raw)); err != nil {
		r.t.Fatal(err)
	}
	c.Quit()
}

// reply is a mail client's answer to m from who: to its Reply-To,
// threaded, quoting it; extra is more header fields, body the new text.
func (r *realMail) reply(who string, m demo.Mail, extra, body string) string {
	r.n++
	quoted := "> " + strings.ReplaceAll(strings.TrimRight(m.Body, "\n"), "\n", "\n> ")
	return fmt.Sprintf("From: %s <%s@players.test>\r\nTo: %s\r\nSubject: Re: %s\r\nMessage-ID: <%s-%d@players.test>\r\nDate: %s\r\n"+
		"In-Reply-To: <%s>\r\nReferences: <%s>\r\n%sContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n\r\nOn %s, pbem wrote:\r\n%s\r\n",
		strings.ToUpper(who[:1])+who[1:], who, m.ReplyTo, m.Subject, who, r.n, time.Now().UTC().Format(time.RFC1123Z),
		m.MessageID, m.MessageID, extra, strings.ReplaceAll(body, "\n", "\r\n"), m.Date.Format("Mon, 2 Jan 2006 at 15:04"), strings.ReplaceAll(quoted, "\n", "\r\n"))
}

// waitLog waits until 'pbem log g1' holds want n times.
func (r *realMail) waitLog(want string, n int) string {
	r.t.Helper()
	var log string
	if waitfor.True(30*time.Second, func() bool {
		log = r.pbem("log", "g1")
		return strings.Count(log, want) >= n
	}) {
		return log
	}
	r.t.Fatalf("the log does not hold %q %d times:\n%s", want, n, tail(log, 40))
	return ""
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
	srv := startServe(t, r.dir, r.env...)
	welcome := r.next("anna", "Welcome: you play USA")
	r.next("taro", "Welcome: you play CSA")
	secret := regexp.MustCompile(`(?m)^    Secret: ([a-z2-7]+)$`).FindStringSubmatch(r.next("carol", "Welcome: you referee").Body)
	if welcome.Subject != "[pbem g1] Harrow Creek" || secret == nil {
		t.Fatalf("welcome: %q, secret %v", welcome.Subject, secret)
	}

	// 1. Eve forges anna's From on a mail to anna's leaked reply address.
	// (Its order goes on over an indented line, as the welcome says one
	// may: item 6.)
	forged := strings.Replace(r.reply("anna", welcome, "", "TRANSFER Brand\n    TO Pask"), "Message-ID: <anna-", "Message-ID: <eve-", 1)
	r.send("eve@players.test", welcome.ReplyTo, forged)
	confirm := r.next("anna", "Please confirm your orders")
	code := confirmLineRE.FindStringSubmatch(confirm.Body)
	if code == nil || !strings.Contains(squeezeText(confirm.Body), "envelope sender eve@players.test is not its From address anna@players.test") ||
		!strings.Contains(confirm.Body, "    TRANSFER Brand TO Pask") || confirm.Subject != welcome.Subject {
		t.Fatalf("the confirmation:\n%s", confirm.Body)
	}
	log := r.waitLog("order.held/v1", 1)
	if strings.Contains(log, "order.received") {
		t.Fatalf("the forged mail became an order:\n%s", tail(log, 30))
	}
	r.none("eve")
	r.none("taro")
	// The hold is anna's: taro's view of the log has none of it, and an
	// export keeps the code out as it does the reply keys.
	if asTaro := r.pbem("log", "g1", "--as", "taro"); strings.Contains(asTaro, "order.held") || strings.Contains(asTaro, "TRANSFER Brand") {
		t.Fatalf("taro sees anna's held order:\n%s", tail(asTaro, 20))
	}
	if export := r.pbem("export", "g1"); strings.Contains(export, strings.TrimPrefix(code[1], "CONFIRM ")) || !strings.Contains(export, "order.held") {
		t.Fatal("the export shows the confirmation code, or not the hold")
	}

	// The hold is in the log: it survives a restart.
	stopServe(t, srv)
	srv = startServe(t, r.dir, r.env...)
	defer func() { stopServe(t, srv) }()

	// 2. Anna confirms from her registered address: the order applies.
	r.send("anna@players.test", confirm.ReplyTo, r.reply("anna", confirm, "", code[1]))
	after := r.next("anna", "Report")
	if !strings.Contains(after.Body, "BRND moves from ORNE to PASK") {
		t.Fatalf("anna's report after confirming:\n%s", after.Body)
	}
	taroMove := r.next("taro", "Your move")
	log = r.waitLog("order.confirmed/v1", 1)
	if !strings.Contains(log, "sender authenticated: confirmed by code from anna@players.test") {
		t.Fatalf("the confirmed order:\n%s", tail(log, 30))
	}

	// 3. Taro moves; the referee rolls it back; a copy of taro's mail
	// under a new Message-ID is refused (it used to be applied again).
	move := demo.Offered(taroMove.Body)
	taroMail := r.reply("taro", taroMove, "", move[0])
	r.send("taro@players.test", taroMove.ReplyTo, taroMail)
	r.next("taro", "")
	received := strings.Count(r.waitLog("order.accepted/v", 2), "order.received/v2")
	// The referee answers the report of Taro's move: a count is taken
	// relative to the mail a referee answers, and refused if the game
	// moved on after it.
	carolMail := r.next("carol", "")
	for !strings.Contains(squeezeText(carolMail.Body), "Taro (CSA) sent orders") {
		carolMail = r.next("carol", "")
	}
	r.send("carol@players.test", carolMail.ReplyTo, r.reply("carol", carolMail, "", "ROLLBACK 1 ACTIONS\nReason: replay test\nSecret: "+secret[1]))
	r.next("taro", "The referee changed the game")
	replay := strings.Replace(taroMail, "Message-ID: <taro-", "Message-ID: <replayed-taro-", 1)
	r.send("taro@players.test", taroMove.ReplyTo, replay)
	notice := r.next("taro", "A copy of an earlier mail")
	if !strings.Contains(squeezeText(notice.Body), "It was not applied again") {
		t.Fatalf("the replay notice:\n%s", notice.Body)
	}
	log = r.waitLog("replay", 1)
	if n := strings.Count(log, "order.received/v2"); n != received {
		t.Fatalf("the replay became an order: %d orders received, %d before", n, received)
	}

	// 4. Eve floods anna's name (envelope eve): her own envelope's limit
	// stops her; anna is told once; anna's own mail still goes through.
	for i := range 6 {
		r.send("eve@players.test", welcome.ReplyTo, strings.Replace(r.reply("anna", welcome, "", fmt.Sprintf("STATUS\n# %d", i)), "Message-ID: <anna-", "Message-ID: <eve-", 1))
	}
	for range 3 {
		r.take("anna", "Please confirm your orders")
	}
	limited := r.take("anna", "Too many mails")
	if !strings.Contains(squeezeText(limited.Body), "come from the envelope sender eve@players.test") {
		t.Fatalf("the limit notice:\n%s", limited.Body)
	}
	if !waitfor.True(20*time.Second, func() bool { return strings.Contains(r.pbem("quarantine"), "rate limited") }) {
		t.Fatalf("the sixth forgery was not quarantined:\n%s", r.pbem("quarantine"))
	}
	status := r.reply("anna", welcome, "", "STATUS")
	r.send("anna@players.test", welcome.ReplyTo, status)
	if m := r.next("anna", "Status"); !strings.Contains(m.Body, "whose move") && !strings.Contains(m.Body, "USA") {
		t.Fatalf("anna's STATUS after the flood:\n%s", m.Body)
	}
	r.none("eve")

	// 5. No silent drops.
	photo := strings.Repeat(strings.Repeat("A", 76)+"\r\n", 36000) // 2.7 MB of base64
	big := strings.Replace(r.reply("anna", welcome, "", "PASS"), "Content-Type: text/plain; charset=utf-8\r\n\r\n",
		"Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n", 1) +
		"--b\r\nContent-Type: image/jpeg\r\nContent-Transfer-Encoding: base64\r\nContent-Disposition: attachment; filename=IMG_0001.jpg\r\n\r\n" + photo + "--b--\r\n"
	r.send("anna@players.test", welcome.ReplyTo, big)
	if m := r.next("anna", "Your mail was too large"); !strings.Contains(squeezeText(m.Body), "without attachments") {
		t.Fatalf("too large:\n%s", m.Body)
	}
	key := regexp.MustCompile(`(?m)^Key: (\S+)$`).FindStringSubmatch(welcome.Body)
	quotedKey := fmt.Sprintf("From: Anna <anna@players.test>\r\nTo: pbem@game.test\r\nSubject: Re: [pbem g1] Harrow Creek\r\nMessage-ID: <anna-q@players.test>\r\nDate: %s\r\n\r\nSTATUS\r\n\r\n> Key: %s\r\n",
		time.Now().UTC().Format(time.RFC1123Z), key[1])
	r.send("anna@players.test", "pbem@game.test", quotedKey)
	if m := r.next("anna", "Your mail had no Key line of its own"); !strings.Contains(m.Body, "without the '>'") {
		t.Fatalf("quoted key:\n%s", m.Body)
	}
	reused := strings.Replace(status, "STATUS\r\n", "PASS\r\n", 1)
	r.send("anna@players.test", welcome.ReplyTo, reused)
	if m := r.next("anna", "A mail reused a Message-ID"); !strings.Contains(m.Body, "other content") {
		t.Fatalf("reused Message-ID:\n%s", m.Body)
	}
	if q := r.pbem("quarantine"); !strings.Contains(q, "reused with other content") {
		t.Fatalf("quarantine:\n%s", q)
	}
	// The log still re-decides alike and verifies.
	if audit := r.pbem("audit", "g1"); !strings.Contains(audit, "re-decided alike") {
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
	srv := startServe(t, r.dir, r.env...)
	defer func() { stopServe(t, srv) }()
	welcome := r.next("anna", "Welcome: you play USA")
	r.next("taro", "Welcome: you play CSA")

	forged := strings.Replace(r.reply("anna", welcome, "", "STATUS"), "Message-ID: <anna-", "Message-ID: <eve-", 1)
	r.sendWith("spf=fail smtp.mailfrom=anna@players.test", "anna@players.test", welcome.ReplyTo, forged)
	asked := r.next("anna", "Please confirm your orders")
	if confirmLineRE.FindStringSubmatch(asked.Body) == nil || !strings.Contains(squeezeText(asked.Body), "spf=fail") {
		t.Fatalf("anna is asked about the forged envelope:\n%s", asked.Body)
	}

	sameDomain := strings.Replace(r.reply("anna", welcome, "", "STATUS\n# from taro"), "Message-ID: <anna-", "Message-ID: <taro-as-anna-", 1)
	r.sendWith("spf=pass smtp.mailfrom=taro@players.test; dkim=pass header.d=players.test; dmarc=pass header.from=players.test",
		"taro@players.test", welcome.ReplyTo, sameDomain)
	asked = r.next("anna", "Please confirm your orders")
	if confirmLineRE.FindStringSubmatch(asked.Body) == nil || !strings.Contains(squeezeText(asked.Body), "envelope sender taro@players.test is not its From address anna@players.test") {
		t.Fatalf("anna is asked about taro's mail in her name:\n%s", asked.Body)
	}
	log := r.waitLog("order.held/v1", 2)
	if strings.Contains(log, "order.received") {
		t.Fatalf("a forgery became an order:\n%s", tail(log, 30))
	}
	r.none("taro")
	r.none("eve")

	// Anna's own mail, from her server: SPF passes for her envelope.
	r.send("anna@players.test", welcome.ReplyTo, r.reply("anna", welcome, "", "STATUS"))
	r.next("anna", "Status")
	if log := r.waitLog("order.received", 1); !strings.Contains(log, "spf anna@players.test") {
		t.Fatalf("anna's own mail:\n%s", tail(log, 20))
	}
}
