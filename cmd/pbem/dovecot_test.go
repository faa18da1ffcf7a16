//go:build linux

package main

import (
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"pbem/demo"
	"pbem/demo/servetest"
	"pbem/internal/dovecottest"
	"pbem/internal/waitfor"
	"pbem/mail/mailhost"
)

// Dovecot as the game mailbox: pbem serve reads it over IMAP and
// sends its replies over SMTP to the players' mail host; an order mail
// appended to Dovecot yields a reply in the player's mailbox.
// dovecotGame sets up a game whose mailbox is a throwaway Dovecot, with the
// players' mailboxes (anna, taro; password pw) on a mail host of their
// own, and returns them with the settings new and serve share (as they
// would share a config file), and the game's data directory.
func dovecotGame(t *testing.T) (*dovecottest.Server, *mailhost.Host, []string, string) {
	t.Helper()
	dc := dovecottest.Start(t)
	players, err := mailhost.Start(mailhost.Config{Domain: "players.test", OpenDelivery: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { players.Close() })
	for _, u := range []string{"anna", "taro"} {
		if err := players.AddUser(u, "pw"); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"PBEM_MAIL_DOMAIN=game.test", "PBEM_MAIL_RATE_PER_HOUR=10000", "PBEM_MAIL_AUTHSERV_ID=" + testAuthservID,
		"PBEM_MAIL_IMAP_ADDR=" + dc.Addr, "PBEM_MAIL_IMAP_USERNAME=" + dovecottest.User, "PBEM_MAIL_IMAP_PASSWORD=" + dovecottest.Password,
		"PBEM_MAIL_SMTP_ADDR=" + players.SMTPAddr()}
	dir := t.TempDir()
	if out, errOut, code := pbem(t, env, "--data-dir", dir, "new", "--game", "g1", "--ruleset", "gcacw", "--scenario", "harrow-creek",
		"--player", "anna:USA:anna@players.test:Anna", "--player", "taro:CSA:taro@players.test:Taro"); code != 0 {
		t.Fatalf("new: %s %s", out, errOut)
	}
	return dc, players, env, dir
}

func TestOrderAppendedToDovecotYieldsAReplyInThePlayersMailbox(t *testing.T) {
	t.Parallel()
	dc, players, env, dir := dovecotGame(t)
	srv := startServe(t, dir, env...)
	defer stopServe(t, srv)

	anna, err := imapclient.DialInsecure(players.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer anna.Close()
	if err := anna.Login("anna", "pw").Wait(); err != nil {
		t.Fatal(err)
	}
	// Anna's welcome mail arrives with her reply address.
	welcome := waitMails(t, anna, 1)[0]
	if welcome.subject != "[pbem g1] Harrow Creek" || !strings.HasPrefix(welcome.body, "Welcome: you play USA\n") || !strings.HasPrefix(welcome.replyTo, "pbem+g1.anna.") || !strings.HasSuffix(welcome.replyTo, "@game.test") {
		t.Fatalf("welcome: %+v", welcome)
	}
	// She answers; her mail lands in the game mailbox on Dovecot.
	order := hostResult("anna@players.test") + "From: Anna <anna@players.test>\r\nTo: " + welcome.replyTo + "\r\nSubject: Re: " + welcome.subject +
		"\r\nMessage-ID: <anna-1@players.test>\r\nIn-Reply-To: <" + welcome.msgID + ">\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nPASS\r\n\r\n> Welcome to pbem.\r\n"
	game := dc.Dial(t, nil)
	cmd := game.Append("INBOX", int64(len(order)), nil)
	cmd.Write([]byte(order))
	cmd.Close()
	if _, err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	appended := time.Now()
	got := waitMails(t, anna, 2)[1]
	t.Logf("order appended to Dovecot -> reply in Anna's mailbox: %v (Dovecot's IDLE notice alone takes about 500 ms)", time.Since(appended).Round(time.Millisecond))
	if got.subject != welcome.subject || strings.Contains(got.body[:40], "rejected") || !strings.Contains(got.body, "USA ends its Leader Transfer Phase") {
		t.Fatalf("reply: %s\n%s", got.subject, got.body)
	}
	if got.inReplyTo != "anna-1@players.test" {
		t.Errorf("the reply does not thread under Anna's mail: In-Reply-To %q", got.inReplyTo)
	}
}

type fetched struct {
	subject, replyTo, msgID, inReplyTo, body string
}

// waitMails waits until the INBOX holds n mails and returns them in order.
func waitMails(t *testing.T, c *imapclient.Client, n int) []fetched {
	t.Helper()
	var have uint32
	if !waitfor.True(30*time.Second, func() bool {
		sel, err := c.Select("INBOX", nil).Wait()
		if err != nil {
			t.Fatal(err)
		}
		have = sel.NumMessages
		return int(have) >= n
	}) {
		t.Fatalf("only %d of %d mails arrived", have, n)
	}
	section := &imap.FetchItemBodySection{}
	msgs, err := c.Fetch(imap.SeqSetNum(func() []uint32 {
		s := make([]uint32, n)
		for i := range s {
			s[i] = uint32(i + 1)
		}
		return s
	}()...), &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var out []fetched
	for _, m := range msgs {
		d, err := demo.ReadMail(m.FindBodySection(section))
		if err != nil {
			t.Fatal(err)
		}
		f := fetched{subject: d.Subject, replyTo: d.ReplyTo, msgID: d.MessageID, body: d.Body}
		f.inReplyTo = headerValue(m.FindBodySection(section), "In-Reply-To")
		out = append(out, f)
	}
	return out
}

func headerValue(raw []byte, name string) string {
	head, _, _ := strings.Cut(string(raw), "\r\n\r\n")
	for _, l := range strings.Split(head, "\r\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.EqualFold(k, name) {
			return strings.Trim(strings.TrimSpace(v), "<>")
		}
	}
	return ""
}

// testAuthservID is the authserv-id of the host that receives the game's
// mail in the tests that hand mail straight to its mailbox.
const testAuthservID = servetest.AuthservID

// hostResult is the Authentication-Results field the receiving host
// writes on top of a mail its user addr logged in to send: the players'
// own mail, not a forgery.
func hostResult(addr string) string {
	return "Authentication-Results: " + testAuthservID + "; auth=pass smtp.auth=" + addr + "\r\n"
}
