package play_test

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pbem/engine"
	"pbem/engine/draw"
	"pbem/engine/enginetest"
	"pbem/engine/play"
	"pbem/events"
	"pbem/internal/syncbuf"
	"pbem/internal/waitfor"
	"pbem/mail/compose"
	"pbem/store"
	"pbem/templates"
)

// A bug in one rule system stops one input of one game, never the
// server: every call from the runtime into a rule system, and every call
// of the mail composer, is guarded. These tests plant a panic (a nil map,
// as a real bug would be) in each method the runtime calls.

// panicky is the reference rule system (race) under another name, with a
// panic planted in one method (in; "" for none).
type panicky struct {
	engine.Ruleset
	in string
}

func panickyRules(in string) func() engine.Ruleset {
	return func() engine.Ruleset { return panicky{enginetest.Race(), in} }
}

// tallies is never made: writing to it panics, as a real bug would.
var tallies map[string]int

// boom panics as a bug would.
func boom() { tallies["boom"]++ }

func (p panicky) Name() string { return "panicky" }

func (p panicky) Setup(scenario []byte, players []events.Player) (engine.State, error) {
	if p.in == "setup" {
		boom()
	}
	return p.Ruleset.Setup(scenario, players)
}

// Decide panics on the orders of the CSA alone, so the USA can play.
func (p panicky) Decide(s engine.State, side string, orders []engine.Order, dice engine.Dice) (engine.Decision, error) {
	if p.in == "decide" && side == "CSA" {
		boom()
	}
	return p.Ruleset.Decide(s, side, orders, dice)
}

// Evolve panics on a score of 3 (ADD 3).
func (p panicky) Evolve(s engine.State, f events.Fact) (engine.State, error) {
	if p.in == "evolve" && f.Kind == "score.added" && f.Int("n") == 3 {
		boom()
	}
	return p.Ruleset.Evolve(s, f)
}

func (p panicky) Prompt(s engine.State) []engine.Prompt {
	if p.in == "prompt" {
		boom()
	}
	return p.Ruleset.Prompt(s)
}

func (p panicky) Render(v engine.View) engine.Board {
	if p.in == "render" {
		boom()
	}
	return p.Ruleset.Render(v)
}

func (p panicky) Describe(s engine.State, f events.Fact) string {
	if p.in == "describe" {
		boom()
	}
	return p.Ruleset.Describe(s, f)
}

func (p panicky) Draw(v engine.View) *draw.Scene {
	if p.in == "draw" {
		boom()
	}
	return p.Ruleset.(engine.Drawer).Draw(v)
}

func (p panicky) EncodeState(s engine.State) ([]byte, error) {
	if p.in == "encode" {
		boom()
	}
	return p.Ruleset.EncodeState(s)
}

var panicStart = time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)

// house is a server's runtime on a real bbolt file: the runner, with the
// real mail composer as its notifier, both logging to logs.
type house struct {
	t    *testing.T
	path string
	reg  *engine.Registry
	st   *store.Store
	r    *play.Runner
	comp *compose.Composer
	logs *syncbuf.Buffer
	at   time.Time
}

func openHouse(t *testing.T, path string, reg *engine.Registry, opts play.RunnerOptions) *house {
	t.Helper()
	st, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	set, err := templates.Load("")
	if err != nil {
		t.Fatal(err)
	}
	h := &house{t: t, path: path, reg: reg, st: st, logs: &syncbuf.Buffer{}, at: panicStart}
	lg := slog.New(slog.NewTextHandler(h.logs, nil))
	h.comp = compose.New(compose.Config{Domain: "pbem.localhost", Local: "pbem", Secret: []byte("test secret"), Logger: lg}, set)
	opts.Notifier, opts.Logger = h.comp, lg
	h.r = play.NewRunner(st, reg, opts)
	t.Cleanup(h.close)
	return h
}

func (h *house) close() {
	if h.r != nil {
		h.r.Close()
		h.st.Close()
		h.r = nil
	}
}

