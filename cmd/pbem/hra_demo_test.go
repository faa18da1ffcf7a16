package main

import (
	"regexp"
	"strings"
	"testing"
)

// Issue #6: the HRA sample scenario (Kettle Run) played to its end by mail
// over the built-in SMTP and IMAP servers, NATS and a bbolt file.
func TestHRADemoPlaysKettleRunToItsEndByMail(t *testing.T) {
	out, log, byPlayer := playedDemo(t, "--ruleset", "hra", "--max-orders", "400", "--timeout", "3m")
	checkHas(t, "demo output", out,
		"=== Subject: [pbem demo] welcome: you play Union",
		"=== Subject: [pbem demo] welcome: you play Confederate",
		"=== Subject: [pbem demo] your move",
		"=== Subject: [pbem demo] order rejected", // Taro's scripted typo
		`no unit or brigade is called "Stonewall Brigadier"`,
		"=== Subject: [pbem demo] game over",
		"The game is over and every participant has the mail saying so.")
	checkHas(t, "the game's log", log, " generals.rolled ", " general.assigned ", " supply.rolled ", " initiative.rolled ", " unit.moved ", " volleys.declared ", " battle.ended ")
	// The final mails say who won (or that it is a draw), to both players.
	won := regexp.MustCompile(`victory points Union \d+, Confederate \d+[^:]*: (Union wins|Confederate wins|a draw)`)
	for _, name := range []string{"Anna", "Taro"} {
		_, last, ok := strings.Cut(byPlayer[name], "Subject: [pbem demo] game over")
		if !ok {
			t.Errorf("%s got no game-over mail", name)
			continue
		}
		if !won.MatchString(strings.Join(strings.Fields(last), " ")) {
			t.Errorf("%s's game-over mail does not say who won:\n%s", name, tail(last, 30))
		}
	}
}
