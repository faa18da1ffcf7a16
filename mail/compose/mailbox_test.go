package compose_test

import (
	"errors"
	"strings"
	"testing"

	"pbem/engine/play"
	"pbem/events"
	"pbem/mail/compose"
	"pbem/templates"
)

// A seat a referee's mail gives at pbem's own mail host: the answer to
// that referee alone holds the mark of the new mailbox's password (the
// server fills in only a mailbox made by the decision the mail follows);
// the new holder's welcome says who has the password and
// holds none; the same command from pbem's command line puts no mark in
// any mail (the command line prints the password).
func TestNewMailboxPasswordGoesOnlyToTheRefereeWhoseMailMadeIt(t *testing.T) {
	cc := cfg
	cc.Mailhost = &compose.Mailhost{IMAP: "127.0.0.1:1143", SMTP: "127.0.0.1:1025"}
	s, c := deskServerWith(t, cc)
	ms := s.input(&events.RefereeCommand{Referee: "umpire", Text: "REPLACE north WITH Kim@PBEM.localhost NAME Kim\nOBSERVER ADD lee@pbem.localhost\nOBSERVER ADD obs@example.org", Source: "mail"})
	mark := compose.NewMailboxMark("kim")
	for _, m := range ms {
		has := strings.Contains(m.m.Body, mark)
		if want := m.m.To[0] == "carol@example.net"; has != want || strings.Contains(m.m.Body, compose.PasswordMark) {
			t.Errorf("mail to %v (%s): holds the new mailbox's mark %v, want %v; or the welcome's mark", m.m.To, m.m.Template, has, want)
		}
	}
	ref := bodyTo(t, ms, "carol@example.net")
	if ref.Template != templates.NameReferee {
		t.Fatalf("the referee's answer is a %s", ref.Template)
	}
	wantIn(t, ref.Body, "New mailboxes", "kim@pbem.localhost", "User kim", "Password "+mark,
		"lee@pbem.localhost", "Password "+compose.NewMailboxMark("lee"))
	if strings.Contains(ref.Body, "obs@example.org\n    IMAP") {
		t.Error("an address elsewhere is shown as a new mailbox")
	}
	kim := bodyTo(t, ms, "kim@pbem.localhost")
	wantIn(t, kim.Body, "User kim", "its password was given only to whoever added you to the game")

	// Filled as it is sent: the password of a mailbox the decision made,
	// else a note; never in a mail of another template.
	made := map[string]string{"kim": "kim-secret"}
	pw := compose.Passwords{
		Own:  func(u string) (string, error) { return "", errors.New("not asked") },
		Made: func(u string) (string, error) { return made[u], nil }}
	body, err := c.FillPassword(ref, pw)
	if err != nil || !strings.Contains(body, "Password  kim-secret") || !strings.Contains(body, "Password  "+compose.NoPasswordGiven) || strings.Contains(body, "{pbem:") {
		t.Fatalf("filled: %v\n%s", err, body)
	}
	// A mark in the older form, which named the seq the decision was
	// composed for (queued by an older pbem, sent by this one): filled the
	// same, whatever the seq.
	old := *ref
	old.Body = strings.Replace(ref.Body, mark, "{pbem:new-mailbox:kim:12345}", 1)
	if body, err := c.FillPassword(&old, pw); err != nil || !strings.Contains(body, "Password  kim-secret") || strings.Contains(body, "{pbem:") {
		t.Fatalf("filled, from the older mark: %v\n%s", err, body)
	}
	forged := *bodyTo(t, ms, "taro@example.jp")
	forged.Body += "\n" + mark
	if body, _ := c.FillPassword(&forged, pw); strings.Contains(body, "kim-secret") {
		t.Fatal("a player's mail drew the password")
	}
	if _, err := c.FillPassword(ref, compose.Passwords{Made: func(string) (string, error) { return "", errors.New("store away") }}); err == nil {
		t.Fatal("a password that could not be read left the mark to be sent")
	}

	// From the command line: no mail carries a mark.
	ms = s.input(&events.RefereeCommand{Referee: "umpire", Text: "OBSERVER ADD ann@pbem.localhost", Source: "cli"})
	for _, m := range ms {
		if strings.Contains(m.m.Body, "{pbem:") {
			t.Errorf("mail to %v holds a mark after a command from the command line", m.m.To)
		}
	}
}

// MailboxesAdded names the host's users a decision's facts give seats.
func TestMailboxesAdded(t *testing.T) {
	cc := cfg
	cc.Mailhost = &compose.Mailhost{}
	set, err := templates.Load("")
	if err != nil {
		t.Fatal(err)
	}
	c := compose.New(cc, set)
	facts := []events.Fact{
		events.NewFact(play.FactPlayer, events.S("id", "north"), events.SL("addresses", "kim@pbem.localhost", "kim@example.org")),
		events.NewFact(play.FactObserver, events.S("address", "lee@pbem.localhost"), events.B("added", true)),
		events.NewFact(play.FactObserver, events.S("address", "old@pbem.localhost"), events.B("added", false)),
		events.NewFact(play.FactReferee, events.S("id", "dana"), events.SL("addresses", "dana@pbem.localhost", "pbem+x@pbem.localhost"), events.B("added", true)),
		events.NewFact(play.FactReferee, events.S("id", "kim2"), events.SL("addresses", "kim@pbem.localhost"), events.B("added", true)),
	}
	if got := strings.Join(c.MailboxesAdded(facts), " "); got != "kim lee dana" {
		t.Fatalf("added %q", got)
	}
}
