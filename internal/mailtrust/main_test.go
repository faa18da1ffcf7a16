//go:build linux

package mailtrust

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"

	"pbem/demo"
	"pbem/internal/dovecottest"
	"pbem/internal/postfixtest"
	"pbem/internal/syncbuf"
	"pbem/internal/waitfor"
	"pbem/mail/mailhost"
)

// pbemBin is the pbem binary the tests run, built once by TestMain.
var pbemBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "pbem-mailtrust-")
	if err != nil {
		panic(err)
	}
	pbemBin = filepath.Join(dir, "pbem")
	args := []string{"build", "-o", pbemBin, "pbem/cmd/pbem"}
	if raceEnabled {
		args = []string{"build", "-race", "-o", pbemBin, "pbem/cmd/pbem"}
	}
	if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
		os.Stderr.Write(out)
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// authservID is the authserv-id of the host that receives the game's
// mail (this Postfix writes no Authentication-Results: a test that needs
// the host's field hands it in on top, as the host would write it).
const authservID = "mx.game.test"

// world is a game server behind a real Postfix and Dovecot, its players
// and a forger (eve) with mailboxes on a mail host of their own, which
// Postfix relays pbem's mail to.
type world struct {
	t       *testing.T
	pf      *postfixtest.Server
	env     []string
	dir     string
	metrics string // host:port of /metrics and /healthz
	people  map[string]*demo.Mailbox
	queued  map[string][]gotMail // fetched, not yet looked at
	n       int

	srv    *exec.Cmd
	stderr *syncbuf.Buffer
}

// newWorld makes the servers and game g1 (anna plays USA, taro CSA),
// with ratePerHour mails an hour taken from a sender; more games are
// made with w.pbem("new", ...) before w.serve.
func newWorld(t *testing.T, ratePerHour int, people ...string) *world {
	t.Helper()
	dc := dovecottest.Start(t)
	host, err := mailhost.Start(mailhost.Config{Domain: "players.test", OpenDelivery: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	pf := postfixtest.Start(t, postfixtest.Config{Domain: "game.test", Mailbox: dovecottest.User, Maildir: dc.Maildir,
		UID: dc.MailUID, GID: dc.MailGID, Relay: map[string]string{"players.test": host.SMTPAddr()}})
	metrics := freeAddr(t)
	w := &world{t: t, pf: pf, dir: t.TempDir(), queued: map[string][]gotMail{}, metrics: metrics,
		env: []string{"PBEM_MAIL_DOMAIN=game.test", fmt.Sprintf("PBEM_MAIL_RATE_PER_HOUR=%d", ratePerHour),
			"PBEM_MAIL_IMAP_ADDR=" + dc.Addr, "PBEM_MAIL_IMAP_USERNAME=" + dovecottest.User, "PBEM_MAIL_IMAP_PASSWORD=" + dovecottest.Password,
			"PBEM_MAIL_IMAP_POLL=1s", "PBEM_MAIL_SMTP_ADDR=" + pf.Addr, "PBEM_MAIL_AUTHSERV_ID=" + authservID,
			"PBEM_METRICS_LISTEN=" + metrics}}
	w.pbem("new", "--game", "g1", "--ruleset", "gcacw", "--scenario", "harrow-creek",
		"--player", "anna:USA:anna@players.test:Anna", "--player", "taro:CSA:taro@players.test:Taro",
		"--mail", "every") // a mail for every action: these tests follow each one
	w.people = mailboxes(t, host, append([]string{"anna", "taro", "eve"}, people...)...)
	return w
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// pbem runs a pbem command on the world's data directory and returns its
// output; it fails the test if the command fails.
func (w *world) pbem(args ...string) string {
	w.t.Helper()
	cmd := exec.Command(pbemBin, append([]string{"--data-dir", w.dir}, args...)...)
	cmd.Env = append(os.Environ(), w.env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		w.t.Fatalf("pbem %v: %v\n%s\n%s", args, err, out.String(), errOut.String())
	}
	return out.String()
}

// serve starts 'pbem serve'; if resolvConf is set, in a mount namespace
// of its own where /etc/resolv.conf is that file (the DNS server pbem
// asks for DKIM keys), the rest of the machine untouched. It is stopped
// when the test ends.
func (w *world) serve(resolvConf string) {
	w.t.Helper()
	args := []string{"--data-dir", w.dir, "serve"}
	cmd := exec.Command(pbemBin, args...)
	if resolvConf != "" {
		cmd = exec.Command("unshare", append([]string{"--mount", "--propagation", "private", "sh", "-c",
			`mount --bind "$0" /etc/resolv.conf && exec "$@"`, resolvConf, pbemBin}, args...)...)
	}
	cmd.Env = append(os.Environ(), w.env...)
	w.stderr = &syncbuf.Buffer{}
	cmd.Stderr = w.stderr
	if err := cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	w.srv = cmd
	w.t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				w.t.Errorf("serve exited with %v after SIGTERM:\n%s", err, tail(w.stderr.String(), 40))
			}
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			<-done
			w.t.Error("serve did not stop within 20s of SIGTERM")
		}
		if strings.Contains(w.stderr.String(), "WARNING: DATA RACE") {
			w.t.Errorf("serve found a data race:\n%s", w.stderr.String())
		}
	})
	sock := filepath.Join(w.dir, "pbem.sock")
	if !waitfor.True(20*time.Second, func() bool {
		c, err := net.Dial("unix", sock)
		if err == nil {
			c.Close()
		}
		return err == nil
	}) {
		w.t.Fatalf("serve did not start:\n%s", w.stderr.String())
	}
}

