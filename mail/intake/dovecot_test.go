//go:build linux

package intake

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"pbem/events"
	"pbem/store"
)

// The end-to-end test against a real Dovecot (Debian's dovecot-imapd, which
// scripts/test installs): a throwaway instance on a loopback port, with its
// config, sockets, state, logs and the user's maildir in the test's temp
// dir, run as a child process group and killed at the end.

const dovecotUser, dovecotPassword = "pbem", "secret"

// dovecotServer is one throwaway Dovecot instance.
type dovecotServer struct {
	addr    string
	logPath string // Dovecot's own log
	outPath string // the master's stdout and stderr
	cmd     *exec.Cmd
	exited  chan struct{} // closed once the master has been waited for

	stopOnce sync.Once
	stopErr  error
}

func dovecotBinary(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("dovecot"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/sbin/dovecot"); err == nil {
		return "/usr/sbin/dovecot"
	}
	t.Fatal("dovecot not found (neither on PATH nor /usr/sbin/dovecot): run scripts/test, which installs Debian's dovecot-imapd " +
		"(or: apt-get install dovecot-imapd)")
	return ""
}

func lookupUser(t *testing.T, name string) *user.User {
	t.Helper()
	u, err := user.Lookup(name)
	if err != nil {
		t.Fatalf("system user %q: %v (Debian's dovecot-core creates dovenull and dovecot: run scripts/test)", name, err)
	}
	return u
}

