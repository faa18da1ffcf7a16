package play_test

import (
	"path/filepath"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"pbem/engine"
	"pbem/engine/enginetest"
	"pbem/engine/play"
	"pbem/events"
)

// countedPrompts is the reference rule system (race) under another name,
// counting the states it is asked to prompt: a prompt's examples try
// orders against the rules, the better part of a decision's cost.
type countedPrompts struct {
	engine.Ruleset
	asked *atomic.Int64
}

func (c countedPrompts) Name() string { return "counted" }

func (c countedPrompts) Prompt(s engine.State) []engine.Prompt {
	c.asked.Add(1)
	return c.Ruleset.Prompt(s)
}

// countedGame is a game "g" of countedPrompts on a runner, with north's
// ADD 2 taken; asked counts the prompts asked of its rules.
func countedGame(t *testing.T) (*house, *engine.Registry, *atomic.Int64) {
	t.Helper()
	asked := new(atomic.Int64)
	reg := engine.NewRegistry(func() engine.Ruleset { return countedPrompts{enginetest.Race(), asked} })
	h := openHouse(t, filepath.Join(t.TempDir(), "pbem.db"), reg, play.RunnerOptions{})
	h.create("g", "counted")
	if d, _ := h.send("g", "north", "ADD 2"); d.EventType() != events.TypeOrderAccepted {
		t.Fatalf("ADD 2: %s", play.DescribeDecision(d))
	}
	return h, reg, asked
}

// A state's prompts are asked of the rules once, however many inputs
// arrive and are answered while it stands (a STATUS, a LOG), whether the
// runner is handed them or finds them in the log, and asked again once
// an order changes the state.
func TestPromptsOfAStateAreAskedOnceWhileItStands(t *testing.T) {
	h, _, asked := countedGame(t)
	before := asked.Load()
	// A query the runner is not handed but finds in the log, as when mail
	// arrives while it decides: it folds the log's events it has not seen.
	h.at = h.at.Add(time.Hour)
	head, err := h.st.Head("g")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.st.Append("g", head.Seq, events.New("g", h.at, "", &events.OrderReceived{Player: "south", Text: "STATUS", MessageID: "quiet@mail.example.jp", Source: "mail"})); err != nil {
		t.Fatal(err)
	}
	for _, word := range []string{"STATUS", "LOG", "STATUS"} {
		d, mails := h.send("g", "north", word)
		if d.EventType() != events.TypeOrderAccepted || len(mails) == 0 {
			t.Fatalf("%s: %s, %d mails", word, play.DescribeDecision(d), len(mails))
		}
	}
	if n := asked.Load() - before; n != 0 {
		t.Errorf("four queries on a state already prompted asked the rules for its prompts %d more times, want none", n)
	}
	before = asked.Load()
	if d, _ := h.send("g", "south", "ADD 1"); d.EventType() != events.TypeOrderAccepted {
		t.Fatalf("ADD 1: %s", play.DescribeDecision(d))
	}
	if asked.Load() == before {
		t.Error("an order that changed the state did not ask the rules for the new state's prompts")
	}
}

// A fold of what the log holds past a game (the runner catching up on
// mail that arrived while it decided) keeps what was asked of the state
// it leaves as it was: a query's decision changes nothing, and the
// state's prompts are not asked again; a fold through an order that
// changes the state asks for the new state's.
func TestPromptsOfAStateHoldThroughAFoldThatLeavesIt(t *testing.T) {
	h, reg, asked := countedGame(t)
	g, err := play.Load(h.st, reg, "g", 0)
	if err != nil {
		t.Fatal(err)
	}
	want := g.Prompts(g.State, nil)
	for _, o := range []struct{ who, text string }{{"south", "STATUS"}, {"south", "ADD 1"}} {
		if d, _ := h.send("g", o.who, o.text); d.EventType() != events.TypeOrderAccepted {
			t.Fatalf("%s: %s", o.text, play.DescribeDecision(d))
		}
	}
	// Only this game asks from here on.
	h.r.Close()
	evs, err := h.st.Events("g", g.Seq+1)
	if err != nil {
		t.Fatal(err)
	}
	var add uint64 // the seq of ADD 1, the order after the query
	for i := range evs {
		if p, err := events.Decode(&evs[i]); err == nil {
			if o, ok := p.(*events.OrderReceived); ok && o.Text == "ADD 1" {
				add = evs[i].Seq
			}
		}
	}
	if add == 0 {
		t.Fatal("ADD 1 is not in the log")
	}

	before := asked.Load()
	if err := play.FoldTo(h.st, reg, g, add-1); err != nil {
		t.Fatal(err)
	}
	if got := g.Prompts(g.State, nil); !reflect.DeepEqual(got, want) {
		t.Fatalf("after the query the game prompts %v, want %v as before", got, want)
	}
	if n := asked.Load() - before; n != 0 {
		t.Errorf("folding a query's decision asked the rules for the unchanged state's prompts %d times, want none", n)
	}
	if err := play.FoldTo(h.st, reg, g, 0); err != nil {
		t.Fatal(err)
	}
	g.Prompts(g.State, nil)
	if asked.Load() == before {
		t.Error("folding an order that changed the state did not ask the rules for the new state's prompts")
	}
}