// healthz returns /healthz's body.
func (w *world) healthz() string {
	w.t.Helper()
	resp, err := http.Get("http://" + w.metrics + "/healthz")
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// metric returns the value of the unlabelled metric name on /metrics.
func (w *world) metric(name string) string {
	w.t.Helper()
	resp, err := http.Get("http://" + w.metrics + "/metrics")
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + ` (\S+)$`).FindStringSubmatch(string(b))
	if m == nil {
		w.t.Fatalf("no metric %s on /metrics", name)
	}
	return m[1]
}

// next waits for who's next mail of game whose first line (what it is)
// starts with kind, and removes it and the mails before it.
func (w *world) next(who, kind string) gotMail {
	w.t.Helper()
	return w.find(who, "", kind, true)
}

// take is next for mails whose order of arrival is not fixed (Postfix
// may deliver two mails queued together in either order): it removes
// only the mail it returns. game, if set, is the game its subject names.
func (w *world) take(who, game, kind string) gotMail {
	w.t.Helper()
	return w.find(who, game, kind, false)
}

func (w *world) find(who, game, kind string, dropEarlier bool) gotMail {
	w.t.Helper()
	var got gotMail
	if waitfor.True(45*time.Second, func() bool {
		w.fetch(who)
		for i, m := range w.queued[who] {
			if strings.HasPrefix(m.Kind, kind) && (game == "" || strings.HasPrefix(m.Subject, "[pbem "+game+"]")) {
				got = m
				if dropEarlier {
					w.queued[who] = w.queued[who][i+1:]
				} else {
					w.queued[who] = append(w.queued[who][:i:i], w.queued[who][i+1:]...)
				}
				return true
			}
		}
		return false
	}) {
		return got
	}
	w.t.Fatalf("%s got no %q mail%s\nquarantine:\n%s\nlog:\n%s\nserve:\n%s\npostfix:\n%s", who, kind, w.kinds(who), w.pbem("quarantine"),
		tail(w.pbem("log", "g1"), 40), tail(w.stderr.String(), 20), tail(w.pf.Logs(), 20))
	return gotMail{}
}

// fetch moves who's new mails to the queue.
func (w *world) fetch(who string) {
	w.t.Helper()
	ms, err := w.people[who].FetchNew()
	if err != nil {
		w.t.Fatal(err)
	}
	w.queued[who] = append(w.queued[who], ms...)
}

// kinds lists the kinds of who's queued mails, for a failure.
func (w *world) kinds(who string) string {
	var b strings.Builder
	for _, m := range w.queued[who] {
		fmt.Fprintf(&b, "\n  queued: %s: %s", m.Subject, m.Kind)
	}
	return b.String()
}

// count returns how many of who's queued mails start with kind, after a
// last look at the mailbox.
func (w *world) count(who, kind string) int {
	w.t.Helper()
	w.fetch(who)
	n := 0
	for _, m := range w.queued[who] {
		if strings.HasPrefix(m.Kind, kind) {
			n++
		}
	}
	return n
}

