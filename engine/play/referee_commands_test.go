package play_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"pbem/engine/play"
	"pbem/events"
	"pbem/store"
)

// The referee's and the players' game commands in the runtime: deadlines
// that do what they say, pauses, the operator, referees added by the
// players, refused commands, seats replaced, rollbacks and closed
// branches, time zones, orders entered for a late player, absence, draws,
// concessions, messages and the referee's desk.

// input appends any input an hour after the last and returns its decision.
func (tb *table) input(p events.Payload) events.Payload {
	tb.t.Helper()
	tb.at = tb.at.Add(time.Hour)
	tb.n++
	key := fmt.Sprintf("<m%d@test>", tb.n)
	h, _ := tb.st.Head("g1")
	res, err := tb.st.Append("g1", h.Seq, events.New("g1", tb.at, key, p))
	if err != nil {
		tb.t.Fatal(err)
	}
	tb.r.Deliver(&res.Events[0])
	tb.idle()
	return tb.decisionOf(res.First)
}

func (tb *table) operator(text string) events.Payload {
	tb.t.Helper()
	return tb.input(&events.RefereeCommand{Referee: play.OperatorID, Text: text, Source: "cli"})
}

// tick tells the runner the time and returns once the game has written
// and decided what it means (play.Runner.TickAndWait): a tick that writes
// nothing is seen to write nothing. A second tick at the same time
// writes nothing more.
func (tb *table) tick(at time.Time) {
	tb.t.Helper()
	for range 2 {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, err := tb.r.TickAndWait(ctx, at)
		cancel()
		if err != nil {
			tb.t.Fatalf("the clock at %v: %v", at, err)
		}
	}
}

func (tb *table) head() uint64 {
	h, _ := tb.st.Head("g1")
	return h.Seq
}

func deadlineFacts(d *events.OrderAccepted) []events.Fact {
	var out []events.Fact
	for _, f := range d.Facts {
		if f.Kind == play.FactDeadline {
			out = append(out, f)
		}
	}
	return out
}

func echoOf(d *events.OrderAccepted) string { return strings.Join(d.Echo, "\n") }

func TestDeadlineCommandsOnlyForPlayersWhoMustAct(t *testing.T) {
	tb := newTable(t)
	// USA (north) is to act; CSA (south) is not.
	d := accepted(t, tb.send("ref", "SETTING at-deadline ADD 1\nDEADLINE ALL 1h"))
	fs := deadlineFacts(d)
	if len(fs) != 1 || fs[0].Str("player") != "north" || !strings.Contains(echoOf(d), "no deadline for south, not to act now") {
		t.Fatalf("DEADLINE ALL gave deadlines %v; echo %q", fs, d.Echo)
	}
	p := rejected(t, tb.send("ref", "DEADLINE south 1h"), "south is not to act now (north (USA) must)")
	if p.Text != "DEADLINE south 1h" {
		t.Fatalf("the line is not quoted: %+v", p)
	}
	// At the deadline the default is applied for north only, and south's
	// turn then starts with a deadline of its own.
	g := tb.game()
	tb.tick(time.Unix(0, g.Deadlines[0].Due).Add(time.Minute))
	g = tb.game()
	if s := score(g); s["USA"] != 1 || s["CSA"] != 0 {
		t.Fatalf("after the deadline: %v", s)
	}
	if len(g.Deadlines) != 0 {
		// The game has no deadline policy: only the referee's one-off ran.
		t.Fatalf("deadlines after the default: %+v", g.Deadlines)
	}
}

