package play_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
	"pbem/internal/waitfor"
)

// seen is what a viewer may see of a decision, as text: its echo, facts
// and dice.
func seen(g *play.Game, v engine.Viewer, d *events.OrderAccepted) string {
	c := g.Sight(v).After(d, false).Decision(d)
	var b strings.Builder
	for _, e := range c.Echo {
		b.WriteString(e + "\n")
	}
	for _, f := range c.Facts {
		b.WriteString(f.String() + "\n")
	}
	for _, x := range c.Dice {
		b.WriteString(x.String() + "\n")
	}
	return b.String()
}

var (
	usa = engine.Viewer{Player: "north", Side: "USA"}
	csa = engine.Viewer{Player: "south", Side: "CSA"}
	ref = engine.Viewer{Player: "ref", Referee: true}
)

// The race with hands: the deal is seen by each side for its own hand
// only (and its dice by no player); a bid is sealed until both sides have
// bid, can be replaced until then, and opens with the other's when the
// last comes; the side that has bid is no longer asked, nor given a
// deadline.
func TestSealedBidsOpenTogether(t *testing.T) {
	tb := newTableOf(t, "target 40\nhand 3", events.Setting{Key: play.SettingDeadline, Value: "2d"})
	deal := accepted(t, tb.send("north", "DEAL"))
	g := tb.game()
	for _, f := range deal.Facts {
		if f.Kind == "hand.dealt" && f.Vis != events.ToSide(f.Str("side")) {
			t.Fatalf("a hand dealt as %v", f.Vis)
		}
	}
	if u, c := seen(g, usa, deal), seen(g, csa, deal); !strings.Contains(u, "hand.dealt side=USA") || strings.Contains(u, "CSA") ||
		!strings.Contains(c, "hand.dealt side=CSA") || strings.Contains(c, "USA") {
		t.Fatalf("the deal as USA sees it:\n%s\nas CSA:\n%s", u, c)
	}
	if r := seen(g, ref, deal); !strings.Contains(r, "deck.left side=CSA") || !strings.Contains(r, "shuffle USA's deck") {
		t.Fatalf("the referee sees:\n%s", r)
	}
	accepted(t, tb.send("north", "ADD 1"))
	opened := accepted(t, tb.send("south", "ADD 1"))
	if !slices.ContainsFunc(opened.Facts, func(f events.Fact) bool { return f.Kind == "bids.opened" }) {
		t.Fatalf("no bids opened: %v", opened.Facts)
	}

	first := accepted(t, tb.send("north", "BID LOW"))
	g = tb.game()
	if c := seen(g, csa, first); strings.Contains(c, "BID") || strings.Contains(c, "pbem.sealed ") || !strings.Contains(c, "pbem.sealed.arrived") {
		t.Fatalf("CSA sees USA's sealed bid:\n%s", c)
	}
	if u := seen(g, usa, first); !strings.Contains(u, "BID LOW") || !strings.Contains(u, "pbem.sealed ") {
		t.Fatalf("USA does not see its own sealed bid:\n%s", u)
	}
	if len(g.Sealed) != 1 || g.Sealed[0].Side != "USA" {
		t.Fatalf("sealed: %+v", g.Sealed)
	}
	for _, p := range g.Prompts(g.State, nil) {
		if p.Side == "USA" {
			t.Fatalf("USA has bid and is still asked: %+v", p)
		}
	}
	if _, has := g.Deadline("north"); has {
		t.Fatal("USA has bid and still has a deadline")
	}
	if _, has := g.Deadline("south"); !has {
		t.Fatal("CSA must bid and has no deadline")
	}
	// A bad bid is refused at once, to the sender alone; a new one
	// replaces the old.
	rejected(t, tb.send("north", "BID 10"), "you hold no card 10")
	again := accepted(t, tb.send("north", "BID HIGH"))
	if !slices.ContainsFunc(again.Facts, func(f events.Fact) bool { return f.Kind == play.FactArrived && f.Bool("replaced") }) {
		t.Fatalf("a second bid does not say it replaces the first: %v", again.Facts)
	}
	if g = tb.game(); len(g.Sealed) != 1 || g.Sealed[0].Text != "BID HIGH" {
		t.Fatalf("sealed after a second bid: %+v", g.Sealed)
	}

	last := accepted(t, tb.send("south", "BID HIGH"))
	g = tb.game()
	var kinds []string
	for _, f := range last.Facts {
		kinds = append(kinds, f.Kind)
	}
	want := []string{play.FactSealed, play.FactArrived, play.FactReveal, "card.bid", "card.bid", "bids.resolved"}
	if len(kinds) < len(want) || !slices.Equal(kinds[:len(want)], want) {
		t.Fatalf("the last bid decides: %v", kinds)
	}
	// Opened: each side sees both bids now, USA's sealed text included.
	for _, v := range []engine.Viewer{usa, csa} {
		s := seen(g, v, last)
		if !strings.Contains(s, "card.bid side=USA") || !strings.Contains(s, "card.bid side=CSA") {
			t.Fatalf("%+v after the reveal sees:\n%s", v, s)
		}
		if !g.Sight(v).Sees(first.Facts[0].Vis) {
			t.Fatalf("%+v cannot see USA's first sealed bid once opened", v)
		}
	}
	if len(g.Sealed) != 0 || len(g.Revealed) != 1 {
		t.Fatalf("after the reveal: sealed %+v, revealed %v", g.Sealed, g.Revealed)
	}
	st := g.State.(*raceState)
	if st.Bidding || len(st.Hands["USA"]) != 2 || len(st.Hands["CSA"]) != 2 {
		t.Fatalf("after the bids: %+v", st)
	}
}