// none checks that who got no new mail.
func (w *world) none(who string) {
	w.t.Helper()
	w.fetch(who)
	for _, m := range w.queued[who] {
		w.t.Errorf("%s got a mail: %s\n%s", who, m.Kind, m.Body)
	}
	w.queued[who] = nil
}

// send hands raw to Postfix from the envelope sender, for rcpt, from the
// players' own server (SPF passes for the envelope).
func (w *world) send(envelope, rcpt, raw string) {
	w.t.Helper()
	w.sendWith("spf=pass smtp.mailfrom="+envelope, envelope, rcpt, raw)
}

// sendWith is send with the results the receiving host finds for the
// mail: this Postfix has no SPF, DKIM or DMARC service to find them, so
// the client hands them in as the host's field, on top. Empty results:
// the host writes no field.
func (w *world) sendWith(results, envelope, rcpt, raw string) {
	w.t.Helper()
	if results != "" {
		raw = "Authentication-Results: " + authservID + "; " + results + "\r\n" + raw
	}
	c, err := smtp.Dial(w.pf.Addr)
	if err != nil {
		w.t.Fatal(err)
	}
	defer c.Close()
	if err := c.Hello("client.players.test"); err != nil {
		w.t.Fatal(err)
	}
	if err := c.SendMail(envelope, []string{rcpt}, strings.NewReader(raw)); err != nil {
		w.t.Fatal(err)
	}
	c.Quit()
}

// reply is a mail client's answer to m from who: to its Reply-To,
// threaded, quoting it; extra is more header fields, body the new text.
func (w *world) reply(who string, m gotMail, extra, body string) string {
	w.n++
	quoted := "> " + strings.ReplaceAll(strings.TrimRight(m.Body, "\n"), "\n", "\n> ")
	return fmt.Sprintf("From: %s <%s@players.test>\r\nTo: %s\r\nSubject: Re: %s\r\nMessage-ID: <%s-%d@players.test>\r\nDate: %s\r\n"+
		"In-Reply-To: <%s>\r\nReferences: <%s>\r\n%sContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n\r\nOn %s, pbem wrote:\r\n%s\r\n",
		strings.ToUpper(who[:1])+who[1:], who, m.ReplyTo, m.Subject, who, w.n, time.Now().UTC().Format(time.RFC1123Z),
		m.MessageID, m.MessageID, extra, strings.ReplaceAll(body, "\n", "\r\n"), m.Date.Format("Mon, 2 Jan 2006 at 15:04"), strings.ReplaceAll(quoted, "\n", "\r\n"))
}

// forge is reply written by eve in who's name: the same mail under a
// Message-ID of eve's.
func (w *world) forge(who string, m gotMail, extra, body string) string {
	return strings.Replace(w.reply(who, m, extra, body), "Message-ID: <"+who+"-", "Message-ID: <eve-as-"+who+"-", 1)
}

// waitLog waits until 'pbem log game' holds want n times.
func (w *world) waitLog(game, want string, n int) string {
	w.t.Helper()
	var log string
	if waitfor.True(30*time.Second, func() bool {
		log = w.pbem("log", game)
		return strings.Count(log, want) >= n
	}) {
		return log
	}
	w.t.Fatalf("the log of %s does not hold %q %d times:\n%s", game, want, n, tail(log, 40))
	return ""
}

var confirmLineRE = regexp.MustCompile(`(?m)^    (CONFIRM [a-z2-7]{4}-[a-z2-7]{4})$`)

func squeeze(s string) string { return strings.Join(strings.Fields(s), " ") }

func tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// gotMail is a mail as its reader sees it: the demo's reader.
type gotMail = demo.Mail

// mailboxes makes a mailbox on host for each of who.
func mailboxes(t *testing.T, host *mailhost.Host, who ...string) map[string]*demo.Mailbox {
	t.Helper()
	people := map[string]*demo.Mailbox{}
	for _, w := range who {
		if err := host.AddUser(w, "pw"); err != nil {
			t.Fatal(err)
		}
		c, err := imapclient.DialInsecure(host.IMAPAddr(), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		if err := c.Login(w, "pw").Wait(); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Select("INBOX", nil).Wait(); err != nil {
			t.Fatal(err)
		}
		people[w] = &demo.Mailbox{ID: w, Client: c}
	}
	return people
}
