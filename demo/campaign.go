package demo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"pbem/autoplay"
	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
	"pbem/report"
	"pbem/server"
)

// 'pbem demo --campaign': a small GCACW campaign whose assault is fought
// out as a battle in each of the three tactical systems in turn, played
// by mail on a running server like 'pbem demo': the campaign's players
// and referee, who are each battle's too, read their mail over IMAP and
// answer over SMTP, every mail printed as its recipient receives it. The
// referee has each assault fought out by mail (RULE FIGHT OUT); the
// runtime opens the battle as a game of its own; its players play a few
// moves by mail, as the rule system's own demo script has them, and then
// the defender concedes; the result is carried back into the campaign;
// after the third battle the referee ends the campaign by mail. Then
// verify and audit on every game.

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

// battleMoves is how many mails a battle's participants send, as their
// rule system's demo script has them, before the defender concedes: a
// taste of each battle by mail, the campaign's demo staying short.
const battleMoves = 3

// CampaignOptions are the campaign 'pbem demo --campaign' plays and how.
type CampaignOptions struct {
	Out      io.Writer        // where the mails are printed
	Server   *server.Server   // running, with its built-in mail host and the built-in scenarios
	Registry *engine.Registry // the rule systems
	// Scripts are the single-system demos' scripts, by rule system
	// (gbacw, hra, gmb): each battle's participants play theirs.
	Scripts map[string]autoplay.Script
	// Domain is the participants' mail domain (the built-in host's);
	// Settings are the game's mail settings for it.
	Domain   string
	Settings []events.Setting
	Images   string // the campaign's images setting (its battles keep it): on or off
	Timeout  time.Duration
	Quiet    bool // print only subjects and answers, not whole mails
}

type campaignDemo struct {
	o    CampaignOptions
	srv  *server.Server
	reg  *engine.Registry
	ps   map[string]*participant
	ids  []string                   // the participants, in print order
	last map[string]map[string]Mail // each participant's newest mail of each game
	// secrets are the referee's command secrets, by game: each game's
	// welcome mail carries its own.
	secrets map[string]string
	end     time.Time
}

// Campaign plays 'pbem demo --campaign' on o.Server by mail, printing
// every mail as its recipient receives it, then verifies and audits every
// game.
func Campaign(ctx context.Context, o CampaignOptions) error {
	srv, dom := o.Server, o.Domain
	d := &campaignDemo{o: o, srv: srv, reg: o.Registry, ps: map[string]*participant{}, last: map[string]map[string]Mail{},
		secrets: map[string]string{}, end: time.Now().Add(o.Timeout)}
	players := []events.Player{
		{ID: "anna", Name: "Anna", Side: "USA", Addresses: []string{"anna@" + dom}},
		{ID: "taro", Name: "Taro", Side: "CSA", Addresses: []string{"taro@" + dom}},
	}
	referees := []events.Player{{ID: "ref", Name: "Referee", Addresses: []string{"ref@" + dom}}}
	ng := play.NewGame{ID: "campaign", Ruleset: "gcacw", ScenarioName: "linked-fields", Scenario: []byte(demoCampaignScenario),
		Players: players, Referees: referees, At: time.Now().UTC(), Welcome: srv.Composer().Welcome,
		Settings: append(slices.Clip(o.Settings), events.Setting{Key: play.SettingImages, Value: o.Images})}
	created, err := play.Create(srv.Log(), d.reg, ng)
	if err != nil {
		return err
	}
	fmt.Fprintf(o.Out, "created campaign %s (gcacw, Linked Fields (sample)); Anna plays USA, Taro CSA, and a referee rules; each assault is fought out as a battle: %s\n",
		created.Game, strings.Join(battleNames(), ", then "))
	for _, p := range append(slices.Clone(players), referees...) {
		pt := &participant{Mailbox: Mailbox{ID: p.ID}, side: p.Side, name: p.Name, addr: p.Addresses[0], referee: p.Side == ""}
		if err := pt.login(srv); err != nil {
			return err
		}
		defer pt.Client.Close()
		d.ps[p.ID], d.ids = pt, append(d.ids, p.ID)
	}
	var games []string
	for _, b := range demoBattles {
		id, err := d.oneBattle(ctx, b[0], b[1])
		if err != nil {
			return err
		}
		games = append(games, id)
	}
	if err := d.act(ctx, "campaign", "ref", "END DRAW the demo campaign is over after its three battles"); err != nil {
		return err
	}
	// Every participant reads the campaign's end.
	if err := d.until(ctx, "every participant's mail saying the campaign is over", func() bool {
		for _, id := range d.ids {
			if m, ok := d.last[id]["campaign"]; !ok || !strings.HasPrefix(strings.ToLower(m.Kind), "game over") {
				return false
			}
		}
		return true
	}); err != nil {
		return err
	}
	fmt.Fprintln(o.Out, "\nThe campaign is over and every participant has the mail saying so.")
	fmt.Fprintf(o.Out, "\nMail received:\n")
	for _, id := range d.ids {
		fmt.Fprintf(o.Out, "  %-10s %4d mails  %9d bytes\n", d.ps[id].name, d.ps[id].Mails, d.ps[id].Bytes)
	}
	fmt.Fprintln(o.Out, "\nverify and audit, every game:")
	st := srv.Log().Store
	for _, g := range append([]string{"campaign"}, games...) {
		var buf bytes.Buffer
		if err := report.Verify(&buf, st, g, true); err != nil {
			return fmt.Errorf("verify %s: %w", g, err)
		}
		fmt.Fprintf(o.Out, "  %s:\n    %s", g, strings.ReplaceAll(buf.String(), "\n", "\n    "))
		seed, err := st.Secret(g)
		if err != nil {
			return err
		}
		rep, err := play.Audit(st, d.reg, g, seed)
		if err != nil || !rep.OK() {
			return fmt.Errorf("audit %s: %+v %v", g, rep, err)
		}
		fmt.Fprintf(o.Out, "audit: every decision re-decided the same\n")
	}
	return nil
}

