package main

import (
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"pbem/events"
)

// The bench replays a model game, so the model must be what a served
// game's log holds: every mail the engine queues is followed by the
// mail.sent the outbox sender records once the SMTP server takes it.
func TestBenchModelGameLogsEveryMailSent(t *testing.T) {
	a := &app{cfg: defaultConfig(), reg: registry(), out: io.Discard}
	model, err := playModel(a, t.TempDir(), "gcacw")
	if err != nil {
		t.Fatal(err)
	}
	open := map[string]uint64{}
	queued, sent := 0, 0
	for i := range model {
		e := &model[i]
		switch e.Type {
		case events.TypeMailQueued:
			id, err := events.PeekMailID(e)
			if err != nil {
				t.Fatal(err)
			}
			open[id] = e.Seq
			queued++
		case events.TypeMailSent:
			id, err := events.PeekMailID(e)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := open[id]; !ok {
				t.Fatalf("seq %d: %s sent but never queued, or sent twice", e.Seq, id)
			}
			delete(open, id)
			sent++
		}
	}
	if queued < 100 || sent != queued || len(open) != 0 {
		t.Fatalf("%d mails queued, %d sent, never sent: %v", queued, sent, open)
	}
}

// pbem bench --parts replay prints the replay one game at a time and, on
// a machine with more than one core, games side by side, each beside its
// raw baseline and with its ratio.
func TestBenchReplayPrintsBothFiguresWithTheirBaselines(t *testing.T) {
	out, errOut, code := pbem(t, nil, "bench", "--parts", "replay", "--replay-games", "4")
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
		if ours <= 0 || base <= 0 || ratio <= 0 || ratio > 1 {
			t.Fatalf("%s: %v/s beside %v/s, ratio %v:\n%s", m[1], ours, base, ratio, out)
		}
	}
	t.Logf("%s", out)
}

// pbem bench --parts throughput,coldstart prints sustained end-to-end
// orders/s beside the mail host alone, and the time until serve answers
// with stored games beside reading every game's head.
func TestBenchThroughputAndColdStartPrintTheirFiguresWithBaselines(t *testing.T) {
	out, errOut, code := pbem(t, nil, "bench", "--parts", "throughput,coldstart", "--throughput-orders", "24", "--throughput-games", "2",
		"--coldstart-games", "300")
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
	cs := regexp.MustCompile(`cold start: 300 stored games[^\n]*\n\s+until serving\s+(\S+)\n\s+baseline: bare bbolt opens, reads every head\s+(\S+)`).FindStringSubmatch(out)
	if cs == nil {
		t.Fatalf("no cold start figure:\n%s", out)
	}
	t.Logf("%s", out)
}

// pbem bench --parts cluster prints replicated appends/s beside bbolt
// alone, with the ratio, and the time from a node's death to one game
// and to every game answering again, with the lease; without a
// nats-server it says it skipped the part, and the other parts run.
func TestBenchClusterPrintsReplicationBesideBboltAloneAndTheTakeover(t *testing.T) {
	out, errOut, code := pbem(t, []string{"NATS_SERVER_BIN=" + natsServer(t)}, "bench", "--parts", "cluster",
		"--cluster-games", "4", "--cluster-appends", "5", "--cluster-lease", "1s")
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
	tk := regexp.MustCompile(`lease 1s\n\s+1 game\s+(\S+)\n\s+4 games\s+(\S+)`).FindStringSubmatch(out)
	if tk == nil {
		t.Fatalf("no takeover figures:\n%s", out)
	}
	for _, d := range tk[1:] {
		if v, err := time.ParseDuration(d); err != nil || v < 500*time.Millisecond || v > time.Minute {
			t.Fatalf("takeover %s with a 1s lease (a lease must run out first):\n%s", d, out)
		}
	}
	t.Logf("%s", out)

	out, errOut, code = pbem(t, []string{"NATS_SERVER_BIN="}, "bench", "--parts", "cluster,appends", "--writers", "2", "--per-writer", "5")
	if code != 0 || !strings.Contains(out, "skipped: needs a nats-server") || !strings.Contains(out, "store.Append (appends/s)") {
		t.Fatalf("bench without nats-server: %d\n%s\n%s", code, out, tail(errOut, 20))
	}
}