// A rollback brings back the orders sealed by then, still sealed, and
// their step keeps the name of its reveal.
func TestRollbackKeepsTheSealedOrdersOfThen(t *testing.T) {
	tb := newTableOf(t, "target 40\nhand 3")
	accepted(t, tb.send("north", "DEAL"))
	accepted(t, tb.send("north", "ADD 1"))
	accepted(t, tb.send("south", "ADD 1"))
	accepted(t, tb.send("north", "BID LOW"))
	h, _ := tb.st.Head("g1")
	accepted(t, tb.send("north", "BID HIGH")) // replaced, then rolled back
	accepted(t, tb.send("ref", "ANNOUNCE a note"))
	accepted(t, tb.send("ref", "ROLLBACK TO "+strconv.FormatUint(h.Seq, 10)))
	g := tb.game()
	if len(g.Sealed) != 1 || g.Sealed[0].Text != "BID LOW" || g.Sealed[0].Side != "USA" {
		t.Fatalf("after the rollback: %+v", g.Sealed)
	}
	if c := g.Sight(csa); c.Sees(events.ToSide("USA").UntilReveal(g.Sealed[0].Reveal)) {
		t.Fatal("CSA sees USA's bid after the rollback")
	}
}

// A side that has not chosen by its deadline has the game's at-deadline
// order sealed for it, and the step opens (the NMR policy).
func TestASealedStepOpensAtTheDeadlineWithTheDefault(t *testing.T) {
	tb := newTableOf(t, "target 40\nhand 3", events.Setting{Key: play.SettingDeadline, Value: "1d"},
		events.Setting{Key: play.SettingAtDeadline, Value: "BID LOW"})
	accepted(t, tb.send("north", "DEAL"))
	accepted(t, tb.send("north", "ADD 1"))
	accepted(t, tb.send("south", "ADD 1"))
	accepted(t, tb.send("north", "BID HIGH"))
	d, ok := tb.game().Deadline("south")
	if !ok {
		t.Fatal("CSA has no deadline to bid")
	}
	tb.r.Tick(time.Unix(0, d.Due).Add(time.Minute))
	var g *play.Game
	if !waitfor.True(10*time.Second, func() bool {
		tb.idle()
		g = tb.game()
		return len(g.Revealed) == 1
	}) {
		t.Fatalf("the step did not open at the deadline: sealed %+v", g.Sealed)
	}
	if st := g.State.(*raceState); st.Bidding || len(st.Hands["CSA"]) != 2 {
		t.Fatalf("after the default bid: %+v", st)
	}
}
