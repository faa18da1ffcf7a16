package gbacw

import (
	"slices"

	"pbem/engine/hex"
)

// Phases of a turn (3).
const (
	PhaseStart      = "start"      // before the first turn: BEGIN
	PhaseCommand    = "command"    // 3.2: Division Orders, Reinforcement Orders, Reserves (sealed)
	PhaseActivation = "activation" // 3.3: AMs drawn, each activation's orders
	PhaseCommanders = "commanders" // 3.4.1: Commander Movement
	PhaseOver       = "over"
)

// Unit is a combat unit on the map (or waiting to arrive, or gone).
type Unit struct {
	Name    string  `json:"name"`
	Side    string  `json:"side"`
	Brigade string  `json:"brigade"`
	Hex     hex.Hex `json:"hex"`
	// Facing is a vertex (hex.Vertex), or for a unit on March orders a
	// side (hex.Direction) (GBACW 7.1, 10.2).
	Facing int    `json:"facing"`
	Stack  int    `json:"stack,omitempty"` // order in the hex: lower is higher up (8.3)
	SP     int    `json:"sp"`
	Order  string `json:"order"` // the last order it received (5.5)

	Disordered bool `json:"disordered,omitempty"`
	Routed     bool `json:"routed,omitempty"`
	Removed    bool `json:"removed,omitempty"` // eliminated or routed off the map
	Off        bool `json:"off,omitempty"`     // a reinforcement not yet arrived
	Mounted    bool `json:"mounted,omitempty"`
	Blown      bool `json:"blown,omitempty"`
	Extended   bool `json:"extended,omitempty"`
	Refused    bool `json:"refused,omitempty"`
	Fatigue    int  `json:"fatigue,omitempty"`
	OOC        bool `json:"ooc,omitempty"`   // out of command this turn (5.5)
	Skip       int  `json:"skip,omitempty"`  // division activations still to skip (5.5)
	Works      int  `json:"works,omitempty"` // turns of construction done (R13)

	// This phase (the brigade's action phase, 3.3).
	MP       int  `json:"mp,omitempty"` // half MPs spent
	Moved    bool `json:"moved,omitempty"`
	Fired    bool `json:"fired,omitempty"`
	Shocked  bool `json:"shocked,omitempty"`
	WM       bool `json:"wm,omitempty"`
	Recover  bool `json:"recover,omitempty"`
	Build    bool `json:"build,omitempty"`
	Charged  bool `json:"charged,omitempty"`
	Switched bool `json:"switched,omitempty"`  // mounted or dismounted this phase (16.2)
	FreeFace bool `json:"free_face,omitempty"` // its order changed to or from March (7.3)
	HexTurns int  `json:"hex_turns,omitempty"` // points of facing turned in its hex this phase (7.4)

	// Reactions used (13.1-13.4, 7.6), per brigade activation (B12).
	Used []string `json:"used,omitempty"`

	// This turn (19.6): bits turnMoved, turnFired, turnShocked.
	Turn int `json:"turn_flags,omitempty"`
}

// Leader is a leader counter (17).
type Leader struct {
	Name     string  `json:"name"`
	Side     string  `json:"side"`
	Hex      hex.Hex `json:"hex"`
	Killed   bool    `json:"killed,omitempty"`
	Replaced bool    `json:"replaced,omitempty"` // reverse side up (17.7)
	OOC      bool    `json:"ooc,omitempty"`
	MP       int     `json:"mp,omitempty"` // half MPs spent this phase
	Off      bool    `json:"off,omitempty"`
}

// Brigade is a brigade's state: its order (R8), whether it is in
// reserve, and its activations this turn.
type Brigade struct {
	Name    string `json:"name"`
	Order   string `json:"order"`
	Skip    int    `json:"skip,omitempty"` // activations to skip (5.5)
	Acts    int    `json:"acts,omitempty"` // activations this turn (20.2)
	CI      bool   `json:"ci,omitempty"`
	Arrived bool   `json:"arrived,omitempty"`
}

// Division is a division's activation markers and state.
type Division struct {
	Name string `json:"name"`
	AMs  int    `json:"ams"`
	CI   bool   `json:"ci,omitempty"`
	OOC  bool   `json:"ooc,omitempty"`
}

// Standing is a standing reaction order (docs/ORDERS.md), kept until changed.
type Standing struct {
	Side     string `json:"side"`
	Scope    string `json:"scope"` // a unit, a brigade, or "" for the whole side
	Reaction string `json:"reaction"`
	Rule     string `json:"rule"` // ALWAYS, NEVER, ASK, or conditions
}

