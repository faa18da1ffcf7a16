package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/mail"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
	"pbem/mail/token"
	"pbem/report"
	"pbem/server"
	"pbem/store"
)

// listFlag collects a repeatable flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, " ") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// parsePlayer reads ID:SIDE:ADDRESS[,ADDRESS…][:NAME] (SIDE empty for a
// referee: ID::ADDRESS).
func parsePlayer(s string, referee bool) (events.Player, error) {
	parts := strings.SplitN(s, ":", 4)
	form := "ID:SIDE:ADDRESS[,ADDRESS...][:NAME]"
	if referee {
		form = "ID:ADDRESS[,ADDRESS...][:NAME]"
		if len(parts) >= 2 {
			parts = append([]string{parts[0], ""}, parts[1:]...)
		}
	}
	if len(parts) < 3 || parts[0] == "" || parts[2] == "" || (!referee && parts[1] == "") {
		return events.Player{}, fmt.Errorf("%q: want %s", s, form)
	}
	p := events.Player{ID: parts[0], Side: parts[1], Name: parts[0]}
	if len(parts) == 4 && parts[3] != "" {
		p.Name = parts[3]
	}
	for _, addr := range strings.Split(parts[2], ",") {
		addr = strings.ToLower(strings.TrimSpace(addr))
		if err := checkAddress(addr); err != nil {
			return events.Player{}, fmt.Errorf("%q: %w", s, err)
		}
		p.Addresses = append(p.Addresses, addr)
	}
	if strings.ContainsFunc(p.Name, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return events.Player{}, fmt.Errorf("%q: the name has a control character (a line break?)", s)
	}
	return p, nil
}

// checkAddress accepts a plain mail address (an RFC 5322 addr-spec, no
// display name, no comments, no line breaks): what pbem writes in To: and
// compares senders with.
func checkAddress(addr string) error {
	if strings.ContainsAny(addr, "\r\n") {
		return fmt.Errorf("the address has a line break")
	}
	a, err := mail.ParseAddress(addr)
	if err != nil || a.Name != "" || !strings.EqualFold(a.Address, addr) {
		return fmt.Errorf("%q is not a plain mail address such as anna@example.org (no name, no <>)", addr)
	}
	local, domain, _ := strings.Cut(a.Address, "@")
	if local == "" || !domainRE.MatchString(domain) {
		return fmt.Errorf("%q is not a plain mail address such as anna@example.org", addr)
	}
	return nil
}

// scenarioSides are the sides of a scenario as its rule system spells
// them (engine.Summarizer), or else as the system's demo game seats them;
// none when neither says.
func scenarioSides(reg *engine.Registry, ruleset string, scenario []byte) []string {
	if rs, err := reg.Get(ruleset); err == nil {
		if sum, ok := rs.(engine.Summarizer); ok {
			if st, err := rs.Setup(scenario, nil); err == nil {
				if sides := sum.Summarize(st).Sides; len(sides) > 0 {
					return sides
				}
			}
		}
	}
	return rulesetSides(ruleset)
}

// checkSides spells each player's side as the scenario does (sides match
// without regard to case, as in orders), and refuses a game in which a
// side has no player: its turns would wait for ever.
func checkSides(ruleset string, sides []string, players []events.Player) error {
	for i, p := range players {
		for _, side := range sides {
			if strings.EqualFold(p.Side, side) {
				players[i].Side = side
			}
		}
	}
	for _, side := range sides {
		found := false
		for _, p := range players {
			found = found || p.Side == side
		}
		if !found {
			return fmt.Errorf("%w: the %s rules are played by %s: no --player plays %s", errUsage, ruleset, strings.Join(sides, " and "), side)
		}
	}
	return nil
}