func TestEveryDeadlineEchoEqualsWhatTheLogHolds(t *testing.T) {
	tb := newTable(t, events.Setting{Key: "deadline", Value: "3h"})
	// The mail of the outside check: a new default, a grace, and a
	// deadline for the player who must act, in one mail.
	d := accepted(t, tb.send("ref", "SETTING at-deadline ADD 2\nSETTING grace 1m\nDEADLINE north 1m"))
	fs := deadlineFacts(d)
	if len(fs) != 2 {
		t.Fatalf("want one fact for the new default and one for the new deadline, got %v", fs)
	}
	// The first changes only the default of the running deadline; the
	// second sets the one the DEADLINE line echoed. Nothing resets it.
	g := tb.game()
	last := fs[len(fs)-1]
	want := tb.at.Add(time.Minute).UnixNano()
	if last.Int("due") != want || last.Str("default") != "ADD 2" || g.Deadlines[0].Due != want || g.Deadlines[0].Default != "ADD 2" {
		t.Fatalf("deadline %v, game %+v, want due %d with ADD 2", last, g.Deadlines, want)
	}
	for _, f := range fs {
		shown := time.Unix(0, f.Int("due")).UTC().Format("Mon 2 Jan 2006 15:04 MST")
		if !strings.Contains(echoOf(d), "north: orders due "+shown+"; if none come: "+f.Str("default")) {
			t.Fatalf("fact %v has no echo saying so:\n%s", f, echoOf(d))
		}
	}
}

func TestDeadlineNoneClearsTheRunningDeadlines(t *testing.T) {
	tb := newTable(t, events.Setting{Key: "deadline", Value: "1h"}, events.Setting{Key: "reminder", Value: "30m"},
		events.Setting{Key: "at-deadline", Value: "ADD 1"})
	if g := tb.game(); len(g.Deadlines) != 1 {
		t.Fatalf("deadlines at creation: %+v", g.Deadlines)
	}
	d := accepted(t, tb.send("ref", "SETTING deadline none"))
	if !strings.Contains(echoOf(d), "north: deadline cleared") || len(deadlineFacts(d)) != 1 {
		t.Fatalf("echo %q facts %v", d.Echo, d.Facts)
	}
	seq := tb.head()
	tb.tick(tb.at.Add(48 * time.Hour)) // no reminder, no default
	if g := tb.game(); len(g.Deadlines) != 0 || tb.head() != seq {
		t.Fatalf("after deadline none: %+v, log %d → %d", g.Deadlines, seq, tb.head())
	}
	// And back on: who must act gets a deadline from now.
	d = accepted(t, tb.send("ref", "SETTING deadline 2h"))
	if fs := deadlineFacts(d); len(fs) != 1 || fs[0].Int("due") != tb.at.Add(2*time.Hour).UnixNano() {
		t.Fatalf("deadline on again: %v", fs)
	}
}

func TestResumeNeverRefiresADeadlineThatPassed(t *testing.T) {
	tb := newTable(t, events.Setting{Key: "deadline", Value: "2h"}) // at-deadline: referee
	g := tb.game()
	due := g.Deadlines[0].Due
	tb.tick(time.Unix(0, due).Add(time.Minute))
	if g = tb.game(); !g.Deadlines[0].Passed {
		t.Fatalf("the deadline did not pass: %+v", g.Deadlines)
	}
	passedInputs := func() int {
		es, _ := tb.st.Events("g1", 1)
		n := 0
		for _, e := range es {
			if e.Type == events.TypeDeadlinePassed {
				n++
			}
		}
		return n
	}
	if n := passedInputs(); n != 1 {
		t.Fatalf("%d deadline.passed", n)
	}
	accepted(t, tb.send("ref", "PAUSE lunch"))
	d := accepted(t, tb.send("ref", "RESUME"))
	if len(deadlineFacts(d)) != 0 {
		t.Fatalf("RESUME moved a deadline that had passed: %v", d.Facts)
	}
	tb.tick(tb.at.Add(24 * time.Hour))
	if g = tb.game(); g.Deadlines[0].Due != due || !g.Deadlines[0].Passed || passedInputs() != 1 {
		t.Fatalf("after RESUME: %+v, %d deadline.passed", g.Deadlines, passedInputs())
	}
	// A running deadline resumes the time it had left.
	accepted(t, tb.send("north", "ADD 1"))
	accepted(t, tb.send("ref", "PAUSE"))
	g = tb.game()
	left := time.Duration(g.Deadlines[0].Due - tb.at.UnixNano())
	tb.at = tb.at.Add(5 * time.Hour)
	accepted(t, tb.send("ref", "RESUME"))
	if g = tb.game(); time.Duration(g.Deadlines[0].Due-tb.at.UnixNano()) != left {
		t.Fatalf("the deadline kept %v, want %v", time.Duration(g.Deadlines[0].Due-tb.at.UnixNano()), left)
	}
}