func (h *house) create(id, ruleset string) {
	h.t.Helper()
	created, err := play.Create(h.st, h.reg, play.NewGame{ID: id, Ruleset: ruleset, ScenarioName: "fifty", Scenario: []byte("target 50"),
		Players: enginetest.RacePlayers, Referees: enginetest.RaceReferees, At: panicStart, Welcome: h.comp.Welcome,
		// A mail to everyone for every action: these tests look for a
		// part of each reader's mail.
		Settings: []events.Setting{{Key: play.SettingMail, Value: play.VolumeEvery}}})
	if err != nil {
		h.t.Fatal(err)
	}
	h.r.Deliver(&created)
}

// put appends an order of who to game's log, as the mail intake does,
// and hands it to the runner; it returns the order's seq.
func (h *house) put(game, who, text string) uint64 {
	h.t.Helper()
	h.at = h.at.Add(time.Hour)
	e := events.New(game, h.at, "", &events.OrderReceived{Player: who, Text: text, MessageID: h.at.Format("20060102150405") + "@mail.example.org", Source: "mail"})
	for {
		head, err := h.st.Head(game)
		if err != nil {
			h.t.Fatal(err)
		}
		res, err := h.st.Append(game, head.Seq, e)
		var conflict *store.ConflictError
		if errors.As(err, &conflict) {
			continue // the runner appended meanwhile
		}
		if err != nil {
			h.t.Fatal(err)
		}
		h.r.Deliver(&res.Events[0])
		return res.Last
	}
}

// send puts an order and waits for its decision; it returns the
// decision and the mails it caused.
func (h *house) send(game, who, text string) (events.Payload, []*events.MailQueued) {
	h.t.Helper()
	seq := h.put(game, who, text)
	var p events.Payload
	var mails []*events.MailQueued
	if !waitfor.True(20*time.Second, func() bool {
		evs, err := h.st.Events(game, seq+1)
		if err != nil {
			h.t.Fatal(err)
		}
		for i := range evs {
			if p, err = events.Decode(&evs[i]); err != nil {
				h.t.Fatal(err)
			}
			if play.InputOf(p) != seq {
				continue
			}
			mails = nil
			for j := i + 1; j < len(evs); j++ {
				if evs[j].Type == events.TypeMailHeld {
					continue // a report held for a reader's next mail
				}
				if m, ok := decodeMail(h.t, &evs[j]); ok {
					mails = append(mails, m)
				} else {
					break
				}
			}
			return true
		}
		return false
	}) {
		h.t.Fatalf("game %s: order %d (%s) not decided in 20s; log:\n%s", game, seq, text, h.logs.String())
	}
	return p, mails
}

func decodeMail(t *testing.T, e *events.Envelope) (*events.MailQueued, bool) {
	if e.Type != events.TypeMailQueued {
		return nil, false
	}
	p, err := events.Decode(e)
	if err != nil {
		t.Fatal(err)
	}
	return p.(*events.MailQueued), true
}

func mailTo(ms []*events.MailQueued, addr string) *events.MailQueued {
	for _, m := range ms {
		for _, to := range m.To {
			if to == addr {
				return m
			}
		}
	}
	return nil
}

// noPanicIn fails if a mail shows anything of a panic: the stack and
// what the code panicked with are for the server's log alone.
func noPanicIn(t *testing.T, ms []*events.MailQueued) {
	t.Helper()
	for _, m := range ms {
		for _, s := range []string{"goroutine", "nil map", "panic", ".go:"} {
			if strings.Contains(m.Body, s) {
				t.Errorf("mail to %v shows %q:\n%s", m.To, s, m.Body)
			}
		}
	}
}

// loggedPanic checks that the server's log has an ERROR for game with
// the panic's stack.
func (h *house) loggedPanic(game, what string) {
	h.t.Helper()
	for _, l := range strings.Split(h.logs.String(), "\n") {
		if strings.Contains(l, "level=ERROR") && strings.Contains(l, "game="+game) && strings.Contains(l, what) &&
			strings.Contains(l, "stack=") && strings.Contains(l, "goroutine") &&
			strings.Contains(l, "panicking_test.go") {
			return
		}
	}
	h.t.Errorf("no ERROR for game %s (%s) with the panic's stack in the log:\n%s", game, what, h.logs.String())
}

