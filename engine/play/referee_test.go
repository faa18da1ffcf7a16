package play_test

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
	"pbem/internal/waitfor"
	"pbem/store"
)

var raceReferee = []events.Player{{ID: "ref", Name: "Carol", Addresses: []string{"carol@example.org"}}}

// table is a race game with a referee, played through a real runner on a
// real bbolt file, one input at a time.
type table struct {
	t   testing.TB
	st  *store.Store
	reg *engine.Registry
	r   *play.Runner
	at  time.Time
	n   int
}

// reminders is the test's Notifier: no mails for decisions, and one
// reminder mail per deadline (play.Reminder), so the runner's clock
// path can be seen in the log.
type reminders struct{}

func (reminders) Mails(*play.Game, engine.State, *events.Envelope, events.Payload, *events.GameEnded) ([]events.Payload, error) {
	return nil, nil
}

func (reminders) Reminder(g *play.Game, d play.Deadline) ([]events.Payload, error) {
	p, _ := g.PlayerByID(d.Player)
	return []events.Payload{&events.MailQueued{MailID: fmt.Sprintf("<rem.%s.%d>", d.Player, d.Due), To: p.Addresses, Template: "reminder", Body: "due"}}, nil
}

var start = time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)

func newTable(t *testing.T, settings ...events.Setting) *table {
	t.Helper()
	return newTableOf(t, "target 40", settings...)
}

