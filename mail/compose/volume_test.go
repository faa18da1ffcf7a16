package compose_test

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"pbem/engine/play"
	"pbem/events"
	"pbem/internal/golden"
	"pbem/mail/outbox"
	"pbem/mail/token"

	gomail "github.com/emersion/go-message/mail"
)

// TestGoldenShortGameByMove keeps every mail of the short game golden
// under the default volume (MOVE): a mail only when the reader must act,
// with what happened since their last mail folded in.
func TestGoldenShortGameByMove(t *testing.T) {
	m := shortGameVolume(t, "")
	got, err := transcript(m.log)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := transcript(shortGameVolume(t, "").log); again != got {
		t.Fatal("playing the same script twice gave different mails")
	}
	golden.CheckString(t, "short-game-move.golden", got)
	for _, s := range mailsIn(t, m.log) {
		tok, _ := token.ParseAddress(s.m.ReplyTo, cfg.Local, cfg.Domain)
		irt := ""
		if strings.HasPrefix(s.m.InReplyTo, "<order-") {
			irt = s.m.InReplyTo
		}
		checkMail(t, s, tok.Player, irt)
	}
}

// told is what each reader was told of the game in the mails of log: every
// line under "What happened" and every die, in any mail to them.
func told(t *testing.T, log []events.Envelope) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, s := range mailsIn(t, log) {
		tok, _ := token.ParseAddress(s.m.ReplyTo, cfg.Local, cfg.Domain)
		for _, l := range toldLines(s.m.Body) {
			if !slices.Contains(out[tok.Player], l) {
				out[tok.Player] = append(out[tok.Player], l)
			}
		}
	}
	return out
}

var toldSection = regexp.MustCompile(`(?m)^(What happened|Dice)\n-+\n((?:.+\n)*)`)

func toldLines(body string) []string {
	var out []string
	for _, m := range toldSection.FindAllStringSubmatch(body, -1) {
		for _, l := range strings.Split(strings.TrimRight(m[2], "\n"), "\n") {
			if l = strings.TrimSpace(l); l != "" && l != "Nothing changed." && l != "No dice were rolled." && !strings.HasPrefix(l, "roll  die") {
				out = append(out, l)
			}
		}
	}
	return out
}

// TestEveryVolumeTellsEveryFact plays the short game under each volume and
// checks that each reader is told every fact and die they were told with a
// mail for every action: the digests lose nothing. And the fewer mails.
func TestEveryVolumeTellsEveryFact(t *testing.T) {
	every := shortGameVolume(t, play.VolumeEvery)
	want := told(t, every.log)
	if len(want["north"]) == 0 || len(want["south"]) == 0 || len(want["umpire"]) == 0 {
		t.Fatalf("the short game tells too little to compare: %v", want)
	}
	count := func(log []events.Envelope) int { return len(mailsIn(t, log)) }
	for _, vol := range []string{play.VolumeTurn, play.VolumeMove} {
		t.Run(vol, func(t *testing.T) {
			m := shortGameVolume(t, vol)
			got := told(t, m.log)
			for reader, lines := range want {
				for _, l := range lines {
					if !slices.Contains(got[reader], l) {
						t.Errorf("%s: %s was told %q with MAIL EVERY, never with MAIL %s", vol, reader, l, strings.ToUpper(vol))
					}
				}
			}
			if n, all := count(m.log), count(every.log); n >= all {
				t.Errorf("MAIL %s sent %d mails, MAIL EVERY %d: no fewer", strings.ToUpper(vol), n, all)
			}
			for _, e := range m.log {
				if e.Type == events.TypeMailHeld {
					return
				}
			}
			t.Errorf("MAIL %s held nothing: no digest was tested", strings.ToUpper(vol))
		})
	}
}