// waitMail waits for a mail to addr in game's log whose body says text.
func (h *house) waitMail(game, addr, text string) *events.MailQueued {
	h.t.Helper()
	var found *events.MailQueued
	var ms []*events.MailQueued
	if !waitfor.True(20*time.Second, func() bool {
		evs, err := h.st.Events(game, 1)
		if err != nil {
			h.t.Fatal(err)
		}
		ms = nil
		for i := range evs {
			if m, ok := decodeMail(h.t, &evs[i]); ok {
				ms = append(ms, m)
			}
		}
		for _, m := range ms {
			if mailTo([]*events.MailQueued{m}, addr) != nil && strings.Contains(strings.Join(strings.Fields(m.Body), " "), text) {
				found = m
				return true
			}
		}
		return false
	}) {
		h.t.Fatalf("no mail to %s saying %q in 20s; %d mails; log:\n%s", addr, text, len(ms), h.logs.String())
	}
	noPanicIn(h.t, []*events.MailQueued{found})
	return found
}

// decided waits until game has decided everything in its log.
func (h *house) decided(game string) *play.Game {
	h.t.Helper()
	var g *play.Game
	if !waitfor.True(20*time.Second, func() bool {
		head, err := h.st.Head(game)
		if err != nil {
			h.t.Fatal(err)
		}
		err = h.r.Query(context.Background(), game, func(x *play.Game) {
			if x.Seq == head.Seq && len(x.Pending) == 0 {
				c := *x
				g = &c
			}
		})
		if err != nil {
			h.t.Fatalf("game %s: %v", game, err)
		}
		return g != nil
	}) {
		h.t.Fatalf("game %s not decided in 20s:\n%s", game, h.logs.String())
	}
	return g
}

func rejections(t *testing.T, st *store.Store, game string) []*events.OrderRejected {
	t.Helper()
	evs, err := st.Events(game, 1)
	if err != nil {
		t.Fatal(err)
	}
	var out []*events.OrderRejected
	for i := range evs {
		if evs[i].Type == events.TypeOrderRejected {
			p, err := events.Decode(&evs[i])
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, p.(*events.OrderRejected))
		}
	}
	return out
}

// A Decide that panics rejects that order as a Decide error does: the
// player is told in plain words, the referee is mailed, the operator
// gets the stack in the log, and the rejection is in the log, so a
// restart does not decide it again. The other game on the runner, and
// the same game's other side, go on.
func TestPanickingDecideRejectsTheOrderAndOtherGamesKeepServing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pbem.db")
	reg := engine.NewRegistry(enginetest.Race, panickyRules("decide"))
	h := openHouse(t, path, reg, play.RunnerOptions{})
	h.create("buggy", "panicky")
	h.create("sound", "race")

	if d, _ := h.send("buggy", "north", "ADD 2"); d.EventType() != events.TypeOrderAccepted {
		t.Fatalf("USA's order: %s", play.DescribeDecision(d))
	}
	d, mails := h.send("buggy", "south", "ADD 1")
	rej, ok := d.(*events.OrderRejected)
	if !ok {
		t.Fatalf("CSA's order, whose Decide panics: %s", play.DescribeDecision(d))
	}
	if len(rej.Problems) != 1 || !strings.Contains(rej.Problems[0].Msg, "could not decide this order") ||
		!strings.Contains(rej.Problems[0].Msg, "the referee and the operator have been told") {
		t.Errorf("the rejection says %+v", rej.Problems)
	}
	player := mailTo(mails, "taro@example.jp")
	if player == nil || player.Template != templates.NameRejected || !strings.Contains(strings.Join(strings.Fields(player.Body), " "), "pbem could not decide this order") {
		t.Fatalf("the player's mail: %+v", player)
	}
	ref := mailTo(mails, "carol@example.net")
	if ref == nil || !strings.Contains(strings.Join(strings.Fields(ref.Body), " "), "pbem could not decide the order of Taro (CSA)") {
		t.Fatalf("the referee's mail: %+v", ref)
	}
	noPanicIn(t, mails)
	h.loggedPanic("buggy", "deciding an input failed")

	// The other game goes on.
	for i, who := range []string{"north", "south", "north"} {
		if d, _ := h.send("sound", who, "ADD 2"); d.EventType() != events.TypeOrderAccepted {
			t.Fatalf("the sound game's order %d: %s", i, play.DescribeDecision(d))
		}
	}

	// A restart on the same file decides nothing again, and crashes not.
	h.close()
	h = openHouse(t, path, reg, play.RunnerOptions{})
	h.r.Kick("buggy")
	g := h.decided("buggy")
	if got := g.State.(*raceState).Score; got["USA"] != 2 || got["CSA"] != 0 {
		t.Errorf("after the restart the score is %v", got)
	}
	if n := len(rejections(t, h.st, "buggy")); n != 1 {
		t.Errorf("%d rejections in the log after the restart, want the one", n)
	}
	// The audit re-decides it, and it could not be decided again: no
	// difference, and no crash.
	rep, err := play.Audit(h.st, reg, "buggy", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Differences) != 0 {
		t.Errorf("the audit finds %+v", rep.Differences)
	}
}