func cmdNew(a *app, fs *flag.FlagSet, args []string) error {
	game := fs.String("game", "", "game id: lower-case letters, digits, dashes")
	ruleset := fs.String("ruleset", "", "rule system ("+strings.Join(a.reg.Names(), ", ")+")")
	scenario := fs.String("scenario", "", "built-in scenario name (see 'pbem scenarios')")
	scenarioFile := fs.String("scenario-file", "", "scenario file of your own")
	var players, referees, settings listFlag
	fs.Var(&players, "player", "a player, ID:SIDE:ADDRESS[,ADDRESS...][:NAME] (repeat per player)")
	fs.Var(&referees, "referee", "a referee, ID:ADDRESS[,ADDRESS...][:NAME] (repeatable)")
	fs.Var(&settings, "set", "a game setting KEY=VALUE (repeatable)")
	var volumes listFlag
	fs.Var(&volumes, "mail", "how much mail: every (a mail for every action), turn (a digest each turn) or move (only when one must act; the default), for everyone, or ID=VOLUME for one player or referee (repeatable); players change theirs with MAIL")
	if _, err := parseArgs(fs, args, 0); err != nil {
		return err
	}
	if *game == "" || *ruleset == "" || (*scenario == "") == (*scenarioFile == "") || len(players) == 0 {
		return fmt.Errorf("%w: need --game, --ruleset, one of --scenario/--scenario-file, and --player", errUsage)
	}
	if a.node != nil && !a.forwardedHere {
		// A new game goes to the least-loaded node.
		if owner := a.node.Owner(*game); owner != "" {
			return fmt.Errorf("game %s exists (on node %s)", *game, owner)
		}
		to, err := a.node.LeastLoaded("")
		if err != nil {
			return err
		}
		if to != a.node.Name() {
			// A node seen alive may have died within its lease (a node that
			// has just started gives every node it sees a whole lease): no
			// one answering its subject means nothing was done there, so the
			// game is made here rather than refused.
			err := a.forward(to)
			if !errors.Is(err, nats.ErrNoResponders) {
				return &forwarded{err}
			}
			a.lg.Warn("the least-loaded node does not answer; the new game is made here", "game", *game, "node", to)
		}
	}
	ng := play.NewGame{ID: *game, Ruleset: *ruleset, At: time.Now().UTC()}
	for _, s := range players {
		p, err := parsePlayer(s, false)
		if err != nil {
			return fmt.Errorf("--player %w", err)
		}
		ng.Players = append(ng.Players, p)
	}
	for _, s := range referees {
		p, err := parsePlayer(s, true)
		if err != nil {
			return fmt.Errorf("--referee %w", err)
		}
		ng.Referees = append(ng.Referees, p)
	}
	own := strings.ToLower(a.cfg.Mail.Local + "@" + a.cfg.Mail.Domain)
	for _, p := range append(append([]events.Player(nil), ng.Players...), ng.Referees...) {
		for _, addr := range p.Addresses {
			local, domain, _ := strings.Cut(addr, "@")
			if base, _, _ := strings.Cut(local, "+"); base+"@"+domain == own {
				return fmt.Errorf("%s's address %s is pbem's own mailbox: mail to it would come back as orders", p.ID, addr)
			}
		}
	}
	for _, s := range settings {
		k, v, ok := strings.Cut(s, "=")
		if !ok || k == "" {
			return fmt.Errorf("--set %q: want KEY=VALUE", s)
		}
		if k == play.SettingBuiltinDomain {
			return fmt.Errorf("--set %s: the server sets it", k)
		}
		ng.Settings = append(ng.Settings, events.Setting{Key: k, Value: v})
	}
	for _, v := range volumes {
		key, vol := play.SettingMail, v
		if id, rest, ok := strings.Cut(v, "="); ok {
			key, vol = play.SettingMailPrefix+strings.ToLower(strings.TrimSpace(id)), rest
		}
		parsed, err := play.ParseVolume(vol)
		if err != nil {
			return fmt.Errorf("--mail %q: %w", v, err)
		}
		ng.Settings = append(ng.Settings, events.Setting{Key: key, Value: parsed})
	}
	ng.Settings = append(ng.Settings, a.cfg.Mail.BuiltinDomain()...)
	if *scenarioFile != "" {
		b, err := a.readArg(*scenarioFile)
		if err != nil {
			return fmt.Errorf("scenario: %w", err)
		}
		ng.Scenario, ng.ScenarioName = b, *scenarioFile
	} else {
		src, ok := system(*ruleset)
		if !ok {
			return fmt.Errorf("ruleset %q has no built-in scenarios; use --scenario-file", *ruleset)
		}
		b, err := src.Scenario(*scenario)
		if err != nil {
			return fmt.Errorf("scenario %q: %w (built in: %s)", *scenario, err, strings.Join(src.Scenarios(), ", "))
		}
		ng.Scenario, ng.ScenarioName = b, *scenario
	}
	if err := checkSides(*ruleset, scenarioSides(a.reg, *ruleset, ng.Scenario), ng.Players); err != nil {
		return err
	}
	if err := play.NeedsReferee(a.reg, ng); err != nil {
		return err
	}
	if err := checkReach(a, ng); err != nil {
		return err
	}
	log, err := a.open()
	if err != nil {
		return err
	}
	comp, err := a.composer()
	if err != nil {
		return err
	}
	ng.Welcome = comp.Welcome
	ng.TacticalScenarios = builtinScenario
	e, err := play.Create(log, a.reg, ng)
	if err != nil {
		return err
	}
	p, _ := events.Decode(&e)
	gc := p.(*events.GameCreated)
	fmt.Fprintf(a.out, "created game %s: %s %s, scenario %s\ndice seed commitment (SHA-256 of the seed, revealed when the game ends):\n  %s\n",
		e.Game, gc.Ruleset, gc.RulesetVersion, gc.ScenarioName, gc.SeedCommitment.Hex())
	for _, r := range gc.Referees {
		fmt.Fprintf(a.out, "referee %s's secret (also in their welcome mail; needed on a \"Secret:\" line of commands by mail):\n  %s\n",
			r.ID, token.RefereeSecret(a.secret, e.Game, r.ID))
	}
	return printMailboxes(a, log, append(append([]events.Player(nil), gc.Players...), gc.Referees...), "mailboxes on pbem's own mail host (each password is also in its owner's welcome mail):")
}

