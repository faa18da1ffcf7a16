package play_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"pbem/engine"
	"pbem/engine/gcacw"
	"pbem/engine/hra"
	"pbem/engine/play"
	"pbem/events"
	"pbem/internal/waitfor"
	"pbem/report"
	"pbem/store"
)

// linkedCampaign is a small GCACW campaign: Able (USA) and Yoke (CSA)
// face each other, and any assault is fought out in Hair Roller Armies'
// Kettle Run, its result mapped by a table.
const linkedCampaign = `scenario Linked
game SSR
turns 2
[map]
hexes 0101 1010
default clear
[units]
USA A "Able" inf XX str=6 tac=3 art=2 at=0505
CSA Y "Yoke" inf XX str=6 tac=2 art=1 at=0504
[leaders]
[battles]
# SAMPLE: a house rule
battle  default  hra  kettle-run  USA=Union  CSA=Confederate
forces  referee
result  winner=attacker  D2/Dr
result  winner=defender  A2
result  winner=draw      A1/D1
`

var linkedPlayers = []events.Player{
	{ID: "anna", Name: "Anna", Side: gcacw.USA, Addresses: []string{"anna@example.org"}},
	{ID: "taro", Name: "Taro", Side: gcacw.CSA, Addresses: []string{"taro@example.org"}},
}

// linkedTable is a campaign and its battles played through a real runner
// on a real bbolt file, with the runner opening battles and carrying
// their results back.
type linkedTable struct {
	t   *testing.T
	st  *store.Store
	reg *engine.Registry
	r   *play.Runner
	at  time.Time
	n   int
	// beforeAssault is the campaign's head just before its assault.
	beforeAssault uint64
}

func linkedScenario(system, name string) ([]byte, error) {
	switch system {
	case "hra":
		return hra.Scenario(name)
	}
	return nil, fmt.Errorf("no system %s here", system)
}

func newLinkedTable(t *testing.T) *linkedTable {
	t.Helper()
	return newLinkedTableWith(t, linkedScenario)
}

func newLinkedTableWith(t *testing.T, scenario func(system, name string) ([]byte, error)) *linkedTable {
	t.Helper()
	return newLinkedTableOf(t, linkedCampaign, engine.NewRegistry(gcacw.New, hra.New), scenario)
}

// newLinkedTableOf is a linked table of the campaign scenario campaign,
// its battles fought in reg's rule systems.
func newLinkedTableOf(t *testing.T, campaign string, reg *engine.Registry, scenario func(system, name string) ([]byte, error)) *linkedTable {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "pbem.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r := play.NewRunner(st, reg, play.RunnerOptions{SnapshotEvery: 4, Links: &play.Links{Scenario: scenario}})
	t.Cleanup(r.Close)
	created, err := play.Create(st, reg, play.NewGame{ID: "camp", Ruleset: "gcacw", ScenarioName: "linked", Scenario: []byte(campaign),
		Players: linkedPlayers, Settings: []events.Setting{{Key: play.SettingDeadline, Value: "48h"}}, At: start})
	if err != nil {
		t.Fatal(err)
	}
	r.Deliver(&created)
	lt := &linkedTable{t: t, st: st, reg: reg, r: r, at: start}
	lt.idle("camp")
	return lt
}

// idle waits until game's actor has folded its whole log and decided
// every input.
func (lt *linkedTable) idle(game string) {
	lt.t.Helper()
	if waitfor.True(20*time.Second, func() bool {
		h, _ := lt.st.Head(game)
		var seq uint64
		pending := -1
		lt.r.Query(context.Background(), game, func(g *play.Game) { seq, pending = g.Seq, len(g.Pending) })
		return h.Seq > 0 && seq == h.Seq && pending == 0
	}) {
		return
	}
	lt.t.Fatalf("the runner did not settle %s", game)
}

