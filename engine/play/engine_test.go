package play_test

import (
	"crypto/sha256"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pbem/engine"
	"pbem/engine/enginetest"
	"pbem/engine/play"
	"pbem/events"
	"pbem/mail/compose/composetest"
	"pbem/store"
)

func raceScript() enginetest.Script {
	return enginetest.Script{
		Name: "race to 12", Ruleset: "race", ScenarioName: "twelve", Scenario: []byte("target 12"), Players: racePlayers,
		Orders: enginetest.Orders(
			"north", "ROLL", "south", "ADD 3", "south", "ADD 3", // out of turn: rejected
			"north", "ADD 9", // bad number: rejected with column
			"north", "ROLL", "south", "ROLL", "north", "ROLL", "south", "ROLL", "north", "ROLL",
			"south", "ROLL", "north", "ROLL", "south", "ROLL", "north", "ROLL", "south", "ROLL",
			"north", "ROLL", "south", "ROLL", "north", "ROLL",
			"referee", "ROLL", // not a player
		)}
}

func TestAcceptanceSuiteWithMinimalRuleset(t *testing.T) {
	t.Parallel()
	played := enginetest.Run(t, raceRegistry(), composetest.New(t), raceScript())
	p := played[0]
	ds := p.Decisions()
	if len(ds) != len(raceScript().Orders) {
		t.Fatalf("%d decisions for %d orders", len(ds), len(raceScript().Orders))
	}
	if rej, ok := ds[2].(*events.OrderRejected); !ok || !strings.Contains(rej.Problems[0].Msg, "USA's turn") {
		t.Fatalf("out-of-turn order: %+v", ds[2])
	}
	if rej, ok := ds[3].(*events.OrderRejected); !ok || rej.Problems[0].Col != 5 || rej.Problems[0].Hint != "ADD 2" {
		t.Fatalf("bad number: %+v", ds[3])
	}
	if p.Game.Ended == nil || string(p.Game.Ended.Seed) != string(p.Seed) {
		t.Fatalf("game should have ended revealing the seed: %+v", p.Game.Ended)
	}
	last := ds[len(ds)-1].(*events.OrderRejected)
	if !strings.Contains(last.Problems[0].Msg, "game is over") && !strings.Contains(last.Problems[0].Msg, "plays no side") {
		t.Fatalf("order after the end: %+v", last)
	}
}

func TestRollValueIsUniformAndKeyed(t *testing.T) {
	seed := sha256.Sum256([]byte("test seed"))
	const n = 60000
	var counts [7]int
	for i := uint64(0); i < n; i++ {
		counts[play.RollValue(seed[:], "g1", i, 6)]++
	}
	// χ² with 5 degrees of freedom; 20.5 is the 0.1% critical value.
	chi := 0.0
	for v := 1; v <= 6; v++ {
		d := float64(counts[v]) - n/6.0
		chi += d * d / (n / 6.0)
	}
	if chi > 20.5 || counts[0] != 0 {
		t.Fatalf("d6 not uniform: %v χ²=%.1f", counts, chi)
	}
	// The same seed, game and index always give the same value; another game differs somewhere.
	same, diff := 0, 0
	for i := uint64(0); i < 100; i++ {
		a := play.RollValue(seed[:], "g1", i, 10)
		if a != play.RollValue(seed[:], "g1", i, 10) {
			t.Fatal("not deterministic")
		}
		if a == play.RollValue(seed[:], "g2", i, 10) {
			same++
		} else {
			diff++
		}
	}
	if diff == 0 {
		t.Fatal("the game id does not key the stream")
	}
	_ = same
}

func TestRollValueRejectionSamplingStaysInRange(t *testing.T) {
	seed := []byte("k")
	for _, sides := range []int{1, 2, 3, 6, 10, 20, 100, math.MaxInt32} {
		for i := uint64(0); i < 200; i++ {
			if v := play.RollValue(seed, "g", i, sides); v < 1 || v > sides {
				t.Fatalf("d%d gave %d", sides, v)
			}
		}
	}
}

func TestVerifyDieDetectsAForgedRoll(t *testing.T) {
	seed := []byte("seed")
	s := play.NewStream(seed, "g1", 5)
	v := s.Roll("march MA", 6)
	d := s.Rolled[0]
	if d.Index != 5 || d.Value != v {
		t.Fatalf("recorded %+v", d)
	}
	if err := play.VerifyDie(seed, "g1", d); err != nil {
		t.Fatal(err)
	}
	d.Value = d.Value%6 + 1
	if err := play.VerifyDie(seed, "g1", d); err == nil {
		t.Fatal("a forged die verified")
	}
}