// printMailboxes prints the built-in host's mailboxes of ps with their
// passwords, under heading (nothing if none of them has one there).
func printMailboxes(a *app, log logStore, ps []events.Player, heading string) error {
	comp, err := a.composer()
	if err != nil {
		return err
	}
	done := map[string]bool{}
	for _, p := range ps {
		for _, addr := range p.Addresses {
			user, ok := comp.MailhostUser(addr)
			if !ok || done[user] {
				continue
			}
			done[user] = true
			pw, err := server.MailboxPassword(log, user)
			if err != nil {
				return err
			}
			if len(done) == 1 {
				fmt.Fprintln(a.out, heading)
			}
			fmt.Fprintf(a.out, "  %-32s user %-12s password %s\n", addr, user, pw)
		}
	}
	return nil
}

func cmdGames(a *app, fs *flag.FlagSet, args []string) error {
	referee := fs.String("referee", "", "list only the games this address referees")
	if _, err := parseArgs(fs, args, 0); err != nil {
		return err
	}
	log, err := a.open()
	if err != nil {
		return err
	}
	var addrs []string
	if *referee != "" {
		addrs = []string{*referee}
	}
	ds, err := server.Desks(log, a.reg, addrs, time.Now().UnixNano())
	if err != nil {
		return err
	}
	if a.node != nil {
		a.clusterGames()
		ds = a.ownedOnly(ds)
	}
	if len(ds) == 0 {
		if *referee != "" {
			fmt.Fprintf(a.out, "%s referees no game here\n", *referee)
			return nil
		}
		if a.node != nil && len(a.node.Leases()) > 0 {
			// The cluster has games; each is listed in full by its owner.
			fmt.Fprintf(a.out, "node %s owns none of them now\n", a.node.Name())
			return nil
		}
		fmt.Fprintln(a.out, "no games yet: create one with 'pbem new'")
		return nil
	}
	var overdue, paused, rulings int
	for _, d := range ds {
		if d.Overdue {
			overdue++
		}
		if d.Paused {
			paused++
		}
		if d.Ruling {
			rulings++
		}
	}
	fmt.Fprintf(a.out, "%d game(s): %d with a deadline overdue, %d paused, %d waiting for a ruling\n\n", len(ds), overdue, paused, rulings)
	for _, d := range ds {
		fmt.Fprintf(a.out, "%-20s %6d events  %s %s\n", d.Game, d.Seq, d.Ruleset, d.Scenario)
		fmt.Fprintf(a.out, "    %s\n", d.State)
		for _, l := range d.Lines {
			fmt.Fprintf(a.out, "    %s\n", l)
		}
	}
	return nil
}

// gameArg takes the one positional GAME argument, flags before or after
// it. On a node of a cluster, a game another node owns is the owner's to
// answer: the command is handed to it (a *forwarded error).
func (a *app) gameArg(fs *flag.FlagSet, args []string) (string, error) {
	pos, err := parseArgs(fs, args, 1)
	if err != nil {
		return "", err
	}
	return pos[0], a.toOwner(pos[0])
}

