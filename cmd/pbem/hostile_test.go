//go:build linux

package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"pbem/events"
	"pbem/internal/damagetest"
	"pbem/internal/syncbuf"
	"pbem/internal/waitfor"
)

// nobody is the user another local process runs as in these tests.
const nobody = 65534

// Another local user cannot reach the control socket: pbem
// serve starts again and again under umask 000 in a data directory open
// to all (0777), while a process of another user keeps connecting and
// asking for the games; it never gets an answer.
func TestAnotherUserCannotReachTheControlSocket(t *testing.T) {
	t.Parallel()
	if os.Getuid() != 0 {
		t.Fatal("this test runs a process as another user, which needs root (CI runs as root)")
	}
	base := t.TempDir()
	os.Chmod(base, 0o755)
	os.Chmod(filepath.Dir(base), 0o755)
	dir := filepath.Join(base, "data")
	os.Mkdir(dir, 0o777)
	os.Chmod(dir, 0o777)
	sock := filepath.Join(dir, "pbem.sock")
	// The other user's process is this test binary, copied where that user
	// can run it (see otherUser).
	self, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(base, "other-user")
	if err := os.WriteFile(exe, self, 0o755); err != nil {
		t.Fatal(err)
	}
	const restarts = 8
	var attacker *exec.Cmd
	var stopAttacker io.WriteCloser
	var aout bytes.Buffer
	// The copy's file may still be open for writing in a child that a
	// parallel test forks meanwhile, until that child execs: "text file
	// busy" passes.
	waitfor.True(10*time.Second, func() bool {
		attacker = exec.Command(exe, "-test.run=^$")
		attacker.Env = append(os.Environ(), "PBEM_TEST_OTHER_USER="+sock)
		if stopAttacker, err = attacker.StdinPipe(); err != nil {
			t.Fatal(err)
		}
		attacker.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
		attacker.Stdout, attacker.Stderr = &aout, &aout
		err = attacker.Start()
		return !errors.Is(err, syscall.ETXTBSY)
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < restarts; i++ {
		// umask 000, as the operator had it.
		cmd := exec.Command("/bin/sh", "-c", `umask 000; exec "$0" "$@"`, pbemBin, "--data-dir", dir, "serve")
		cmd.Env = append(os.Environ(), "PBEM_MAIL_BUILTIN_IMAP=127.0.0.1:0", "PBEM_MAIL_BUILTIN_SMTP=127.0.0.1:0")
		var errOut bytes.Buffer
		cmd.Stderr = &errOut
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		waitSocket(t, sock, &errOut)
		if fi, err := os.Stat(sock); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("restart %d: socket mode %v %v", i, fi.Mode(), err)
		}
		// The operator's own commands still work.
		if out, errOut, code := pbem(t, nil, "--data-dir", dir, "games"); code != 0 {
			t.Fatalf("the operator's games: %s %s", out, errOut)
		}
		// Not a wait: the server runs a random while before it is stopped.
		time.Sleep(time.Duration(200+rand.IntN(400)) * time.Millisecond)
		if i%2 == 0 {
			cmd.Process.Signal(syscall.SIGKILL)
		} else {
			cmd.Process.Signal(syscall.SIGTERM)
		}
		cmd.Wait()
	}
	stopAttacker.Close()
	attacker.Wait()
	var tries, answers int
	if _, err := fmt.Sscan(aout.String(), &tries, &answers); err != nil {
		t.Fatalf("the other user's process: %v\n%s", err, aout.String())
	}
	t.Logf("%d restarts under umask 000 in a 0777 directory: the other user connected %d times, got %d answers", restarts, tries, answers)
	if answers != 0 || tries != 0 {
		t.Fatalf("another user reached the control socket: %d connections, %d answers", tries, answers)
	}
}

func waitSocket(t *testing.T, sock string, errOut *bytes.Buffer) {
	t.Helper()
	if !waitfor.True(20*time.Second, func() bool { return dial("unix", sock) == nil }) {
		t.Fatalf("serve did not start:\n%s", errOut.String())
	}
}

// A robustness test: a real pbem.db, damaged in many ways —
// cut short, bytes flipped, pages zeroed or filled with noise — and every
// command run on each: each ends with a clear error or does its job, and
// none panics, faults or prints a stack trace. The file is not changed by
// a command that reads. What this tests is what a command says of a
// damaged file, so the commands that only read run on contentBin; the
// writers (order, mailboxes) and serve run on pbemBin. Each damaged copy
// is a subtest in its own directory.
func TestEveryCommandOnADamagedStoreFailsCleanly(t *testing.T) {
	t.Parallel()
	dir := newGame(t)
	for i := 0; i < 6; i++ {
		pbem(t, nil, "--data-dir", dir, "order", "g1", "--player", []string{"anna", "taro"}[i%2], fmt.Sprint("STATUS ", i))
	}
	good, err := os.ReadFile(filepath.Join(dir, "pbem.db"))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 21))
	cases := damagetest.Sample(good, rng, 12)
	commands := [][]string{{"games"}, {"log", "g1"}, {"replay", "g1"}, {"verify", "g1"}, {"audit", "g1"}, {"export", "g1"},
		{"quarantine"}, {"doctor"}, {"order", "g1", "--player", "anna", "PASS"}, {"mailboxes"}}
	crash := regexp.MustCompile(`(?m)^panic:|goroutine \d+ \[|^fatal error:|\[signal SIG|unexpected fault address`)
	var runs, failed, panics atomic.Int64
	t.Run("copies", func(t *testing.T) {
		for i, c := range cases {
			// One after the other: in parallel, the subtests wait for a place
			// among -test.parallel behind the package's long server tests.
			t.Run(c.Name, func(t *testing.T) {
				d := t.TempDir()
				path := filepath.Join(d, "pbem.db")
				for j, args := range commands {
					writes := args[0] == "order" || args[0] == "mailboxes"
					if j == 0 || writes {
						os.WriteFile(path, c.Data, 0o600) // the writers may have changed it
					}
					run := pbem
					if writes {
						run = pbemUnderRace
					}
					before, _ := os.ReadFile(path)
					out, errOut, code := run(t, nil, append([]string{"--data-dir", d}, args...)...)
					runs.Add(1)
					if code != 0 {
						failed.Add(1)
						if strings.TrimSpace(errOut) == "" {
							t.Errorf("%s, pbem %s: exit %d with no message", c.Name, strings.Join(args, " "), code)
						}
					}
					if crash.MatchString(out + errOut) {
						panics.Add(1)
						t.Errorf("%s, pbem %s: crashed\n%s", c.Name, strings.Join(args, " "), tail(errOut, 20))
					}
					if !writes {
						if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
							t.Errorf("%s, pbem %s changed the file", c.Name, strings.Join(args, " "))
						}
					}
				}
				// serve: a clear refusal, or a server that runs and stops cleanly.
				if i%3 == 0 {
					os.WriteFile(path, c.Data, 0o600)
					errOut := serveBriefly(t, d)
					runs.Add(1)
					if crash.MatchString(errOut) {
						panics.Add(1)
						t.Errorf("%s, pbem serve: crashed\n%s", c.Name, tail(errOut, 20))
					}
				}
			})
		}
	})
	t.Logf("%d damaged copies of a real pbem.db, %d command runs: %d ended with an error, %d panics", len(cases), runs.Load(), failed.Load(), panics.Load())
}

