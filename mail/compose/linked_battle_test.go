package compose_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pbem/engine"
	"pbem/engine/gcacw"
	"pbem/engine/hra"
	"pbem/engine/play"
	"pbem/events"
	"pbem/internal/waitfor"
	"pbem/store"
)

// A battle fought out for a campaign says, in every mail, which campaign
// and which assault it belongs to; a game that is no battle says nothing
// of the kind.
func TestLinkedBattleMailsNameTheirCampaignAndAssault(t *testing.T) {
	s, _ := deskServer(t, events.Setting{Key: play.SettingParent, Value: "camp t1-a1-0504"}, events.Setting{Key: play.SettingParentWhat, Value: "the assault on 0504"})
	welcome := mailsIn(t, mustEvents(t, s.st, 1))
	wantIn(t, bodyTo(t, welcome, "anna@example.org").Body, "This game is the assault on 0504 (battle t1-a1-0504) of campaign camp, fought out as a battle; its result goes back to the campaign when it ends.")
	ms := s.input(&events.OrderReceived{Player: "north", Text: "ADD 2"})
	wantIn(t, bodyTo(t, ms, "taro@example.jp").Body, "of campaign camp, fought out as a battle")

	plain, _ := deskServer(t)
	if b := bodyTo(t, mailsIn(t, mustEvents(t, plain.st, 1)), "anna@example.org").Body; strings.Contains(b, "campaign") {
		t.Errorf("a game that is no battle names a campaign:\n%s", b)
	}
}

// linkedCampaign is a GCACW campaign whose assaults are fought out in
// Hair Roller Armies' Kettle Run, its forces mapped (a house rule).
const linkedCampaign = `scenario Linked
game SSR
turns 2
[map]
hexes 0101 1010
default clear
[units]
USA A "Able" inf XX str=6 tac=3 art=2 at=0505
CSA Y "Yoke" inf XX str=6 tac=2 art=1 at=0504
[leaders]
[battles]
# SAMPLE: a house rule
battle  default  hra  kettle-run  USA=Union  CSA=Confederate
force   A  "Iron Brigade"
force   Y  "Stonewall Brigade"
result  winner=attacker  D2/Dr
result  winner=defender  A2
result  winner=draw      A1/D1
`

// The observers a battle gets from its campaign are welcomed to it with
// the players: the welcome as someone who plays no side sees it (no key,
// no referee's secret, no orders to write), with the forces the campaign
// set it up with, named as a house rule; and the creation's own command
// that makes them observers sends them no second first mail.
func TestLinkedBattleWelcomesTheCampaignsObservers(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "pbem.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	c := newComposer(t)
	reg := engine.NewRegistry(gcacw.New, hra.New)
	r := play.NewRunner(st, reg, play.RunnerOptions{Notifier: c, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Links: &play.Links{Scenario: func(_, name string) ([]byte, error) { return hra.Scenario(name) }, Welcome: c.Welcome}})
	t.Cleanup(r.Close)
	players := []events.Player{{ID: "anna", Name: "Anna", Side: gcacw.USA, Addresses: []string{"anna@example.org"}},
		{ID: "taro", Name: "Taro", Side: gcacw.CSA, Addresses: []string{"taro@example.jp"}}}
	created, err := play.Create(st, reg, play.NewGame{ID: "camp", Ruleset: "gcacw", ScenarioName: "linked", Scenario: []byte(linkedCampaign),
		Players: players, Referees: []events.Player{{ID: "carol", Name: "Carol", Addresses: []string{"carol@example.net"}}}, At: start, Welcome: c.Welcome})
	if err != nil {
		t.Fatal(err)
	}
	r.Deliver(&created)
	at := start
	n := 0
	settle := func(game string) {
		t.Helper()
		if waitfor.True(30*time.Second, func() bool {
			h, _ := st.Head(game)
			var seq uint64
			pending := -1
			_ = r.Query(context.Background(), game, func(g *play.Game) { seq, pending = g.Seq, len(g.Pending) })
			return h.Seq > 0 && seq == h.Seq && pending == 0
		}) {
			return
		}
		t.Fatalf("%s did not settle", game)
	}
	in := func(game string, p events.Payload) {
		t.Helper()
		n++
		at = at.Add(time.Hour)
		h, _ := st.Head(game)
		res, err := st.Append(game, h.Seq, events.New(game, at, fmt.Sprintf("in-%d", n), p))
		if err != nil {
			t.Fatal(err)
		}
		r.Deliver(&res.Events[0])
		settle(game)
	}
	in("camp", &events.RefereeCommand{Referee: play.OperatorID, Text: "OBSERVER ADD kim@example.org", MessageID: "obs", Source: "test"})
	in("camp", &events.OrderReceived{Player: "anna", Text: "PASS", MessageID: "p1"})
	in("camp", &events.OrderReceived{Player: "taro", Text: "PASS", MessageID: "p2"})
	g, err := play.Load(st, reg, "camp", 0)
	if err != nil {
		t.Fatal(err)
	}
	if ps := g.Rules.Prompt(g.State); len(ps) == 1 && ps[0].Side == gcacw.USA {
		in("camp", &events.OrderReceived{Player: "anna", Text: "ASSAULT Able ON 0504", MessageID: "a"})
	} else {
		in("camp", &events.OrderReceived{Player: "taro", Text: "ASSAULT Yoke ON 0505", MessageID: "a"})
	}
	g, err = play.Load(st, reg, "camp", 0)
	if err != nil {
		t.Fatal(err)
	}
	bs := play.Battles(g)
	if len(bs) != 1 {
		t.Fatalf("battles: %+v", bs)
	}
	id := play.BattleID(g, bs[0])
	settle(id)
	evs, err := st.Events(id, 1)
	if err != nil {
		t.Fatal(err)
	}
	var welcome, later []*events.MailQueued
	for _, m := range mailsIn(t, evs) {
		if m.m.To[0] != "kim@example.org" {
			continue
		}
		if strings.HasPrefix(m.m.Body, "Welcome: you observe\n") {
			welcome = append(welcome, m.m)
		} else {
			later = append(later, m.m)
		}
	}
	if len(welcome) != 1 {
		t.Fatalf("welcomes to the observer: %d, want 1", len(welcome))
	}
	body := welcome[0].Body
	for _, w := range []string{"which you observe", "You observe Players", "The battle's forces, set up by the campaign (house rule, SAMPLE)",
		"Union: Iron Brigade (the campaign's Able, 6 of 6 strength).", "House rule (SAMPLE, no rules give it)",
		"You observe game " + id + ": you get its mails, and pbem takes no orders"} {
		wantIn(t, body, w)
	}
	for _, not := range []string{"Key:", "Secret:", "How to write orders", "your move"} {
		if strings.Contains(body, not) {
			t.Errorf("the observer's welcome says %q:\n%s", not, body)
		}
	}
	if welcome[0].ReplyTo != "pbem@pbem.localhost" {
		t.Errorf("the observer's welcome replies to %q, which carries a key", welcome[0].ReplyTo)
	}
	// Nothing else happened in the battle yet: the command that made them
	// observers goes into their next mail, not a mail of its own.
	for _, m := range later {
		t.Errorf("the observer got a mail of its own after the welcome:\n%.400s", m.Body)
	}
}