func cmdLog(a *app, fs *flag.FlagSet, args []string) error {
	from := fs.Uint64("from", 1, "first sequence number to print")
	as := fs.String("as", "", "print the log as this player (id or side), observer or referee saw it (default: all of it, for the operator)")
	game, err := a.gameArg(fs, args)
	if err != nil {
		return err
	}
	log, err := a.open()
	if err != nil {
		return err
	}
	// A rollback closes a stretch of the log; it is printed like the rest,
	// marked, since later events explain it.
	g, err := play.Replay(log, a.reg, game, 0)
	if err != nil {
		return err
	}
	if *as == "" {
		return report.Log(a.out, log, a.reg, g, *from, nil, "")
	}
	v, who, err := viewerArg(g, *as)
	if err != nil {
		return err
	}
	return report.Log(a.out, log, a.reg, g, *from, &v, who)
}

// viewerArg reads --as: a player's id or side, "observer", or a referee's
// id or "referee"; who names the viewer for people.
func viewerArg(g *play.Game, as string) (engine.Viewer, string, error) {
	switch strings.ToLower(as) {
	case "", "referee":
		return engine.Viewer{Referee: true}, "the referee", nil
	case "observer":
		return engine.Viewer{}, "an observer", nil
	}
	if _, ok := g.PlayerByID(as); ok {
		v := g.ViewerOf(as)
		if v.Referee {
			return v, as + " (referee)", nil
		}
		return v, as + " (" + v.Side + ")", nil
	}
	var ofSide []events.Player
	for _, p := range g.Players {
		if strings.EqualFold(p.Side, as) {
			ofSide = append(ofSide, p)
		}
	}
	if len(ofSide) == 1 {
		return g.ViewerOf(ofSide[0].ID), ofSide[0].Side, nil
	}
	var ids []string
	for _, p := range g.Players {
		ids = append(ids, p.ID+" ("+p.Side+")")
	}
	if len(ofSide) > 1 {
		return engine.Viewer{}, "", fmt.Errorf("%w: --as %s: that side has %d players; name one: %s", errUsage, as, len(ofSide), strings.Join(ids, ", "))
	}
	return engine.Viewer{}, "", fmt.Errorf("%w: --as %q: no player or side of game %s is called that (players: %s; or observer, referee)", errUsage, as, g.ID, strings.Join(ids, ", "))
}

func cmdReplay(a *app, fs *flag.FlagSet, args []string) error {
	at := fs.Uint64("at", 0, "sequence number to stop at (default: the end)")
	turn := fs.Int("turn", 0, "show the game as turn N began (instead of --at)")
	as := fs.String("as", "", "show the game as this player (id or side), observer or referee saw it (default: the referee's view)")
	full := fs.Bool("full", false, "print the whole map, not the window around the action")
	game, err := a.gameArg(fs, args)
	if err != nil {
		return err
	}
	if *turn != 0 && *at != 0 {
		return fmt.Errorf("%w: --at or --turn, not both", errUsage)
	}
	log, err := a.open()
	if err != nil {
		return err
	}
	if *turn != 0 {
		if *at, err = play.TurnStart(log, a.reg, game, *turn); err != nil {
			return err
		}
	}
	g, err := play.Load(log, a.reg, game, *at)
	if err != nil {
		return err
	}
	h, err := log.Head(game)
	if err != nil {
		return err
	}
	now, err := play.Load(log, a.reg, game, 0)
	if err != nil {
		return err
	}
	if br, ok := play.InBranch(now.Branches, g.Seq); ok {
		fmt.Fprintf(a.out, "seq %d lies in a closed branch (seqs %d–%d), rolled back at seq %d: the game went on from seq %d\n",
			g.Seq, br.From, br.To, br.By, br.From-1)
	}
	if *turn != 0 {
		fmt.Fprintf(a.out, "turn %d began at seq %d\n", *turn, g.Seq)
	}
	v, who, err := viewerArg(now, *as)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.out, "game %s (%s %s, scenario %s) at seq %d of %d, as %s sees it\n",
		g.ID, g.Rules.Name(), g.Rules.Version(), g.Created.ScenarioName, g.Seq, h.Seq, who)
	told, err := play.ToldAt(log, a.reg, game, v, g.Seq)
	if err != nil {
		return err
	}
	for _, l := range told {
		fmt.Fprintf(a.out, "told at seq %d: %s\n", g.Seq, l)
	}
	if g.Ended != nil {
		fmt.Fprintf(a.out, "game over: %s; winner %q\n", g.Ended.Reason, g.Ended.Winner)
	} else {
		for _, p := range g.Prompts(g.State, nil) {
			who := p.Side
			if p.Referee {
				who = "referee"
			}
			fmt.Fprintf(a.out, "next: %s: %s\n", who, p.What)
			if v.Referee || (p.Side != "" && p.Side == v.Side) {
				// Another side's examples could name what v may not see.
				for _, ex := range p.Examples {
					fmt.Fprintf(a.out, "  e.g. %s\n", ex)
				}
			}
		}
	}
	if len(g.Pending) > 0 {
		fmt.Fprintf(a.out, "%d input(s) not yet decided\n", len(g.Pending))
	}
	board := g.Rules.Render(g.Rules.View(g.State, v))
	fmt.Fprintln(a.out)
	if *full {
		fmt.Fprint(a.out, board.Full)
	} else {
		fmt.Fprint(a.out, board.Window)
	}
	return nil
}

