package intake

import (
	"bytes"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"pbem/events"
	"pbem/mail/token"
)

// bigMail is a mail over the intake's size limit, from Anna's address.
func bigMail(id string) []byte {
	return mail("anna@example.org", reply("usa"), "Re: x", id, "", "PASS\n"+strings.Repeat("x", 2<<20)+"\n")
}

// countKinds counts the logged events of each type.
func countKinds(t *testing.T, types string) map[string]int {
	t.Helper()
	n := map[string]int{}
	for _, ty := range strings.Fields(types) {
		n[ty]++
	}
	return n
}

// Ten forgeries in Anna's name (too large, so each is answered) spend the
// notices of mail anyone could send; they do not silence Anna's own
// signed mail, which is answered.
func TestForgeriesDoNotSilenceThePlayersOwnMail(t *testing.T) {
	st := newGame(t)
	key, lookup := dkimKey(t)
	c := &clock{time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	in := newAuthIntake(st, c, Config{NoticeBurst: 10, Senders: AuthConfig{LookupTXT: lookup}})
	for i := range 12 {
		take(t, in, envelope("anna@example.org", bigMail("<forged"+string(rune('a'+i))+"@x>")))
	}
	_, types := logged(t, st)
	if n := countKinds(t, types); n["mail.queued"] != 10 {
		t.Fatalf("forgeries got %d notices, want the budget of 10 (%s)", n["mail.queued"], types)
	}
	// Anna's own mail, signed by her provider, is still answered.
	take(t, in, envelope("anna@example.org", signAs(t, key, "example.org", "anna@example.org", bigMail("<anna-own@x>"))))
	ps, types := logged(t, st)
	if n := countKinds(t, types); n["mail.queued"] != 11 {
		t.Fatalf("Anna's own mail after the forgeries got no answer (%s)", types)
	}
	if mq := ps[len(ps)-1].(*events.MailQueued); !strings.Contains(mq.Body, "too large") {
		t.Fatalf("the answer to Anna: %s", mq.Body)
	}
}

// CONFIRM lines are mails like any other: guesses are rate limited, and
// each wrong one warns that someone else may be using the address.
func TestConfirmGuessesAreRateLimitedAndWarn(t *testing.T) {
	st := newGame(t)
	c := &clock{time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	in := newAuthIntake(st, c, Config{RateBurst: 3})
	for i := range 6 {
		take(t, in, envelope("eve@evil.example", mail("anna@example.org", reply("usa"), "Re: x", "<guess"+string(rune('a'+i))+"@x>", "",
			"CONFIRM aaaa-bbb"+string(rune('a'+i))+"\n")))
	}
	ps, types := logged(t, st)
	n := countKinds(t, types)
	if n["mail.refused"] != 4 || n["mail.queued"] != 4 {
		t.Fatalf("6 guesses: %s; want 3 refused as wrong, 1 told of the limit, 2 quarantined", types)
	}
	var wrong, limited int
	for _, p := range ps {
		mq, ok := p.(*events.MailQueued)
		if !ok {
			continue
		}
		switch {
		case strings.Contains(mq.Body, "no order of yours waits for that code"):
			wrong++
			if !strings.Contains(mq.Body, "someone may be sending mail in your name") {
				t.Errorf("a wrong code's notice does not warn:\n%s", mq.Body)
			}
		case strings.Contains(mq.Body, "pbem takes at most 3 mails"):
			limited++
		}
	}
	if wrong != 3 || limited != 1 {
		t.Fatalf("%d wrong-code notices, %d limit notices; want 3 and 1", wrong, limited)
	}
}

// A reply to the confirmation mail that quotes its CONFIRM line and says
// "Yes" confirms; one that says no does not.
func TestAQuotedConfirmLineInAShortYesConfirms(t *testing.T) {
	for _, tc := range []struct {
		name, answer string
		confirmed    bool
	}{
		{"yes", "Yes, that was me.", true},
		{"nothing but the quote", "", true},
		{"no", "No, I did not send this!", false},
		{"orders", "MARCH Hale 1605 1606 1607 and then TRANSFER Hale TO Lyle before the end of the turn please", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := newGame(t)
			c := &clock{time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
			in := newAuthIntake(st, c, Config{})
			take(t, in, envelope("eve@evil.example", mail("Anna <anna@example.org>", reply("usa"), "Re: x", "<f1@evil.example>", "", "PASS\n")))
			ps, _ := logged(t, st)
			notice := ps[1].(*events.MailQueued)
			code := token.ConfirmCode(secret, "g1", "usa", "<f1@evil.example>")
			if !strings.Contains(notice.Body, "CONFIRM "+code) {
				t.Fatalf("no code in the notice:\n%s", notice.Body)
			}
			var quoted bytes.Buffer
			for _, l := range strings.Split(strings.TrimRight(notice.Body, "\n"), "\n") {
				quoted.WriteString("> " + l + "\n")
			}
			take(t, in, mail("Anna <anna@example.org>", reply("usa"), "Re: Please confirm your orders", "<yes@x>", "", tc.answer+"\n\n"+quoted.String()))
			_, types := logged(t, st)
			if got := strings.Contains(types, "order.confirmed"); got != tc.confirmed {
				t.Fatalf("confirmed %v, want %v (%s)", got, tc.confirmed, types)
			}
		})
	}
}

// A signature whose key lookup never answers costs one timeout, not one
// per mail, and the player reads words, not the resolver's error.
func TestASlowDKIMKeyIsLookedUpOnceAndToldInWords(t *testing.T) {
	key, _ := dkimKey(t)
	var calls atomic.Int32
	never := make(chan struct{})
	t.Cleanup(func() { close(never) })
	slow := func(domain string) ([]string, error) {
		calls.Add(1)
		<-never
		return nil, nil
	}
	st := newGame(t)
	c := &clock{time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	in := newAuthIntake(st, c, Config{Senders: AuthConfig{LookupTXT: slow}})
	start := time.Now()
	for i := range 3 {
		take(t, in, envelope("eve@evil.example", sign(t, key, "example.org",
			mail("anna@example.org", reply("usa"), "Re: x", "<slow"+string(rune('a'+i))+"@x>", "", "PASS\n"))))
	}
	if took := time.Since(start); took > 2*keyTimeout+time.Second {
		t.Errorf("three mails signed with one slow key took %v: more than one lookup's timeout (%v)", took, keyTimeout)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("the slow key was looked up %d times, want once", n)
	}
	ps, _ := logged(t, st)
	h := ps[0].(*events.OrderHeld)
	if !strings.Contains(h.Reason, "the DKIM signature of example.org could not be checked: its key did not answer") {
		t.Errorf("held for %q", h.Reason)
	}
	for _, p := range ps {
		if mq, ok := p.(*events.MailQueued); ok {
			for _, bad := range []string{"lookup", "i/o timeout", "context deadline", "dkim:", "127.0.0"} {
				if strings.Contains(mq.Body, bad) {
					t.Errorf("a notice quotes a raw error (%q):\n%s", bad, mq.Body)
				}
			}
		}
	}
}
