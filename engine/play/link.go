package play

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"pbem/engine"
	"pbem/events"
	"pbem/store"
)

// Linked games: a campaign (GCACW) whose assault is fought out as a
// battle of another rule system. The campaign's ruleset says, as data
// (engine.Linker), which battles its state waits on; the runtime creates
// each battle as a game of its own, through the same durable path as any
// new game (play.Create, keyed by the battle's game id, so it is created
// once however often it is tried), with the campaign's players on the
// sides the campaign maps them to, its referees, observers and settings,
// and the setting "parent" naming the campaign and the battle's key
// there. When the battle ends, its result goes back to the campaign as a
// referee's command of the operator (the order the campaign's ruleset
// writes for it), keyed by the battle's id and its final hash, so it is
// applied once however often it is sent. The campaign's decision of that command
// records the battle's game and final hash: VerifyLink checks them
// against the battle's log.

// SettingParent is a battle's campaign and the battle's key there:
// "<campaign game id> <battle key>".
const SettingParent = "parent"

// LinkLog is what linking needs of the store: reading games and
// appending to them.
type LinkLog interface {
	Source
	Appender
}

// Links are what the runner needs to open battles: the tactical
// scenarios (by rule system and name) and the welcome mails of a new game.
type Links struct {
	Scenario func(system, name string) ([]byte, error)
	Welcome  func(g *Game) ([]events.Payload, error)
	// Hand, when set (a node of a cluster), hands an ended battle's result
	// to the node that holds its campaign: handled is false when that is
	// this node, or no node, and the result is taken here (TakeResult);
	// true once the campaign's holder has taken it durably (appended, or
	// had it already, or no longer waits on it). An error leaves it
	// unhanded: the battle's actor tries again, and whoever loads the
	// battle next (after a restart, a takeover) does, since its
	// game.ended is the durable intent.
	Hand func(r Result) (handled bool, err error)
	// Exists, when set (a node of a cluster), reports whether a game
	// exists on any node: a battle another node holds, which this
	// node's own log does not have, is not opened again.
	Exists func(game string) (bool, error)
	// HandAbandon, when set (a node of a cluster), hands the abandon of a
	// battle a campaign's rollback closed the assault of to the node that
	// holds the battle: handled is false when that is this node, or no
	// node, and the abandon is appended here (AbandonBattle); true once
	// the battle's holder has it durably (appended, or had it already, or
	// the battle is over). An error leaves it unhanded: the campaign's
	// actor tries again at each tick, and whoever loads the campaign next
	// does, since its rollback is the durable record of what is owed.
	HandAbandon func(a Abandonment) (handled bool, err error)
	// HandWithdraw, when set (a node of a cluster), hands the withdrawal
	// a battle's rollback owes its campaign to the node that holds the
	// campaign: handled is false when that is this node, or no node, and
	// it is taken here (TakeWithdrawal); true once the campaign's holder
	// has taken it durably (appended, or had it already, or owes none).
	// An error leaves it unhanded: the battle's actor tries again at each
	// tick, and whoever loads the battle next does, since its rollback is
	// the durable record of what is owed.
	HandWithdraw func(w Withdrawal) (handled bool, err error)
}

// BattleGameID is the game id of the battle key of campaign: the
// campaign's id and the key, the campaign's part shortened to fit the 40
// characters of a game id.
func BattleGameID(campaign, key string) string {
	key = strings.ToLower(key)
	room := 40 - 1 - len(key)
	if room < 1 {
		return key[:40]
	}
	if len(campaign) > room {
		campaign = strings.TrimRight(campaign[:room], "-")
	}
	return campaign + "-" + key
}

// BattleID is the game id of battle b of campaign g: BattleGameID of
// its key, marked with the number of rollbacks the campaign has had (a
// battle opened again after a rollback is a new game, never the one the
// rollback abandoned). A rollback that withdrew a battle's result does
// not count: the campaign waits on that same battle again.
func BattleID(g *Game, b engine.Battle) string {
	key := b.Key
	n := 0
	for _, br := range g.Branches {
		if br.Withdraws == "" {
			n++
		}
	}
	if n > 0 {
		key += fmt.Sprintf("-r%d", n)
	}
	return BattleGameID(g.ID, key)
}

// Parent is the campaign of a battle game and the battle's key there, as
// its creation says; ok is false for a game that is no battle.
func Parent(g *Game) (campaign, key string, ok bool) {
	if g.Created == nil {
		return "", "", false
	}
	for _, s := range g.Created.Settings {
		if s.Key == SettingParent {
			campaign, key, ok = strings.Cut(strings.TrimSpace(s.Value), " ")
			return campaign, key, ok
		}
	}
	return "", "", false
}

// SettingParentWhat says what a battle is fought out for in its
// campaign ("the assault on 0504"), for its mails.
const SettingParentWhat = "parent-what"

