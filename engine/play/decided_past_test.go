package play_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
	"pbem/internal/waitfor"
	"pbem/store"
)

// seqMails mails each decision's player one report whose Message-ID
// names the seq it was composed for, as pbem's composer does: the
// decision at g.Seq+1, its mail at g.Seq+2.
type seqMails struct{}

func (seqMails) Mails(g *play.Game, _ engine.State, _ *events.Envelope, _ events.Payload, _ *events.GameEnded) ([]events.Payload, error) {
	return []events.Payload{&events.MailQueued{MailID: fmt.Sprintf("<%s.%d@test>", g.ID, g.Seq+2), To: []string{"anna@example.org"}, Template: "report", Body: "decided"}}, nil
}

// racingLog is the store with the intake racing the engine: just before
// the engine's first append of a lone decision, and its first of several
// decisions at once, an order held (an event that changes no game, as a
// mail sent does) lands at the head of the game.
type racingLog struct {
	*store.Store
	mu    sync.Mutex
	raced map[bool]bool // by whether the append holds several decisions
	held  []uint64      // the seqs the held orders landed at
}

func (l *racingLog) Do(r store.Request) (store.Result, error) {
	decisions := 0
	for i := range r.Events {
		if events.IsAccepted(r.Events[i].Type) {
			decisions++
		}
	}
	l.mu.Lock()
	race := decisions > 0 && !l.raced[decisions > 1]
	if race {
		l.raced[decisions > 1] = true
	}
	l.mu.Unlock()
	if race {
		held := events.New(r.Game, start, "", &events.OrderHeld{Player: "south", Text: "ADD 1", Reason: "sent from another address"})
		res, err := l.Store.Do(store.Request{Game: r.Game, AtHead: true, Events: []events.Envelope{held}})
		if err != nil {
			return res, err
		}
		l.mu.Lock()
		l.held = append(l.held, res.First)
		l.mu.Unlock()
	}
	return l.Store.Do(r)
}

// mailSeqs returns, for each mail queued in g1's log, the seq its
// Message-ID names and the seq it is stored at.
func mailSeqs(t *testing.T, st *store.Store) (named, stored []uint64) {
	t.Helper()
	es, err := st.Events("g1", 1)
	if err != nil {
		t.Fatal(err)
	}
	for i := range es {
		if es[i].Type != events.TypeMailQueued {
			continue
		}
		id, err := events.PeekMailID(&es[i])
		if err != nil {
			t.Fatal(err)
		}
		n, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimPrefix(id, "<g1."), "@test>"), 10, 64)
		if err != nil {
			continue // a mail of the game's creation
		}
		named, stored = append(named, n), append(stored, es[i].Seq)
	}
	return named, stored
}

// Decisions the engine made while the intake or the outbox wrote to the
// game. Several decided at once were each decided on the game with the
// earlier ones at the seqs they were chained at (and may name them: a
// ROLLBACK 2 ACTIONS, the actions since a mail), so they are stored
// exactly there: the engine decides them again behind what landed, and
// every mail is stored at the seq its Message-ID names. A lone decision
// reads nothing that landed (store.Request.Past) and is stored behind it
// as it is, its mail one seq later than its Message-ID names (a reply to
// it is found by the id: see the intake).
func TestDecisionsLandWhereTheirMailsSayWhenTheLogMovedMeanwhile(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "pbem.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	reg := raceRegistry()
	created, err := play.Create(st, reg, play.NewGame{ID: "g1", Ruleset: "race", Scenario: []byte("target 40"), Players: racePlayers, At: start})
	if err != nil {
		t.Fatal(err)
	}
	// Two orders wait when the engine first loads the game: decided at once.
	var ins []events.Envelope
	for i, who := range []string{"north", "south"} {
		ins = append(ins, events.New("g1", start.Add(time.Duration(i+1)*time.Hour), fmt.Sprintf("<m%d@test>", i+1), &events.OrderReceived{Player: who, Text: "ADD 1", MessageID: fmt.Sprintf("<m%d@test>", i+1), Source: "test"}))
	}
	if _, err := st.Do(store.Request{Game: "g1", AtHead: true, Events: ins}); err != nil {
		t.Fatal(err)
	}
	log := &racingLog{Store: st, raced: map[bool]bool{}}
	r := play.NewRunner(log, reg, play.RunnerOptions{Notifier: seqMails{}})
	defer r.Close()
	r.Deliver(&created)
	settled := func(decisions int) {
		t.Helper()
		waitfor.Until(t, 10*time.Second, fmt.Sprintf("%d decisions", decisions), func() bool {
			h, _ := st.Head("g1")
			var seq uint64
			var pending, total int
			r.Query(context.Background(), "g1", func(g *play.Game) { seq, pending, total = g.Seq, len(g.Pending), len(g.Recent) })
			return seq == h.Seq && pending == 0 && total == decisions
		})
	}
	settled(2)
	named, stored := mailSeqs(t, st)
	if len(named) != 2 || named[0] != stored[0] || named[1] != stored[1] {
		t.Fatalf("two decisions made at once, the log moved meanwhile: mails name seqs %v, stored at %v", named, stored)
	}
	if len(log.held) != 1 || log.held[0] >= stored[0] {
		t.Fatalf("the order held landed at %v; the mails at %v", log.held, stored)
	}

	// One order alone: stored behind the order held that landed meanwhile.
	in := events.New("g1", start.Add(3*time.Hour), "<m3@test>", &events.OrderReceived{Player: "north", Text: "ADD 1", MessageID: "<m3@test>", Source: "test"})
	res, err := st.Do(store.Request{Game: "g1", AtHead: true, Events: []events.Envelope{in}})
	if err != nil {
		t.Fatal(err)
	}
	r.Deliver(&res.Events[0])
	settled(3)
	named, stored = mailSeqs(t, st)
	if len(named) != 3 || len(log.held) != 2 || log.held[1] != res.First+1 || stored[2] != res.First+3 || named[2] != res.First+2 {
		t.Fatalf("a lone decision, the log moved meanwhile: order held at %v, mails name %v, stored at %v (input at %d)", log.held, named, stored, res.First)
	}
	// The game the engine holds is the game the log holds.
	g, err := play.Load(st, reg, "g1", 0)
	if err != nil {
		t.Fatal(err)
	}
	var hash events.Hash
	r.Query(context.Background(), "g1", func(rg *play.Game) { hash = rg.Hash })
	if g.Hash != hash || len(g.Recent) != 3 {
		t.Fatalf("the engine's game differs from the log's (%d actions)", len(g.Recent))
	}
}
