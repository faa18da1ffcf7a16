package gcacw

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pbem/engine/hex"
)

// Unit is a military unit (GCACW 2.2b-i) with its Strength marker (2.2o)
// and Fatigue level (2.2p).
type Unit struct {
	ID        string   `json:"id"` // code printed on the board, e.g. ORNE
	Name      string   `json:"name"`
	Side      string   `json:"side"`
	Type      string   `json:"type"` // inf, cav, art (2.2g)
	Size      string   `json:"size"` // II, III, X, XX, X+ (2.2e)
	In        []string `json:"in,omitempty"`
	Tactical  int      `json:"tac"`
	Artillery int      `json:"art"`
	Div       int      `json:"div,omitempty"` // Union infantry division number, information only (2.2d)
	Line      int      `json:"-"`             // scenario line, for errors

	Hex          hex.Hex `json:"hex"`
	Manpower     int     `json:"manpower"`               // Strength marker: 1..21
	Disorganized bool    `json:"disorganized,omitempty"` // Strength marker side (2.2o)
	Fatigue      int     `json:"fatigue"`                // 0..4 (2.2p)
	Exhausted    bool    `json:"exhausted,omitempty"`    // counter side (2.2i)
	Eliminated   bool    `json:"eliminated,omitempty"`   // Manpower gone (R19)
	Marched      bool    `json:"marched,omitempty"`      // in this Action Phase (5.1d)
	Activated    bool    `json:"activated,omitempty"`    // Leader Activation marker (5.2.2)
	// MarchedTurn: the unit marched this turn (a Reorganization Phase
	// house rule recovers less fatigue for it, R14).
	MarchedTurn bool `json:"marched_turn,omitempty"`
}

// Leader is a leader counter (GCACW 2.2j-m).
type Leader struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Side     string `json:"side"`
	Kind     string `json:"kind"` // army, district, corps, division
	Cavalry  bool   `json:"cavalry,omitempty"`
	Commands string `json:"commands"` // the formation it commands
	Command  int    `json:"cmd"`
	Tactical int    `json:"tac"`
	With     string `json:"with"` // the unit it is stacked with
	// Removed: the leader left play, no unit it may stand with being left
	// (GCACW 2.2j, house rule leader-alone).
	Removed bool `json:"removed,omitempty"`
	Line    int  `json:"-"`
}

// Phases of a turn (GCACW 3).
const (
	PhaseTransfer = "leader-transfer" // 3.2
	PhaseCycle    = "action-cycle"    // 3.3
	PhaseReorg    = "reorganization"  // 3.4
	PhaseVictory  = "victory"         // after the last turn (R24)
	PhaseOver     = "over"
)

// Stages of an Action Phase (GCACW 4.2, 4.3).
const (
	StageChoose = "choose" // the initiative winner takes or passes (4.2f)
	StageLoser  = "loser"  // the loser, given the initiative by a pass (4.2g)
	StageAct    = "act"    // the holder took the initiative and must act (4.3)
	StageDone   = "done"   // the action is over; a new Action Phase follows
)

// Cycle is where the action cycle stands.
type Cycle struct {
	N        int    `json:"n,omitempty"`     // Action Phase number in this turn
	Stage    string `json:"stage,omitempty"` // see Stage*
	Winner   string `json:"winner,omitempty"`
	Rolled   bool   `json:"rolled,omitempty"` // the winner won by a roll (not automatically)
	DieUSA   int    `json:"die_usa,omitempty"`
	DieCSA   int    `json:"die_csa,omitempty"`
	Holder   string `json:"holder,omitempty"` // who must choose or act now
	Via      string `json:"via,omitempty"`    // how the holder got it: roll, pass, auto
	Recorded int    `json:"recorded,omitempty"`
	Acting   bool   `json:"acting,omitempty"` // the holder's action has begun
}

// Plan is how a unit is to march: the hexes, and the conditions given in
// advance for choices that depend on dice.
type Plan struct {
	Path    []hex.Hex `json:"path"`
	Force   string    `json:"force,omitempty"` // "", always, short, or a comparison of MA: <4, <=4, >3, >=3, =3
	StopAt  string    `json:"stop_at,omitempty"`
	ZOCStop bool      `json:"zoc_stop,omitempty"`
	// To is the hex of MARCH … TO <hex>: the orders are expanded to the
	// cheapest legal route there before they are decided (route.go).
	To *hex.Hex `json:"-"`
}

// String writes the plan in the order language: "0406 0407 FORCE IF MA < 4".
func (p Plan) String() string {
	var parts []string
	for _, h := range p.Path {
		parts = append(parts, h.String())
	}
	switch {
	case p.Force == "always":
		parts = append(parts, "FORCE")
	case p.Force == "short":
		parts = append(parts, "FORCE IF SHORT")
	case p.Force != "":
		op := strings.TrimRight(p.Force, "0123456789")
		parts = append(parts, "FORCE IF MA "+op+" "+p.Force[len(op):])
	}
	if p.StopAt != "" {
		parts = append(parts, "STOP AT "+p.StopAt)
	}
	if p.ZOCStop {
		parts = append(parts, "IF ZOC THEN STOP")
	}
	return strings.Join(parts, " ")
}

