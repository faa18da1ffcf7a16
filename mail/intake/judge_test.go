package intake

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pbem/engine/play"
	"pbem/events"
	"pbem/mail/token"
	"pbem/store"
)

var secret = []byte("test secret")

const domain = "pbem.test"

func newGame(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "pbem.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	gc := &events.GameCreated{Ruleset: "gcacw", Players: []events.Player{
		{ID: "usa", Side: "USA", Addresses: []string{"anna@example.org", "anna@work.example"}},
		{ID: "csa", Side: "CSA", Addresses: []string{"taro@example.jp"}},
	}, Referees: []events.Player{{ID: "ref", Addresses: []string{"ref@example.org"}}}}
	if _, err := st.Append("g1", 0, events.New("g1", time.Unix(0, 0), "", gc)); err != nil {
		t.Fatal(err)
	}
	return st
}

func newIntake(st *store.Store, burst int) *Intake {
	return New(Config{Local: "pbem", Domain: domain, Secret: secret, Senders: transportAuth, RateBurst: burst,
		Now: func() time.Time { return time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC) }}, st)
}

func mail(from, to, subject, msgID, extraHeaders, body string) []byte {
	return []byte(fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: %s\r\nDate: Sat, 21 Nov 2026 12:00:00 +0000\r\n%sContent-Type: text/plain; charset=utf-8\r\n\r\n%s",
		from, to, subject, msgID, extraHeaders, strings.ReplaceAll(body, "\n", "\r\n")))
}

func reply(player string) string { return token.Address(secret, "pbem", domain, "g1", player) }