// ParentText names a battle game's campaign for its mails: the campaign's
// id, and "the assault on 0504 (battle t1-a1-0504) of campaign camp";
// both "" for a game that is no battle.
func ParentText(g *Game) (campaign, text string) {
	c, key, ok := Parent(g)
	if !ok {
		return "", ""
	}
	what := "battle " + key
	for _, s := range g.Created.Settings {
		if s.Key == SettingParentWhat && s.Value != "" {
			what = s.Value + " (battle " + key + ")"
		}
	}
	return c, what + " of campaign " + c
}

// Battles are the battles g's state waits on (none for a game whose rule
// system links no battles).
func Battles(g *Game) []engine.Battle {
	lk, ok := g.Rules.(engine.Linker)
	if !ok || g.State == nil || g.Ended != nil {
		return nil
	}
	return lk.Battles(g.State)
}

// OpenBattles creates each battle g waits on that is not created yet, at
// time at (the time of the decision that opened it), and returns the
// created events (none for a battle created already).
func OpenBattles(log LinkLog, reg *engine.Registry, g *Game, l Links, at time.Time) ([]events.Envelope, error) {
	var out []events.Envelope
	for _, b := range Battles(g) {
		// Opened already: no need to set its scenario up again to hear so.
		exists := false
		_ = log.Read(BattleID(g, b), 1, func(*events.Envelope) error {
			exists = true
			return errStop
		})
		if !exists && l.Exists != nil {
			var err error
			if exists, err = l.Exists(BattleID(g, b)); err != nil {
				return out, fmt.Errorf("opening battle %s of %s: %w", b.Key, g.ID, err)
			}
		}
		if exists {
			continue
		}
		ng, err := battleGame(g, b, l, at)
		if err != nil {
			return out, err
		}
		e, dup, err := create(log, reg, ng)
		if err != nil {
			return out, fmt.Errorf("opening battle %s of %s: %w", b.Key, g.ID, err)
		}
		if !dup {
			out = append(out, e)
		}
	}
	return out, nil
}

// CheckBattlePlans checks that each battle campaign scenario scen (of
// ruleset rs) may have fought out can open: its tactical rule system is
// here, scenarios has its scenario, the sides are that scenario's, and
// each force the mapping names is a force of that scenario on the side
// its unit's side plays. An error names the scenario's line, so the
// operator hears of a bad mapping when the campaign is created, never
// from a battle that fails to open while the campaign waits on it.
func CheckBattlePlans(reg *engine.Registry, rs engine.Ruleset, name string, scen []byte, scenarios func(system, name string) ([]byte, error)) error {
	bp, ok := rs.(engine.BattlePlanner)
	if !ok {
		return nil
	}
	plans, err := bp.BattlePlans(scen)
	if err != nil {
		return err
	}
	var errs []error
	for _, p := range plans {
		if err := CheckBattlePlan(reg, p, scenarios); err != nil {
			errs = append(errs, fmt.Errorf("scenario %s: %w", name, err))
		}
	}
	return errors.Join(errs...)
}

// CheckBattlePlan checks that battle p can open (CheckBattlePlans); an
// error names the campaign scenario's line.
func CheckBattlePlan(reg *engine.Registry, p engine.BattlePlan, scenarios func(system, name string) ([]byte, error)) error {
	var forces []engine.BattleForce
	for _, f := range p.Forces {
		forces = append(forces, f.Force)
	}
	var errs []error
	for _, pe := range openProblems(reg, p.System, p.Scenario, p.Sides, forces, scenarios) {
		if pe.force < 0 {
			return fmt.Errorf("line %d (%s): %w", p.Line, p.What, pe.err)
		}
		f := p.Forces[pe.force]
		errs = append(errs, fmt.Errorf("line %d (force %s %q, %s): %w", f.Line, f.Unit, f.Force.Force, p.What, pe.err))
	}
	return errors.Join(errs...)
}

// openProblem is why a battle cannot open: its scenario (force -1) or
// one of its forces (the index).
type openProblem struct {
	force int
	err   error
}

// openProblems says why a battle of system's scenario, with the campaign's
// sides on its sides and forces mustered from the campaign, cannot open
// (none if it can): the rule system is not here, scenarios has no such
// scenario, the sides are not the scenario's, or a force is not one of
// the scenario's on the side its unit's side plays.
func openProblems(reg *engine.Registry, system, scenario string, sides []engine.BattleSide, forces []engine.BattleForce, scenarios func(system, name string) ([]byte, error)) []openProblem {
	fail := func(err error) []openProblem { return []openProblem{{force: -1, err: err}} }
	tac, err := reg.Get(system)
	if err != nil {
		return fail(err)
	}
	if scenarios == nil {
		return fail(errors.New("no tactical scenarios here to fight it out in"))
	}
	scen, err := scenarios(system, scenario)
	if err != nil {
		return fail(fmt.Errorf("%s has no scenario %s: %w", system, scenario, err))
	}
	var players []events.Player
	for _, sd := range sides {
		// The campaign's side stands for its player: "player USA plays side …".
		players = append(players, events.Player{ID: sd.Side, Side: sd.Tactical})
	}
	if _, err := tac.Setup(scen, players); err != nil {
		return fail(fmt.Errorf("%s scenario %s: %w", system, scenario, err))
	}
	var out []openProblem
	for i, f := range forces {
		with := append(slices.Clip(scen), engine.MusterText([]engine.BattleForce{f})...)
		if _, err := tac.Setup(with, players); err != nil {
			out = append(out, openProblem{force: i, err: err})
		}
	}
	return out
}