// A game whose fold panics (a new binary's Evolve with a bug, on a log
// an older one wrote) is failing: it answers that it cannot be loaded
// and that the operator has been told, while every other game on the
// runner keeps serving; restarts do not crash; and once the bug is
// mended, the game loads and decides what came in meanwhile.
func TestPanickingFoldMarksTheGameFailingAndOtherGamesKeepServing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pbem.db")
	sound := engine.NewRegistry(enginetest.Race, panickyRules(""))
	h := openHouse(t, path, sound, play.RunnerOptions{})
	h.create("buggy", "panicky")
	h.create("sound", "race")
	if d, _ := h.send("buggy", "north", "ADD 3"); d.EventType() != events.TypeOrderAccepted {
		t.Fatalf("%s", play.DescribeDecision(d))
	}
	h.close()

	buggy := engine.NewRegistry(enginetest.Race, panickyRules("evolve"))
	for restart := range 2 {
		h = openHouse(t, path, buggy, play.RunnerOptions{RetryMax: 100 * time.Millisecond})
		h.r.Kick("buggy")
		h.r.Kick("sound")
		called := false
		err := h.r.Query(context.Background(), "buggy", func(*play.Game) { called = true })
		if err == nil || called {
			t.Fatalf("restart %d: the failing game answered a query (err %v)", restart, err)
		}
		for _, s := range []string{"game buggy cannot be loaded", "the operator has been told"} {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("restart %d: the failing game says %q, without %q", restart, err, s)
			}
		}
		if strings.Contains(err.Error(), "goroutine") {
			t.Errorf("the error shows the stack: %v", err)
		}
		// Mail for it is taken in and kept, not lost, and crashes nothing;
		// its sender is told the game cannot be loaded.
		h.at = panicStart.Add(time.Duration(restart) * 24 * time.Hour)
		h.put("buggy", "south", "ADD 1")
		h.waitMail("buggy", "taro@example.jp", "Your mail received "+[]string{"Mon 2", "Tue 3"}[restart]+
			" Nov 2026 10:00 UTC is for game buggy, which pbem cannot load just now: an internal error, and the operator has been told.")
		// The other game serves.
		if d, _ := h.send("sound", []string{"north", "south"}[restart], "ADD 2"); d.EventType() != events.TypeOrderAccepted {
			t.Fatalf("restart %d: the sound game: %s", restart, play.DescribeDecision(d))
		}
		h.loggedPanic("buggy", "cannot load game")
		// What the desk and the commands load says the same, as an error.
		if _, err := play.Load(h.st, buggy, "buggy", 0); err == nil || !strings.Contains(err.Error(), "panicked") {
			t.Errorf("play.Load of the failing game: %v", err)
		}
		h.close()
	}

	// The bug mended: the game loads, and decides the orders that came in.
	h = openHouse(t, path, sound, play.RunnerOptions{})
	h.r.Kick("buggy")
	g := h.decided("buggy")
	if got := g.State.(*raceState).Score; got["USA"] != 3 || got["CSA"] != 1 {
		t.Errorf("the mended game's score is %v, want USA 3 and CSA 1 (the order taken in while it failed)", got)
	}
}

