package gcacw_test

import (
	"slices"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/enginetest"
	"pbem/engine/gcacw"
	"pbem/events"
	"pbem/mail/compose/composetest"
)

var players = []events.Player{
	{ID: "north", Name: "Anna", Side: "USA", Addresses: []string{"anna@example.org"}},
	{ID: "south", Name: "Taro", Side: "CSA", Addresses: []string{"taro@example.jp"}},
}

func TestEngineAcceptance(t *testing.T) {
	t.Parallel()
	reg := engine.NewRegistry(gcacw.New)
	scn, err := gcacw.Scenario("harrow-creek")
	if err != nil {
		t.Fatal(err)
	}
	// Played as with a referee: the Reorganization Phase is the referee's.
	scn = gcacw.Refereed(scn)
	queued := enginetest.Script{
		Name: "queued-cycle", Ruleset: "gcacw", ScenarioName: "harrow-creek", Scenario: scn, Players: players,
		Orders: enginetest.Orders(
			// Rejected: an action in the Leader Transfer Phase.
			"north", "MARCH Orne 1407",
			"north", "HELP",
			// Rejected: an unknown leader.
			"south", "TRANSFER Marlo TO Nobody",
			// A standing order answers the Cavalry Retreat Starling's march
			// brings (1OH is next to it), so the queues play on.
			"north", `PASS
STANDING CAVALRY RETREAT ALL NEVER
QUEUE MARCH Orne 1407 1307 FORCE
QUEUE ACTIVATE Brand: Pask 1509 1510; RART 1707
QUEUE PASS
QUEUE PASS
QUEUE PASS`,
			"south", `PASS
QUEUE MARCH Starling 0810 0910 FORCE
QUEUE ACTIVATE Marlow: Rusk 0506
  Toller 0408
QUEUE PASS
QUEUE PASS
QUEUE PASS`,
			// The cycle has ended: the Reorganization Phase is the referee's.
			"north", "MARCH Lyle 1605",
			"south", "PASS",
		),
		// A side's queued and standing orders are its own until it plays
		// them (the leak test checks the other side learns nothing of
		// them). Played with the leak test's dice, the cycle ends before
		// USA's queue is used up (its last order is never played), CSA
		// cancels what it adds, and no march comes next to CSA's cavalry.
		Secrets: []enginetest.Secret{
			{Name: "another queued order", Side: gcacw.USA, Orders: map[int]string{3: `PASS
STANDING CAVALRY RETREAT ALL NEVER
QUEUE MARCH Orne 1407 1307 FORCE
QUEUE ACTIVATE Brand: Pask 1509 1510; RART 1707
QUEUE PASS
QUEUE PASS
QUEUE MARCH Lyle 1605 FORCE`}},
			{Name: "a standing order, and an order queued and cancelled", Side: gcacw.CSA, Orders: map[int]string{4: `PASS
STANDING CAVALRY RETREAT ALL ALWAYS
QUEUE MARCH Starling 0810 0910 FORCE
QUEUE ACTIVATE Marlow: Rusk 0506
  Toller 0408
QUEUE PASS
QUEUE PASS
QUEUE PASS
QUEUE MARCH Rusk 0505
CANCEL 6`}},
		},
	}
	interactive := enginetest.Script{
		Name: "interactive", Ruleset: "gcacw", ScenarioName: "harrow-creek", Scenario: scn, Players: players,
		Orders: enginetest.Orders(
			"north", "PASS",
			"south", "PASS",
			"north", "MARCH Lyle 1605 FORCE IF MA < 3",
			"south", "ACTIVATE Gaines: Becket 0605; Washburn 0507",
			"north", "ACTIVATE Kellogg: Vane 1310 1311",
			"south", "MARCH Starling 0810 FORCE",
			"north", "TAKE",
			"north", "PASS",
			"south", "PASS",
			"north", "PASS",
			"south", "PASS",
			"north", "PASS",
		),
		// No CSA march comes next to Vane: USA's standing order for it is
		// never used, and CSA must learn nothing of it.
		Secrets: []enginetest.Secret{
			{Name: "a standing order for one unit", Side: gcacw.USA, Orders: map[int]string{0: "PASS\nSTANDING CAVALRY RETREAT Vane ALWAYS"}},
		},
	}
	played := enginetest.Run(t, reg, composetest.New(t), queued, interactive)

	// The queued cycle always plays both sides' force marches and leader
	// activations, whoever wins each initiative.
	p := played[0]
	var kinds []string
	rejected := 0
	for _, d := range p.Decisions() {
		switch d := d.(type) {
		case *events.OrderAccepted:
			for _, f := range d.Facts {
				kinds = append(kinds, f.Kind+" "+f.Str("unit")+f.Str("leader"))
			}
		case *events.OrderRejected:
			rejected++
		}
	}
	all := strings.Join(kinds, "\n")
	for _, want := range []string{"unit.force_marched ORNE", "unit.force_marched STAR", "leader.activated BRND", "leader.activated MARL",
		"extended_march.resolved PASK", "initiative.rolled", "cycle.ended"} {
		if !strings.Contains(all, want) {
			t.Errorf("queued cycle: no %q among the facts:\n%s", want, all)
		}
	}
	if rejected != 4 {
		t.Errorf("queued cycle: %d orders rejected, want 4", rejected)
	}
	if got := p.Game.Rules.Prompt(p.Game.State); len(got) != 1 || !got[0].Referee {
		t.Errorf("after the cycle the referee should be asked for the Reorganization Phase: %+v", got)
	}
}

