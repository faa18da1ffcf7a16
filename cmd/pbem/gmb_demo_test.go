package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"pbem/engine/gmb"
	"pbem/events"
	"pbem/store"
)

// The GMB setup (chapter 13) and three turns of movement
// (chapter 7) played by mail over the built-in SMTP and IMAP servers to a
// referee's end; then every mail each player received, body and
// attachments as stored, is read for the other side's secrets (a short
// name: the data directory, in the test's temporary directory, holds the
// control socket, whose path a unix socket limits to 108 bytes).
func TestGMBDemo(t *testing.T) {
	t.Parallel() // playedDemo takes a CPU slot while it plays
	out, log, byPlayer := playedDemo(t, "--ruleset", "gmb", "--max-orders", "600", "--timeout", "8m")
	checkHas(t, "demo output", out,
		"=== Welcome: you play Union",
		"=== Welcome: you play Confederate",
		"=== Your move",
		"are in: they are opened", // the sealed declaration, cavalry tactics and patrol markers
		"=== Game over",
		"The game is over and every participant has the mail saying so.")
	// Every step of chapter 13's setup, then three turns of movement to
	// the referee's end.
	checkHas(t, "the game's log", log, " table.set ", " year.set ", " generals.drawn ", " cards.kept ", " battlefield.declared ",
		" initiative.won ", " list.chosen ", " points.placed ", " terrain.placed ", " bridge.placed ", " base.placed ", " tactic.chosen ",
		" cavalry.chosen ", " marker.placed ", " unit.placed ", " unit.moved ", " passage.made ", " tactic.revealed ", " battle.ended ")
	if n := strings.Count(log, " turn.begun "); n != 3 {
		t.Errorf("%d turns played; want 3", n)
	}
	// Every board is drawn too, once there is a table (13.1).
	for _, name := range []string{"Anna", "Taro"} {
		checkDrawnBoards(t, name, byPlayer[name], func(m string) bool { return strings.Contains(m, `table 48" x 48"`) })
	}
	dir := regexp.MustCompile(`pbem --data-dir (\S+) verify demo`).FindStringSubmatch(out)
	stored := storedMails(t, filepath.Join(dir[1], "pbem.db"))
	var text []string // what a text client shows: the mails and their text attachments
	for _, m := range append(stored["anna"], stored["taro"]...) {
		for i, part := range strings.Split(m, "\n--- attachment ") {
			// The drawn board (SVG) is sent as a picture.
			if name, _, _ := strings.Cut(part, "\n"); i == 0 || !strings.HasSuffix(name, ".svg") {
				text = append(text, part)
			}
		}
	}
	for _, l := range strings.Split(strings.Join(text, "\n"), "\n") {
		if len([]rune(l)) > 78 {
			// The attached whole table fits 78 columns too (72" at 1" a
			// column).
			t.Errorf("a line of %d columns: %q", len([]rune(l)), l)
			break
		}
	}
	scn, err := gmb.Scenario("hazel-run")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := gmb.ParseScenario(scn)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ id, name, own, other string }{{"anna", "Anna", "Union", "Confederate"}, {"taro", "Taro", "Confederate", "Union"}} {
		t.Run(tc.id, func(t *testing.T) {
			own, other := sc.Army(tc.own).Cards, sc.Army(tc.other).Cards
			// Each mail as the player's client fetched it over IMAP …
			received := strings.Split(byPlayer[tc.name], "\n"+strings.Repeat("=", 78)+"\n")
			checkSecrets(t, "received", received, own, other, tc.own, tc.other)
			// … and as queued, with its attachments in full.
			checkSecrets(t, "queued", stored[tc.id], own, other, tc.own, tc.other)
			if len(received) < len(stored[tc.id]) {
				t.Errorf("%d mails received over IMAP, %d queued", len(received), len(stored[tc.id]))
			}
			checkToldInWords(t, tc.name, byPlayer[tc.name], "asks for a 48\" x 48\" table", "keeps 3 of its 5 battle cards",
				"declares the", "wins the initiative and the battlefield", "Turn 3 begins", "moves ", "The battle ends")
		})
	}
}

// gameOverRE finds the game-over mail, as received ("=== Game over") or
// as queued (its body's first line).
var gameOverRE = regexp.MustCompile(`(?m)^(=== )?Game over\b`)

