//go:build linux

package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"pbem/demo"
	"pbem/internal/waitfor"
	"pbem/mail/compose"
)

// newestMail waits for a mail in user's INBOX on g's host (logged in with
// password) whose kind (its first line: the subject is the game's, the
// same for every mail) has want, and returns the newest such.
func (g *builtinGame) newestMail(t *testing.T, user, password, want string) demo.Mail {
	t.Helper()
	var found *demo.Mail
	var raws [][]byte
	if waitfor.True(30*time.Second, func() bool {
		raws = readInbox(t, g.imap, user, password)
		for i := len(raws) - 1; i >= 0; i-- {
			m, err := demo.ReadMail(raws[i])
			if err != nil {
				t.Fatalf("%s's mail: %v", user, err)
			}
			if strings.Contains(strings.ToLower(m.Kind), strings.ToLower(want)) {
				found = &m
				return true
			}
		}
		return false
	}) {
		return *found
	}
	t.Fatalf("%s got no mail with %q on its first line among %d", user, want, len(raws))
	return demo.Mail{}
}

// A seat a referee gives later at pbem's built-in mail host (each mailbox
// with its own password): the referee replaces
// a player by mail with an address at the host; the running server makes
// the mailbox with a password of its own, which only the referee's answer
// carries; the new player logs in with it, reads the welcome and plays.
// The operator adds an observer there with 'pbem referee' and gets the
// password printed instead, in no mail. A mailbox that existed before
// is given to no one. No password reaches a log, an export or another
// mailbox, and the server is never restarted.
func TestASeatGivenLaterAtTheBuiltinHostGetsAMailboxWhosePasswordOnlyItsGiverGets(t *testing.T) {
	t.Parallel()
	g := newBuiltinGameWith(t, t.TempDir(), []string{"--referee", "ref:ref@pbem.localhost:Ref"})
	srv := startServe(t, g.dir, g.env...)

	welcome := g.newestMail(t, "ref", g.passwords["ref"], "welcome")
	secret := regexp.MustCompile(`(?m)^\s*Secret: ([a-z2-7]+)\s*$`).FindStringSubmatch(welcome.Body)
	if secret == nil || welcome.ReplyTo == "" {
		t.Fatalf("the referee's welcome has no secret or reply address:\n%s", welcome.Body)
	}
	cmd := fmt.Sprintf("From: ref@pbem.localhost\r\nTo: %s\r\nSubject: Re: %s\r\nMessage-ID: <replace-1@pbem.localhost>\r\nContent-Type: text/plain\r\n\r\nREPLACE taro WITH kim@pbem.localhost NAME Kim\r\nReason: Taro has left\r\nSecret: %s\r\n",
		welcome.ReplyTo, welcome.Subject, secret[1])
	if err := g.send("ref", cmd); err != nil {
		t.Fatal(err)
	}
	answer := g.newestMail(t, "ref", g.passwords["ref"], "ruling applied")
	m := regexp.MustCompile(`kim@pbem\.localhost\n(?:    .*\n)*?    Password  ([a-z2-7]{24})\n`).FindStringSubmatch(answer.Body)
	if m == nil {
		t.Fatalf("the referee's answer gives no password for kim:\n%s", answer.Body)
	}
	kimPW := m[1]
	g.passwords["kim"] = kimPW

	// Kim logs in with it, finds the welcome to Taro's seat, and plays.
	kimWelcome := g.newestMail(t, "kim", kimPW, "welcome")
	bodyHas(t, "Kim's welcome", squeezed(kimWelcome.Body), "You take over a seat in game g1 from Taro", "User kim",
		"its password was given only to whoever added you to the game")
	orders := demo.Offered(kimWelcome.Body)
	if len(orders) == 0 || !strings.Contains(kimWelcome.ReplyTo, "pbem+g1.taro.") {
		t.Fatalf("Kim's welcome offers no move, or no reply address of Taro's seat (%s):\n%s", kimWelcome.ReplyTo, kimWelcome.Body)
	}
	order := fmt.Sprintf("From: Kim <kim@pbem.localhost>\r\nTo: %s\r\nSubject: Re: %s\r\nMessage-ID: <kim-1@pbem.localhost>\r\nContent-Type: text/plain\r\n\r\n%s\r\n",
		kimWelcome.ReplyTo, kimWelcome.Subject, orders[0])
	if err := g.send("kim", order); err != nil {
		t.Fatalf("Kim's order over SMTP with the new password: %v", err)
	}
	// Taro sent nothing: the one order from Taro's seat is Kim's.
	received := regexp.MustCompile(`(?m)^\s*(\d+)\s.*order\.received/v\d+\s+from taro via mail`)
	waitfor.Until(t, 30*time.Second, "Kim's order to be accepted", func() bool {
		out, _, _ := pbem(t, nil, "--data-dir", g.dir, "log", "g1")
		in := received.FindStringSubmatch(out)
		return in != nil && strings.Contains(out, "order.accepted/v2   input "+in[1]+" from taro")
	})

	// The operator adds an observer at the host: the password is printed,
	// and the observer logs in with it and reads the game's mail.
	out, errOut, code := pbem(t, g.env, "--data-dir", g.dir, "referee", "g1", "--as", "operator", "OBSERVER ADD lee@pbem.localhost")
	m = regexp.MustCompile(`lee@pbem\.localhost\s+user lee\s+password ([a-z2-7]{24})`).FindStringSubmatch(out)
	if code != 0 || m == nil {
		t.Fatalf("pbem referee OBSERVER ADD: exit %d\n%s%s", code, out, errOut)
	}
	g.passwords["lee"] = m[1]
	g.newestMail(t, "lee", m[1], "") // any mail of the game
	// A mailbox that existed before is given to no one.
	out, errOut, code = pbem(t, g.env, "--data-dir", g.dir, "referee", "g1", "--as", "operator", "OBSERVER ADD anna@pbem.localhost")
	if code != 0 || !strings.Contains(out, "existed before") || strings.Contains(out, g.passwords["anna"]) {
		t.Fatalf("pbem referee OBSERVER ADD anna: exit %d\n%s%s", code, out, errOut)
	}
	out, _, _ = pbem(t, g.env, "--data-dir", g.dir, "mailboxes")
	for _, who := range []string{"kim", "lee"} {
		if !strings.Contains(out, who+"@pbem.localhost") || !strings.Contains(out, g.passwords[who]) {
			t.Errorf("pbem mailboxes does not list %s's mailbox:\n%s", who, out)
		}
	}

	// Only the referee's answer carries Kim's password: not Kim's own
	// mailbox, nor anyone else's, nor the log, an export or the server's log.
	for user, pw := range g.passwords {
		for _, raw := range readInbox(t, g.imap, user, pw) {
			mail, _ := demo.ReadMail(raw)
			if strings.Contains(mail.Body, kimPW) && (user != "ref" || mail.MessageID != answer.MessageID) {
				t.Errorf("%s's mail %q holds Kim's password", user, mail.Subject)
			}
			if strings.Contains(mail.Body, g.passwords["lee"]) {
				t.Errorf("%s's mail %q holds Lee's password", user, mail.Subject)
			}
		}
	}
	log, _, _ := pbem(t, nil, "--data-dir", g.dir, "log", "g1")
	export, _, _ := pbem(t, nil, "--data-dir", g.dir, "export", "g1", "--with-secrets")
	serverLog := stopServe(t, srv)
	for _, pw := range []string{kimPW, g.passwords["lee"]} {
		if strings.Contains(log+export+serverLog, pw) {
			t.Error("a new mailbox's password is in the log, an export or the server's log")
		}
	}
	if !strings.Contains(export, compose.NewMailboxMark("kim")) {
		t.Error("the referee's answer in the log does not hold the password's mark")
	}
}
