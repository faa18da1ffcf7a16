//go:build linux

package main

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"pbem/internal/waitfor"
	"pbem/mail/mailhost"
)

// Mail intake survives crashes: orders keep arriving in the game
// mailbox on Dovecot while pbem serve is killed with SIGKILL at random
// moments and restarted; in the end every order is in the log exactly once
// and decided, and the chain verifies.
func TestSIGKILLDuringMailIntakeLosesAndDuplicatesNothing(t *testing.T) {
	t.Parallel()
	dc, players, env, dir := dovecotGame(t)
	game := dc.Dial(t, nil)
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	const orders, kills = 30, 6
	replyTo := map[string]string{}
	sent := 0
	for k := 0; k <= kills; k++ {
		srv := startServe(t, dir, env...)
		for _, who := range []string{"anna", "taro"} {
			// Each player answers to the reply address of their welcome mail.
			re := regexp.MustCompile(`pbem\+g1\.` + who + `\.[a-z2-7]{16}@game\.test`)
			waitfor.Until(t, 20*time.Second, "a welcome mail for "+who, func() bool {
				if replyTo[who] == "" {
					replyTo[who] = re.FindString(mailbox(players, who))
				}
				return replyTo[who] != ""
			})
		}
		for n := 0; n < orders/(kills+1)+1 && sent < orders; n++ {
			who := []string{"anna", "taro"}[sent%2]
			msg := hostResult(who+"@players.test") + fmt.Sprintf("From: %s@players.test\r\nTo: %s\r\nSubject: Re: [pbem g1] your move\r\nMessage-ID: <order-%d@players.test>\r\nContent-Type: text/plain\r\n\r\nSTATUS\r\n", who, replyTo[who], sent)
			cmd := game.Append("INBOX", int64(len(msg)), nil)
			cmd.Write([]byte(msg))
			cmd.Close()
			if _, err := cmd.Wait(); err != nil {
				t.Fatal(err)
			}
			sent++
			time.Sleep(time.Duration(rng.IntN(60)) * time.Millisecond) // not a wait: a random pace between mails
		}
		if k == kills {
			waitDecided(t, dir, orders)
			stopServe(t, srv)
			break
		}
		// Kill it at a random moment while those mails are being taken
		// (not a wait: the random delay is the scenario).
		time.Sleep(time.Duration(rng.IntN(300)) * time.Millisecond)
		srv.Process.Signal(syscall.SIGKILL)
		srv.Wait()
	}
	out, _, _ := pbem(t, nil, "--data-dir", dir, "log", "g1")
	for i := 0; i < orders; i++ {
		if n := strings.Count(out, fmt.Sprintf("<order-%d@players.test>", i)); n != 1 {
			t.Errorf("order %d appears %d times in the log", i, n)
		}
	}
	if got := strings.Count(out, "order.accepted/v2") + strings.Count(out, "order.rejected/v1"); got != orders {
		t.Errorf("%d decisions for %d orders", got, orders)
	}
	if vout, _, code := pbem(t, nil, "--data-dir", dir, "verify", "g1"); code != 0 {
		t.Fatalf("verify: %s", vout)
	}
	t.Logf("crash test: %d orders by mail, %d SIGKILLs of pbem serve; every order in the log once and decided", orders, kills)
}

func waitDecided(t *testing.T, dir string, n int) {
	t.Helper()
	var out string
	if !waitfor.True(60*time.Second, func() bool {
		out, _, _ = pbem(t, nil, "--data-dir", dir, "log", "g1")
		return strings.Count(out, "order.accepted/v2")+strings.Count(out, "order.rejected/v1") >= n
	}) {
		t.Fatalf("not all %d orders decided within 60s:\n%s", n, tail(out, 30))
	}
}

// mailbox returns the raw bytes of every mail in user's INBOX on host ("" if
// it cannot be read yet).
func mailbox(host *mailhost.Host, user string) string {
	c, err := imapclient.DialInsecure(host.IMAPAddr(), nil)
	if err != nil {
		return ""
	}
	defer c.Close()
	if err := c.Login(user, "pw").Wait(); err != nil {
		return ""
	}
	sel, err := c.Select("INBOX", nil).Wait()
	if err != nil || sel.NumMessages == 0 {
		return ""
	}
	section := &imap.FetchItemBodySection{}
	msgs, err := c.Fetch(imap.SeqSet{imap.SeqRange{Start: 1, Stop: sel.NumMessages}}, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		return ""
	}
	var b strings.Builder
	for _, m := range msgs {
		b.Write(m.FindBodySection(section))
	}
	return b.String()
}