// A Render that panics costs each mail its board, not the mail: it goes
// out with a line in the board's place, and the stack is logged.
func TestPanickingRenderStillSendsTheMail(t *testing.T) {
	h := openHouse(t, filepath.Join(t.TempDir(), "pbem.db"), engine.NewRegistry(panickyRules("render")), play.RunnerOptions{})
	h.create("buggy", "panicky")
	d, mails := h.send("buggy", "north", "ADD 2")
	if d.EventType() != events.TypeOrderAccepted {
		t.Fatalf("%s", play.DescribeDecision(d))
	}
	for _, addr := range []string{"anna@example.org", "taro@example.jp", "carol@example.net"} {
		m := mailTo(mails, addr)
		if m == nil {
			t.Fatalf("no mail to %s: %d mails", addr, len(mails))
		}
		body := strings.Join(strings.Fields(m.Body), " ")
		if !strings.Contains(body, "The board could not be drawn: an internal error in the rules. The operator has been told.") ||
			!strings.Contains(body, "USA adds 2.") {
			t.Errorf("mail to %s:\n%s", addr, m.Body)
		}
	}
	noPanicIn(t, mails)
	h.loggedPanic("buggy", "rendering the board")
}

// A Describe that panics costs the mail that sentence: a line says what
// happened could not be told.
func TestPanickingDescribeStillSendsTheMail(t *testing.T) {
	h := openHouse(t, filepath.Join(t.TempDir(), "pbem.db"), engine.NewRegistry(panickyRules("describe")), play.RunnerOptions{})
	h.create("buggy", "panicky")
	_, mails := h.send("buggy", "north", "ADD 2")
	m := mailTo(mails, "taro@example.jp")
	if m == nil {
		t.Fatalf("no mail to the other side: %d mails", len(mails))
	}
	if body := strings.Join(strings.Fields(m.Body), " "); !strings.Contains(body, "What happened here could not be told: an internal error in the rules.") {
		t.Errorf("mail:\n%s", m.Body)
	}
	noPanicIn(t, mails)
	h.loggedPanic("buggy", "describing score.added")
}

// A Draw that panics costs the mail its picture: the composer keeps no
// drawing, and drawing it from the loaded game is an error that says
// nothing of the panic (the outbox then writes that the map could not be
// drawn; mail/outbox tests that).
func TestPanickingDrawLeavesOutOnlyThePicture(t *testing.T) {
	h := openHouse(t, filepath.Join(t.TempDir(), "pbem.db"), engine.NewRegistry(panickyRules("draw")), play.RunnerOptions{})
	h.create("buggy", "panicky")
	_, mails := h.send("buggy", "north", "ADD 2")
	m := mailTo(mails, "taro@example.jp")
	if m == nil {
		t.Fatal("no mail to the other side")
	}
	var drawn *events.Attachment
	for i := range m.Attachments {
		if compose.IsDrawn(m.Attachments[i]) {
			drawn = &m.Attachments[i]
		}
	}
	if drawn == nil {
		t.Fatalf("the mail names no drawn board: %+v", m.Attachments)
	}
	if sc, ok := h.comp.Drawn(m, *drawn); ok {
		t.Errorf("the composer drew %v", sc)
	}
	g := h.decided("buggy")
	if _, err := compose.DrawBoard(g, *drawn); !errors.Is(err, compose.ErrNotDrawn) || strings.Contains(err.Error(), "nil map") {
		t.Errorf("DrawBoard: %v", err)
	}
	h.loggedPanic("buggy", "drawing")
}

// A Prompt that panics: the decision that needs it is rejected as
// undecided, the mails still go out (without who must act), and the
// referee's desk says the game cannot be shown.
func TestPanickingPromptRejectsTheOrderAndTheDeskSaysSo(t *testing.T) {
	h := openHouse(t, filepath.Join(t.TempDir(), "pbem.db"), engine.NewRegistry(panickyRules("prompt")), play.RunnerOptions{})
	h.create("buggy", "panicky")
	d, mails := h.send("buggy", "north", "ADD 2")
	if rej, ok := d.(*events.OrderRejected); !ok || !play.IsUndecided(rej) {
		t.Fatalf("%s", play.DescribeDecision(d))
	}
	if mailTo(mails, "anna@example.org") == nil || mailTo(mails, "carol@example.net") == nil {
		t.Fatalf("the player and the referee are not told: %d mails", len(mails))
	}
	noPanicIn(t, mails)
	g := h.decided("buggy")
	if desk := g.Desk(panicStart.UnixNano()); !strings.HasPrefix(desk.State, "cannot be shown") {
		t.Errorf("desk: %+v", desk)
	}
}

