package main

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
)

// inboxBefore is what each player received in each demo game before
// players chose their mail volume (as counted then: a full report of
// every action to everyone, with the drawn map and the whole map as
// text): the most mails and bytes a player of the game got.
var inboxBefore = map[string]struct{ mails, bytes float64 }{
	"gcacw": {71, 9.5e6}, "gbacw": {54, 6.1e6}, "gmb": {123, 5.9e6}, "hra": {47, 2.1e6},
}

// received reads the demo's closing count: each participant's mails and
// bytes as the mail host delivered them.
var received = regexp.MustCompile(`(?m)^  (\S+)\s+(\d+) mails\s+(\d+) bytes$`)

// inboxOf plays the demo of ruleset with every participant's mail volume
// set to volume and returns the most mails and bytes one player got.
func inboxOf(tb testing.TB, ruleset, volume string) (mails, bytes int) {
	tb.Helper()
	cmd := exec.Command(pbemBin, "demo", "--ruleset", ruleset, "--mail", volume, "--quiet", "--max-orders", "400", "--timeout", "8m")
	cmd.Env = append(os.Environ(), "TMPDIR="+tb.TempDir())
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("demo %s --mail %s: %v\n%s", ruleset, volume, err, tail(string(out), 20))
	}
	ms := received.FindAllStringSubmatch(string(out), -1)
	if len(ms) < 2 {
		tb.Fatalf("demo %s --mail %s printed no count of the mail received:\n%s", ruleset, volume, tail(string(out), 20))
	}
	for _, m := range ms {
		if m[1] == "Referee" {
			continue // the players' inboxes are compared
		}
		n, _ := strconv.Atoi(m[2])
		b, _ := strconv.Atoi(m[3])
		mails, bytes = max(mails, n), max(bytes, b)
	}
	return mails, bytes
}

// BenchmarkInboxVolumes plays each rule system's demo game in each mail
// volume and prints the mails and bytes the busiest player received,
// beside the figures from before the volumes (MAIL EVERY is about them,
// less the pictures of boards that did not change and the whole map as
// text in every mail). Run it with
//
//	go test -run '^$' -bench InboxVolumes -benchtime 1x ./cmd/pbem
func BenchmarkInboxVolumes(b *testing.B) {
	for _, rs := range []string{"gcacw", "gbacw", "gmb", "hra"} {
		for _, vol := range []string{"every", "turn", "move"} {
			b.Run(rs+"/"+vol, func(b *testing.B) {
				var mails, bytes int
				for range b.N {
					mails, bytes = inboxOf(b, rs, vol)
				}
				before := inboxBefore[rs]
				b.ReportMetric(float64(mails), "mails/player")
				b.ReportMetric(float64(bytes), "bytes/player")
				b.ReportMetric(before.mails/float64(mails), "x-fewer-mails")
				b.ReportMetric(before.bytes/float64(bytes), "x-fewer-bytes")
				fmt.Printf("inbox %-5s MAIL %-5s %4d mails %5.2f MB per player; before: %3.0f mails %4.1f MB (%.1fx fewer mails, %.1fx fewer bytes)\n",
					rs, vol, mails, float64(bytes)/1e6, before.mails, before.bytes/1e6, before.mails/float64(mails), before.bytes/float64(bytes))
			})
		}
	}
}
