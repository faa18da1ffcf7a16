package play_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/gbacw"
	"pbem/engine/gcacw"
	"pbem/engine/gmb"
	"pbem/engine/hra"
	"pbem/engine/play"
	"pbem/events"
	"pbem/store"
)

// rollbackBattles are the three tactical systems a campaign's assault is
// fought out in, each with a built-in scenario and the tactical sides the
// campaign's USA and CSA play.
var rollbackBattles = []struct {
	system, scenario, usa, csa string
}{
	{"gbacw", "tanners-mill", "USA", "CSA"},
	{"hra", "kettle-run", "Union", "Confederate"},
	{"gmb", "hazel-run", "Union", "Confederate"},
}

// campaignFightingIn is linkedCampaign with its assault fought out in
// system's scenario.
func campaignFightingIn(system, scenario, usa, csa string) string {
	return strings.Replace(linkedCampaign, "battle  default  hra  kettle-run  USA=Union  CSA=Confederate",
		fmt.Sprintf("battle  default  %s  %s  USA=%s  CSA=%s", system, scenario, usa, csa), 1)
}

func allScenarios(system, name string) ([]byte, error) {
	switch system {
	case "gbacw":
		return gbacw.Scenario(name)
	case "hra":
		return hra.Scenario(name)
	case "gmb":
		return gmb.Scenario(name)
	}
	return nil, fmt.Errorf("no system %s here", system)
}

// newRollbackTable is a linkedTable whose campaign fights its assault
// out in system's scenario, on a real bbolt file at path, its runner
// linking games when links is set.
func newRollbackTable(t *testing.T, path, campaign string) *linkedTable {
	t.Helper()
	st, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	reg := engine.NewRegistry(gcacw.New, gbacw.New, hra.New, gmb.New)
	r := play.NewRunner(st, reg, play.RunnerOptions{SnapshotEvery: 4, Links: &play.Links{Scenario: allScenarios}})
	created, err := play.Create(st, reg, play.NewGame{ID: "camp", Ruleset: "gcacw", ScenarioName: "linked", Scenario: []byte(campaign),
		Players: linkedPlayers, Settings: []events.Setting{{Key: play.SettingDeadline, Value: "48h"}}, At: start})
	if err != nil {
		t.Fatal(err)
	}
	r.Deliver(&created)
	lt := &linkedTable{t: t, st: st, reg: reg, r: r, at: start}
	t.Cleanup(func() { lt.r.Close() })
	lt.idle("camp")
	return lt
}

// relink replaces the table's runner with a new one on the same store,
// linking games or not (a server whose links are off, or that went down
// before it carried a result).
func (lt *linkedTable) relink(links bool) {
	lt.r.Close()
	opts := play.RunnerOptions{SnapshotEvery: 4}
	if links {
		opts.Links = &play.Links{Scenario: allScenarios}
	}
	lt.r = play.NewRunner(lt.st, lt.reg, opts)
}

// results are the keys of the battle results campaign's log holds for
// battle id, in log order, and the final hash of each.
func (lt *linkedTable) results(id string) []string {
	var out []string
	_ = lt.st.Read("camp", 1, func(e *events.Envelope) error {
		if h, ok := strings.CutPrefix(e.Key, "battle:"+id+":"); ok {
			out = append(out, h)
		}
		return nil
	})
	return out
}

// liveResult is the battle.ended fact the campaign's live line holds of
// battle id: the last one, unless a rollback came after it.
func (lt *linkedTable) liveResult(id string) (events.Fact, bool) {
	var got events.Fact
	ok := false
	_ = lt.st.Read("camp", 1, func(e *events.Envelope) error {
		if e.Type != events.TypeOrderAccepted {
			return nil
		}
		p, _ := events.Decode(e)
		for _, f := range p.(*events.OrderAccepted).Facts {
			switch {
			case f.Kind == "battle.ended" && f.Str("game") == id:
				got, ok = f, true
			case f.Kind == play.FactRollback:
				ok = false
			}
		}
		return nil
	})
	return got, ok
}

// auditAndVerify checks every link of both games against the other's
// log and re-decides both from their logs; it returns verify's lines.
func (lt *linkedTable) auditAndVerify(games ...string) []string {
	lt.t.Helper()
	var all []string
	for _, game := range games {
		lines, err := play.VerifyLinks(lt.st, game)
		if err != nil {
			lt.t.Errorf("verify %s: %v (%q)", game, err, lines)
		}
		all = append(all, lines...)
		seed, err := lt.st.Secret(game)
		if err != nil {
			lt.t.Fatal(err)
		}
		if rep, err := play.Audit(lt.st, lt.reg, game, seed); err != nil || !rep.OK() {
			lt.t.Errorf("audit %s: %+v %v", game, rep, err)
		}
	}
	return all
}