// dovecotConfig returns the config of a Dovecot on 127.0.0.1:port with
// everything under dir. Run as root, it is an ordinary privilege-separated
// Dovecot: login processes as dovenull, internal ones as dovecot, and the
// mail as nobody, since Dovecot refuses mail access as root (and a
// passwd-file UID of 0). Run as another user, everything runs as that user
// and the chroots that need root are turned off.
func dovecotConfig(t *testing.T, dir string, port int) string {
	t.Helper()
	loginUser, internalUser, mailUID, mailGID := "", "", "", ""
	rootless := ""
	if os.Geteuid() == 0 {
		loginUser = lookupUser(t, "dovenull").Username
		internalUser = lookupUser(t, "dovecot").Username
		nobody := lookupUser(t, "nobody")
		mailUID, mailGID = nobody.Uid, nobody.Gid
		// The auth process (as dovecot) reads the passwd-file and the mail
		// processes (as nobody) the maildir: both must get through the
		// temp dir's parent, which the testing package makes 0700.
		if err := os.Chmod(filepath.Dir(dir), 0o711); err != nil {
			t.Fatal(err)
		}
		for d := filepath.Dir(dir); d != filepath.Dir(d); d = filepath.Dir(d) {
			if fi, err := os.Stat(d); err != nil || fi.Mode().Perm()&0o001 == 0 {
				t.Fatalf("%s cannot be traversed by Dovecot's unprivileged processes: set TMPDIR to a directory under one they can (like /tmp)", d)
			}
		}
	} else {
		me, err := user.Current()
		if err != nil {
			t.Fatal(err)
		}
		group, err := user.LookupGroupId(me.Gid)
		if err != nil {
			t.Fatal(err)
		}
		loginUser, internalUser, mailUID, mailGID = me.Username, me.Username, me.Uid, me.Gid
		rootless = "default_internal_group = " + group.Name + "\n" +
			"service anvil {\n  chroot =\n}\nservice imap-login {\n  chroot =\n}\n"
	}
	home := filepath.Join(dir, "home", dovecotUser)
	if err := os.MkdirAll(filepath.Dir(home), 0o711); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(home, 0o700); err != nil && !os.IsExist(err) {
		t.Fatal(err)
	}
	uid, _ := strconv.Atoi(mailUID)
	gid, _ := strconv.Atoi(mailGID)
	if err := os.Chown(home, uid, gid); err != nil {
		t.Fatal(err)
	}
	users := filepath.Join(dir, "users")
	line := fmt.Sprintf("%s:{PLAIN}%s:%s:%s::%s::\n", dovecotUser, dovecotPassword, mailUID, mailGID, home)
	if err := os.WriteFile(users, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf(`# Throwaway Dovecot for pbem's intake test.
protocols = imap
listen = 127.0.0.1
base_dir = %[1]s/run
state_dir = %[1]s/state
log_path = %[1]s/dovecot.log
ssl = no
disable_plaintext_auth = no
default_login_user = %[2]s
default_internal_user = %[3]s
first_valid_uid = %[4]s
last_valid_uid = %[4]s
first_valid_gid = %[5]s
last_valid_gid = %[5]s
mail_location = maildir:~/Maildir
passdb {
  driver = passwd-file
  args = scheme=PLAIN %[6]s
}
userdb {
  driver = passwd-file
  args = %[6]s
}
service imap-login {
  inet_listener imap {
    port = %[7]d
  }
  inet_listener imaps {
    port = 0
  }
}
%[8]s`, dir, loginUser, internalUser, mailUID, mailGID, users, port, rootless)
}

// freePort returns a loopback port that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startDovecot starts a throwaway Dovecot and returns once it answers with
// its IMAP greeting. It is stopped, with every process it started, when
// the test ends.
func startDovecot(t *testing.T) *dovecotServer {
	t.Helper()
	bin := dovecotBinary(t)
	dir := t.TempDir()
	// Unix sockets live in base_dir; their paths must stay under 108 bytes.
	if n := len(filepath.Join(dir, "run", "token-login", "imap-urlauth")); n > 100 {
		t.Fatalf("temp dir %s is too deep for Dovecot's sockets (%d bytes): use a shorter TMPDIR", dir, n)
	}
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		d := &dovecotServer{logPath: filepath.Join(dir, "dovecot.log"), outPath: filepath.Join(dir, "dovecot.out"),
			exited: make(chan struct{})}
		port := freePort(t)
		d.addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
		conf := filepath.Join(dir, "dovecot.conf")
		if err := os.WriteFile(conf, []byte(dovecotConfig(t, dir, port)), 0o644); err != nil {
			t.Fatal(err)
		}
		os.RemoveAll(filepath.Join(dir, "run")) // a failed attempt's master.pid
		out, err := os.Create(d.outPath)
		if err != nil {
			t.Fatal(err)
		}
		d.cmd = exec.Command(bin, "-F", "-c", conf)
		d.cmd.Dir = dir
		d.cmd.Stdout, d.cmd.Stderr = out, out
		// Its own process group, so that stopping it reaches every process
		// it forked; and if this test binary dies without cleaning up, the
		// master is told to shut down (taking its children with it).
		d.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
		if err := d.cmd.Start(); err != nil {
			out.Close()
			t.Fatalf("start %s: %v", bin, err)
		}
		out.Close()
		go func() { d.cmd.Wait(); close(d.exited) }()
		t.Cleanup(func() {
			if err := d.stop(); err != nil {
				t.Error(err)
			}
		})
		if lastErr = d.waitGreeting(10 * time.Second); lastErr == nil {
			t.Cleanup(func() {
				if t.Failed() {
					t.Logf("dovecot log:\n%s", d.logs())
				}
			})
			return d
		}
		if err := d.stop(); err != nil {
			t.Error(err)
		}
		if !strings.Contains(d.logs(), "in use") { // only a lost race for the port is worth another try
			break
		}
	}
	t.Fatalf("dovecot did not start: %v", lastErr)
	return nil
}

func (d *dovecotServer) logs() string {
	var b strings.Builder
	for _, p := range []string{d.outPath, d.logPath} {
		if data, err := os.ReadFile(p); err == nil {
			b.Write(data)
		}
	}
	return b.String()
}

