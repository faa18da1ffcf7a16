//go:build linux

package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// pbem bench --parts cluster prints replicated appends/s beside bbolt
// alone, with the ratio, and the time from a node's death to one game
// and to every game answering again, with the lease, and a healthy
// game's reply time with all nodes up, beside a stopped and beside a
// dead node; without a nats-server it says it skipped the part, and the
// other parts run.
func TestBenchClusterPrintsReplicationBesideBboltAloneAndTheTakeover(t *testing.T) {
	cpuBound(t)
	out, errOut, code := pbem(t, []string{"NATS_SERVER_BIN=" + natsServer(t)}, "bench", "--parts", "cluster",
		"--cluster-games", "2", "--cluster-appends", "2", "--cluster-lease", testLease.String(), "--cluster-mail-games", "2")
	if code != 0 {
		t.Fatalf("bench: %d\n%s\n%s", code, out, tail(errOut, 20))
	}
	m := regexp.MustCompile(`appends/s replicated \(R3 \+ bbolt\)\s+(\d+) /s\n\s+baseline\s+(\d+) /s\n\s+ratio\s+([0-9.]+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no replicated appends figure:\n%s", out)
	}
	if r, _ := strconv.Atoi(m[1]); r <= 0 {
		t.Fatalf("replicated %s/s:\n%s", m[1], out)
	}
	tk := regexp.MustCompile(`lease ` + testLease.String() + `\n\s+1 game\s+(\S+)\n\s+2 games\s+(\S+)`).FindStringSubmatch(out)
	if tk == nil {
		t.Fatalf("no takeover figures:\n%s", out)
	}
	for _, d := range tk[1:] {
		if v, err := time.ParseDuration(d); err != nil || v < testLease/2 || v > time.Minute {
			t.Fatalf("takeover %s with a %v lease (a lease must run out first):\n%s", d, testLease, out)
		}
	}
	mail := regexp.MustCompile(`first game's reply\s+(\S+)\n\s+every game's reply \(2\)\s+(\S+)`).FindStringSubmatch(out)
	if mail == nil {
		t.Fatalf("no end-to-end takeover figures:\n%s", out)
	}
	for _, d := range mail[1:] {
		if v, err := time.ParseDuration(d); err != nil || v < testLease/2 || v > 2*time.Minute {
			t.Fatalf("a game answered mail %s after its node's death, with a %v lease:\n%s", d, testLease, out)
		}
	}
	// A healthy game's reply beside a stopped and a dead node, with the
	// baseline measured in the same run.
	healthy := regexp.MustCompile(`all nodes up \(baseline\)\s+(\S+)\n\s+the other node stopped \(SIGSTOP\)\s+(\S+)\n\s+the other node dead \(SIGKILL\)\s+(\S+)`).FindStringSubmatch(out)
	if healthy == nil {
		t.Fatalf("no healthy game's reply figures:\n%s", out)
	}
	for _, d := range healthy[1:] {
		if v, err := time.ParseDuration(d); err != nil || v <= 0 {
			t.Fatalf("a healthy game's reply time %s:\n%s", d, out)
		}
	}
	t.Logf("%s", out)

	out, errOut, code = pbem(t, []string{"NATS_SERVER_BIN="}, "bench", "--parts", "cluster,appends", "--writers", "2", "--per-writer", "5")
	if code != 0 || !strings.Contains(out, "skipped: needs a nats-server") || !strings.Contains(out, "store.Append (appends/s)") {
		t.Fatalf("bench without nats-server: %d\n%s\n%s", code, out, tail(errOut, 20))
	}
}