// newTableOf is newTable on another race scenario.
func newTableOf(t *testing.T, scenario string, settings ...events.Setting) *table {
	t.Helper()
	tb, err := newRaceTable(t, scenario, racePlayers, raceReferee, settings...)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// newRaceTable is a race game of scenario with these players and
// referees on a real runner and bbolt file, or the error creating it gave.
func newRaceTable(t testing.TB, scenario string, players, referees []events.Player, settings ...events.Setting) (*table, error) {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "pbem.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	reg := raceRegistry()
	r := play.NewRunner(st, reg, play.RunnerOptions{SnapshotEvery: 4, Notifier: reminders{}})
	t.Cleanup(r.Close)
	created, err := play.Create(st, reg, play.NewGame{ID: "g1", Ruleset: "race", Scenario: []byte(scenario),
		Players: players, Referees: referees, Settings: settings, At: start})
	if err != nil {
		return nil, err
	}
	tb := &table{t: t, st: st, reg: reg, r: r, at: start}
	r.Deliver(&created)
	tb.idle()
	return tb, nil
}

func (tb *table) idle() {
	tb.t.Helper()
	if waitfor.True(10*time.Second, func() bool {
		h, _ := tb.st.Head("g1")
		var seq uint64
		var pending int
		tb.r.Query(context.Background(), "g1", func(g *play.Game) { seq, pending = g.Seq, len(g.Pending) })
		return seq == h.Seq && pending == 0
	}) {
		return
	}
	tb.t.Fatal("the runner did not settle")
}

// send appends an order (a referee's command from "ref") an hour after
// the last and returns its decision.
func (tb *table) send(who, text string) events.Payload {
	tb.t.Helper()
	key := fmt.Sprintf("<m%d@test>", tb.n+1)
	if who == "ref" {
		return tb.input(&events.RefereeCommand{Referee: who, Text: text, Reason: "test", MessageID: key, Source: "test"})
	}
	return tb.input(&events.OrderReceived{Player: who, Text: text, MessageID: key, Source: "test"})
}

func (tb *table) decisionOf(input uint64) events.Payload {
	tb.t.Helper()
	es, err := tb.st.Events("g1", input)
	if err != nil {
		tb.t.Fatal(err)
	}
	for i := range es {
		p, _ := events.Decode(&es[i])
		switch d := p.(type) {
		case *events.OrderAccepted:
			if d.Input == input {
				return d
			}
		case *events.OrderRejected:
			if d.Input == input {
				return d
			}
		}
	}
	tb.t.Fatalf("no decision for input %d", input)
	return nil
}

func (tb *table) game() *play.Game {
	tb.t.Helper()
	g, err := play.Load(tb.st, tb.reg, "g1", 0)
	if err != nil {
		tb.t.Fatal(err)
	}
	return g
}

func accepted(t *testing.T, p events.Payload) *events.OrderAccepted {
	t.Helper()
	a, ok := p.(*events.OrderAccepted)
	if !ok {
		t.Fatalf("want accepted, got %+v", p)
	}
	return a
}

func rejected(t *testing.T, p events.Payload, msg string) events.Problem {
	t.Helper()
	r, ok := p.(*events.OrderRejected)
	if !ok || len(r.Problems) == 0 || !strings.Contains(r.Problems[0].Msg, msg) {
		t.Fatalf("want rejected with %q, got %+v", msg, p)
	}
	return r.Problems[0]
}

func score(g *play.Game) map[string]int { return g.State.(*raceState).Score }

func TestRefereeRollbackReturnsToTheStateAndKeepsTheClosedBranch(t *testing.T) {
	tb := newTable(t)
	tb.send("north", "ADD 3")
	tb.send("south", "ADD 2")
	before := tb.game() // the game after two actions
	tb.send("north", "ADD 1")
	tb.send("south", "ADD 3")
	branchEnd := tb.game().Seq

	// ROLLBACK 2 ACTIONS undoes the last two accepted actions.
	d := accepted(t, tb.send("ref", "ROLLBACK 2 ACTIONS"))
	if len(d.Facts) != 1 || d.Facts[0].Kind != play.FactRollback || !strings.Contains(d.Echo[0], "2 actions undone") {
		t.Fatalf("rollback decision: %+v", d)
	}
	g := tb.game()
	if !reflect.DeepEqual(score(g), score(before)) || g.State.(*raceState).Turn != "USA" {
		t.Fatalf("after the rollback: score %v turn %s, want %v USA", score(g), g.State.(*raceState).Turn, score(before))
	}
	// Nothing was deleted: the closed branch (from the first undone
	// decision, just after its input) is still in the log, and a replay to
	// its end shows the game as it was then.
	if len(g.Branches) != 1 || g.Branches[0].From != before.Seq+2 || g.Branches[0].To != branchEnd {
		t.Fatalf("branches %+v, want %d..%d", g.Branches, before.Seq+2, branchEnd)
	}
	then, err := play.Replay(tb.st, tb.reg, "g1", branchEnd)
	if err != nil {
		t.Fatal(err)
	}
	if s := score(then); s["USA"] != 4 || s["CSA"] != 5 {
		t.Fatalf("replay inside the closed branch: %v", s)
	}
	// Play goes on from the restored state; the referee can roll back to a
	// seq too, and a rollback past the start or to now is refused.
	accepted(t, tb.send("north", "ADD 2"))
	if s := score(tb.game()); s["USA"] != 5 || s["CSA"] != 2 {
		t.Fatalf("after playing on: %v", s)
	}
	rejected(t, tb.send("ref", "ROLLBACK TO 0"), "not a sequence number")
	last := tb.game().Seq
	rejected(t, tb.send("ref", fmt.Sprintf("ROLLBACK TO %d", last+1)), "nothing to roll back")
	rejected(t, tb.send("ref", "ROLLBACK 40 ACTIONS"), "too many")
	accepted(t, tb.send("ref", fmt.Sprintf("ROLLBACK TO SEQ %d", before.Seq+1)))
	if !reflect.DeepEqual(score(tb.game()), score(before)) {
		t.Fatalf("ROLLBACK TO %d: %v", before.Seq+1, score(tb.game()))
	}

	// Replay from the log alone (no snapshot) gives the same game as the
	// runner's snapshot + tail, and the audit re-decides every command,
	// rollbacks included, with no difference.
	full, err := play.Replay(tb.st, tb.reg, "g1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := full.State.(*raceState), tb.game().State.(*raceState); !reflect.DeepEqual(a, b) || !reflect.DeepEqual(full.Branches, tb.game().Branches) {
		t.Fatalf("replay %+v %+v\nload %+v %+v", a, full.Branches, b, tb.game().Branches)
	}
	rep, err := play.Audit(tb.st, tb.reg, "g1", nil)
	if err != nil || !rep.OK() || len(rep.Differences) != 0 {
		t.Fatalf("audit: %v %+v", err, rep.Differences)
	}
}

func TestPauseNeedsEverySideOrTheReferee(t *testing.T) {
	tb := newTable(t, events.Setting{Key: "deadline", Value: "2d"})
	// One side asking does not pause; orders are still taken, and once
	// the game moves on the ask has expired.
	d := accepted(t, tb.send("north", "PAUSE family visit"))
	if !strings.Contains(d.Echo[0], "once CSA also send PAUSE") || !strings.Contains(d.Echo[0], "expires") {
		t.Fatalf("echo %q", d.Echo)
	}
	accepted(t, tb.send("north", "ADD 1"))
	d = accepted(t, tb.send("south", "PAUSE"))
	if g := tb.game(); g.Paused != nil || !strings.Contains(d.Echo[0], "once USA also send PAUSE") {
		t.Fatalf("an expired ask paused the game: %+v %q", g.Paused, d.Echo)
	}
	accepted(t, tb.send("north", "PAUSE family visit"))
	g := tb.game()
	if g.Paused == nil || g.Paused.By != "players" || g.Paused.Reason != "USA: family visit" {
		t.Fatalf("both asked: paused %+v", g.Paused)
	}
	due := g.Deadlines
	p := rejected(t, tb.send("south", "ADD 2"), "the game is paused by the players since")
	if p.Hint == "" {
		t.Fatal("a paused game's refusal should say what to do")
	}
	accepted(t, tb.send("north", "STATUS")) // queries still work
	accepted(t, tb.send("south", "RESUME"))
	accepted(t, tb.send("north", "RESUME"))
	g = tb.game()
	if g.Paused != nil || len(g.Deadlines) != len(due) {
		t.Fatalf("after both resumed: paused %+v deadlines %+v", g.Paused, g.Deadlines)
	}
	// Deadlines move on by the time the game was paused (4 inputs, an hour each).
	for i := range due {
		if g.Deadlines[i].Due-due[i].Due != int64(4*time.Hour) {
			t.Fatalf("deadline of %s moved by %v, want 4h", due[i].Player, time.Duration(g.Deadlines[i].Due-due[i].Due))
		}
	}
	// A referee's pause is lifted only by a referee.
	accepted(t, tb.send("ref", "PAUSE the rules question of turn 3"))
	rejected(t, tb.send("north", "RESUME"), "only a referee resumes it")
	rejected(t, tb.send("ref", "PAUSE"), "already paused")
	d = accepted(t, tb.send("ref", "RESUME"))
	if !strings.Contains(d.Echo[0], "resumes after 3h") {
		t.Fatalf("resume echo %q", d.Echo)
	}
	accepted(t, tb.send("south", "ADD 2"))
}

func TestDeadlinesFollowThePolicyAndTheClockWritesThem(t *testing.T) {
	tb := newTable(t, events.Setting{Key: "deadline", Value: "1d"}, events.Setting{Key: "reminder", Value: "6h"},
		events.Setting{Key: "at-deadline", Value: "ADD 1"}, events.Setting{Key: "grace", Value: "30m"})
	g := tb.game()
	// The first prompt is USA's: north's deadline runs from the creation.
	if len(g.Deadlines) != 1 || g.Deadlines[0].Player != "north" || g.Deadlines[0].Due != start.Add(24*time.Hour).UnixNano() {
		t.Fatalf("deadlines at creation: %+v", g.Deadlines)
	}
	tb.send("north", "ADD 2") // at start+1h
	g = tb.game()
	due := start.Add(time.Hour + 24*time.Hour)
	if len(g.Deadlines) != 1 || g.Deadlines[0].Player != "south" || g.Deadlines[0].Due != due.UnixNano() || g.Deadlines[0].Default != "ADD 1" {
		t.Fatalf("after north's order: %+v", g.Deadlines)
	}
	head := func() uint64 { h, _ := tb.st.Head("g1"); return h.Seq }
	seq := head()
	tb.tick(due.Add(-7 * time.Hour)) // too early for anything
	if head() != seq {
		t.Fatal("a tick before the reminder time wrote something")
	}
	for i := 0; i < 2; i++ { // the reminder is written once, however many ticks
		tb.tick(due.Add(-5 * time.Hour))
	}
	es, _ := tb.st.Events("g1", seq+1)
	if len(es) != 1 || es[0].Type != events.TypeMailQueued || es[0].Key != play.ReminderKey("south", due.UnixNano()) {
		t.Fatalf("reminder: %d events %+v", len(es), es)
	}
	tb.tick(due.Add(10 * time.Minute)) // past due, inside the grace
	if head() != seq+1 {
		t.Fatal("the default was applied inside the grace period")
	}
	for i := 0; i < 2; i++ {
		tb.tick(due.Add(31 * time.Minute))
	}
	es, _ = tb.st.Events("g1", seq+2)
	if len(es) != 2 || es[0].Type != events.TypeDeadlinePassed || es[1].Type != events.TypeOrderAccepted {
		t.Fatalf("after the grace: %+v", es)
	}
	d := accepted(t, tb.decisionOf(es[0].Seq))
	if d.Player != "south" || len(d.Echo) == 0 || d.Echo[0] != "ADD 1" {
		t.Fatalf("the default order: %+v", d)
	}
	// Now north must act, with a deadline from the deadline's own intake.
	g = tb.game()
	if s := score(g); s["CSA"] != 1 || len(g.Deadlines) != 1 || g.Deadlines[0].Player != "north" ||
		g.Deadlines[0].Due != es[0].At+int64(24*time.Hour) {
		t.Fatalf("after the default: score %v deadlines %+v", score(g), g.Deadlines)
	}
	// The same log replays to the same game with no clock at all.
	full, err := play.Replay(tb.st, tb.reg, "g1", 0)
	if err != nil || !reflect.DeepEqual(full.Deadlines, g.Deadlines) || !reflect.DeepEqual(score(full), score(g)) {
		t.Fatalf("replay: %v %+v %v", err, full.Deadlines, score(full))
	}
	// Waiting for the referee: the deadline passes, nothing is applied.
	tb.send("ref", "SETTING at-deadline referee")
	g = tb.game()
	tb.tick(time.Unix(0, g.Deadlines[0].Due).Add(time.Hour))
	g2 := tb.game()
	if !reflect.DeepEqual(score(g2), score(g)) || !g2.Deadlines[0].Passed {
		t.Fatalf("wait for the referee: score %v → %v, deadlines %+v", score(g), score(g2), g2.Deadlines)
	}
	rep, err := play.Audit(tb.st, tb.reg, "g1", nil)
	if err != nil || !rep.OK() {
		t.Fatalf("audit: %v %+v", err, rep.Differences)
	}
}

func TestRefereeGameCommands(t *testing.T) {
	tb := newTable(t)
	tb.send("north", "ADD 1")
	cases := []struct {
		text    string
		echo    string // accepted, with this in the echo; or
		problem string // rejected, with this in the first problem
		hint    string
	}{
		{text: "DEADLINE south 48h", echo: "DEADLINE south: orders due Wed 4 Nov 2026 11:00 UTC"},
		{text: "EXTEND CSA 1d", echo: "EXTEND south: orders due Thu 5 Nov 2026 11:00 UTC"},
		{text: "EXTEND north 1d", problem: "north is not to act now (south (CSA) must)", hint: "STATUS"},
		{text: "DEADLINE ALL 2026-12-01 18:00", echo: "DEADLINE south: orders due Tue 1 Dec 2026 18:00 UTC; if none come, the referee decides\nDEADLINE: no deadline for north, not to act now"},
		{text: "DEADLINE nort 2d", problem: `"nort" is no player`, hint: "did you mean north?"},
		{text: "DEADLINE south 2020-01-01", problem: "already past"},
		{text: "REPLACE north WITH bob@example.org NAME Bob Smith", echo: "REPLACE north: mail now goes to bob@example.org (was anna@example.org); name Bob Smith (was Anna)"},
		{text: "REPLACE north WITH bob", problem: `"bob" is not a mail address`},
		{text: "OBSERVER ADD Kim@Example.org", echo: "OBSERVER added kim@example.org"},
		{text: "OBSERVER ADD kim@example.org", problem: "already observes"},
		{text: "OBSERVER REMOVE kim@example.org", echo: "OBSERVER removed kim@example.org"},
		{text: "SETTING overrides silent", echo: "SETTING overrides silent (was not set)"},
		{text: "SETTING deadlin 3d", problem: `unknown setting "deadlin"`, hint: "did you mean deadline?"},
		{text: "SETTING deadline soon", problem: "not a span of time"},
		{text: "SETTING sender-auth strict", echo: "SETTING sender-auth strict (was not set)"},
		{text: "SETTING sender-auth sometimes", problem: "want strict, confirm or lenient"},
		{text: "ANNOUNCE Turn 3 starts Monday.\nBring coffee.", echo: "ANNOUNCE: Turn 3 starts Monday."},
		{text: "PAUSE\nADD 1", problem: `"ADD" is not a game command`},
		{text: "ADD 1\nPAUSE", problem: "PAUSE is a game command, and this mail holds rulings", hint: "separate mails"},
		{text: "END WINNER Prussia", problem: `"Prussia" is not a side`},
	}
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			d := tb.send("ref", tc.text)
			if tc.problem != "" {
				p := rejected(t, d, tc.problem)
				if !strings.Contains(p.Hint, tc.hint) || p.Line == 0 || p.Text == "" {
					t.Fatalf("problem %+v, want hint %q and the line quoted", p, tc.hint)
				}
				return
			}
			a := accepted(t, d)
			if !strings.Contains(strings.Join(a.Echo, "\n"), tc.echo) {
				t.Fatalf("echo %q, want %q", a.Echo, tc.echo)
			}
		})
	}
	g := tb.game()
	if p, _ := g.PlayerByID("north"); p.Name != "Bob Smith" || !reflect.DeepEqual(p.Addresses, []string{"bob@example.org"}) || p.Side != "USA" {
		t.Fatalf("replaced seat: %+v", p)
	}
	if len(g.Observers) != 0 || !g.Policy().Silent {
		t.Fatalf("observers %v policy %+v", g.Observers, g.Policy())
	}
	// A player cannot give game commands, and only referees are referees.
	rejected(t, tb.send("south", "ROLLBACK 1 ACTION"), "unknown order")
	// END ends the game: the runner reveals the seed.
	accepted(t, tb.send("ref", "END WINNER csa Union supply line cut"))
	g = tb.game()
	if g.Ended == nil || g.Ended.Winner != "CSA" || g.Ended.Reason != "ended by the referee: Union supply line cut" || len(g.Ended.Seed) == 0 {
		t.Fatalf("ended %+v", g.Ended)
	}
	rejected(t, tb.send("ref", "ROLLBACK 1 ACTION"), "the game is over")
	accepted(t, tb.send("ref", "ANNOUNCE Thanks for playing."))
	rep, err := play.Audit(tb.st, tb.reg, "g1", nil)
	if err != nil || !rep.OK() {
		t.Fatalf("audit: %v %+v", err, rep.Differences)
	}
}

