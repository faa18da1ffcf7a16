//go:build linux

package main

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"

	"pbem/internal/waitfor"
)

// The README's first game, as a new user runs it: 'pbem serve' on the
// default built-in mail host, then the README's own 'pbem new' (read from
// README.md, so that this fails if the README drifts) in a fresh data
// directory. Every player and referee it names gets the welcome mail in
// the mailbox 'pbem mailboxes' gives the password of, and 'pbem games'
// names no undelivered mail.
func TestREADMEFirstGameReachesEveryPlayer(t *testing.T) {
	t.Parallel()
	var newArgs []string
	for _, args := range readmeExamples(t) {
		if args[0] == "new" {
			newArgs = args
			break
		}
	}
	if newArgs == nil {
		t.Fatal("the README's examples have no 'pbem new'")
	}
	var addrs []string
	game := ""
	for i, a := range newArgs[:len(newArgs)-1] {
		switch a {
		case "--game":
			game = newArgs[i+1]
		case "--player", "--referee":
			for _, f := range strings.Split(newArgs[i+1], ":") {
				if strings.Contains(f, "@") {
					addrs = append(addrs, strings.Split(f, ",")...)
				}
			}
		}
	}
	dir := t.TempDir()
	imapAddr := freeAddr(t)
	env := []string{"PBEM_DATA_DIR=" + dir, "PBEM_MAIL_BUILTIN_IMAP=" + imapAddr, "PBEM_MAIL_BUILTIN_SMTP=" + freeAddr(t)}
	// What is tested is that the README's first game reaches every player as written (content): served on contentBin.
	srv := startServeContent(t, dir, env...)
	defer stopServe(t, srv)
	if out, errOut, code := pbem(t, env, newArgs...); code != 0 || strings.Contains(errOut, "warning") {
		t.Fatalf("the README's pbem new: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code := pbem(t, env, "mailboxes")
	if code != 0 {
		t.Fatalf("pbem mailboxes: exit %d\n%s%s", code, out, errOut)
	}
	passwords := map[string]string{}
	for _, m := range regexp.MustCompile(`(\S+@\S+)\s+user (\S+)\s+password (\S+)`).FindAllStringSubmatch(out, -1) {
		passwords[strings.ToLower(m[1])] = m[2] + " " + m[3]
	}
	if len(addrs) < 3 {
		t.Fatalf("the README's pbem new names %d addresses: %v", len(addrs), newArgs)
	}
	for _, addr := range addrs {
		up, ok := passwords[strings.ToLower(addr)]
		if !ok {
			t.Fatalf("pbem mailboxes lists no mailbox for %s:\n%s", addr, out)
		}
		user, pw, _ := strings.Cut(up, " ")
		c, err := imapclient.DialInsecure(imapAddr, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if err := c.Login(user, pw).Wait(); err != nil {
			t.Fatalf("%s cannot log in with the password pbem mailboxes gives: %v", addr, err)
		}
		ms := waitMails(t, c, 1)
		if !strings.HasPrefix(ms[0].body, "Welcome: you ") {
			t.Fatalf("%s's first mail is no welcome:\n%s", addr, ms[0].body)
		}
	}
	waitfor.Until(t, 10*time.Second, "every welcome recorded as sent", func() bool {
		log, _, _ := pbem(t, env, "log", game)
		return strings.Count(log, "mail.sent") == len(addrs)
	})
	if games, _, _ := pbem(t, env, "games"); strings.Contains(games, "UNDELIVERED") {
		t.Fatalf("pbem games:\n%s", games)
	}
}