// waitGreeting waits until the port answers with an IMAP greeting.
func (d *dovecotServer) waitGreeting(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		select {
		case <-d.exited:
			return fmt.Errorf("dovecot exited (%v):\n%s", d.cmd.ProcessState, d.logs())
		default:
		}
		if conn, err := net.DialTimeout("tcp", d.addr, time.Second); err == nil {
			conn.SetDeadline(time.Now().Add(2 * time.Second))
			line, err := bufio.NewReader(conn).ReadString('\n')
			conn.Close()
			if err == nil && strings.HasPrefix(line, "* OK") {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no IMAP greeting on %s within %v:\n%s", d.addr, timeout, d.logs())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stop kills the instance, every process of its group, and waits until
// none is left running. It may be called again.
func (d *dovecotServer) stop() error {
	d.stopOnce.Do(func() { d.stopErr = d.kill() })
	return d.stopErr
}

func (d *dovecotServer) kill() error {
	pgid := d.cmd.Process.Pid // Setpgid: the master leads its group
	syscall.Kill(-pgid, syscall.SIGKILL)
	select {
	case <-d.exited:
	case <-time.After(10 * time.Second):
		return fmt.Errorf("dovecot master %d still not exited 10s after SIGKILL", pgid)
	}
	// The master's children, orphaned, are reaped by init: they may linger
	// as zombies for a moment, but none may still run.
	deadline := time.Now().Add(5 * time.Second)
	for {
		live := liveGroupMembers(pgid)
		if len(live) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("dovecot processes still running after SIGKILL to group %d: %v", pgid, live)
		}
		syscall.Kill(-pgid, syscall.SIGKILL)
		time.Sleep(10 * time.Millisecond)
	}
}

// liveGroupMembers lists the processes of group pgid that have not exited
// (zombies are not counted), as "pid name".
func liveGroupMembers(pgid int) []string {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var live []string
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue // exited meanwhile
		}
		// "pid (comm) state ppid pgrp ...": comm may hold spaces and parens.
		stat := string(b)
		open, end := strings.IndexByte(stat, '('), strings.LastIndexByte(stat, ')')
		if open < 0 || end < open {
			continue
		}
		f := strings.Fields(stat[end+1:])
		if len(f) < 3 || f[2] != strconv.Itoa(pgid) || f[0] == "Z" || f[0] == "X" {
			continue
		}
		live = append(live, e.Name()+" "+stat[open+1:end])
	}
	return live
}

