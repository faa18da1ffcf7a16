package mailhost

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// fixedNow is the clock of the hosts under test; 2026-01-02 is a Friday.
var fixedNow = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

const heloName = "client.test"

// startHost starts a host with users pbem and alice and closes it when the
// test ends. Most tests here set OpenDelivery, taking mail as an inbound
// server does; the submission tests leave it off.
func startHost(t *testing.T, cfg Config) *Host {
	t.Helper()
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	if cfg.Now == nil {
		cfg.Now = func() time.Time { return fixedNow }
	}
	h, err := Start(cfg)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() {
		if err := h.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	for _, u := range []string{"pbem", "alice"} {
		if err := h.AddUser(u, u+"-secret"); err != nil {
			t.Fatalf("AddUser(%s): %v", u, err)
		}
	}
	return h
}

// dialSMTP opens an SMTP connection and says EHLO.
func dialSMTP(t *testing.T, h *Host) *smtp.Client {
	t.Helper()
	c, err := smtp.Dial(h.SMTPAddr())
	if err != nil {
		t.Fatalf("smtp.Dial: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Hello(heloName); err != nil {
		t.Fatalf("EHLO: %v", err)
	}
	return c
}

// send delivers msg over a new SMTP connection (authenticated if auth is
// not nil) and returns the first error.
func send(t *testing.T, h *Host, auth sasl.Client, from string, to []string, msg []byte) error {
	t.Helper()
	c := dialSMTP(t, h)
	if auth != nil {
		if err := c.Auth(auth); err != nil {
			return fmt.Errorf("AUTH: %w", err)
		}
	}
	if err := c.SendMail(from, to, bytes.NewReader(msg)); err != nil {
		return err
	}
	return c.Quit()
}

func mustSend(t *testing.T, h *Host, to []string, msg []byte) {
	t.Helper()
	if err := send(t, h, nil, "player@example.org", to, msg); err != nil {
		t.Fatalf("send to %v: %v", to, err)
	}
}

// loginIMAP opens an IMAP connection logged in as user.
func loginIMAP(t *testing.T, h *Host, user string, opts *imapclient.Options) *imapclient.Client {
	t.Helper()
	c, err := imapclient.DialInsecure(h.IMAPAddr(), opts)
	if err != nil {
		t.Fatalf("imapclient.DialInsecure: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Login(user, user+"-secret").Wait(); err != nil {
		t.Fatalf("LOGIN %s: %v", user, err)
	}
	return c
}

// inbox returns every message in user's INBOX, fetched over IMAP.
func inboxOf(t *testing.T, h *Host, user string) [][]byte {
	t.Helper()
	c := loginIMAP(t, h, user, nil)
	defer func() { c.Logout().Wait() }()
	sel, err := c.Select("INBOX", nil).Wait()
	if err != nil {
		t.Fatalf("SELECT INBOX: %v", err)
	}
	return fetchRange(t, c, 1, sel.NumMessages)
}

// fetchRange fetches BODY.PEEK[] of messages from..to (sequence numbers).
func fetchRange(t *testing.T, c *imapclient.Client, from, to uint32) [][]byte {
	t.Helper()
	if to < from {
		return nil
	}
	var set imap.SeqSet
	set.AddRange(from, to)
	section := &imap.FetchItemBodySection{Peek: true}
	msgs, err := c.Fetch(set, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		t.Fatalf("FETCH %d:%d: %v", from, to, err)
	}
	slices.SortFunc(msgs, func(a, b *imapclient.FetchMessageBuffer) int { return int(a.SeqNum) - int(b.SeqNum) })
	out := make([][]byte, len(msgs))
	for i, m := range msgs {
		out[i] = m.FindBodySection(section)
	}
	return out
}

// receivedFor is the Received header the host adds for rcpt, spelled out
// to pin the format.
func receivedFor(rcpt, with string) string { return traceFor("player@example.org", rcpt, with) }

// traceFor is Return-Path (the envelope sender), the Received header
// and the host's Authentication-Results: the logged-in user (ESMTPA, who
// sends as from) or none.
func traceFor(from, rcpt, with string) string {
	ar := "Authentication-Results: pbem.localhost; none\r\n"
	if with == "ESMTPA" {
		ar = "Authentication-Results: pbem.localhost;\r\n\tauth=pass smtp.auth=" + from + "\r\n"
	}
	return "Return-Path: <" + from + ">\r\n" + "Received: from " + heloName + " ([127.0.0.1])\r\n" +
		"\tby pbem.localhost (pbem mailhost) with " + with + "\r\n" +
		"\tfor <" + rcpt + ">; Fri, 02 Jan 2026 03:04:05 +0000\r\n" + ar
}

// The host names the user who logged in to send a mail in its own
// Authentication-Results, and removes any field carrying its id that the
// sender wrote (RFC 8601 §5), leaving other hosts' fields alone.
func TestAuthenticationResultsNameTheLoggedInUser(t *testing.T) {
	h := startHost(t, Config{})
	msg := []byte("Authentication-Results: pbem.localhost; auth=pass smtp.auth=pbem@pbem.localhost\r\n" +
		"Authentication-Results: mx.example.org; dmarc=pass header.from=pbem.localhost\r\n" +
		"Authentication-Results: PBEM.localhost (forged) 1;\r\n\tspf=pass smtp.mailfrom=pbem@pbem.localhost\r\n" +
		"From: alice@pbem.localhost\r\nTo: pbem@pbem.localhost\r\nSubject: orders\r\n\r\nPASS\r\n")
	if err := send(t, h, sasl.NewPlainClient("", "alice", "alice-secret"), "alice@pbem.localhost", []string{"pbem@pbem.localhost"}, msg); err != nil {
		t.Fatal(err)
	}
	got := inboxOf(t, h, "pbem")
	want := traceFor("alice@pbem.localhost", "pbem@pbem.localhost", "ESMTPA") +
		"Authentication-Results: mx.example.org; dmarc=pass header.from=pbem.localhost\r\n" +
		"From: alice@pbem.localhost\r\nTo: pbem@pbem.localhost\r\nSubject: orders\r\n\r\nPASS\r\n"
	if len(got) != 1 || string(got[0]) != want {
		t.Fatalf("delivered:\n%q\nwant\n%q", got, want)
	}
	if h.AuthServID() != "pbem.localhost" {
		t.Fatalf("authserv-id %q", h.AuthServID())
	}
}

func testMessage(to, subject string) []byte {
	return []byte("From: Player <player@example.org>\r\n" +
		"To: " + to + "\r\n" +
		"Subject: " + subject + "\r\n" +
		"Message-ID: <" + subject + "@example.org>\r\n" +
		"\r\n" +
		"Move A1 to B2.\r\n" +
		".a line that starts with a dot (dot-stuffed on the wire)\r\n" +
		"\r\n" +
		"-- \r\nplayer\r\n")
}

func TestDeliver(t *testing.T) {
	h := startHost(t, Config{OpenDelivery: true})
	tests := []struct {
		name  string
		to    []string
		users []string // users[i] receives the copy for to[i]
	}{
		{"user", []string{"pbem@pbem.localhost"}, []string{"pbem"}},
		{"plus address", []string{"pbem+g1.usa.k3v9x2m4q8r7t6w5@pbem.localhost"}, []string{"pbem"}},
		{"case-insensitive", []string{"PBEM+G2.Ger.X@PBEM.LocalHost"}, []string{"pbem"}},
		{"two users", []string{"alice@pbem.localhost", "pbem+g3@pbem.localhost"}, []string{"alice", "pbem"}},
		{"same address twice", []string{"alice+x@pbem.localhost", "Alice+X@pbem.localhost"}, []string{"alice"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := map[string]int{}
			for _, u := range tt.users {
				before[u] = len(inboxOf(t, h, u))
			}
			msg := testMessage(strings.Join(tt.to, ", "), strings.ReplaceAll(tt.name, " ", "-"))
			mustSend(t, h, tt.to, msg)
			for i, u := range tt.users {
				got := inboxOf(t, h, u)
				if len(got) != before[u]+1 {
					t.Fatalf("INBOX of %s has %d messages, want %d", u, len(got), before[u]+1)
				}
				want := receivedFor(tt.to[i], "ESMTP") + string(msg)
				if last := string(got[len(got)-1]); last != want {
					t.Errorf("INBOX of %s, last message:\n%q\nwant\n%q", u, last, want)
				}
			}
		})
	}
}

// smtpCode returns the reply code of an *smtp.SMTPError, or 0.
func smtpCode(err error) (int, smtp.EnhancedCode, string) {
	var e *smtp.SMTPError
	if errors.As(err, &e) {
		return e.Code, e.EnhancedCode, e.Message
	}
	return 0, smtp.EnhancedCode{}, ""
}

func TestRcptRejected(t *testing.T) {
	h := startHost(t, Config{OpenDelivery: true})
	tests := []struct {
		name string
		to   string
		enh  smtp.EnhancedCode
		text string
	}{
		{"unknown user", "nobody@pbem.localhost", smtp.EnhancedCode{5, 1, 1}, "no such user"},
		{"unknown user with tag", "nobody+pbem@pbem.localhost", smtp.EnhancedCode{5, 1, 1}, "no such user"},
		{"empty user", "+pbem@pbem.localhost", smtp.EnhancedCode{5, 1, 1}, "no such user"},
		{"foreign domain", "pbem@example.org", smtp.EnhancedCode{5, 7, 1}, "only accepts mail for @pbem.localhost"},
		{"subdomain", "pbem@mx.pbem.localhost", smtp.EnhancedCode{5, 7, 1}, "relay access denied"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := dialSMTP(t, h)
			if err := c.Mail("player@example.org", nil); err != nil {
				t.Fatalf("MAIL: %v", err)
			}
			err := c.Rcpt(tt.to, nil)
			code, enh, text := smtpCode(err)
			if code != 550 || enh != tt.enh || !strings.Contains(text, tt.text) {
				t.Fatalf("RCPT TO:<%s> = %v, want 550 %v ...%s...", tt.to, err, tt.enh, tt.text)
			}
			// The transaction goes on for the good recipients.
			if err := c.Rcpt("alice@pbem.localhost", nil); err != nil {
				t.Fatalf("RCPT after rejection: %v", err)
			}
			w, err := c.Data()
			if err != nil {
				t.Fatalf("DATA: %v", err)
			}
			w.Write(testMessage("alice@pbem.localhost", "after-rejection"))
			if err := w.Close(); err != nil {
				t.Fatalf("end of DATA: %v", err)
			}
			if err := c.Quit(); err != nil {
				t.Fatalf("QUIT: %v", err)
			}
		})
	}
	if got := len(inboxOf(t, h, "alice")); got != len(tests) {
		t.Errorf("alice has %d messages, want %d", got, len(tests))
	}
	if got := len(inboxOf(t, h, "pbem")); got != 0 {
		t.Errorf("pbem has %d messages, want 0", got)
	}
}

// sized returns a message of exactly n bytes (n >= 64) made of CRLF lines
// of at most 72 bytes.
func sized(n int) []byte {
	var b bytes.Buffer
	b.WriteString("Subject: size\r\n\r\n")
	for rest := n - b.Len(); rest > 0; rest = n - b.Len() {
		k := min(70, rest-2)
		if rest-(k+2) == 1 { // would leave a single byte: shorten this line
			k--
		}
		b.WriteString(strings.Repeat("x", k) + "\r\n")
	}
	return b.Bytes()
}

func TestSized(t *testing.T) {
	for n := 64; n < 400; n++ {
		if b := sized(n); len(b) != n || !bytes.HasSuffix(b, []byte("\r\n")) {
			t.Fatalf("sized(%d) made %d bytes ending %q", n, len(b), b[len(b)-2:])
		}
	}
}

func TestMaxBytes(t *testing.T) {
	const max = 1024
	h := startHost(t, Config{OpenDelivery: true, MaxBytes: max})
	tests := []struct {
		name     string
		size     int
		declared int64 // MAIL FROM SIZE=
		ok       bool
	}{
		{"just under", max - 1, 0, true},
		{"exactly the cap", max, 0, true},
		{"one over", max + 1, 0, false},
		{"far over", 100 * max, 0, false},
		{"declared over", 100, max + 1, false},
		{"declared at cap", max, max, true},
	}
	delivered := 0
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg := sized(tt.size)
			if len(msg) != tt.size || !bytes.HasSuffix(msg, []byte("\r\n")) {
				t.Fatalf("sized(%d) made %d bytes", tt.size, len(msg))
			}
			c := dialSMTP(t, h)
			err := c.Mail("player@example.org", &smtp.MailOptions{Size: tt.declared})
			if err == nil {
				err = c.Rcpt("pbem@pbem.localhost", nil)
				if err != nil {
					t.Fatalf("RCPT: %v", err)
				}
				var w *smtp.DataCommand
				if w, err = c.Data(); err != nil {
					t.Fatalf("DATA: %v", err)
				}
				w.Write(msg)
				err = w.Close()
			}
			if tt.ok {
				if err != nil {
					t.Fatalf("send %d bytes: %v", tt.size, err)
				}
				delivered++
				got := inboxOf(t, h, "pbem")
				if want := receivedFor("pbem@pbem.localhost", "ESMTP") + string(msg); len(got) != delivered || string(got[delivered-1]) != want {
					t.Fatalf("INBOX has %d messages (want %d), last one differs from what was sent", len(got), delivered)
				}
				return
			}
			if code, enh, _ := smtpCode(err); code != 552 || enh != (smtp.EnhancedCode{5, 3, 4}) {
				t.Fatalf("send %d bytes (SIZE=%d) = %v, want 552 5.3.4", tt.size, tt.declared, err)
			}
			// The connection survives the rejection.
			if err := c.Noop(); err != nil {
				t.Fatalf("NOOP after 552: %v", err)
			}
			if got := len(inboxOf(t, h, "pbem")); got != delivered {
				t.Fatalf("INBOX has %d messages, want %d", got, delivered)
			}
		})
	}
}