func TestFoldRejectsOutOfOrderDecisions(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "x.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	reg := raceRegistry()
	at := time.Unix(0, 0)
	if _, err := play.Create(st, reg, play.NewGame{ID: "g1", Ruleset: "race", Scenario: []byte("target 5"), Players: racePlayers, At: at}); err != nil {
		t.Fatal(err)
	}
	// A decision about an input that does not exist must not fold.
	st.Append("g1", 1, events.New("g1", at, "", &events.OrderRejected{Input: 7}))
	if _, err := play.Replay(st, reg, "g1", 0); err == nil || !strings.Contains(err.Error(), "oldest undecided input") {
		t.Fatalf("want a fold error, got %v", err)
	}
}

func TestCreateRejectsBadIDsAndScenarios(t *testing.T) {
	st, _ := store.Open(filepath.Join(t.TempDir(), "x.db"), store.Options{})
	defer st.Close()
	reg := raceRegistry()
	tests := []struct {
		ng   play.NewGame
		want string
	}{
		{play.NewGame{ID: "Bad Id", Ruleset: "race", Scenario: []byte("target 5"), Players: racePlayers}, "lower-case"},
		{play.NewGame{ID: "g1", Ruleset: "chess", Scenario: []byte("target 5"), Players: racePlayers}, "unknown ruleset"},
		{play.NewGame{ID: "g1", Ruleset: "race", Scenario: []byte("nonsense"), Players: racePlayers}, "target N"},
		{play.NewGame{ID: "g1", Ruleset: "race", Scenario: []byte("target 5"), Players: []events.Player{racePlayers[0], racePlayers[0]}}, "unique"},
	}
	for _, tc := range tests {
		if _, err := play.Create(st, reg, tc.ng); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: want error with %q, got %v", tc.ng.ID, tc.want, err)
		}
	}
	ok := play.NewGame{ID: "g1", Ruleset: "race", Scenario: []byte("target 5"), Players: racePlayers}
	if _, err := play.Create(st, reg, ok); err != nil {
		t.Fatal(err)
	}
	if _, err := play.Create(st, reg, ok); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("second create: %v", err)
	}
}

func TestQueryWordsAreAcceptedWithoutFactsEvenAfterTheEnd(t *testing.T) {
	t.Parallel()
	s := raceScript()
	s.Name = "queries"
	s.Orders = enginetest.Orders("north", "help", "south", "  Board full \n# looking", "north", "STATUS", "north", "HELP me", "north", "ADD 1")
	p := enginetest.Run(t, raceRegistry(), composetest.New(t), s)[0]
	ds := p.Decisions()
	for i, want := range []string{"HELP", "BOARD FULL", "STATUS"} {
		acc, ok := ds[i].(*events.OrderAccepted)
		if !ok || len(acc.Facts) != 0 || acc.Echo[0] != want {
			t.Fatalf("query %d: %+v", i, ds[i])
		}
	}
	if _, ok := ds[3].(*events.OrderRejected); !ok {
		t.Fatalf("'HELP me' is not a query word and not an order: %+v", ds[3])
	}
	if acc, ok := ds[4].(*events.OrderAccepted); !ok || len(acc.Facts) != 1 {
		t.Fatalf("a real order after queries: %+v", ds[4])
	}
}

func TestCreateQueuesWelcomeMailsInTheSameTransaction(t *testing.T) {
	st, _ := store.Open(filepath.Join(t.TempDir(), "x.db"), store.Options{})
	defer st.Close()
	welcome := func(g *play.Game) ([]events.Payload, error) {
		var out []events.Payload
		for _, p := range g.Created.Players {
			out = append(out, &events.MailQueued{MailID: "<w." + p.ID + ">", To: p.Addresses, Template: "welcome",
				Body: g.Rules.Render(g.Rules.View(g.State, engine.Viewer{Side: p.Side})).Window})
		}
		return out, nil
	}
	_, err := play.Create(st, raceRegistry(), play.NewGame{ID: "g1", Ruleset: "race", Scenario: []byte("target 5"), Players: racePlayers, Welcome: welcome})
	if err != nil {
		t.Fatal(err)
	}
	g, err := play.Replay(st, raceRegistry(), "g1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if g.Seq != 3 || len(g.Outbox) != 2 || g.Outbox[0].MailID != "<w.north>" {
		t.Fatalf("seq %d outbox %+v", g.Seq, g.Outbox)
	}
}

func TestSnapshotOfAnotherLayoutIsIgnoredNotFatal(t *testing.T) {
	st, _ := store.Open(filepath.Join(t.TempDir(), "x.db"), store.Options{})
	defer st.Close()
	reg := raceRegistry()
	play.Create(st, reg, play.NewGame{ID: "g1", Ruleset: "race", Scenario: []byte("target 5"), Players: racePlayers})
	st.PutSnapshot("g1", 1, []byte{99, 1, 2, 3}) // a layout from some other version of pbem
	g, err := play.Load(st, reg, "g1", 0)
	if err != nil || g.Seq != 1 || g.Created == nil {
		t.Fatalf("load with a foreign snapshot: %v %+v", err, g)
	}
}

