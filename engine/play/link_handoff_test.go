package play_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"pbem/engine/gcacw"
	"pbem/engine/play"
	"pbem/events"
	"pbem/internal/waitfor"
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
	waitfor.True(20*time.Second, func() bool {
		if calls.Load() >= 2 {
			return true
		}
		lt.r.Tick(lt.at)
		return false
	})
	if n := calls.Load(); n < 2 {
		t.Fatalf("the result was handed %d times while the campaign's node did not answer, want it handed again", n)
	}
	if len(play.Battles(lt.load("camp"))) != 1 {
		t.Fatal("the campaign took the result here while another node holds it")
	}
	answering.Store(true)
	waitfor.True(20*time.Second, func() bool {
		lt.r.Tick(lt.at)
		return len(play.Battles(lt.load("camp"))) == 0
	})
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
	waitfor.True(20*time.Second, func() bool {
		if calls.Load() >= 3 {
			return true
		}
		lt.r.Tick(lt.at)
		return false
	})
	if n := calls.Load(); n < 3 {
		t.Fatalf("the abandon was handed %d times while the battle's node did not answer, want it handed again at each tick", n)
	}
	if b := lt.load(id); b.Ended != nil {
		t.Fatalf("the battle was abandoned here while another node holds it: %+v", b.Ended)
	}
	answering.Store(true)
	var b *play.Game
	waitfor.True(20*time.Second, func() bool {
		lt.r.Tick(lt.at)
		b = lt.load(id)
		return b.Ended != nil
	})
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
	waitfor.True(20*time.Second, func() bool {
		if calls.Load() != before {
			return true
		}
		lt.r.Tick(lt.at)
		return false
	})
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

// On a node of a cluster, the withdrawal of the result a campaign took
// from a battle since rolled back past its end goes to the node holding
// the campaign (Links.HandWithdraw), never appended here: while that node
// does not answer, the campaign keeps the result and the battle's actor
// hands the withdrawal again at each tick; once handed, the campaign
// holds it once and waits on the battle again, and handing it again (a
// restart, a takeover of the battle) adds nothing.
func TestLinkedBattleWithdrawalHandedToTheCampaignsNode(t *testing.T) {
	lt := newRollbackTable(t, filepath.Join(t.TempDir(), "pbem.db"), campaignFightingIn("hra", "kettle-run", "Union", "Confederate"))
	attacker := lt.openAssault()
	camp := lt.load("camp")
	id := play.BattleID(camp, play.Battles(camp)[0])
	lt.waitFor(id, "the battle's creation", func(g *play.Game) bool { return g.Created != nil })
	beforeEnd, _ := lt.st.Head(id)
	defender := "anna"
	if attacker == gcacw.USA {
		defender = "taro"
	}
	lt.send(id, defender, "CONCEDE")
	end, ok, err := play.BattleEndOf(lt.st, lt.load(id))
	if err != nil || !ok {
		t.Fatalf("the battle did not end: %v", err)
	}
	lt.waitFor("camp", "the battle's result", func(g *play.Game) bool { return len(play.Battles(g)) == 0 })
	lt.r.Close()

	var calls atomic.Int32
	var answering atomic.Bool
	var handed atomic.Pointer[play.Withdrawal]
	hand := func(w play.Withdrawal) (bool, error) {
		calls.Add(1)
		if !answering.Load() {
			return false, errors.New("node n1 did not answer")
		}
		// The campaign's node appends it (here, on the same log), and its
		// runner hears of it (on a server, through the bus).
		handed.Store(&w)
		e, err := play.TakeWithdrawal(lt.st, lt.reg, w)
		if e != nil {
			lt.r.Deliver(e)
		}
		return err == nil, err
	}
	links := func() *play.Links { return &play.Links{Scenario: allScenarios, HandWithdraw: hand} }
	lt.r = play.NewRunner(lt.st, lt.reg, play.RunnerOptions{Links: links()})
	t.Cleanup(lt.r.Close)
	withdrawals := func() int {
		n := 0
		_ = lt.st.Read("camp", 1, func(e *events.Envelope) error {
			if e.Key == play.WithdrawKey(id, end.Final) {
				n++
			}
			return nil
		})
		return n
	}
	lt.operator(id, fmt.Sprintf("ROLLBACK TO %d", beforeEnd.Seq))
	waitfor.True(20*time.Second, func() bool {
		if calls.Load() >= 3 {
			return true
		}
		lt.r.Tick(lt.at)
		return false
	})
	if n := calls.Load(); n < 3 {
		t.Fatalf("the withdrawal was handed %d times while the campaign's node did not answer, want it handed again at each tick", n)
	}
	if n := withdrawals(); n != 0 {
		t.Fatalf("the result was withdrawn here (%d times) while another node holds the campaign", n)
	}
	if _, ok := lt.liveResult(id); !ok {
		t.Fatal("the campaign lost the battle's result before its node took the withdrawal")
	}
	answering.Store(true)
	camp = nil
	waitfor.True(20*time.Second, func() bool {
		lt.r.Tick(lt.at)
		if g := lt.load("camp"); len(play.Battles(g)) == 1 {
			camp = g
			return true
		}
		return false
	})
	if camp == nil {
		t.Fatal("the campaign never waited on the battle again once its node answered")
	}
	if again := play.BattleID(camp, play.Battles(camp)[0]); again != id {
		t.Errorf("the campaign waits on %s, not on the battle rolled back (%s)", again, id)
	}
	if n := len(camp.Branches); n == 0 || camp.Branches[n-1].Withdraws != id {
		t.Errorf("the campaign's rollback: %+v", camp.Branches)
	}
	if _, ok := lt.liveResult(id); ok {
		t.Error("the campaign still holds the withdrawn result")
	}
	w := handed.Load()
	if w == nil || w.Campaign != "camp" || w.Battle != id || w.Live != "" || w.At == 0 {
		t.Fatalf("the withdrawal handed: %+v", w)
	}
	// Handed again (the battle's node restarted or taken over): nothing new.
	if e, err := play.TakeWithdrawal(lt.st, lt.reg, *w); err != nil || e != nil {
		t.Errorf("taking the withdrawal again: %v, %v", e, err)
	}
	if n := withdrawals(); n != 1 {
		t.Errorf("the campaign's log holds the withdrawal %d times, want once", n)
	}
	before := calls.Load()
	h, _ := lt.st.Head("camp")
	lt.r.Close()
	lt.r = play.NewRunner(lt.st, lt.reg, play.RunnerOptions{Links: links()})
	t.Cleanup(lt.r.Close)
	lt.r.Deliver(lastEvent(t, lt, id))
	waitfor.True(20*time.Second, func() bool {
		if calls.Load() != before {
			return true
		}
		lt.r.Tick(lt.at)
		return false
	})
	if calls.Load() == before {
		t.Error("the battle's node, restarted, never handed the withdrawal its rollback owes again")
	}
	if h2, _ := lt.st.Head("camp"); h2.Seq != h.Seq {
		t.Errorf("the campaign's log grew from %d to %d events on the withdrawal handed again", h.Seq, h2.Seq)
	}
	if lines := strings.Join(lt.auditAndVerify("camp", id), "\n"); !strings.Contains(lines, "the result was withdrawn") {
		t.Errorf("verify lacks the withdrawn result:\n%s", lines)
	}
}
