package play_test

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"pbem/engine/gcacw"
	"pbem/engine/play"
	"pbem/events"
)

// On a node of a cluster, a battle's result goes to the node holding its
// campaign (Links.Hand), never appended here: while that node does not
// answer, the campaign does not have it and the battle's actor hands it
// again at each tick; once handed, the campaign has it once.
func TestLinkedBattleResultHandedToTheCampaignsNode(t *testing.T) {
	lt := newLinkedTable(t)
	attacker := lt.openAssault()
	camp := lt.load("camp")
	id := play.BattleID(camp, play.Battles(camp)[0])
	lt.waitFor(id, "the battle's creation", func(g *play.Game) bool { return g.Created != nil })
	lt.r.Close()

	var calls atomic.Int32
	var answering atomic.Bool
	var handed atomic.Pointer[play.Result]
	hand := func(r play.Result) (bool, error) {
		calls.Add(1)
		if !answering.Load() {
			return false, errors.New("node n1 did not answer")
		}
		// The campaign's node takes it (here, on the same log), and its
		// runner hears of it (on a server, through the bus).
		handed.Store(&r)
		e, err := play.TakeResult(lt.st, lt.reg, r)
		if e != nil {
			lt.r.Deliver(e)
		}
		return err == nil, err
	}
	lt.r = play.NewRunner(lt.st, lt.reg, play.RunnerOptions{Links: &play.Links{Scenario: linkedScenario, Hand: hand}})
	t.Cleanup(lt.r.Close)
	lt.send(id, map[string]string{gcacw.USA: "taro", gcacw.CSA: "anna"}[attacker], "CONCEDE")
	for end := time.Now().Add(20 * time.Second); calls.Load() < 2 && time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		lt.r.Tick(lt.at)
	}
	if n := calls.Load(); n < 2 {
		t.Fatalf("the result was handed %d times while the campaign's node did not answer, want it handed again", n)
	}
	if len(play.Battles(lt.load("camp"))) != 1 {
		t.Fatal("the campaign took the result here while another node holds it")
	}
	answering.Store(true)
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		lt.r.Tick(lt.at)
		if len(play.Battles(lt.load("camp"))) == 0 {
			break
		}
	}
	if len(play.Battles(lt.load("camp"))) != 0 {
		t.Fatal("the campaign never took the result once its node answered")
	}
	r := handed.Load()
	if r == nil || r.Campaign != "camp" || r.End.Game != id || r.At == 0 {
		t.Fatalf("the result handed: %+v", r)
	}
	// Handed again (a node taking the battle over after a crash): nothing new.
	if e, err := play.TakeResult(lt.st, lt.reg, *r); err != nil || e != nil {
		t.Errorf("taking the result again: %v, %v", e, err)
	}
	n := 0
	_ = lt.st.Read("camp", 1, func(e *events.Envelope) error {
		if strings.HasPrefix(e.Key, "battle:"+id+":") {
			n++
		}
		return nil
	})
	if n != 1 {
		t.Errorf("the campaign's log holds the result %d times, want once", n)
	}
}

// A campaign taken over by a node whose own log lacks its battle (another
// node holds it) does not open the battle again; one that exists nowhere
// is opened; when the cluster cannot say, nothing is opened and the
// error says why.
func TestLinkedBattleHeldByAnotherNodeIsNotOpenedAgain(t *testing.T) {
	// The runner cannot read the tactical scenario: the campaign waits on
	// a battle this log does not have.
	lt := newLinkedTableWith(t, func(system, name string) ([]byte, error) {
		return nil, fmt.Errorf("the scenario shelf is being moved")
	})
	lt.openAssault()
	camp := lt.load("camp")
	id := play.BattleID(camp, play.Battles(camp)[0])
	for _, c := range []struct {
		name    string
		exists  func(string) (bool, error)
		created int
		err     string
	}{
		{"held by another node", func(g string) (bool, error) { return g == id, nil }, 0, ""},
		{"the cluster cannot say", func(string) (bool, error) { return false, errors.New("no connection to NATS") }, 0, "no connection to NATS"},
		{"nowhere", func(string) (bool, error) { return false, nil }, 1, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := play.OpenBattles(lt.st, lt.reg, camp, play.Links{Scenario: linkedScenario, Exists: c.exists}, start)
			if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
				t.Fatalf("error %v, want %q", err, c.err)
			}
			if len(out) != c.created {
				t.Errorf("%d battles opened, want %d", len(out), c.created)
			}
			if h, _ := lt.st.Head(id); (h.Seq > 0) != (c.created > 0) {
				t.Errorf("the battle's log here has %d events", h.Seq)
			}
		})
	}
}