// forceFor says whether the plan's condition asks for a Force March given
// the MA of step 1 and, for "short", whether that MA falls short.
func (p Plan) forceFor(ma int, short bool) bool {
	switch p.Force {
	case "":
		return false
	case "always":
		return true
	case "short":
		return short
	}
	op := strings.TrimRight(p.Force, "0123456789")
	n, _ := strconv.Atoi(p.Force[len(op):])
	switch op {
	case "<":
		return ma < n
	case "<=":
		return ma <= n
	case ">":
		return ma > n
	case ">=":
		return ma >= n
	}
	return ma == n
}

// March is a march in progress (5.1), kept in the state only while it
// waits for a referee's ruling between its steps.
type March struct {
	Unit     string `json:"unit"`
	Plan     Plan   `json:"plan"`
	MA       int    `json:"ma"`
	Leader   string `json:"leader,omitempty"` // activating leader (5.2)
	Opt      bool   `json:"opt,omitempty"`    // fatigue-4 march (5.1-OPT)
	Extended bool   `json:"extended,omitempty"`
	Next     string `json:"next"` // the next step: fatigue, em, retreat, force, move
}

// Activation is a Leader Activation in progress (5.2).
type Activation struct {
	Leader string   `json:"leader"`
	Units  []string `json:"units"`
	Plans  []Plan   `json:"plans"`
	MA     int      `json:"ma,omitempty"`
	Done   int      `json:"done"` // units that have finished their march
}

// Pending is a step handed to the referee.
type Pending struct {
	Step   string   `json:"step"`
	Unit   string   `json:"unit,omitempty"`
	Leader string   `json:"leader,omitempty"`
	Units  []string `json:"units,omitempty"`
	Die    int      `json:"die,omitempty"`
	Dice   []int    `json:"dice,omitempty"`
	Path   []string `json:"path,omitempty"`
	Note   string   `json:"note,omitempty"`
	// Battle is the battle a StepBattle waits on.
	Battle *FoughtOut `json:"battle,omitempty"`
}

// Referee steps.
const (
	StepExtended    = "extended-march"  // no Extended March Table (R2)
	StepMove        = "march-move"      // no Terrain Effects Chart (R1)
	StepRetreat     = "cavalry-retreat" // Cavalry Retreat [7.7] (R9)
	StepTie         = "initiative-tie"  // BAC/AIO ties, 4.2e (R5, R6)
	StepInsub       = "insubordination" // BAC tie insubordination (R5)
	StepActivation  = "activation"      // 5.2 step 4 (R16)
	StepEvent       = "random-event"    // Random Events Table (R4)
	StepLeaderAlone = "leader-alone"    // a leader's unit was eliminated (2.2j)
	StepReorg       = "reorganization"  // R14
	StepVictory     = "victory"         // R24
	StepAttack      = "attack"          // an attack at the end of a march (5.1.5, R10)
)

// Queued is an order waiting in a side's queue (docs/ORDERS.md QUEUE).
type Queued struct {
	Side  string `json:"side"`
	N     int    `json:"n"`
	Order string `json:"order"`
}

// State is the game. It is immutable: Evolve returns a new one.
//
// Units and Leaders hold pointers so that a new state can share every
// unit and leader that did not change with the state it came from: a fact
// that changes one unit copies the slice of pointers and that one unit
// (withUnit, withLeader), not the whole order of battle. A *Unit or
// *Leader reached through a State is therefore never changed in place.
type State struct {
	Scn          *ScenarioDef `json:"scenario,omitempty"` // immutable, shared; not encoded
	Turn         int          `json:"turn"`
	Phase        string       `json:"phase"`
	Units        []*Unit      `json:"units"`   // sorted by ID; shared, never changed in place
	Leaders      []*Leader    `json:"leaders"` // sorted by ID; shared, never changed in place
	TransferDone []string     `json:"transfer_done,omitempty"`
	Cycle        Cycle        `json:"cycle"`
	March        *March       `json:"march,omitempty"`
	Act          *Activation  `json:"activation,omitempty"`
	Pending      *Pending     `json:"pending,omitempty"`
	Ask          *Ask         `json:"ask,omitempty"`      // a step asked of a player (retreat.go)
	Standing     []Standing   `json:"standing,omitempty"` // standing orders, by side and unit
	Queue        []Queued     `json:"queue,omitempty"`
	QueueSeq     []int        `json:"queue_seq"` // last queue number used, USA then CSA
	Focus        []hex.Hex    `json:"focus,omitempty"`
	Event        string       `json:"event,omitempty"`
	// Undo is the state before a side's last order, while UNDO may take
	// it back (undo.go).
	Undo *UndoPoint `json:"undo,omitempty"`
	// Attacks: a referee allowed march attacks (GCACW 5.1.5) in this game.
	Attacks bool   `json:"attacks,omitempty"`
	Winner  string `json:"winner,omitempty"`
	Result  string `json:"result,omitempty"`
}

func (s *State) clone() *State {
	c := *s
	return &c
}