func cmdVerify(a *app, fs *flag.FlagSet, args []string) error {
	withSecret := fs.Bool("with-secret", false, "before the game ends, check the dice against the server's stored seed (operator only)")
	game, err := a.gameArg(fs, args)
	if err != nil {
		return err
	}
	log, err := a.open()
	if err != nil {
		return err
	}
	var vlog report.VerifyLog = log
	if a.node != nil {
		// A campaign's battles, a battle's campaign: maybe on another node.
		vlog = linkedVerifyLog{log, a.node.LinkedLog(log, game)}
	}
	return report.Verify(a.out, vlog, game, *withSecret)
}

func cmdScenarios(a *app, fs *flag.FlagSet, args []string) error {
	long := fs.Bool("long", false, "also list each scenario's house rules, options and readings, and the steps it leaves to a referee")
	pos, err := parseArgs(fs, args, -1)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return fmt.Errorf("%w: at most one RULESET", errUsage)
	}
	names := a.reg.Names()
	if len(pos) == 1 {
		names = pos
	}
	if len(names) == 0 {
		return errors.New("this build has no rule systems")
	}
	for i, n := range names {
		rs, err := a.reg.Get(n)
		if err != nil {
			return err
		}
		if i > 0 {
			fmt.Fprintln(a.out)
		}
		fmt.Fprintf(a.out, "rule system %s %s\n", rs.Name(), rs.Version())
		src, ok := system(n)
		if !ok || len(src.Scenarios()) == 0 {
			fmt.Fprintln(a.out, "  no built-in scenarios: play one of your own with pbem new --scenario-file")
			continue
		}
		for _, sn := range src.Scenarios() {
			if err := printScenario(a.out, rs, src, sn, *long); err != nil {
				return err
			}
		}
	}
	return nil
}

