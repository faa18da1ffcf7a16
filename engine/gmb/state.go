package gmb

import (
	"slices"

	"pbem/engine/table"
)

// Steps of the game: chapter 13's setup in the order of 13.3 (with the
// table first, 13.1), then turns of play.
const (
	StepTable      = "table"      // 13.1
	StepYear       = "year"       // 13.4
	StepDraw       = "draw"       // 13.5a-f: the generals drawn
	StepGenerals   = "generals"   // 13.5g-h: redraws and assignment
	StepCards      = "cards"      // 13.6a: keep 3 of 5
	StepDeclare    = "declare"    // 13.7, 13.8d: battlefield and forced march
	StepList       = "list"       // 13.8a, 13.10c: whose terrain list
	StepLinear     = "linear"     // 13.10h-j
	StepBridges    = "bridges"    // 13.10q
	StepNormal     = "normal"     // 13.10k
	StepFences     = "fences"     // 13.10p
	StepSpecial    = "special"    // 13.10l
	StepSwap       = "swap"       // 13.7f Offensive
	StepFortify    = "fortify"    // 13.10m
	StepTactic     = "tactic"     // 13.12
	StepCavalry    = "cavalry"    // 13.13
	StepPatrol     = "patrol"     // 13.14
	StepInitiative = "initiative" // a tie the referee settles (R1)
	StepActivate   = "activate"   // R6: a side activates a corps
	StepCombat     = "combat"     // the referee's: attacks and combat (7.1b)
	StepMove       = "move"       // 7.1b: the corps' normal moves
	StepPassage    = "passage"    // *7.6: reorganization, step 1
	StepEnd        = "end"        // the last turn is over: the referee scores and ends
	StepOver       = "over"
)

// steps are all the steps, in order (the referee's SET game STEP takes
// any of them).
var steps = []string{StepTable, StepYear, StepDraw, StepGenerals, StepCards, StepDeclare, StepList, StepLinear, StepBridges,
	StepNormal, StepFences, StepSpecial, StepSwap, StepFortify, StepTactic, StepCavalry, StepPatrol, StepInitiative,
	StepActivate, StepCombat, StepMove, StepPassage, StepEnd, StepOver}

// Unit is a unit on the table.
type Unit struct {
	Name      string      `json:"name"`
	Side      string      `json:"side"`
	Type      string      `json:"type"`
	Formation string      `json:"formation"`
	Corps     string      `json:"corps"`
	Letter    byte        `json:"letter"`
	Placed    bool        `json:"placed,omitempty"`
	Front     table.Point `json:"front"`
	Facing    table.Angle `json:"facing"`
	Cohesion  int         `json:"cohesion"`
	Removed   bool        `json:"removed,omitempty"`
	// Withdrawn: removed by the referee before the first turn, setting
	// the battle up (a battle fought out for a campaign): not a loss.
	Withdrawn bool         `json:"withdrawn,omitempty"`
	Bonus     table.Length `json:"bonus,omitempty"` // this turn's modifier from traits or cards (7.2f), set by the referee
	// 7.1c: states of this turn (R7, the referee's): a unit in any of
	// them makes no normal move.
	Pinned    bool `json:"pinned,omitempty"`
	Engaged   bool `json:"engaged,omitempty"`
	Attacked  bool `json:"attacked,omitempty"`
	Supported bool `json:"supported,omitempty"`
	Retreated bool `json:"retreated,omitempty"`
	// This turn: moved (its normal move made), paid (the 3" obstacle
	// cost paid, 7.2d), passage (took part in a passage of lines, 7.6b).
	Moved   bool `json:"moved,omitempty"`
	Paid    bool `json:"paid,omitempty"`
	Passage bool `json:"passage,omitempty"`
}

// General is a general drawn for an army.
type General struct {
	Name      string `json:"name"`
	Side      string `json:"side"`
	Group     string `json:"group"`
	Formation string `json:"formation"`
}

// DrawGroup is one draw of 13.5d: the generals it drew from, the
// formations it filled, and those set aside.
type DrawGroup struct {
	Name       string   `json:"name"`
	Formations []string `json:"formations"`
	SetAside   []string `json:"set_aside,omitempty"`
}

// Piece is a terrain piece on the table.
type Piece struct {
	ID      string         `json:"id"` // "woods 2", "road 1"
	Kind    string         `json:"kind"`
	By      string         `json:"by,omitempty"` // the side that placed it
	Poly    table.Polygon  `json:"poly,omitempty"`
	Path    table.Polyline `json:"path,omitempty"`
	Flags   []string       `json:"flags,omitempty"` // "embankment", "sunken", "special"
	MovedBy string         `json:"moved_by,omitempty"`
	Along   string         `json:"along,omitempty"` // a fence's road or field (13.10p)
	Half    bool           `json:"half,omitempty"`  // no larger than 2" x 2" (13.10f)
}