// existsWatcher returns client options whose unilateral handler reports
// every EXISTS count on the returned channel.
func existsWatcher() (*imapclient.Options, <-chan uint32) {
	ch := make(chan uint32, 100)
	return &imapclient.Options{UnilateralDataHandler: &imapclient.UnilateralDataHandler{
		Mailbox: func(d *imapclient.UnilateralDataMailbox) {
			if d.NumMessages != nil {
				select {
				case ch <- *d.NumMessages:
				default:
				}
			}
		},
	}}, ch
}

// waitExists waits until an EXISTS of at least n arrives.
func waitExists(ch <-chan uint32, n uint32, timeout time.Duration) bool {
	deadline := time.After(timeout)
	for {
		select {
		case got := <-ch:
			if got >= n {
				return true
			}
		case <-deadline:
			return false
		}
	}
}

// TestIdle is the way pbem watches its INBOX: IDLE, with a NOOP as the
// fallback should the notification not come.
func TestIdle(t *testing.T) {
	h := startHost(t, Config{OpenDelivery: true})
	opts, exists := existsWatcher()
	c := loginIMAP(t, h, "pbem", opts)
	if !c.Caps().Has(imap.CapIMAP4rev2) && !c.Caps().Has(imap.CapIdle) {
		t.Fatalf("server advertises neither IMAP4rev2 nor IDLE: %v", c.Caps())
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatalf("SELECT: %v", err)
	}
	idle, err := c.Idle() // returns once the server has answered "+ idling"
	if err != nil {
		t.Fatalf("IDLE: %v", err)
	}
	msg := testMessage("pbem+g1.usa.tok@pbem.localhost", "idle")
	mustSend(t, h, []string{"pbem+g1.usa.tok@pbem.localhost"}, msg)

	notified := waitExists(exists, 1, 10*time.Second)
	if err := idle.Close(); err != nil {
		t.Fatalf("IDLE DONE: %v", err)
	}
	if err := idle.Wait(); err != nil {
		t.Fatalf("IDLE: %v", err)
	}
	if !notified {
		t.Logf("no EXISTS during IDLE; falling back to NOOP")
		if err := c.Noop().Wait(); err != nil {
			t.Fatalf("NOOP: %v", err)
		}
	}
	if n := c.Mailbox().NumMessages; n != 1 {
		t.Fatalf("INBOX has %d messages after delivery, want 1", n)
	}
	got := fetchRange(t, c, 1, 1)
	if want := receivedFor("pbem+g1.usa.tok@pbem.localhost", "ESMTP") + string(msg); string(got[0]) != want {
		t.Errorf("fetched\n%q\nwant\n%q", got[0], want)
	}
}