// The outbox lists the mails queued and not yet sent, whatever order they
// are sent in, and a copy of a game taken earlier keeps the outbox it had
// (the fold cuts sent mails from the front and appends past the end).
func TestOutboxDropsSentMailsInAnyOrderAndEarlierCopiesKeepTheirs(t *testing.T) {
	st, _ := store.Open(filepath.Join(t.TempDir(), "x.db"), store.Options{})
	defer st.Close()
	reg := raceRegistry()
	welcome := func(g *play.Game) ([]events.Payload, error) {
		var out []events.Payload
		for _, id := range []string{"<w.1>", "<w.2>", "<w.3>"} {
			out = append(out, &events.MailQueued{MailID: id, To: []string{"anna@example.org"}, Template: "welcome", Body: "hello"})
		}
		return out, nil
	}
	if _, err := play.Create(st, reg, play.NewGame{ID: "g1", Ruleset: "race", Scenario: []byte("target 5"), Players: racePlayers, Welcome: welcome}); err != nil {
		t.Fatal(err)
	}
	later := []events.Payload{
		&events.MailSent{MailID: "<w.2>", Attempt: 1},
		&events.MailSent{MailID: "<w.1>", Attempt: 1},
		&events.MailQueued{MailID: "<w.4>", To: []string{"anna@example.org"}, Template: "board", Body: "a board"},
		&events.MailSent{MailID: "<w.3>", Attempt: 1},
		&events.MailQueued{MailID: "<w.5>", To: []string{"anna@example.org"}, Template: "board", Body: "a board"},
	}
	for _, p := range later {
		h, _ := st.Head("g1")
		if _, err := st.Append("g1", h.Seq, events.New("g1", time.Unix(1_800_000_000, 0), "", p)); err != nil {
			t.Fatal(err)
		}
	}
	ids := func(g *play.Game) string {
		var s []string
		for _, m := range g.Outbox {
			s = append(s, m.MailID)
		}
		return strings.Join(s, " ")
	}
	g, err := play.Replay(st, reg, "g1", 4)
	if err != nil {
		t.Fatal(err)
	}
	copies := []play.Game{*g}
	want := []string{"<w.1> <w.2> <w.3>", "<w.1> <w.3>", "<w.3>", "<w.3> <w.4>", "<w.4>", "<w.4> <w.5>"}
	evs, err := st.Events("g1", 5)
	if err != nil {
		t.Fatal(err)
	}
	for i := range evs {
		if err := g.Apply(reg, &evs[i]); err != nil {
			t.Fatal(err)
		}
		if got := ids(g); got != want[i+1] {
			t.Fatalf("after seq %d the outbox is %q, want %q", evs[i].Seq, got, want[i+1])
		}
		copies = append(copies, *g)
	}
	for i := range copies {
		if got := ids(&copies[i]); got != want[i] {
			t.Fatalf("a copy taken at seq %d now has outbox %q, it had %q", 4+i, got, want[i])
		}
	}
}

// Games of the same ruleset, scenario and players share one initial state;
// any difference (or a caller reusing its scenario's memory) gets its own.
func TestSetupSharesAnInitialStateOnlyForTheSameScenarioAndPlayers(t *testing.T) {
	reg := raceRegistry()
	rs, err := reg.Get("race")
	if err != nil {
		t.Fatal(err)
	}
	setup := func(scenario []byte, players []events.Player) *raceState {
		t.Helper()
		st, err := reg.Setup(rs, scenario, players)
		if err != nil {
			t.Fatal(err)
		}
		return st.(*raceState)
	}
	buf := []byte("target 5")
	first := setup(buf, racePlayers)
	if again := setup([]byte("target 5"), racePlayers); again != first {
		t.Fatal("the same scenario and players were set up twice, not shared")
	}
	copy(buf, "target 7") // the caller's memory, reused
	if st := setup(buf, racePlayers); st == first || st.Target != 7 {
		t.Fatalf("scenario 'target 7' gave target %d (shared: %v)", st.Target, st == first)
	}
	swapped := []events.Player{racePlayers[1], racePlayers[0]}
	if st := setup([]byte("target 5"), swapped); st == first || st.Sides[0] != "CSA" {
		t.Fatalf("other players got sides %v (shared: %v)", st.Sides, st == first)
	}
	if setup([]byte("target 5"), racePlayers) != first {
		t.Fatal("the first setup is no longer shared")
	}
}