// printScenario prints what a built-in scenario is, as its rule system
// says (engine.Summarizer, engine.RefereeStepper and, with long,
// engine.Explainer's welcome sections): sides, map or table, turns,
// whether it needs a referee, and with long its rules and options.
func printScenario(w io.Writer, rs engine.Ruleset, src engine.System, name string, long bool) error {
	b, err := src.Scenario(name)
	if err != nil {
		return fmt.Errorf("scenario %s: %w", name, err)
	}
	st, err := rs.Setup(b, nil)
	if err != nil {
		fmt.Fprintf(w, "  %s\n    cannot be set up: %v\n", name, err)
		return nil
	}
	var sum engine.Summary
	if s, ok := rs.(engine.Summarizer); ok {
		sum = s.Summarize(st)
	}
	var steps []string
	if s, ok := rs.(engine.RefereeStepper); ok {
		steps = s.RefereeSteps(st)
	}
	var facts []string
	if len(sum.Sides) > 0 {
		facts = append(facts, strings.Join(sum.Sides, " v "))
	}
	if sum.Size != "" {
		facts = append(facts, sum.Size)
	}
	switch sum.Turns {
	case 0:
		facts = append(facts, "no fixed number of turns")
	case 1:
		facts = append(facts, "1 turn")
	default:
		facts = append(facts, fmt.Sprintf("%d turns", sum.Turns))
	}
	if len(steps) > 0 {
		facts = append(facts, "needs a referee")
	} else {
		facts = append(facts, "no referee needed")
	}
	fmt.Fprintf(w, "  %s\n    %s\n", name, strings.Join(facts, "; "))
	if !long {
		return nil
	}
	// Each section's lines, wrapped to a terminal's 78 columns.
	section := func(heading string, lines []string) {
		fmt.Fprintf(w, "    %s:\n", heading)
		for _, l := range engine.WrapLines(lines, 72) {
			fmt.Fprintf(w, "      %s\n", l)
		}
	}
	dashed := func(ls []string) []string {
		out := make([]string, len(ls))
		for i, l := range ls {
			out[i] = "- " + l
		}
		return out
	}
	var sections []engine.Explanation
	if ex, ok := rs.(engine.Explainer); ok {
		if sections = ex.Explain(st, engine.Viewer{Referee: true}, engine.ExplainScenario); sections == nil {
			sections = ex.Explain(st, engine.Viewer{Referee: true}, engine.ExplainWelcome)
		}
	}
	switch {
	case len(sum.Rules) > 0:
		section("House rules and options", dashed(sum.Rules))
	case len(sections) == 0:
		section("House rules and options", []string{"none: the rules as written, with their default readings"})
	}
	for _, e := range sections {
		section(e.Heading, e.Lines)
	}
	if len(steps) > 0 && len(sections) == 0 {
		section("Left to the referee", dashed(steps))
	}
	return nil
}

func cmdOrder(a *app, fs *flag.FlagSet, args []string) error {
	player := fs.String("player", "", "the player (or referee) the order is from")
	file := fs.String("file", "", "read the order text from this file ('-' for standard input)")
	referee := fs.Bool("referee", false, "the text is a referee's ruling or command")
	reason := fs.String("reason", "", "with --referee: why (kept in the log)")
	wait := fs.Duration("wait", 30*time.Second, "how long to wait for the engine's decision")
	pos, err := parseAnywhere(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return fmt.Errorf("%w: need GAME", errUsage)
	}
	game := pos[0]
	if err := a.toOwner(game); err != nil {
		return err
	}
	text, err := a.commandText(pos[1:], *file)
	if err != nil {
		return err
	}
	if *player == "" || strings.TrimSpace(text) == "" {
		return fmt.Errorf("%w: need --player and the order text", errUsage)
	}
	if err := a.checkSender(game, *player, *referee); err != nil {
		return err
	}
	var p events.Payload = &events.OrderReceived{Player: *player, Text: text, Source: "cli"}
	if *referee {
		p = &events.RefereeCommand{Referee: *player, Text: text, Reason: *reason, Source: "cli"}
	}
	seq, err := a.submit(game, p)
	if err != nil {
		return err
	}
	return a.answer(game, seq, *wait, *referee)
}

// cmdReferee submits a referee's command from the server's command line
// (server access vouches for the referee: no secret is asked; --as
// operator acts on any game, with or without referees), waits for the
// engine to decide it, and says whether it was accepted, and why not.
func cmdReferee(a *app, fs *flag.FlagSet, args []string) error {
	as := fs.String("as", "", "the referee's id, or "+play.OperatorID+" (any game)")
	reason := fs.String("reason", "", "why (kept in the log, shown to the players)")
	file := fs.String("file", "", "read the command text from this file ('-' for standard input)")
	wait := fs.Duration("wait", 30*time.Second, "how long to wait for the engine's decision")
	pos, err := parseAnywhere(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 || *as == "" {
		return fmt.Errorf("%w: need GAME, --as REFEREE (or --as %s) and the command text\ngame commands:\n  %s", errUsage, play.OperatorID, strings.Join(play.GameCommandForms, "\n  "))
	}
	if err := a.toOwner(pos[0]); err != nil {
		return err
	}
	text, err := a.commandText(pos[1:], *file)
	if err != nil {
		return err
	}
	if strings.TrimSpace(text) == "" {
		return fmt.Errorf("%w: need the command text", errUsage)
	}
	seq, err := a.submit(pos[0], &events.RefereeCommand{Referee: *as, Text: text, Reason: *reason, Source: "cli"})
	if err != nil {
		return err
	}
	return a.answer(pos[0], seq, *wait, true)
}

// parseAnywhere parses fs's flags wherever they stand among the
// positional arguments, which it returns in order ('--' ends the flags).
func parseAnywhere(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		pos, args = append(pos, rest[0]), rest[1:]
	}
}

