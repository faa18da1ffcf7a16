//go:build linux

// Package postfixtest runs a throwaway Postfix (Debian's postfix, which
// scripts/test installs) for tests that need a real MTA in front of the
// game mailbox: an SMTP server on a loopback port, with its config, queue,
// data and log in a temp dir, run as `master -d` (no systemd, no system
// config) in a process group of its own, killed when the test ends.
//
// It delivers the mail for one domain into a maildir (a Dovecot's, see
// dovecottest) with the virtual delivery agent, which writes Return-Path
// (the envelope sender), Delivered-To and X-Original-To as a receiving
// host does, and relays mail for other domains to the SMTP servers given.
// Postfix's master needs root, as in production.
package postfixtest

import (
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"pbem/internal/daemontest"
)

// Config says what the instance receives and where it sends.
type Config struct {
	// Domain is the domain whose mail is delivered to Maildir: every
	// address at it (plus-addresses included) is Mailbox's.
	Domain, Mailbox string
	// Maildir is where (a maildir), owned by UID and GID.
	Maildir  string
	UID, GID int
	// Relay maps other domains to the host:port of their SMTP server.
	Relay map[string]string
	// SASLPath, if set, is a Dovecot authentication socket (dovecottest's
	// SASLSocket): SMTP AUTH is offered through it (smtpd_sasl_type =
	// dovecot), and mail to other domains is relayed only for a client
	// that logged in; mail to Domain is taken from anyone, as a receiving
	// host does.
	SASLPath string
}

// Server is one throwaway Postfix.
type Server struct {
	Addr   string // host:port of its SMTP server
	dir    string
	cmd    *exec.Cmd
	exited <-chan struct{}

	stopOnce sync.Once
	stopErr  error
}