func TestPlayersPauseEndsByItselfAfterPauseMax(t *testing.T) {
	tb := newTable(t, events.Setting{Key: "deadline", Value: "1d"}, events.Setting{Key: "pause-max", Value: "3h"})
	accepted(t, tb.send("north", "PAUSE holidays"))
	d := accepted(t, tb.send("south", "PAUSE exams"))
	if !strings.Contains(echoOf(d), "it ends by itself") {
		t.Fatalf("the pause does not say when it ends: %q", d.Echo)
	}
	g := tb.game()
	if g.Paused.Reason != "USA: holidays; CSA: exams" {
		t.Fatalf("reason %q", g.Paused.Reason)
	}
	pausedAt, due := g.Paused.At, g.Deadlines[0].Due
	tb.tick(time.Unix(0, pausedAt).Add(2 * time.Hour)) // not yet
	if tb.game().Paused == nil {
		t.Fatal("the pause ended before its pause-max")
	}
	end := time.Unix(0, pausedAt).Add(3*time.Hour + time.Minute)
	tb.tick(end)
	g = tb.game()
	if g.Paused != nil {
		t.Fatal("the players' pause did not end after pause-max")
	}
	if g.Deadlines[0].Due != due+(end.UnixNano()-pausedAt) {
		t.Fatalf("deadline %d, want it moved on by the pause (%d)", g.Deadlines[0].Due, due+(end.UnixNano()-pausedAt))
	}
	es, _ := tb.st.Events("g1", 1)
	n := 0
	for _, e := range es {
		if e.Type == events.TypePauseExpired {
			n++
			if e.Key != play.PauseExpiredKey(pausedAt) {
				t.Fatalf("key %q", e.Key)
			}
		}
	}
	if n != 1 {
		t.Fatalf("%d pause.expired events, want 1", n)
	}
	// A referee who holds a players' pause keeps it past pause-max.
	tb.at = end
	accepted(t, tb.send("north", "PAUSE"))
	accepted(t, tb.send("south", "PAUSE"))
	d = accepted(t, tb.send("ref", "PAUSE a rules question"))
	if !strings.Contains(echoOf(d), "holds the players' pause") {
		t.Fatalf("take over: %q", d.Echo)
	}
	tb.tick(tb.at.Add(10 * time.Hour))
	if g = tb.game(); g.Paused == nil || g.Paused.By != "ref" || g.Paused.Reason != "a rules question" {
		t.Fatalf("the referee's pause: %+v", g.Paused)
	}
	rejected(t, tb.send("north", "RESUME"), "only a referee resumes it")
	// RESUME then PAUSE in one mail: a new pause, at once.
	d = accepted(t, tb.send("ref", "RESUME\nPAUSE waiting for the errata"))
	if g = tb.game(); g.Paused == nil || g.Paused.Reason != "waiting for the errata" || g.Paused.At != tb.at.UnixNano() {
		t.Fatalf("RESUME then PAUSE: %+v %q", g.Paused, d.Echo)
	}
	rep, err := play.Audit(tb.st, tb.reg, "g1", nil)
	if err != nil || !rep.OK() {
		t.Fatalf("audit: %v %+v", err, rep.Differences)
	}
}

