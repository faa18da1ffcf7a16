package play_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/gbacw"
	"pbem/engine/gcacw"
	"pbem/engine/gmb"
	"pbem/engine/hra"
	"pbem/engine/play"
)

// mappedCampaign is a GCACW campaign whose assaults are fought out in
// system's scenario with its forces mapped: Able and Yoke face each
// other, Baker (with Able) is lost before the assault, and Zed stands
// far away, out of it.
func mappedCampaign(battle, forces string) string {
	return `scenario Mapped
game SSR
turns 2
[map]
hexes 0101 1010
default clear
[units]
USA A "Able" inf XX str=6 tac=3 art=2 at=0505
USA B "Baker" inf XX str=6 tac=3 art=2 at=0505
CSA Y "Yoke" inf XX str=6 tac=2 art=1 at=0504
CSA Z "Zed" inf XX str=6 tac=2 art=1 at=0909
[leaders]
[battles]
# SAMPLE: a house rule
` + battle + "\n" + forces + `
result  winner=attacker  D2/Dr
result  winner=defender  A2
result  winner=draw      A1/D1
`
}

func tacticalScenario(system, name string) ([]byte, error) {
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

// A battle its campaign's scenario maps the forces of is set up from the
// campaign as the assault stands: the forces of the units in the assault
// fight, each with its unit's share left of its starting Manpower in the
// tactical system's own terms (Able at 3 of 6: GBACW strength points
// halved, HRA state 2 of 3, one GMB unit of two); the forces of a unit
// lost before the assault (Baker) or not in it (Zed) stay out; the
// players' welcome tells them so as a house rule; and the battle's
// creation holds its forces, so audit re-decides it the same.
func TestLinkedBattleForcesFollowTheCampaign(t *testing.T) {
	for _, tc := range []struct {
		system, battle, forces string
		// check reads the battle's state: what fights, at what strength.
		check func(t *testing.T, st engine.State)
		told  []string
	}{
		{system: "gbacw", battle: "battle default gbacw tanners-mill USA=USA CSA=CSA",
			forces: "force A \"Hale's Brigade\"\nforce B \"Ross's Brigade\"\nforce Y \"Tate's Brigade\"\nforce Z \"Vance's Brigade\"",
			check: func(t *testing.T, s engine.State) {
				st := s.(*gbacw.State)
				sp := map[string]int{}
				for _, u := range st.Units {
					sp[u.Name] = u.SP
				}
				want := map[string]int{
					"14th Ohio": 3, "21st Indiana": 3, "Battery K, 1st Ohio": 2, // Hale's: Able at 3 of 6, rounded up
					"12th Georgia": 6, "5th Alabama": 6, "Richmond Battery": 3, // Tate's: Yoke at full strength
				}
				if fmt.Sprint(sp) != fmt.Sprint(want) {
					t.Errorf("the battle's units and SP %v\nwant %v", sp, want)
				}
			},
			told: []string{"USA: Hale's Brigade (the campaign's Able, 3 of 6 strength).", "CSA: Tate's Brigade (the campaign's Yoke, 6 of 6 strength).",
				"14th Ohio fights with 3 SP of its 6.", "Left out, no unit of theirs in the campaign's assault: 9th Michigan, 33rd New York,"}},
		{system: "hra", battle: "battle default hra kettle-run USA=Union CSA=Confederate",
			forces: "force A \"Iron Brigade\"\nforce B \"Buford's Horse\"\nforce Y \"Stonewall Brigade\"\nforce Z \"Stuart's Horse\"",
			check: func(t *testing.T, s engine.State) {
				st := s.(*hra.State)
				state := map[string]int{}
				for _, u := range st.Units {
					state[u.Name] = u.State
				}
				want := map[string]int{"2nd Wisconsin": 2, "6th Wisconsin": 2, "7th Wisconsin": 2, "Battery B": 2,
					"2nd Virginia": 3, "4th Virginia": 3, "5th Virginia": 3, "Rockbridge Battery": 3}
				if fmt.Sprint(state) != fmt.Sprint(want) {
					t.Errorf("the battle's units and states %v\nwant %v", state, want)
				}
				if lost := hra.New().(engine.LossCounter).Losses(st); lost[hra.Union] != 0 || lost[hra.Confederate] != 0 {
					t.Errorf("losses before any fire %v: the campaign's losses are not the battle's", lost)
				}
			},
			told: []string{"Union: Iron Brigade (the campaign's Able, 3 of 6 strength).", "2nd Wisconsin starts at state 2 of 3.",
				"Left out, no unit of theirs in the campaign's assault: 8th Illinois, 12th Illinois, 3rd Indiana,"}},
		{system: "gmb", battle: "battle default gmb hazel-run USA=Union CSA=Confederate",
			forces: "force A \"I Corps\"\nforce B \"Excelsior Brigade\"\nforce Y \"Texas Brigade\"\nforce Z \"Stonewall Brigade\"",
			check: func(t *testing.T, s engine.State) {
				st := s.(*gmb.State)
				var names []string
				for _, u := range st.Units {
					names = append(names, u.Side+": "+u.Name)
				}
				if want := []string{"Union: Iron Brigade", "Confederate: Texas Brigade"}; !slices.Equal(names, want) {
					t.Errorf("the battle's units %q, want %q", names, want)
				}
			},
			told: []string{"Union: I Corps (the campaign's Able, 3 of 6 strength).", "I Corps fields 1 of its 2 units: Iron Brigade.",
				"Left out, no unit of theirs in the campaign's assault: Irish Brigade, Excelsior Brigade,"}},
	} {
		t.Run(tc.system, func(t *testing.T) {
			reg := engine.NewRegistry(gcacw.New, gbacw.New, hra.New, gmb.New)
			lt := newLinkedTableOf(t, mappedCampaign(tc.battle, tc.forces), reg, tacticalScenario)
			// The campaign before the assault: Able has lost half its
			// Manpower, Baker all of it.
			lt.operator("camp", "SET Able STRENGTH 3\nSET Baker ELIMINATED")
			lt.openAssault()
			camp := lt.load("camp")
			bs := play.Battles(camp)
			if len(bs) != 1 || len(bs[0].Muster) != 2 || bs[0].RefereeForces {
				t.Fatalf("battles the campaign waits on: %+v", bs)
			}
			id := play.BattleID(camp, bs[0])
			battle := lt.waitFor(id, "the battle's creation", func(g *play.Game) bool { return g.Created != nil })
			tc.check(t, battle.State)
			if !strings.Contains(string(battle.Created.Scenario), `muster "`) {
				t.Errorf("the battle's creation does not hold the forces it was set up with")
			}
			if battle.Paused != nil {
				t.Errorf("a battle the campaign set up waits on %+v", battle.Paused)
			}
			var welcome []string
			for _, e := range battle.Rules.(engine.Explainer).Explain(battle.State, engine.Viewer{Side: battle.Players[0].Side}, engine.ExplainWelcome) {
				if e.Heading == engine.MusterHeading {
					welcome = e.Lines
				}
			}
			got := strings.Join(welcome, "\n")
			for _, w := range append(tc.told, "House rule (SAMPLE, no rules give it): the campaign scenario's mapping decides which forces fight") {
				if !strings.Contains(got, w) {
					t.Errorf("the welcome's forces do not say %q:\n%s", w, got)
				}
			}
			// The campaign's players are told which forces fight.
			var opened string
			h, _ := lt.st.Head("camp")
			acts, err := play.RecentActions(lt.st, lt.reg, "camp", engine.Viewer{Side: gcacw.USA}, h.Seq, 20)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range acts {
				if strings.Contains(l, "is fought out as a battle") {
					opened = l
				}
			}
			if !strings.Contains(opened, "By the scenario's mapping (a house rule, SAMPLE) these fight") || !strings.Contains(opened, "Able (3 of 6 Manpower) as ") {
				t.Errorf("the campaign's players are told: %q", opened)
			}
			seed, err := lt.st.Secret(id)
			if err != nil {
				t.Fatal(err)
			}
			if rep, err := play.Audit(lt.st, lt.reg, id, seed); err != nil || !rep.OK() {
				t.Errorf("audit %s: %+v %v", id, rep, err)
			}
			if _, err := play.VerifyLinks(lt.st, id); err != nil {
				t.Errorf("verify the battle's links: %v", err)
			}
		})
	}
}

// A battle whose campaign scenario says "forces referee" opens paused:
// the referee sets it up by mail before anyone moves (which forces take
// part, at what strength, with the tactical system's own SET), and
// RESUME starts it. What the referee's setup takes off is no loss of
// the battle's: the campaign's result table reads only what the battle
// cost.
func TestLinkedBattleSetUpByTheReferee(t *testing.T) {
	lt := newLinkedTable(t)
	lt.openAssault()
	camp := lt.load("camp")
	bs := play.Battles(camp)
	if len(bs) != 1 || !bs[0].RefereeForces || len(bs[0].Muster) != 0 {
		t.Fatalf("battles the campaign waits on: %+v", bs)
	}
	id := play.BattleID(camp, bs[0])
	battle := lt.waitFor(id, "the battle's creation", func(g *play.Game) bool { return g.Created != nil && g.Paused != nil })
	if !strings.Contains(battle.Paused.Reason, "the referee sets up the forces of the assault on") || !strings.Contains(battle.Paused.Reason, "then sends RESUME to start it") {
		t.Errorf("the battle waits: %+v", battle.Paused)
	}
	// No one moves before the referee's setup.
	lt.send(id, "anna", "BEGIN")
	if b := lt.load(id); b.State.(*hra.State).Phase != hra.PhaseStart {
		t.Fatalf("the battle began before its referee set it up")
	}
	// The referee's setup: Buford's Horse stays out, the Iron Brigade's
	// 2nd Wisconsin comes weakened.
	lt.operator(id, "SET 8th Illinois STATE 0\nSET 12th Illinois STATE 0\nSET 3rd Indiana STATE 0\nSET 2nd Wisconsin STATE 2")
	st := lt.load(id).State.(*hra.State)
	for _, u := range st.Units {
		want := 3
		switch u.Name {
		case "8th Illinois", "12th Illinois", "3rd Indiana":
			want = 0
		case "2nd Wisconsin":
			want = 2
		}
		if u.State != want {
			t.Errorf("%s at state %d after the referee's setup, want %d", u.Name, u.State, want)
		}
	}
	lt.operator(id, "RESUME")
	lt.send(id, "anna", "BEGIN")
	b := lt.load(id)
	if b.Paused != nil || b.State.(*hra.State).Phase == hra.PhaseStart {
		t.Fatalf("the battle did not begin after RESUME: paused %+v, phase %s", b.Paused, b.State.(*hra.State).Phase)
	}
	if lost := hra.New().(engine.LossCounter).Losses(b.State); lost[hra.Union] != 0 || lost[hra.Confederate] != 0 {
		t.Errorf("losses after the setup and BEGIN %v, want none: the setup is no loss", lost)
	}
	seed, err := lt.st.Secret(id)
	if err != nil {
		t.Fatal(err)
	}
	if rep, err := play.Audit(lt.st, lt.reg, id, seed); err != nil || !rep.OK() {
		t.Errorf("audit %s: %+v %v", id, rep, err)
	}
}
