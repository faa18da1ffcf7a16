package intake

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"

	"pbem/events"
	"pbem/internal/waitfor"
	"pbem/mail/mailhost"
)

func deliver(t *testing.T, host *mailhost.Host, from string, raw []byte) {
	t.Helper()
	c, err := smtp.Dial(host.SMTPAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Hello("player.example"); err != nil {
		t.Fatal(err)
	}
	if err := c.SendMail(from, []string{"pbem@" + domain}, bytes.NewReader(raw)); err != nil {
		t.Fatal(err)
	}
	c.Quit()
}

func startHost(t *testing.T, imapAddr, smtpAddr string) *mailhost.Host {
	t.Helper()
	host, err := mailhost.Start(mailhost.Config{Domain: domain, IMAPAddr: imapAddr, SMTPAddr: smtpAddr, OpenDelivery: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := host.AddUser("pbem", "secret"); err != nil {
		t.Fatal(err)
	}
	return host
}

func TestIntakeLogsInWithLOGINOrAUTHENTICATEPLAIN(t *testing.T) {
	for _, auth := range []string{"login", "plain"} {
		t.Run(auth, func(t *testing.T) {
			st := newGame(t)
			host := startHost(t, "127.0.0.1:0", "127.0.0.1:0")
			defer host.Close()
			in := New(Config{Addr: host.IMAPAddr(), Username: "pbem", Password: "secret", Auth: auth, Local: "pbem", Domain: domain, Secret: secret, Senders: transportAuth}, st)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { in.Run(ctx); close(done) }()
			defer func() { cancel(); <-done }()
			deliver(t, host, "anna@example.org", mail("anna@example.org", reply("usa"), "Re: x", "<a-"+auth+"@x>", "", "PASS\n"))
			waitfor.Until(t, 15*time.Second, "the order", func() bool { return in.Processed() >= 1 })
		})
	}
	st := newGame(t)
	host := startHost(t, "127.0.0.1:0", "127.0.0.1:0")
	defer host.Close()
	in := New(Config{Addr: host.IMAPAddr(), Username: "pbem", Password: "wrong", Auth: "plain", Local: "pbem", Domain: domain, Secret: secret, Senders: transportAuth}, st)
	if err := in.session(context.Background()); err == nil || !strings.Contains(err.Error(), "authenticate PLAIN") {
		t.Fatalf("wrong password: %v", err)
	}
}

func TestIntakeOverIMAPCommitsQuarantinesAndSurvivesAServerRestart(t *testing.T) {
	st := newGame(t)
	host := startHost(t, "127.0.0.1:0", "127.0.0.1:0")
	imapAddr, smtpAddr := host.IMAPAddr(), host.SMTPAddr()
	in := New(Config{Addr: imapAddr, Username: "pbem", Password: "secret", Local: "pbem", Domain: domain, Secret: secret, Senders: transportAuth,
		PollEvery: 200 * time.Millisecond}, st)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); in.Run(ctx) }()
	defer func() { cancel(); wg.Wait() }()

	order := mail("anna@example.org", reply("usa"), "Re: [pbem g1] your move", "<o1@x>", "", "MARCH Newton 2314 2315\n")
	stranger := mail("who@else.example", "pbem@"+domain, "hello", "<q1@x>", "", "Is this the game?\n")
	deliver(t, host, "anna@example.org", order)
	deliver(t, host, "who@else.example", stranger)
	waitfor.Until(t, 15*time.Second, "the intake to log in", func() bool { return in.Sessions() >= 1 })
	waitfor.Until(t, 15*time.Second, "two mails committed", func() bool { return in.Processed() >= 2 })

	es, _ := st.Events("g1", 2)
	q, _ := st.QuarantineList()
	if len(es) != 1 || len(q) != 1 || !strings.Contains(q[0].Reason, "no reply token") {
		t.Fatalf("events %d, quarantine %+v", len(es), q)
	}
	p, _ := events.Decode(&es[0])
	if o := p.(*events.OrderReceived); o.Player != "usa" || o.Text != "MARCH Newton 2314 2315\n" || o.MessageID != "<o1@x>" {
		t.Fatalf("order %+v", o)
	}
	cp, _ := st.Checkpoint("INBOX")
	if cp.UID != 2 || cp.UIDValidity == 0 {
		t.Fatalf("checkpoint %+v", cp)
	}
	// Both are marked \Seen once committed.
	c, err := imapclient.DialInsecure(imapAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Login("pbem", "secret").Wait()
	c.Select("INBOX", nil).Wait()
	waitfor.Until(t, 15*time.Second, "\\Seen flags", func() bool {
		msgs, _ := c.Fetch(imap.SeqSetNum(1, 2), &imap.FetchOptions{Flags: true}).Collect()
		seen := 0
		for _, m := range msgs {
			for _, f := range m.Flags {
				if f == imap.FlagSeen {
					seen++
				}
			}
		}
		return seen == 2
	})
	c.Close()

	// The server restarts with a new, empty mailbox (a new UIDVALIDITY). The
	// intake reconnects; the same order delivered again is no second order.
	host.Close()
	host = startHost(t, imapAddr, smtpAddr)
	defer host.Close()
	waitfor.Until(t, 15*time.Second, "the intake to reconnect", func() bool { return in.Sessions() >= 2 })
	deliver(t, host, "anna@example.org", order)
	second := mail("anna@example.org", reply("usa"), "Re: [pbem g1] your move", "<o2@x>", "", "PASS\n")
	deliver(t, host, "anna@example.org", second)
	waitfor.Until(t, 15*time.Second, "the reconnected intake to take both", func() bool { return in.Processed() >= 4 })
	es, _ = st.Events("g1", 2)
	if len(es) != 2 {
		t.Fatalf("after restart: %d orders, want 2 (the first not duplicated)", len(es))
	}
	if cp2, _ := st.Checkpoint("INBOX"); cp2.UID != 2 {
		t.Fatalf("checkpoint after restart %+v", cp2)
	}
}

// transportAuth is the sender authentication of the tests of how mail is
// carried and read (IMAP, TLS, queues, parsing): their mails are the
// players' own but reach the mailbox without any host's result, so they
// take them in lenient mode; who sent a mail is tested in auth_test.go.
var transportAuth = AuthConfig{Mode: ModeLenient}