// Bridge is a bridge over a river or stream (13.10q).
type Bridge struct {
	ID   string      `json:"id"`
	At   table.Point `json:"at"`
	Over string      `json:"over"`
	By   string      `json:"by,omitempty"` // "" when a road made it
}

// Marker is a patrol marker (13.14).
type Marker struct {
	Side  string      `json:"side"`
	Corps string      `json:"corps"`
	At    table.Point `json:"at"`
}

// Side is one army's state.
type Side struct {
	Name        string      `json:"name"`
	Morale      string      `json:"morale"`
	TableVote   string      `json:"table_vote,omitempty"`
	YearVote    int         `json:"year_vote,omitempty"`
	Drawn       bool        `json:"drawn,omitempty"` // its generals are drawn
	Groups      []DrawGroup `json:"groups,omitempty"`
	Redraws     int         `json:"redraws"`
	Redrawn     string      `json:"redrawn,omitempty"` // a redrawn general awaiting SWAP or DISCARD
	RedrawGroup string      `json:"redraw_group,omitempty"`
	Out         []string    `json:"out,omitempty"` // generals swapped out or discarded (13.5g)
	GenDone     bool        `json:"gen_done,omitempty"`
	// Battle cards (13.6): hidden, the owner's alone.
	Hand   []string `json:"hand,omitempty"`
	Drawn5 []string `json:"drawn5,omitempty"` // drawn, to keep 3 (13.6a)
	Deck   []string `json:"deck,omitempty"`
	Kept   bool     `json:"kept,omitempty"`
	Played []string `json:"played,omitempty"`
	// 13.7, 13.8d.
	Battlefield string `json:"battlefield,omitempty"`
	Forced      bool   `json:"forced,omitempty"`
	Successes   int    `json:"successes,omitempty"`
	// 13.12: hidden until the battle ends.
	Tactic     string `json:"tactic,omitempty"`
	TacticMade bool   `json:"tactic_made,omitempty"`
	CavTactic  string `json:"cav_tactic,omitempty"`
	Forts      int    `json:"forts,omitempty"` // sections still to place (13.10m)
	Done       bool   `json:"done,omitempty"`  // done with the step at hand
	Objectives []int  `json:"objectives,omitempty"`
	Reward     int    `json:"reward,omitempty"`
}

// State is a GMB game between two facts.
type State struct {
	Scn *ScenarioDef `json:"-"`
	// own is which lists this state owns already, when a fold evolves it
	// in place (evolveOwned): nil for a state no fold owns.
	own   *cow
	Step  string `json:"step"`
	Sides []Side `json:"sides"` // in the scenario's order

	TableSize string       `json:"table,omitempty"`
	W, H      table.Length `json:"-"`
	Year      int          `json:"year,omitempty"`

	Generals []General `json:"generals,omitempty"`

	PlayerA     string        `json:"player_a,omitempty"` // won the battlefield roll (13.7e)
	Battlefield string        `json:"battlefield,omitempty"`
	List        string        `json:"list,omitempty"`
	Points      []table.Point `json:"points,omitempty"`
	Pieces      []Piece       `json:"pieces,omitempty"`
	Bridges     []Bridge      `json:"bridges,omitempty"`
	Left        []ListEntry   `json:"left,omitempty"` // normal pieces still to place, in half pieces (13.10f)
	Pool        int           `json:"pool,omitempty"` // linear pieces, or fences and walls, still in the pool (G10)
	Placer      string        `json:"placer,omitempty"`
	Passed      string        `json:"passed,omitempty"` // the side whose pass was the last placement (13.10j)
	RiverBy     string        `json:"river_by,omitempty"`
	BridgesDue  int           `json:"bridges_due,omitempty"`
	Bases       []Piece       `json:"bases,omitempty"` // operational bases (13.11)
	Markers     []Marker      `json:"markers,omitempty"`

	Units      []Unit   `json:"units,omitempty"`
	Turn       int      `json:"turn"`
	Initiative string   `json:"initiative,omitempty"`
	ToAct      string   `json:"to_act,omitempty"`
	Active     string   `json:"active,omitempty"`           // the corps being activated
	Activated  []string `json:"activated,omitempty"`        // corps activated this turn
	Inactive   []string `json:"inactive,omitempty"`         // corps that will not activate this turn
	Pending    []string `json:"pending_passages,omitempty"` // the opponent's declared passages, in pairs, for the initiative to order (7.6i)
	Winner     string   `json:"winner,omitempty"`
	Result     string   `json:"result,omitempty"`
}

func newState(sc *ScenarioDef) *State {
	st := &State{Scn: sc, Step: StepTable}
	for _, a := range sc.Armies {
		st.Sides = append(st.Sides, Side{Name: a.Side, Morale: a.Morale, Redraws: a.Redraws, Deck: slices.Clone(a.Cards), Forts: a.Fortifications})
	}
	letter := byte('A')
	for _, a := range sc.Armies {
		for _, u := range a.Units {
			st.Units = append(st.Units, Unit{Name: u.Name, Side: a.Side, Type: u.Type, Formation: u.Formation,
				Corps: a.Corps(u.Formation), Letter: letter, Cohesion: 3})
			letter++
			if letter == 'O' || letter == 'X' {
				letter++ // O reads as a zero, X as a cross
			}
		}
	}
	return st
}

