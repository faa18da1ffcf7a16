package demo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
	"pbem/report"
	"pbem/store"
)

// 'pbem demo --campaign': a small GCACW campaign whose assault is fought
// out as a battle in each of the three tactical systems in turn (the
// referee has it fought out by mail, RULE FIGHT OUT), each battle a game
// of its own opened by the runtime, each result carried back into the
// campaign, and the campaign ended; then verify and audit on every game.
// It plays through the runtime and a real bbolt file in a temporary
// directory, the inputs written as the mail intake writes them.

// demoCampaignScenario is the campaign: Able (USA) and Yoke (CSA) face
// each other across a field; SAMPLE, invented for the demo.
const demoCampaignScenario = `# SAMPLE: an invented campaign for pbem demo --campaign
scenario Linked Fields (sample)
game SSR
turns 3
[map]
hexes 0101 1010
default clear
[units]
USA A "Able" inf XX str=8 tac=3 art=2 at=0505
CSA Y "Yoke" inf XX str=8 tac=2 art=1 at=0504
[leaders]
`

// demoBattles are the battles in turn: each tactical system, one of its
// built-in scenarios.
var demoBattles = [][2]string{{"gbacw", "tanners-mill"}, {"hra", "kettle-run"}, {"gmb", "hazel-run"}}

type campaignDemo struct {
	out io.Writer
	st  *store.Store
	reg *engine.Registry
	r   *play.Runner
	at  time.Time
	n   int
	end time.Time
}

// Campaign plays 'pbem demo --campaign' to out: the campaign and its
// three battles through the runtime on a bbolt file of its own, the
// battles' scenarios read with scenario (the built-in ones, by rule
// system and name), then verifies and audits every game.
func Campaign(out io.Writer, reg *engine.Registry, scenario func(system, name string) ([]byte, error), timeout time.Duration) error {
	dir, err := os.MkdirTemp("", "pbem-demo-campaign-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	st, err := store.Open(filepath.Join(dir, "pbem.db"), store.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	r := play.NewRunner(st, reg, play.RunnerOptions{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Links: &play.Links{Scenario: scenario}})
	defer r.Close()
	d := &campaignDemo{out: out, st: st, reg: reg, r: r, at: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), end: time.Now().Add(timeout)}
	players := []events.Player{
		{ID: "anna", Name: "Anna", Side: "USA", Addresses: []string{"anna@example.org"}},
		{ID: "taro", Name: "Taro", Side: "CSA", Addresses: []string{"taro@example.org"}},
	}
	created, err := play.Create(st, reg, play.NewGame{ID: "campaign", Ruleset: "gcacw", ScenarioName: "linked-fields",
		Scenario: []byte(demoCampaignScenario), Players: players, Referees: []events.Player{{ID: "ref", Name: "Referee", Addresses: []string{"ref@example.org"}}}, At: d.at})
	if err != nil {
		return err
	}
	r.Deliver(&created)
	fmt.Fprintf(d.out, "campaign %s: GCACW, %s; Anna (USA), Taro (CSA), a referee\n", created.Game, "Linked Fields (sample)")
	if err := d.idle("campaign"); err != nil {
		return err
	}
	var games []string
	for _, sys := range demoBattles {
		battle, err := d.oneBattle(sys[0], sys[1])
		if err != nil {
			return err
		}
		games = append(games, battle)
	}
	if err := d.send("campaign", "ref", "END DRAW the demo campaign is over after its three battles"); err != nil {
		return err
	}
	fmt.Fprintln(d.out, "\nverify and audit, every game:")
	for _, g := range append([]string{"campaign"}, games...) {
		var buf bytes.Buffer
		if err := report.Verify(&buf, st, g, true); err != nil {
			return fmt.Errorf("verify %s: %w", g, err)
		}
		fmt.Fprintf(d.out, "  %s:\n    %s", g, strings.ReplaceAll(buf.String(), "\n", "\n    "))
		seed, err := st.Secret(g)
		if err != nil {
			return err
		}
		rep, err := play.Audit(st, reg, g, seed)
		if err != nil || !rep.OK() {
			return fmt.Errorf("audit %s: %v", g, err)
		}
		fmt.Fprintf(d.out, "audit: every decision re-decided the same\n")
	}
	return nil
}

