package play_test

import (
	"encoding/binary"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"pbem/engine"
	"pbem/engine/enginetest"
	"pbem/engine/gcacw"
	"pbem/engine/play"
	"pbem/events"
	"pbem/store"
)

const auditGame = "test-game" // the id enginetest.Play gives its game

var gcPlayers = []events.Player{
	{ID: "anna", Name: "Anna", Side: "USA", Addresses: []string{"anna@example.org"}},
	{ID: "taro", Name: "Taro", Side: "CSA", Addresses: []string{"taro@example.jp"}},
}

// playGCACW plays a few GCACW orders on harrow-creek through the real
// runner on a real bbolt file (whatever the dice, some are accepted, some
// rejected, and dice are rolled).
func playGCACW(t *testing.T) *enginetest.Played {
	t.Helper()
	scn, err := gcacw.Scenario("harrow-creek")
	if err != nil {
		t.Fatal(err)
	}
	return enginetest.Play(t, engine.NewRegistry(gcacw.New), enginetest.Script{
		Name: "audit", Ruleset: "gcacw", ScenarioName: "harrow-creek", Scenario: scn, Players: gcPlayers,
		Orders: enginetest.Orders(
			"anna", "PASS",
			"taro", "PASS",
			"anna", "MARCH Lyle 1605 FORCE IF MA < 3",
			"taro", "ACTIVATE Gaines: Becket 0605; Washburn 0507",
			"taro", "MARCH Starlng 0810", // a typo: always rejected
			"anna", "ACTIVATE Kellogg: Vane 1310 1311",
			"anna", "HELP",
			"taro", "PASS",
			"anna", "PASS",
		),
	})
}

func TestAuditOfAnHonestGameFindsNothing(t *testing.T) {
	p := playGCACW(t)
	reg := engine.NewRegistry(gcacw.New)
	rep, err := play.Audit(p.Store, reg, auditGame, p.Seed)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() || rep.Chain != nil || len(rep.Differences) != 0 || len(rep.BadDice) != 0 {
		t.Fatalf("honest game: chain %v, differences %+v, bad dice %v", rep.Chain, rep.Differences, rep.BadDice)
	}
	var accepted, rejected, dice int
	for _, d := range p.Decisions() {
		switch d := d.(type) {
		case *events.OrderAccepted:
			accepted++
			dice += len(d.Dice)
		case *events.OrderRejected:
			rejected++
		}
	}
	if rep.Events != len(p.Log) || rep.Verified != uint64(len(p.Log)) || rep.Inputs != 9 || rep.Accepted != accepted ||
		rep.Rejected != rejected || rep.Accepted+rep.Rejected != 9 || rep.Dice != dice || rep.Undecided != 0 {
		t.Fatalf("counts: %+v (log %d events, %d accepted, %d rejected, %d dice)", rep, len(p.Log), accepted, rejected, dice)
	}
	if rep.Rejected == 0 || rep.Dice == 0 {
		t.Fatalf("the script should reject an order and roll dice: %+v", rep)
	}
	if rep.Seed != "given" || !rep.SeedMatches || rep.DiceVerified != dice {
		t.Fatalf("dice: seed %q matches %v, %d of %d verified", rep.Seed, rep.SeedMatches, rep.DiceVerified, dice)
	}
	// One line per input, under a heading per turn (when both pass, as the
	// dice may have them, Harrow Creek's house rules end turn 1 at once).
	inputs, turns := 0, 0
	for _, l := range rep.Timeline {
		if strings.HasPrefix(l, "seq ") {
			inputs++
		} else if strings.HasPrefix(l, "— turn ") {
			turns++
		}
	}
	if inputs != 9 || turns < 1 || inputs+turns != len(rep.Timeline) || rep.Timeline[0] != "— turn 1 (from seq 1) —" || !strings.HasPrefix(rep.Timeline[1], "seq 2  anna: PASS → accepted: ") || !strings.Contains(rep.Timeline[1], "transfer.done side=USA") ||
		!strings.Contains(strings.Join(rep.Timeline, "\n"), `taro: MARCH Starlng 0810 → rejected: line 1 col 7: no unit is called "Starlng"`) {
		t.Fatalf("timeline:\n%s", strings.Join(rep.Timeline, "\n"))
	}
	if rep.Ruleset != "gcacw" || rep.RulesetVersion != gcacw.Version || len(rep.LoggedVersions) != 1 || rep.VersionMismatches != 0 {
		t.Fatalf("versions: %+v", rep)
	}

	// Without a seed (the game has not ended), the dice are not checked.
	rep, err = play.Audit(p.Store, reg, auditGame, nil)
	if err != nil || rep.Seed != "" || rep.DiceVerified != 0 || !rep.OK() {
		t.Fatalf("no seed: %+v %v", rep, err)
	}
	// A wrong seed does not match the commitment.
	rep, err = play.Audit(p.Store, reg, auditGame, make([]byte, play.SeedSize))
	if err != nil || rep.SeedMatches || rep.OK() || len(rep.BadDice) != 1 {
		t.Fatalf("wrong seed: %+v %v", rep, err)
	}
	// An unknown game is an error, not a report.
	if _, err := play.Audit(p.Store, reg, "no-such-game", nil); err == nil {
		t.Fatal("audit of an unknown game succeeded")
	}
}

func TestAuditLocatesAFlippedByteBySeq(t *testing.T) {
	p := playGCACW(t)
	path := p.Store.Path()
	p.Store.Close()
	const victim = 6
	// Tamper with one event behind the store's back, as an attacker with the file could.
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("log")).Bucket([]byte(auditGame))
		key := binary.BigEndian.AppendUint64(nil, victim)
		v := append([]byte(nil), b.Get(key)...)
		v[len(v)-3] ^= 0x01 // inside the payload
		return b.Put(key, v)
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rep, err := play.Audit(st, engine.NewRegistry(gcacw.New), auditGame, p.Seed)
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK() || rep.Chain == nil || rep.Chain.Seq != victim || rep.Verified != victim-1 {
		t.Fatalf("want the chain broken at %d after %d good events, got %v (verified %d)", victim, victim-1, rep.Chain, rep.Verified)
	}
}