// clone copies the state so it can be changed: every list and the sides
// are copied (the facts' memory is never kept: Evolve copies strings out).
func (s *State) clone() *State {
	c := *s
	c.own = nil
	c.Sides = make([]Side, len(s.Sides))
	for i, sd := range s.Sides {
		sd.Groups = slices.Clone(sd.Groups)
		for j := range sd.Groups {
			sd.Groups[j].Formations = slices.Clone(sd.Groups[j].Formations)
			sd.Groups[j].SetAside = slices.Clone(sd.Groups[j].SetAside)
		}
		sd.Out = slices.Clone(sd.Out)
		sd.Hand = slices.Clone(sd.Hand)
		sd.Drawn5 = slices.Clone(sd.Drawn5)
		sd.Deck = slices.Clone(sd.Deck)
		sd.Played = slices.Clone(sd.Played)
		sd.Objectives = slices.Clone(sd.Objectives)
		c.Sides[i] = sd
	}
	c.Generals = slices.Clone(s.Generals)
	c.Points = slices.Clone(s.Points)
	c.Pieces = slices.Clone(s.Pieces)
	for i := range c.Pieces {
		c.Pieces[i].Flags = slices.Clone(c.Pieces[i].Flags)
	}
	c.Bridges = slices.Clone(s.Bridges)
	c.Left = slices.Clone(s.Left)
	c.Bases = slices.Clone(s.Bases)
	c.Markers = slices.Clone(s.Markers)
	c.Units = slices.Clone(s.Units)
	c.Activated = slices.Clone(s.Activated)
	c.Inactive = slices.Clone(s.Inactive)
	c.Pending = slices.Clone(s.Pending)
	return &c
}

// side returns the state of a side (nil for none).
func (s *State) side(name string) *Side {
	for i := range s.Sides {
		if s.Sides[i].Name == name {
			return &s.Sides[i]
		}
	}
	return nil
}

// other is the other side.
func (s *State) other(name string) string {
	for _, sd := range s.Sides {
		if sd.Name != name {
			return sd.Name
		}
	}
	return ""
}

// playerB is the side that lost the battlefield roll (13.7e).
func (s *State) playerB() string { return s.other(s.PlayerA) }

func (s *State) unit(name string) *Unit {
	for i := range s.Units {
		if s.Units[i].Name == name {
			return &s.Units[i]
		}
	}
	return nil
}

func (s *State) piece(id string) *Piece {
	for i := range s.Pieces {
		if s.Pieces[i].ID == id {
			return &s.Pieces[i]
		}
	}
	return nil
}

func (s *State) general(name string) *General {
	for i := range s.Generals {
		if s.Generals[i].Name == name {
			return &s.Generals[i]
		}
	}
	return nil
}

// generalOf returns the general commanding a formation, if any.
func (s *State) generalOf(side, formation string) *General {
	for i := range s.Generals {
		if g := &s.Generals[i]; g.Side == side && g.Formation == formation {
			return g
		}
	}
	return nil
}

// geom is the table's Illustration 13.7 geometry, once its size is set.
func (s *State) geom() TableGeom {
	g, _ := s.Scn.Geom(s.TableSize)
	return g
}

// zone returns a side's deployment zone (13.7e): Player A's along the top
// edge, Player B's along the bottom.
func (s *State) zone(side string) table.Polygon {
	lo, hi := s.zoneBand(side, 0)
	return rectPoly(0, lo, s.geom().Width, hi)
}

// zoneBand returns the lowest and highest y of a side's zone, grown by
// extra inches towards the middle.
func (s *State) zoneBand(side string, extra table.Length) (lo, hi table.Length) {
	g := s.geom()
	if side == s.PlayerA {
		return g.Height - g.Zone - extra, g.Height
	}
	return 0, g.Zone + extra
}

func rectPoly(x0, y0, x1, y1 table.Length) table.Polygon {
	return table.Polygon{table.Pt(x0, y0), table.Pt(x1, y0), table.Pt(x1, y1), table.Pt(x0, y1)}
}

// tablePoly is the whole table.
func (s *State) tablePoly() table.Polygon { return rectPoly(0, 0, s.W, s.H) }

// rect is a unit's base.
func (s *State) rect(u *Unit) table.Rect {
	t := s.Scn.UnitType(u.Type)
	return table.Base(u.Front, t.Width, t.Depth, u.Facing)
}

// attach gives a decoded state what its encoding leaves out
// (engine.Extras.Attach): the scenario, and the table's size in inches.
func attach(st, initial *State) *State {
	st.Scn = initial.Scn
	if g, ok := st.Scn.Geom(st.TableSize); ok {
		st.W, st.H = g.Width, g.Height
	}
	return st
}
