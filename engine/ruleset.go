package engine

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"sort"
	"strings"
	"sync"

	"pbem/engine/draw"
	"pbem/events"
)

// RefereeSide is the side a referee's rulings are parsed and decided as.
const RefereeSide = "referee"

// GameFactPrefix starts the kind of every fact the runtime itself decides
// (the roster, pauses, deadlines, rollbacks, sealed orders, reveals):
// such facts are applied by the runtime and never passed to a ruleset's
// Evolve, and a ruleset must not use the prefix.
const GameFactPrefix = "pbem."

// IsGameFact reports whether f is one of the runtime's own facts.
func IsGameFact(f events.Fact) bool { return strings.HasPrefix(f.Kind, GameFactPrefix) }

// State is a ruleset's game state. Rulesets treat it as immutable: Evolve
// returns a new State and never changes its input.
type State any

// Order is one parsed order, in the ruleset's own representation.
type Order any

// Viewer is who looks at the game: a player (Player, and the Side they
// play), a referee (who sees everything), or an observer (all empty), who
// sees only what is public. A ruleset's View leaves out what the viewer
// may not see: another side's hidden hand, a secret choice, a marker
// placed face down.
type Viewer struct {
	Player  string
	Side    string
	Referee bool
}

// Sees reports whether the viewer may see something of visibility v
// before any reveal (the runtime also opens what a reveal or the game's
// end has opened). A referee sees everything but what is for one player
// alone (what players write to each other, when the game keeps it from
// the referees).
func (v Viewer) Sees(vis events.Vis) bool {
	return v.Referee && vis.RefereesSee() || vis.Open(v.Player, v.Side)
}

// View is what one viewer may see of a state (hidden information removed),
// in the ruleset's own representation.
type View any

// Prompt says who must act now and what they may send.
type Prompt struct {
	Side     string   // the side that must act ("" for the referee)
	Referee  bool     // the step is the referee's (a ruling the rules hand over)
	What     string   // one line: what is asked, e.g. "take or pass the initiative"
	Examples []string // orders that would be accepted now, one per line
	// Sealed names a simultaneous step ("volleys of round 3"): every side
	// prompted with the same name chooses without seeing the others'
	// choice. The runtime then keeps each side's orders hidden in the log
	// until every one of those sides has sent them (or its deadline has
	// passed), and decides them together, side by side in the order of
	// the prompts, so Decide never sees a sealed order alone. Orders of
	// one sealed step must be decidable in any order of the sides.
	Sealed string
}

// Board is a rendered picture: a window of at most 78 columns around the
// action for a mail body, and the whole map for an attachment.
type Board struct {
	Window string
	Full   string
}

// Decision is what Decide made of one action: how each line was read, and
// either the facts it produced or the problems that reject it. Each fact
// carries its visibility (events.Fact.Vis; zero is public); EchoVis, when
// set, gives each echo line's (a line that names a card kept in hand is
// for its player alone). Problems are only ever shown to the sender.
type Decision struct {
	Echo     []string
	EchoVis  []events.Vis
	Facts    []events.Fact
	Problems []events.Problem
}

// Dice rolls dice for a decision. Rolls are drawn from the game's committed
// seed and recorded with the decision, each with its visibility.
type Dice interface {
	// Roll returns a value in 1..sides, thrown for purpose (e.g. "march MA"),
	// that everyone sees.
	Roll(purpose string, sides int) int
	// As returns the same dice, whose rolls only the viewers of vis see
	// (their number and value too) until the game ends and its seed is
	// revealed: a draw from a deck into one player's hand.
	As(vis events.Vis) Dice
}

// Outcome says whether and how a game is over.
type Outcome struct {
	Over   bool
	Winner string // a side, or "" for a draw
	Reason string
}

