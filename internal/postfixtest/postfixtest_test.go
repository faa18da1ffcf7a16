//go:build linux

package postfixtest_test

import (
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-smtp"

	"pbem/internal/dovecottest"
	"pbem/internal/postfixtest"
	"pbem/internal/waitfor"
)

// A mail sent to Postfix lands in Dovecot's mailbox with the envelope
// sender as Return-Path, as a receiving host writes it.
func TestPostfixDeliversToDovecotWithTheEnvelopeSender(t *testing.T) {
	dc := dovecottest.Start(t)
	pf := postfixtest.Start(t, postfixtest.Config{Domain: "game.test", Mailbox: "pbem", Maildir: dc.Maildir, UID: dc.MailUID, GID: dc.MailGID})
	c, err := smtp.Dial(pf.Addr)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Hello("client.test"); err != nil {
		t.Fatal(err)
	}
	if err := c.SendMail("eve@evil.example", []string{"pbem+g1.anna.tok@game.test"}, strings.NewReader("From: Anna <anna@players.test>\r\nSubject: x\r\nMessage-ID: <x@y>\r\n\r\nPASS\r\n")); err != nil {
		t.Fatal(err)
	}
	c.Quit()
	im := dc.Dial(t, nil)
	if !waitfor.True(20*time.Second, func() bool {
		sel, err := im.Select("INBOX", nil).Wait()
		if err != nil {
			t.Fatal(err)
		}
		return sel.NumMessages > 0
	}) {
		t.Fatalf("nothing delivered:\n%s", pf.Logs())
	}
	section := &imap.FetchItemBodySection{}
	msgs, err := im.Fetch(imap.SeqSetNum(1), &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	raw := string(msgs[0].FindBodySection(section))
	if !strings.HasPrefix(raw, "Return-Path: <eve@evil.example>\r\n") || !strings.Contains(raw, "Delivered-To: pbem+g1.anna.tok@game.test") {
		t.Fatalf("delivered as:\n%s", raw)
	}
}