// altered is GCACW with one decision changed: deciding the USA's Leader
// Transfer Phase pass also yields an extra fact. It is registered under
// gcacw's name, as a new release of the rules would be.
type altered struct {
	engine.Ruleset
	version string // "" keeps gcacw's
	change  bool
}

func (a altered) Version() string {
	if a.version != "" {
		return a.version
	}
	return a.Ruleset.Version()
}

// Facts lists the fact the change adds.
func (a altered) Facts() []engine.FactSchema {
	return append(a.Ruleset.Facts(), engine.Schema("audit.extra", "why:s"))
}

func isUSATransfer(f events.Fact) bool { return f.Kind == "transfer.done" && f.Str("side") == "USA" }

func (a altered) Decide(s engine.State, side string, orders []engine.Order, dice engine.Dice) (engine.Decision, error) {
	d, err := a.Ruleset.Decide(s, side, orders, dice)
	if err == nil && a.change {
		for _, f := range d.Facts {
			if isUSATransfer(f) {
				d.Facts = append(d.Facts, events.NewFact("audit.extra", events.S("why", "changed rules")))
				break
			}
		}
	}
	return d, err
}

func (a altered) Evolve(s engine.State, f events.Fact) (engine.State, error) {
	if f.Kind == "audit.extra" {
		return s, nil
	}
	return a.Ruleset.Evolve(s, f)
}

func TestAuditReportsADecisionTheCurrentRulesMakeDifferently(t *testing.T) {
	p := playGCACW(t)
	// The logged decision the change alters.
	var target uint64
	var decisions int
	for i := range p.Log {
		e := &p.Log[i]
		if e.Type != events.TypeOrderAccepted && e.Type != events.TypeOrderRejected {
			continue
		}
		decisions++
		d, err := events.Decode(e)
		if err != nil {
			t.Fatal(err)
		}
		if acc, ok := d.(*events.OrderAccepted); ok {
			for _, f := range acc.Facts {
				if isUSATransfer(f) {
					if target != 0 {
						t.Fatalf("two decisions with %s", f)
					}
					target = e.Seq
				}
			}
		}
	}
	if target == 0 {
		t.Fatal("no decision has the USA's transfer")
	}
	tests := []struct {
		name           string
		rules          altered
		wantDiffs      int
		wantMismatches int
	}{
		{"same rules", altered{}, 0, 0},
		{"one decision changed", altered{change: true}, 1, 0},
		{"new version, same decisions", altered{version: "9.9.9"}, 0, decisions},
		{"new version, one decision changed", altered{version: "9.9.9", change: true}, 1, decisions},
	}
	t.Run("new version, one decision changed, the logged version kept", func(t *testing.T) {
		// The binary keeps the version that decided: each decision is
		// re-decided with it, and nothing differs.
		reg := engine.NewRegistry(func() engine.Ruleset { return altered{Ruleset: gcacw.New(), version: "9.9.9", change: true} }, gcacw.New)
		rep, err := play.Audit(p.Store, reg, auditGame, p.Seed)
		if err != nil || !rep.OK() || rep.VersionMismatches != 0 || rep.ByLoggedVersion != decisions || rep.RulesetVersion != "9.9.9" {
			t.Fatalf("%v: %d differences %+v, mismatches %d, by logged version %d of %d", err, len(rep.Differences), rep.Differences,
				rep.VersionMismatches, rep.ByLoggedVersion, decisions)
		}
	})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := engine.NewRegistry(func() engine.Ruleset { r := tc.rules; r.Ruleset = gcacw.New(); return r })
			rep, err := play.Audit(p.Store, reg, auditGame, p.Seed)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Chain != nil || len(rep.BadDice) != 0 || rep.DiceVerified != rep.Dice {
				t.Fatalf("chain %v, bad dice %v", rep.Chain, rep.BadDice)
			}
			if len(rep.Differences) != tc.wantDiffs || rep.VersionMismatches != tc.wantMismatches || rep.OK() != (tc.wantDiffs == 0) {
				t.Fatalf("%d differences %+v, %d version mismatches; want %d and %d", len(rep.Differences), rep.Differences,
					rep.VersionMismatches, tc.wantDiffs, tc.wantMismatches)
			}
			if tc.rules.version != "" && (rep.RulesetVersion != "9.9.9" || len(rep.LoggedVersions) != 1 || rep.LoggedVersions[0] != gcacw.Version) {
				t.Fatalf("versions: current %s, logged %v", rep.RulesetVersion, rep.LoggedVersions)
			}
			if tc.wantDiffs == 0 {
				return
			}
			d := rep.Differences[0]
			if d.Seq != target || d.InputSeq == 0 || d.Input != "anna: PASS" {
				t.Fatalf("difference at seq %d (input %d %q), want seq %d", d.Seq, d.InputSeq, d.Input, target)
			}
			if strings.Contains(d.Logged, "audit.extra") || !strings.Contains(d.Redecided, `audit.extra why="changed rules"`) ||
				!strings.Contains(d.Logged, "transfer.done side=USA") {
				t.Fatalf("logged:\n%s\nre-decided:\n%s", d.Logged, d.Redecided)
			}
			if (tc.rules.version != "") != strings.Contains(d.Note, "re-decided by 9.9.9") {
				t.Fatalf("note: %q", d.Note)
			}
		})
	}
}
