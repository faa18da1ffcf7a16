package main

import (
	"bytes"
	"fmt"
	"net/mail"
	"strings"
	"testing"
	"time"

	"pbem/demo/servetest"
	"pbem/internal/waitfor"
)

// A registered player who writes a new mail to the game's address, with
// the game in the subject but no reply address and no Key line, is told
// how to reply, at that address alone; nothing of the mail is applied.
// And a refused 'pbem order' is told on the command line, never mailed
// to the player as if she had sent it; and a remark of thanks above an
// order is no order. By real mail, on pbem's own host.
func TestARegisteredPlayerIsNeverLeftWithoutAnAnswer(t *testing.T) {
	cpuBound(t)
	g := newBuiltinGame(t, t.TempDir())
	srv := startServe(t, g.dir, g.env...)
	defer stopServe(t, srv)
	g.replyTo(t, "anna")
	g.replyTo(t, "taro")
	taroBefore := len(g.mailbox("taro"))

	// A new mail, not a reply: to pbem's plain address, "[pbem g1]" in
	// the subject, and no Key line.
	msg := fmt.Sprintf("From: Anna <anna@pbem.localhost>\r\nTo: pbem@pbem.localhost\r\nSubject: [pbem g1] my orders\r\nMessage-ID: <nokey-1@pbem.localhost>\r\nDate: %s\r\nContent-Type: text/plain\r\n\r\nPASS\r\n",
		time.Now().UTC().Format(time.RFC1123Z))
	if err := g.send("anna", msg); err != nil {
		t.Fatal(err)
	}
	var told *mail.Message
	waitfor.Until(t, 60*time.Second, "Anna's answer to her mail without a key", func() bool {
		for _, m := range g.mailbox("anna") {
			if msg, err := mail.ReadMessage(bytes.NewReader(m)); err == nil && strings.Contains(msg.Header.Get("In-Reply-To"), "nokey-1@pbem.localhost") {
				told = msg
				return true
			}
		}
		return false
	})
	var body bytes.Buffer
	body.ReadFrom(told.Body)
	text := strings.Join(strings.Fields(body.String()), " ")
	for _, want := range []string{"without the key", "Nothing of it was applied", "Reply to this mail", "Key:"} {
		if !strings.Contains(text, want) {
			t.Errorf("the answer lacks %q:\n%s", want, body.String())
		}
	}
	if to := told.Header.Get("To"); !strings.Contains(to, "anna@pbem.localhost") || strings.Contains(to, ",") {
		t.Errorf("the answer went to %q, not to the address the mail came from alone", to)
	}
	// Nothing was applied: Taro hears of no move of Anna's (once every
	// mail pbem queued, Anna's answer and anything else, is sent).
	waitOutboxDrained(t, g)
	if n := len(g.mailbox("taro")); n != taroBefore {
		t.Errorf("Taro got %d mail(s) after Anna's mail without a key", n-taroBefore)
	}

	// Nor with no game in the subject: Taro, registered in g1 alone, is
	// answered too.
	msg = fmt.Sprintf("From: Taro <taro@pbem.localhost>\r\nTo: pbem@pbem.localhost\r\nSubject: orders\r\nMessage-ID: <nokey-2@pbem.localhost>\r\nDate: %s\r\nContent-Type: text/plain\r\n\r\nPASS\r\n",
		time.Now().UTC().Format(time.RFC1123Z))
	if err := g.send("taro", msg); err != nil {
		t.Fatal(err)
	}
	waitfor.Until(t, 60*time.Second, "Taro's answer to his mail without a key or a game", func() bool {
		for _, m := range g.mailbox("taro") {
			if bytes.Contains(m, []byte("nokey-2@pbem.localhost")) && bytes.Contains(m, []byte("Reply to this mail")) {
				return true
			}
		}
		return false
	})

	// pbem order, refused: told on the command line, not mailed to Anna.
	annaBefore := len(g.mailbox("anna"))
	out, errOut, code := pbem(t, g.env, "--data-dir", g.dir, "order", "g1", "--player", "anna", "MARCH Lyle 1605")
	if code != 1 || !strings.Contains(out, "rejected") {
		t.Fatalf("a refused pbem order: exit %d\n%s%s", code, out, errOut)
	}
	waitOutboxDrained(t, g) // the command returns once the order is decided
	for _, m := range g.mailbox("anna")[annaBefore:] {
		if bytes.Contains(m, []byte("was rejected")) {
			t.Errorf("pbem mailed Anna about an order she never sent:\n%s", m)
		}
	}

	// A friendly remark above her order is no order: the order is taken.
	if err := g.send("anna", orderMail("anna", g.replyTo(t, "anna"), "remark-1", "Thanks for the game!\r\nPASS")); err != nil {
		t.Fatal(err)
	}
	var answer []byte
	waitfor.Until(t, 60*time.Second, "pbem's answer to Anna's orders with a remark", func() bool {
		for _, m := range g.mailbox("anna") {
			if msg, err := mail.ReadMessage(bytes.NewReader(m)); err == nil && strings.Contains(msg.Header.Get("In-Reply-To"), "remark-1@pbem.localhost") {
				answer = m
				return true
			}
		}
		return false
	})
	if !bytes.Contains(answer, []byte("were accepted")) || bytes.Contains(answer, []byte("did you mean")) {
		t.Errorf("Anna's orders with a remark were not taken:\n%s", answer)
	}
}

// waitOutboxDrained waits until g's server has sent every mail g1's log
// queued: on pbem's own host, each is in its mailbox then.
func waitOutboxDrained(t *testing.T, g *builtinGame) {
	t.Helper()
	waitfor.Until(t, 60*time.Second, "every mail of g1 queued to be sent", func() bool {
		out, _, _ := pbem(t, g.env, "--data-dir", g.dir, "log", "g1")
		return servetest.OutboxDrained(out)
	})
}
