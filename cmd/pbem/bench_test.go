package main

import (
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"pbem/events"
)

// The bench replays a model game, so the model must be what a served
// game's log holds: every mail the engine queues is followed by the
// mail.sent the outbox sender records once the SMTP server takes it.
func TestBenchModelGameLogsEveryMailSent(t *testing.T) {
	cpuBound(t)
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
	cpuBound(t)
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
	cpuBound(t)
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

// Issue 15: pbem bench --parts render draws a rule system's demo boards
// to PNG beside the ASCII render of the same views, and says the PNG's
// size (the figure itself is read by a person, not bounded here).
func TestBenchRenderPrintsTheDrawingBesideItsBaseline(t *testing.T) {
	cpuBound(t)
	var out strings.Builder
	a := &app{cfg: defaultConfig(), reg: registry(), out: &out}
	if err := benchRender(a, t.TempDir(), "hra"); err != nil {
		t.Fatal(err)
	}
	for _, re := range []string{
		`render: hra, its demo game's board drawn to PNG \(\d+x\d+ px\), \d+ views at 12 states`,
		`drawn: scene \+ PNG\s+p50\s+\S+\s+p99`,
		`baseline \(ASCII Render, same view\)\s+p50\s+\S+`,
		`ratio \(p50\)\s+\d+\.\d`,
		`PNG size\s+p50\s+\d+ KB`,
	} {
		if !regexp.MustCompile(re).MatchString(out.String()) {
			t.Fatalf("no %q in:\n%s", re, out.String())
		}
	}
}