func TestTheOperatorActsOnAnyGame(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "pbem.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	reg := raceRegistry()
	r := play.NewRunner(st, reg, play.RunnerOptions{Notifier: reminders{}})
	t.Cleanup(r.Close)
	created, err := play.Create(st, reg, play.NewGame{ID: "g1", Ruleset: "race", Scenario: []byte("target 40"), Players: racePlayers, At: start})
	if err != nil {
		t.Fatal(err)
	}
	tb := &table{t: t, st: st, reg: reg, r: r, at: start}
	r.Deliver(&created)
	tb.idle()
	// Both players pause; one resumes; the game without a referee is not
	// stuck: the operator resumes it.
	accepted(t, tb.send("north", "PAUSE"))
	accepted(t, tb.send("south", "PAUSE"))
	accepted(t, tb.send("south", "RESUME"))
	rejected(t, tb.input(&events.RefereeCommand{Referee: "mallory", Text: "RESUME"}), "not a referee")
	d := accepted(t, tb.operator("RESUME"))
	if tb.game().Paused != nil || !strings.Contains(echoOf(d), "resumes") {
		t.Fatalf("operator's RESUME: %q", d.Echo)
	}
	// The operator adds a referee (as the players may), who may then command.
	d = accepted(t, tb.operator("REFEREE ADD Dana@Example.org NAME Dana"))
	g := tb.game()
	if len(g.Referees) != 1 || g.Referees[0].ID != "dana" || g.Referees[0].Addresses[0] != "dana@example.org" {
		t.Fatalf("referees %+v (%q)", g.Referees, d.Echo)
	}
	accepted(t, tb.input(&events.RefereeCommand{Referee: "dana", Text: "ANNOUNCE welcome"}))
	if _, err := play.Create(st, reg, play.NewGame{ID: "g2", Ruleset: "race", Scenario: []byte("target 4"),
		Players: []events.Player{{ID: "operator", Side: "USA"}, {ID: "b", Side: "CSA"}}}); err == nil || !strings.Contains(err.Error(), `not "referee" or "operator"`) {
		t.Fatalf("a player named operator: %v", err)
	}
}

func TestPlayersAddAndReplaceARefereeByAgreeing(t *testing.T) {
	tb := newTable(t)
	d := accepted(t, tb.send("north", "REFEREE ADD dana@example.org NAME Dana"))
	if !strings.Contains(echoOf(d), "once CSA also send the same line") {
		t.Fatalf("echo %q", d.Echo)
	}
	// Another request does not count as the same.
	accepted(t, tb.send("south", "REFEREE ADD eve@example.org"))
	if len(tb.game().Referees) != 1 {
		t.Fatal("two different requests added a referee")
	}
	d = accepted(t, tb.send("south", "referee add DANA@example.org name Dana"))
	g := tb.game()
	if len(g.Referees) != 2 || g.Referees[1].ID != "dana" || g.Referees[1].Name != "Dana" {
		t.Fatalf("referees %+v (%q)", g.Referees, d.Echo)
	}
	// An ask expires when the game moves on.
	accepted(t, tb.send("north", "REFEREE REPLACE ref WITH zoe@example.org"))
	accepted(t, tb.send("north", "ADD 1"))
	accepted(t, tb.send("south", "REFEREE REPLACE ref WITH zoe@example.org"))
	if p, _ := tb.game().PlayerByID("ref"); p.Addresses[0] != "carol@example.org" {
		t.Fatalf("an expired ask counted: %+v", p)
	}
	accepted(t, tb.send("north", "REFEREE REPLACE ref WITH zoe@example.org"))
	g = tb.game()
	if p, _ := g.PlayerByID("ref"); p.Addresses[0] != "zoe@example.org" || g.KeyEpoch("ref") != 1 {
		t.Fatalf("replaced referee: %+v epoch %d", p, g.KeyEpoch("ref"))
	}
}