func TestSpoofSuiteAndWhoIsWriting(t *testing.T) {
	otherToken := token.Make(secret, "g1", "csa")
	tests := []struct {
		name       string
		raw        []byte
		wantPlayer string // "" = quarantined
		wantType   string
		wantText   string
		wantReason string
	}{
		{"player replying", mail("Anna <anna@example.org>", reply("usa"), "Re: [pbem g1] your move", "<m1@x>", "", "MARCH Newton 2314 2315\n\n> quoted board\n"),
			"usa", events.TypeOrderReceived, "MARCH Newton 2314 2315\n", ""},
		{"second registered address", mail("anna@work.example", reply("usa"), "Re: x", "<m2@x>", "", "PASS\n"), "usa", events.TypeOrderReceived, "PASS\n", ""},
		{"referee", mail("ref@example.org", reply("ref"), "Re: x", "<m3@x>", "", "RULE extended march NEWT D\nSecret: "+token.RefereeSecret(secret, "g1", "ref")+"\n"), "ref", events.TypeRefereeCommand, "RULE extended march NEWT D\n\n", ""},
		{"referee's query needs no secret", mail("ref@example.org", reply("ref"), "Re: x", "<m3q@x>", "", "STATUS\n"), "ref", events.TypeRefereeCommand, "STATUS\n", ""},
		// Logged as refused, so that the referee is answered.
		{"referee without a secret", mail("ref@example.org", reply("ref"), "Re: x", "<r1@x>", "", "RULE extended march NEWT D\n"), "ref", events.TypeRefereeCommand, "RULE extended march NEWT D\n", "refused: it has no Secret line"},
		{"referee with a wrong secret", mail("ref@example.org", reply("ref"), "Re: x", "<r2@x>", "", "SET NEWT fatigue 0\nSecret: "+token.RefereeSecret(secret, "g2", "ref")+"\n"), "ref", events.TypeRefereeCommand, "SET NEWT fatigue 0\n\n", "refused: its Secret line is wrong"},
		{"referee's token and secret from a forged From", mail("mallory@evil.example", reply("ref"), "Re: x", "<r3@x>", "", "ROLLBACK 2 ACTIONS\nSecret: "+token.RefereeSecret(secret, "g1", "ref")+"\n"), "", "", "", "not registered"},
		{"key line when the client lost the Reply-To", mail("taro@example.jp", "pbem@"+domain, "Re: [pbem g1] your move", "<m4@x>", "",
			"PASS\nKey: "+otherToken+"\n"), "csa", events.TypeOrderReceived, "PASS\n\n", ""},
		{"forged From with a valid token", mail("mallory@evil.example", reply("usa"), "Re: x", "<s1@x>", "", "PASS\n"), "", "", "", "not registered"},
		{"valid From with a forged token", mail("anna@example.org", "pbem+g1.usa.aaaaaaaaaaaaaaaa@"+domain, "Re: x", "<s2@x>", "", "PASS\n"), "", "", "", "does not match"},
		{"valid From with the other player's token", mail("anna@example.org", reply("csa"), "Re: x", "<s3@x>", "", "PASS\n"), "", "", "", "not registered for csa"},
		{"token of another game", mail("anna@example.org", token.Address(secret, "pbem", domain, "g2", "usa"), "Re: x", "<s4@x>", "", "PASS\n"), "", "", "", "unknown game"},
		{"no token at all", mail("anna@example.org", "pbem@"+domain, "orders", "<s5@x>", "", "PASS\n"), "", "", "", "no reply token"},
		{"auto-reply", mail("anna@example.org", reply("usa"), "Out of office", "<s6@x>", "Auto-Submitted: auto-replied\r\n", "I am away.\n"), "", "", "", "automatic mail"},
		{"bounce", []byte("From: MAILER-DAEMON@example.org\r\nTo: " + reply("usa") + "\r\nSubject: Undelivered Mail\r\nMessage-ID: <s7@x>\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nPASS\r\n--b--\r\n"),
			"", "", "", "automatic mail"},
		{"mailing list", mail("anna@example.org", reply("usa"), "x", "<s8@x>", "List-Id: <wargames.example.org>\r\n", "PASS\n"), "", "", "", "automatic mail"},
		{"null sender", []byte("From: <>\r\nTo: " + reply("usa") + "\r\nSubject: x\r\nMessage-ID: <s9@x>\r\n\r\nPASS\r\n"), "", "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := newGame(t)
			in := newIntake(st, 100)
			if err := in.Take(tc.raw, "INBOX", store.Checkpoint{UIDValidity: 1, UID: 9}); err != nil {
				t.Fatal(err)
			}
			es, _ := st.Events("g1", 2)
			q, _ := st.QuarantineList()
			if cp, _ := st.Checkpoint("INBOX"); cp.UID != 9 {
				t.Fatalf("checkpoint not advanced with the mail: %+v", cp)
			}
			if tc.wantPlayer == "" {
				if len(es) != 0 || len(q) != 1 || !strings.Contains(q[0].Reason, tc.wantReason) || string(q[0].Raw) != string(tc.raw) {
					t.Fatalf("want quarantined (%q) with raw bytes; events %d, quarantine %+v", tc.wantReason, len(es), q)
				}
				return
			}
			if len(es) != 1 || len(q) != 0 || es[0].Type != tc.wantType {
				t.Fatalf("want one %s, got %d events, quarantine %+v", tc.wantType, len(es), q)
			}
			p, _ := events.Decode(&es[0])
			var player, text string
			switch p := p.(type) {
			case *events.OrderReceived:
				player, text = p.Player, p.Text
			case *events.RefereeCommand:
				player, text = p.Referee, p.Text
				if want, _ := strings.CutPrefix(tc.wantReason, "refused: "); p.Refused != want {
					t.Fatalf("refused %q, want %q", p.Refused, want)
				}
				if strings.Contains(string(es[0].Payload), token.RefereeSecret(secret, "g2", "ref")) {
					t.Fatal("the secret given reached the log")
				}
			}
			if player != tc.wantPlayer || text != tc.wantText {
				t.Fatalf("got %s %q, want %s %q", player, text, tc.wantPlayer, tc.wantText)
			}
			if raw, ok, _ := st.Raw("g1", es[0].Seq); !ok || string(raw) != string(tc.raw) {
				t.Fatal("raw mail not kept as evidence")
			}
		})
	}
}

func TestReplayedMailIsNotASecondOrder(t *testing.T) {
	st := newGame(t)
	in := newIntake(st, 100)
	raw := mail("anna@example.org", reply("usa"), "Re: x", "<same@x>", "", "PASS\n")
	in.Take(raw, "INBOX", store.Checkpoint{UIDValidity: 1, UID: 1})
	// The same mail again, e.g. after UIDVALIDITY changed, or resent by an attacker.
	in.Take(raw, "INBOX", store.Checkpoint{UIDValidity: 2, UID: 1})
	if h, _ := st.Head("g1"); h.Seq != 2 {
		t.Fatalf("a replayed mail became a second order: head %d", h.Seq)
	}
	if cp, _ := st.Checkpoint("INBOX"); cp != (store.Checkpoint{UIDValidity: 2, UID: 1}) {
		t.Fatalf("checkpoint after the duplicate: %+v", cp)
	}
}

