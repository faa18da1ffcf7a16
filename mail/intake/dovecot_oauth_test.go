//go:build linux

package intake

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"

	"pbem/internal/dovecottest"
	"pbem/internal/oauthtest"
	"pbem/internal/syncbuf"
	"pbem/internal/waitfor"
	"pbem/mail/oauth"
)

// cutProxy forwards loopback connections to a server, and cuts them all
// on demand: a network failure between the intake and its IMAP server.
type cutProxy struct {
	Addr  string
	mu    sync.Mutex
	conns []net.Conn
}

func newCutProxy(t *testing.T, to string) *cutProxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{Addr: l.Addr().String()}
	t.Cleanup(func() { l.Close(); p.Cut() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", to)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, s)
			p.mu.Unlock()
			go func() { io.Copy(s, c); s.Close() }()
			go func() { io.Copy(c, s); c.Close() }()
		}
	}()
	return p
}

// Cut closes every connection made so far.
func (p *cutProxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// loginByDevice runs pbem's device-code login against the authority,
// approving it as the user would, and returns the token file.
func loginByDevice(t *testing.T, a *oauthtest.Authority, cfg oauth.Config) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	go func() {
		waitfor.True(30*time.Second, func() bool { return ctx.Err() != nil || a.Approve(oauthtest.UserCode) })
	}()
	var out strings.Builder
	if err := oauth.Login(ctx, cfg, &out, nil); err != nil {
		t.Fatalf("login: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), oauthtest.UserCode) {
		t.Fatalf("the login did not show the code to enter:\n%s", out.String())
	}
	fi, err := os.Stat(cfg.TokenFile)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file mode %v, want 0600", fi.Mode().Perm())
	}
}

type oauthRig struct {
	auth  *oauthtest.Authority
	dc    *dovecottest.Server
	proxy *cutProxy
	src   *oauth.Source
	cfg   oauth.Config
	in    *Intake
	log   *commitLog
	c     *imapclient.Client // the test's own session, by password
	wire  *syncbuf.Buffer    // the intake's log, IMAP wire included
}

// startOAuthIntake runs the intake against a Dovecot that checks every
// bearer token with the authority, through a proxy the test can cut.
func startOAuthIntake(t *testing.T, mech string, lifetime time.Duration) *oauthRig {
	t.Helper()
	r := &oauthRig{auth: oauthtest.Start(t, dovecottest.User, lifetime)}
	r.dc = dovecottest.StartOAuth(t, r.auth.IntrospectURL)
	r.proxy = newCutProxy(t, r.dc.Addr)
	r.cfg = oauth.Config{ClientID: r.auth.ClientID, TokenURL: r.auth.TokenURL, DeviceURL: r.auth.DeviceURL,
		Scopes: []string{"mail"}, TokenFile: filepath.Join(t.TempDir(), "oauth-token.json")}
	loginByDevice(t, r.auth, r.cfg)
	r.src = oauth.NewSource(r.cfg)
	st := newGame(t)
	r.log = &commitLog{Store: st, commits: make(chan commit, 64)}
	r.wire = &syncbuf.Buffer{}
	lg := slog.New(slog.NewTextHandler(r.wire, &slog.HandlerOptions{Level: slog.LevelDebug - 4}))
	r.in = New(Config{Addr: r.proxy.Addr, Username: dovecottest.User, Auth: mech, Tokens: r.src, Local: "pbem", Domain: domain, Secret: secret, Senders: transportAuth,
		PollEvery: 200 * time.Millisecond, Logger: lg}, r.log)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); r.in.Run(ctx) }()
	t.Cleanup(func() { cancel(); wg.Wait() })
	waitfor.Until(t, 15*time.Second, "the intake to log in to Dovecot by "+mech, func() bool { return r.in.Sessions() >= 1 })
	r.c = r.dc.Dial(t, nil)
	return r
}

// order appends an order mail and returns its Message-ID.
func (r *oauthRig) order(t *testing.T, id string) {
	t.Helper()
	appendMail(t, r.c, mail("anna@example.org", reply("usa"), "Re: [pbem g1] your move", id, "", "PASS\nsent as "+id+"\n"))
}

// bearerAccepted reports whether Dovecot takes tok for the user now.
func bearerAccepted(t *testing.T, addr, tok string) bool {
	t.Helper()
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sc, _ := oauth.SASL(oauth.XOAuth2, dovecottest.User, tok, "127.0.0.1", 0)
	return c.Authenticate(sc) == nil
}

