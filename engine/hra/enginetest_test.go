package hra_test

import (
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/enginetest"
	"pbem/engine/hra"
	"pbem/engine/play"
	"pbem/events"
	"pbem/mail/compose/composetest"
)

var players = []events.Player{
	{ID: "north", Name: "Anna", Side: hra.Union, Addresses: []string{"anna@example.org"}},
	{ID: "south", Name: "Taro", Side: hra.Confederate, Addresses: []string{"taro@example.jp"}},
}

var referees = []events.Player{{ID: "ref", Name: "Ref", Addresses: []string{"ref@example.org"}}}

// playByPrompts builds a script that answers each prompt with its first
// example until the game is over, by deciding locally with the same seed
// is not possible; so it plays the script through enginetest.Play itself.
func TestEngineAcceptance(t *testing.T) {
	t.Parallel()
	reg := engine.NewRegistry(hra.New)
	scn, err := hra.Scenario("kettle-run")
	if err != nil {
		t.Fatal(err)
	}
	opening := enginetest.Script{
		Name: "opening", Ruleset: "hra", ScenarioName: "kettle-run", Scenario: scn, Players: players,
		Orders: enginetest.Orders(
			"south", "Stonewall Brigade: ADVANCE 4", // rejected: not begun
			"north", "BEGIN",
			"north", "HELP",
			"north", "GENERALS Iron Brigade, Buford's Horse",
			"south", "GENERALS Stonewall Brigade, Stuart's Horse",
			"north", "Iron Brigad: ADVANCE 40", // rejected: too far
			"south", "Nobody: HOLD", // rejected: unknown name
		),
		// HRA 3c: the Union assigns its generals first, sealed; the
		// Confederate must not learn how before his own are in.
		Secrets: []enginetest.Secret{{Name: "another GENERALS assignment", Side: hra.Union,
			Orders: map[int]string{3: "GENERALS Buford's Horse, Iron Brigade"}}},
	}
	// Phase III's declarations are sealed (HRA 4.III.a, H23): the referee
	// puts two Union regiments within short range of two Confederate ones,
	// every brigade holds (in whichever order the initiative gives), and
	// the Union declares its volleys, a PICK list and a RETREAT ORDER
	// first; none of it may reach the Confederate, or an observer, before
	// the Confederate has declared too. The Confederate assigns his
	// generals first, sealed the same way (HRA 3c).
	const (
		fire    = "FIRE 6th Wisconsin AT 4th Virginia\nFIRE 7th Wisconsin AT 2nd Virginia\n"
		picks   = "PICK 7th Wisconsin\n"
		retreat = "RETREAT ORDER 6th Wisconsin"
	)
	volleys := enginetest.Script{
		Name: "sealed-volleys", Ruleset: "hra", ScenarioName: "kettle-run", Scenario: scn, Players: players, Referees: referees,
		Orders: enginetest.Orders(
			"north", "BEGIN",
			"south", "GENERALS Stonewall Brigade, Stuart's Horse", // 1
			"north", "GENERALS Iron Brigade, Buford's Horse",
			"ref", "SET 6th Wisconsin POS 50 56",
			"ref", "SET 7th Wisconsin POS 40 56",
			"north", "Iron Brigade: HOLD",
			"south", "Stonewall Brigade: HOLD",
			"north", "Buford's Horse: HOLD",
			"south", "Stuart's Horse: HOLD",
			"north", "Iron Brigade: HOLD",
			"south", "Stonewall Brigade: HOLD",
			"north", "Buford's Horse: HOLD",
			"south", "Stuart's Horse: HOLD",
			"north", fire+picks+retreat, // 13
			"south", "FIRE 2nd Virginia AT 7th Wisconsin\nFIRE 4th Virginia AT 6th Wisconsin",
		),
		Secrets: []enginetest.Secret{
			{Name: "another GENERALS assignment", Side: hra.Confederate, Orders: map[int]string{1: "GENERALS Stuart's Horse, Stonewall Brigade"}},
			{Name: "another volley declaration", Side: hra.Union, Orders: map[int]string{13: "FIRE 7th Wisconsin AT 2nd Virginia\n" + picks + retreat}},
			{Name: "another PICK list", Side: hra.Union, Orders: map[int]string{13: fire + "PICK 6th Wisconsin\n" + retreat}},
			{Name: "another RETREAT ORDER", Side: hra.Union, Orders: map[int]string{13: fire + picks + "RETREAT ORDER 7th Wisconsin, 6th Wisconsin"}},
		},
	}
	// The referee's part: a correction, then a rollback of two actions,
	// then play on; the suite checks fold, snapshots and re-decisions
	// across both.
	refereed := enginetest.Script{
		Name: "refereed", Ruleset: "hra", ScenarioName: "kettle-run", Scenario: scn, Players: players, Referees: referees,
		Orders: enginetest.Orders(
			"north", "BEGIN",
			"north", "GENERALS Iron Brigade, Buford's Horse", // HRA 3c: the players assign them
			"south", "GENERALS Stuart's Horse, Stonewall Brigade",
			"north", "RETREAT ORDER 6th Wisconsin, 2nd Wisconsin", // kept in the state (4.I.b)
			"north", "Iron Brigade: ADVANCE 4",
			"south", "Stonewall Brigade: ADVANCE 4",
			"ref", "SET Iron Brigade SUPPLY 2",
			"north", "Buford's Horse: HOLD",
			"ref", "ROLLBACK 2 ACTIONS",
			"north", "Buford's Horse: HOLD",
			"south", "Stuart's Horse: HOLD",
		),
	}
	// Each script is played and checked on its own, in parallel.
	t.Run("refereed", func(t *testing.T) {
		t.Parallel()
		rp := enginetest.Run(t, reg, composetest.New(t), refereed)[0]
		var rolledBack, set, retreatOrder bool
		for _, d := range rp.Decisions() {
			if a, ok := d.(*events.OrderAccepted); ok && len(a.Echo) > 0 {
				retreatOrder = retreatOrder || strings.Contains(a.Echo[0], "forced moves in this order")
				rolledBack = rolledBack || strings.HasPrefix(a.Echo[0], "ROLLBACK to seq")
				set = set || (strings.HasPrefix(a.Echo[0], "SET ") && strings.Contains(a.Echo[0], " supply "))
			}
		}
		if !retreatOrder {
			t.Error("the RETREAT ORDER was not taken: the suite does not see a list the state keeps")
		}
		if !rolledBack || !set || len(rp.Game.Branches) != 1 {
			t.Errorf("the referee's SET (%v) or rollback (%v) was not taken: branches %+v", set, rolledBack, rp.Game.Branches)
		}
	})
	t.Run("sealed-volleys", func(t *testing.T) {
		t.Parallel()
		vp := enginetest.Run(t, reg, composetest.New(t), volleys)[0]
		var sealed, opened int
		for _, d := range vp.Decisions() {
			if a, ok := d.(*events.OrderAccepted); ok {
				for _, f := range a.Facts {
					switch {
					case f.Kind == play.FactSealed && strings.HasPrefix(f.Str("step"), "volleys of round"):
						sealed++
					case f.Kind == play.FactReveal && strings.HasPrefix(f.Str("step"), "volleys of round"):
						opened++
					case f.Kind == "volley.fired":
						opened++
					}
				}
			}
		}
		if sealed != 2 || opened < 2 {
			t.Errorf("sealed-volleys: %d sides' volleys sealed, %d reveals and volleys: the script does not reach its volleys", sealed, opened)
		}
	})
	t.Run("opening", func(t *testing.T) {
		t.Parallel()
		played := enginetest.Run(t, reg, composetest.New(t), opening)
		p := played[0]
		var rejected int
		for _, d := range p.Decisions() {
			if _, ok := d.(*events.OrderRejected); ok {
				rejected++
			}
		}
		if rejected < 2 {
			t.Errorf("opening: %d orders rejected, want at least 2", rejected)
		}
	})
	// A whole game by robust mails: each block offers every brigade an
	// order and both sides a fire declaration; what is out of turn is
	// rejected, the rest moves the game on, whatever the dice.
	orders := []string{"north", "BEGIN", "north", "GENERALS Iron Brigade, Buford's Horse", "south", "GENERALS Stonewall Brigade, Stuart's Horse"}
	for blk := 0; blk < 12; blk++ {
		inf := "HOLD"
		if blk < 3 {
			inf = "ADVANCE 4"
		}
		orders = append(orders,
			"north", "Iron Brigade: "+inf,
			"south", "Stonewall Brigade: "+inf,
			"north", "Buford's Horse: HOLD",
			"south", "Stuart's Horse: HOLD",
			"north", "Iron Brigade: HOLD",
			"south", "Stonewall Brigade: HOLD",
			"north", "FIRE NONE",
			"south", "FIRE NONE")
	}
	whole := enginetest.Script{Name: "whole-game", Ruleset: "hra", ScenarioName: "kettle-run", Scenario: scn, Players: players,
		Orders: enginetest.Orders(orders...)}
	t.Run("whole-game", func(t *testing.T) {
		t.Parallel()
		wp := enginetest.Run(t, reg, composetest.New(t), whole)[0]
		g := wp.Game
		if testing.Verbose() {
			for _, d := range wp.Decisions() {
				if r, ok := d.(*events.OrderRejected); ok {
					t.Logf("rejected: %s", r.Problems[0].Msg)
				}
			}
			t.Logf("%s", g.Rules.Render(g.Rules.View(g.State, engine.Viewer{Referee: true})).Window)
		}
		if out := g.Rules.Outcome(g.State); !out.Over || !strings.Contains(out.Reason, "victory points") {
			t.Errorf("the whole game did not end: %+v", out)
		}
	})
}