// Ruleset is a rule system. Every method is pure: no clock, no I/O, no
// global random source, no map iteration that reaches an output.
type Ruleset interface {
	// Name is the ruleset's id ("gcacw"); Version changes whenever a
	// decision could change, so the audit can tell which code decided what.
	Name() string
	Version() string
	// Setup builds the initial state from a scenario file and the players.
	Setup(scenario []byte, players []events.Player) (State, error)
	// Parse reads the order text a side sent. Problems carry line and
	// column. Side is RefereeSide for a referee's ruling.
	Parse(s State, side, text string) ([]Order, []events.Problem)
	// Decide turns one action into facts, rolling dice as the rules say.
	Decide(s State, side string, orders []Order, dice Dice) (Decision, error)
	// Evolve applies one fact and returns the next state. It keeps
	// nothing of f but strings: a replay decodes each decision's facts,
	// their arguments and their lists into memory it reuses for the next
	// decision, so a list the state keeps must be copied.
	Evolve(s State, f events.Fact) (State, error)
	// Prompt says who must act now and what they may send.
	Prompt(s State) []Prompt
	// View is what v may see of s.
	View(s State, v Viewer) View
	// Render draws a view as ASCII.
	Render(v View) Board
	// Outcome says whether the game is over.
	Outcome(s State) Outcome
	// Facts and Describe: every fact Decide makes has a schema and a
	// sentence (Teller).
	Teller
	// EncodeState and DecodeState give a state's canonical bytes (used for
	// snapshots and to compare states byte for byte). DecodeState gets the
	// game's initial state (from Setup, shared by every game of the same
	// scenario), so a ruleset may leave out of its encoding what never
	// changes (the map) and take it from there.
	EncodeState(s State) ([]byte, error)
	DecodeState(b []byte, initial State) (State, error)
}

// Registry is the explicit list of rule systems a binary offers (no init()
// magic: cmd/pbem builds it). It also remembers recent initial states:
// Setup is pure and states are immutable, so every game of one scenario
// can share its parsed initial state (and its map's memory).
type Registry struct {
	m        map[string]func() Ruleset
	versions map[[2]string]func() Ruleset // by name and version
	// scenarios are the rule systems' built-in scenarios, by system, when
	// the registry was built from Systems (NewRegistryOf).
	scenarios map[string]scenarioShelf

	mu     sync.Mutex
	setups map[setupKey]*setupEntry
	order  []setupKey
}

// scenarioShelf is a rule system's built-in scenarios: their names, and
// how to read one.
type scenarioShelf struct {
	names func() []string
	read  func(name string) ([]byte, error)
}

// setupKey finds an initial state: the ruleset version, and a hash of the
// scenario and players (maphash: a replay sets up every game it folds, and
// a cryptographic hash of a whole scenario was most of that).
type setupKey struct {
	name, version string
	sum           uint64
}

// setupEntry is a cached initial state with what it was set up from,
// compared in full on every hit, so a hash collision is never a wrong state.
type setupEntry struct {
	scenario, players []byte
	st                State
}

var setupSeed = maphash.MakeSeed()

// setupCacheSize bounds the initial states kept (one per scenario and
// player list in play).
const setupCacheSize = 128

// NewRegistry builds a registry from constructors. The first constructor
// of a name is the current version, which decides new input; later ones
// of the same name are earlier versions kept so that the audit can
// re-decide each logged decision with the version that made it.
func NewRegistry(rs ...func() Ruleset) *Registry {
	r := &Registry{m: map[string]func() Ruleset{}, versions: map[[2]string]func() Ruleset{}, setups: map[setupKey]*setupEntry{}}
	for _, f := range rs {
		rs := f()
		if _, ok := r.m[rs.Name()]; !ok {
			r.m[rs.Name()] = f
		}
		if _, ok := r.versions[[2]string{rs.Name(), rs.Version()}]; !ok {
			r.versions[[2]string{rs.Name(), rs.Version()}] = f
		}
	}
	return r
}

// GetVersion returns a fresh ruleset of a given name and version, if
// this binary keeps that version.
func (r *Registry) GetVersion(name, version string) (Ruleset, bool) {
	if r == nil {
		return nil, false
	}
	f, ok := r.versions[[2]string{name, version}]
	if !ok {
		return nil, false
	}
	return f(), true
}

// Get returns a fresh ruleset by name.
func (r *Registry) Get(name string) (Ruleset, error) {
	if r != nil {
		if f, ok := r.m[name]; ok {
			return f(), nil
		}
	}
	return nil, fmt.Errorf("unknown ruleset %q (known: %v)", name, r.Names())
}