// TestIdleNoMissedNotification checks that a change made right after IDLE
// starts is announced during IDLE: go-imap's own Idle misses it now and
// then (the server says "+ idling" before it listens), this host's does
// not. It alternates SMTP delivery and IMAP APPEND from another client.
func TestIdleNoMissedNotification(t *testing.T) {
	h := startHost(t, Config{OpenDelivery: true})
	opts, exists := existsWatcher()
	c := loginIMAP(t, h, "pbem", opts)
	other := loginIMAP(t, h, "pbem", nil)
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatalf("SELECT: %v", err)
	}
	smtpc := dialSMTP(t, h)
	const rounds = 60
	for i := uint32(1); i <= rounds; i++ {
		idle, err := c.Idle()
		if err != nil {
			t.Fatalf("round %d: IDLE: %v", i, err)
		}
		msg := testMessage("pbem@pbem.localhost", fmt.Sprintf("round%d", i))
		if i%2 == 0 {
			if err := smtpc.SendMail("player@example.org", []string{"pbem@pbem.localhost"}, bytes.NewReader(msg)); err != nil {
				t.Fatalf("round %d: send: %v", i, err)
			}
		} else {
			a := other.Append("INBOX", int64(len(msg)), nil)
			a.Write(msg)
			a.Close()
			if _, err := a.Wait(); err != nil {
				t.Fatalf("round %d: APPEND: %v", i, err)
			}
		}
		if !waitExists(exists, i, 10*time.Second) {
			t.Fatalf("round %d: no EXISTS %d during IDLE", i, i)
		}
		if err := idle.Close(); err != nil {
			t.Fatalf("round %d: DONE: %v", i, err)
		}
		if err := idle.Wait(); err != nil {
			t.Fatalf("round %d: IDLE: %v", i, err)
		}
	}
}

