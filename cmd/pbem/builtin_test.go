//go:build linux

package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/mail"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"pbem/internal/syncbuf"
	"pbem/internal/waitfor"
)

// builtinGame is a game whose players have mailboxes on pbem's own mail
// host, served on fixed loopback ports (as a player's mail client would be
// set up once), with the settings new and serve share.
type builtinGame struct {
	dir        string
	env        []string
	imap, smtp string
	passwords  map[string]string // user → password, from 'pbem mailboxes'
}

func newBuiltinGame(t *testing.T, dir string, extraEnv ...string) *builtinGame {
	t.Helper()
	return newBuiltinGameWith(t, dir, nil, extraEnv...)
}

// newBuiltinGameWith is newBuiltinGame with more arguments to 'pbem new'
// (a referee at the host, say).
func newBuiltinGameWith(t *testing.T, dir string, newArgs []string, extraEnv ...string) *builtinGame {
	t.Helper()
	g := &builtinGame{dir: dir, imap: freeAddr(t), smtp: freeAddr(t)}
	g.env = append([]string{"PBEM_MAIL_BUILTIN_IMAP=" + g.imap, "PBEM_MAIL_BUILTIN_SMTP=" + g.smtp,
		"PBEM_MAIL_RATE_PER_HOUR=100000", "PBEM_MAIL_IMAP_POLL=1s"}, extraEnv...)
	if out, errOut, code := pbem(t, g.env, append([]string{"--data-dir", dir, "new", "--game", "g1", "--ruleset", "gcacw", "--scenario", "harrow-creek",
		"--player", "anna:USA:anna@pbem.localhost:Anna", "--player", "taro:CSA:taro@pbem.localhost:Taro"}, newArgs...)...); code != 0 {
		t.Fatalf("new: %s %s", out, errOut)
	}
	out, errOut, code := pbem(t, g.env, "--data-dir", dir, "mailboxes")
	if code != 0 {
		t.Fatalf("mailboxes: %s %s", out, errOut)
	}
	g.passwords = map[string]string{}
	for _, m := range regexp.MustCompile(`user (\S+)\s+password (\S+)`).FindAllStringSubmatch(out, -1) {
		g.passwords[m[1]] = m[2]
	}
	if len(g.passwords) < 3 {
		t.Fatalf("mailboxes: %s", out)
	}
	return g
}

// send submits a mail over SMTP as user, logged in; it returns the
// server's answer to the end of DATA (nil: 250).
func (g *builtinGame) send(user, msg string) error {
	c, err := smtp.Dial(g.smtp)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Hello("client.test"); err != nil {
		return err
	}
	if err := c.Auth(sasl.NewPlainClient("", user, g.passwords[user])); err != nil {
		return err
	}
	h, _ := mail.ReadMessage(strings.NewReader(msg))
	to := h.Header.Get("To")
	if err := c.SendMail(user+"@pbem.localhost", []string{to}, strings.NewReader(msg)); err != nil {
		return err
	}
	c.Quit()
	return nil
}

// mailbox returns every mail in user's INBOX (nil if the host is down).
func (g *builtinGame) mailbox(user string) [][]byte {
	return readInbox(nil, g.imap, user, g.passwords[user])
}

// replyTo waits for user's welcome mail and returns its reply address.
func (g *builtinGame) replyTo(t *testing.T, user string) string {
	t.Helper()
	re := regexp.MustCompile(`pbem\+g1\.` + user + `\.[a-z2-7]{16}@pbem\.localhost`)
	var addr string
	waitfor.Until(t, 30*time.Second, "a welcome mail for "+user, func() bool {
		for _, m := range g.mailbox(user) {
			if a := re.Find(m); a != nil {
				addr = string(a)
			}
		}
		return addr != ""
	})
	return addr
}

func orderMail(user, to, id, text string) string {
	return fmt.Sprintf("From: %s@pbem.localhost\r\nTo: %s\r\nSubject: Re: [pbem g1] your move\r\nMessage-ID: <%s@pbem.localhost>\r\nContent-Type: text/plain\r\n\r\n%s\r\n", user, to, id, text)
}

// messageIDs returns the Message-IDs of mails.
func messageIDs(mails [][]byte) map[string]int {
	ids := map[string]int{}
	for _, m := range mails {
		if msg, err := mail.ReadMessage(bytes.NewReader(m)); err == nil {
			ids[msg.Header.Get("Message-Id")]++
		}
	}
	return ids
}