// A query whose function panics (it called the rules) is that query's
// error; the game's actor goes on answering.
func TestPanickingQueryIsAnErrorNotACrash(t *testing.T) {
	h := openHouse(t, filepath.Join(t.TempDir(), "pbem.db"), engine.NewRegistry(panickyRules("render")), play.RunnerOptions{})
	h.create("buggy", "panicky")
	err := h.r.Query(context.Background(), "buggy", func(g *play.Game) { g.Rules.Render(g.Rules.View(g.State, engine.Viewer{})) })
	if err == nil || !strings.Contains(err.Error(), "the operator has been told") {
		t.Fatalf("query: %v", err)
	}
	if d, _ := h.send("buggy", "north", "ADD 2"); d.EventType() != events.TypeOrderAccepted {
		t.Fatalf("after the query: %s", play.DescribeDecision(d))
	}
	h.loggedPanic("buggy", "a query of the game failed")
}

// A Setup that panics refuses the game at creation, with an error.
func TestPanickingSetupRefusesTheGame(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "pbem.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, err = play.Create(st, engine.NewRegistry(panickyRules("setup")), play.NewGame{ID: "buggy", Ruleset: "panicky",
		Scenario: []byte("target 5"), Players: enginetest.RacePlayers, At: panicStart})
	if err == nil || !strings.Contains(err.Error(), "panicked") {
		t.Fatalf("create: %v", err)
	}
	if h, _ := st.Head("buggy"); h.Seq != 0 {
		t.Errorf("the refused game has %d events", h.Seq)
	}
}

// An EncodeState that panics costs the snapshot, not the game: it is
// logged, and decisions go on from the log.
func TestPanickingEncodeStateSkipsTheSnapshot(t *testing.T) {
	h := openHouse(t, filepath.Join(t.TempDir(), "pbem.db"), engine.NewRegistry(panickyRules("encode")), play.RunnerOptions{SnapshotEvery: 2})
	h.create("buggy", "panicky")
	for i, who := range []string{"north", "south", "north"} {
		if d, _ := h.send("buggy", who, "ADD 1"); d.EventType() != events.TypeOrderAccepted {
			t.Fatalf("order %d: %s", i, play.DescribeDecision(d))
		}
	}
	h.loggedPanic("buggy", "snapshot failed")
}

// panickyCampaign is panicky as a campaign rule system whose Battles
// panics, as a bug in a campaign's battle list would.
type panickyCampaign struct{ panicky }

func (panickyCampaign) Battles(engine.State) []engine.Battle {
	boom()
	return nil
}

func (panickyCampaign) BattleResult(engine.Battle, engine.BattleEnd) string { return "" }

// A campaign whose rule system panics saying which battles it waits on
// still decides its orders, the panic is logged with its stack, and every
// other game keeps serving: linking battles is guarded like any other
// call into a rule system.
func TestPanickingBattlesLeaveTheGameAndOthersServing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pbem.db")
	reg := engine.NewRegistry(enginetest.Race, func() engine.Ruleset { return panickyCampaign{panicky{enginetest.Race(), ""}} })
	h := openHouse(t, path, reg, play.RunnerOptions{Links: &play.Links{Scenario: func(string, string) ([]byte, error) { return nil, nil }}})
	h.create("buggy", "panicky")
	h.create("sound", "race")
	if d, _ := h.send("buggy", "north", "ADD 2"); d.EventType() != events.TypeOrderAccepted {
		t.Fatalf("USA's order in the campaign: %s", play.DescribeDecision(d))
	}
	h.loggedPanic("buggy", "linking a campaign and its battles failed")
	for i, who := range []string{"north", "south"} {
		if d, _ := h.send("sound", who, "ADD 2"); d.EventType() != events.TypeOrderAccepted {
			t.Fatalf("the sound game's order %d: %s", i, play.DescribeDecision(d))
		}
	}
	if d, _ := h.send("buggy", "south", "ADD 1"); d.EventType() != events.TypeOrderAccepted {
		t.Fatalf("CSA's order in the campaign after the panic: %s", play.DescribeDecision(d))
	}
}