func binary(t testing.TB, name string) string {
	t.Helper()
	for _, p := range []string{"/usr/lib/postfix/sbin/" + name, "/usr/sbin/" + name} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Fatalf("postfix's %s not found: run scripts/test, which installs Debian's postfix (or: apt-get install postfix)", name)
	return ""
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// services are the master.cf services a relay and virtual delivery need,
// none chrooted (the queue is in a temp dir).
const services = `cleanup   unix  n - n - 0 cleanup
qmgr      unix  n - n 300 1 qmgr
rewrite   unix  - - n - - trivial-rewrite
bounce    unix  - - n - 0 bounce
defer     unix  - - n - 0 bounce
trace     unix  - - n - 0 bounce
verify    unix  - - n - 1 verify
flush     unix  n - n 1000? 0 flush
proxymap  unix  - - n - - proxymap
smtp      unix  - - n - - smtp
relay     unix  - - n - - smtp
error     unix  - - n - - error
retry     unix  - - n - - error
discard   unix  - - n - - discard
virtual   unix  - n n - - virtual
anvil     unix  - - n - 1 anvil
scache    unix  - - n - 1 scache
postlog   unix-dgram n - n - 1 postlogd
`

// Start starts a throwaway Postfix and returns once it answers with its
// SMTP greeting. It is stopped, with every process it started, when the
// test ends.
func Start(t testing.TB, cfg Config) *Server {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Fatal("postfixtest needs root: Postfix's master runs as root and drops privileges, as in production (run scripts/test as root)")
	}
	master := binary(t, "master")
	postfix := binary(t, "postfix")
	pf, err := user.Lookup("postfix")
	if err != nil {
		t.Fatalf("the postfix user: %v (Debian's postfix package creates it: run scripts/test)", err)
	}
	pfUID, _ := strconv.Atoi(pf.Uid)
	base, err := os.MkdirTemp("", "pf-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	etc, spool, data := filepath.Join(base, "etc"), filepath.Join(base, "spool"), filepath.Join(base, "data")
	for _, d := range []string{etc, spool, data} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chown(data, pfUID, -1); err != nil {
		t.Fatal(err)
	}
	maildir := strings.TrimSuffix(cfg.Maildir, "/")
	vbase, vpath := filepath.Dir(maildir), filepath.Base(maildir)+"/"
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(etc, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("vmailbox", fmt.Sprintf("%s@%s %s\n", cfg.Mailbox, cfg.Domain, vpath))
	var transport strings.Builder
	domains := make([]string, 0, len(cfg.Relay))
	for d := range cfg.Relay {
		domains = append(domains, d)
	}
	sort.Strings(domains)
	for _, d := range domains {
		fmt.Fprintf(&transport, "%s smtp:[%s]:%s\n", d, hostOf(cfg.Relay[d]), portOf(cfg.Relay[d]))
	}
	write("transport", transport.String())
	s := &Server{dir: base}
	port := freePort(t)
	s.Addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	write("main.cf", fmt.Sprintf(`# Throwaway Postfix for pbem's tests.
compatibility_level = 3.6
queue_directory = %[1]s
data_directory = %[2]s
mail_owner = postfix
setgid_group = postdrop
myhostname = mx.%[3]s
mydomain = %[3]s
myorigin = %[3]s
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
mydestination =
relay_domains =
alias_maps =
alias_database =
local_recipient_maps =
virtual_mailbox_domains = %[3]s
virtual_mailbox_base = %[4]s
virtual_mailbox_maps = texthash:%[5]s/vmailbox
virtual_uid_maps = static:%[6]d
virtual_gid_maps = static:%[7]d
virtual_minimum_uid = 1
recipient_delimiter = +
transport_maps = texthash:%[5]s/transport
smtp_dns_support_level = disabled
smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination
maillog_file = /dev/stdout
smtputf8_enable = no
queue_run_delay = 1s
minimal_backoff_time = 1s
maximal_backoff_time = 2s
`, spool, data, cfg.Domain, vbase, etc, cfg.UID, cfg.GID))
	if cfg.SASLPath != "" {
		f, err := os.OpenFile(filepath.Join(etc, "main.cf"), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(f, `smtpd_sasl_auth_enable = yes
smtpd_sasl_type = dovecot
smtpd_sasl_path = %s
smtpd_sasl_security_options = noanonymous
smtpd_relay_restrictions = permit_sasl_authenticated, reject_unauth_destination
mynetworks =
`, cfg.SASLPath)
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	write("master.cf", fmt.Sprintf("127.0.0.1:%d inet n - n - - smtpd\n", port)+services)
	// postfix check makes the queue's directories with their owners.
	check := exec.Command(postfix, "-c", etc, "check")
	check.Dir = base
	if out, err := check.CombinedOutput(); err != nil {
		t.Fatalf("postfix check: %v\n%s%s", err, out, s.Logs())
	}
	s.cmd = exec.Command(master, "-c", etc, "-d")
	s.cmd.Dir = base
	exited, err := daemontest.Spawn(s.cmd, filepath.Join(base, "master.out"))
	if err != nil {
		t.Fatal(err)
	}
	s.exited = exited
	t.Cleanup(func() {
		if err := s.Stop(); err != nil {
			t.Error(err)
		}
	})
	if err := s.waitGreeting(15 * time.Second); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("postfix log:\n%s", s.Logs())
		}
	})
	return s
}

func hostOf(addr string) string { h, _, _ := net.SplitHostPort(addr); return h }
func portOf(addr string) string { _, p, _ := net.SplitHostPort(addr); return p }

// Logs returns Postfix's log (its daemons log to the master's output).
func (s *Server) Logs() string {
	data, _ := os.ReadFile(filepath.Join(s.dir, "master.out"))
	return string(data)
}

// QueueEmpty reports whether Postfix holds no mail: none being received,
// waiting or being delivered (a mail it has taken is in its queue until
// it is delivered or bounced, and removed). A test that must show that a
// mail was not sent waits for this after the mails that prove the sender
// went past the point, rather than for a while.
func (s *Server) QueueEmpty() bool {
	for _, q := range []string{"maildrop", "incoming", "active", "deferred", "hold"} {
		empty := true
		filepath.WalkDir(filepath.Join(s.dir, "spool", q), func(_ string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				empty = false
				return filepath.SkipAll
			}
			return nil
		})
		if !empty {
			return false
		}
	}
	return true
}

func (s *Server) waitGreeting(timeout time.Duration) error {
	return daemontest.WaitGreeting(s.Addr, "220 ", s.exited, s.Logs, timeout)
}

// Stop kills the instance and every process of its group, and waits until
// none is left running. It may be called again.
func (s *Server) Stop() error {
	s.stopOnce.Do(func() { s.stopErr = daemontest.Kill(s.cmd.Process.Pid, s.exited) })
	return s.stopErr
}
