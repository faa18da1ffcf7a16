package intake

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"pbem/events"
	"pbem/mail/parse"
)

// A copy of an accepted mail under a new Message-ID is
// refused, and the player told; a new mail under a taken Message-ID is
// quarantined with that reason, and the player told; the same mail again
// (a rescan) changes nothing.
func TestReplaysAndReusedMessageIDs(t *testing.T) {
	st := newGame(t)
	c := &clock{time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	in := newAuthIntake(st, c, Config{})
	first := own("anna@example.org", mail("anna@example.org", reply("usa"), "Re: x", "<m1@x>", "", "MARCH Lyle 1605 1606\n"))
	take(t, in, first)
	take(t, in, first) // a rescan
	_, types := logged(t, st)
	if types != "order.received" {
		t.Fatalf("after a rescan: %q", types)
	}
	replay := own("anna@example.org", mail("anna@example.org", reply("usa"), "Re: x", "<m1-again@x>", "", "MARCH Lyle 1605 1606\n"))
	take(t, in, replay)
	take(t, in, replay) // the replay rescanned: told once
	ps, types := logged(t, st)
	if types != "order.received mail.refused mail.queued" || ps[1].(*events.MailRefused).Kind != events.RefusedReplay ||
		!strings.Contains(ps[2].(*events.MailQueued).Body, "copy of a mail it already has") {
		t.Fatalf("after a replay: %q", types)
	}
	reused := own("anna@example.org", mail("anna@example.org", reply("usa"), "Re: x", "<m1@x>", "", "TRANSFER Hale TO Lyle\n"))
	take(t, in, reused)
	ps, types = logged(t, st)
	q, _ := st.QuarantineList()
	if types != "order.received mail.refused mail.queued mail.refused mail.queued" || ps[3].(*events.MailRefused).Kind != events.RefusedReused ||
		len(q) != 1 || !strings.Contains(q[0].Reason, "Message-ID <m1@x> reused with other content") {
		t.Fatalf("after a reused Message-ID: %q, quarantine %v", types, q)
	}
	if mq := ps[4].(*events.MailQueued); strings.Join(mq.To, ",") != "anna@example.org,anna@work.example" || !strings.Contains(mq.Body, "other content") {
		t.Fatalf("the player is told at %v:\n%s", mq.To, mq.Body)
	}
}

// Forged mail in anna's name counts against its own
// envelope sender; anna's own mail, and her authenticated mail, are
// counted apart, so a flood of forgeries cannot lock her out. The player
// is told of a limit once per window.
func TestForgedMailCannotRateLimitAPlayer(t *testing.T) {
	st := newGame(t)
	c := &clock{time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	in := newAuthIntake(st, c, Config{RateBurst: 3, Senders: AuthConfig{MaxHeld: 100}})
	for i := range 6 {
		c.t = c.t.Add(time.Second)
		take(t, in, envelope("eve@evil.example", mail("anna@example.org", reply("usa"), "Re: x", fmt.Sprintf("<f%d@x>", i), "", fmt.Sprintf("PASS %d\n", i))))
	}
	_, types := logged(t, st)
	want := "order.held mail.queued order.held mail.queued order.held mail.queued mail.refused mail.queued"
	if types != want {
		t.Fatalf("six forged mails: %q, want %q", types, want)
	}
	q, _ := st.QuarantineList()
	if len(q) != 2 || !strings.Contains(q[0].Reason, "rate limited") || !strings.Contains(q[0].Reason, "eve@evil.example") {
		t.Fatalf("quarantine: %+v", q)
	}
	// Anna's own mail still goes through.
	take(t, in, own("anna@example.org", mail("anna@example.org", reply("usa"), "Re: x", "<a1@x>", "", "MARCH Lyle 1605 1606\n")))
	if _, types = logged(t, st); !strings.HasSuffix(types, "mail.refused mail.queued order.received") {
		t.Fatalf("anna's mail after the flood: %q", types)
	}
}

// The limits are counted from the log, so a restart
// does not lift them.
func TestRateLimitSurvivesARestart(t *testing.T) {
	st := newGame(t)
	c := &clock{time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	for i := range 2 {
		in := newAuthIntake(st, c, Config{RateBurst: 2})
		c.t = c.t.Add(time.Minute)
		take(t, in, own("anna@example.org", mail("anna@example.org", reply("usa"), "Re: x", fmt.Sprintf("<r%d@x>", i), "", fmt.Sprintf("PASS %d\n", i))))
	}
	in := newAuthIntake(st, c, Config{RateBurst: 2}) // restarted
	c.t = c.t.Add(time.Minute)
	take(t, in, own("anna@example.org", mail("anna@example.org", reply("usa"), "Re: x", "<r2@x>", "", "PASS 2\n")))
	ps, types := logged(t, st)
	if types != "order.received order.received mail.refused mail.queued" || !strings.Contains(ps[3].(*events.MailQueued).Body, "until Sat 21 Nov 2026 13:01 UTC") {
		t.Fatalf("after a restart: %q %v", types, ps)
	}
	// Told once per window, even across a restart.
	in = newAuthIntake(st, c, Config{RateBurst: 2})
	take(t, in, own("anna@example.org", mail("anna@example.org", reply("usa"), "Re: x", "<r3@x>", "", "PASS 3\n")))
	if _, types = logged(t, st); types != "order.received order.received mail.refused mail.queued" {
		t.Fatalf("a second mail over the limit: %q", types)
	}
	// An hour on, mails are taken again.
	c.t = c.t.Add(time.Hour)
	take(t, in, own("anna@example.org", mail("anna@example.org", reply("usa"), "Re: x", "<r4@x>", "", "PASS 4\n")))
	if _, types = logged(t, st); !strings.HasSuffix(types, "order.received") {
		t.Fatalf("after the window: %q", types)
	}
}

func TestLimiterMemoryIsBounded(t *testing.T) {
	l := newLimiter(3, time.Hour, 100)
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	for i := range 10000 {
		l.allow(fmt.Sprintf("sender\x00eve%d@evil.example", i), now)
	}
	if n := l.size(); n > 100 {
		t.Fatalf("%d keys held", n)
	}
	for range 10 {
		l.allow("auth\x00g1\x00usa", now)
	}
	if len(l.keys["auth\x00g1\x00usa"].hits) != 3 {
		t.Fatal("a key holds more hits than the burst")
	}
}

// No silent drops. Each case gets a notice at the
// registered address saying what happened and what to do.
func TestRegisteredPlayersAreAlwaysAnswered(t *testing.T) {
	photo := strings.Repeat("A", 2<<20+1000)
	big := []byte("From: anna@example.org\r\nTo: " + reply("usa") + "\r\nSubject: Re: x\r\nMessage-ID: <big@x>\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nPASS\r\n--b\r\nContent-Type: image/jpeg\r\nContent-Transfer-Encoding: base64\r\n\r\n" + photo + "\r\n--b--\r\n")
	tests := []struct {
		name, kind, says string
		raw              []byte
	}{
		{"a 2 MB photo", events.RefusedTooLarge, "send your orders again in a new mail without attachments", big},
		{"the Key line only quoted", events.RefusedKeyQuoted, "copy the Key line below into your mail without the '>'",
			mail("anna@example.org", "pbem@"+domain, "Re: [pbem g1] Harrow Creek", "<k@x>", "", "PASS\n\n> Key: "+strings.Split(strings.Split(reply("usa"), ".")[2], "@")[0]+"\n")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := newGame(t)
			in := newAuthIntake(st, &clock{time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}, Config{})
			take(t, in, tc.raw)
			ps, types := logged(t, st)
			if types != "mail.refused mail.queued" || ps[0].(*events.MailRefused).Kind != tc.kind {
				t.Fatalf("%q", types)
			}
			mq := ps[1].(*events.MailQueued)
			if strings.Join(mq.To, ",") != "anna@example.org,anna@work.example" || !strings.Contains(strings.ToLower(mq.Body), strings.ToLower(tc.says)) {
				t.Fatalf("told %v:\n%s", mq.To, mq.Body)
			}
		})
	}
}

// A flood of mails in a player's name gets the player at most
// NoticeBurst notices per window; the rest go to the quarantine.
func TestNoticesToAPlayerAreBounded(t *testing.T) {
	st := newGame(t)
	c := &clock{time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	in := newAuthIntake(st, c, Config{NoticeBurst: 2, Senders: AuthConfig{Mode: ModeLenient}})
	take(t, in, mail("anna@example.org", reply("usa"), "Re: x", "<m0@x>", "", "PASS\n"))
	for i := range 5 {
		take(t, in, mail("anna@example.org", reply("usa"), "Re: x", fmt.Sprintf("<copy%d@x>", i), "", "PASS\n"))
	}
	_, types := logged(t, st)
	q, _ := st.QuarantineList()
	if types != "order.received mail.refused mail.queued mail.refused mail.queued" || len(q) != 3 || !strings.Contains(q[0].Reason, "not told") {
		t.Fatalf("%q, %d quarantined", types, len(q))
	}
}

// An indented line continues the order above it, as the
// welcome mail says; the lines after keep their numbers.
func TestContinuationLinesJoinTheOrderAbove(t *testing.T) {
	lines := func(ls ...string) parse.Text {
		var t parse.Text
		for i, l := range ls {
			if l != "" {
				t.Lines = append(t.Lines, parse.Line{No: i + 1, Text: l})
			}
		}
		return t
	}
	tests := []struct {
		name string
		in   parse.Text
		want string
	}{
		{"TRANSFER over two lines", lines("TRANSFER Brand", "    TO Pask", "PASS"), "TRANSFER Brand TO Pask\n\nPASS\n"},
		{"three lines", lines("ACTIVATE Lee:", "  Hood 1605 1606", "  Pickett 1707"), "ACTIVATE Lee: Hood 1605 1606 Pickett 1707\n\n\n"},
		{"a blank line ends the order", lines("MARCH Lyle 1605", "", "  1606"), "MARCH Lyle 1605\n\n  1606\n"},
		{"every line indented alike is no continuation", lines("  PASS", "  PASS"), "  PASS\n  PASS\n"},
		{"a tab is deeper than four spaces", lines("    MARCH Lyle 1605", "\t1606"), "    MARCH Lyle 1605 1606\n\n"},
		{"a wrapped example copied with the mail's indent", lines("    MARCH Lyle 1605", "        1606", "    PASS"), "    MARCH Lyle 1605 1606\n\n    PASS\n"},
		{"a comment does not continue", lines("PASS", "   # why"), "PASS\n   # why\n"},
		{"a skipped line ends the order", lines("PASS", "  Key: x"), "PASS\n\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			skip := map[int]bool{}
			if strings.Contains(tc.name, "skipped") {
				skip[1] = true
			}
			if got := orderText(tc.in, skip); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// Press is rate-limited like orders: a player's PRESS mails and orders
// count against the same per-player limit, and press over it is refused
// and the player told, as an order would be.
func TestPressCountsAgainstTheRateLimitLikeOrders(t *testing.T) {
	st := newGame(t)
	c := &clock{time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	in := newAuthIntake(st, c, Config{RateBurst: 2})
	for i, text := range []string{"PASS\n", "PRESS TO csa: one\n", "PRESS TO csa: two\n"} {
		c.t = c.t.Add(time.Minute)
		take(t, in, own("anna@example.org", mail("anna@example.org", reply("usa"), "Re: x", fmt.Sprintf("<p%d@x>", i), "", text)))
	}
	ps, types := logged(t, st)
	if types != "order.received order.received mail.refused mail.queued" || ps[2].(*events.MailRefused).Kind != events.RefusedRateLimited ||
		!strings.Contains(ps[3].(*events.MailQueued).Body, "until Sat 21 Nov 2026 13:01 UTC") {
		t.Fatalf("an order and two press mails under a limit of 2: %q", types)
	}
}

// A registered player's new mail to the game's plain address, with the
// game in its subject but no key, is answered at the address it came from
// alone, and nothing of it applied; a stranger's such mail gets nothing.
func TestAMailWithoutAKeyIsAnsweredOnlyWhenRegistered(t *testing.T) {
	st := newGame(t)
	in := newAuthIntake(st, &clock{time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}, Config{})
	take(t, in, mail("Anna <anna@work.example>", "pbem@"+domain, "[pbem g1] my orders", "<nokey@x>", "", "PASS\n"))
	ps, types := logged(t, st)
	if types != "mail.refused mail.queued" || ps[0].(*events.MailRefused).Kind != events.RefusedNoKey {
		t.Fatalf("%q", types)
	}
	mq := ps[1].(*events.MailQueued)
	if strings.Join(mq.To, ",") != "anna@work.example" || !strings.Contains(mq.Body, "Reply to this mail") {
		t.Fatalf("told %v:\n%s", mq.To, mq.Body)
	}

	st = newGame(t)
	in = newAuthIntake(st, &clock{time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}, Config{})
	take(t, in, mail("Mallory <mallory@example.net>", "pbem@"+domain, "[pbem g1] my orders", "<nokey2@x>", "", "PASS\n"))
	if _, types := logged(t, st); types != "" {
		t.Fatalf("a stranger's mail without a key came to %q", types)
	}
}

// Nor with no game in the subject: the game that knows the address answers.
func TestAMailWithoutAKeyOrAGameIsAnswered(t *testing.T) {
	st := newGame(t)
	in := newAuthIntake(st, &clock{time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}, Config{Games: func() ([]string, error) { return []string{"g1"}, nil }})
	take(t, in, mail("Taro <taro@example.jp>", "pbem@"+domain, "my orders", "<nokey3@x>", "", "PASS\n"))
	ps, types := logged(t, st)
	if types != "mail.refused mail.queued" || ps[0].(*events.MailRefused).Kind != events.RefusedNoKey {
		t.Fatalf("%q", types)
	}
	if mq := ps[1].(*events.MailQueued); strings.Join(mq.To, ",") != "taro@example.jp" {
		t.Fatalf("told %v", mq.To)
	}
}