// operator appends the operator's command to game.
func (lt *linkedTable) operator(game, text string) {
	lt.t.Helper()
	lt.at = lt.at.Add(time.Hour)
	lt.n++
	key := fmt.Sprintf("<m%d@test>", lt.n)
	h, _ := lt.st.Head(game)
	res, err := lt.st.Append(game, h.Seq, events.New(game, lt.at, key, &events.RefereeCommand{Referee: play.OperatorID, Text: text, MessageID: key, Source: "test"}))
	if err != nil {
		lt.t.Fatal(err)
	}
	lt.r.Deliver(&res.Events[0])
	lt.idle(game)
}

// send appends a player's order to game an hour after the last input.
func (lt *linkedTable) send(game, who, text string) {
	lt.t.Helper()
	lt.at = lt.at.Add(time.Hour)
	lt.n++
	key := fmt.Sprintf("<m%d@test>", lt.n)
	h, _ := lt.st.Head(game)
	res, err := lt.st.Append(game, h.Seq, events.New(game, lt.at, key, &events.OrderReceived{Player: who, Text: text, MessageID: key, Source: "test"}))
	if err != nil {
		lt.t.Fatal(err)
	}
	lt.r.Deliver(&res.Events[0])
	lt.idle(game)
}

func (lt *linkedTable) load(game string) *play.Game {
	lt.t.Helper()
	g, err := play.Load(lt.st, lt.reg, game, 0)
	if err != nil {
		lt.t.Fatal(err)
	}
	return g
}

// waitFor waits until cond holds of game as loaded from the store.
func (lt *linkedTable) waitFor(game, what string, cond func(g *play.Game) bool) *play.Game {
	lt.t.Helper()
	var got *play.Game
	if waitfor.True(20*time.Second, func() bool {
		if h, _ := lt.st.Head(game); h.Seq == 0 {
			return false
		}
		if g := lt.load(game); cond(g) {
			lt.idle(game)
			got = lt.load(game)
			return true
		}
		return false
	}) {
		return got
	}
	lt.t.Fatalf("%s: %s never happened", game, what)
	return nil
}

// openAssault plays the campaign to its first assault: both Leader
// Transfer Phases pass, and the side that holds the initiative assaults.
// It returns the attacking side.
func (lt *linkedTable) openAssault() string {
	lt.t.Helper()
	lt.send("camp", "anna", "PASS")
	lt.send("camp", "taro", "PASS")
	g := lt.load("camp")
	ps := g.Rules.Prompt(g.State)
	if len(ps) != 1 || ps[0].Side == "" {
		lt.t.Fatalf("prompts after the transfer phases: %+v", ps)
	}
	h, _ := lt.st.Head("camp")
	lt.beforeAssault = h.Seq
	if ps[0].Side == gcacw.USA {
		lt.send("camp", "anna", "ASSAULT Able ON 0504")
	} else {
		lt.send("camp", "taro", "ASSAULT Yoke ON 0505")
	}
	return ps[0].Side
}

