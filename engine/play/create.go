package play

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"pbem/engine"
	"pbem/events"
	"pbem/store"
)

var playerIDRe = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,19}$`)

var gameIDRe = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,39}$`)

// ValidGameID checks a game id: lower-case letters, digits and dashes, at
// most 40, so it can stand in a NATS subject and a mail address.
func ValidGameID(id string) error {
	if !gameIDRe.MatchString(id) {
		return fmt.Errorf("game id %q: use 1-40 lower-case letters, digits and dashes, starting with a letter or digit", id)
	}
	return nil
}

// NewGame describes a game to create.
type NewGame struct {
	ID           string
	Ruleset      string
	ScenarioName string
	Scenario     []byte
	Players      []events.Player
	Referees     []events.Player
	Settings     []events.Setting
	// Observers, when set, are made observers of the new game by the
	// operator's OBSERVER ADD, an input appended with the creation (in
	// the same transaction) and decided like any other: a battle gets its
	// campaign's observers.
	Observers []string
	// Pause, when set, pauses the new game from the start by the
	// operator's PAUSE with this reason, an input appended with the
	// creation like the observers': a battle whose referee sets its
	// forces up waits for the referee's RESUME.
	Pause string
	At    time.Time // intake time of the creation
	// Welcome, when set, returns the mails to queue with the creation (in
	// the same transaction): the welcome mail to each player, referee and
	// observer.
	Welcome func(g *Game) ([]events.Payload, error)
	// TacticalScenarios, when set, reads a rule system's scenario: a
	// campaign whose scenario maps its units to the forces of tactical
	// scenarios is created only if each mapping opens its battle
	// (CheckBattlePlans).
	TacticalScenarios func(system, name string) ([]byte, error)
	// Seed, when set, is the dice seed instead of a fresh random one: for
	// a benchmark that must play the same game every run. A real game's
	// seed is always drawn (pbem new has no way to set it).
	Seed []byte
}

// Appender is what Create needs of the store.
type Appender interface {
	Do(store.Request) (store.Result, error)
}

// Create checks that the scenario sets up, draws the game's dice seed and
// appends game.created with only the seed's commitment; the seed itself is
// stored beside the log in the same transaction, to be revealed when the
// game ends. It returns the created event.
func Create(log Appender, reg *engine.Registry, ng NewGame) (events.Envelope, error) {
	e, dup, err := create(log, reg, ng)
	if err == nil && dup {
		return events.Envelope{}, fmt.Errorf("create %s: a game with this id already exists", ng.ID)
	}
	return e, err
}