// unopenableHint is what the referee may do when the battle he named
// cannot open.
const unopenableHint = "nothing changed, and the assault still waits for your ruling: send RULE FIGHT OUT again with a scenario and sides that system has, or rule the assault yourself"

// refuseUnopenable refuses an accepted decision that would have g wait on
// a battle that cannot open (openProblems, against the registry's
// built-in scenarios): a referee's RULE FIGHT OUT naming a scenario the
// tactical system does not have, or sides that are not its sides, is
// answered with what is wrong, and the assault waits on his ruling as
// before, instead of the campaign waiting on a battle that never opens.
// The audit re-decides through the same check, so it agrees. A registry
// that knows no scenarios (NewRegistry) checks nothing here; the runner
// then finds the battle's failure when it opens it. A decision that
// rolled dice is kept (a refusal carries no dice, and its audit could not
// re-roll them): the battles of a campaign scenario's own mapping, the
// only ones a player's order opens, were checked when it was created.
func (g *Game) refuseUnopenable(reg *engine.Registry, dec events.Payload, st engine.State, out engine.Outcome) (events.Payload, engine.State, engine.Outcome) {
	acc, ok := dec.(*events.OrderAccepted)
	lk, linker := g.Rules.(engine.Linker)
	if !ok || !linker || st == nil || len(acc.Dice) > 0 || !reg.HasScenarios() {
		return dec, st, out
	}
	var was []string
	for _, b := range Battles(g) {
		was = append(was, b.Key)
	}
	var probs []events.Problem
	for _, b := range lk.Battles(st) {
		if slices.Contains(was, b.Key) {
			continue
		}
		fought := fmt.Sprintf("%s cannot be fought out as a battle of %s, scenario %s", b.What, b.System, b.Scenario)
		if _, err := reg.Scenario(b.System, b.Scenario); err != nil {
			probs = append(probs, events.Problem{Msg: fmt.Sprintf("%s: %s has no scenario of that name (its scenarios: %s)", fought, b.System, strings.Join(reg.ScenarioNames(b.System), ", ")), Hint: unopenableHint})
			continue
		}
		for _, pe := range openProblems(reg, b.System, b.Scenario, b.Sides, b.Muster, reg.Scenario) {
			msg := fmt.Sprintf("%s: %v", fought, pe.err)
			if pe.force >= 0 {
				f := b.Muster[pe.force]
				msg = fmt.Sprintf("%s: %s as %s: %v", fought, f.Unit, f.Force, pe.err)
			}
			probs = append(probs, events.Problem{Msg: msg, Hint: unopenableHint})
		}
	}
	if len(probs) == 0 {
		return dec, st, out
	}
	return &events.OrderRejected{Input: acc.Input, Player: acc.Player, RulesetVersion: acc.RulesetVersion, Problems: probs}, g.State, engine.Outcome{}
}

// battleGame is the new game of battle b of campaign g.
func battleGame(g *Game, b engine.Battle, l Links, at time.Time) (NewGame, error) {
	if l.Scenario == nil {
		return NewGame{}, errors.New("no tactical scenarios to open a battle from")
	}
	scen, err := l.Scenario(b.System, b.Scenario)
	if err != nil {
		return NewGame{}, fmt.Errorf("battle %s of %s: scenario %s of %s: %w", b.Key, g.ID, b.Scenario, b.System, err)
	}
	var players []events.Player
	for _, p := range g.Players {
		for _, s := range b.Sides {
			if p.Side == s.Side {
				q := p
				q.Side = s.Tactical
				players = append(players, q)
			}
		}
	}
	var settings []events.Setting
	for _, s := range g.Settings {
		// The campaign's default at a deadline is an order of its rules,
		// not the battle's; a campaign's parent is not the battle's.
		if s.Key != SettingAtDeadline && s.Key != SettingParent && s.Key != SettingParentWhat {
			settings = append(settings, s)
		}
	}
	settings = append(settings, events.Setting{Key: SettingParent, Value: g.ID + " " + b.Key}, events.Setting{Key: SettingParentWhat, Value: b.What})
	// The forces the campaign's mapping gives go into the battle's own
	// scenario, so its creation holds them: every replay, verify and
	// audit sets the battle up the same from its log alone.
	if len(b.Muster) > 0 {
		scen = append(slices.Clip(scen), engine.MusterText(b.Muster)...)
	}
	ng := NewGame{ID: BattleID(g, b), Ruleset: b.System, ScenarioName: b.Scenario, Scenario: scen,
		Players: players, Referees: g.Referees, Settings: settings, Observers: g.Observers, At: at, Welcome: l.Welcome}
	if b.RefereeForces {
		// The referee sets the battle up by mail before anyone moves: it
		// opens paused, and the referee's SET commands, then RESUME, start it.
		ng.Pause = "the referee sets up the forces of " + b.What + " (SET a unit's strength, or REMOVED on for a force that does not take part), then sends RESUME to start it"
	}
	return ng, nil
}

