// Package servetest is what the end-to-end tests that run the pbem binary
// share (cmd/pbem's and internal/mailtrust's): the binary built once for
// a test binary, 'pbem serve' started and stopped, free loopback ports,
// mailboxes on a mail host of the players' own, and a game whose mail
// goes through a real Postfix in front of a real Dovecot (World). It is
// for tests only.
package servetest

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"

	"pbem/demo"
	"pbem/internal/syncbuf"
	"pbem/internal/waitfor"
	"pbem/mail/mailhost"
)

// Build builds the pbem command (with the race detector if the test
// binary has it) into a new temporary directory and returns its path;
// remove deletes that directory. A test binary builds it once, in its
// TestMain, for every test to run.
func Build() (bin string, remove func(), err error) { return build(Race) }

// BuildWithoutRace builds the pbem command without the race detector, as
// Build does otherwise. It is for the tests whose subject is what a game
// says (a demo's mails, the audit and export of a played game), not the
// server's concurrency: under -race the engine and the mail composer cost
// several times as much CPU, and those tests play or replay whole games.
func BuildWithoutRace() (bin string, remove func(), err error) { return build(false) }

func build(race bool) (bin string, remove func(), err error) {
	dir, err := os.MkdirTemp("", "pbem-bin-")
	if err != nil {
		return "", nil, fmt.Errorf("a directory for the pbem binary: %w", err)
	}
	bin = filepath.Join(dir, "pbem")
	args := []string{"build", "-o", bin, "pbem/cmd/pbem"}
	if race {
		args = []string{"build", "-race", "-o", bin, "pbem/cmd/pbem"}
	}
	if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, out)
	}
	return bin, func() { os.RemoveAll(dir) }, nil
}

// Run runs bin with args, its environment this process's plus env, and
// returns its standard output and error and its exit code; err is set
// only if it could not be run at all.
func Run(bin string, env []string, args ...string) (stdout, stderr string, code int, err error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), errOut.String(), ee.ExitCode(), nil
	} else if err != nil {
		return "", "", 0, fmt.Errorf("running %s %v: %w", bin, args, err)
	}
	return out.String(), errOut.String(), 0, nil
}

// FreeAddr returns a loopback address with a port free at the moment.
func FreeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// Tail is the last n lines of s.
func Tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// Races returns the data race report in a server's stderr, or its tail.
func Races(stderr string) string {
	if i := strings.Index(stderr, "WARNING: DATA RACE"); i >= 0 {
		return stderr[i:min(len(stderr), i+6000)]
	}
	return Tail(stderr, 30)
}

// Start starts cmd, a 'pbem serve' on dataDir, its stderr kept in a
// syncbuf.Buffer, and waits until its control socket answers (not a
// stale one left by a killed server). If the test has not stopped it by
// its end, it is killed.
func Start(t testing.TB, cmd *exec.Cmd, dataDir string) *exec.Cmd {
	t.Helper()
	errOut := &syncbuf.Buffer{}
	cmd.Stderr = errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	sock := filepath.Join(dataDir, "pbem.sock")
	// Generous: a loaded machine starts a race-built server slowly, and a
	// cluster node first joins its cluster.
	if !waitfor.True(60*time.Second, func() bool {
		c, err := net.Dial("unix", sock)
		if err == nil {
			c.Close()
		}
		return err == nil
	}) {
		t.Fatalf("serve did not start:\n%s", errOut.String())
	}
	return cmd
}

// Stop stops a server Start started with SIGTERM and returns its stderr;
// it fails t if the server does not stop cleanly within 20 s or found a
// data race.
func Stop(t testing.TB, cmd *exec.Cmd) string {
	t.Helper()
	stderr := cmd.Stderr.(*syncbuf.Buffer)
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve exited with %v after SIGTERM:\n%s", err, Races(stderr.String()))
		}
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatal("serve did not stop within 20s of SIGTERM")
	}
	if strings.Contains(stderr.String(), "WARNING: DATA RACE") {
		t.Fatalf("serve found a data race:\n%s", Races(stderr.String()))
	}
	return stderr.String()
}

// WaitLogged waits until the server Start started has written msg to its
// log (its stderr), and fails t if it has not within limit: a test waits
// for the server to say it went past a point (every game loaded, say)
// rather than for a while.
func WaitLogged(t testing.TB, cmd *exec.Cmd, msg string, limit time.Duration) {
	t.Helper()
	stderr := cmd.Stderr.(*syncbuf.Buffer)
	if !waitfor.True(limit, func() bool { return strings.Contains(stderr.String(), msg) }) {
		t.Fatalf("the server did not log %q within %v:\n%s", msg, limit, Tail(stderr.String(), 30))
	}
}

// Mailboxes makes a mailbox (password pw) on host for each of who and
// returns each person reading theirs over IMAP, as a mail client would.
func Mailboxes(t testing.TB, host *mailhost.Host, who ...string) map[string]*demo.Mailbox {
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

// OutboxDrained reports whether a game's log (as 'pbem log' prints it)
// has every mail it queued sent or failed for good: pbem has handed its
// mail host every mail it decided to send so far. A test that must show
// that a mail was not sent checks the mailboxes once this holds, after
// the events that prove the server went past the point, rather than
// after a while.
func OutboxDrained(log string) bool {
	queued := strings.Count(log, "mail.queued/")
	return queued > 0 && queued == strings.Count(log, "mail.sent/")+strings.Count(log, "mail.failed/")
}