// storedMails are the mails queued in a data directory's log, by
// recipient (the demo's addresses are id@domain): subject, body and each
// attachment, in the order they were sent.
func storedMails(t *testing.T, path string) map[string][]string {
	t.Helper()
	st, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	evs, err := st.Events("demo", 1)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for i := range evs {
		if evs[i].Type != events.TypeMailQueued {
			continue
		}
		p, err := events.Decode(&evs[i])
		if err != nil {
			t.Fatal(err)
		}
		m := p.(*events.MailQueued)
		var b strings.Builder
		b.WriteString("Subject: " + m.Subject + "\n" + m.Body)
		for _, a := range m.Attachments {
			b.WriteString("\n--- attachment " + a.Name + "\n" + a.Body)
		}
		for _, to := range m.To {
			id, _, _ := strings.Cut(to, "@")
			out[id] = append(out[id], b.String())
		}
	}
	return out
}

// checkSecrets reads one player's mails: none names a battle card of the
// other side's deck before the game is over (13.6a: the hand is its
// owner's; its returned cards no one else's), none tells the other
// side's sealed declaration before the mail that opens it (13.7b, 13.8d,
// G9), and none its army tactic before the game is over (13.12b). The
// reader's own secrets do appear in his mails: the test can see them.
func checkSecrets(t *testing.T, how string, mails []string, ownCards, otherCards []string, own, other string) {
	t.Helper()
	declared := regexp.MustCompile(`(?i)` + other + ` declares the|` + other + `'s sealed orders for battlefield declaration:|battlefield\.declared side=` + other)
	tactic := regexp.MustCompile(`(?i)` + other + ` chooses the \w+ army tactic|` + other + `: morale [^;]*army tactic (Cautious|Neutral|Aggressive)|tactic\.chosen side=` + other + `|` + other + `'s army tactic was`)
	ownTactic := regexp.MustCompile(`(?i)` + own + `: morale [^;]*army tactic (Cautious|Neutral|Aggressive)|` + own + ` chooses the \w+ army tactic`)
	opened, over, sawOwnCard, sawOwnTactic := false, false, false, false
	for i, m := range mails {
		over = over || gameOverRE.MatchString(m) // what a mail is stands on its first line
		m = strings.Join(strings.Fields(m), " ") // as read, whatever the wrapping
		if over {
			break
		}
		// A mail may open the declarations and tell them at once.
		opened = opened || strings.Contains(m, "Every side's orders for battlefield declaration are in")
		for _, c := range otherCards {
			if strings.Contains(m, c) {
				t.Errorf("mail %d (%s) names %s's card %q before the game is over:\n%s", i, how, other, c, tail(m, 40))
			}
		}
		for _, c := range ownCards {
			sawOwnCard = sawOwnCard || strings.Contains(m, c)
		}
		if loc := declared.FindStringIndex(m); loc != nil && !opened {
			t.Errorf("mail %d (%s) tells %s's sealed declaration before it is opened: %q", i, how, other, m[loc[0]:loc[1]])
		}
		if loc := tactic.FindStringIndex(m); loc != nil {
			t.Errorf("mail %d (%s) tells %s's army tactic before the end: %q", i, how, other, m[loc[0]:loc[1]])
		}
		sawOwnTactic = sawOwnTactic || ownTactic.MatchString(m)
	}
	if !opened || !over || !sawOwnCard || !sawOwnTactic {
		t.Errorf("%d mails %s: declarations opened %v, game over %v, own cards seen %v, own tactic seen %v: the demo did not test the secrets",
			len(mails), how, opened, over, sawOwnCard, sawOwnTactic)
	}
}

// GMB's combat and the end of its battles are the referee's
// (chapters 8-9 and 14 are not in the seeds), so pbem new refuses a game
// without one, naming the steps, and takes it with one.
func TestGMBNeedsReferee(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	args := []string{"--data-dir", dir, "new", "--game", "g1", "--ruleset", "gmb", "--scenario", "hazel-run",
		"--player", "anna:Union:anna@pbem.localhost", "--player", "taro:Confederate:taro@pbem.localhost"}
	_, errOut, code := pbem(t, nil, args...)
	if code == 0 || !strings.Contains(errOut, "hands these steps to a referee") || !strings.Contains(errOut, "combat after each corps' activation") {
		t.Fatalf("pbem new without a referee: exit %d, %q", code, errOut)
	}
	out, errOut, code := pbem(t, nil, append(args, "--referee", "ref:ref@pbem.localhost")...)
	if code != 0 || !strings.Contains(out, "created game g1: gmb") {
		t.Fatalf("pbem new with a referee: exit %d, %s %s", code, out, errOut)
	}
}