// Games of one scenario, whether replayed or loaded from a snapshot, keep
// its bytes once between them, not once each: a server holding thousands
// of games holds each scenario once.
func TestGamesOfOneScenarioShareItsBytes(t *testing.T) {
	st, _ := store.Open(filepath.Join(t.TempDir(), "x.db"), store.Options{})
	defer st.Close()
	reg := raceRegistry()
	for id, scn := range map[string]string{"g1": "target 5", "g2": "target 5", "g3": "target 6"} {
		if _, err := play.Create(st, reg, play.NewGame{ID: id, Ruleset: "race", Scenario: []byte(scn), Players: racePlayers}); err != nil {
			t.Fatal(err)
		}
	}
	load := func(id string) *play.Game {
		t.Helper()
		g, err := play.Replay(st, reg, id, 0)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	g1, g2, g3 := load("g1"), load("g2"), load("g3")
	snap, err := g2.MarshalSnapshot()
	if err != nil {
		t.Fatal(err)
	}
	fromSnap, err := play.UnmarshalSnapshot(reg, snap)
	if err != nil {
		t.Fatal(err)
	}
	same := func(a, b *play.Game) bool { return &a.Created.Scenario[0] == &b.Created.Scenario[0] }
	if !same(g1, g2) || !same(g1, fromSnap) || string(fromSnap.Created.Scenario) != "target 5" {
		t.Fatalf("games of one scenario hold copies of it: %v %v", same(g1, g2), same(g1, fromSnap))
	}
	if same(g1, g3) || string(g3.Created.Scenario) != "target 6" {
		t.Fatalf("another scenario shares the first's bytes: %q", g3.Created.Scenario)
	}
}

// raceWithHands is the reference game with its secrets: hands dealt with
// hidden dice, and sealed bids.
func raceWithHands() enginetest.Script {
	return enginetest.Script{
		Name: "race with hands", Ruleset: "race", ScenarioName: "hands", Scenario: []byte("target 30\nhand 3"), Players: racePlayers,
		Orders: enginetest.Orders(
			"north", "DEAL",
			"north", "ADD 1", "south", "ADD 2",
			"north", "BID HIGH", "north", "BID LOW", "south", "BID LOW", // USA changes its mind before the bids open
			"north", "ROLL", "south", "ROLL",
			"south", "BID HIGH", "north", "STATUS", "north", "BID HIGH",
			"north", "ADD 3", "south", "ADD 3",
			"north", "BID LOW", "south", "BID LOW",
		),
		Secrets: []enginetest.Secret{
			{Name: "another first bid", Side: "USA", Orders: map[int]string{4: "BID HIGH"}},
			{Name: "another second bid", Side: "CSA", Orders: map[int]string{8: "BID LOW"}},
		},
	}
}

// The reference game with hidden hands and sealed bids passes the
// acceptance suite, its leak test included.
func TestAcceptanceSuiteWithHiddenHandsAndSealedBids(t *testing.T) {
	t.Parallel()
	p := enginetest.Run(t, raceRegistry(), composetest.New(t), raceWithHands())[0]
	st := p.Game.State.(*raceState)
	if st.Round != 3 || len(st.Hands["USA"]) != 0 || len(st.Hands["CSA"]) != 0 {
		t.Fatalf("after three rounds of bids: %+v", st)
	}
}

// The intake's records of held, confirmed and refused mails fold
// without changing the game; a confirmed order is an ordinary input.
func TestIntakeRecordsFoldAsNoChange(t *testing.T) {
	st, _ := store.Open(filepath.Join(t.TempDir(), "x.db"), store.Options{})
	defer st.Close()
	reg := raceRegistry()
	at := time.Unix(1_800_000_000, 0)
	if _, err := play.Create(st, reg, play.NewGame{ID: "g1", Ruleset: "race", Scenario: []byte("target 5"), Players: racePlayers, At: at}); err != nil {
		t.Fatal(err)
	}
	before, err := play.Replay(st, reg, "g1", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []events.Payload{
		&events.OrderHeld{Player: racePlayers[0].ID, Text: "PASS", MessageID: "<h@x>", Expires: at.Add(time.Hour).UnixNano()},
		&events.MailRefused{Player: racePlayers[0].ID, MessageID: "<r@x>", Kind: events.RefusedReplay},
		&events.OrderConfirmed{Player: racePlayers[0].ID, Held: 2, MessageID: "<c@x>"},
	} {
		h, _ := st.Head("g1")
		if _, err := st.Append("g1", h.Seq, events.New("g1", at, "", p)); err != nil {
			t.Fatal(err)
		}
	}
	g, err := play.Replay(st, reg, "g1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Pending) != 0 || len(g.Outbox) != len(before.Outbox) || g.Seq != before.Seq+3 {
		t.Fatalf("after the intake records: %d pending, outbox %d (was %d), seq %d", len(g.Pending), len(g.Outbox), len(before.Outbox), g.Seq)
	}
}