// The referee corrects a unit mid-game with SET, and the game plays on:
// the acceptance suite's checks (replay, snapshots, Evolve and EvolveAll,
// re-decided decisions) hold for a log with set facts in it.
func TestEngineAcceptanceRefereeSET(t *testing.T) {
	t.Parallel()
	reg := engine.NewRegistry(gcacw.New)
	scn, err := gcacw.Scenario("harrow-creek")
	if err != nil {
		t.Fatal(err)
	}
	scn = gcacw.Refereed(scn)
	referees := []events.Player{{ID: "umpire", Name: "Ute", Addresses: []string{"ute@example.org"}}}
	p := enginetest.Play(t, reg, enginetest.Script{
		Name: "referee-set", Ruleset: "gcacw", ScenarioName: "harrow-creek", Scenario: scn, Players: players, Referees: referees,
		Orders: enginetest.Orders(
			"north", "PASS",
			"south", "PASS",
			// A player may not correct the game.
			"north", "SET Lyle HEX 1605",
			// The action cycle is under way (whoever won the initiative):
			// Lyle should stand in 1605, and Vane lost a strength point.
			"umpire", "SET Lyle HEX 1605\nSET Vane STRENGTH 2\nSET Vane FATIGUE 1",
			"north", "PASS",
			"south", "PASS",
			"north", "PASS",
			"umpire", "SET Orne DISORGANIZED",
			"south", "PASS",
			"north", "PASS",
			// The referee rolls the last two actions back, then play goes
			// on from there; the suite checks the fold, snapshots and
			// re-decisions across the rollback.
			"umpire", "ROLLBACK 2 ACTIONS",
			"south", "PASS",
			"north", "PASS",
		),
	})
	enginetest.Check(t, reg, p)

	var sets []string
	rejected := ""
	for _, d := range p.Decisions() {
		switch d := d.(type) {
		case *events.OrderAccepted:
			for _, f := range d.Facts {
				if f.Kind == "set" {
					sets = append(sets, f.String())
				}
			}
			for _, e := range d.Echo {
				if strings.HasPrefix(e, "SET ") {
					sets = append(sets, e)
				}
			}
		case *events.OrderRejected:
			rejected += d.Problems[0].Msg + "\n"
		}
	}
	if u := p.Game.State.(*gcacw.State).Units; !slices.ContainsFunc(u, func(u *gcacw.Unit) bool { return u.ID == "VANE" && u.Manpower == 2 && u.Fatigue == 1 }) {
		t.Errorf("after the game Vane is not as the referee set it: %+v", u)
	}
	want := []string{
		"set target=LYLE field=hex old=1606 new=1605",
		"set target=VANE field=strength old=3 new=2",
		"set target=VANE field=fatigue old=0 new=1",
		"SET Lyle hex 1606 → 1605",
		"SET Vane strength 3 → 2",
		"SET Vane fatigue 0 → 1",
		"set target=ORNE field=disorganized old=no new=yes",
		"SET Orne disorganized no → yes",
	}
	if strings.Join(sets, "\n") != strings.Join(want, "\n") {
		t.Errorf("set facts and echo:\n%s\nwant:\n%s", strings.Join(sets, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(rejected, "only the referee sends SET") {
		t.Errorf("a player's SET was not refused; rejections:\n%s", rejected)
	}
}

// assaultOrders are a game's first orders in which whoever holds the
// initiative assaults the enemy next to it (Starling and the 1st Ohio
// Squadron stand side by side), and the referee (umpire) rules each
// assault where the scenario leaves it to a referee.
func assaultOrders() []enginetest.Order {
	return enginetest.Orders(
		"north", "PASS",
		"south", "PASS",
		"north", "ASSAULT 1OH ON 0710",
		"south", "ASSAULT Starling ON 0711",
		"umpire", "RULE LOSS 1OH 1\nRULE LOSS Starling 1\nRULE ADVANCE Starling 0711\nRULE DONE",
		"umpire", "RULE LOSS Starling 1\nRULE RETREAT 1OH 0712\nRULE DONE",
		"north", "PASS",
		"south", "PASS",
		"north", "PASS",
		"south", "PASS",
	)
}

// Assaults by mail, resolved by the SAMPLE combat table and by the
// referee's structured commands: the acceptance suite's checks (replay,
// snapshots, re-decisions, and the leak test: a side's standing order
// stays its own through every assault step) hold for logs with them.
func TestEngineAcceptanceAssaults(t *testing.T) {
	t.Parallel()
	reg := engine.NewRegistry(gcacw.New)
	shipped, err := gcacw.Scenario("harrow-creek")
	if err != nil {
		t.Fatal(err)
	}
	referees := []events.Player{{ID: "umpire", Name: "Ute", Addresses: []string{"ute@example.org"}}}
	assaults := assaultOrders()
	secret := []enginetest.Secret{{Name: "a standing order through an assault", Side: gcacw.USA, Orders: map[int]string{0: "PASS\nSTANDING CAVALRY RETREAT Vane ALWAYS"}}}
	byTable := enginetest.Script{Name: "assault-table", Ruleset: "gcacw", ScenarioName: "harrow-creek", Scenario: shipped, Players: players, Referees: referees, Orders: assaults, Secrets: secret}
	byReferee := enginetest.Script{Name: "assault-referee", Ruleset: "gcacw", ScenarioName: "harrow-creek-refereed", Scenario: gcacw.Refereed(shipped), Players: players, Referees: referees, Orders: assaults, Secrets: secret}
	// The defender's retreat asked by mail (fallback.go): a combat table
	// whose every result is Dr, so the attacked unit's owner is asked and
	// answers with PASS (the default a missed deadline sends), with a
	// standing order, kept secret, in the same mail.
	head, rest, ok := strings.Cut(string(shipped), "\n[combat]\n")
	_, tail, ok2 := strings.Cut(rest, "\n[")
	if !ok || !ok2 {
		t.Fatal("no [combat] section in the shipped scenario")
	}
	allRetreat := []byte(head + "\n[combat]\ncolumns 1-2\n1 Dr\nretreat hexes=1\n[" + tail)
	retreats := enginetest.Orders(
		"north", "PASS",
		"south", "PASS",
		"north", "ASSAULT 1OH ON 0710",
		"south", "ASSAULT Starling ON 0711",
		"north", "PASS",
		"south", "PASS",
		"north", "PASS",
		"south", "PASS",
	)
	byRetreat := enginetest.Script{Name: "assault-table-retreat", Ruleset: "gcacw", ScenarioName: "harrow-creek", Scenario: allRetreat, Players: players, Referees: referees, Orders: retreats,
		Secrets: []enginetest.Secret{
			{Name: "a standing order in the retreat's answer (USA)", Side: gcacw.USA, Orders: map[int]string{4: "PASS\nSTANDING CAVALRY RETREAT Vane ALWAYS"}},
			{Name: "a standing order in the retreat's answer (CSA)", Side: gcacw.CSA, Orders: map[int]string{5: "PASS\nSTANDING CAVALRY RETREAT Starling ALWAYS"}},
		}}
	played := enginetest.Run(t, reg, composetest.New(t), byTable, byReferee, byRetreat)
	for i, want := range []string{"assault.rolled", "referee.ruled step=assault", "fall_back.done"} {
		var all []string
		for _, d := range played[i].Decisions() {
			if d, ok := d.(*events.OrderAccepted); ok {
				for _, f := range d.Facts {
					all = append(all, f.String())
				}
			}
		}
		if !strings.Contains(strings.Join(all, "\n"), "assault.declared") || !strings.Contains(strings.Join(all, "\n"), want) {
			t.Errorf("%s: no assault resolved (%q) among the facts:\n%s", played[i].Script.Name, want, strings.Join(all, "\n"))
		}
	}
}