// Setup returns rs.Setup(scenario, players), shared with every earlier
// call for the same ruleset version, scenario and players.
func (r *Registry) Setup(rs Ruleset, scenario []byte, players []events.Player) (State, error) {
	st, _, err := r.SetupShared(rs, scenario, players)
	return st, err
}

// SetupShared is Setup, also returning the registry's own copy of the scenario
// (equal to scenario), which a game may keep instead of its own: games of
// one scenario then hold its bytes once, not once each.
func (r *Registry) SetupShared(rs Ruleset, scenario []byte, players []events.Player) (State, []byte, error) {
	w := events.NewWriter(make([]byte, 0, 256))
	for _, p := range players {
		w.String(p.ID)
		w.String(p.Side)
		w.Strings(p.Addresses)
	}
	ps := w.Bytes()
	var h maphash.Hash
	h.SetSeed(setupSeed)
	h.Write(scenario) // hashed where it is, not copied
	h.WriteByte(0)
	h.Write(ps)
	key := setupKey{name: rs.Name(), version: rs.Version(), sum: h.Sum64()}
	r.mu.Lock()
	e := r.setups[key]
	r.mu.Unlock()
	if e != nil && bytes.Equal(e.scenario, scenario) && bytes.Equal(e.players, ps) {
		return e.st, e.scenario, nil
	}
	// The ruleset sets up from the registry's own copy: scenario may be a
	// view of a log's bytes, which no state may keep.
	own := bytes.Clone(scenario)
	st, err := rs.Setup(own, players)
	if err != nil {
		return nil, nil, err
	}
	r.mu.Lock()
	if _, dup := r.setups[key]; !dup {
		if len(r.order) >= setupCacheSize {
			delete(r.setups, r.order[0])
			r.order = r.order[1:]
		}
		r.setups[key] = &setupEntry{scenario: own, players: ps, st: st}
		r.order = append(r.order, key)
	}
	r.mu.Unlock()
	return st, own, nil
}

// Names lists the registered rulesets, sorted.
func (r *Registry) Names() []string {
	var ns []string
	if r != nil {
		for n := range r.m {
			ns = append(ns, n)
		}
	}
	sort.Strings(ns)
	return ns
}

// Teller is how a ruleset tells its facts, part of every Ruleset: the
// runtime checks each decision's facts against Facts, mails tell them
// with Describe, and the acceptance suite requires both for every fact
// of a whole game.
type Teller interface {
	// Facts lists every kind of fact Decide makes, with its arguments
	// (see FactSchema): the runtime refuses a decision with a fact that
	// does not match, and the acceptance suite checks a whole game's.
	Facts() []FactSchema
	// Describe tells a fact in plain words for players' mails, one
	// sentence ("6th Wisconsin fires at 2nd Virginia: 5, a hit; 2nd
	// Virginia drops to state 2"); s is the state before the decision
	// that made it. The raw form stays in pbem log. A fact that says
	// nothing a player needs to read (bookkeeping) may return "".
	Describe(s State, f events.Fact) string
}

// Turner is an optional Ruleset method: Turn says which game turn a state
// is in (1 for the first), so 'pbem replay --turn N' and the campaign
// report can find where each turn begins.
type Turner interface {
	Turn(s State) int
}

// RefereeStepper is an optional Ruleset method (every adapted Rules has
// it, nil when its Extras name no steps): RefereeSteps lists, one
// line each, the steps a game set up as s would hand to a referee (where
// the rules stop, or a table they refer to is not loaded). An empty list
// means the rules and the scenario's data cover every step, so two
// players can finish the game alone; 'pbem new' refuses a game without a
// referee whose scenario leaves any step to one, and names the steps.
type RefereeStepper interface {
	RefereeSteps(s State) []string
}

// Summarizer is an optional Ruleset method (every adapted Rules has it,
// the zero Summary when its Extras give none): what a game set up as s
// (Setup with no players) is, for 'pbem scenarios' and 'pbem new'.
type Summarizer interface {
	Summarize(s State) Summary
}