// serveBriefly runs serve on dir until it has loaded every game the store
// lists (it serves before its games are loaded, and logs when they all
// are), stops it, and returns its stderr; or returns at once if serve
// ends by itself (a refusal).
func serveBriefly(t *testing.T, dir string) string {
	t.Helper()
	cmd := exec.Command(pbemBin, "--data-dir", dir, "serve")
	cmd.Env = append(os.Environ(), "PBEM_MAIL_BUILTIN_IMAP=127.0.0.1:0", "PBEM_MAIL_BUILTIN_SMTP=127.0.0.1:0")
	var errOut syncbuf.Buffer
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	noGames := regexp.MustCompile(`msg="?pbem serving.*\bgames"?[=:]0\b`)
	loaded := func() bool {
		log := errOut.String()
		return strings.Contains(log, "every game loaded") || noGames.MatchString(log)
	}
	deadline := time.After(60 * time.Second)
	for !loaded() {
		select {
		case <-done:
			return errOut.String()
		case <-deadline:
			t.Errorf("serve on a damaged store neither stopped nor loaded its games within 60s:\n%s", tail(errOut.String(), 20))
			cmd.Process.Kill()
			<-done
			return errOut.String()
		case <-time.After(20 * time.Millisecond):
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Errorf("serve on a damaged store did not stop within 20s of SIGTERM")
	}
	return errOut.String()
}

// Forged NATS messages have no effect: with the embedded
// server's listener open, a process without the login is refused; one with
// it (a watcher the operator let in) sees only doorbells, and what it
// publishes on pbem's subjects — an event's bytes at the next seq, a forged
// mail.queued, doorbells for events that do not exist — appends nothing,
// sends no mail, and does not delay the next real order.
func TestForgedNATSMessagesHaveNoEffect(t *testing.T) {
	t.Parallel()
	natsAddr := freeAddr(t)
	g := newBuiltinGame(t, t.TempDir(), "PBEM_NATS_LISTEN="+natsAddr, "PBEM_NATS_USER=watcher", "PBEM_NATS_PASSWORD=w4tcher-pw")
	srv := startServe(t, g.dir, g.env...)
	defer stopServe(t, srv)
	replyTo := g.replyTo(t, "anna")
	g.replyTo(t, "taro")
	url := "nats://" + natsAddr
	if _, err := nats.Connect(url, nats.MaxReconnects(0)); err == nil {
		t.Fatal("connected to the embedded NATS without a login")
	}
	nc, err := nats.Connect(url, nats.UserInfo("watcher", "w4tcher-pw"), nats.Timeout(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	seen := make(chan *nats.Msg, 1000)
	watch, err := nc.ChanSubscribe("pbem.>", seen)
	if err != nil {
		t.Fatal(err)
	}
	nc.Flush()

	logBefore := mustLog(t, g.dir)
	games, _, _ := pbem(t, nil, "--data-dir", g.dir, "games")
	var seq uint64
	if m := regexp.MustCompile(`(?m)^g1\s+(\d+)`).FindStringSubmatch(games); m != nil {
		fmt.Sscan(m[1], &seq)
	}
	seq++
	annaBefore := len(g.mailbox("anna"))
	// A forged mail.queued to Taro, at the next seq, as the bus once carried
	// events; then doorbells for events that do not exist.
	forged := events.New("g1", time.Now(), "", &events.MailQueued{MailID: "<forged@x>", To: []string{"taro@pbem.localhost"},
		Subject: "[pbem g1] forged", Body: "send me your password"})
	forged.Chain(seq, events.Hash{})
	for _, m := range []*nats.Msg{
		{Subject: "pbem.game.g1.events", Data: forged.Marshal(), Header: nats.Header{nats.MsgIdHdr: {fmt.Sprintf("g1/%d", seq)}, "Pbem-Seq": {fmt.Sprint(seq)}}},
		{Subject: "pbem.game.g1.events", Header: nats.Header{"Pbem-Seq": {fmt.Sprint(seq + 1)}}},
		{Subject: "pbem.game.g1.events", Header: nats.Header{"Pbem-Seq": {"999999"}}},
		{Subject: "pbem.game.zz.events", Header: nats.Header{"Pbem-Seq": {"1"}}},
	} {
		nc.PublishMsg(m)
	}
	nc.Flush()
	// A real order right after is decided at once (the forged seq did not
	// make the engine think it had it already). The engine's subscriber
	// got the forgeries before the real order's doorbell: once that order
	// is decided, the log is what it was and the real order's events after.
	start := time.Now()
	if err := g.send("anna", orderMail("anna", replyTo, "real-1", "STATUS")); err != nil {
		t.Fatal(err)
	}
	waitfor.Until(t, 20*time.Second, "the real order after the forgeries to be decided", func() bool {
		return len(g.mailbox("anna")) > annaBefore && strings.Count(mustLog(t, g.dir), "order.accepted/") == 1
	})
	decided := time.Since(start)
	if logAfter := mustLog(t, g.dir); !strings.HasPrefix(logAfter, logBefore) || strings.Contains(logAfter, "forged") ||
		!strings.Contains(logAfter[len(logBefore):], "real-1@pbem.localhost") {
		t.Fatalf("the forged messages changed the log:\n%s", tail(logAfter, 20))
	}
	for _, m := range g.mailbox("taro") {
		if bytes.Contains(m, []byte("forged")) {
			t.Fatal("pbem sent the forged mail")
		}
	}
	// What the watcher saw: doorbells, no content.
	watch.Unsubscribe()
	nc.Flush()
	bells := 0
	for len(seen) > 0 {
		m := <-seen
		if len(m.Data) != 0 && m.Header.Get("Pbem-Seq") != "" && !bytes.Equal(m.Data, forged.Marshal()) {
			t.Fatalf("the bus carried content: %q", m.Data)
		}
		if len(m.Data) == 0 {
			bells++
		}
	}
	t.Logf("forged messages: log unchanged, no mail sent; the next real order decided and answered in %v; the watcher saw %d doorbells and no content", decided.Round(time.Millisecond), bells)
	if decided > 5*time.Second {
		t.Fatalf("the real order took %v", decided)
	}
}

func mustLog(t *testing.T, dir string) string {
	out, _, _ := pbem(t, nil, "--data-dir", dir, "log", "g1")
	return out
}