// The built-in mail host loses nothing: players send bursts of
// orders over SMTP while pbem serve is killed with SIGKILL or stopped with
// SIGTERM at random moments and started again. In the end every mail the
// host answered 250 is in the log once, decided, and every reply pbem
// recorded as sent is in its recipient's mailbox.
func TestBuiltinHostLosesNoMailAndNoReplyAcrossKillsAndStops(t *testing.T) {
	cpuBound(t)
	g := newBuiltinGame(t, t.TempDir())
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 13))
	const rounds = 6
	var mu sync.Mutex
	accepted := map[string]bool{} // Message-IDs answered 250
	sent, refused := 0, 0
	// Each round lets the host take this many mails before the random
	// moment it is stopped at: on a machine busy with other tests a send
	// may take a tenth of a second, and a round of a few hundred
	// milliseconds would then exercise nothing.
	const perRound = 5
	var replyTo map[string]string
	for r := 0; r < rounds; r++ {
		srv := startServe(t, g.dir, g.env...)
		if replyTo == nil {
			replyTo = map[string]string{"anna": g.replyTo(t, "anna"), "taro": g.replyTo(t, "taro")}
		}
		// Both players send orders until the server goes away.
		var wg sync.WaitGroup
		stop := make(chan struct{})
		first := make(chan struct{}, 2)
		for _, who := range []string{"anna", "taro"} {
			wg.Add(1)
			go func(who string) {
				defer wg.Done()
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					id := fmt.Sprintf("r%d-%s-%d", r, who, i)
					err := g.send(who, orderMail(who, replyTo[who], id, "STATUS"))
					mu.Lock()
					sent++
					if err == nil {
						accepted["<"+id+"@pbem.localhost>"] = true
					} else {
						refused++ // the server went away mid-burst: the client keeps it
					}
					mu.Unlock()
					if i == 0 {
						if err != nil {
							t.Errorf("%s's first mail of round %d: %v", who, r, err)
						}
						first <- struct{}{}
					}
					if err != nil {
						return
					}
				}
			}(who)
		}
		<-first
		mu.Lock()
		enough := len(accepted) + perRound
		mu.Unlock()
		took := waitfor.True(60*time.Second, func() bool {
			mu.Lock()
			defer mu.Unlock()
			return len(accepted) >= enough
		})
		if took {
			// Stop it at a random moment of the burst (not a wait: the
			// random delay is the scenario).
			time.Sleep(time.Duration(100+rng.IntN(600)) * time.Millisecond)
		}
		if r%2 == 0 {
			srv.Process.Signal(syscall.SIGKILL)
			srv.Wait()
		} else {
			stopServe(t, srv)
		}
		close(stop)
		wg.Wait()
		if !took {
			t.Fatalf("round %d: the host took fewer than %d mails in a minute", r, perRound)
		}
	}
	// A last run takes whatever is left, then stops cleanly.
	srv := startServe(t, g.dir, g.env...)
	out := waitSettled(t, g, len(accepted), 90*time.Second)
	serverLog := stopServe(t, srv)
	// No password reaches the log, however busy the run.
	for user, pw := range g.passwords {
		if strings.Contains(serverLog, pw) || strings.Contains(out, pw) {
			t.Errorf("the password of %s is in the server's log or the game's", user)
		}
	}

	lost := 0
	for id := range accepted {
		if n := strings.Count(out, id); n != 1 {
			lost++
			t.Errorf("mail %s was answered 250 but is in the log %d times", id, n)
		}
	}
	// Every reply recorded as sent is in its recipient's mailbox.
	srv = startServe(t, g.dir, g.env...)
	defer stopServe(t, srv)
	inbox := map[string]map[string]int{"anna": messageIDs(g.mailbox("anna")), "taro": messageIDs(g.mailbox("taro"))}
	missing, replies := 0, 0
	for _, m := range queuedRE.FindAllStringSubmatch(out, -1) {
		replies++
		if inbox[m[2]][m[1]] == 0 {
			missing++
			t.Errorf("reply %s to %s is not in the mailbox", m[1], m[2])
		}
	}
	t.Logf("%d rounds (SIGKILL and SIGTERM in turn): %d mails sent, %d answered 250 (%d refused while pbem was down), %d lost; %d replies, %d missing from mailboxes",
		rounds, sent, len(accepted), refused, lost, replies, missing)
	if len(accepted) < perRound*rounds {
		t.Fatalf("only %d of %d mails were taken: the test did not exercise the host", len(accepted), sent)
	}
}