func TestSnapshotKeepsTheRefereesBookkeeping(t *testing.T) {
	tb := newTable(t, events.Setting{Key: "deadline", Value: "3d"})
	for _, in := range [][2]string{{"north", "ADD 1"}, {"south", "ADD 1"}, {"ref", "OBSERVER ADD kim@example.org"},
		{"ref", "REPLACE south WITH sam@example.jp"}, {"north", "ADD 2"}, {"ref", "ROLLBACK 1 ACTION"}, {"north", "PAUSE"},
		{"ref", "SETTING overrides silent"}} {
		tb.send(in[0], in[1])
	}
	full, err := play.Replay(tb.st, tb.reg, "g1", 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := full.MarshalSnapshot()
	if err != nil {
		t.Fatal(err)
	}
	back, err := play.UnmarshalSnapshot(tb.reg, b)
	if err != nil {
		t.Fatal(err)
	}
	back.History, full.History = nil, nil
	for _, g := range []*play.Game{back, full} {
		// An empty list and no list are the same: the fold cuts decided
		// inputs and sent mails from the front, leaving empty ones.
		if len(g.Pending) == 0 {
			g.Pending = nil
		}
		if len(g.Outbox) == 0 {
			g.Outbox = nil
		}
	}
	if !reflect.DeepEqual(back, full) {
		t.Fatalf("snapshot round trip:\n%+v\n%+v", back, full)
	}
	if len(full.Observers) != 1 || len(full.Branches) != 1 || len(full.Asks) != 1 || len(full.Settings) != 2 || len(full.Deadlines) != 1 {
		t.Fatalf("bookkeeping not exercised: %+v", full)
	}
}

func TestCreateRefusesUnknownSettings(t *testing.T) {
	st, _ := store.Open(filepath.Join(t.TempDir(), "x.db"), store.Options{})
	defer st.Close()
	_, err := play.Create(st, raceRegistry(), play.NewGame{ID: "g1", Ruleset: "race", Scenario: []byte("target 5"), Players: racePlayers,
		Settings: []events.Setting{{Key: "dedline", Value: "3d"}}})
	if err == nil || !strings.Contains(err.Error(), `unknown setting "dedline"`) {
		t.Fatalf("err %v", err)
	}
}

func TestParseSpan(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		bad  bool
	}{
		{"72h", 72 * time.Hour, false}, {"3d", 72 * time.Hour, false}, {"1d12h", 36 * time.Hour, false},
		{"90m", 90 * time.Minute, false}, {"none", 0, false}, {"", 0, false}, {"soon", 0, true}, {"-1d", 0, true}, {"2x", 0, true},
	} {
		got, err := play.ParseSpan(tc.in)
		if (err != nil) != tc.bad || got != tc.want {
			t.Errorf("ParseSpan(%q) = %v, %v", tc.in, got, err)
		}
	}
}