func TestAnAtDeadlineThatIsNoOrderIsRefusedWhenSet(t *testing.T) {
	st, _ := store.Open(filepath.Join(t.TempDir(), "x.db"), store.Options{})
	defer st.Close()
	_, err := play.Create(st, raceRegistry(), play.NewGame{ID: "g1", Ruleset: "race", Scenario: []byte("target 5"), Players: racePlayers,
		Settings: []events.Setting{{Key: "deadline", Value: "1d"}, {Key: "at-deadline", Value: "FOO"}}})
	if err == nil || !strings.Contains(err.Error(), `at-deadline "FOO" is not an order USA could send: unknown order`) {
		t.Fatalf("pbem new with at-deadline FOO: %v", err)
	}
	tb := newTable(t)
	rejected(t, tb.send("ref", "SETTING at-deadline FOO"), "not an order USA could send")
	accepted(t, tb.send("ref", "SETTING at-deadline ADD 1"))
	accepted(t, tb.send("ref", "SETTING at-deadline referee"))
}

func TestARefusedRefereeMailIsRejectedAndNothingApplied(t *testing.T) {
	tb := newTable(t)
	p := rejected(t, tb.input(&events.RefereeCommand{Referee: "ref", Text: "ROLLBACK 1 ACTION", Source: "mail", Refused: "it has no Secret line"}),
		"pbem did not apply this mail: it has no Secret line")
	if !strings.Contains(p.Hint, "Secret line") {
		t.Fatalf("hint %q", p.Hint)
	}
	p = rejected(t, tb.input(&events.OrderReceived{Player: play.ObserverPrefix + "kim@example.org", Text: "MARCH Lyle 1605"}), "you observe this game")
	if !strings.Contains(p.Hint, "carol@example.org") {
		t.Fatalf("an observer is not told how to reach the referee: %q", p.Hint)
	}
}

func TestReplaceGivesTheSeatANewKey(t *testing.T) {
	tb := newTable(t)
	if tb.game().KeyEpoch("north") != 0 {
		t.Fatal("a new seat is not at epoch 0")
	}
	accepted(t, tb.send("ref", "REPLACE north WITH bob@example.org"))
	accepted(t, tb.send("ref", "REPLACE north WITH bea@example.org"))
	g := tb.game()
	if g.KeyEpoch("north") != 2 || g.KeyEpoch("south") != 0 {
		t.Fatalf("epochs %+v", g.Keys)
	}
	full, err := play.Replay(tb.st, tb.reg, "g1", 0)
	if err != nil || full.KeyEpoch("north") != 2 {
		t.Fatalf("replay: %v %+v", err, full.Keys)
	}
}

func TestRollbackIntoAClosedBranchIsRefused(t *testing.T) {
	tb := newTable(t)
	tb.send("north", "ADD 1")
	tb.send("south", "ADD 1")
	accepted(t, tb.send("ref", "OBSERVER ADD kim@example.org"))
	branchInput := tb.head() + 1
	tb.send("north", "ADD 3")
	inBranch := tb.head()
	accepted(t, tb.send("ref", "ROLLBACK 1 ACTION"))
	p := rejected(t, tb.send("ref", fmt.Sprintf("ROLLBACK TO %d", inBranch)), fmt.Sprintf("seq %d lies in a closed branch", inBranch))
	if !strings.Contains(p.Hint, fmt.Sprintf("ROLLBACK TO %d", branchInput)) {
		t.Fatalf("hint %q", p.Hint)
	}
	if s := score(tb.game()); s["USA"] != 1 {
		t.Fatalf("the undone move came back: %v", s)
	}
	// The observer added before the rollback is still in effect, and the
	// audit does not mark that command as undone.
	rep, err := play.Audit(tb.st, tb.reg, "g1", nil)
	if err != nil || !rep.OK() {
		t.Fatalf("audit: %v %+v", err, rep.Differences)
	}
	if len(tb.game().Observers) != 1 {
		t.Fatal("the rollback removed the observer")
	}
	var sawAdd, sawUndone bool
	for _, l := range rep.Timeline {
		if strings.Contains(l, "OBSERVER ADD") && strings.Contains(l, "closed branch") {
			t.Fatalf("OBSERVER ADD before the rollback is marked: %s", l)
		}
		sawAdd = sawAdd || strings.Contains(l, "OBSERVER ADD")
		sawUndone = sawUndone || strings.Contains(l, "north: ADD 3") && strings.Contains(l, "[closed branch")
	}
	if !sawAdd || !sawUndone {
		t.Fatalf("timeline:\n%s", strings.Join(rep.Timeline, "\n"))
	}
}