// On a node of a cluster, the abandon of a battle a campaign's rollback
// closed the assault of goes to the node holding the battle
// (Links.HandAbandon), never appended here: while that node does not
// answer, the battle plays on and the campaign's actor hands the abandon
// again at each tick; once handed, the battle has it once, and handing it
// again (a restart, a takeover of the campaign) adds nothing.
func TestLinkedBattleAbandonHandedToTheBattlesNode(t *testing.T) {
	lt := newLinkedTable(t)
	lt.openAssault()
	camp := lt.load("camp")
	id := play.BattleID(camp, play.Battles(camp)[0])
	lt.waitFor(id, "the battle's creation", func(g *play.Game) bool { return g.Created != nil })
	lt.r.Close()

	var calls atomic.Int32
	var answering atomic.Bool
	var handed atomic.Pointer[play.Abandonment]
	hand := func(ab play.Abandonment) (bool, error) {
		calls.Add(1)
		if !answering.Load() {
			return false, errors.New("node n2 did not answer")
		}
		// The battle's node appends it (here, on the same log), and its
		// runner hears of it (on a server, through the bus).
		handed.Store(&ab)
		e, err := play.AbandonBattle(lt.st, lt.reg, ab)
		if e != nil {
			lt.r.Deliver(e)
		}
		return err == nil, err
	}
	lt.r = play.NewRunner(lt.st, lt.reg, play.RunnerOptions{Links: &play.Links{Scenario: linkedScenario, HandAbandon: hand}})
	t.Cleanup(lt.r.Close)
	lt.operator("camp", fmt.Sprintf("ROLLBACK TO %d", lt.beforeAssault))
	rolledBy := lt.load("camp").Branches[0].By
	for end := time.Now().Add(20 * time.Second); calls.Load() < 3 && time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		lt.r.Tick(lt.at)
	}
	if n := calls.Load(); n < 3 {
		t.Fatalf("the abandon was handed %d times while the battle's node did not answer, want it handed again at each tick", n)
	}
	if b := lt.load(id); b.Ended != nil {
		t.Fatalf("the battle was abandoned here while another node holds it: %+v", b.Ended)
	}
	answering.Store(true)
	var b *play.Game
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		lt.r.Tick(lt.at)
		if b = lt.load(id); b.Ended != nil {
			break
		}
	}
	if b.Ended == nil {
		t.Fatal("the battle was never abandoned once its node answered")
	}
	if !strings.Contains(b.Ended.Reason, "abandoned: campaign camp was rolled back past the assault on") || b.Ended.Winner != "" {
		t.Errorf("the abandoned battle ended: %+v", b.Ended)
	}
	ab := handed.Load()
	if ab == nil || ab.Campaign != "camp" || ab.Battle != id || ab.Key != fmt.Sprintf("abandon:camp:%d", rolledBy) || ab.At == 0 {
		t.Fatalf("the abandon handed: %+v", ab)
	}
	// Handed again (the campaign's node restarted or taken over): nothing new.
	if e, err := play.AbandonBattle(lt.st, lt.reg, *ab); err != nil || e != nil {
		t.Errorf("abandoning the battle again: %v, %v", e, err)
	}
	// However often it was handed, the battle's log holds it once.
	n := 0
	_ = lt.st.Read(id, 1, func(e *events.Envelope) error {
		if e.Key == ab.Key {
			n++
		}
		return nil
	})
	if n != 1 {
		t.Errorf("the battle's log holds the abandon %d times, want once", n)
	}
	// The campaign's rollback after a restart: handed again, still once.
	before := calls.Load()
	lt.r.Close()
	lt.r = play.NewRunner(lt.st, lt.reg, play.RunnerOptions{Links: &play.Links{Scenario: linkedScenario, HandAbandon: hand}})
	t.Cleanup(lt.r.Close)
	lt.r.Deliver(lastEvent(t, lt, "camp"))
	for end := time.Now().Add(20 * time.Second); calls.Load() == before && time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		lt.r.Tick(lt.at)
	}
	if calls.Load() == before {
		t.Error("the campaign's node, restarted, never handed the abandon its rollback owes again")
	}
	if h, _ := lt.st.Head(id); h.Seq != b.Seq {
		t.Errorf("the battle's log grew from %d to %d events on the abandon handed again", b.Seq, h.Seq)
	}
}

// lastEvent is game's last event in lt's store.
func lastEvent(t *testing.T, lt *linkedTable, game string) *events.Envelope {
	t.Helper()
	var last events.Envelope
	if err := lt.st.Read(game, 1, func(e *events.Envelope) error { last = *e; return nil }); err != nil {
		t.Fatal(err)
	}
	return &last
}
