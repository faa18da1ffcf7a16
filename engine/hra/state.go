package hra

import (
	"maps"
	"slices"

	"pbem/engine/table"
)

// Phases of a round (HRA 4).
const (
	PhaseStart    = "start"    // before the opening rolls (HRA 3c, 3e)
	PhaseGenerals = "generals" // the generals' status rolled, to be assigned to brigades (HRA 3c)
	PhaseOrders   = "orders"   // Phase II
	PhaseFire     = "fire"     // Phase III: volleys declared, sealed (H23)
	PhaseOver     = "over"
)

// Unit is one regiment or battery on the table.
type Unit struct {
	Name    string      `json:"name"`
	Side    string      `json:"side"`
	Brigade string      `json:"brigade"`
	Arm     string      `json:"arm"`
	Letter  byte        `json:"letter"`
	Front   table.Point `json:"front"`  // midpoint of the front edge
	Facing  table.Angle `json:"facing"` // bearing the front faces
	State   int         `json:"state"`  // HRA 3a: 3 full, 2 medium, 1 low, 0 removed
	// Short is the state points it lacked when the game began: a battle
	// its campaign (or referee, before BEGIN) set up weaker. Not losses.
	Short  int  `json:"short,omitempty"`
	Supply int  `json:"supply"` // HRA 3e-3g
	Column bool `json:"column,omitempty"`
	// Dismounted cavalry and limbered artillery (HRA 16c, 17).
	Dismounted bool `json:"dismounted,omitempty"`
	Limbered   bool `json:"limbered,omitempty"`
	// Pending is a change ordered last round that completes in Phase I
	// (HRA 4.I.e, 16c, 17d): "mount", "dismount", "limber", "unlimber".
	Pending string `json:"pending,omitempty"`
	// Busy counts the rounds the unit still cannot move (a ford or river
	// crossing, T1; entrenching, T1), Work says what.
	Busy       int    `json:"busy,omitempty"`
	Work       string `json:"work,omitempty"`
	Entrenched bool   `json:"entrenched,omitempty"`
	// Retreating: in retreat (HRA 5b, 5c). Acted: a retreating unit that
	// made its forced move and can do nothing more this round (HRA 4.I.c).
	Retreating bool `json:"retreating,omitempty"`
	Acted      bool `json:"acted,omitempty"`
	// Morale results to carry out next round (HRA 12e).
	WithdrawNext bool `json:"withdraw_next,omitempty"`
	RetreatNext  bool `json:"retreat_next,omitempty"`
	// Ordered: has its order this Phase II. PassedBy: a friendly unit passed
	// through it this round, so it may move only 5 cm (HRA 10b). Moved: the
	// distance it has used this round.
	Ordered  bool         `json:"ordered,omitempty"`
	PassedBy bool         `json:"passed_by,omitempty"`
	Moved    table.Length `json:"moved,omitempty"`
	Charges  int          `json:"charges,omitempty"` // charges made (HRA 16b)
	Order    string       `json:"order,omitempty"`   // this round's order, for the roster
}

// Removed reports whether the unit has left the battlefield (HRA 3a).
func (u *Unit) Removed() bool { return u.State <= 0 }

// Brigade is a brigade and its general.
type Brigade struct {
	Name   string `json:"name"`
	Side   string `json:"side"`
	Status int    `json:"status"` // the general's status (HRA 3c)
	With   string `json:"with"`   // the unit the general is with ("" if killed)
	Killed bool   `json:"killed,omitempty"`
	Done   bool   `json:"done,omitempty"` // has had its orders this Phase II
}

// Volley is one declared volley (HRA 4.III.a).
type Volley struct {
	Firer  string `json:"firer"`
	Target string `json:"target"`
}

// Melee is a pair of units in melee (HRA 11). New: contact was made this
// round, so the defender has its extra volley (HRA 11c).
type Melee struct {
	Attacker string `json:"attacker"`
	Defender string `json:"defender"`
	New      bool   `json:"new,omitempty"`
}