// What each mail is shows in a message list, and every mail to a reader
// stays in one thread: the mails of the short game, rendered as sent and
// read back by go-message, carry one subject, References rooted in the
// reader's welcome, and a From display name that names the kind.
func TestTheKindShowsInTheFromAndTheThreadStaysOne(t *testing.T) {
	m := shortGameVolume(t, "")
	names := map[string]string{} // template: From display name
	subjects := map[string]bool{}
	for _, s := range mailsIn(t, m.log) {
		raw, err := outbox.Render(game, s.seq, start, s.m, outbox.Headers{From: `"pbem" <pbem@pbem.localhost>`, ListDomain: "lists.pbem.localhost"})
		if err != nil {
			t.Fatal(err)
		}
		r, err := gomail.CreateReader(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		from, err := r.Header.AddressList("From")
		if err != nil || len(from) != 1 || from[0].Address != "pbem@pbem.localhost" {
			t.Fatalf("From %v, %v", from, err)
		}
		subject, _ := r.Header.Subject()
		subjects[subject] = true
		refs, _ := r.Header.MsgIDList("References")
		tok, _ := token.ParseAddress(s.m.ReplyTo, cfg.Local, cfg.Domain)
		if s.m.Template != "welcome" && (len(refs) == 0 || !strings.HasPrefix(refs[0], game+".")) {
			t.Errorf("mail %d to %s: References %v do not start at the welcome", s.seq, tok.Player, refs)
		}
		key := s.m.Template
		if key == "referee" {
			// A ruling asked reads as the referee's move; a notice as a report.
			first, _, _ := strings.Cut(s.m.Body, "\n")
			key += ": " + first
		}
		if prev, ok := names[key]; ok && prev != from[0].Name {
			t.Errorf("%s mails come from %q and %q", key, prev, from[0].Name)
		}
		names[key] = from[0].Name
		r.Close()
	}
	if len(subjects) != 1 {
		t.Errorf("the mails have %d subjects, want one: %v", len(subjects), subjects)
	}
	want := map[string]string{"welcome": "Welcome · pbem", "yourmove": "Your move · pbem", "rejected": "Rejected · pbem",
		"gameover": "Game over · pbem", "help": "Answer · pbem", "status": "Answer · pbem"}
	for tmpl, name := range want {
		if names[tmpl] != name {
			t.Errorf("a %s mail comes from %q, want %q", tmpl, names[tmpl], name)
		}
	}
	// The reports a referee reads, and the reminder, read differently too.
	if names["referee: Referee: ruling needed"] != "Your move · pbem" || names["referee: Referee: ruling applied"] != "Report · pbem" {
		t.Errorf("referee mails come from %v", names)
	}
	rem, err := m.c.Reminder(m.g, play.Deadline{Player: "south", Due: start.Add(48 * time.Hour).UnixNano()})
	if err != nil || len(rem) != 1 {
		t.Fatalf("reminder: %v %v", rem, err)
	}
	if got := outbox.FromName("pbem", rem[0].(*events.MailQueued)); got != "Reminder · pbem" {
		t.Errorf("a reminder comes from %q", got)
	}
	if names["report"] != "Accepted · pbem" {
		t.Errorf("the confirmation of a player's orders comes from %q", names["report"])
	}
	if got := outbox.FromName("pbem", &events.MailQueued{Template: "report", Body: "Report\n\nAnna,"}); got != "Report · pbem" {
		t.Errorf("a report comes from %q", got)
	}
}

// Under MAIL MOVE a referee's change goes into the next mail, unless it
// changes what a reader must do now: a pause reaches the player whose
// move it is, at once, and waits for the other's next mail.
func TestARefereesChangeWaitsForTheNextMailUnlessItChangesAStep(t *testing.T) {
	m := newInMemoryVolume(t, newComposer(t), "")
	m.send("north", false, "ROLL") // CSA's move now
	to := func(from int) []string {
		var out []string
		for _, s := range mailsIn(t, m.log[from:]) {
			tok, _ := token.ParseAddress(s.m.ReplyTo, cfg.Local, cfg.Domain)
			out = append(out, tok.Player+" "+s.m.Template)
		}
		return out
	}
	n := len(m.log)
	m.send("umpire", true, "SETTING images off")
	if got := to(n); !slices.Equal(got, []string{"umpire referee"}) {
		t.Errorf("a setting that changes no one's step: mails %v, want the referee's answer alone", got)
	}
	n = len(m.log)
	m.send("umpire", true, "PAUSE")
	if got := to(n); !slices.Equal(got, []string{"south yourmove", "umpire referee"}) {
		t.Errorf("a pause: mails %v, want the player whose move it is, and the referee's answer", got)
	}
	n = len(m.log)
	m.send("umpire", true, "RESUME")
	m.send("south", false, "ADD 2") // USA's move: north hears of all of it
	got := mailsIn(t, m.log[n:])
	var north string
	for _, s := range got {
		if tok, _ := token.ParseAddress(s.m.ReplyTo, cfg.Local, cfg.Domain); tok.Player == "north" {
			north += s.m.Body
		}
	}
	for _, want := range []string{"Since your last mail", "SETTING images off", "PAUSE", "RESUME", "CSA adds 2."} {
		if !strings.Contains(north, want) {
			t.Errorf("north's next mail lacks %q:\n%s", want, north)
		}
	}
}

// Under MAIL MOVE an input that answers a player's order and gives the
// same player the move again sends that player one mail: the answer
// first, then what they must do now, never an acceptance and a your-move.
func TestAnAnswerThatGivesTheMoveAgainIsOneMail(t *testing.T) {
	m := newInMemoryScenario(t, newComposer(t), "", "target 12\nhand 2")
	n := len(m.log)
	m.send("north", false, "DEAL") // north deals, and it is still north's turn
	var north []sent
	for _, s := range mailsIn(t, m.log[n:]) {
		if tok, _ := token.ParseAddress(s.m.ReplyTo, cfg.Local, cfg.Domain); tok.Player == "north" {
			north = append(north, s)
		}
	}
	if len(north) != 1 {
		t.Fatalf("north got %d mails for the one input, want 1", len(north))
	}
	body := north[0].m.Body
	answer, move := strings.Index(body, "were accepted"), strings.Index(body, "\nYour move\n---")
	if north[0].m.Template != "yourmove" || answer < 0 || move < answer {
		t.Errorf("north's mail (%s) does not tell the answer first, then the move:\n%s", north[0].m.Template, body)
	}
}