// A battle rolled back to before its end after its campaign took the
// result re-opens the assault: the campaign is rolled back, by the
// runtime, to just before it took that result (an event in its log,
// keyed by the battle and the withdrawn end), waits on the same battle
// game again, and takes the battle's new end when it comes; verify checks
// the campaign's live result against the battle's live end.
func TestLinkedBattleRollbackAfterTheCampaignTookItsResult(t *testing.T) {
	for _, b := range rollbackBattles {
		t.Run(b.system, func(t *testing.T) {
			lt := newRollbackTable(t, filepath.Join(t.TempDir(), "pbem.db"), campaignFightingIn(b.system, b.scenario, b.usa, b.csa))
			attacker := lt.openAssault()
			camp := lt.load("camp")
			bs := play.Battles(camp)
			if len(bs) != 1 || bs[0].System != b.system {
				t.Fatalf("battles the campaign waits on: %+v", bs)
			}
			id := play.BattleID(camp, bs[0])
			lt.waitFor(id, "the battle's creation", func(g *play.Game) bool { return g.Created != nil })
			beforeEnd, _ := lt.st.Head(id)
			attackerID, defenderID := "anna", "taro"
			if attacker == gcacw.CSA {
				attackerID, defenderID = "taro", "anna"
			}
			lt.send(id, defenderID, "CONCEDE")
			first := lt.load(id)
			firstEnd, ok, err := play.BattleEndOf(lt.st, first)
			if err != nil || !ok {
				t.Fatalf("the battle did not end: %v", err)
			}
			lt.waitFor("camp", "the battle's result", func(g *play.Game) bool { return len(play.Battles(g)) == 0 })
			if f, ok := lt.liveResult(id); !ok || f.Str("winner") != "attacker" {
				t.Fatalf("the campaign's result of the battle: %v %v", f, ok)
			}
			took, _ := lt.st.Head("camp")

			// The battle's referee rolls it back to before its end.
			lt.operator(id, fmt.Sprintf("ROLLBACK TO %d", beforeEnd.Seq))
			if g := lt.load(id); g.Ended != nil {
				t.Fatalf("the battle is still over after its rollback: %+v", g.Ended)
			}
			if echo := strings.Join(lt.lastEcho(id), "\n"); !strings.Contains(echo, "its dice seed was revealed at the end") {
				t.Errorf("the rollback of the ended battle does not tell its dice can be worked out: %q", echo)
			}
			camp = lt.waitFor("camp", "the result's withdrawal", func(g *play.Game) bool { return len(play.Battles(g)) == 1 })
			if again := play.BattleID(camp, play.Battles(camp)[0]); again != id {
				t.Fatalf("the campaign waits on %s, not on the battle rolled back (%s)", again, id)
			}
			n := len(camp.Branches)
			if n == 0 || camp.Branches[n-1].Withdraws != id || camp.Branches[n-1].To != took.Seq {
				t.Errorf("the campaign's rollback: %+v (it took the result by seq %d)", camp.Branches, took.Seq)
			}
			withdrawn := false
			_ = lt.st.Read("camp", 1, func(e *events.Envelope) error {
				withdrawn = withdrawn || e.Key == play.WithdrawKey(id, firstEnd.Final)
				return nil
			})
			if !withdrawn {
				t.Error("the campaign's log holds no withdrawal of the result")
			}
			if _, ok := lt.liveResult(id); ok {
				t.Error("the campaign still holds the withdrawn result")
			}
			if ps := camp.Rules.Prompt(camp.State); len(ps) != 0 {
				t.Errorf("the campaign prompts while its battle is fought out again: %+v", ps)
			}
			if lines, err := play.VerifyLinks(lt.st, id); err != nil || len(lines) != 1 || !strings.Contains(lines[0], "withdrew the result it took") {
				t.Errorf("verify the battle between its ends: %q %v", lines, err)
			}

			// Fought out again, the other way: the attacker concedes.
			lt.send(id, attackerID, "CONCEDE")
			second := lt.load(id)
			secondEnd, ok, err := play.BattleEndOf(lt.st, second)
			if err != nil || !ok || secondEnd.Final == firstEnd.Final {
				t.Fatalf("the battle's new end: %v %v (first %s)", ok, err, firstEnd.Final.Hex())
			}
			lt.waitFor("camp", "the battle's new result", func(g *play.Game) bool { return len(play.Battles(g)) == 0 })
			f, ok := lt.liveResult(id)
			if !ok || f.Str("hash") != secondEnd.Final.Hex() || f.Str("winner") != "defender" {
				t.Errorf("the campaign's live result: %v %v, want the new end %s, the defender winning", f, ok, secondEnd.Final.Hex())
			}
			if rs := lt.results(id); len(rs) != 2 || rs[0] != firstEnd.Final.Hex() || rs[1] != secondEnd.Final.Hex() {
				t.Errorf("the results the campaign's log holds: %q", rs)
			}
			lines := strings.Join(lt.auditAndVerify("camp", id), "\n")
			for _, want := range []string{
				"battle " + id + ": its final hash " + firstEnd.Final.Hex() + " is in its log, in a branch its rollback closed; the result was withdrawn",
				"battle " + id + ": its final hash " + secondEnd.Final.Hex() + " matches its log",
				"took this battle's result, final hash " + secondEnd.Final.Hex(),
			} {
				if !strings.Contains(lines, want) {
					t.Errorf("verify lacks %q:\n%s", want, lines)
				}
			}
		})
	}
}