// A campaign's assault is fought out as a battle of another rule system:
// the battle is a game of its own, created once, with the campaign's
// players on the sides the campaign maps them to and its settings, naming
// its campaign and assault; the campaign waits on it; when the battle
// ends, its result comes back into the campaign through the durable path,
// once, and the campaign's log records the battle's final hash.
func TestLinkedBattleOpenedAndCarriedBack(t *testing.T) {
	lt := newLinkedTable(t)
	attacker := lt.openAssault()
	camp := lt.load("camp")
	bs := play.Battles(camp)
	if len(bs) != 1 || bs[0].System != "hra" {
		t.Fatalf("battles the campaign waits on: %+v", bs)
	}
	id := play.BattleGameID("camp", bs[0].Key)
	battle := lt.waitFor(id, "the battle's creation", func(g *play.Game) bool { return g.Created != nil })
	if c, k, ok := play.Parent(battle); !ok || c != "camp" || k != bs[0].Key {
		t.Errorf("the battle's parent: %q %q %v", c, k, ok)
	}
	if battle.Created.Ruleset != "hra" || battle.Created.ScenarioName != "kettle-run" {
		t.Errorf("battle created as %s %s", battle.Created.Ruleset, battle.Created.ScenarioName)
	}
	sides := map[string]string{}
	for _, p := range battle.Players {
		sides[p.ID] = p.Side
	}
	if sides["anna"] != "Union" || sides["taro"] != "Confederate" {
		t.Errorf("battle sides: %v", sides)
	}
	if !slices.ContainsFunc(battle.Created.Settings, func(s events.Setting) bool { return s.Key == play.SettingDeadline && s.Value == "48h" }) {
		t.Errorf("the battle does not keep the campaign's deadline: %+v", battle.Created.Settings)
	}
	// Opened once: trying again creates nothing.
	if again, err := play.OpenBattles(lt.st, lt.reg, camp, play.Links{Scenario: linkedScenario}, start); err != nil || len(again) != 0 {
		t.Errorf("opening the battle again: %d created, %v", len(again), err)
	}
	// The list of games shows the family.
	if d := camp.Desk(start.UnixNano()); d.State != "waiting on its battle" || !slices.Contains(d.Lines, "waits on battle "+id+": the assault on "+map[string]string{gcacw.USA: "0504", gcacw.CSA: "0505"}[attacker]+", fought out in hra kettle-run") {
		t.Errorf("the campaign's desk: %+v", d)
	}
	if d := battle.Desk(start.UnixNano()); !slices.Contains(d.Lines, "battle: the assault on "+map[string]string{gcacw.USA: "0504", gcacw.CSA: "0505"}[attacker]+" (battle "+bs[0].Key+") of campaign camp") {
		t.Errorf("the battle's desk: %+v", d)
	}
	// The campaign waits: no one is asked to act there.
	if ps := camp.Rules.Prompt(camp.State); len(ps) != 0 {
		t.Errorf("the campaign prompts while its battle is fought out: %+v", ps)
	}
	// The defender concedes the battle: the attacker wins it.
	defender := "taro"
	if attacker == gcacw.CSA {
		defender = "anna"
	}
	lt.send(id, defender, "CONCEDE")
	battle = lt.load(id)
	if battle.Ended == nil {
		t.Fatal("the battle did not end")
	}
	camp = lt.waitFor("camp", "the battle's result", func(g *play.Game) bool { return len(play.Battles(g)) == 0 })
	if ps := camp.Rules.Prompt(camp.State); len(ps) == 0 {
		t.Error("the campaign does not go on after its battle")
	}
	end, ok, err := play.BattleEndOf(lt.st, battle)
	if err != nil || !ok {
		t.Fatalf("battle end: %v %v", ok, err)
	}
	var took *events.OrderAccepted
	_ = lt.st.Read("camp", 1, func(e *events.Envelope) error {
		if e.Type == events.TypeOrderAccepted {
			p, _ := events.Decode(e)
			for _, f := range p.(*events.OrderAccepted).Facts {
				if f.Kind == "battle.ended" {
					took = p.(*events.OrderAccepted)
				}
			}
		}
		return nil
	})
	if took == nil {
		t.Fatal("the campaign's log records no battle.ended")
	}
	var ended events.Fact
	for _, f := range took.Facts {
		if f.Kind == "battle.ended" {
			ended = f
		}
	}
	if ended.Str("game") != id || ended.Str("hash") != end.Final.Hex() || ended.Str("winner") != "attacker" || ended.Str("result") != "D2/Dr" {
		t.Errorf("battle.ended in the campaign: %s (final hash %s)", ended, end.Final.Hex())
	}
	// Carried once: sending it again appends nothing.
	if e, err := play.CarryBack(lt.st, lt.reg, battle); err != nil || e != nil {
		t.Errorf("carrying the result again: %v, %v", e, err)
	}
	n := 0
	_ = lt.st.Read("camp", 1, func(e *events.Envelope) error {
		if strings.HasPrefix(e.Key, "battle:") {
			n++
		}
		return nil
	})
	if n != 1 {
		t.Errorf("%d results in the campaign's log, want 1", n)
	}
	// verify: each link checked against the other game's log.
	lines, err := play.VerifyLinks(lt.st, "camp")
	if err != nil || len(lines) != 1 || !strings.Contains(lines[0], "battle "+id+": its final hash "+end.Final.Hex()+" matches its log") {
		t.Errorf("verify the campaign: %q, %v", lines, err)
	}
	lines, err = play.VerifyLinks(lt.st, id)
	if err != nil || len(lines) != 1 || !strings.Contains(lines[0], "campaign camp (battle "+bs[0].Key+"): took this battle's result") {
		t.Errorf("verify the battle: %q, %v", lines, err)
	}
	// audit re-decides both games from their logs.
	for _, game := range []string{"camp", id} {
		seed, err := lt.st.Secret(game)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := play.Audit(lt.st, lt.reg, game, seed)
		if err != nil || !rep.OK() {
			t.Errorf("audit %s: %+v %v", game, rep, err)
		}
	}
	// The campaign's HTML report links the battle's report, and the
	// battle's its campaign's.
	var page strings.Builder
	if err := (report.Exporter{Log: lt.st, Reg: lt.reg, Game: "camp", Viewer: engine.Viewer{Referee: true}, Who: "the referee"}).HTML(&page); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), `<a href="`+id+`.html">`) {
		t.Errorf("the campaign's report does not link its battle's:\n%.2000s", page.String())
	}
	page.Reset()
	if err := (report.Exporter{Log: lt.st, Reg: lt.reg, Game: id, Viewer: engine.Viewer{Referee: true}, Who: "the referee"}).HTML(&page); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), `<a href="camp.html">this game is the assault on`) {
		t.Errorf("the battle's report does not link its campaign's")
	}
	// A result the battle's log does not hold fails verify.
	h, _ := lt.st.Head("camp")
	forged := "battle:" + id + ":" + strings.Repeat("ab", 32)
	if _, err := lt.st.Append("camp", h.Seq, events.New("camp", lt.at, forged, &events.RefereeCommand{Referee: play.OperatorID, Text: "RULE DONE", Source: "battle", MessageID: forged})); err != nil {
		t.Fatal(err)
	}
	if _, err := play.VerifyLinks(lt.st, "camp"); err == nil || !strings.Contains(err.Error(), "its log has no game.ended with the final hash abab") {
		t.Errorf("verify with a forged result: %v", err)
	}
}