// Activation is the activation being played: its AM, the side it
// belongs to, and the orders being carried out (Prog).
type Activation struct {
	AM       string   `json:"am"`                 // "<side>|<division>" or "<side>|March"
	Side     string   `json:"side"`               // whose AM
	Acting   []string `json:"acting"`             // the brigades it activates
	Skipping []string `json:"skipping,omitempty"` // brigades and units that skip it (5.5)
	Group    []string `json:"group,omitempty"`    // brigades coordinated (3.3)
	Prog     *Prog    `json:"prog,omitempty"`
	Changed  []string `json:"changed,omitempty"` // brigades that tried an order change this activation
}

// Prog is an activation's orders being carried out step by step. A step
// that needs an answer (a reaction no standing order covers, a ruling no
// chart gives) is suspended: what it rolled is kept (Rolls) and rolled
// again from there when it runs again with the answer (Answers).
type Prog struct {
	Text    []string `json:"text"` // the orders, one a line, as sent
	At      int      `json:"at"`
	Step    int      `json:"step"`
	Rolls   []int    `json:"rolls,omitempty"`
	Answers []string `json:"answers,omitempty"`
	Ask     *Ask     `json:"ask,omitempty"`
}

// Ask is a question the game waits on: a reaction asked of the
// non-moving side, or a ruling asked of the referee.
type Ask struct {
	Side     string   `json:"side,omitempty"` // "" for the referee
	Key      string   `json:"key"`            // what the answer is filed under
	What     string   `json:"what"`
	Examples []string `json:"examples"`
}

// State is the game between two facts.
type State struct {
	Scn   *ScenarioDef `json:"-"`
	Turn  int          `json:"turn"`
	Phase string       `json:"phase"`
	// Initiative holds the side with the initiative this turn ("" none),
	// Previous last turn's (4.1a).
	Initiative string `json:"initiative,omitempty"`
	Previous   string `json:"previous,omitempty"`
	// OCMP is the MP each army commander spent in the last Commander
	// Movement Phase (4.1b, B3), in half MPs; OCHexes the hexes.
	OCMP    []int `json:"oc_mp"`
	OCHexes []int `json:"oc_hexes"`

	Units     []*Unit    `json:"units"` // each shared until a fact changes it (see mutUnit)
	Leaders   []Leader   `json:"leaders"`
	Brigades  []Brigade  `json:"brigades"`
	Divisions []Division `json:"divisions"`

	// MarchAMs is how many March AMs each side has this turn (-1: the
	// referee is to rule it).
	MarchAMs []int     `json:"march_ams"`
	Pool     []string  `json:"pool,omitempty"`  // AMs not yet drawn, sorted ("USA|<division>")
	Works    []hex.Hex `json:"works,omitempty"` // hexes with finished works (R13)
	First    []string  `json:"first,omitempty"` // the initiative side's chosen AM (4.2)
	// Again is a March AM that activates its columns again before the
	// next draw (10.1: one marker, 1-4 activations in a row).
	Again    string      `json:"again,omitempty"`
	Act      *Activation `json:"act,omitempty"`
	Done     []string    `json:"done,omitempty"`     // sides done with this segment's mail
	Releases []string    `json:"releases,omitempty"` // reserves to release this turn: "<brigade>=<order>"
	Ruling   *Ask        `json:"ruling,omitempty"`   // a ruling the referee owes outside an activation
	Rulings  []string    `json:"rulings,omitempty"`

	Standing []Standing `json:"standing,omitempty"`
	Held     []string   `json:"held"` // the side holding each objective (R18)
	Lost     []int      `json:"lost"` // SP each side has lost, USA then CSA

	Focus  []hex.Hex `json:"focus,omitempty"`
	Winner string    `json:"winner,omitempty"`
	Result string    `json:"result,omitempty"`

	owned    int    // the parts this copy owns (see own)
	ownUnits []bool // the units this copy owns (see mutUnit)
}