func TestAGameCommandInAClosedBranchIsMarkedStillInEffect(t *testing.T) {
	tb := newTable(t)
	tb.send("north", "ADD 1")
	tb.send("south", "ADD 1")
	accepted(t, tb.send("ref", "OBSERVER ADD kim@example.org"))
	accepted(t, tb.send("ref", "ROLLBACK 1 ACTION")) // south's ADD 1, and the OBSERVER ADD after it, are in the closed branch
	if len(tb.game().Observers) != 1 {
		t.Fatal("the rollback removed the observer")
	}
	rep, err := play.Audit(tb.st, tb.reg, "g1", nil)
	if err != nil || !rep.OK() {
		t.Fatalf("audit: %v %+v", err, rep.Differences)
	}
	marked := 0
	for _, l := range rep.Timeline {
		if strings.Contains(l, "OBSERVER ADD") && !strings.Contains(l, "still in effect") {
			t.Fatalf("a command the rollback left in effect is marked undone: %s", l)
		}
		if strings.Contains(l, "south: ADD 1") && strings.Contains(l, "[closed branch: rolled back") {
			marked++
		}
	}
	if marked != 1 {
		t.Fatalf("the undone move is not marked:\n%s", strings.Join(rep.Timeline, "\n"))
	}
}

func TestOnlyChangesAreOverrides(t *testing.T) {
	ruleset := events.NewFact("score.added", events.S("side", "USA"), events.I("n", 1))
	dl := events.NewFact(play.FactDeadline, events.S("player", "north"), events.I("due", 5), events.S("default", "PASS"))
	tests := []struct {
		text  string
		facts []events.Fact
		want  bool
	}{
		{"RULE DONE", []events.Fact{ruleset, dl}, false},
		{"SET Lyle FATIGUE 3", []events.Fact{ruleset}, true},
		{"ROLLBACK 1 ACTION", []events.Fact{events.NewFact(play.FactRollback, events.I("to", 3))}, true},
		{"DEADLINE north 1h", []events.Fact{dl}, true},
		{"ORDER north PASS", []events.Fact{events.NewFact(play.FactOrdered, events.S("player", "north")), ruleset}, true},
		{"ANNOUNCE hello", []events.Fact{events.NewFact(play.FactAnnounce, events.S("text", "hello"))}, false},
		{"MESSAGE north hi", []events.Fact{events.NewFact(play.FactMessage, events.S("text", "hi"))}, false},
		{"STATUS", nil, false},
	}
	for _, tc := range tests {
		if got := play.IsOverride(tc.text, &events.OrderAccepted{Facts: tc.facts}); got != tc.want {
			t.Errorf("IsOverride(%q) = %v", tc.text, got)
		}
	}
}

func TestTimeZonesAreSetAndShown(t *testing.T) {
	tb := newTable(t, events.Setting{Key: "deadline", Value: "1d"})
	d := accepted(t, tb.send("south", "TZ Asia/Tokyo"))
	if !strings.Contains(echoOf(d), "TZ Asia/Tokyo (was not set)") {
		t.Fatalf("echo %q", d.Echo)
	}
	rejected(t, tb.send("south", "TZ Mars/Olympus"), "is not a time zone")
	accepted(t, tb.send("ref", "SETTING tz north Europe/Berlin"))
	rejected(t, tb.send("ref", "SETTING tz nort Europe/Berlin"), "no player or referee")
	g := tb.game()
	at := time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC).UnixNano()
	if got := g.TimeFor("south", at); got != "Tue 1 Dec 2026 18:00 UTC (Wed 2 Dec 03:00 JST)" {
		t.Fatalf("south: %q", got)
	}
	if got := g.TimeFor("north", at); got != "Tue 1 Dec 2026 18:00 UTC (19:00 CET)" {
		t.Fatalf("north: %q", got)
	}
}

