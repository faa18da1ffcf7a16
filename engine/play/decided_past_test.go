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
// each append of the engine's decisions, an order held (an event that
// changes no game, as a mail sent does) lands at the head of the game.
type racingLog struct {
	*store.Store
	mu   sync.Mutex
	held []uint64 // the seqs the held orders landed at
}

func (l *racingLog) Do(r store.Request) (store.Result, error) {
	decisions := false
	for i := range r.Events {
		decisions = decisions || events.IsAccepted(r.Events[i].Type) || r.Events[i].Type == events.TypeOrderRejected
	}
	if decisions {
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
// game: none reads what landed meanwhile, so each is stored behind it as
// it was decided (store.Request.Past), its mails a seq or more later than
// their Message-IDs name (a reply finds its mail by the id: see the
// intake). Orders waiting together are decided together; a referee's
// command never is, since what it says names seqs (here, the actions
// accepted since the mail it answers), which must be the seqs the log
// keeps.
func TestDecisionsMadeWhileTheLogMovesNameTheSeqsTheLogKeeps(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "pbem.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	reg := raceRegistry()
	created, err := play.Create(st, reg, play.NewGame{ID: "g1", Ruleset: "race", Scenario: []byte("target 40"), Players: racePlayers, Referees: raceReferee, At: start})
	if err != nil {
		t.Fatal(err)
	}
	// Two orders and a referee's relative ruling (in answer to the mail
	// at seq 1) wait when the engine first loads the game.
	var ins []events.Envelope
	for i, p := range []events.Payload{
		&events.OrderReceived{Player: "north", Text: "ADD 1", MessageID: "<m1@test>", Source: "test"},
		&events.OrderReceived{Player: "south", Text: "ADD 1", MessageID: "<m2@test>", Source: "test"},
		&events.RefereeCommand{Referee: "ref", Text: "ROLLBACK 1 ACTIONS", Reason: "a slip", MessageID: "<m3@test>", Source: "test", Seen: 1},
	} {
		ins = append(ins, events.New("g1", start.Add(time.Duration(i+1)*time.Hour), fmt.Sprintf("<m%d@test>", i+1), p))
	}
	in, err := st.Do(store.Request{Game: "g1", AtHead: true, Events: ins})
	if err != nil {
		t.Fatal(err)
	}
	log := &racingLog{Store: st}
	r := play.NewRunner(log, reg, play.RunnerOptions{Notifier: seqMails{}})
	defer r.Close()
	r.Deliver(&created)
	waitfor.Until(t, 10*time.Second, "every input decided", func() bool {
		h, _ := st.Head("g1")
		var seq uint64
		var pending int
		r.Query(context.Background(), "g1", func(g *play.Game) { seq, pending = g.Seq, len(g.Pending) })
		return seq == h.Seq && pending == 0
	})
	log.mu.Lock()
	held := log.held
	log.mu.Unlock()

	// The orders: one append, behind the first order held; their mails
	// name the seqs they were composed for, one less than where they are.
	named, stored := mailSeqs(t, st)
	if len(named) != 3 || len(held) != 2 || held[0] != in.Last+1 || stored[0] != in.Last+3 || stored[1] != in.Last+5 ||
		named[0] != stored[0]-1 || named[1] != stored[1]-1 {
		t.Fatalf("orders held at %v; mails name seqs %v, stored at %v (inputs up to %d)", held, named, stored, in.Last)
	}
	north, south := in.Last+2, in.Last+4 // where the orders' decisions are
	// The ruling: an append of its own, behind the second; refused,
	// naming the seqs the log holds the two actions at.
	if held[1] != in.Last+6 || stored[2] != in.Last+8 {
		t.Fatalf("the ruling's append: order held at %d, its mail at %d, want %d and %d", held[1], stored[2], in.Last+6, in.Last+8)
	}
	es, err := st.Events("g1", in.Last+7)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := events.Decode(&es[0])
	want := fmt.Sprintf("2 actions were accepted (seqs %d, %d)", north, south)
	if rej, ok := p.(*events.OrderRejected); !ok || rej.Input != in.Last || len(rej.Problems) == 0 || !strings.Contains(rej.Problems[0].Msg, want) {
		t.Fatalf("the ruling's decision at seq %d: %+v, want it refused with %q", in.Last+7, p, want)
	}
	// The game the engine holds is the game the log holds.
	g, err := play.Load(st, reg, "g1", 0)
	if err != nil {
		t.Fatal(err)
	}
	var hash events.Hash
	r.Query(context.Background(), "g1", func(rg *play.Game) { hash = rg.Hash })
	if g.Hash != hash || len(g.Recent) != 2 || g.Recent[0] != north || g.Recent[1] != south {
		t.Fatalf("the engine's game differs from the log's, or its actions are not at %d and %d: %v", north, south, g.Recent)
	}
}