// BattleEndOf is how battle game g ended, read from its log: the hash of
// its game.ended event, the winner and each side's losses; ok is false
// while it has not ended.
func BattleEndOf(src Source, g *Game) (engine.BattleEnd, bool, error) {
	if g.Ended == nil {
		return engine.BattleEnd{}, false, nil
	}
	var final events.Hash
	err := src.Read(g.ID, 1, func(e *events.Envelope) error {
		if e.Type == events.TypeGameEnded {
			final = e.Hash
		}
		return nil
	})
	if err != nil {
		return engine.BattleEnd{}, false, fmt.Errorf("battle %s: %w", g.ID, err)
	}
	if final.IsZero() {
		return engine.BattleEnd{}, false, fmt.Errorf("battle %s: ended, but its log holds no game.ended", g.ID)
	}
	end := engine.BattleEnd{Game: g.ID, Final: final, Winner: g.Ended.Winner, Reason: g.Ended.Reason}
	if lc, ok := g.Rules.(engine.LossCounter); ok && g.State != nil {
		end.Lost = lc.Losses(g.State)
	}
	return end, true, nil
}

// ResultKey is the idempotency key of a battle's result in its campaign.
func ResultKey(end engine.BattleEnd) string { return "battle:" + end.Game + ":" + end.Final.Hex() }

// Result is a battle's result on its way to its campaign: what the
// campaign's holder needs to take it, whichever node of a cluster that
// is (it does not read the battle's log).
type Result struct {
	Campaign string           `json:"campaign"`
	Key      string           `json:"key"` // the battle's key in the campaign
	End      engine.BattleEnd `json:"end"`
	// At is the battle's end (its game.ended event's time): the time of
	// the input in the campaign, so the same logs give the same campaign.
	At int64 `json:"at"`
}

// ResultOf is the result battle game g carries to its campaign, read
// from its log; ok is false for a game that is no battle, or has not
// ended.
func ResultOf(src Source, g *Game) (Result, bool, error) {
	campaign, key, ok := Parent(g)
	if !ok || g.Ended == nil {
		return Result{}, false, nil
	}
	end, ok, err := BattleEndOf(src, g)
	if err != nil || !ok {
		return Result{}, false, err
	}
	return Result{Campaign: campaign, Key: key, End: end, At: endAt(src, g)}, true, nil
}

// CarryBack appends the result of battle game g, once it has ended, to its
// campaign as an input (a referee's command of the operator), unless the
// campaign no longer waits on it. It returns the appended event, if any.
func CarryBack(log LinkLog, reg *engine.Registry, g *Game) (*events.Envelope, error) {
	r, ok, err := ResultOf(log, g)
	if err != nil || !ok {
		return nil, err
	}
	return TakeResult(log, reg, r)
}

// TakeResult appends the battle's result r to its campaign as an input (a
// referee's command of the operator), keyed by ResultKey, unless the
// campaign no longer waits on that battle or has the result already. It
// returns the appended event, if any. It reads only the campaign's log:
// the node of a cluster holding the campaign takes a result handed to it
// by the node holding the battle.
func TakeResult(log LinkLog, reg *engine.Registry, r Result) (*events.Envelope, error) {
	campaign, key, end := r.Campaign, r.Key, r.End
	for range 100 {
		parent, err := Load(log, reg, campaign, 0)
		if err != nil {
			return nil, fmt.Errorf("battle %s: its campaign: %w", end.Game, err)
		}
		var b *engine.Battle
		for _, x := range Battles(parent) {
			if x.Key == key && BattleID(parent, x) == end.Game {
				b = &x
			}
		}
		if b == nil || waitingResult(parent, ResultKey(end)) {
			return nil, nil // taken already, or no longer waited on
		}
		lk := parent.Rules.(engine.Linker)
		cmd := &events.RefereeCommand{Referee: OperatorID, Text: lk.BattleResult(*b, end), Reason: "the result of " + b.What + ", fought out as game " + end.Game,
			Source: "battle", MessageID: ResultKey(end)}
		// The result's time is the battle's end: the same logs in, the
		// same campaign out.
		at := time.Unix(0, r.At).UTC()
		res, err := log.Do(store.Request{Game: campaign, Expected: parent.Seq, Events: []events.Envelope{events.New(campaign, at, ResultKey(end), cmd)}})
		var conflict *store.ConflictError
		switch {
		case errors.As(err, &conflict):
			continue
		case err != nil:
			return nil, fmt.Errorf("battle %s: carrying its result to %s: %w", end.Game, campaign, err)
		case res.Duplicate:
			return nil, nil
		}
		return &res.Events[0], nil
	}
	return nil, fmt.Errorf("battle %s: its campaign %s kept changing", end.Game, campaign)
}