func TestARefereeEntersAnOrderForALatePlayer(t *testing.T) {
	tb := newTable(t, events.Setting{Key: "deadline", Value: "1d"})
	d := accepted(t, tb.send("ref", "ORDER north ADD 3"))
	if d.Player != "ref" || d.Facts[0].Kind != play.FactOrdered || !strings.Contains(echoOf(d), "the referee enters north (USA)'s orders") {
		t.Fatalf("ORDER: %+v", d)
	}
	g := tb.game()
	if s := score(g); s["USA"] != 3 || len(g.Deadlines) != 1 || g.Deadlines[0].Player != "south" {
		t.Fatalf("after ORDER: %v %+v", s, g.Deadlines)
	}
	p := rejected(t, tb.send("ref", "ORDER south\n  ADD 9"), "ADD takes 1, 2 or 3")
	if p.Line != 2 || p.Text != "  ADD 9" {
		t.Fatalf("the problem does not point at the line: %+v", p)
	}
	rejected(t, tb.send("ref", "ORDER nobody ADD 1"), "no player")
}

func TestAbsenceDrawConcedeAndMessages(t *testing.T) {
	tb := newTable(t, events.Setting{Key: "deadline", Value: "1d"}, events.Setting{Key: "absence-max", Value: "7d"})
	g := tb.game()
	due := g.Deadlines[0].Due
	// ABSENCE within the limit moves north's running deadline on.
	from, to := tb.at.Add(2*time.Hour), tb.at.Add(3*24*time.Hour)
	d := accepted(t, tb.send("north", "ABSENCE "+from.Format("2006-01-02 15:04")+" "+to.Format("2006-01-02 15:04")))
	g = tb.game()
	if a, ok := g.AbsenceOf("north"); !ok || a.From != from.UnixNano() || a.To != to.UnixNano() {
		t.Fatalf("absence %+v (%q)", a, d.Echo)
	}
	if g.Deadlines[0].Due != due+to.UnixNano()-from.UnixNano() {
		t.Fatalf("deadline %v, want it moved by the absence", time.Unix(0, g.Deadlines[0].Due).UTC())
	}
	rejected(t, tb.send("north", "ABSENCE 2026-12-01 2026-12-31"), "this game allows at most 7d")
	rejected(t, tb.send("north", "ABSENCE soon later"), "is not a date")
	accepted(t, tb.send("north", "ABSENCE CANCEL"))
	// A message to the referees is seen by them and its sender only.
	d = accepted(t, tb.send("south", "REFEREE May I retreat across the ford?\nIt is flooded."))
	var msg events.Fact
	for _, f := range d.Facts {
		if f.Kind == play.FactMessage {
			msg = f
		}
	}
	if msg.Str("text") != "May I retreat across the ford?\nIt is flooded." || msg.Str("to") != "referees" || msg.Vis != events.ToPlayer("south") {
		t.Fatalf("message fact %+v", msg)
	}
	d = accepted(t, tb.send("ref", "MESSAGE south Yes, at half speed."))
	if d.Facts[0].Vis != events.ToPlayer("south") || d.EchoLineVis(0) != events.ToPlayer("south") {
		t.Fatalf("the referee's message is not for south alone: %+v", d)
	}
	// LOG is for everyone; GAMES for referees.
	accepted(t, tb.send("south", "LOG 5"))
	rejected(t, tb.send("south", "GAMES"), "GAMES lists the games a referee runs")
	// A draw needs every side, and the offer expires when the game moves on.
	accepted(t, tb.send("north", "DRAW"))
	accepted(t, tb.send("north", "ADD 1"))
	accepted(t, tb.send("south", "DRAW"))
	if tb.game().Ended != nil {
		t.Fatal("an expired draw offer ended the game")
	}
	accepted(t, tb.send("north", "DRAW"))
	if g = tb.game(); g.Ended == nil || g.Ended.Winner != "" || g.Ended.Reason != "a draw agreed by every side" {
		t.Fatalf("ended %+v", g.Ended)
	}
}