// create is Create, which reports a game created already (its key, the
// game's id, recorded) as dup rather than as an error: a battle is
// opened once however often it is tried.
func create(log Appender, reg *engine.Registry, ng NewGame) (_ events.Envelope, dup bool, err error) {
	defer engine.Recover(&err, "creating the game")
	if err := ValidGameID(ng.ID); err != nil {
		return events.Envelope{}, false, err
	}
	rs, err := reg.Get(ng.Ruleset)
	if err != nil {
		return events.Envelope{}, false, err
	}
	seen := map[string]bool{}
	for _, p := range append(append([]events.Player(nil), ng.Players...), ng.Referees...) {
		if !playerIDRe.MatchString(p.ID) || p.ID == engine.RefereeSide || p.ID == OperatorID {
			return events.Envelope{}, false, fmt.Errorf("player id %q: use 1-20 lower-case letters, digits and dashes (it appears in reply addresses), not %q or %q", p.ID, engine.RefereeSide, OperatorID)
		}
		if seen[p.ID] {
			return events.Envelope{}, false, fmt.Errorf("player ids must be unique: %q twice", p.ID)
		}
		seen[p.ID] = true
	}
	initial, err := rs.Setup(ng.Scenario, ng.Players)
	if err != nil {
		return events.Envelope{}, false, fmt.Errorf("scenario %s: %w", ng.ScenarioName, err)
	}
	if ng.TacticalScenarios != nil {
		if err := CheckBattlePlans(reg, rs, ng.ScenarioName, ng.Scenario, ng.TacticalScenarios); err != nil {
			return events.Envelope{}, false, fmt.Errorf("the scenario's [battles] would not open: %w", err)
		}
	}
	pol, err := ParsePolicy(ng.Settings)
	if err != nil {
		return events.Envelope{}, false, err
	}
	if p, r, a, shared := sharedAddress(ng.Players, ng.Referees); shared && !pol.RefereePlays {
		return events.Envelope{}, false, fmt.Errorf("%s is both the player of %s and the referee %s: a referee who plays would rule on his own disputes; give the game another referee, or create it with the setting %s=yes (every player is then told, and that referee's pauses end by themselves like the players')",
			a, p.Side, r.ID, SettingRefereePlays)
	}
	// A default the rules would refuse at the deadline is refused now,
	// while the operator is there to hear it.
	if err := (&Game{Rules: rs, Players: ng.Players}).checkAtDeadline(initial, pol.AtDeadline); err != nil {
		return events.Envelope{}, false, fmt.Errorf("setting %s: %w (write an order every side may send, such as PASS, or referee)", SettingAtDeadline, err)
	}
	seed := ng.Seed
	if seed == nil {
		if seed, err = NewSeed(); err != nil {
			return events.Envelope{}, false, err
		}
	}
	created := &events.GameCreated{Ruleset: rs.Name(), RulesetVersion: rs.Version(), ScenarioName: ng.ScenarioName,
		Scenario: ng.Scenario, Players: ng.Players, Referees: ng.Referees, SeedCommitment: Commit(seed), Settings: ng.Settings}
	evs := []events.Envelope{events.New(ng.ID, ng.At, "create:"+ng.ID, created)}
	if ng.Welcome != nil {
		g := &Game{ID: ng.ID}
		first := evs[0]
		first.Chain(1, events.Hash{})
		if err := g.Apply(reg, &first); err != nil {
			return events.Envelope{}, false, err
		}
		// The observers it is created with are welcomed with the players
		// (their command, below, is decided after the welcome is queued).
		g.Observers = slices.Clone(ng.Observers)
		// A game created paused (a battle the referee sets up) is
		// welcomed as it opens: paused, waiting for the referee.
		if ng.Pause != "" {
			g.Paused = &Pause{By: OperatorID, At: ng.At.UnixNano(), Reason: ng.Pause}
		}
		mails, err := ng.Welcome(g)
		if err != nil {
			return events.Envelope{}, false, fmt.Errorf("welcome mails: %w", err)
		}
		for _, m := range mails {
			evs = append(evs, events.New(ng.ID, ng.At, "", m))
		}
	}
	if len(ng.Observers) > 0 {
		var lines []string
		for _, a := range ng.Observers {
			lines = append(lines, CmdObserver+" ADD "+a)
		}
		key := "observers:" + ng.ID
		evs = append(evs, events.New(ng.ID, ng.At, key, &events.RefereeCommand{Referee: OperatorID, Text: strings.Join(lines, "\n"),
			Reason: "the observers the game was created with", Source: "create", MessageID: key}))
	}
	if ng.Pause != "" {
		key := "pause:" + ng.ID
		evs = append(evs, events.New(ng.ID, ng.At, key, &events.RefereeCommand{Referee: OperatorID, Text: CmdPause + " " + ng.Pause,
			Reason: "the game was created to wait for this", Source: "create", MessageID: key}))
	}
	res, err := log.Do(store.Request{Game: ng.ID, Expected: 0, Events: evs, Secret: seed})
	if err != nil {
		return events.Envelope{}, false, fmt.Errorf("create %s: %w", ng.ID, err)
	}
	if res.Duplicate {
		return events.Envelope{}, true, nil
	}
	return res.Events[0], false, nil
}