// A battle rolled back to before its end before its campaign took the
// result (the end came under a server that did not carry it) re-opens
// the assault: the campaign never takes the end the rollback closed, waits
// on, and takes the battle's new end.
func TestLinkedBattleRollbackBeforeTheCampaignTookItsResult(t *testing.T) {
	for _, b := range rollbackBattles {
		t.Run(b.system, func(t *testing.T) {
			lt := newRollbackTable(t, filepath.Join(t.TempDir(), "pbem.db"), campaignFightingIn(b.system, b.scenario, b.usa, b.csa))
			attacker := lt.openAssault()
			camp := lt.load("camp")
			id := play.BattleID(camp, play.Battles(camp)[0])
			lt.waitFor(id, "the battle's creation", func(g *play.Game) bool { return g.Created != nil })
			beforeEnd, _ := lt.st.Head(id)
			attackerID, defenderID := "anna", "taro"
			if attacker == gcacw.CSA {
				attackerID, defenderID = "taro", "anna"
			}
			// The battle ends, and is rolled back, where no one carries
			// its result.
			lt.relink(false)
			lt.send(id, defenderID, "CONCEDE")
			stale, ok, err := play.BattleEndOf(lt.st, lt.load(id))
			if err != nil || !ok {
				t.Fatalf("the battle did not end: %v", err)
			}
			lt.operator(id, fmt.Sprintf("ROLLBACK TO %d", beforeEnd.Seq))
			if g := lt.load(id); g.Ended != nil {
				t.Fatalf("the battle is still over after its rollback: %+v", g.Ended)
			}
			// A linking runner loads both games: nothing to carry.
			lt.relink(true)
			lt.r.Kick(id)
			lt.r.Kick("camp")
			lt.idle(id)
			lt.idle("camp")
			if rs := lt.results(id); len(rs) != 0 {
				t.Fatalf("the campaign took the end the battle's rollback closed: %q", rs)
			}
			if len(play.Battles(lt.load("camp"))) != 1 {
				t.Fatal("the campaign no longer waits on its battle")
			}
			lt.send(id, attackerID, "CONCEDE")
			end, ok, err := play.BattleEndOf(lt.st, lt.load(id))
			if err != nil || !ok || end.Final == stale.Final {
				t.Fatalf("the battle's new end: %v %v", ok, err)
			}
			lt.waitFor("camp", "the battle's result", func(g *play.Game) bool { return len(play.Battles(g)) == 0 })
			if rs := lt.results(id); len(rs) != 1 || rs[0] != end.Final.Hex() {
				t.Errorf("the results the campaign took: %q, want only the new end %s", rs, end.Final.Hex())
			}
			if f, ok := lt.liveResult(id); !ok || f.Str("winner") != "defender" {
				t.Errorf("the campaign's result: %v %v, want the defender winning", f, ok)
			}
			lt.auditAndVerify("camp", id)
		})
	}
}

// lastEcho is what the last accepted decision of game echoed.
func (lt *linkedTable) lastEcho(game string) []string {
	var echo []string
	_ = lt.st.Read(game, 1, func(e *events.Envelope) error {
		if e.Type == events.TypeOrderAccepted {
			p, _ := events.Decode(e)
			echo = p.(*events.OrderAccepted).Echo
		}
		return nil
	})
	return echo
}

// A battle its campaign abandoned (the campaign rolled back past its
// assault) takes no rollback: the campaign no longer waits on it, so
// playing it on would carry nothing back.
func TestLinkedBattleAbandonedTakesNoRollback(t *testing.T) {
	lt := newLinkedTable(t)
	lt.openAssault()
	id := play.BattleID(lt.load("camp"), play.Battles(lt.load("camp"))[0])
	lt.waitFor(id, "the battle's creation", func(g *play.Game) bool { return g.Created != nil })
	lt.operator("camp", fmt.Sprintf("ROLLBACK TO %d", lt.beforeAssault))
	lt.waitFor(id, "the battle's abandonment", func(g *play.Game) bool { return g.Ended != nil })
	lt.operator(id, "ROLLBACK TO 1")
	if g := lt.load(id); g.Ended == nil || len(g.Branches) != 0 {
		t.Errorf("the abandoned battle was rolled back: ended %+v, branches %+v", g.Ended, g.Branches)
	}
}