// State is the game between two facts.
type State struct {
	Scn        *ScenarioDef `json:"-"`
	Round      int          `json:"round"`
	Phase      string       `json:"phase"`
	Initiative string       `json:"initiative,omitempty"` // side with the initiative this round
	ToAct      string       `json:"to_act,omitempty"`     // side to give orders (Phase II)
	Units      []Unit       `json:"units"`
	Brigades   []Brigade    `json:"brigades"`
	Melees     []Melee      `json:"melees,omitempty"`
	// Declared volleys of each side this Phase III, and who has declared.
	Volleys  []Volley `json:"volleys,omitempty"`
	Declared []string `json:"declared,omitempty"`
	// The players' stated priority lists (see doc.go), by side: which
	// confrontation each picks first, second, … this Phase III (HRA
	// 4.III.c; cleared each round), and which of its units in retreat
	// makes its forced moves first (HRA 4.I.b; stands until restated).
	FirePicks    map[string][]string `json:"fire_picks,omitempty"`
	RetreatPicks map[string][]string `json:"retreat_picks,omitempty"`
	// Generals are the statuses rolled for each side's generals and not
	// yet assigned to its brigades (HRA 3c).
	Generals map[string][]int `json:"generals,omitempty"`
	Winner   string           `json:"winner,omitempty"`
	Result   string           `json:"result,omitempty"`
	Score    []int            `json:"score,omitempty"` // victory points, Union then Confederate
}

func newState(sc *ScenarioDef) *State {
	st := &State{Scn: sc, Round: 0, Phase: PhaseStart}
	for _, d := range sc.Units {
		st.Units = append(st.Units, Unit{Name: d.Name, Side: d.Side, Brigade: d.Brigade, Arm: d.Arm, Letter: d.Letter,
			Front: d.Front, Facing: d.Facing, State: d.startState(), Short: 3 - d.startState(), Limbered: d.Arm == Artillery})
	}
	for _, b := range sc.Brigades {
		st.Brigades = append(st.Brigades, Brigade{Name: b.Name, Side: b.Side, With: b.General})
	}
	return st
}

func (s *State) clone() *State {
	c := *s
	c.Units = slices.Clone(s.Units)
	c.Brigades = slices.Clone(s.Brigades)
	c.Melees = slices.Clone(s.Melees)
	c.Volleys = slices.Clone(s.Volleys)
	c.Declared = slices.Clone(s.Declared)
	c.Score = slices.Clone(s.Score)
	c.FirePicks = maps.Clone(s.FirePicks)
	c.RetreatPicks = maps.Clone(s.RetreatPicks)
	c.Generals = maps.Clone(s.Generals)
	return &c
}

func (s *State) unit(name string) *Unit {
	for i := range s.Units {
		if s.Units[i].Name == name {
			return &s.Units[i]
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

// units of a brigade still on the table, in scenario order.
func (s *State) brigadeUnits(b string) []*Unit {
	var out []*Unit
	for i := range s.Units {
		if u := &s.Units[i]; u.Brigade == b && !u.Removed() {
			out = append(out, u)
		}
	}
	return out
}

// status is the brigade's general status, or the scenario's leaderless
// status once the general is killed (R9).
func (s *State) status(b *Brigade) int {
	if b.Killed {
		return s.Scn.LeaderlessStatus
	}
	return b.Status
}

// BrigadeLosses is HRA 12d's brigade losses, read as H7: state points lost,
// a removed unit counting 3.
func (s *State) BrigadeLosses(b string) int {
	n := 0
	for _, u := range s.Units {
		if u.Brigade == b {
			n += 3 - max(u.State, 0)
		}
	}
	return n
}

// BrigadeState is HRA 3d: the general's status plus the states of the
// brigade's units (derived, shown in the roster; H18).
func (s *State) BrigadeState(b *Brigade) int {
	n := s.status(b)
	for _, u := range s.Units {
		if u.Brigade == b.Name && u.State > 0 {
			n += u.State
		}
	}
	return n
}

func (s *State) inMelee(name string) bool {
	for _, m := range s.Melees {
		if m.Attacker == name || m.Defender == name {
			return true
		}
	}
	return false
}

// attach gives a decoded state the scenario its encoding leaves out
// (engine.Extras.Attach).
func attach(st, initial *State) *State {
	st.Scn = initial.Scn
	return st
}
