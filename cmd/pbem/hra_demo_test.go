package main

import (
	"regexp"
	"strings"
	"testing"
)

// The HRA sample scenario (Kettle Run) played to its end by mail
// over the built-in SMTP and IMAP servers, NATS and a bbolt file.
func TestHRADemoPlaysKettleRunToItsEndByMail(t *testing.T) {
	t.Parallel() // playedDemo takes a CPU slot while it plays
	out, log, byPlayer := playedDemo(t, "--ruleset", "hra", "--max-orders", "400", "--timeout", "8m")
	checkHas(t, "demo output", out,
		"=== Welcome: you play Union",
		"=== Welcome: you play Confederate",
		"=== Your move",
		"=== Order rejected", // Taro's scripted typo
		`no unit or brigade is called "Stonewall Brigadier"`,
		"=== Game over",
		"The game is over and every participant has the mail saying so.",
		// The table drawn, inline in the mails.
		"The map is drawn in map-demo-", "shown in the mail (image/png")
	checkHas(t, "the game's log", log, " generals.rolled ", " general.assigned ", " supply.rolled ", " initiative.rolled ", " unit.moved ", " volleys.declared ", " battle.ended ")
	// The final mails say who won (or that it is a draw), to both players.
	won := regexp.MustCompile(`victory points Union \d+, Confederate \d+[^:]*: (Union wins|Confederate wins|a draw)`)
	for _, name := range []string{"Anna", "Taro"} {
		_, last, ok := strings.Cut(byPlayer[name], "=== Game over")
		if !ok {
			t.Errorf("%s got no game-over mail", name)
			continue
		}
		if !won.MatchString(strings.Join(strings.Fields(last), " ")) {
			t.Errorf("%s's game-over mail does not say who won:\n%s", name, tail(last, 30))
		}
	}
}

// HRA's volleys and PICK lists are sealed (HRA 4.III.a, H23)
// (a short name: the data directory, in the test's temporary directory,
// holds the control socket, whose path a unix socket limits to 108 bytes).
// In the demo's mails no player reads the other side's declarations
// (its FIRE or PICK lines, or its sealed orders) before both sides have
// declared: they appear only in the mail of the decision that opens them;
// before that the other side reads only that they have arrived.
// digestPart starts a part of a digest: a held action, or the latest.
var digestPart = regexp.MustCompile(`\n\* \* \*\n|\nThe latest\n-+\n`)

func TestHRADemoSealsVolleys(t *testing.T) {
	t.Parallel() // playedDemo takes a CPU slot while it plays
	// The game of the demo above, read for its sealed orders.
	_, _, byPlayer := playedDemo(t, "--ruleset", "hra", "--max-orders", "400", "--timeout", "8m")
	unionUnit := `(?:\d+(?:st|nd|rd|th) (?:Wisconsin|Illinois|Indiana)|Battery B)`
	confUnit := `(?:\d+(?:st|nd|rd|th) Virginia(?: Cavalry)?|Rockbridge Battery)`
	for _, tc := range []struct{ reader, other, unit string }{
		{"Taro", "Union", unionUnit},
		{"Anna", "Confederate", confUnit},
	} {
		// A declaration as an order (FIRE, PICK), as the log's raw fact, or
		// told in words ("6th Wisconsin fires at …", "… will fire at …",
		// "Union fires no volley", "Union picks first …").
		declared := regexp.MustCompile(`(?i)(?:FIRE ` + tc.unit + ` AT|PICK ` + tc.unit + `|` + tc.other + `'s sealed orders for volleys|` +
			`volleys\.declared side=` + tc.other + ` firers=[^ ]|picks\.stated side=` + tc.other + `|` + tc.unit + ` (?:fires|will fire|is to fire|aims) at|` +
			tc.other + ` (?:declares its volleys|fires no volley|picks first))`)
		// A charge's defensive volley and the fire in a melee are no
		// declaration: when neither side has a unit that can fire a volley
		// (HRA 4.III.a), the round's melees are fought in the decision of
		// the last Phase II order, with no sealed step to open.
		meleeFire := regexp.MustCompile(`(?:In melee, |Defensive volley \(HRA 11c\): )` + tc.unit + ` fires at`)
		// Its die, in the dice table, reads "fire <firer> at <target>":
		// the same fire, not a declaration.
		meleePair := regexp.MustCompile(`(?:In melee, |Defensive volley \(HRA 11c\): )(` + tc.unit + `) fires at ((?:` + unionUnit + `|` + confUnit + `))`)
		opened, arrived := 0, 0
		// byPlayer holds the reader's mails one after the other, each
		// ending with the rule that starts the next mail of the output; a
		// digest (MAIL MOVE, the default) tells several actions, each
		// after a line of three stars, the latest under its heading: each
		// is read as a mail of its own was.
		var parts []string
		for _, m := range strings.Split(byPlayer[tc.reader], "\n"+strings.Repeat("=", 78)+"\n") {
			parts = append(parts, digestPart.Split(m, -1)...)
		}
		for _, m := range parts {
			text := strings.Join(strings.Fields(m), " ")
			// The reader's own examples name only their own units.
			text, _, _ = strings.Cut(text, "Your move ---------")
			for _, p := range meleePair.FindAllStringSubmatch(text, -1) {
				text = strings.ReplaceAll(text, "fire "+p[1]+" at "+p[2], "(melee fire's die)")
			}
			text = meleeFire.ReplaceAllString(text, "(melee fire)")
			isOpen := strings.Contains(text, "are in: they are opened")
			if isOpen {
				opened++
			}
			if strings.Contains(text, tc.other+"'s orders for volleys of round") && strings.Contains(text, "have arrived, sealed") {
				arrived++
			}
			if loc := declared.FindStringIndex(text); loc != nil && !isOpen {
				t.Errorf("%s reads %s's declaration before both sides have declared: %q in\n%s", tc.reader, tc.other,
					text[loc[0]:loc[1]], tail(m, 40))
			}
		}
		if opened == 0 || arrived == 0 {
			t.Errorf("%s's mails: %d reveals, %d 'arrived, sealed' notices: the demo did not test sealed volleys", tc.reader, opened, arrived)
		}
	}
}