// dial logs in to the instance as the game mailbox's user and selects the
// INBOX.
func (d *dovecotServer) dial(t *testing.T, opts *imapclient.Options) *imapclient.Client {
	t.Helper()
	c, err := imapclient.DialInsecure(d.addr, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Login(dovecotUser, dovecotPassword).Wait(); err != nil {
		t.Fatalf("login: %v", err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatalf("select: %v", err)
	}
	return c
}

// appendMail appends raw to the INBOX and returns its UID (Dovecot has
// UIDPLUS) and when the APPEND completed.
func appendMail(t *testing.T, c *imapclient.Client, raw []byte) (*imap.AppendData, time.Time) {
	t.Helper()
	cmd := c.Append("INBOX", int64(len(raw)), nil)
	if _, err := cmd.Write(raw); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := cmd.Wait()
	if err != nil {
		t.Fatalf("append: %v", err)
	}
	if data.UID == 0 || data.UIDValidity == 0 {
		t.Fatalf("append: no APPENDUID in %+v", data)
	}
	return data, time.Now()
}

// commitLog is the store, with a note of every commit the intake makes.
type commitLog struct {
	*store.Store
	commits chan commit
}

type commit struct {
	at          time.Time
	key         string // an event's idempotency key (the Message-ID)
	quarantined uint32 // a quarantined mail's UID
	duplicate   bool
}

func (l *commitLog) Do(r store.Request) (store.Result, error) {
	res, err := l.Store.Do(r)
	if err == nil {
		l.commits <- commit{at: time.Now(), key: r.Events[0].Key, duplicate: res.Duplicate}
	}
	return res, err
}

func (l *commitLog) Quarantine(q store.Quarantined, cp store.Checkpoint) (string, error) {
	id, err := l.Store.Quarantine(q, cp)
	if err == nil {
		l.commits <- commit{at: time.Now(), quarantined: q.UID}
	}
	return id, err
}

func (l *commitLog) next(t *testing.T) commit {
	t.Helper()
	select {
	case c := <-l.commits:
		return c
	case <-time.After(10 * time.Second):
		t.Fatal("timed out waiting for the intake to commit a mail")
		return commit{}
	}
}

// waitSeen waits until every message of uids is flagged \Seen.
func waitSeen(t *testing.T, c *imapclient.Client, uids ...imap.UID) {
	t.Helper()
	waitFor(t, fmt.Sprintf("\\Seen on UIDs %v", uids), func() bool {
		if err := c.Noop().Wait(); err != nil {
			t.Fatal(err)
		}
		msgs, err := c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{UID: true, Flags: true}).Collect()
		if err != nil {
			t.Fatal(err)
		}
		seen := 0
		for _, m := range msgs {
			for _, f := range m.Flags {
				if f == imap.FlagSeen {
					seen++
				}
			}
		}
		return seen == len(uids)
	})
}

func TestDovecotOrderMailBecomesAnEvent(t *testing.T) {
	dc := startDovecot(t)
	st := newGame(t)
	log := &commitLog{Store: st, commits: make(chan commit, 64)}
	in := New(Config{Addr: dc.addr, Username: dovecotUser, Password: dovecotPassword, Local: "pbem", Domain: domain, Secret: secret,
		PollEvery: 200 * time.Millisecond}, log)
	var stopIntake func()
	run := func() {
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { defer wg.Done(); in.Run(ctx) }()
		var once sync.Once
		stopIntake = func() { once.Do(func() { cancel(); wg.Wait() }) }
	}
	run()
	t.Cleanup(func() { stopIntake() })
	waitFor(t, "the intake to log in to Dovecot", func() bool { return in.Sessions() >= 1 })

	// Another session IDLEs on the INBOX, to see Dovecot's own notification
	// delay next to the intake's (which also polls every 200 ms).
	exists := make(chan time.Time, 16)
	watcher := dc.dial(t, &imapclient.Options{UnilateralDataHandler: &imapclient.UnilateralDataHandler{
		Mailbox: func(d *imapclient.UnilateralDataMailbox) {
			if d.NumMessages != nil {
				select {
				case exists <- time.Now():
				default:
				}
			}
		},
	}})
	idle, err := watcher.Idle()
	if err != nil {
		t.Fatal(err)
	}
	c := dc.dial(t, nil)

	latency := func(what string, appended time.Time, committed commit) {
		idleNote := "no IDLE notification yet"
		select {
		case at := <-exists:
			idleNote = fmt.Sprintf("Dovecot's IDLE notification to another session after %v", at.Sub(appended).Round(time.Millisecond))
		case <-time.After(time.Until(appended.Add(time.Second))):
		}
		t.Logf("%s: APPEND completed → committed in %v (%s)", what, committed.at.Sub(appended).Round(time.Millisecond), idleNote)
	}

	// An order from a registered player to their reply address.
	order := mail("anna@example.org", reply("usa"), "Re: [pbem g1] your move", "<d1@x>", "", "MARCH Newton 2314 2315\n")
	a1, at1 := appendMail(t, c, order)
	c1 := log.next(t)
	if c1.key != "<d1@x>" || c1.duplicate {
		t.Fatalf("first commit %+v, want the order <d1@x>", c1)
	}
	latency("order", at1, c1)

	// A stranger's mail: quarantined, never an order.
	stranger := mail("who@else.example", "pbem@"+domain, "hello", "<q1@x>", "", "Is this the game?\n")
	a2, at2 := appendMail(t, c, stranger)
	c2 := log.next(t)
	if c2.quarantined != uint32(a2.UID) {
		t.Fatalf("second commit %+v, want the stranger's mail (UID %d) quarantined", c2, a2.UID)
	}
	latency("stranger", at2, c2)
	idle.Close()
	if err := idle.Wait(); err != nil {
		t.Fatal(err)
	}

	es, err := st.Events("g1", 2)
	if err != nil || len(es) != 1 {
		t.Fatalf("events after the creation: %d (%v), want 1", len(es), err)
	}
	p, err := events.Decode(&es[0])
	if err != nil {
		t.Fatal(err)
	}
	if o, ok := p.(*events.OrderReceived); !ok || o.Player != "usa" || o.Text != "MARCH Newton 2314 2315\n" || o.MessageID != "<d1@x>" || o.Source != "mail" {
		t.Fatalf("event %T %+v, want usa's order", p, p)
	}
	if raw, ok, _ := st.Raw("g1", es[0].Seq); !ok || string(raw) != string(order) {
		t.Fatal("the order's raw mail is not kept with its event")
	}
	q, err := st.QuarantineList()
	if err != nil || len(q) != 1 {
		t.Fatalf("quarantine %+v (%v), want the stranger's mail", q, err)
	}
	if q[0].From != "who@else.example" || q[0].UID != uint32(a2.UID) || q[0].Mailbox != "INBOX" ||
		!strings.Contains(q[0].Reason, "no reply token") || string(q[0].Raw) != string(stranger) {
		t.Fatalf("quarantined %+v", q[0])
	}
	if cp, _ := st.Checkpoint("INBOX"); cp != (store.Checkpoint{UIDValidity: a1.UIDValidity, UID: uint32(a2.UID)}) {
		t.Fatalf("checkpoint %+v, want UIDVALIDITY %d UID %d", cp, a1.UIDValidity, a2.UID)
	}
	waitSeen(t, c, a1.UID, a2.UID)

	// The intake restarts: it goes on from its checkpoint, takes a new
	// order and takes nothing twice.
	stopIntake()
	sessions, processed := in.Sessions(), in.Processed()
	run()
	waitFor(t, "the restarted intake to log in", func() bool { return in.Sessions() > sessions })
	next := mail("anna@example.org", reply("usa"), "Re: [pbem g1] your move", "<d3@x>", "", "PASS\n")
	a3, at3 := appendMail(t, c, next)
	c3 := log.next(t)
	if c3.key != "<d3@x>" || c3.duplicate {
		t.Fatalf("first commit after the restart %+v, want the new order <d3@x> (earlier mails read again?)", c3)
	}
	t.Logf("order after restart: APPEND completed → committed in %v", c3.at.Sub(at3).Round(time.Millisecond))
	es, _ = st.Events("g1", 2)
	if len(es) != 2 {
		t.Fatalf("%d orders after the restart, want 2", len(es))
	}
	p, _ = events.Decode(&es[1])
	if o, ok := p.(*events.OrderReceived); !ok || o.Player != "usa" || o.MessageID != "<d3@x>" || o.Text != "PASS\n" {
		t.Fatalf("second event %T %+v, want usa's PASS", p, p)
	}
	if q, _ := st.QuarantineList(); len(q) != 1 {
		t.Fatalf("quarantine after the restart: %d mails, want 1", len(q))
	}
	if cp, _ := st.Checkpoint("INBOX"); cp != (store.Checkpoint{UIDValidity: a1.UIDValidity, UID: uint32(a3.UID)}) {
		t.Fatalf("checkpoint after the restart %+v, want UID %d", cp, a3.UID)
	}
	waitSeen(t, c, a1.UID, a2.UID, a3.UID)
	// The restarted intake counted the new mail and nothing else.
	waitFor(t, "the new mail counted", func() bool { return in.Processed() >= processed+1 })
	if n := in.Processed(); n != processed+1 {
		t.Fatalf("processed %d mails after the restart, want %d", n, processed+1)
	}
	select {
	case extra := <-log.commits:
		t.Fatalf("unexpected further commit %+v", extra)
	default:
	}
}