// commandText is the text of an order or command: the words given, or
// the file (or standard input, '-').
func (a *app) commandText(words []string, file string) (string, error) {
	if file == "" {
		return strings.Join(words, " "), nil
	}
	b, err := a.readArg(file)
	return string(b), err
}

// checkSender refuses, before anything is recorded, an order or a
// referee's command from someone game would reject it from unread.
func (a *app) checkSender(game, id string, referee bool) error {
	log, err := a.open()
	if err != nil {
		return err
	}
	if h, err := log.Head(game); err != nil || h.Seq == 0 {
		return nil // submit says what is wrong
	}
	g, err := play.Load(log, a.reg, game, 0)
	if err != nil {
		return fmt.Errorf("game %s: %w", game, err)
	}
	if err := g.CheckSender(id, referee); err != nil {
		return fmt.Errorf("%w; nothing was recorded", err)
	}
	return nil
}

// submit appends an input to game's log and returns its seq.
func (a *app) submit(game string, p events.Payload) (uint64, error) {
	log, err := a.open()
	if err != nil {
		return 0, err
	}
	h, err := log.Head(game)
	if err != nil {
		return 0, err
	}
	if h.Seq == 0 {
		return 0, fmt.Errorf("no game %q", game)
	}
	now := time.Now().UTC()
	for {
		res, err := log.Do(store.Request{Game: game, Expected: h.Seq, Events: []events.Envelope{events.New(game, now, "", p)}})
		var conflict *store.ConflictError
		if errors.As(err, &conflict) {
			h.Seq = conflict.Actual
			continue
		}
		if err != nil {
			return 0, err
		}
		return res.First, nil
	}
}

// errRejected is the error of a command the engine rejected (it printed
// why).
var errRejected = errors.New("rejected")

// answer waits for the engine's decision on the input at seq and prints
// it: accepted, with what pbem read and what changed, or rejected, with
// each problem (and, for a referee's command that is no command at all,
// every command a referee has). Inside 'pbem serve' the running engine
// decides it; else an engine is run here for this game, and the mails it
// causes are sent when 'pbem serve' next runs. A rejection is told here
// only: the composer mails no one about an input typed on the command
// line (see compose's rejected).
func (a *app) answer(game string, seq uint64, wait time.Duration, referee bool) error {
	log, err := a.open()
	if err != nil {
		return err
	}
	if !a.inServer {
		comp, err := a.composer()
		if err != nil {
			return err
		}
		r := play.NewRunner(log, a.reg, play.RunnerOptions{Notifier: comp, Logger: a.lg})
		defer r.Close()
		r.Kick(game)
	}
	fmt.Fprintf(a.out, "recorded in %s at seq %d\n", game, seq)
	for end := time.Now().Add(wait); ; time.Sleep(20 * time.Millisecond) {
		d, at, err := play.DecisionOf(log, game, seq)
		if err != nil {
			return err
		}
		switch d := d.(type) {
		case *events.OrderAccepted:
			fmt.Fprintln(a.out, "accepted:")
			for _, l := range d.Echo {
				fmt.Fprintf(a.out, "  %s\n", l)
			}
			for _, f := range d.Facts {
				fmt.Fprintf(a.out, "  = %s\n", play.FactLine(f))
			}
			return a.printNewMailboxes(log, game, at)
		case *events.OrderRejected:
			fmt.Fprintln(a.out, "rejected; nothing of it was applied:")
			for _, p := range d.Problems {
				if p.Text != "" {
					fmt.Fprintf(a.out, "  | %s\n", p.Text)
				}
				fmt.Fprintf(a.out, "  %s\n", p)
			}
			if referee && unknownCommand(d.Problems) {
				fmt.Fprintf(a.out, "a referee's command is a ruling or correction for the rule system (named above), or one of these game commands:\n  %s\n",
					strings.Join(play.GameCommandForms, "\n  "))
			}
			return errRejected
		}
		if time.Now().After(end) {
			within := fmt.Sprintf("not decided within %v", wait)
			if wait <= 0 {
				within = "not waited for (--wait 0)"
			}
			fmt.Fprintf(a.out, "%s: 'pbem log %s --from %d' shows the decision once the engine makes it\n", within, game, seq)
			return nil
		}
	}
}

