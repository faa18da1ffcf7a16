package main

import (
	"math"
	"regexp"
	"strconv"
	"testing"
)

// pbem bench --parts replay prints the replay one game at a time and, on
// a machine with more than one core, games side by side, each beside its
// raw baseline and with its ratio.
func TestBenchReplayPrintsBothFiguresWithTheirBaselines(t *testing.T) {
	// Beside the other tests: it asserts what the bench prints, not how
	// fast (it plays every rule system's demo game, a core busy for long).
	cpuBound(t)
	out, errOut, code := pbem(t, nil, "bench", "--parts", "replay", "--replay-games", "2")
	if code != 0 {
		t.Fatalf("bench: %d\n%s\n%s", code, out, tail(errOut, 20))
	}
	re := regexp.MustCompile(`play\.Replay, ([^\n]*?) \(/s\)\s+(\d+) /s\n\s+baseline\s+(\d+) /s\n\s+ratio\s+([0-9.]+)`)
	ms := re.FindAllStringSubmatch(out, -1)
	if len(ms) == 0 || ms[0][1] != "a game at a time" {
		t.Fatalf("no replay figure:\n%s", out)
	}
	for _, m := range ms {
		ours, _ := strconv.ParseFloat(m[2], 64)
		base, _ := strconv.ParseFloat(m[3], 64)
		ratio, _ := strconv.ParseFloat(m[4], 64)
		// The ratio is ours over the baseline, to three places: under
		// -race on a loaded machine it may print as 0.000.
		if ours <= 0 || base <= 0 || ratio > 1 || math.Abs(ratio-ours/base) > 0.0005+0.01*ours/base {
			t.Fatalf("%s: %v/s beside %v/s, ratio %v:\n%s", m[1], ours, base, ratio, out)
		}
	}
	t.Logf("%s", out)
}

// pbem bench --parts throughput,coldstart prints sustained end-to-end
// orders/s beside the mail host alone, and the time until serve answers
// with stored games beside reading every game's head.
func TestBenchThroughputAndColdStartPrintTheirFiguresWithBaselines(t *testing.T) {
	cpuBound(t)
	out, errOut, code := pbem(t, nil, "bench", "--parts", "throughput,coldstart", "--throughput-orders", "8", "--throughput-games", "2",
		"--coldstart-games", "20")
	if code != 0 {
		t.Fatalf("bench: %d\n%s\n%s", code, out, tail(errOut, 20))
	}
	tp := regexp.MustCompile(`orders/s, SMTP in to reply sent\s+(\d+) /s\n\s+baseline\s+(\d+) /s\n\s+ratio\s+([0-9.]+)`).FindStringSubmatch(out)
	if tp == nil {
		t.Fatalf("no throughput figure:\n%s", out)
	}
	if ours, _ := strconv.Atoi(tp[1]); ours <= 0 {
		t.Fatalf("throughput %s/s:\n%s", tp[1], out)
	}
	cs := regexp.MustCompile(`cold start: 20 stored games[^\n]*\n\s+until serving\s+(\S+)\n\s+baseline: bare bbolt opens, reads every head\s+(\S+)`).FindStringSubmatch(out)
	if cs == nil {
		t.Fatalf("no cold start figure:\n%s", out)
	}
	t.Logf("%s", out)
}