// Summary is what a scenario is, as its rule system reads it.
type Summary struct {
	// Sides are its sides, in the rules' order, spelt as its orders and
	// games spell them.
	Sides []string
	// Size is its map or table in words ("32 x 26 hexes", "48 x 48
	// inches"); "" when the scenario fixes none.
	Size string
	// Turns is how many turns it lasts; 0 when the scenario sets no end.
	Turns int
	// Rules are the house rules and options it is played with, one a
	// line, where an Explainer's welcome sections do not already say them.
	Rules []string
}

// Explainer is an optional Ruleset method (every adapted Rules has it,
// nil when its Extras give none): sections of the rule system's
// own for the mails that answer HELP and STATUS, and for the welcome mail
// (word is ExplainHelp, ExplainStatus or ExplainWelcome), as viewer v may
// read them: what v may do now with an example each, v's orders waiting
// (queued, standing), the rules and readings a game is played with.
type Explainer interface {
	Explain(s State, v Viewer, word string) []Explanation
}

// Guider is an optional Ruleset method (every adapted Rules has it, the
// zero OrderGuide when its Extras give none): the rule system's own
// examples for the how-to-write-orders part of the welcome and HELP
// mails, which every system shares but whose examples are each one's.
type Guider interface {
	Guide() OrderGuide
}

// OrderGuide is a rule system's examples of the order conventions all
// share: a keyword shortened to a unique prefix, and, where its orders
// take one, a condition given in advance on dice pbem will roll.
type OrderGuide struct {
	// Prefix and Keyword: "MAR" for "MARCH" (Prefix must be a unique
	// prefix among the system's keywords).
	Prefix, Keyword string
	// Conditions are examples of conditions after an order, "FORCE IF
	// MA < 4, STOP AT 2316"; "" when the system's orders take none.
	Conditions string
}

// Explanation is one section of an Explainer's: a heading and its
// paragraphs, one a line.
type Explanation struct {
	Heading string
	Lines   []string
}

// The words an Explainer is asked for.
const (
	// ExplainWelcome: the welcome mail's sections, the rules a game is
	// played with.
	ExplainWelcome = "WELCOME"
	// ExplainScenario: the welcome's sections for the operator ('pbem
	// scenarios --long'), who may also read the ids a scenario file's
	// lines use ("reading A9 exhaust"); a rule system that has nothing
	// more for the operator gives nil, and the welcome's are shown.
	ExplainScenario = "SCENARIO"
	// ExplainHelp: the answer to HELP, what the reader may do now.
	ExplainHelp = "HELP"
	// ExplainStatus: the answer to STATUS, the reader's orders waiting.
	ExplainStatus = "STATUS"
)

// Drawer is an optional Ruleset method: Draw draws a view as a picture
// (an engine/draw scene: SVG for the campaign report, PNG in mails). It
// is drawn from the same View as Render, so it shows exactly what the
// ASCII board shows the viewer and nothing more (the leak test compares
// drawings as it compares boards). A nil scene means the rule system
// draws nothing (an adapted Rules whose Extras have no Draw).
type Drawer interface {
	Draw(v View) *draw.Scene
}

// Counter is an optional Ruleset method: Count is each side's strength
// as a view shows it (what the number counts is the rule system's: men,
// strength points, stands), one entry a side in a fixed order, for the
// campaign report's casualties chart. Nil means the rule system counts
// nothing.
type Counter interface {
	Count(v View) []SideCount
}

// SideCount is one side's strength in a view.
type SideCount struct {
	Side  string
	Value int
	Unit  string // what Value counts: "manpower", "strength points"
}

// CountSides is a Counter's answer from a list of units: each side's sum
// of value over its units (a unit whose value gives another side, or
// counts 0, adds nothing), in the order of sides; unit names what the
// values count.
func CountSides[U any](sides []string, unit string, units []U, value func(u U) (side string, n int)) []SideCount {
	out := make([]SideCount, len(sides))
	for i, s := range sides {
		out[i] = SideCount{Side: s, Unit: unit}
	}
	for i := range units {
		side, n := value(units[i])
		for j := range out {
			if out[j].Side == side {
				out[j].Value += n
			}
		}
	}
	return out
}