func TestConcede(t *testing.T) {
	tb := newTable(t)
	accepted(t, tb.send("south", "CONCEDE my army is gone"))
	if g := tb.game(); g.Ended == nil || g.Ended.Winner != "USA" || g.Ended.Reason != "CSA conceded: my army is gone" {
		t.Fatalf("ended %+v", g.Ended)
	}
}

func TestTheDeskShowsWhoIsToMoveWhatIsOverdueAndPaused(t *testing.T) {
	tb := newTable(t, events.Setting{Key: "deadline", Value: "2h"})
	g := tb.game()
	d := g.Desk(tb.at.Add(time.Hour).UnixNano())
	if d.State != "USA (north) to move" || d.Overdue || len(d.Lines) != 1 || !strings.Contains(d.Lines[0], "north (USA): due Mon 2 Nov 2026 11:00 UTC, in 1h") {
		t.Fatalf("desk %+v", d)
	}
	if d = g.Desk(tb.at.Add(3 * time.Hour).UnixNano()); !d.Overdue || !strings.HasPrefix(d.Lines[0], "OVERDUE north (USA): was due") {
		t.Fatalf("desk later %+v", d)
	}
	accepted(t, tb.send("north", "PAUSE"))
	accepted(t, tb.send("south", "PAUSE snow"))
	d = tb.game().Desk(tb.at.UnixNano())
	if !d.Paused || !strings.Contains(d.State, "paused by the players since") || !strings.Contains(d.State, "CSA: snow") {
		t.Fatalf("paused desk %+v", d)
	}
	if !tb.game().RefereedBy([]string{"Carol@Example.org"}) || tb.game().RefereedBy([]string{"anna@example.org"}) {
		t.Fatal("RefereedBy")
	}
}

// A seat or observer a referee adds at the game's built-in mail host is
// accepted (the server makes its mailbox and gives the referee its
// password, outside the log); the players' own request for a referee
// there is refused with the reason, as it has no one to give it to.
func TestNewSeatsAtTheBuiltinMailHostAreTheReferees(t *testing.T) {
	tb := newTable(t, events.Setting{Key: "builtin-domain", Value: "pbem.localhost"})
	rejected(t, tb.send("north", "REFEREE ADD dana@pbem.localhost"), "ask a referee, or the server's operator")
	p := rejected(t, tb.send("south", "REFEREE REPLACE ref WITH dana@pbem.localhost"), "is at pbem's built-in mail host (pbem.localhost)")
	if !strings.Contains(p.Msg, "no one to give it to") {
		t.Fatalf("players' request: %+v", p)
	}
	for _, text := range []string{"OBSERVER ADD kim@pbem.localhost", "REPLACE north WITH bob@PBEM.localhost", "REFEREE ADD dana@pbem.localhost"} {
		accepted(t, tb.send("ref", text))
	}
	g := tb.game()
	if p, _ := g.PlayerByID("north"); len(p.Addresses) != 1 || p.Addresses[0] != "bob@pbem.localhost" || !slices.Contains(g.Observers, "kim@pbem.localhost") || !g.RefereedBy([]string{"dana@pbem.localhost"}) {
		t.Fatalf("seats after the referee's commands: %+v observers %v referees %+v", p, g.Observers, g.Referees)
	}
	rejected(t, tb.send("ref", "SETTING builtin-domain example.org"), "the server's to set")
	// Elsewhere, and the addresses the game began with, are fine for the players too.
	accepted(t, tb.send("north", "REFEREE ADD carl@example.org"))
}