func TestLineNumbersMatchWhatThePlayerWrote(t *testing.T) {
	st := newGame(t)
	in := newIntake(st, 100)
	in.Take(mail("anna@example.org", reply("usa"), "Re: x", "<l@x>", "", "# my orders\n\nMARCH Newton 2314\n\nMARCH Sykes 2210\n-- \nAnna\n"), "", store.Checkpoint{})
	es, _ := st.Events("g1", 2)
	p, _ := events.Decode(&es[0])
	lines := strings.Split(p.(*events.OrderReceived).Text, "\n")
	if lines[2] != "MARCH Newton 2314" || lines[4] != "MARCH Sykes 2210" {
		t.Fatalf("lines moved: %q", lines)
	}
}

// The seats as they are now decide whose key is
// valid (a seat that changed hands takes only its new key), and an
// observer's reply is taken to be answered.
func TestSeatsAsTheyAreNow(t *testing.T) {
	seats := Seats{
		Players: []events.Player{
			{ID: "usa", Side: "USA", Addresses: []string{"bob@example.org"}},
			{ID: "csa", Side: "CSA", Addresses: []string{"taro@example.jp"}},
		},
		Referees:  []events.Player{{ID: "ref", Addresses: []string{"ref@example.org"}}},
		Observers: []string{"kim@example.org"},
		Epochs:    map[string]uint64{"usa": 1},
	}
	newKey := token.AddressAt(secret, "pbem", domain, "g1", "usa", 1)
	tests := []struct {
		name, raw, wantPlayer, wantReason string
	}{
		{"the new holder with the new key", string(mail("bob@example.org", newKey, "Re: x", "<e1@x>", "", "PASS\n")), "usa", ""},
		{"the new holder with the old key", string(mail("bob@example.org", reply("usa"), "Re: x", "<e2@x>", "", "PASS\n")), "", "does not match"},
		{"the old holder with the old key", string(mail("anna@example.org", reply("usa"), "Re: x", "<e3@x>", "", "PASS\n")), "", "does not match"},
		{"an observer's reply", string(mail("Kim <kim@example.org>", "pbem@"+domain, "Re: [pbem g1] report", "<e4@x>", "", "Go Bob!\n")), "observer:kim@example.org", ""},
		{"a stranger without a key", string(mail("eve@example.org", "pbem@"+domain, "Re: [pbem g1] report", "<e5@x>", "", "hi\n")), "", "no reply token"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := newGame(t)
			in := New(Config{Local: "pbem", Domain: domain, Secret: secret, Senders: transportAuth, Roster: func(string) (Seats, error) { return seats, nil }}, st)
			if err := in.Take([]byte(tc.raw), "", store.Checkpoint{}); err != nil {
				t.Fatal(err)
			}
			es, _ := st.Events("g1", 2)
			q, _ := st.QuarantineList()
			if tc.wantPlayer == "" {
				if len(es) != 0 || len(q) != 1 || !strings.Contains(q[0].Reason, tc.wantReason) {
					t.Fatalf("want quarantined (%q): %d events, %+v", tc.wantReason, len(es), q)
				}
				return
			}
			if len(es) != 1 {
				t.Fatalf("want an order, got %d events, quarantine %+v", len(es), q)
			}
			p, _ := events.Decode(&es[0])
			if o, ok := p.(*events.OrderReceived); !ok || o.Player != tc.wantPlayer {
				t.Fatalf("got %+v", p)
			}
		})
	}
}

