//go:build linux

package intake

import (
	"context"
	"crypto/tls"
	"fmt"
	"testing"
	"time"

	"pbem/events"
	"pbem/internal/dovecottest"
	"pbem/internal/waitfor"
)

// The intake reads the game mailbox over STARTTLS and over implicit TLS,
// verifying the server's certificate (a real Dovecot with its own CA).
func TestIntakeOverSTARTTLSAndTLSWithDovecot(t *testing.T) {
	dc := dovecottest.StartTLS(t)
	for i, tc := range []struct{ mode, addr string }{{"starttls", dc.Addr}, {"tls", dc.TLSAddr}} {
		t.Run(tc.mode, func(t *testing.T) {
			st := newGame(t)
			in := New(Config{Addr: tc.addr, TLS: tc.mode, TLSConfig: &tls.Config{RootCAs: dc.Roots},
				Username: dovecottest.User, Password: dovecottest.Password, Local: "pbem", Domain: domain, Secret: secret, Senders: transportAuth}, st)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { in.Run(ctx); close(done) }()
			defer func() { cancel(); <-done }()
			waitfor.Until(t, 15*time.Second, "the intake to log in over "+tc.mode, func() bool { return in.Sessions() >= 1 })
			appendMail(t, dc.Dial(t, nil), mail("anna@example.org", reply("usa"), "Re: x", fmt.Sprintf("<tls-%d@x>", i), "", "PASS\n# over "+tc.mode+"\n"))
			want := fmt.Sprintf("<tls-%d@x>", i)
			waitfor.Until(t, 15*time.Second, "the order", func() bool {
				es, _ := st.Events("g1", 2)
				for j := range es {
					if p, _ := events.Decode(&es[j]); p != nil {
						if o, ok := p.(*events.OrderReceived); ok && o.MessageID == want {
							return true
						}
					}
				}
				return false
			})
		})
	}
	// A certificate the intake does not trust is refused.
	st := newGame(t)
	in := New(Config{Addr: dc.TLSAddr, TLS: "tls", Username: dovecottest.User, Password: dovecottest.Password, Local: "pbem", Domain: domain, Secret: secret, Senders: transportAuth}, st)
	if err := in.session(context.Background()); err == nil {
		t.Fatal("an untrusted certificate was accepted")
	}
}