// waitingResult reports whether an input keyed key waits undecided in g.
func waitingResult(g *Game, key string) bool {
	for _, in := range g.Pending {
		if in.Key == key {
			return true
		}
	}
	return false
}

// endAt is the time of g's game.ended event.
func endAt(src Source, g *Game) int64 {
	var at int64
	_ = src.Read(g.ID, 1, func(e *events.Envelope) error {
		if e.Type == events.TypeGameEnded {
			at = e.At
		}
		return nil
	})
	return at
}

// LogReader reads a game's log.
type LogReader interface {
	Read(game string, from uint64, fn func(*events.Envelope) error) error
}

// VerifyLinks checks game's links to the games it is linked with, from
// their logs alone: each battle result the game took (an input keyed
// "battle:<battle>:<final hash>") against the battle's log (it names this
// game as its parent, and its game.ended has that hash); and, for a
// battle, that its campaign exists and names it back once it has taken
// its result. It returns a line for each link it checked, and an error
// saying what does not match.
func VerifyLinks(src LogReader, game string) ([]string, error) {
	var lines []string
	var bad []string
	created := func(id string) (*events.GameCreated, error) {
		var gc *events.GameCreated
		err := src.Read(id, 1, func(e *events.Envelope) error {
			if e.Type == events.TypeGameCreated {
				p, err := events.Decode(e)
				if err != nil {
					return err
				}
				gc = p.(*events.GameCreated)
			}
			return errStop
		})
		if errors.Is(err, errStop) {
			err = nil
		}
		if err == nil && gc == nil {
			err = fmt.Errorf("game %s does not exist", id)
		}
		return gc, err
	}
	finals := func(id string) (map[events.Hash]bool, error) {
		out := map[events.Hash]bool{}
		err := src.Read(id, 1, func(e *events.Envelope) error {
			if e.Type == events.TypeGameEnded {
				out[e.Hash] = true
			}
			return nil
		})
		return out, err
	}
	var results []string             // keys of the results this game took
	withdrawals := map[string]bool{} // and of those it withdrew ("withdraw:…")
	err := src.Read(game, 1, func(e *events.Envelope) error {
		if strings.HasPrefix(e.Key, "battle:") {
			results = append(results, e.Key)
		}
		if strings.HasPrefix(e.Key, "withdraw:") {
			withdrawals[e.Key] = true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, k := range results {
		rest := strings.TrimPrefix(k, "battle:")
		id, hx, ok := strings.Cut(rest, ":")
		if !ok {
			bad = append(bad, fmt.Sprintf("result %q: not a battle's id and final hash", k))
			continue
		}
		gc, err := created(id)
		if err != nil {
			bad = append(bad, fmt.Sprintf("battle %s: %v", id, err))
			continue
		}
		parent := ""
		for _, s := range gc.Settings {
			if s.Key == SettingParent {
				parent, _, _ = strings.Cut(s.Value, " ")
			}
		}
		if parent != game {
			bad = append(bad, fmt.Sprintf("battle %s names %q as its campaign, not %s", id, parent, game))
			continue
		}
		fs, err := finals(id)
		if err != nil {
			bad = append(bad, fmt.Sprintf("battle %s: %v", id, err))
			continue
		}
		found := false
		for h := range fs {
			found = found || h.Hex() == hx
		}
		if !found {
			bad = append(bad, fmt.Sprintf("battle %s: its log has no game.ended with the final hash %s this game took", id, hx))
			continue
		}
		if withdrawals["withdraw:"+rest] {
			lines = append(lines, fmt.Sprintf("battle %s: its final hash %s is in its log, in a branch its rollback closed; the result was withdrawn", id, hx))
			continue
		}
		lines = append(lines, fmt.Sprintf("battle %s: its final hash %s matches its log", id, hx))
	}
	gc, err := created(game)
	if err != nil {
		return lines, err
	}
	for _, s := range gc.Settings {
		if s.Key != SettingParent {
			continue
		}
		parent, key, _ := strings.Cut(s.Value, " ")
		if _, err := created(parent); err != nil {
			bad = append(bad, fmt.Sprintf("campaign %s: %v", parent, err))
			continue
		}
		fs, err := finals(game)
		if err != nil {
			return lines, err
		}
		live, err := liveEnd(src, game)
		if err != nil {
			return lines, err
		}
		took := ""
		withdrawn := map[string]bool{}
		err = src.Read(parent, 1, func(e *events.Envelope) error {
			if strings.HasPrefix(e.Key, "battle:"+game+":") {
				took = strings.TrimPrefix(e.Key, "battle:"+game+":")
			}
			if h, ok := strings.CutPrefix(e.Key, "withdraw:"+game+":"); ok {
				withdrawn[h] = true
			}
			return nil
		})
		if err != nil {
			return lines, err
		}
		switch {
		case took == "":
			lines = append(lines, fmt.Sprintf("campaign %s (battle %s): has not taken this battle's result", parent, key))
		case !slices.ContainsFunc(slices.Collect(maps.Keys(fs)), func(h events.Hash) bool { return h.Hex() == took }):
			bad = append(bad, fmt.Sprintf("campaign %s took a result of this battle with final hash %s, which this log does not hold", parent, took))
		case withdrawn[took]:
			lines = append(lines, fmt.Sprintf("campaign %s (battle %s): withdrew the result it took (final hash %s, an end this battle's rollback closed) and has not taken a new one", parent, key, took))
		case took != live:
			bad = append(bad, fmt.Sprintf("campaign %s holds a result of this battle with final hash %s, an end this battle's rollback closed, and has not withdrawn it", parent, took))
		default:
			lines = append(lines, fmt.Sprintf("campaign %s (battle %s): took this battle's result, final hash %s", parent, key, took))
		}
	}
	if len(bad) > 0 {
		return lines, fmt.Errorf("links: %s", strings.Join(bad, "; "))
	}
	return lines, nil
}

// abandonedBy begins the reason a battle abandoned by its campaign's
// rollback ended with: such a battle takes no ROLLBACK (its campaign no
// longer waits on it).
const abandonedBy = "abandoned: campaign"

// Abandonment is a battle a rollback of its campaign closed the assault
// of, on its way to the battle's holder: what that node needs to end the
// battle (it does not read the campaign's log).
type Abandonment struct {
	Battle   string `json:"battle"`
	Campaign string `json:"campaign"`
	// Key is the idempotency key of the abandon in the battle's log: the
	// campaign and its rollback's seq.
	Key    string `json:"key"`
	Text   string `json:"text"`
	Reason string `json:"reason"`
	// At is the time of the campaign's rollback event: the time of the
	// input in the battle, so the same logs give the same battle.
	At int64 `json:"at"`
}

// Abandonments are the battles the rollbacks of campaign g closed the
// assaults of, each with its keyed abandon; whether each was opened, and
// is still being fought, is for the node holding it to say.
func Abandonments(log LinkLog, reg *engine.Registry, g *Game) ([]Abandonment, error) {
	var out []Abandonment
	for _, br := range g.Branches {
		old, err := Load(log, reg, g.ID, br.To)
		if err != nil {
			return out, fmt.Errorf("campaign %s before its rollback at seq %d: %w", g.ID, br.By, err)
		}
		var at int64
		_ = log.Read(g.ID, br.By, func(e *events.Envelope) error {
			at = e.At
			return errStop
		})
		for _, b := range Battles(old) {
			id := BattleID(old, b)
			if waitsOn(g, id) {
				continue // waited on again (its result withdrawn)
			}
			out = append(out, Abandonment{Battle: id, Campaign: g.ID, Key: fmt.Sprintf("abandon:%s:%d", g.ID, br.By),
				Text:   fmt.Sprintf("END DRAW %s %s was rolled back past %s (its seq %d)", abandonedBy, g.ID, b.What, br.By),
				Reason: "the campaign was rolled back past the battle's assault", At: at})
		}
	}
	return out, nil
}

// Abandon ends each battle a rollback of campaign g closed the assault
// of: the campaign no longer waits on it, so the battle ends, a draw, by
// the operator's END with the reason, keyed by the campaign and the
// rollback (an event in the battle's log, once). A battle another node
// of a cluster holds is handed to that node (l.HandAbandon), never
// appended here; l may be nil (a single server). It returns the events
// appended here.
func Abandon(log LinkLog, reg *engine.Registry, g *Game, l *Links) ([]events.Envelope, error) {
	abs, err := Abandonments(log, reg, g)
	var out []events.Envelope
	var errs []error
	if err != nil {
		errs = append(errs, err)
	}
	for _, ab := range abs {
		if l != nil && l.HandAbandon != nil {
			handled, err := l.HandAbandon(ab)
			if err != nil {
				errs = append(errs, fmt.Errorf("handing the abandon of battle %s to its node: %w", ab.Battle, err))
				continue
			}
			if handled {
				continue
			}
		}
		e, err := AbandonBattle(log, reg, ab)
		if err != nil {
			errs = append(errs, err)
		}
		if e != nil {
			out = append(out, *e)
		}
	}
	return out, errors.Join(errs...)
}

// AbandonBattle appends the abandon ab to its battle, keyed by ab.Key,
// unless the battle was never opened (here), or is over already. It
// returns the appended event, if any. It reads only the battle's log: the
// node of a cluster holding the battle takes an abandon handed to it by
// the node holding the campaign.
func AbandonBattle(log LinkLog, reg *engine.Registry, ab Abandonment) (*events.Envelope, error) {
	id := ab.Battle
	battle, err := Load(log, reg, id, 0)
	if err != nil || battle.Ended != nil {
		return nil, nil // never opened, or over already
	}
	cmd := &events.RefereeCommand{Referee: OperatorID, Source: "battle", MessageID: ab.Key, Text: ab.Text, Reason: ab.Reason}
	at := time.Unix(0, ab.At).UTC()
	for range 100 {
		res, err := log.Do(store.Request{Game: id, Expected: battle.Seq, Events: []events.Envelope{events.New(id, at, ab.Key, cmd)}})
		var conflict *store.ConflictError
		if errors.As(err, &conflict) {
			if battle, err = Load(log, reg, id, 0); err != nil {
				return nil, err
			}
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("abandoning battle %s: %w", id, err)
		}
		if res.Duplicate {
			return nil, nil
		}
		return &res.Events[0], nil
	}
	return nil, fmt.Errorf("abandoning battle %s: it kept changing", id)
}

// waitsOn reports whether campaign g waits on battle game id.
func waitsOn(g *Game, id string) bool {
	for _, b := range Battles(g) {
		if BattleID(g, b) == id {
			return true
		}
	}
	return false
}

// Withdrawing a result. A battle rolled back to before its end (its
// referee's ROLLBACK, which an ended battle takes) re-opens its assault
// in the campaign. Until the campaign has the result, that needs nothing:
// CarryBack carries only the battle's live end, never one a rollback
// closed. Once the campaign holds the result, "re-open" means: the
// runtime sends the campaign the operator's ROLLBACK to just before the
// input that carried the result, keyed "withdraw:<battle>:<final hash>"
// (once however often sent), so the campaign is as it was when it waited
// on the battle, waits on the same battle game again, and what it did
// after taking the result stays in its log as a closed branch (a battle
// it opened since is abandoned, as after any rollback). When the battle
// ends again, its new end is carried back as any end is; verify checks
// the campaign's live result against the battle's live end.

// WithdrawKey is the idempotency key of the withdrawal of a battle's
// result with final hash final from its campaign.
func WithdrawKey(battle string, final events.Hash) string {
	return "withdraw:" + battle + ":" + final.Hex()
}

// ErrResultUndecided means a campaign has yet to decide a battle's result
// whose withdrawal is due, or the withdrawal: Withdraw is tried again
// once it has.
var ErrResultUndecided = errors.New("the campaign has yet to decide the result to withdraw")

// Withdrawal is what a battle's rollbacks owe its campaign, on its way
// from the battle's node to the campaign's holder: what that node needs
// to withdraw the results of ends the rollbacks closed (it does not read
// the battle's log).
type Withdrawal struct {
	Battle   string `json:"battle"`
	Campaign string `json:"campaign"`
	// Live is the final hash (hex) of the battle's live end, "" while it
	// is played on: a result of that end is not withdrawn.
	Live string `json:"live,omitempty"`
	// At is the time of the battle's last rollback: the time of the
	// withdrawal in the campaign, so the same logs give the same campaign.
	At int64 `json:"at"`
}

// WithdrawalOf is the withdrawal battle game g's rollbacks owe its
// campaign, read from g's log alone; ok is false when g is no battle or
// was never rolled back.
func WithdrawalOf(src Source, g *Game) (Withdrawal, bool, error) {
	campaign, _, ok := Parent(g)
	if !ok || len(g.Branches) == 0 {
		return Withdrawal{}, false, nil
	}
	w := Withdrawal{Battle: g.ID, Campaign: campaign}
	if end, ok, err := BattleEndOf(src, g); err != nil {
		return Withdrawal{}, false, err
	} else if ok {
		w.Live = end.Final.Hex()
	}
	br := g.Branches[len(g.Branches)-1]
	_ = src.Read(g.ID, br.By, func(e *events.Envelope) error {
		w.At = e.At
		return errStop
	})
	return w, true, nil
}

// Withdraw withdraws from battle game g's campaign each result of g the
// campaign took in its live line whose end g's rollbacks closed: it
// appends the operator's ROLLBACK of the campaign to just before that
// result (an event, keyed WithdrawKey). It returns the appended event,
// if any. It is WithdrawalOf then TakeWithdrawal, on one log.
func Withdraw(log LinkLog, reg *engine.Registry, g *Game) (*events.Envelope, error) {
	w, ok, err := WithdrawalOf(log, g)
	if err != nil || !ok {
		return nil, err
	}
	return TakeWithdrawal(log, reg, w)
}

// TakeWithdrawal appends to w's campaign the withdrawal of the first
// result of w's battle its live line holds whose end the battle's
// rollbacks closed (neither withdrawn already nor the battle's live
// end). It reads only the campaign's log: the node of a cluster holding
// the campaign takes a withdrawal handed to it by the battle's node.
func TakeWithdrawal(log LinkLog, reg *engine.Registry, w Withdrawal) (*events.Envelope, error) {
	g := &Game{ID: w.Battle}
	campaign, live := w.Campaign, w.Live
	for range 100 {
		parent, err := Load(log, reg, campaign, 0)
		if err != nil {
			return nil, fmt.Errorf("battle %s: its campaign: %w", g.ID, err)
		}
		// The results of g the campaign's log holds, the withdrawals, and
		// the decisions of each input.
		type result struct {
			seq  uint64
			hash string
			at   time.Time
		}
		var results []result
		withdrawn := map[string]uint64{}
		accepted := map[uint64]bool{}
		decided := map[uint64]bool{}
		err = log.Read(campaign, 1, func(e *events.Envelope) error {
			switch {
			case strings.HasPrefix(e.Key, "battle:"+g.ID+":"):
				results = append(results, result{e.Seq, strings.TrimPrefix(e.Key, "battle:"+g.ID+":"), e.Time()})
			case strings.HasPrefix(e.Key, "withdraw:"+g.ID+":"):
				withdrawn[strings.TrimPrefix(e.Key, "withdraw:"+g.ID+":")] = e.Seq
			case e.Type == events.TypeOrderAccepted || e.Type == events.TypeOrderRejected:
				p, err := events.Decode(e)
				if err != nil {
					return err
				}
				switch d := p.(type) {
				case *events.OrderAccepted:
					accepted[d.Input], decided[d.Input] = true, true
				case *events.OrderRejected:
					decided[d.Input] = true
				}
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("battle %s: reading its campaign %s: %w", g.ID, campaign, err)
		}
		var due *result
		for i := range results {
			r := results[i]
			if w, ok := withdrawn[r.hash]; ok && !decided[w] {
				// Its campaign has yet to roll back: the battle's new end,
				// if any, is carried once it has.
				return nil, fmt.Errorf("battle %s: withdrawal at seq %d of %s: %w", g.ID, w, campaign, ErrResultUndecided)
			}
			if _, ok := withdrawn[r.hash]; ok || r.hash == live {
				continue
			}
			if _, closed := InBranch(parent.Branches, r.seq); closed {
				continue // the campaign rolled back past it already
			}
			if !decided[r.seq] {
				return nil, fmt.Errorf("battle %s: result at seq %d of %s: %w", g.ID, r.seq, campaign, ErrResultUndecided)
			}
			if accepted[r.seq] {
				due = &r
				break
			}
		}
		if due == nil {
			return nil, nil
		}
		key := "withdraw:" + g.ID + ":" + due.hash
		// The withdrawal's time is the battle's rollback's: the same logs
		// in, the same campaign out.
		at := due.at
		if w.At != 0 {
			at = time.Unix(0, w.At).UTC()
		}
		cmd := &events.RefereeCommand{Referee: OperatorID, Source: "battle", MessageID: key,
			Text:   fmt.Sprintf("ROLLBACK TO %d", due.seq-1),
			Reason: "battle " + g.ID + " was rolled back to before its end: the result the campaign took from it is withdrawn"}
		res, err := log.Do(store.Request{Game: campaign, Expected: parent.Seq, Events: []events.Envelope{events.New(campaign, at, key, cmd)}})
		var conflict *store.ConflictError
		switch {
		case errors.As(err, &conflict):
			continue
		case err != nil:
			return nil, fmt.Errorf("battle %s: withdrawing its result from %s: %w", g.ID, campaign, err)
		case res.Duplicate:
			return nil, nil
		}
		return &res.Events[0], nil
	}
	return nil, fmt.Errorf("battle %s: its campaign %s kept changing", g.ID, campaign)
}

// CarryEnded carries to campaign g the result of each battle it waits on
// that has ended already (one that ended while its campaign did not wait
// on it: before a withdrawal of its earlier result was decided). It
// returns the appended events.
func CarryEnded(log LinkLog, reg *engine.Registry, g *Game) ([]events.Envelope, error) {
	var out []events.Envelope
	for _, b := range Battles(g) {
		id := BattleID(g, b)
		exists := false
		_ = log.Read(id, 1, func(*events.Envelope) error {
			exists = true
			return errStop
		})
		if !exists {
			continue // not opened yet
		}
		battle, err := Load(log, reg, id, 0)
		if err != nil {
			return out, err
		}
		if battle.Ended == nil {
			continue
		}
		e, err := CarryBack(log, reg, battle)
		if err != nil {
			return out, err
		}
		if e != nil {
			out = append(out, *e)
		}
	}
	return out, nil
}

// liveEnd is the hex of the final hash of game's live end, read from its
// log: its last game.ended, unless a rollback (which an ended battle
// takes) came after it; "" when it has none.
func liveEnd(src LogReader, game string) (string, error) {
	live := ""
	err := src.Read(game, 1, func(e *events.Envelope) error {
		switch e.Type {
		case events.TypeGameEnded:
			live = e.Hash.Hex()
		case events.TypeOrderAccepted:
			if live == "" {
				return nil
			}
			p, err := events.Decode(e)
			if err != nil {
				return err
			}
			for _, f := range p.(*events.OrderAccepted).Facts {
				if f.Kind == FactRollback {
					live = ""
				}
			}
		}
		return nil
	})
	return live, err
}