// When the running game cannot say who holds the seats, the intake reads
// them from the log: a seat that changed hands still takes only its new
// key.
func TestSeatsFromTheLogWhenTheGameCannotSay(t *testing.T) {
	st := newGame(t)
	replace := &events.OrderAccepted{Input: 1, Player: "ref", Facts: []events.Fact{events.NewFact(play.FactPlayer,
		events.S("id", "usa"), events.SL("addresses", "bob@example.org"), events.SL("was", "anna@example.org"), events.I("epoch", 1))}}
	if _, err := st.Append("g1", 1, events.New("g1", time.Unix(1, 0), "", replace)); err != nil {
		t.Fatal(err)
	}
	in := New(Config{Local: "pbem", Domain: domain, Secret: secret, Senders: transportAuth,
		Roster: func(string) (Seats, error) { return Seats{}, errors.New("busy") }}, st)
	for _, tc := range []struct {
		raw  []byte
		want bool
	}{
		{mail("anna@example.org", reply("usa"), "Re: x", "<f1@x>", "", "PASS\n"), false},
		{mail("bob@example.org", reply("usa"), "Re: x", "<f2@x>", "", "PASS\n"), false},
		{mail("bob@example.org", token.AddressAt(secret, "pbem", domain, "g1", "usa", 1), "Re: x", "<f3@x>", "", "PASS\n"), true},
	} {
		h, _ := st.Head("g1")
		if err := in.Take(tc.raw, "", store.Checkpoint{}); err != nil {
			t.Fatal(err)
		}
		h2, _ := st.Head("g1")
		if got := h2.Seq > h.Seq; got != tc.want {
			t.Fatalf("%s: taken %v, want %v", tc.raw[:40], got, tc.want)
		}
	}
}

// A referee's mail answering one of the game's mails carries, in the
// log, the seq of the mail it answered: what the referee saw when he
// wrote a relative ruling (ROLLBACK n ACTIONS). A mail from a client that
// drops In-Reply-To still names it in References; one naming none has 0.
func TestARefereesReplyRecordsTheMailItAnswers(t *testing.T) {
	sec := "Secret: " + token.RefereeSecret(secret, "g1", "ref") + "\n"
	for _, tc := range []struct {
		name, headers string
		want          uint64
	}{
		// The mail composed for seq 3 was stored at seq 5, behind two
		// events that landed while its decision was made.
		{"a mail stored later than composed for", "In-Reply-To: " + token.MailID("g1", 3, domain) + "\r\n", 5},
		{"In-Reply-To", "In-Reply-To: " + token.MailID("g1", 41, domain) + "\r\nReferences: " + token.MailID("g1", 2, domain) + " " + token.MailID("g1", 41, domain) + "\r\n", 41},
		{"References only", "References: " + token.MailID("g1", 2, domain) + " " + token.MailID("g1", 17, domain) + "\r\n", 17},
		{"a new mail", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := newGame(t)
			var evs []events.Envelope
			for i, p := range []events.Payload{
				&events.OrderHeld{Player: "north", Reason: "ahead of its turn"},
				&events.OrderHeld{Player: "south", Reason: "ahead of its turn"},
				&events.MailQueued{MailID: token.MailID("g1", 2, domain), To: []string{"ref@example.org"}, Template: "referee", Body: "composed for seq 2"},
				&events.MailQueued{MailID: token.MailID("g1", 3, domain), To: []string{"ref@example.org"}, Template: "referee", Body: "composed for seq 3"},
			} {
				evs = append(evs, events.New("g1", time.Unix(int64(1000+i), 0), "", p))
			}
			if _, err := st.Do(store.Request{Game: "g1", AtHead: true, Events: evs}); err != nil {
				t.Fatal(err)
			}
			in := newIntake(st, 100)
			raw := mail("ref@example.org", reply("ref"), "Re: [pbem g1] report", "<seen@x>", tc.headers, "ROLLBACK 1 ACTIONS\n"+sec)
			if err := in.Take(raw, "INBOX", store.Checkpoint{UIDValidity: 1, UID: 9}); err != nil {
				t.Fatal(err)
			}
			es, _ := st.Events("g1", 6)
			if len(es) != 1 {
				t.Fatalf("%d events", len(es))
			}
			p, _ := events.Decode(&es[0])
			cmd, ok := p.(*events.RefereeCommand)
			if !ok || cmd.Seen != tc.want || cmd.Refused != "" {
				t.Fatalf("got %+v, want a referee command that saw seq %d", p, tc.want)
			}
		})
	}
}