// Rolling the campaign back past its assault abandons the battle (an
// event in the battle's log, which ends it and carries nothing back); the
// assault made again opens a new battle, whose result the campaign takes.
// Rolling the battle back before its end leaves the campaign waiting, and
// the battle's end, when it comes, is carried back.
func TestLinkedBattleRollbacks(t *testing.T) {
	lt := newLinkedTable(t)
	attacker := lt.openAssault()
	first := play.BattleID(lt.load("camp"), play.Battles(lt.load("camp"))[0])
	lt.waitFor(first, "the battle's creation", func(g *play.Game) bool { return g.Created != nil })
	lt.operator("camp", fmt.Sprintf("ROLLBACK TO %d", lt.beforeAssault))
	camp := lt.load("camp")
	if len(play.Battles(camp)) != 0 {
		t.Fatalf("the campaign still waits on %+v after its rollback", play.Battles(camp))
	}
	abandoned := lt.waitFor(first, "the battle's abandonment", func(g *play.Game) bool { return g.Ended != nil })
	if !strings.Contains(abandoned.Ended.Reason, "abandoned: campaign camp was rolled back past the assault on") || abandoned.Ended.Winner != "" {
		t.Errorf("the abandoned battle ended: %+v", abandoned.Ended)
	}
	// The assault again: a new battle.
	g := lt.load("camp")
	ps := g.Rules.Prompt(g.State)
	if len(ps) != 1 || ps[0].Side != attacker {
		t.Fatalf("prompts after the rollback: %+v", ps)
	}
	if attacker == gcacw.USA {
		lt.send("camp", "anna", "ASSAULT Able ON 0504")
	} else {
		lt.send("camp", "taro", "ASSAULT Yoke ON 0505")
	}
	bs := play.Battles(lt.load("camp"))
	if len(bs) != 1 {
		t.Fatalf("battles after the assault again: %+v", bs)
	}
	second := play.BattleID(lt.load("camp"), bs[0])
	if second == first {
		t.Fatalf("the assault made again reopened the abandoned battle %s", first)
	}
	lt.waitFor(second, "the new battle's creation", func(g *play.Game) bool { return g.Created != nil })
	// The abandoned battle carried nothing back.
	if e, err := play.CarryBack(lt.st, lt.reg, abandoned); err != nil || e != nil {
		t.Errorf("the abandoned battle carries its end back: %v %v", e, err)
	}
	// The battle's own rollback before its end: the campaign waits on.
	defender := map[string]string{gcacw.USA: "taro", gcacw.CSA: "anna"}[attacker]
	h, _ := lt.st.Head(second)
	lt.send(second, "anna", "MAIL MOVE")
	lt.operator(second, fmt.Sprintf("ROLLBACK TO %d", h.Seq))
	if b := lt.load(second); len(b.Branches) != 1 || b.Ended != nil {
		t.Fatalf("the battle's rollback: branches %+v, ended %+v", b.Branches, b.Ended)
	}
	if len(play.Battles(lt.load("camp"))) != 1 {
		t.Fatal("the battle's rollback ended the campaign's wait")
	}
	lt.send(second, defender, "CONCEDE")
	lt.waitFor("camp", "the new battle's result", func(g *play.Game) bool { return len(play.Battles(g)) == 0 })
	n := 0
	_ = lt.st.Read("camp", 1, func(e *events.Envelope) error {
		if strings.HasPrefix(e.Key, "battle:"+second+":") {
			n++
		}
		if strings.HasPrefix(e.Key, "battle:"+first+":") {
			t.Errorf("the campaign took the abandoned battle's end")
		}
		return nil
	})
	if n != 1 {
		t.Errorf("%d results of the new battle in the campaign", n)
	}
	if lines, err := play.VerifyLinks(lt.st, "camp"); err != nil || len(lines) != 1 {
		t.Errorf("verify: %q %v", lines, err)
	}
}