func battleNames() []string {
	var out []string
	for _, b := range demoBattles {
		out = append(out, b[0]+" "+b[1])
	}
	return out
}

// oneBattle plays the campaign by mail to its next assault, has the
// referee fight it out in system's scenario, plays the battle's first
// moves by mail, has the defender concede, and waits for the campaign to
// take the battle's result.
func (d *campaignDemo) oneBattle(ctx context.Context, system, scenario string) (string, error) {
	for {
		g, err := play.Load(d.srv.Log(), d.reg, "campaign", 0)
		if err != nil {
			return "", err
		}
		if len(play.Battles(g)) > 0 {
			break
		}
		ps := g.Rules.Prompt(g.State)
		if len(ps) == 0 {
			return "", errors.New("the campaign asks no one to act")
		}
		p := ps[0]
		if p.Referee {
			text := "RULE DONE"
			if at, ok := assaultWaiting(p); ok {
				text = fmt.Sprintf("RULE FIGHT OUT %s IN %s %s", at, system, scenario)
			}
			if err := d.act(ctx, "campaign", "ref", text); err != nil {
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
		if err := d.act(ctx, "campaign", who, order); err != nil {
			return "", err
		}
	}
	g, err := play.Load(d.srv.Log(), d.reg, "campaign", 0)
	if err != nil {
		return "", err
	}
	bs := play.Battles(g)
	id := play.BattleID(g, bs[0])
	var battle *play.Game
	if err := d.until(ctx, "battle "+id+" to be opened", func() bool {
		b, err := play.Load(d.srv.Log(), d.reg, id, 0)
		battle = b
		// Created, and what came with its creation decided (a battle the
		// referee sets up is paused with it).
		return err == nil && b.Created != nil && len(b.Pending) == 0
	}); err != nil {
		return "", err
	}
	fmt.Fprintf(d.o.Out, "\n--- battle %s opened: %s %s; %s\n\n", id, battle.Created.Ruleset, battle.Created.ScenarioName, seats(battle.Players))
	// A battle the referee had fought out is his to set up: it opens
	// paused until he has (SET, then RESUME). The demo's referee takes
	// the forces as the campaign gives them.
	if battle.Paused != nil {
		if err := d.act(ctx, id, "ref", "RESUME"); err != nil {
			return "", err
		}
	}
	// Its participants play a few moves by mail, as their rule system's
	// demo script has them.
	script, ok := d.o.Scripts[system]
	if !ok {
		return "", fmt.Errorf("no demo script for %s", system)
	}
	ap := script.Player()
	ap.Playable = func(who, order string) bool { return scriptedPlayable(d.srv, d.reg, id, who, order) }
	for range battleMoves {
		b, err := play.Load(d.srv.Log(), d.reg, id, 0)
		if err != nil {
			return "", err
		}
		who, text, ok := ap.NextMove(b)
		if !ok || b.Ended != nil {
			break
		}
		if err := d.act(ctx, id, who, text); err != nil {
			return "", err
		}
	}
	// The defender concedes the battle: the attacker wins it.
	defender := ""
	for _, p := range g.Players {
		if p.Side != "" && p.ID != attackerOf(g, bs[0]) {
			defender = p.ID
		}
	}
	if err := d.act(ctx, id, defender, "CONCEDE"); err != nil {
		return "", err
	}
	if err := d.until(ctx, "the campaign to take the result of "+id, func() bool {
		c, err := play.Load(d.srv.Log(), d.reg, "campaign", 0)
		return err == nil && len(play.Battles(c)) == 0
	}); err != nil {
		return "", err
	}
	fmt.Fprintf(d.o.Out, "\n--- battle %s ended; its result carried back into the campaign\n\n", id)
	return id, nil
}

// read fetches every participant's new mail and prints it as its
// recipient receives it, keeping each participant's newest mail of each
// game (the one they answer) and the referee's command secrets.
func (d *campaignDemo) read() (bool, error) {
	got := false
	for _, id := range d.ids {
		p := d.ps[id]
		msgs, err := p.FetchNew()
		if err != nil {
			return got, err
		}
		for _, m := range msgs {
			got = true
			printMail(d.o.Out, p, m, d.o.Quiet)
			game := gameOf(m.ReplyTo)
			if game == "" {
				continue
			}
			if d.last[id] == nil {
				d.last[id] = map[string]Mail{}
			}
			d.last[id][game] = m
			if p.referee && d.secrets[game] == "" {
				q := &participant{referee: true}
				q.readSecret(m)
				d.secrets[game] = q.secret
			}
		}
	}
	return got, nil
}

// gameOf is the game a mail's Reply-To answers to: the built-in
// mailbox's "pbem+<game>.<player>.<token>@domain".
func gameOf(replyTo string) string {
	local, _, _ := strings.Cut(replyTo, "@")
	_, rest, ok := strings.Cut(local, "+")
	if !ok {
		return ""
	}
	game, _, _ := strings.Cut(rest, ".")
	return game
}

// until reads and prints mail until cond holds.
func (d *campaignDemo) until(ctx context.Context, what string, cond func() bool) error {
	for {
		got, err := d.read()
		if err != nil {
			return err
		}
		if cond() {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if time.Now().After(d.end) {
			return fmt.Errorf("the demo campaign did not finish in time: waiting for %s", what)
		}
		if !got {
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// act has participant who answer, by mail, the newest mail of game they
// received (a referee's answer carries the game's secret), prints the
// answer, and reads mail until pbem has decided it; it prints the
// verdict as the game's log has it.
func (d *campaignDemo) act(ctx context.Context, game, who, text string) error {
	p := d.ps[who]
	if err := d.until(ctx, who+"'s first mail of "+game, func() bool {
		_, ok := d.last[who][game]
		return ok && (!p.referee || d.secrets[game] != "")
	}); err != nil {
		return err
	}
	m := d.last[who][game]
	body := text
	if p.referee {
		body += "\nSecret: " + d.secrets[game]
	}
	if err := p.reply(d.srv, m, body); err != nil {
		return err
	}
	id := p.awaiting
	fmt.Fprintf(d.o.Out, "\n>>> %s answers (%s):\n", p.name, game)
	for _, l := range strings.Split(text, "\n") {
		fmt.Fprintf(d.o.Out, ">>>   %s\n", l)
	}
	verdict := ""
	if err := d.until(ctx, "pbem to decide "+who+"'s mail to "+game, func() bool {
		verdict = d.verdict(game, id)
		return verdict != ""
	}); err != nil {
		return err
	}
	fmt.Fprintf(d.o.Out, "%-16s %-5s %s -> %s\n\n", game, who, firstLine(text), verdict)
	return nil
}

// verdict is what game's log says of the input whose Message-ID is id:
// "accepted", "rejected: …", or "" while it is not decided.
func (d *campaignDemo) verdict(game, id string) string {
	var in uint64
	verdict := ""
	_ = d.srv.Log().Read(game, 1, func(e *events.Envelope) error {
		if in == 0 && strings.Contains(e.Key, id) {
			in = e.Seq
			return nil
		}
		if in == 0 || (e.Type != events.TypeOrderAccepted && e.Type != events.TypeOrderRejected) {
			return nil
		}
		p, err := events.Decode(e)
		if err != nil {
			return nil
		}
		switch x := p.(type) {
		case *events.OrderAccepted:
			if x.Input == in {
				verdict = "accepted"
			}
		case *events.OrderRejected:
			if x.Input == in {
				verdict = "rejected: " + problemsOf(x)
			}
		}
		return nil
	})
	return verdict
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
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

func problemsOf(r *events.OrderRejected) string {
	var out []string
	for _, p := range r.Problems {
		out = append(out, p.Msg)
	}
	return strings.Join(out, "; ")
}