func TestAuth(t *testing.T) {
	h := startHost(t, Config{OpenDelivery: true})
	tests := []struct {
		name                     string
		identity, user, password string
		ok                       bool
	}{
		{"right password", "", "pbem", "pbem-secret", true},
		{"user name in upper case", "", "PBEM", "pbem-secret", true},
		{"identity equals user", "pbem", "pbem", "pbem-secret", true},
		{"wrong password", "", "pbem", "alice-secret", false},
		{"empty password", "", "pbem", "", false},
		{"unknown user", "", "nobody", "pbem-secret", false},
		{"other identity", "alice", "pbem", "pbem-secret", false},
	}
	for _, tt := range tests {
		t.Run("SMTP "+tt.name, func(t *testing.T) {
			c := dialSMTP(t, h)
			if !c.SupportsAuth(sasl.Plain) {
				t.Fatal("server does not offer AUTH PLAIN")
			}
			err := c.Auth(sasl.NewPlainClient(tt.identity, tt.user, tt.password))
			if !tt.ok {
				if code, _, _ := smtpCode(err); code != 535 {
					t.Fatalf("AUTH = %v, want 535", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("AUTH: %v", err)
			}
			msg := testMessage("alice@pbem.localhost", "auth")
			if err := c.SendMail("pbem@pbem.localhost", []string{"alice@pbem.localhost"}, bytes.NewReader(msg)); err != nil {
				t.Fatalf("send after AUTH: %v", err)
			}
			got := inboxOf(t, h, "alice")
			if want := traceFor("pbem@pbem.localhost", "alice@pbem.localhost", "ESMTPA") + string(msg); string(got[len(got)-1]) != want {
				t.Errorf("delivered\n%q\nwant\n%q", got[len(got)-1], want)
			}
		})
		if tt.identity != "" {
			continue // IMAP LOGIN has no identity
		}
		t.Run("IMAP "+tt.name, func(t *testing.T) {
			c, err := imapclient.DialInsecure(h.IMAPAddr(), nil)
			if err != nil {
				t.Fatalf("dial: %v", err)
			}
			defer c.Close()
			err = c.Login(tt.user, tt.password).Wait()
			if tt.ok != (err == nil) {
				t.Fatalf("LOGIN %s/%s = %v, want ok=%v", tt.user, tt.password, err, tt.ok)
			}
			// AUTHENTICATE PLAIN goes the same way on a fresh connection.
			c2, err := imapclient.DialInsecure(h.IMAPAddr(), nil)
			if err != nil {
				t.Fatalf("dial: %v", err)
			}
			defer c2.Close()
			err = c2.Authenticate(sasl.NewPlainClient("", tt.user, tt.password))
			if tt.ok != (err == nil) {
				t.Fatalf("AUTHENTICATE PLAIN %s/%s = %v, want ok=%v", tt.user, tt.password, err, tt.ok)
			}
		})
	}
}

func TestRefuseNonLoopback(t *testing.T) {
	tests := []struct {
		name        string
		imap, smtp  string
		allowRemote bool
		ok          bool
	}{
		{"defaults", "", "", false, true},
		{"localhost", "localhost:0", "localhost:0", false, true},
		{"127.0.0.1", "127.0.0.1:0", "127.0.0.1:0", false, true},
		{"all interfaces IMAP", ":0", "", false, false},
		{"0.0.0.0 SMTP", "", "0.0.0.0:0", false, false},
		{"public IP", "192.0.2.1:143", "", false, false},
		{"host name", "", "mail.example.org:25", false, false},
		{"bad address", "127.0.0.1", "", false, false},
		{"all interfaces allowed", "0.0.0.0:0", "0.0.0.0:0", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := Start(Config{IMAPAddr: tt.imap, SMTPAddr: tt.smtp, AllowRemote: tt.allowRemote})
			if !tt.ok {
				if err == nil {
					h.Close()
					t.Fatalf("Start(IMAP %q, SMTP %q) succeeded, want an error", tt.imap, tt.smtp)
				}
				// The reason, in words an operator can act on: no Go field
				// names (pbem's configuration has none of them).
				if tt.name != "bad address" && (!strings.Contains(err.Error(), "loopback only") || strings.Contains(err.Error(), "AllowRemote")) {
					t.Errorf("error %q does not say the host listens on loopback only", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Start: %v", err)
			}
			defer h.Close()
			for _, a := range []string{h.IMAPAddr(), h.SMTPAddr()} {
				if _, port, _ := net.SplitHostPort(a); port == "0" || port == "" {
					t.Errorf("address %q has no real port", a)
				}
			}
		})
	}
	for addr, ok := range map[string]bool{"[::1]:1": true, "127.1.2.3:1": true, "LOCALHOST:1": true, "[::]:1": false, "10.0.0.1:1": false} {
		if err := checkLoopback(addr); (err == nil) != ok {
			t.Errorf("checkLoopback(%q) = %v, want ok=%v", addr, err, ok)
		}
	}
}

func TestClose(t *testing.T) {
	h := startHost(t, Config{OpenDelivery: true})
	// Open connections, one of them idling, must be closed too.
	ic := loginIMAP(t, h, "pbem", nil)
	if _, err := ic.Select("INBOX", nil).Wait(); err != nil {
		t.Fatalf("SELECT: %v", err)
	}
	idle, err := ic.Idle()
	if err != nil {
		t.Fatalf("IDLE: %v", err)
	}
	sc := dialSMTP(t, h)

	done := make(chan error, 1)
	go func() { done <- h.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Close: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Close did not return")
	}
	select {
	case <-ic.Closed():
	case <-time.After(5 * time.Second):
		t.Error("IMAP connection still open after Close")
	}
	idle.Close()
	if err := sc.Noop(); err == nil {
		t.Error("SMTP NOOP succeeded after Close")
	}
	for _, a := range []string{h.IMAPAddr(), h.SMTPAddr()} {
		if c, err := net.DialTimeout("tcp", a, 2*time.Second); err == nil {
			c.Close()
			t.Errorf("dial %s succeeded after Close", a)
		}
	}
	if err := h.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestAddUser(t *testing.T) {
	h := startHost(t, Config{OpenDelivery: true})
	if err := h.AddUser("pbem", "pbem-secret"); err != nil {
		t.Errorf("AddUser again with the same password: %v", err)
	}
	if err := h.AddUser("PBEM", "pbem-secret"); err != nil {
		t.Errorf("AddUser again in upper case: %v", err)
	}
	if err := h.AddUser("pbem", "other"); err == nil {
		t.Error("AddUser with another password succeeded")
	}
	for _, name := range []string{"", "a+b", "a@b", "a b", ".a", "é", strings.Repeat("a", 65)} {
		if err := h.AddUser(name, "x"); err == nil {
			t.Errorf("AddUser(%q) succeeded", name)
		}
	}
	if err := h.AddUser("bob", ""); err == nil {
		t.Error("AddUser with an empty password succeeded")
	}
	if err := h.AddUser("Zed.Z-9_", "pw"); err != nil {
		t.Errorf("AddUser(Zed.Z-9_): %v", err)
	}
	if got, want := h.Users(), []string{"alice", "pbem", "zed.z-9_"}; !slices.Equal(got, want) {
		t.Errorf("Users() = %q, want %q", got, want)
	}
	if h.Domain() != DefaultDomain {
		t.Errorf("Domain() = %q", h.Domain())
	}
	// A new user has an empty INBOX over IMAP.
	c, err := imapclient.DialInsecure(h.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("zed.z-9_", "pw").Wait(); err != nil {
		t.Fatalf("LOGIN: %v", err)
	}
	sel, err := c.Select("INBOX", nil).Wait()
	if err != nil || sel.NumMessages != 0 {
		t.Fatalf("SELECT INBOX = %+v, %v", sel, err)
	}
}

// Without OpenDelivery the host is a submission server: mail only after
// AUTH, and only as the authenticated user, in the envelope and in From,
// so no one can send as someone else.
func TestSubmissionNeedsAuthAndTheUsersOwnAddress(t *testing.T) {
	h := startHost(t, Config{})
	own := func(from string) []byte {
		return []byte("From: " + from + "\r\nTo: pbem@pbem.localhost\r\nSubject: orders\r\n\r\nPASS\r\n")
	}
	alice := sasl.NewPlainClient("", "alice", "alice-secret")
	tests := []struct {
		name     string
		auth     sasl.Client
		envelope string
		msg      []byte
		code     int
	}{
		{"no AUTH", nil, "alice@pbem.localhost", own("alice@pbem.localhost"), 530},
		{"another user's envelope", alice, "pbem@pbem.localhost", own("alice@pbem.localhost"), 553},
		{"an outside envelope", alice, "alice@example.org", own("alice@pbem.localhost"), 553},
		{"another user's From", alice, "alice@pbem.localhost", own("pbem@pbem.localhost"), 550},
		{"two From addresses", alice, "alice@pbem.localhost", own("alice@pbem.localhost, pbem@pbem.localhost"), 550},
		{"no From", alice, "alice@pbem.localhost", []byte("Subject: x\r\n\r\nPASS\r\n"), 550},
		{"own address, display name", alice, "alice@pbem.localhost", own("Alice <ALICE@pbem.localhost>"), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(inboxOf(t, h, "pbem"))
			err := send(t, h, tt.auth, tt.envelope, []string{"pbem@pbem.localhost"}, tt.msg)
			after := len(inboxOf(t, h, "pbem"))
			if tt.code == 0 {
				if err != nil || after != before+1 {
					t.Fatalf("send: %v; %d mails delivered", err, after-before)
				}
				return
			}
			if code, _, _ := smtpCode(err); code != tt.code {
				t.Fatalf("got %v, want %d", err, tt.code)
			}
			if after != before {
				t.Fatalf("refused, yet %d mails delivered", after-before)
			}
		})
	}
}

// Mailboxes live in the file: after a restart every message is there
// under the same UID and UIDVALIDITY, with its flags; expunged messages
// stay gone, UIDNEXT does not go back, and mailboxes made, renamed and
// subscribed keep their state.
func TestMailboxesSurviveARestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mailhost.db")
	start := func() *Host {
		h, err := Start(Config{Path: path, OpenDelivery: true, Now: func() time.Time { return fixedNow }})
		if err != nil {
			t.Fatal(err)
		}
		if err := h.AddUser("alice", "alice-secret"); err != nil {
			t.Fatal(err)
		}
		return h
	}
	h := start()
	for i := 0; i < 5; i++ {
		mustSend(t, h, []string{"alice@pbem.localhost"}, testMessage("alice@pbem.localhost", fmt.Sprint("m", i)))
	}
	c := loginIMAP(t, h, "alice", nil)
	before, err := c.Select("INBOX", nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	var del, seen imap.UIDSet
	del.AddNum(2, 5)
	seen.AddNum(1)
	if err := c.Store(del, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Store(seen, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagSeen, "$Custom"}}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Expunge().Close(); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []func() error{
		func() error { return c.Create("Orders", nil).Wait() },
		func() error { return c.Create("Old", nil).Wait() },
		func() error { return c.Rename("Old", "Archive", nil).Wait() },
		func() error { return c.Subscribe("Archive").Wait() },
	} {
		if err := cmd(); err != nil {
			t.Fatal(err)
		}
	}
	var one imap.UIDSet
	one.AddNum(3)
	if _, err := c.Copy(one, "Orders").Wait(); err != nil {
		t.Fatal(err)
	}
	c.Close()
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}

	h = start()
	defer h.Close()
	c = loginIMAP(t, h, "alice", nil)
	after, err := c.Select("INBOX", nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if after.UIDValidity != before.UIDValidity || after.UIDNext != 6 || after.NumMessages != 3 {
		t.Fatalf("INBOX after restart: validity %d (was %d), UIDNEXT %d, %d messages", after.UIDValidity, before.UIDValidity, after.UIDNext, after.NumMessages)
	}
	msgs, err := c.Fetch(imap.SeqSetNum(1, 2, 3), &imap.FetchOptions{UID: true, Flags: true}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range msgs {
		got = append(got, fmt.Sprint(m.UID, m.Flags))
	}
	slices.Sort(got)
	if want := []string{"1 [$custom \\Seen]", "3 []", "4 []"}; !slices.Equal(got, want) {
		t.Fatalf("messages after restart %q, want %q", got, want)
	}
	list, err := c.List("", "*", nil).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range list {
		names = append(names, fmt.Sprintf("%s %v", l.Mailbox, slices.Contains(l.Attrs, imap.MailboxAttrSubscribed)))
	}
	slices.Sort(names)
	if want := []string{"Archive true", "INBOX false", "Orders false"}; !slices.Equal(names, want) {
		t.Fatalf("mailboxes after restart %q, want %q", names, want)
	}
	st, err := c.Status("Orders", &imap.StatusOptions{NumMessages: true}).Wait()
	if err != nil || *st.NumMessages != 1 {
		t.Fatalf("Orders after restart: %v %v", st, err)
	}
	// A new mail takes the next UID, never one given out before.
	mustSend(t, h, []string{"alice@pbem.localhost"}, testMessage("alice@pbem.localhost", "m5"))
	sel, _ := c.Select("INBOX", nil).Wait()
	if sel.UIDNext != 7 {
		t.Fatalf("UIDNEXT after a new mail: %d", sel.UIDNext)
	}
	if ps, err := h.Check(); err != nil || len(ps) > 0 {
		t.Fatalf("check: %v %v", ps, err)
	}
}

// A mailbox file another host holds cannot be opened twice, and a damaged
// one is refused with an error, not a panic.
func TestMailboxFileLockedOrDamaged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mailhost.db")
	h, err := Start(Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Start(Config{Path: path}); err == nil || !strings.Contains(err.Error(), "locked") {
		t.Fatalf("second host on the same file: %v", err)
	}
	h.Close()
	os.WriteFile(path, []byte("not a database at all, just some words"), 0o600)
	if _, err := Start(Config{Path: path}); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("damaged file: %v", err)
	}
}

// With Config.Password the host needs no AddUser for each of many users:
// a user the callback knows logs in and gets mail, its mailboxes made or
// loaded on first use; one it does not know does neither.
func TestUsersKnownByThePasswordCallback(t *testing.T) {
	known := map[string]string{"zoe": "zoe-secret"}
	h := startHost(t, Config{OpenDelivery: true, Password: func(u string) (string, bool) { pw, ok := known[u]; return pw, ok }})
	mustSend(t, h, []string{"zoe@pbem.localhost"}, testMessage("zoe@pbem.localhost", "lazy"))
	c, err := imapclient.DialInsecure(h.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("zoe", "zoe-secret").Wait(); err != nil {
		t.Fatalf("login of a user known by the callback: %v", err)
	}
	if sel, err := c.Select("INBOX", nil).Wait(); err != nil || sel.NumMessages != 1 {
		t.Fatalf("zoe's INBOX: %v %v", sel, err)
	}
	err = send(t, h, nil, "player@example.org", []string{"nobody@pbem.localhost"}, testMessage("nobody@pbem.localhost", "x"))
	if code, _, _ := smtpCode(err); code != 550 {
		t.Fatalf("mail to a user the callback does not know: %v", err)
	}
}