func newState(sc *ScenarioDef) *State {
	st := &State{Scn: sc, Phase: PhaseStart, OCMP: []int{0, 0}, OCHexes: []int{0, 0}, Lost: []int{0, 0}, MarchAMs: []int{0, 0}}
	for _, d := range sc.Units {
		b := sc.brigadeDef(d.Brigade)
		u := Unit{Name: d.Name, Side: sc.sideOfBrigade(d.Brigade), Brigade: d.Brigade, Hex: d.Hex, Facing: d.Facing,
			SP: d.StartSP, Order: b.Order, Mounted: d.Mounted, Off: b.Arrives > 1}
		st.Units = append(st.Units, &u)
	}
	for _, d := range sc.Leaders {
		l := Leader{Name: d.Name, Side: d.Side, Hex: d.Hex}
		for _, b := range sc.Brigades {
			if b.Leader == d.Name && b.Arrives > 1 {
				l.Off = true
			}
		}
		st.Leaders = append(st.Leaders, l)
	}
	for _, b := range sc.Brigades {
		st.Brigades = append(st.Brigades, Brigade{Name: b.Name, Order: b.Order, Arrived: b.Arrives <= 1})
	}
	for _, d := range sc.Divisions {
		st.Divisions = append(st.Divisions, Division{Name: d.Name})
	}
	for _, o := range sc.Objectives {
		st.Held = append(st.Held, o.Held)
	}
	st.restack()
	return st
}

// The parts of a state a fact may change, each copied only when a fact
// of the decision changes it (a replay copies the state once per
// decision, and most decisions touch little of it).
const (
	partUnits = 1 << iota
	partLeaders
	partBrigades
	partDivisions
	partAct
	// The small lists, each its own part: a fact that appends to one
	// list or sets one entry copies that list alone. A fact that replaces
	// a list whole (s.Pool = ...) needs none.
	partPool
	partMarch
	partWorks
	partDone
	partReleases
	partStanding
	partHeld
	partLost
	partFocus
	partOC
	partFirst
	partRulings
	partAll   = 1<<iota - 1
	partLists = partPool | partMarch | partWorks | partDone | partReleases | partStanding | partHeld | partLost | partFocus | partOC | partFirst | partRulings
)

// clone copies st so the copy can be changed: a shallow copy that owns
// none of its parts yet (own copies a part before it changes).
func (s *State) clone() *State {
	c := *s
	c.owned, c.ownUnits = 0, nil
	return &c
}

// mutUnit returns the unit at i to be changed: its own copy, made the
// first time (the copy's slice of units must be owned, partUnits).
func (s *State) mutUnit(i int) *Unit {
	if s.owned&partUnits == 0 {
		panic("gbacw: a unit changed in a state that does not own its units")
	}
	if !s.ownUnits[i] {
		u := *s.Units[i]
		s.Units[i] = &u
		s.ownUnits[i] = true
	}
	return s.Units[i]
}

// mutUnitNamed is mutUnit by name, nil if there is none.
func (s *State) mutUnitNamed(name string) *Unit {
	if i, ok := s.Scn.unitIndex[name]; ok && i < len(s.Units) && s.Units[i].Name == name {
		return s.mutUnit(i)
	}
	for i, u := range s.Units {
		if u.Name == name {
			return s.mutUnit(i)
		}
	}
	return nil
}

// own copies the parts of s that it does not own yet. A unit's Used list
// stays shared (it is copied where it changes).
func (s *State) own(parts int) {
	need := parts &^ s.owned
	if need == 0 {
		return
	}
	s.owned |= need
	if need&partUnits != 0 {
		s.Units = slices.Clone(s.Units) // the pointers: each unit is copied when it changes
		s.ownUnits = make([]bool, len(s.Units))
	}
	if need&partLeaders != 0 {
		s.Leaders = slices.Clone(s.Leaders)
	}
	if need&partBrigades != 0 {
		s.Brigades = slices.Clone(s.Brigades)
	}
	if need&partDivisions != 0 {
		s.Divisions = slices.Clone(s.Divisions)
	}
	if need&partLists != 0 {
		if need&partOC != 0 {
			s.OCMP = slices.Clone(s.OCMP)
			s.OCHexes = slices.Clone(s.OCHexes)
		}
		if need&partPool != 0 {
			s.Pool = slices.Clone(s.Pool)
		}
		if need&partMarch != 0 {
			s.MarchAMs = slices.Clone(s.MarchAMs)
		}
		if need&partWorks != 0 {
			s.Works = slices.Clone(s.Works)
		}
		if need&partFirst != 0 {
			s.First = slices.Clone(s.First)
		}
		if need&partDone != 0 {
			s.Done = slices.Clone(s.Done)
		}
		if need&partReleases != 0 {
			s.Releases = slices.Clone(s.Releases)
		}
		if need&partRulings != 0 {
			s.Rulings = slices.Clone(s.Rulings)
		}
		if need&partStanding != 0 {
			s.Standing = slices.Clone(s.Standing)
		}
		if need&partHeld != 0 {
			s.Held = slices.Clone(s.Held)
		}
		if need&partLost != 0 {
			s.Lost = slices.Clone(s.Lost)
		}
		if need&partFocus != 0 {
			s.Focus = slices.Clone(s.Focus)
		}
	}
	if need&partAct != 0 && s.Act != nil {
		// The activation and its program are copied; their lists are
		// shared: a fact replaces a list whole, or appends to it with
		// slices.Clip (a new array, never the shared one's spare room).
		a := *s.Act
		if a.Prog != nil {
			p := *a.Prog
			a.Prog = &p
		}
		s.Act = &a
	}
	// Ruling and a Prog's Ask are never changed in place: a fact replaces
	// them whole.
}

