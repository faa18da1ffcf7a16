//go:build linux

package main

import (
	"strings"
	"testing"
	"time"

	"pbem/demo"
	"pbem/demo/servetest"
	"pbem/internal/waitfor"
	"pbem/mail/mailhost"
)

// A welcome mail the players' mail host refuses for good (no such user)
// is no longer seen only in serve's log: 'pbem games' names it, and the
// game's referee is told by mail, once.
func TestUndeliveredWelcomeShowsInGamesAndIsToldToTheReferee(t *testing.T) {
	t.Parallel()
	host, err := mailhost.Start(mailhost.Config{Domain: "players.test", OpenDelivery: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	if err := host.AddUser("pbem", "pw"); err != nil { // the game mailbox the intake reads
		t.Fatal(err)
	}
	r := &servetest.World{T: t, Bin: pbemBin, CmdBin: contentBin, Dir: t.TempDir(), Queued: map[string][]demo.Mail{},
		Env: []string{"PBEM_MAIL_DOMAIN=game.test", "PBEM_MAIL_IMAP_ADDR=" + host.IMAPAddr(), "PBEM_MAIL_IMAP_USERNAME=pbem",
			"PBEM_MAIL_IMAP_PASSWORD=pw", "PBEM_MAIL_SMTP_ADDR=" + host.SMTPAddr()}}
	// taro has no mailbox at players.test: his welcome bounces for good.
	r.Pbem("new", "--game", "g1", "--ruleset", "gcacw", "--scenario", "harrow-creek",
		"--player", "anna:USA:anna@players.test:Anna", "--player", "taro:CSA:taro@players.test:Taro",
		"--referee", "carol:carol@players.test:Carol")
	r.People = servetest.Mailboxes(t, host, "anna", "carol")
	srv := startServe(t, r.Dir, r.Env...)
	defer func() { stopServe(t, srv) }()

	r.Next("anna", "Welcome: you play USA")
	r.Next("carol", "Welcome: you referee")
	note := r.Next("carol", "A mail could not be delivered")
	if !strings.Contains(note.Body, "taro@players.test") || !strings.Contains(note.Body, "no such user") ||
		!strings.Contains(note.Body, "REPLACE <player> WITH <address>") {
		t.Fatalf("the referee's notice:\n%s", note.Body)
	}
	var games string
	waitfor.Until(t, 20*time.Second, "pbem games to name the undelivered welcome", func() bool {
		games = r.Pbem("games")
		return strings.Contains(games, "UNDELIVERED")
	})
	if !strings.Contains(games, `UNDELIVERED: the mail "[pbem g1] Harrow Creek" to taro@players.test failed for good`) ||
		!strings.Contains(games, "no such user") {
		t.Fatalf("pbem games:\n%s", games)
	}
	// A restart tells the referee nothing twice: once the restarted
	// server has loaded the game and requeued what was unsent, applied
	// its clock and sent every mail it queued, the log and Carol's
	// mailbox hold no second notice.
	stopServe(t, srv)
	srv = startServe(t, r.Dir, r.Env...)
	servetest.WaitLogged(t, srv, "every game loaded", time.Minute)
	r.Pbem("tick")
	var log string
	waitfor.Until(t, mailWait, "every mail queued to be sent", func() bool {
		log = r.Pbem("log", "g1")
		return servetest.OutboxDrained(log)
	})
	if strings.Count(log, "A mail could not be delivered") > 1 || strings.Count(log, "mail.queued") != 4 {
		t.Fatalf("after a restart, the log:\n%s", tail(log, 20))
	}
	r.None("carol")
}