func TestOAuthIntakeRefreshesATokenThatExpiresMidRun(t *testing.T) {
	for _, mech := range []string{oauth.XOAuth2, oauth.OAuthBearer} {
		t.Run(mech, func(t *testing.T) {
			const lifetime = 3 * time.Second
			r := startOAuthIntake(t, mech, lifetime)
			first, err := r.src.Token(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			r.order(t, "<o1@x>")
			if c := r.log.next(t); c.key != "<o1@x>" {
				t.Fatalf("commit %+v, want <o1@x>", c)
			}
			refreshed := r.auth.Refreshed()

			// The access token expires while the session goes on; then
			// the connection drops, and the intake must log in again.
			waitfor.Until(t, 2*lifetime, "the first access token to expire", func() bool { return !r.auth.Active(first) })
			if bearerAccepted(t, r.dc.Addr, first) {
				t.Fatal("Dovecot still takes the expired access token: the test proves nothing")
			}
			sessions := r.in.Sessions()
			r.proxy.Cut()
			r.order(t, "<o2@x>")
			if c := r.log.next(t); c.key != "<o2@x>" {
				t.Fatalf("commit %+v after the expiry, want <o2@x>", c)
			}
			if r.in.Sessions() <= sessions {
				t.Fatal("the order after the expiry was read without a new session")
			}
			if r.auth.Refreshed() <= refreshed {
				t.Fatal("the intake logged in again without refreshing its expired token")
			}
			if st := r.in.Status(); st.LastError != "" && !st.Connected {
				t.Fatalf("intake status after the refresh: %+v", st)
			}
			// The wire log, at its most verbose, shows no bearer token.
			wire := r.wire.String()
			if !strings.Contains(wire, "AUTHENTICATE "+strings.ToUpper(mech)+" [redacted]") {
				t.Fatalf("the wire log has no redacted login:\n%s", tail(wire, 2000))
			}
			if strings.Contains(wire, first) || strings.Contains(wire, "auth=Bearer") {
				t.Fatal("the wire log shows an access token")
			}
		})
	}
}

func TestOAuthIntakeStopsOnARevokedRefreshTokenAndLosesNoMail(t *testing.T) {
	r := startOAuthIntake(t, oauth.XOAuth2, time.Hour)
	r.order(t, "<r1@x>")
	if c := r.log.next(t); c.key != "<r1@x>" {
		t.Fatalf("commit %+v, want <r1@x>", c)
	}

	// The user withdraws pbem's access at the provider: the refresh token
	// and the access token die. The connection drops; an order arrives.
	r.auth.Revoke()
	r.proxy.Cut()
	r.order(t, "<r2@x>")
	waitfor.Until(t, 15*time.Second, "the intake to report the refused refresh token", func() bool {
		return strings.Contains(r.in.Status().LastError, "invalid_grant")
	})
	st := r.in.Status()
	for _, want := range []string{"revoked", "pbem mail login", r.cfg.TokenFile} {
		if !strings.Contains(st.LastError, want) {
			t.Errorf("intake error %q does not say %q", st.LastError, want)
		}
	}
	if st.Connected || st.FailingSince.IsZero() {
		t.Errorf("intake status %+v, want disconnected and failing", st)
	}
	tokenFile, _ := os.ReadFile(r.cfg.TokenFile)
	var stored struct {
		RefreshToken string `json:"refresh_token"`
	}
	if err := json.Unmarshal(tokenFile, &stored); err != nil || stored.RefreshToken == "" {
		t.Fatalf("token file: %v", err)
	}
	if strings.Contains(st.LastError, stored.RefreshToken) {
		t.Fatal("the intake's error shows the refresh token")
	}
	// The refused refresh token is not offered again and again: not when
	// the intake, after the session the refusal ended, tries once more.
	refused := r.auth.Refused()
	retries := func() int {
		n := 0
		for _, l := range strings.Split(r.wire.String(), "\n") {
			if strings.Contains(l, "IMAP session ended; reconnecting") && strings.Contains(l, "invalid_grant") {
				n++
			}
		}
		return n
	}
	waitfor.Until(t, 15*time.Second, "the intake to log the session the refusal ended", func() bool { return retries() >= 1 })
	ended := retries()
	waitfor.Until(t, 15*time.Second, "the intake to try again after the refusal", func() bool { return retries() > ended })
	if n := r.auth.Refused() - refused; n > 0 {
		t.Errorf("the revoked refresh token was offered %d more times", n)
	}
	select {
	case c := <-r.log.commits:
		t.Fatalf("commit %+v while logged out", c)
	default:
	}

	// The operator logs in again: the intake takes the new refresh token
	// from the file without a restart, and the order that waited in the
	// mailbox is read.
	loginByDevice(t, r.auth, r.cfg)
	select {
	case c := <-r.log.commits:
		if c.key != "<r2@x>" || c.duplicate {
			t.Fatalf("commit %+v after the new login, want the waiting order <r2@x>", c)
		}
	case <-time.After(30 * time.Second): // the reconnection's backoff
		t.Fatalf("the order that waited was not read after the new login; intake: %+v", r.in.Status())
	}
	waitfor.Until(t, 15*time.Second, "the intake to report itself connected", func() bool { return r.in.Status().Connected })
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