// --- lookups ---

func (s *State) unit(name string) *Unit {
	if i, ok := s.Scn.unitIndex[name]; ok && i < len(s.Units) && s.Units[i].Name == name {
		return s.Units[i]
	}
	for i := range s.Units {
		if s.Units[i].Name == name {
			return s.Units[i]
		}
	}
	return nil
}

func (s *State) leader(name string) *Leader {
	for i := range s.Leaders {
		if s.Leaders[i].Name == name {
			return &s.Leaders[i]
		}
	}
	return nil
}

func (s *State) brigade(name string) *Brigade {
	for i := range s.Brigades {
		if s.Brigades[i].Name == name {
			return &s.Brigades[i]
		}
	}
	return nil
}

func (s *State) division(name string) *Division {
	for i := range s.Divisions {
		if s.Divisions[i].Name == name {
			return &s.Divisions[i]
		}
	}
	return nil
}

// What a unit did this turn (19.6).
const (
	turnMoved = 1 << iota
	turnFired
	turnShocked
)

// onMap reports whether a unit is on the map and in play.
func (u *Unit) onMap() bool { return !u.Removed && !u.Off }

// onMap reports whether a leader is on the map and alive.
func (l *Leader) onMap() bool { return !l.Killed && !l.Off }

// def is the unit's counter.
func (s *State) def(u *Unit) *UnitDef { return s.Scn.unitDef(u.Name) }

func (s *State) ldef(l *Leader) *LeaderDef { return s.Scn.leaderDef(l.Name) }

// stars is the leader's star rating, on whichever side is up.
func (s *State) stars(l *Leader) int {
	d := s.ldef(l)
	if l.Replaced {
		return d.RevStars
	}
	return d.Stars
}

// cmdRange is the leader's command range in MP (R9).
func (s *State) cmdRange(l *Leader) int {
	d := s.ldef(l)
	if l.Replaced {
		return d.RevRange
	}
	return d.Range
}

func (s *State) aggressive(l *Leader) bool { return !l.Replaced && s.ldef(l).Aggressive }

// typ is how the unit counts: mounted cavalry "cav", dismounted cavalry
// as infantry (16.5), artillery "art" (horse artillery too, for fire and
// shock; it moves and stacks as cavalry, 15.3).
func (s *State) typ(u *Unit) string {
	switch s.def(u).Type {
	case Cavalry:
		if u.Mounted {
			return Cavalry
		}
		return Infantry
	case Artillery, HorseArt:
		return Artillery
	}
	return Infantry
}

func (s *State) isArt(u *Unit) bool      { return s.typ(u) == Artillery }
func (s *State) isHorseArt(u *Unit) bool { return s.def(u).Type == HorseArt }
func (s *State) mountedCav(u *Unit) bool { return s.def(u).Type == Cavalry && u.Mounted }
func (s *State) isCavalry(u *Unit) bool  { return s.def(u).Type == Cavalry }

// strength is the SP a unit counts: a dismounted cavalry unit of 4 SP or
// more leaves one with the horses (16.4).
func (s *State) strength(u *Unit) int {
	if s.def(u).Type == Cavalry && !u.Mounted && u.SP >= 4 {
		return u.SP - 1
	}
	return u.SP
}

// cohesion is the unit's cohesion on the side up (19.1).
func (s *State) cohesion(u *Unit) int {
	d := s.def(u)
	if u.Disordered || u.Routed {
		return d.DCohesion
	}
	return d.Cohesion
}

// ma is the unit's movement allowance this phase in half MPs: the side up
// (artillery keeps its MA disordered, 19.1), halved on Attack orders (6.2,
// 6.4) and in a phase it mounts or dismounts (16.2), rounded up each time.
func (s *State) ma(u *Unit) int {
	d := s.def(u)
	ma := d.MA
	if (u.Disordered || u.Routed) && !s.isArt(u) {
		ma = d.DMA
	}
	if u.Order == Attack {
		ma = (ma + 1) / 2
	}
	if u.Switched {
		ma = (ma + 1) / 2
	}
	return 2 * ma
}

