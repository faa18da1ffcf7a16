package servetest

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"pbem/demo"
	"pbem/internal/dovecottest"
	"pbem/internal/postfixtest"
	"pbem/internal/syncbuf"
	"pbem/internal/waitfor"
	"pbem/mail/mailhost"
)

// AuthservID is the authserv-id of the host that receives a World's game
// mail (its Postfix writes no Authentication-Results: a test that needs
// the host's field hands it in on top, as the host would write it).
const AuthservID = "mx.game.test"

// A World is a game server (the pbem binary Bin, on data directory Dir
// with environment Env) whose game mailbox is read from a real Dovecot
// behind a real Postfix (PF), its players, referee and forgers with
// mailboxes on a mail host of their own (People), which Postfix relays
// pbem's mail to. A test may make one of its own parts (another Dovecot,
// a mail host alone) and fill in the fields.
type World struct {
	T   *testing.T
	Bin string
	// CmdBin runs the commands that do not serve (Pbem; Bin when empty):
	// a test that serves on a race-built Bin gives the pbem binary built
	// without -race (BuildWithoutRace) here, for a command does one thing
	// at a time and the tests poll with them ('pbem log', 'pbem quarantine').
	CmdBin  string
	PF      *postfixtest.Server // nil: no Postfix
	Env     []string
	Dir     string
	Metrics string // host:port of /metrics and /healthz, if served
	People  map[string]*demo.Mailbox
	Queued  map[string][]demo.Mail // fetched, not yet looked at
	N       int                    // the mails Reply has written

	srv *exec.Cmd // the serve World.Serve started
}

// WorldConfig says what game NewWorld makes.
type WorldConfig struct {
	RatePerHour int      // mails an hour taken from a sender
	CmdBin      string   // see World.CmdBin
	NewArgs     []string // more arguments to 'pbem new' for g1 (a referee, say)
	People      []string // the mailboxes on the players' host
}

