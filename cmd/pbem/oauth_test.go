//go:build linux

package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"pbem/demo"
	"pbem/demo/servetest"
	"pbem/internal/dovecottest"
	"pbem/internal/oauthtest"
	"pbem/internal/postfixtest"
	"pbem/internal/waitfor"
	"pbem/mail/mailhost"
)

// mailLogin runs 'pbem mail login', approving the device login at the
// authority as the operator would in a browser.
func mailLogin(r *servetest.World, a *oauthtest.Authority) string {
	r.T.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// Until approved, or 'pbem mail login' has returned.
		waitfor.True(time.Hour, func() bool { return ctx.Err() != nil || a.Approve(oauthtest.UserCode) })
	}()
	return r.Pbem("mail", "login")
}

// The game mailbox at a provider that takes OAuth bearer tokens only:
// pbem serve reads it over IMAP by OAUTHBEARER from Dovecot, and sends by
// XOAUTH2 (as Gmail and Microsoft 365 take it) through a Postfix whose SMTP AUTH is Dovecot's, which
// checks every token with the provider's introspection endpoint. The
// provider revokes pbem's grant: /healthz says so and what to do, the
// reply that could not go out waits, and after a new 'pbem mail login'
// (the server still running) it reaches the player.
func TestOAuthServeReadsAndSendsThroughDovecotAndPostfix(t *testing.T) {
	t.Parallel()
	auth := oauthtest.Start(t, dovecottest.User, time.Hour)
	dc := dovecottest.StartOAuth(t, auth.IntrospectURL)
	host, err := mailhost.Start(mailhost.Config{Domain: "players.test", OpenDelivery: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	pf := postfixtest.Start(t, postfixtest.Config{Domain: "game.test", Mailbox: dovecottest.User, Maildir: dc.Maildir,
		UID: dc.MailUID, GID: dc.MailGID, Relay: map[string]string{"players.test": host.SMTPAddr()}, SASLPath: dc.SASLSocket})

	// Postfix relays for no one who has not logged in: the OAuth login is
	// what lets pbem's mail out.
	if c, err := smtp.Dial(pf.Addr); err != nil {
		t.Fatal(err)
	} else {
		c.Hello("stranger.test")
		if err := c.SendMail("pbem@game.test", []string{"anna@players.test"}, strings.NewReader("Subject: x\r\n\r\nx\r\n")); err == nil ||
			!strings.Contains(err.Error(), "Relay access denied") {
			t.Fatalf("Postfix relayed for a client that did not log in: %v", err)
		}
		c.Close()
	}

	metricsAddr := freeAddr(t)
	r := &servetest.World{T: t, Bin: pbemBin, CmdBin: contentBin, PF: pf, Dir: t.TempDir(), Queued: map[string][]demo.Mail{},
		Env: []string{"PBEM_MAIL_DOMAIN=game.test", "PBEM_MAIL_RATE_PER_HOUR=1000",
			"PBEM_MAIL_IMAP_ADDR=" + dc.Addr, "PBEM_MAIL_IMAP_USERNAME=" + dovecottest.User, "PBEM_MAIL_IMAP_AUTH=oauthbearer",
			"PBEM_MAIL_IMAP_POLL=1s", "PBEM_MAIL_SMTP_ADDR=" + pf.Addr, "PBEM_MAIL_SMTP_USERNAME=" + dovecottest.User,
			"PBEM_MAIL_SMTP_AUTH=xoauth2", "PBEM_MAIL_AUTHSERV_ID=" + testAuthservID,
			"PBEM_MAIL_OAUTH_PROVIDER=custom", "PBEM_MAIL_OAUTH_CLIENT_ID=" + auth.ClientID,
			"PBEM_MAIL_OAUTH_TOKEN_URL=" + auth.TokenURL, "PBEM_MAIL_OAUTH_DEVICE_URL=" + auth.DeviceURL, "PBEM_MAIL_OAUTH_SCOPES=mail",
			"PBEM_METRICS_LISTEN=" + metricsAddr, "PBEM_METRICS_STUCK_AFTER=1s"}}
	out := mailLogin(r, auth)
	tokenFile := filepath.Join(r.Dir, "oauth-token.json")
	if !strings.Contains(out, oauthtest.UserCode) || !strings.Contains(out, tokenFile) {
		t.Fatalf("pbem mail login said:\n%s", out)
	}
	if fi, err := os.Stat(tokenFile); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v %v, want mode 0600", fi.Mode(), err)
	}
	// A mail for every action: the test reads each one's report.
	r.Pbem("new", "--game", "g1", "--ruleset", "gcacw", "--scenario", "harrow-creek", "--mail", "every",
		"--player", "anna:USA:anna@players.test:Anna", "--player", "taro:CSA:taro@players.test:Taro")
	r.People = servetest.Mailboxes(t, host, "anna", "taro")
	srv := startServe(t, r.Dir, r.Env...)
	defer func() { stopServe(t, srv) }()

	welcome := r.Next("anna", "Welcome: you play USA")
	taroWelcome := r.Next("taro", "Welcome: you play CSA")
	r.Send("anna@players.test", welcome.ReplyTo, r.Reply("anna", welcome, "", "PASS"))
	if rep := r.Next("anna", "Report"); !strings.Contains(rep.Body, "USA ends its Leader Transfer Phase") {
		t.Fatalf("anna's report:\n%s", rep.Body)
	}
	if code, body := healthz(t, metricsAddr); code != 200 {
		t.Fatalf("/healthz %d %q while all is well", code, body)
	}
	if m := scrape(t, metricsAddr); m["pbem_oauth_token_refreshes_total"] < 1 || m["pbem_oauth_needs_login"] != 0 {
		t.Fatalf("oauth metrics while all is well: refreshes %v, needs_login %v", m["pbem_oauth_token_refreshes_total"], m["pbem_oauth_needs_login"])
	}

	r.Next("taro", "")

	// The outbox keeps an SMTP session open for a while after its last
	// mail, logged in before the revocation, and Postfix takes mail on it
	// without asking the provider again: a revocation is noticed at pbem's
	// next login, which is what follows. So the revocation comes once
	// every session Postfix has open is closed (else an answer could still
	// go out on one, as it did on a loaded machine).
	waitfor.Until(t, 30*time.Second, "pbem's SMTP sessions to close", func() bool {
		logs := pf.Logs()
		return strings.Count(logs, "]: connect from ") == strings.Count(logs, "]: disconnect from ")
	})
	// The grant is revoked. Taro's order still comes in (the intake's
	// session was opened before), but the answers cannot go out.
	auth.Revoke()
	r.Send("taro@players.test", taroWelcome.ReplyTo, r.Reply("taro", taroWelcome, "", "PASS"))
	var body string
	waitfor.Until(t, 30*time.Second, "/healthz to report the refused refresh token", func() bool {
		var code int
		code, body = healthz(t, metricsAddr)
		return code == 503 && strings.Contains(body, "pbem mail login")
	})
	if !strings.Contains(body, "invalid_grant") || !strings.Contains(body, tokenFile) {
		t.Errorf("/healthz says %q", body)
	}
	if m := scrape(t, metricsAddr); m["pbem_oauth_needs_login"] != 1 || m["pbem_oauth_token_failures_total"] < 1 {
		t.Errorf("oauth metrics after the revocation: needs_login %v, failures %v", m["pbem_oauth_needs_login"], m["pbem_oauth_token_failures_total"])
	}
	rt, _ := os.ReadFile(tokenFile)
	if logs := srv.Stderr.(interface{ String() string }).String(); strings.Contains(logs, refreshTokenOf(t, rt)) {
		t.Fatal("serve's log shows the refresh token")
	}

	// A new login while the server runs: the waiting mail goes out.
	if log := r.Pbem("log", "g1"); !strings.Contains(log, "from taro via mail") || strings.Count(log, "mail.sent") != 4 {
		t.Fatalf("before the new login, taro's order is not in the log or an answer went out:\n%s", tail(log, 20))
	}
	mailLogin(r, auth)
	r.Next("anna", "")
	r.Next("taro", "")
	waitfor.Until(t, 30*time.Second, "/healthz to be well again", func() bool { code, _ := healthz(t, metricsAddr); return code == 200 })
}

func refreshTokenOf(t *testing.T, file []byte) string {
	t.Helper()
	_, after, ok := strings.Cut(string(file), `"refresh_token": "`)
	tok, _, ok2 := strings.Cut(after, `"`)
	if !ok || !ok2 || tok == "" {
		t.Fatalf("no refresh token in the token file:\n%s", file)
	}
	return tok
}
