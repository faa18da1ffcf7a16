package bench

import (
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"pbem/events"
)

// The bench replays a model game, so the model must be what a served
// game's log holds: every mail the engine queues is followed by the
// mail.sent the outbox sender records once the SMTP server takes it.
func TestBenchModelGameLogsEveryMailSent(t *testing.T) {
	a := testApp(io.Discard)
	model, err := playModel(a, t.TempDir(), "gcacw", demoOrders)
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
	// MAIL MOVE, the default, sends a player a mail only when they must
	// act, and the scripted players send a turn's plan in one mail: some
	// 30 mails for the model game, where a mail for every action to
	// everyone sent over 200.
	if queued < 20 || sent != queued || len(open) != 0 {
		t.Fatalf("%d mails queued, %d sent, never sent: %v", queued, sent, open)
	}
}

// pbem bench --parts render draws a rule system's demo boards
// to PNG beside the ASCII render of the same views, and says the PNG's
// size (the figure itself is read by a person, not bounded here).
func TestBenchRenderPrintsTheDrawingBesideItsBaseline(t *testing.T) {
	var out strings.Builder
	a := testApp(&out)
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

// pbem bench --parts replay --profile DIR measures every rule system's
// demo game, prints each beside its raw scan and the goal (by time and
// by CPU time per event), beside the ratio of reading its events with
// no rule system's work, the ratio of the rule system's work alone and
// the ceiling the two together leave a replay, a line per rule system,
// and the summary's row of each; and it writes the part's CPU and heap
// profiles in DIR.
func TestBenchReplayPrintsEveryRuleSystemBesideItsScanAndGoal(t *testing.T) {
	var out strings.Builder
	a := testApp(&out)
	prof := t.TempDir()
	err := Run(Env{Out: &out, ErrOut: io.Discard, Registry: a.reg, Server: a.cfg.Config, Script: a.script},
		Options{Parts: "replay", ReplayGames: 3, ReplayRounds: 1, Dir: t.TempDir(), Profile: prof})
	if err != nil {
		t.Fatal(err)
	}
	for _, rs := range a.reg.Names() {
		for _, re := range []string{
			`replay, ` + rs + `: 3 whole games of \d+ events`,
			`(?m)^  ` + rs + `\s+\d+\s+\d+\s+\d+\.\d{3}!?\s+\d+\.\d{3}!?\s+\d+\s+\d+\s+\d+\.\d{3}!?\s+\d+\.\d{3}!?$`,
			`(?m)^  whole-game replay, ` + rs + `\s+\d+ CPU ns/ev\s+\d+ CPU ns/ev\s+\d+\.\d{3}\s+ratio ≥ 0\.25 \(read \d+\.\d\d, facts \d+\.\d\d, rules \d+\.\d\d, ceiling \d+\.\d\d\)\s+(met|NOT MET)$`,
		} {
			if !regexp.MustCompile(re).MatchString(out.String()) {
				t.Errorf("no %q in:\n%s", re, out.String())
			}
		}
	}
	for _, re := range []string{`ratio \(time, CPU\)\s+\d+\.\d{3}\s+\d+\.\d{3}\s+goal: ratio ≥ 0\.25 of the raw scan`, `CPU ns/event`, `read \+ decode alone\s+\d+ /s\s+\d+ CPU ns/event\n  ratio to the raw scan \(CPU\)\s+\d+\.\d{3}\s+\(every event's bytes read`,
		`the rules' work alone\s+\d+ /s\s+\d+ CPU ns/event\n  ratio to the raw scan \(CPU\)\s+\d+\.\d{3}\s+\(every decision's facts`,
		`read \+ decode, the facts too\s+\d+ /s\s+\d+ CPU ns/event\n  ratio to the raw scan \(CPU\)\s+\d+\.\d{3}\s+\(read \+ decode, and every decision's facts`,
		`ceiling of a replay\s+\d+\.\d{3}\s+\(the raw scan over the facts read and decoded and the rules' work`, `summary: each goal's figure beside its baseline from this run`, `goal ≥ 0\.25`} {
		if !regexp.MustCompile(re).MatchString(out.String()) {
			t.Errorf("no %q in:\n%s", re, out.String())
		}
	}
	for _, f := range []string{"replay.cpu.pprof", "replay.heap.pprof", "replay.trace"} {
		if fi, err := os.Stat(filepath.Join(prof, f)); err != nil || fi.Size() == 0 {
			t.Errorf("profile %s: %v", f, err)
		}
	}
}

// The best of rounds that did different numbers of things keeps the most
// things a second and the least CPU time a thing, each from the round
// that had it, never one round's CPU time over another round's things.
func TestBestInTurnKeepsTheLeastCPUAThingWhateverEachRoundDid(t *testing.T) {
	cases := []struct {
		name      string
		rounds    []rate
		perSec    float64
		cpuPerOne float64
	}{
		{"more things in the fastest round", []rate{
			{n: 300, d: time.Second, cpu: 300},
			{n: 200, d: time.Second / 2, cpu: 160},        // the least a thing: 0.8
			{n: 300, d: 600 * time.Millisecond, cpu: 270}, // the fastest: 500 a second
		}, 500, 0.8},
		{"the same things each round", []rate{
			{n: 100, d: time.Second, cpu: 90},
			{n: 100, d: 2 * time.Second, cpu: 70},
		}, 100, 0.7},
		{"no CPU time measured", []rate{
			{n: 1, d: time.Second},
			{n: 1, d: 2 * time.Second},
		}, 1, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			k := 0
			best, err := bestInTurn(len(c.rounds), func() (rate, error) { r := c.rounds[k]; k++; return r, nil })
			if err != nil {
				t.Fatal(err)
			}
			if got := best[0].perSec(); math.Abs(got-c.perSec) > 1e-9 {
				t.Errorf("best rate %v a second, want %v", got, c.perSec)
			}
			if got := best[0].cpuPer(); math.Abs(got-c.cpuPerOne) > 1e-9 {
				t.Errorf("CPU a thing %v, want %v", got, c.cpuPerOne)
			}
		})
	}
}