// A battle that cannot be opened at first (its scenario unreadable for a
// while) is opened when the runner's clock next comes round: the
// campaign's wait is never lost.
func TestLinkedBattleOpenedAgainAfterAFailure(t *testing.T) {
	var failing atomic.Bool
	failing.Store(true)
	lt := newLinkedTableWith(t, func(system, name string) ([]byte, error) {
		if failing.Load() {
			return nil, fmt.Errorf("the scenario shelf is being moved")
		}
		return linkedScenario(system, name)
	})
	lt.openAssault()
	camp := lt.load("camp")
	id := play.BattleID(camp, play.Battles(camp)[0])
	if h, _ := lt.st.Head(id); h.Seq != 0 {
		t.Fatalf("the battle was opened while its scenario could not be read")
	}
	failing.Store(false)
	if waitfor.True(20*time.Second, func() bool {
		lt.r.Tick(lt.at)
		h, _ := lt.st.Head(id)
		return h.Seq > 0
	}) {
		return
	}
	t.Fatal("the battle was never opened after its scenario could be read again")
}

// A battle that ended while no runner carried its result (the server
// stopped between the battle's end and the carrying, the bbolt file kept)
// carries it when a runner next loads the battle: the result on its way
// is never lost, and taken once.
func TestLinkedBattleResultSurvivesARestart(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "pbem.db")
	st, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	reg := engine.NewRegistry(gcacw.New, hra.New)
	r := play.NewRunner(st, reg, play.RunnerOptions{Links: &play.Links{Scenario: linkedScenario}})
	lt := &linkedTable{t: t, st: st, reg: reg, r: r, at: start}
	created, err := play.Create(st, reg, play.NewGame{ID: "camp", Ruleset: "gcacw", ScenarioName: "linked", Scenario: []byte(linkedCampaign), Players: linkedPlayers, At: start})
	if err != nil {
		t.Fatal(err)
	}
	r.Deliver(&created)
	lt.idle("camp")
	attacker := lt.openAssault()
	camp := lt.load("camp")
	id := play.BattleID(camp, play.Battles(camp)[0])
	lt.waitFor(id, "the battle's creation", func(g *play.Game) bool { return g.Created != nil })
	r.Close()
	// The battle ends under a runner that does not link (the server that
	// went down before carrying the result).
	lt.r = play.NewRunner(st, reg, play.RunnerOptions{})
	lt.send(id, map[string]string{gcacw.USA: "taro", gcacw.CSA: "anna"}[attacker], "CONCEDE")
	lt.r.Close()
	if len(play.Battles(lt.load("camp"))) != 1 {
		t.Fatal("the campaign took the result with no runner to carry it")
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	// The server starts again on the same file and loads its games.
	if st, err = store.Open(path, store.Options{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	lt.st = st
	lt.r = play.NewRunner(st, reg, play.RunnerOptions{Links: &play.Links{Scenario: linkedScenario}})
	t.Cleanup(lt.r.Close)
	lt.r.Kick(id)
	lt.r.Kick("camp")
	lt.waitFor("camp", "the result after the restart", func(g *play.Game) bool { return len(play.Battles(g)) == 0 })
	n := 0
	_ = st.Read("camp", 1, func(e *events.Envelope) error {
		if strings.HasPrefix(e.Key, "battle:"+id+":") {
			n++
		}
		return nil
	})
	if n != 1 {
		t.Errorf("%d results in the campaign, want 1", n)
	}
}

// A campaign's observers observe the battles it opens: the battle's
// mails go to them as the campaign's do, its log saying so (the
// operator's OBSERVER ADD, created with the battle), and audit re-decides
// it the same.
func TestLinkedBattleObservedByTheCampaignsObservers(t *testing.T) {
	lt := newLinkedTable(t)
	lt.operator("camp", "OBSERVER ADD kim@example.org\nOBSERVER ADD lee@example.net")
	if obs := lt.load("camp").Observers; !slices.Equal(obs, []string{"kim@example.org", "lee@example.net"}) {
		t.Fatalf("the campaign's observers: %q", obs)
	}
	lt.openAssault()
	bs := play.Battles(lt.load("camp"))
	if len(bs) != 1 {
		t.Fatalf("battles the campaign waits on: %+v", bs)
	}
	id := play.BattleGameID("camp", bs[0].Key)
	battle := lt.waitFor(id, "the battle's observers", func(g *play.Game) bool { return g.Created != nil && len(g.Pending) == 0 })
	if !slices.Equal(battle.Observers, []string{"kim@example.org", "lee@example.net"}) {
		t.Errorf("the battle's observers: %q, want the campaign's", battle.Observers)
	}
	// Players still play it: the observers' command took nothing from them.
	sides := map[string]string{}
	for _, p := range battle.Players {
		sides[p.ID] = p.Side
	}
	if sides["anna"] != "Union" || sides["taro"] != "Confederate" {
		t.Errorf("battle sides: %v", sides)
	}
	seed, err := lt.st.Secret(id)
	if err != nil {
		t.Fatal(err)
	}
	if rep, err := play.Audit(lt.st, lt.reg, id, seed); err != nil || !rep.OK() {
		t.Errorf("audit %s: %+v %v", id, rep, err)
	}
	// A campaign without observers opens its battles without the command.
	plain := newLinkedTable(t)
	plain.openAssault()
	pb := play.Battles(plain.load("camp"))
	pid := play.BattleGameID("camp", pb[0].Key)
	pg := plain.waitFor(pid, "the battle's creation", func(g *play.Game) bool { return g.Created != nil })
	// Its log: the creation, and the referee's setup pause (forces
	// referee) decided; no observers' command.
	if len(pg.Observers) != 0 || pg.Seq != 3 {
		t.Errorf("a battle of a campaign without observers: observers %q, %d events", pg.Observers, pg.Seq)
	}
}