// NewWorld makes the servers and game g1 (anna plays USA, taro CSA, a
// mail for every action) with pbem binary bin; more games are made with
// w.Pbem("new", ...) before the server is started.
func NewWorld(t *testing.T, bin string, cfg WorldConfig) *World {
	t.Helper()
	dc := dovecottest.Start(t)
	host, err := mailhost.Start(mailhost.Config{Domain: "players.test", OpenDelivery: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	pf := postfixtest.Start(t, postfixtest.Config{Domain: "game.test", Mailbox: dovecottest.User, Maildir: dc.Maildir,
		UID: dc.MailUID, GID: dc.MailGID, Relay: map[string]string{"players.test": host.SMTPAddr()}})
	metrics := FreeAddr(t)
	w := &World{T: t, Bin: bin, CmdBin: cfg.CmdBin, PF: pf, Dir: t.TempDir(), Queued: map[string][]demo.Mail{}, Metrics: metrics,
		Env: []string{"PBEM_MAIL_DOMAIN=game.test", fmt.Sprintf("PBEM_MAIL_RATE_PER_HOUR=%d", cfg.RatePerHour),
			"PBEM_MAIL_IMAP_ADDR=" + dc.Addr, "PBEM_MAIL_IMAP_USERNAME=" + dovecottest.User, "PBEM_MAIL_IMAP_PASSWORD=" + dovecottest.Password,
			"PBEM_MAIL_IMAP_POLL=1s", "PBEM_MAIL_SMTP_ADDR=" + pf.Addr, "PBEM_MAIL_AUTHSERV_ID=" + AuthservID,
			"PBEM_METRICS_LISTEN=" + metrics}}
	w.Pbem(append([]string{"new", "--game", "g1", "--ruleset", "gcacw", "--scenario", "harrow-creek",
		"--player", "anna:USA:anna@players.test:Anna", "--player", "taro:CSA:taro@players.test:Taro",
		"--mail", "every"}, cfg.NewArgs...)...) // a mail for every action: these tests follow each one
	w.People = Mailboxes(t, host, cfg.People...)
	return w
}

// Pbem runs a pbem command on the world's data directory and returns its
// output; it fails the test if the command fails.
func (w *World) Pbem(args ...string) string {
	w.T.Helper()
	bin := w.CmdBin
	if bin == "" {
		bin = w.Bin
	}
	out, errOut, code, err := Run(bin, w.Env, append([]string{"--data-dir", w.Dir}, args...)...)
	if err != nil {
		w.T.Fatal(err)
	}
	if code != 0 {
		w.T.Fatalf("pbem %v: exit %d\n%s\n%s", args, code, out, errOut)
	}
	return out
}

// Serve starts 'pbem serve'; if resolvConf is set, in a mount namespace
// of its own where /etc/resolv.conf is that file (the DNS server pbem
// asks for DKIM keys), the rest of the machine untouched. It is stopped
// when the test ends, and must stop cleanly.
func (w *World) Serve(resolvConf string) {
	w.T.Helper()
	args := []string{"--data-dir", w.Dir, "serve"}
	cmd := exec.Command(w.Bin, args...)
	if resolvConf != "" {
		cmd = exec.Command("unshare", append([]string{"--mount", "--propagation", "private", "sh", "-c",
			`mount --bind "$0" /etc/resolv.conf && exec "$@"`, resolvConf, w.Bin}, args...)...)
	}
	cmd.Env = append(os.Environ(), w.Env...)
	w.srv = Start(w.T, cmd, w.Dir)
	w.T.Cleanup(func() { Stop(w.T, cmd) })
}

// ServeLog is what the server World.Serve started has written to its
// stderr so far.
func (w *World) ServeLog() string {
	if w.srv == nil {
		return ""
	}
	return w.srv.Stderr.(*syncbuf.Buffer).String()
}

// Healthz returns /healthz's body.
func (w *World) Healthz() string {
	w.T.Helper()
	resp, err := http.Get("http://" + w.Metrics + "/healthz")
	if err != nil {
		w.T.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// Metric returns the value of the unlabelled metric name on /metrics.
func (w *World) Metric(name string) string {
	w.T.Helper()
	resp, err := http.Get("http://" + w.Metrics + "/metrics")
	if err != nil {
		w.T.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + ` (\S+)$`).FindStringSubmatch(string(b))
	if m == nil {
		w.T.Fatalf("no metric %s on /metrics", name)
	}
	return m[1]
}

// Next waits for who's next mail whose first line (what it is) starts
// with kind, and removes it and the mails before it.
func (w *World) Next(who, kind string) demo.Mail {
	w.T.Helper()
	return w.find(who, "", kind, true)
}

// Take is Next for mails whose order of arrival is not fixed (Postfix
// may deliver two mails queued together in either order): it removes
// only the mail it returns. game, if set, is the game its subject names.
func (w *World) Take(who, game, kind string) demo.Mail {
	w.T.Helper()
	return w.find(who, game, kind, false)
}

func (w *World) find(who, game, kind string, dropEarlier bool) demo.Mail {
	w.T.Helper()
	var got demo.Mail
	if waitfor.True(45*time.Second, func() bool {
		w.Fetch(who)
		for i, m := range w.Queued[who] {
			if strings.HasPrefix(m.Kind, kind) && (game == "" || strings.HasPrefix(m.Subject, "[pbem "+game+"]")) {
				got = m
				if dropEarlier {
					w.Queued[who] = w.Queued[who][i+1:]
				} else {
					w.Queued[who] = append(w.Queued[who][:i:i], w.Queued[who][i+1:]...)
				}
				return true
			}
		}
		return false
	}) {
		return got
	}
	var postfix string
	if w.PF != nil {
		postfix = Tail(w.PF.Logs(), 20)
	}
	w.T.Fatalf("%s got no %q mail%s\nquarantine:\n%s\nlog:\n%s\nserve:\n%s\npostfix:\n%s", who, kind, w.kinds(who), w.Pbem("quarantine"),
		Tail(w.Pbem("log", "g1"), 40), Tail(w.ServeLog(), 20), postfix)
	return demo.Mail{}
}

// Fetch moves who's new mails to the queue.
func (w *World) Fetch(who string) {
	w.T.Helper()
	ms, err := w.People[who].FetchNew()
	if err != nil {
		w.T.Fatal(err)
	}
	w.Queued[who] = append(w.Queued[who], ms...)
}

// kinds lists the kinds of who's queued mails, for a failure.
func (w *World) kinds(who string) string {
	var b strings.Builder
	for _, m := range w.Queued[who] {
		fmt.Fprintf(&b, "\n  queued: %s: %s", m.Subject, m.Kind)
	}
	return b.String()
}

// Count returns how many of who's queued mails start with kind, after a
// last look at the mailbox.
func (w *World) Count(who, kind string) int {
	w.T.Helper()
	w.Fetch(who)
	n := 0
	for _, m := range w.Queued[who] {
		if strings.HasPrefix(m.Kind, kind) {
			n++
		}
	}
	return n
}

// None checks that who got no new mail.
func (w *World) None(who string) {
	w.T.Helper()
	w.Fetch(who)
	for _, m := range w.Queued[who] {
		w.T.Errorf("%s got a mail: %s\n%s", who, m.Kind, m.Body)
	}
	w.Queued[who] = nil
}

// Send hands raw to Postfix from the envelope sender, for rcpt, from the
// players' own server (SPF passes for the envelope).
func (w *World) Send(envelope, rcpt, raw string) {
	w.T.Helper()
	w.SendWith("spf=pass smtp.mailfrom="+envelope, envelope, rcpt, raw)
}

// SendWith is Send with the results the receiving host finds for the
// mail: this Postfix has no SPF, DKIM or DMARC service to find them, so
// the client hands them in as the host's field, on top. Empty results:
// the host writes no field.
func (w *World) SendWith(results, envelope, rcpt, raw string) {
	w.T.Helper()
	if results != "" {
		raw = "Authentication-Results: " + AuthservID + "; " + results + "\r\n" + raw
	}
	c, err := smtp.Dial(w.PF.Addr)
	if err != nil {
		w.T.Fatal(err)
	}
	defer c.Close()
	if err := c.Hello("client.players.test"); err != nil {
		w.T.Fatal(err)
	}
	if err := c.SendMail(envelope, []string{rcpt}, strings.NewReader(raw)); err != nil {
		w.T.Fatal(err)
	}
	c.Quit()
}

// Reply is a mail client's answer to m from who: to its Reply-To,
// threaded, quoting it; extra is more header fields, body the new text.
func (w *World) Reply(who string, m demo.Mail, extra, body string) string {
	w.N++
	quoted := "> " + strings.ReplaceAll(strings.TrimRight(m.Body, "\n"), "\n", "\n> ")
	return fmt.Sprintf("From: %s <%s@players.test>\r\nTo: %s\r\nSubject: Re: %s\r\nMessage-ID: <%s-%d@players.test>\r\nDate: %s\r\n"+
		"In-Reply-To: <%s>\r\nReferences: <%s>\r\n%sContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n\r\nOn %s, pbem wrote:\r\n%s\r\n",
		strings.ToUpper(who[:1])+who[1:], who, m.ReplyTo, m.Subject, who, w.N, time.Now().UTC().Format(time.RFC1123Z),
		m.MessageID, m.MessageID, extra, strings.ReplaceAll(body, "\n", "\r\n"), m.Date.Format("Mon, 2 Jan 2006 at 15:04"), strings.ReplaceAll(quoted, "\n", "\r\n"))
}

// Forge is Reply written by eve in who's name: the same mail under a
// Message-ID of eve's.
func (w *World) Forge(who string, m demo.Mail, extra, body string) string {
	return strings.Replace(w.Reply(who, m, extra, body), "Message-ID: <"+who+"-", "Message-ID: <eve-as-"+who+"-", 1)
}

// WaitLog waits until 'pbem log game' holds want n times, and returns
// that log.
func (w *World) WaitLog(game, want string, n int) string {
	w.T.Helper()
	var log string
	if waitfor.True(30*time.Second, func() bool {
		log = w.Pbem("log", game)
		return strings.Count(log, want) >= n
	}) {
		return log
	}
	w.T.Fatalf("the log of %s does not hold %q %d times:\n%s", game, want, n, Tail(log, 40))
	return ""
}

// Settled waits until pbem has sent every mail game's log queued and
// Postfix has delivered every mail it took: what the players' mailboxes
// hold then is all that was sent so far.
func (w *World) Settled(game string) {
	w.T.Helper()
	var log string
	if !waitfor.True(60*time.Second, func() bool {
		log = w.Pbem("log", game)
		return OutboxDrained(log) && (w.PF == nil || w.PF.QueueEmpty())
	}) {
		var postfix string
		if w.PF != nil {
			postfix = Tail(w.PF.Logs(), 20)
		}
		w.T.Fatalf("the mail of %s did not settle: every queued mail sent, Postfix's queue empty:\n%s\npostfix:\n%s", game, Tail(log, 30), postfix)
	}
}