// A battle whose referee sets its forces up opens paused, and its welcome
// says so: the referee acts first (SET, then RESUME), not a player, who
// hears that a "your move" mail follows when it is their turn.
func TestLinkedBattleSetUpByTheRefereeWelcomesWithTheRefereeFirst(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "pbem.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	c := newComposer(t)
	reg := engine.NewRegistry(gcacw.New, hra.New)
	scen, err := hra.Scenario("kettle-run")
	if err != nil {
		t.Fatal(err)
	}
	pause := "the referee sets up the forces of the assault on 0504 (SET a unit's strength, or REMOVED on for a force that does not take part), then sends RESUME to start it"
	if _, err := play.Create(st, reg, play.NewGame{ID: "camp-t1-a1-0504", Ruleset: "hra", ScenarioName: "kettle-run", Scenario: scen,
		Players: []events.Player{{ID: "anna", Name: "Anna", Side: hra.Union, Addresses: []string{"anna@example.org"}},
			{ID: "taro", Name: "Taro", Side: hra.Confederate, Addresses: []string{"taro@example.jp"}}},
		Referees: []events.Player{{ID: "carol", Name: "Carol", Addresses: []string{"carol@example.net"}}},
		Pause:    pause, At: start, Welcome: c.Welcome}); err != nil {
		t.Fatal(err)
	}
	evs, err := st.Events("camp-t1-a1-0504", 1)
	if err != nil {
		t.Fatal(err)
	}
	ms := mailsIn(t, evs)
	for _, to := range []string{"anna@example.org", "taro@example.jp", "carol@example.net"} {
		body := bodyTo(t, ms, to).Body
		first, _, _ := strings.Cut(body[strings.Index(body, "Who acts first"):], "\n\n\n")
		if to == "carol@example.net" {
			wantIn(t, first, "You do: first, while the game is paused, "+pause)
		} else {
			wantIn(t, first, "The referee (Carol): first, while the game is paused, "+pause)
		}
		for _, not := range []string{"Anna:", "Taro:", "Union (", "Confederate ("} {
			if strings.Contains(first, not) {
				t.Errorf("the welcome to %s says a player acts first (%q):\n%s", to, not, first)
			}
		}
	}
	wantIn(t, bodyTo(t, ms, "anna@example.org").Body, `You will get a "your move" mail when it is your turn.`)
}