func sideIdx(side string) int {
	if side == CSA {
		return 1
	}
	return 0
}

// unitIndex finds unit id in s.Units.
func (s *State) unitIndex(id string) (int, bool) {
	return slices.BinarySearchFunc(s.Units, id, func(u *Unit, id string) int { return strings.Compare(u.ID, id) })
}

// leaderIndex finds leader id in s.Leaders.
func (s *State) leaderIndex(id string) (int, bool) {
	return slices.BinarySearchFunc(s.Leaders, id, func(l *Leader, id string) int { return strings.Compare(l.ID, id) })
}

// unit returns the unit with the id, or nil.
func (s *State) unit(id string) *Unit {
	i, ok := s.unitIndex(id)
	if !ok {
		return nil
	}
	return s.Units[i]
}

// leader returns the leader with the id, or nil.
func (s *State) leader(id string) *Leader {
	i, ok := s.leaderIndex(id)
	if !ok {
		return nil
	}
	return s.Leaders[i]
}

// withUnit returns a copy of s in which unit id has been changed by f.
func (s *State) withUnit(id string, f func(*Unit)) (*State, error) {
	i, ok := s.unitIndex(id)
	if !ok {
		return nil, fmt.Errorf("no unit %s", id)
	}
	return s.withUnitAt(i, f), nil
}

// withUnitAt returns a copy of s in which s.Units[i] has been changed by
// f. Only that unit is copied; the copy shares the others with s.
func (s *State) withUnitAt(i int, f func(*Unit)) *State {
	c := s.clone()
	c.Units = slices.Clone(s.Units)
	u := *s.Units[i]
	f(&u)
	c.Units[i] = &u
	return c
}

// leaderHex is the hex of the unit a leader is stacked with.
func (s *State) leaderHex(l *Leader) (hex.Hex, bool) {
	u := s.unit(l.With)
	if u == nil || u.Eliminated {
		return hex.Hex{}, false
	}
	return u.Hex, true
}

// live returns the units on the map (not eliminated), in ID order.
func (s *State) live() []*Unit {
	var out []*Unit
	for _, u := range s.Units {
		if !u.Eliminated {
			out = append(out, u)
		}
	}
	return out
}

// unitsAt returns the units in h, in ID order.
func (s *State) unitsAt(h hex.Hex) []*Unit {
	var out []*Unit
	for _, u := range s.live() {
		if u.Hex == h {
			out = append(out, u)
		}
	}
	return out
}

// hasEnemy reports whether h holds a unit of the side's enemy.
func (s *State) hasEnemy(side string, h hex.Hex) bool {
	for _, u := range s.unitsAt(h) {
		if u.Side != side {
			return true
		}
	}
	return false
}

// hasFriend reports whether h holds a unit of side.
func (s *State) hasFriend(side string, h hex.Hex) bool {
	for _, u := range s.unitsAt(h) {
		if u.Side == side {
			return true
		}
	}
	return false
}

// leadersWith returns the leaders stacked with unit id, in ID order.
func (s *State) leadersWith(id string) []*Leader {
	var out []*Leader
	for _, l := range s.Leaders {
		if l.With == id {
			out = append(out, l)
		}
	}
	return out
}

// commands reports whether leader l commands unit u: u is in the formation
// l commands (GCACW 2.2m, 5.2.2). GCACW 5.2.2a: units outside any command
// structure, and Union cavalry in SIV, OTR, SJW, HCR, SLB and AGA, are
// commanded by no leader.
func (s *State) commands(l *Leader, u *Unit) bool {
	if u.Side != l.Side || len(u.In) == 0 {
		return false
	}
	if u.Side == USA && u.Type == Cavalry && unionCavalryUncommanded(s.Scn.Game) {
		return false
	}
	return slices.Contains(u.In, l.Commands)
}

// encodeState gives the canonical bytes of s.
// encodeState encodes everything that can change. The scenario (map,
// tables, order of battle) never does: it is fixed by the game's creation,
// so it is left out, and decodeState takes it from the initial state, which
// every game of the scenario shares.
func encodeState(s *State) ([]byte, error) {
	c := *s
	c.Scn = nil
	if c.Undo != nil {
		u, p := *c.Undo, *c.Undo.Prev
		p.Scn, u.Prev, c.Undo = nil, &p, &u
	}
	return json.Marshal(&c)
}

func decodeState(b []byte, initial *State) (*State, error) {
	var s State
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("gcacw state: %w", err)
	}
	if initial == nil || initial.Scn == nil {
		return nil, fmt.Errorf("gcacw state: no initial state to take the scenario from")
	}
	if slices.Contains(s.Units, nil) || slices.Contains(s.Leaders, nil) {
		return nil, fmt.Errorf("gcacw state: a unit or leader is null")
	}
	s.Scn = initial.Scn
	if u := s.Undo; u != nil {
		if p := u.Prev; p == nil || p.Undo != nil || slices.Contains(p.Units, nil) || slices.Contains(p.Leaders, nil) {
			return nil, fmt.Errorf("gcacw state: a bad undo point")
		}
		u.Prev.Scn = initial.Scn
	}
	return &s, nil
}
