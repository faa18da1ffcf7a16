package main

import (
	"regexp"
	"strings"
	"testing"
)

// The GBACW sample scenario (Tanner's Mill) played to its end
// by mail over the built-in SMTP and IMAP servers, NATS and a bbolt file;
// and its standing reactions: the Confederate player sends his standing
// orders at his first chance, after which his units react to the Union's
// fire in the Union's own decision, with no mail asked of him, while the
// Union player is asked by mail (and sets standing fire reactions once
// asked to return fire).
func TestGBACWDemo(t *testing.T) {
	t.Parallel() // playedDemo takes a CPU slot while it plays
	out, log, byPlayer := playedDemo(t, "--ruleset", "gbacw", "--max-orders", "500", "--timeout", "8m")
	checkHas(t, "demo output", out,
		"=== Welcome: you play USA",
		"=== Welcome: you play CSA",
		"=== Your move",
		"=== Order rejected", // Taro's scripted typo
		`ALL ALWAYZ": a standing order ends with`,
		"=== Game over",
		"The game is over and every participant has the mail saying so.")
	checkHas(t, "the game's log", log, " initiative.rolled ", " command.traced ", " division.ams ", " pbem.revealed ",
		" am.drawn ", " unit.moved ", " fire.resolved ", " udd.rolled ", " turn.begun ", " game.over ")
	won := regexp.MustCompile(`victory points USA \d+, CSA \d+.*: (USA wins|CSA wins|a draw)`)
	for _, name := range []string{"Anna", "Taro"} {
		_, last, ok := strings.Cut(byPlayer[name], "=== Game over")
		if !ok {
			t.Errorf("%s got no game-over mail", name)
			continue
		}
		if !won.MatchString(strings.Join(strings.Fields(last), " ")) {
			t.Errorf("%s's game-over mail does not say who won:\n%s", name, tail(last, 30))
		}
		// Every board is drawn too.
		checkDrawnBoards(t, name, byPlayer[name], func(string) bool { return true })
		// Every fact is told in words (engine.Teller), none raw.
		checkToldInWords(t, name, byPlayer[name], "Initiative (4.1): USA rolls ", " AM is drawn from the pool (die ",
			"(return fire, ", "USA answers: ", "Turn 2 begins.", "The game is over: victory points USA ")
	}

	// Standing reactions, from the log: after the Confederate standing
	// orders (logged for CSA alone), a Confederate return fire is
	// decided on a Union mail, in the same decision as the Union fire.
	events := logEvents(log)
	standingAt, noRoundTrip := -1, 0
	for i, e := range events {
		if strings.Contains(e.body, "standing.set side=CSA") {
			if !strings.Contains(e.body, "[to side:CSA]") {
				t.Errorf("the standing orders are not CSA's alone:\n%s", e.body)
			}
			if standingAt < 0 {
				standingAt = i
			}
		}
		if standingAt < 0 || e.from != "anna" {
			continue
		}
		for _, l := range strings.Split(e.body, "\n") {
			if strings.Contains(l, "kind=return") && isCSAUnit(l) && !strings.Contains(e.body, "prog.asked side=CSA") {
				noRoundTrip++
			}
		}
	}
	if standingAt < 0 || noRoundTrip == 0 {
		t.Errorf("no Confederate return fire was applied in a Union decision after the standing orders (standing at event %d)", standingAt)
	}
	// And no mail asked Taro about a return fire after he sent them; the
	// Union's reactions (no standing orders) were asked of Anna by mail.
	_, after, ok := strings.Cut(out, ">>>   STANDING RETURN FIRE ALL ALWAYS\n")
	if !ok {
		t.Fatal("Taro never sent his standing orders")
	}
	for _, m := range strings.Split(after, "=== mail to ")[1:] {
		if strings.HasPrefix(m, "Taro") && strings.Contains(strings.Join(strings.Fields(m), " "), "(you play CSA): 13.1 Return fire") {
			t.Errorf("Taro was asked about a return fire his standing order covers:\n%s", tail(m, 30))
		}
	}
	anna := strings.Join(strings.Fields(byPlayer["Anna"]), " ")
	if !strings.Contains(anna, "(you play USA): 13.1 Return fire") && !strings.Contains(anna, "(you play USA): 13.4 Closing fire") {
		t.Error("Anna, with no standing orders, was never asked to react by mail")
	}
}

// logEvent is one event of pbem log's output: who sent the input it
// decides (for a decision) and its lines.
type logEvent struct {
	from string
	body string
}

var eventHead = regexp.MustCompile(`^\s*\d+\s+\S+ \S+\s+(\S+)\s*(.*)$`)

func logEvents(log string) []logEvent {
	var out []logEvent
	for _, l := range strings.Split(log, "\n") {
		if m := eventHead.FindStringSubmatch(l); m != nil && !strings.HasPrefix(strings.TrimSpace(l), "|") {
			e := logEvent{body: l + "\n"}
			if strings.HasPrefix(m[1], "order.accepted") {
				if f := regexp.MustCompile(`from (\S+)`).FindStringSubmatch(m[2]); f != nil {
					e.from = f[1]
				}
			}
			out = append(out, e)
			continue
		}
		if len(out) > 0 {
			out[len(out)-1].body += l + "\n"
		}
	}
	return out
}

// isCSAUnit reports whether a fire.resolved line's firer is Confederate
// (Tanner's Mill's Confederate units).
func isCSAUnit(line string) bool {
	for _, u := range []string{"12th Georgia", "5th Alabama", "Richmond Battery", "3rd Tennessee", "18th Mississippi",
		"2nd Virginia Cavalry", "7th Virginia Cavalry", "Stuart Horse Battery"} {
		if strings.Contains(line, `firer="`+u+`"`) {
			return true
		}
	}
	return false
}

// checkDrawnBoards checks the drawn boards of a player's demo mails: the welcome,
// when its body has drawable, carries the drawn board as an inline PNG,
// and no mail leaves its drawn board out for its budget (the mails whose
// board changed for their reader carry it drawn: mail/compose tests
// which); it returns how many mails with drawable carry it.
func checkDrawnBoards(t *testing.T, name, mails string, drawable func(body string) bool) int {
	t.Helper()
	n := 0
	for _, m := range strings.Split(mails, "\n"+strings.Repeat("=", 78)+"\n") {
		if strings.Contains(m, "budget, so it is left out") {
			t.Errorf("a mail to %s left its drawn map out:\n%s", name, tail(m, 20))
		}
		if !drawable(m) {
			continue
		}
		drawn := regexp.MustCompile(`\[attachment: map-\S+\.png, shown in the mail \(image/png, \d+ KB\)\]`).MatchString(m)
		if !drawn && strings.Contains(m, "=== Welcome") {
			t.Errorf("the welcome to %s carries the board but not drawn:\n%s", name, tail(m, 20))
		}
		if drawn {
			n++
		}
	}
	if n == 0 {
		t.Errorf("no mail to %s carries a drawn board", name)
	}
	return n
}
