package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"pbem/internal/waitfor"
	"pbem/mail/mailhost"
)

// scrape reads /metrics and returns each sample, "name{labels}" → value.
func scrape(t *testing.T, addr string) map[string]float64 {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Fatalf("/metrics Content-Type %q; want the Prometheus text format", ct)
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("metrics line %q: %v", line, err)
		}
		out[line[:i]] = v
	}
	return out
}

// healthz returns /healthz's status code and body.
func healthz(t *testing.T, addr string) (int, string) {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// Metrics and health, scraped: the figures follow what happens
// — orders decided, mails taken and quarantined by reason, mails sent —
// and /healthz answers 503, saying why, while the mail host is away and
// the outbox and the intake are stuck, and 200 again once it is back.
func TestMetricsAndHealthAreScraped(t *testing.T) {
	t.Parallel()
	hostFile := filepath.Join(t.TempDir(), "host.db")
	startHost := func(imapAddr, smtpAddr string) *mailhost.Host {
		h, err := mailhost.Start(mailhost.Config{Path: hostFile, Domain: "game.test", IMAPAddr: imapAddr, SMTPAddr: smtpAddr})
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range []string{"pbem", "anna", "taro"} {
			if err := h.AddUser(u, u+"-pw"); err != nil {
				t.Fatal(err)
			}
		}
		return h
	}
	host := startHost("127.0.0.1:0", "127.0.0.1:0")
	imapAddr, smtpAddr := host.IMAPAddr(), host.SMTPAddr()
	defer func() { host.Close() }()
	metricsAddr := freeAddr(t)
	env := []string{"PBEM_MAIL_DOMAIN=game.test", "PBEM_MAIL_IMAP_ADDR=" + imapAddr, "PBEM_MAIL_IMAP_USERNAME=pbem", "PBEM_MAIL_IMAP_PASSWORD=pbem-pw",
		"PBEM_MAIL_SMTP_ADDR=" + smtpAddr, "PBEM_MAIL_SMTP_USERNAME=pbem", "PBEM_MAIL_SMTP_PASSWORD=pbem-pw", "PBEM_MAIL_IMAP_POLL=200ms",
		"PBEM_METRICS_LISTEN=" + metricsAddr, "PBEM_METRICS_STUCK_AFTER=1s",
		// The host that receives the game's mail names the logged-in user
		// in its Authentication-Results, under its domain.
		"PBEM_MAIL_AUTHSERV_ID=game.test"}
	dir := t.TempDir()
	if out, errOut, code := pbem(t, env, "--data-dir", dir, "new", "--game", "g1", "--ruleset", "gcacw", "--scenario", "harrow-creek",
		"--player", "anna:USA:anna@game.test:Anna", "--player", "taro:CSA:taro@game.test:Taro"); code != 0 {
		t.Fatalf("new: %s %s", out, errOut)
	}
	srv := startServe(t, dir, env...)
	defer stopServe(t, srv)
	waitfor.Until(t, 20*time.Second, "the welcome mails to go out", func() bool { return scrape(t, metricsAddr)["pbem_outbox_sent_total"] == 2 })
	if code, body := healthz(t, metricsAddr); code != 200 || strings.TrimSpace(body) != "ok" {
		t.Fatalf("/healthz %d %q while all is well", code, body)
	}

	// An order and a stray mail arrive.
	send := func(user, to, body string) {
		t.Helper()
		c, err := smtp.Dial(smtpAddr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.Hello("client.test")
		if err := c.Auth(sasl.NewPlainClient("", user, user+"-pw")); err != nil {
			t.Fatal(err)
		}
		msg := fmt.Sprintf("From: %s@game.test\r\nTo: %s\r\nSubject: Re: [pbem g1] welcome\r\nMessage-ID: <%d@game.test>\r\n\r\n%s\r\n", user, to, time.Now().UnixNano(), body)
		if err := c.SendMail(user+"@game.test", []string{to}, strings.NewReader(msg)); err != nil {
			t.Fatal(err)
		}
	}
	reply := regexp.MustCompile(`pbem\+g1\.anna\.[a-z2-7]{16}@game\.test`)
	var annaReply string
	waitfor.Until(t, 10*time.Second, "Anna's welcome", func() bool {
		for _, m := range readInbox(t, imapAddr, "anna", "anna-pw") {
			if a := reply.Find(m); a != nil {
				annaReply = string(a)
			}
		}
		return annaReply != ""
	})
	send("anna", annaReply, "STATUS")
	send("taro", "pbem@game.test", "Is this the game?")
	waitfor.Until(t, 20*time.Second, "the order decided and answered", func() bool {
		m := scrape(t, metricsAddr)
		// Settled: the reply is sent and its sending recorded; Taro's
		// mail without a key, from his registered address, is answered
		// with how to reply (never quarantined in silence).
		return m[`pbem_orders_total{outcome="accepted"}`] == 1 && m["pbem_outbox_sent_total"] == 4 &&
			m[`pbem_mails_quarantined_total{reason="no_token"}`] == 0 && m["pbem_outbox_queued"] == 0
	})
	m := scrape(t, metricsAddr)
	for name, want := range map[string]func(float64) bool{
		"pbem_mails_taken_total":                     func(v float64) bool { return v == 2 },
		`pbem_orders_total{outcome="rejected"}`:      func(v float64) bool { return v == 0 },
		"pbem_events_appended_total":                 func(v float64) bool { return v >= 4 },
		"pbem_store_commits_total":                   func(v float64) bool { return v >= 2 },
		"pbem_games":                                 func(v float64) bool { return v == 1 },
		"pbem_games_loaded":                          func(v float64) bool { return v == 1 },
		"pbem_decision_seconds_count":                func(v float64) bool { return v == 1 },
		"pbem_game_load_seconds_count":               func(v float64) bool { return v >= 1 },
		"pbem_intake_connected":                      func(v float64) bool { return v == 1 },
		"pbem_intake_lag_seconds":                    func(v float64) bool { return v < 1 },
		"pbem_outbox_queued":                         func(v float64) bool { return v == 0 },
		"pbem_outbox_retrying":                       func(v float64) bool { return v == 0 },
		"pbem_outbox_unrecorded":                     func(v float64) bool { return v == 0 },
		"pbem_outbox_oldest_age_seconds":             func(v float64) bool { return v == 0 },
		"pbem_outbox_failed_attempts_total":          func(v float64) bool { return v == 0 },
		"pbem_mails_without_host_auth_results_total": func(v float64) bool { return v == 0 },
		`pbem_decision_seconds_bucket{le="+Inf"}`:    func(v float64) bool { return v == 1 },
	} {
		v, ok := m[name]
		if !ok || !want(v) {
			t.Errorf("%s = %v (present %v)", name, v, ok)
		}
	}

	// The mail host goes away: an order given on the server waits in the
	// outbox, the intake has no session, and /healthz says both.
	host.Close()
	if out, errOut, code := pbem(t, nil, "--data-dir", dir, "order", "g1", "--player", "taro", "STATUS"); code != 0 {
		t.Fatalf("order: %s %s", out, errOut)
	}
	var body string
	waitfor.Until(t, 20*time.Second, "/healthz to say the outbox and the intake are stuck", func() bool {
		var code int
		code, body = healthz(t, metricsAddr)
		return code == 503 && strings.Contains(body, "outbox: no mail delivered") && strings.Contains(body, "intake: no working session")
	})
	t.Logf("/healthz while the mail host is away:\n%s", body)
	m = scrape(t, metricsAddr)
	if m["pbem_outbox_queued"] != 1 || m["pbem_outbox_retrying"] != 1 || m["pbem_outbox_oldest_age_seconds"] <= 0 ||
		m["pbem_outbox_failed_attempts_total"] < 1 || m["pbem_intake_connected"] != 0 {
		t.Errorf("metrics while the mail host is away: queued %v retrying %v oldest %v failed %v intake %v",
			m["pbem_outbox_queued"], m["pbem_outbox_retrying"], m["pbem_outbox_oldest_age_seconds"], m["pbem_outbox_failed_attempts_total"], m["pbem_intake_connected"])
	}

	// It comes back on the same ports: the reply goes out, and all is well.
	host = startHost(imapAddr, smtpAddr)
	waitfor.Until(t, 60*time.Second, "the waiting reply to go out and /healthz to recover", func() bool {
		code, _ := healthz(t, metricsAddr)
		return code == 200 && scrape(t, metricsAddr)["pbem_outbox_queued"] == 0
	})

	// A mail put straight into the game mailbox carries no field of the
	// host's: it is unauthenticated, counted, and /healthz warns (still
	// 200: nothing is stuck) that the host seems not to add its field.
	c, err := imapclient.DialInsecure(imapAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("pbem", "pbem-pw").Wait(); err != nil {
		t.Fatal(err)
	}
	raw := "From: anna@game.test\r\nTo: " + annaReply + "\r\nSubject: Re: [pbem g1] welcome\r\nMessage-ID: <unfielded@game.test>\r\n\r\nSTATUS\r\n"
	cmd := c.Append("INBOX", int64(len(raw)), nil)
	cmd.Write([]byte(raw))
	cmd.Close()
	if _, err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	waitfor.Until(t, 20*time.Second, "/healthz to warn of a mail without the host's field", func() bool {
		code, body := healthz(t, metricsAddr)
		return code == 200 && strings.HasPrefix(body, "ok\n") && strings.Contains(body, "seems not to add its field") &&
			scrape(t, metricsAddr)["pbem_mails_without_host_auth_results_total"] == 1
	})
}