// printNewMailboxes prints the built-in mail host's mailboxes that the
// referee's command decided at seq decision gave seats, making those that
// have none yet: the password of each it made is printed here, to whoever
// gave the command, and goes into no mail.
func (a *app) printNewMailboxes(log logStore, game string, decision uint64) error {
	if !a.cfg.Mail.BuiltinHost() {
		return nil
	}
	comp, err := a.composer()
	if err != nil {
		return err
	}
	boxes, err := server.GrantMailboxes(log, comp, game, decision)
	if err != nil {
		return fmt.Errorf("the command was applied, but its seats' mailboxes on pbem's own mail host could not be made (pbem makes them when it first mails them; 'pbem mailboxes' then lists them): %w", err)
	}
	for i, b := range boxes {
		if i == 0 {
			fmt.Fprintln(a.out, "mailboxes on pbem's own mail host for the seats given:")
		}
		if b.Password == "" {
			fmt.Fprintf(a.out, "  %-32s user %-12s existed before: its holder has its password\n", b.Address, b.User)
			continue
		}
		fmt.Fprintf(a.out, "  %-32s user %-12s password %s   (new: pass it on to its holder yourself; pbem gives it to no one else)\n", b.Address, b.User, b.Password)
	}
	return nil
}

// unknownCommand says whether a rejected referee's command was refused at
// its first word, which is no game command: the referee did not know what
// to send.
func unknownCommand(probs []events.Problem) bool {
	for _, p := range probs {
		if p.Col != 1 {
			continue
		}
		word, _, _ := strings.Cut(strings.ToUpper(strings.TrimSpace(p.Text)), " ")
		if word != "" && !slices.Contains(gameCommandWords(), word) {
			return true
		}
	}
	return false
}

// gameCommandWords are the first words of play.GameCommandForms.
func gameCommandWords() []string {
	var ws []string
	for _, f := range play.GameCommandForms {
		for _, alt := range strings.Split(f, " / ") {
			if w := strings.Fields(alt); len(w) > 0 && w[0] == strings.ToUpper(w[0]) && !strings.HasPrefix(w[0], "(") {
				ws = append(ws, w[0])
			}
		}
	}
	return ws
}

func cmdQuarantine(a *app, fs *flag.FlagSet, args []string) error {
	show := fs.String("show", "", "print the raw mail of this record (a prefix of its id is enough)")
	if _, err := parseArgs(fs, args, 0); err != nil {
		return err
	}
	log, err := a.open()
	if err != nil {
		return err
	}
	qs, err := log.QuarantineList()
	if err != nil {
		return err
	}
	if *show != "" {
		var hit []store.Quarantined
		for _, q := range qs {
			if strings.HasPrefix(q.ID, *show) {
				hit = append(hit, q)
			}
		}
		if len(hit) != 1 {
			return fmt.Errorf("%d quarantined mails have an id starting %q", len(hit), *show)
		}
		q := hit[0]
		fmt.Fprintf(a.out, "id %s\nat %s, mailbox %s uid %d\nreason: %s\n", q.ID, q.At.Format(time.RFC3339), q.Mailbox, q.UID, q.Reason)
		if q.RestSHA256 != "" {
			fmt.Fprintf(a.out, "evidence: the first %d of %d bytes; SHA-256 of the other %d: %s\n", len(q.Raw), q.Size, q.Size-int64(len(q.Raw)), q.RestSHA256)
		}
		fmt.Fprintln(a.out)
		a.out.Write(q.Raw) // escaped on the way out: a mail's ESC and OSC sequences are shown, not played
		return nil
	}
	stats, err := log.QuarantineStats()
	if err != nil {
		return err
	}
	if len(qs) == 0 {
		fmt.Fprintln(a.out, "the quarantine is empty")
	}
	for _, q := range qs {
		fmt.Fprintf(a.out, "%s  %s  %-30s %s\n%14s reason: %s\n", q.ID[:12], q.At.Format("2006-01-02 15:04"), q.From, q.Subject, "", q.Reason)
	}
	if stats.Pruned > 0 {
		fmt.Fprintf(a.out, "%d older record(s) were pruned to keep the quarantine within %d MiB (mail.quarantine_mb)\n", stats.Pruned, a.cfg.Mail.QuarantineMB)
	}
	return nil
}