// oneBattle plays the campaign to its next assault, has the referee fight
// it out in system's scenario, ends the battle (the defender concedes)
// and waits for the campaign to take its result, which the referee rules.
func (d *campaignDemo) oneBattle(system, scenario string) (string, error) {
	for {
		g, err := play.Load(d.st, d.reg, "campaign", 0)
		if err != nil {
			return "", err
		}
		ps := g.Rules.Prompt(g.State)
		if len(ps) == 0 {
			return "", errors.New("the campaign asks no one to act")
		}
		p := ps[0]
		if p.Referee {
			if at, ok := assaultWaiting(p); ok {
				if err := d.send("campaign", "ref", fmt.Sprintf("RULE FIGHT OUT %s IN %s %s", at, system, scenario)); err != nil {
					return "", err
				}
				break
			}
			if err := d.send("campaign", "ref", "RULE DONE"); err != nil {
				return "", err
			}
			continue
		}
		who, order := "anna", "ASSAULT Able ON 0504"
		if p.Side == "CSA" {
			who, order = "taro", "ASSAULT Yoke ON 0505"
		}
		if !strings.Contains(p.What, "Action") && !strings.Contains(p.What, "initiative") {
			order = "PASS"
		}
		if err := d.send("campaign", who, order); err != nil {
			return "", err
		}
	}
	g, err := play.Load(d.st, d.reg, "campaign", 0)
	if err != nil {
		return "", err
	}
	bs := play.Battles(g)
	if len(bs) != 1 {
		return "", fmt.Errorf("the campaign waits on %d battles", len(bs))
	}
	id := play.BattleID(g, bs[0])
	if err := d.wait(id, func(b *play.Game) bool { return b.Created != nil }); err != nil {
		return "", err
	}
	battle, err := play.Load(d.st, d.reg, id, 0)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(d.out, "  battle %s opened: %s %s; %s\n", id, battle.Created.Ruleset, battle.Created.ScenarioName, seats(battle.Players))
	// The defender concedes the battle: the attacker wins it.
	defender := ""
	for _, p := range g.Players {
		if p.Side != "" && p.ID != attackerOf(g, bs[0]) {
			defender = p.ID
		}
	}
	if err := d.send(id, defender, "CONCEDE"); err != nil {
		return "", err
	}
	if err := d.wait("campaign", func(c *play.Game) bool { return len(play.Battles(c)) == 0 }); err != nil {
		return "", err
	}
	fmt.Fprintf(d.out, "  battle %s ended; its result carried back into the campaign\n", id)
	return id, nil
}

// attackerOf is the player of the side that attacks in battle b.
func attackerOf(g *play.Game, b engine.Battle) string {
	hexAttacked := strings.TrimPrefix(b.What, "the assault on ")
	side := "USA"
	if hexAttacked == "0505" {
		side = "CSA"
	}
	for _, p := range g.Players {
		if p.Side == side {
			return p.ID
		}
	}
	return ""
}

// assaultWaiting reports whether the referee's prompt p is an assault to
// rule, and on which hex.
func assaultWaiting(p engine.Prompt) (string, bool) {
	for _, at := range []string{"0504", "0505"} {
		if strings.Contains(p.What, "the enemy in "+at) {
			return at, true
		}
	}
	return "", false
}

func seats(ps []events.Player) string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name+" ("+p.Side+")")
	}
	return strings.Join(out, ", ")
}

// send appends an order (a referee's command from "ref") to game as the
// mail intake would, prints it and what came of it, and waits until the
// runner has decided it.
func (d *campaignDemo) send(game, who, text string) error {
	d.at = d.at.Add(time.Hour)
	d.n++
	key := fmt.Sprintf("<demo-%d@campaign>", d.n)
	var in events.Payload = &events.OrderReceived{Player: who, Text: text, MessageID: key, Source: "demo"}
	if who == "ref" {
		in = &events.RefereeCommand{Referee: who, Text: text, Reason: "demo", MessageID: key, Source: "demo"}
	}
	h, err := d.st.Head(game)
	if err != nil {
		return err
	}
	res, err := d.st.Append(game, h.Seq, events.New(game, d.at, key, in))
	if err != nil {
		return err
	}
	d.r.Deliver(&res.Events[0])
	if err := d.idle(game); err != nil {
		return err
	}
	verdict := "accepted"
	_ = d.st.Read(game, res.First+1, func(e *events.Envelope) error {
		p, err := events.Decode(e)
		if err == nil {
			if rj, ok := p.(*events.OrderRejected); ok && rj.Input == res.First {
				verdict = "rejected: " + problemsOf(rj)
			}
		}
		return nil
	})
	fmt.Fprintf(d.out, "%-16s %-5s %s -> %s\n", game, who, text, verdict)
	return nil
}

func problemsOf(r *events.OrderRejected) string {
	var out []string
	for _, p := range r.Problems {
		out = append(out, p.Msg)
	}
	return strings.Join(out, "; ")
}

// idle waits until the runner has decided every input of game.
func (d *campaignDemo) idle(game string) error {
	for time.Now().Before(d.end) {
		h, _ := d.st.Head(game)
		var seq uint64
		pending := -1
		_ = d.r.Query(context.Background(), game, func(g *play.Game) { seq, pending = g.Seq, len(g.Pending) })
		if seq == h.Seq && pending == 0 {
			return nil
		}
		time.Sleep(2 * time.Millisecond)
	}
	return fmt.Errorf("game %s: the runner did not decide its inputs in time", game)
}

// wait waits until cond holds of game as its log says.
func (d *campaignDemo) wait(game string, cond func(*play.Game) bool) error {
	for time.Now().Before(d.end) {
		if h, _ := d.st.Head(game); h.Seq > 0 {
			if g, err := play.Load(d.st, d.reg, game, 0); err == nil && cond(g) {
				return d.idle(game)
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	return fmt.Errorf("game %s: what the demo waited for did not happen in time", game)
}