// A full disk during a flood leaves no reply unsent once space returns.
// The data directory is a small tmpfs; while two players flood
// the game with orders the disk is filled to the last byte, so the mail
// host answers 451 (the players' clients retry), and the intake, the
// engine and the outbox cannot write. Then the space is freed: every
// order taken is decided and every reply is sent and in its mailbox.
func TestFullDiskDuringAFloodLeavesNoReplyUnsent(t *testing.T) {
	cpuBound(t)
	if os.Getuid() != 0 {
		t.Fatal("this test mounts a tmpfs, which needs root (CI runs as root)")
	}
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=24m,mode=0700", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Fatalf("mounting a tmpfs for the full disk: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", mnt).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v\n%s", mnt, err, out)
		}
	})
	dir := filepath.Join(mnt, "data")
	g := newBuiltinGame(t, dir)
	srv := startServe(t, dir, g.env...)
	replyTo := map[string]string{"anna": g.replyTo(t, "anna"), "taro": g.replyTo(t, "taro")}

	const perPlayer = 40
	var mu sync.Mutex
	taken, refusals := 0, 0
	var wg sync.WaitGroup
	for _, who := range []string{"anna", "taro"} {
		wg.Add(1)
		go func(who string) {
			defer wg.Done()
			for i := 0; i < perPlayer; i++ {
				msg := orderMail(who, replyTo[who], fmt.Sprintf("flood-%s-%d", who, i), "STATUS")
				// A mail client retries a temporary refusal until it is
				// taken, every 200ms: not a wait for an event but the
				// client's pace, which sets the load on the server.
				for deadline := time.Now().Add(3 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
					err := g.send(who, msg)
					mu.Lock()
					if err == nil {
						taken++
					} else {
						refusals++
					}
					mu.Unlock()
					if err == nil {
						break
					}
					if time.Now().After(deadline) {
						t.Errorf("%s's order %d never taken: %v", who, i, err)
						return
					}
				}
			}
		}(who)
	}
	waitfor.Until(t, 30*time.Second, "the flood to begin", func() bool { mu.Lock(); defer mu.Unlock(); return taken >= 10 })
	// Fill the disk to the last byte.
	filler, err := os.Create(filepath.Join(mnt, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 64<<10)
	for {
		if _, err := filler.Write(chunk); err != nil {
			break
		}
	}
	for n := 1; n > 0; {
		n, _ = filler.Write(chunk[:512])
	}
	filler.Close()
	mu.Lock()
	atFull := taken
	mu.Unlock()
	// The flood goes on into the full disk until the server meets it.
	if !waitfor.True(time.Minute, func() bool {
		return strings.Contains(srv.Stderr.(*syncbuf.Buffer).String(), "no space left on device")
	}) {
		t.Fatal("the server never met the full disk: the test did not fill it")
	}
	mu.Lock()
	duringFull, refusedFull := taken-atFull, refusals
	mu.Unlock()
	if err := os.Remove(filepath.Join(mnt, "filler")); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	out := waitSettled(t, g, 2*perPlayer, 2*time.Minute)
	serverLog := stopServe(t, srv)
	enospc := strings.Count(serverLog, "no space left on device")
	outboxWaits := strings.Count(serverLog, "outbox cannot record")
	srv = startServe(t, dir, g.env...)
	defer stopServe(t, srv)
	missing := 0
	inbox := map[string]map[string]int{"anna": messageIDs(g.mailbox("anna")), "taro": messageIDs(g.mailbox("taro"))}
	replies := queuedRE.FindAllStringSubmatch(out, -1)
	for _, m := range replies {
		if inbox[m[2]][m[1]] == 0 {
			missing++
			t.Errorf("reply %s to %s is not in the mailbox", m[1], m[2])
		}
	}
	t.Logf("full disk during a flood of %d orders: %d taken while the disk was full, %d refusals (temporary, retried), %d 'no space' errors in the server's log (%d from the outbox, which kept trying); after space returned every order decided, %d replies, %d missing",
		2*perPlayer, duringFull, refusedFull, enospc, outboxWaits, len(replies), missing)
	// The server must have met the full disk. Whether SMTP refused mail
	// meanwhile depends on how much free space bbolt's files had kept
	// inside them (a file grows in steps, and freed pages are reused), so
	// refusals are reported, not required: what is required is that the
	// server saw the disk full and that no order and no reply was lost.
	if enospc == 0 {
		t.Fatal("the server never met the full disk: the test did not fill it")
	}
}

var (
	queuedRE = regexp.MustCompile(`mail\.queued/v1\s+(<g1\.\d+@pbem\.localhost>) to (\w+)@`)
	sentRE   = regexp.MustCompile(`mail\.sent/v1\s+(<g1\.\d+@pbem\.localhost>)`)
)

// waitSettled waits until at least orders orders are in g's log, every one
// decided, and every queued mail sent; it returns the log.
func waitSettled(t *testing.T, g *builtinGame, orders int, within time.Duration) string {
	t.Helper()
	var out string
	var received, decided, unsent int
	if waitfor.True(within, func() bool {
		out, _, _ = pbem(t, nil, "--data-dir", g.dir, "log", "g1")
		received = strings.Count(out, "order.received/v")
		decided = strings.Count(out, "order.accepted/") + strings.Count(out, "order.rejected/")
		sent := map[string]bool{}
		for _, m := range sentRE.FindAllStringSubmatch(out, -1) {
			sent[m[1]] = true
		}
		unsent = 0
		for _, m := range queuedRE.FindAllStringSubmatch(out, -1) {
			if !sent[m[1]] {
				unsent++
			}
		}
		return received >= orders && decided == received && unsent == 0
	}) {
		return out
	}
	t.Fatalf("not settled within %v: %d orders received (want %d), %d decided, %d replies unsent\n%s", within, received, orders, decided, unsent, tail(out, 20))
	return ""
}
