package server

import "testing"

// The quarantine's newer reasons (a reused Message-ID, too many held
// orders, capped notices, a rate limit) get labels of their own, not
// "other", so that a scrape shows them apart.
func TestQuarantineReasonsHaveLabelsOfTheirOwn(t *testing.T) {
	for reason, want := range map[string]string{
		"Message-ID <a@b> reused with other content (the first is seq 9 of game g1); the player was told":                                            "reused_message_id",
		"not authenticated (its envelope sender eve@x is not its From address anna@y), and 3 orders of usa in game g1 already wait for confirmation": "held_too_many",
		"mail refused: a copy of the mail taken at seq 9; not told: usa had 6 notices within 1h0m0s":                                                 "notices_capped",
		"order held for confirmation: its Sender eve@x is not its From address anna@y; not told: usa had 6":                                          "notices_capped",
		"rate limited: more than 30 mails within 1h0m0s (unauthenticated); the player was told":                                                      "rate_limited",
	} {
		if got := quarantineLabel(reason); got != want {
			t.Errorf("%q: label %s, want %s", reason, got, want)
		}
	}
}