// collapsed: on its disordered side and below half its strength (20.1,
// B15: half its printed SP; option: half what it started with).
func (s *State) collapsed(u *Unit) bool {
	d := s.def(u)
	base := d.SP
	if s.Scn.Options.StartHalf {
		base = d.StartSP
	}
	return (u.Disordered || u.Routed) && 2*u.SP < base
}

// unitsAt are the units in h, top of the stack first.
func (s *State) unitsAt(h hex.Hex) []*Unit { return s.appendUnitsAt(nil, h) }

// appendUnitsAt appends the units in h to out, top of the stack first.
func (s *State) appendUnitsAt(out []*Unit, h hex.Hex) []*Unit {
	n := len(out)
	for i := range s.Units {
		if u := s.Units[i]; u.onMap() && u.Hex == h {
			out = append(out, u)
		}
	}
	slices.SortStableFunc(out[n:], func(a, b *Unit) int { return a.Stack - b.Stack })
	return out
}

func (s *State) leadersAt(h hex.Hex) []*Leader {
	var out []*Leader
	for i := range s.Leaders {
		if l := &s.Leaders[i]; l.onMap() && l.Hex == h {
			out = append(out, l)
		}
	}
	return out
}

// enemiesAt are the units of the other side in h.
func (s *State) enemiesAt(h hex.Hex, side string) []*Unit {
	var out []*Unit
	for _, u := range s.unitsAt(h) {
		if u.Side != side {
			out = append(out, u)
		}
	}
	return out
}

func (s *State) friendsAt(h hex.Hex, side string) []*Unit {
	var out []*Unit
	for _, u := range s.unitsAt(h) {
		if u.Side == side {
			out = append(out, u)
		}
	}
	return out
}

// enemyAdjacent reports whether an enemy combat unit is next to h.
func (s *State) enemyAdjacent(h hex.Hex, side string) bool {
	for _, n := range h.Neighbors() {
		if len(s.enemiesAt(n, side)) > 0 {
			return true
		}
	}
	return false
}

// restack renumbers each hex's stack 0, 1, ... keeping its order.
func (s *State) restack() {
	for i := range s.Units {
		u := s.Units[i]
		if !u.onMap() {
			continue
		}
		for j, v := range s.unitsAt(u.Hex) {
			v.Stack = j
		}
	}
}

// divisionOf, corpsOf: the chain of command of a brigade.
func (s *State) divisionOf(brigade string) string {
	if b := s.Scn.brigadeDef(brigade); b != nil {
		return b.Division
	}
	return ""
}

// brigadesOf lists a division's brigades in scenario order.
func (s *State) brigadesOf(division string) []string {
	var out []string
	for _, b := range s.Scn.Brigades {
		if b.Division == division {
			out = append(out, b.Name)
		}
	}
	return out
}

func (s *State) unitsOf(brigade string) []*Unit {
	var out []*Unit
	for i := range s.Units {
		if u := s.Units[i]; u.Brigade == brigade {
			out = append(out, u)
		}
	}
	return out
}

// command names what a leader commands: "army", "corps", "division" or
// "brigade", and its name.
func (s *State) command(l *Leader) (rank, name string) {
	for _, side := range Sides {
		if s.Scn.Armies[side] == l.Name {
			return "army", side
		}
	}
	for _, c := range s.Scn.Corps {
		if c.Leader == l.Name {
			return "corps", c.Name
		}
	}
	for _, d := range s.Scn.Divisions {
		if d.Leader == l.Name {
			return "division", d.Name
		}
	}
	for _, b := range s.Scn.Brigades {
		if b.Leader == l.Name {
			return "brigade", b.Name
		}
	}
	return "", ""
}

// underCommand reports whether u is under l's command (17.4, 17.5).
func (s *State) underCommand(l *Leader, u *Unit) bool {
	rank, name := s.command(l)
	switch rank {
	case "army":
		return u.Side == name
	case "corps":
		return s.Scn.divisionDef(s.divisionOf(u.Brigade)).Corps == name
	case "division":
		return s.divisionOf(u.Brigade) == name
	case "brigade":
		return u.Brigade == name
	}
	return false
}

func (s *State) sideIndex(side string) int {
	if side == CSA {
		return 1
	}
	return 0
}

// attach gives a decoded state the scenario its encoding leaves out
// (engine.Extras.Attach).
func attach(st, initial *State) *State {
	st.Scn = initial.Scn
	return st
}
