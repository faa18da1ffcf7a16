package gbacw

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Tables are the charts the crib notes refer to but do not give (gbacw.md
// R2-R7, R9, R13): a scenario loads them from a tables file (the sample
// is marked SAMPLE) or its own sections. The terrain chart and weapon
// ranges are required; a chart of results (fire, shock, efficiency,
// order change, coordination, construction) may be left out, and then
// each such step goes to the referee (RefereeSteps lists them).
type Tables struct {
	Sample  bool                  // a SAMPLE chart is loaded (the board says so)
	Terrain map[string]TerrainDef // by terrain name
	Climb   int                   // MP to climb one level
	// SideFeat are hexside features: stream, ford, bridge, crest, wall.
	SideFeat map[string]SideDef
	// RouteMP is the MP per hex along a road or pike for units not on
	// March orders (10.5 gives March orders half a point).
	RouteMP map[string]int
	Weapons map[string]Weapon

	Fire     *ResultTable // nil: the referee rules each fire (R2)
	FireDRM  map[string]int
	Shock    *ResultTable // nil: the referee rules each shock (R3)
	ShockDRM map[string]int
	UDDDRM   map[string]int

	OrderChange  map[string]int // success on dr+DRM >= this, by the order changed to (R6); nil: referee
	Coordination int            // success on dr+DRM >= this (R7); 0: referee
	Efficiency   map[string][]int
	MarchAMs     []int // March AM activations by dr (B5); nil with Efficiency: referee
	Construction map[string]Works
}

// TerrainDef is a row of the terrain chart (R4).
type TerrainDef struct {
	MP         int  // to enter; 0 with Impassable
	Impassable bool // "P"
	Height     int  // LOS obstacle above the ground, in half levels
	Fire       int  // DRM to fire at a unit in it
	Shock      int  // DRM to shock a unit in it
}

// SideDef is a row of the hexside chart.
type SideDef struct {
	MP         int // added to cross (a ford or bridge replaces its stream)
	Impassable bool
	Height     int // LOS obstacle above the higher hex, in half levels (0: none; 12.3)
	Shock      int // DRM to shock across it
}

// Weapon is a row of the weapons chart: its range in hexes and the fire
// DRM at each range from 1.
type Weapon struct {
	Range int
	DRM   []int
}

// ResultTable is a fire or shock results table: columns (strength
// brackets for fire, odds for shock), and for each modified dr from Low
// to High a row of results; a dr below Low reads Low's row, above High
// High's.
type ResultTable struct {
	Cols []Bracket
	Low  int
	Rows [][]string
}

// Bracket is a column: fire strengths Lo..Hi (Hi 0: no upper bound), or
// odds Lo:Hi (attacker:defender).
type Bracket struct {
	Name   string
	Lo, Hi int
}

// Works is a construction (R13): how many end-of-turn phases it takes and
// the DRMs it gives the units in the hex.
type Works struct {
	Turns, Fire, Shock int
}

var tableSections = []string{"terrain", "hexside-features", "route-mp", "weapons", "fire", "fire-drm", "shock", "shock-drm",
	"udd-drm", "order-change", "coordination", "efficiency", "construction"}

func isTableSection(s string) bool { return slices.Contains(tableSections, s) }

type tableParser struct {
	t       *Tables
	section string
	tab     *ResultTable
}

func (p *tableParser) begin(t *Tables, section string) {
	p.t, p.section, p.tab = t, section, nil
	switch section {
	case "terrain":
		t.Terrain = map[string]TerrainDef{}
	case "hexside-features":
		t.SideFeat = map[string]SideDef{}
	case "route-mp":
		t.RouteMP = map[string]int{}
	case "weapons":
		t.Weapons = map[string]Weapon{}
	case "fire":
		t.Fire = &ResultTable{}
		p.tab = t.Fire
	case "shock":
		t.Shock = &ResultTable{}
		p.tab = t.Shock
	case "fire-drm":
		t.FireDRM = map[string]int{}
	case "shock-drm":
		t.ShockDRM = map[string]int{}
	case "udd-drm":
		t.UDDDRM = map[string]int{}
	case "order-change":
		t.OrderChange = map[string]int{}
	case "efficiency":
		t.Efficiency = map[string][]int{}
	case "construction":
		t.Construction = map[string]Works{}
	}
}

// signed reads "+1", "-1", "0".
func signed(s string) (int, error) { return strconv.Atoi(strings.TrimPrefix(s, "+")) }

// halves reads a height in levels, "1" or "0.5", as half levels.
func halves(s string) (int, error) {
	whole, frac, dot := strings.Cut(s, ".")
	n, err := strconv.Atoi(whole)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("height %q: want levels, e.g. 1 or 0.5", s)
	}
	switch {
	case !dot:
		return 2 * n, nil
	case frac == "5":
		return 2*n + 1, nil
	case frac == "0":
		return 2 * n, nil
	}
	return 0, fmt.Errorf("height %q: want whole or half levels", s)
}

func (p *tableParser) row(f []string) error {
	t := p.t
	switch p.section {
	case "terrain":
		if f[0] == "climb" {
			n, err := strconv.Atoi(at(f, 1))
			if err != nil || n < 0 {
				return fmt.Errorf("climb <MP per level>")
			}
			t.Climb = n
			return nil
		}
		if len(f) != 5 {
			return fmt.Errorf("a terrain row is <name> <mp|P> <los height> <fire drm> <shock drm>")
		}
		var d TerrainDef
		var err error
		if f[1] == "P" {
			d.Impassable = true
		} else if d.MP, err = strconv.Atoi(f[1]); err != nil || d.MP < 1 {
			return fmt.Errorf("terrain %s: mp %q", f[0], f[1])
		}
		if d.Height, err = halves(f[2]); err != nil {
			return fmt.Errorf("terrain %s: %v", f[0], err)
		}
		if d.Fire, err = signed(f[3]); err != nil {
			return fmt.Errorf("terrain %s: fire drm %q", f[0], f[3])
		}
		if d.Shock, err = signed(f[4]); err != nil {
			return fmt.Errorf("terrain %s: shock drm %q", f[0], f[4])
		}
		t.Terrain[f[0]] = d
	case "hexside-features":
		if len(f) != 4 {
			return fmt.Errorf("a hexside row is <feature> <mp|P> <los height> <shock drm>")
		}
		var d SideDef
		var err error
		if f[1] == "P" {
			d.Impassable = true
		} else if d.MP, err = signed(f[1]); err != nil || d.MP < 0 {
			return fmt.Errorf("hexside %s: mp %q", f[0], f[1])
		}
		if d.Height, err = halves(f[2]); err != nil {
			return fmt.Errorf("hexside %s: %v", f[0], err)
		}
		if d.Shock, err = signed(f[3]); err != nil {
			return fmt.Errorf("hexside %s: shock drm %q", f[0], f[3])
		}
		t.SideFeat[f[0]] = d
	case "route-mp":
		n, err := strconv.Atoi(at(f, 1))
		if len(f) != 2 || err != nil || n < 1 || !slices.Contains(routeKinds, f[0]) {
			return fmt.Errorf("a route row is pike|road|trail <MP per hex>")
		}
		t.RouteMP[f[0]] = n
	case "weapons":
		if len(f) < 2 {
			return fmt.Errorf("a weapon row is <name> <range> and a DRM for each range from 1 to it")
		}
		r, err := strconv.Atoi(f[1])
		if err != nil || r < 1 || len(f) != 2+r {
			return fmt.Errorf("weapon %s: a range, then one DRM for each range from 1 to it", f[0])
		}
		w := Weapon{Range: r}
		for _, s := range f[2:] {
			n, err := signed(s)
			if err != nil {
				return fmt.Errorf("weapon %s: drm %q", f[0], s)
			}
			w.DRM = append(w.DRM, n)
		}
		t.Weapons[f[0]] = w
	case "fire", "shock":
		return p.resultRow(f)
	case "fire-drm", "shock-drm", "udd-drm":
		n, err := signed(at(f, 1))
		if len(f) != 2 || err != nil {
			return fmt.Errorf("a DRM row is <name> <+n|-n>")
		}
		map[string]map[string]int{"fire-drm": t.FireDRM, "shock-drm": t.ShockDRM, "udd-drm": t.UDDDRM}[p.section][f[0]] = n
	case "order-change":
		n, err := strconv.Atoi(at(f, 1))
		if len(f) != 2 || err != nil || !slices.Contains(orderNames, f[0]) {
			return fmt.Errorf("an order-change row is attack|advance|march|reserve <dr+DRM needed>")
		}
		t.OrderChange[f[0]] = n
	case "coordination":
		n, err := strconv.Atoi(at(f, 1))
		if len(f) != 2 || f[0] != "success" || err != nil {
			return fmt.Errorf("coordination: success <dr+DRM needed>")
		}
		t.Coordination = n
	case "efficiency":
		if len(f) != 11 {
			return fmt.Errorf("an efficiency row is <rating or march> and ten numbers, for dr 0 to 9")
		}
		var row []int
		for _, s := range f[1:] {
			n, err := strconv.Atoi(s)
			if err != nil || n < 0 || n > 9 {
				return fmt.Errorf("efficiency %s: %q", f[0], s)
			}
			row = append(row, n)
		}
		if f[0] == "march" {
			t.MarchAMs = row
		} else {
			t.Efficiency[f[0]] = row
		}
	case "construction":
		m, err := kv(f[1:])
		if err != nil {
			return err
		}
		var w Works
		if w.Turns, err = atoi(m, "turns", 1); err != nil {
			return err
		}
		if w.Fire, err = atoi(m, "fire", 0); err != nil {
			return err
		}
		if w.Shock, err = atoi(m, "shock", 0); err != nil {
			return err
		}
		t.Construction[f[0]] = w
	}
	return nil
}

// resultRow reads the column heads ("sp 1 2 3-4 ..." or "odds 1:2 1:1
// ...") and then rows "<dr> <result>...", the first and last rows
// written "<=n" and ">=n".
func (p *tableParser) resultRow(f []string) error {
	tab := p.tab
	if f[0] == "sp" || f[0] == "odds" {
		for _, c := range f[1:] {
			var b Bracket
			var err error
			b.Name = c
			if f[0] == "odds" {
				a, d, ok := strings.Cut(c, ":")
				b.Lo, err = strconv.Atoi(a)
				if err == nil {
					b.Hi, err = strconv.Atoi(d)
				}
				if !ok || err != nil || b.Lo < 1 || b.Hi < 1 {
					return fmt.Errorf("odds %q: want attacker:defender, e.g. 3:2", c)
				}
			} else {
				lo, hi, rng := strings.Cut(strings.TrimSuffix(c, "+"), "-")
				if b.Lo, err = strconv.Atoi(lo); err != nil {
					return fmt.Errorf("strength %q: want n, n-m or n+", c)
				}
				switch {
				case rng:
					if b.Hi, err = strconv.Atoi(hi); err != nil || b.Hi < b.Lo {
						return fmt.Errorf("strength %q", c)
					}
				case strings.HasSuffix(c, "+"):
					b.Hi = 0
				default:
					b.Hi = b.Lo
				}
			}
			tab.Cols = append(tab.Cols, b)
		}
		return nil
	}
	if len(tab.Cols) == 0 {
		return fmt.Errorf("the column heads (sp ... or odds ...) come first")
	}
	if len(f) != len(tab.Cols)+1 {
		return fmt.Errorf("row %s has %d results for %d columns", f[0], len(f)-1, len(tab.Cols))
	}
	n, err := strconv.Atoi(strings.TrimPrefix(strings.TrimPrefix(f[0], "<="), ">="))
	if err != nil {
		return fmt.Errorf("row %q: want a dr, <=n first and >=n last", f[0])
	}
	if len(tab.Rows) == 0 {
		tab.Low = n
	} else if n != tab.Low+len(tab.Rows) {
		return fmt.Errorf("row %d: rows go up by one from %d", n, tab.Low)
	}
	for _, r := range f[1:] {
		if err := checkResult(r, p.section); err != nil {
			return err
		}
	}
	tab.Rows = append(tab.Rows, slices.Clone(f[1:]))
	return nil
}

// checkResult checks a result code: for fire "-", "D", "n" or "nD" (n SP
// lost; D a disorder check); for shock "-" or parts joined by "/", each
// A or D (attacker, defender) then d (disordered), r (retreats) or a
// number (SP lost).
func checkResult(r, section string) error {
	if r == "-" {
		return nil
	}
	if section == "fire" {
		if _, err := parseFireResult(r); err != nil {
			return err
		}
		return nil
	}
	if _, err := parseShockResult(r); err != nil {
		return err
	}
	return nil
}

// FireResult is a fire table result: SP lost and a disorder check.
type FireResult struct {
	Loss  int
	Check bool
}

func parseFireResult(r string) (FireResult, error) {
	if r == "-" {
		return FireResult{}, nil
	}
	var res FireResult
	s := r
	if strings.HasSuffix(s, "D") {
		res.Check = true
		s = strings.TrimSuffix(s, "D")
	}
	if s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 9 {
			return FireResult{}, fmt.Errorf("fire result %q: want -, D, n or nD", r)
		}
		res.Loss = n
	}
	return res, nil
}

// ShockResult is a shock table result for each side.
type ShockResult struct {
	ALoss, DLoss           int
	ADis, DDis, ARet, DRet bool
}

func parseShockResult(r string) (ShockResult, error) {
	var res ShockResult
	if r == "-" {
		return res, nil
	}
	for _, part := range strings.Split(r, "/") {
		if len(part) < 2 || (part[0] != 'A' && part[0] != 'D' && part[0] != 'a') {
			return res, fmt.Errorf("shock result %q: parts are A or D then d, r or a number", r)
		}
		att := part[0] == 'A' || part[0] == 'a'
		switch rest := strings.ToLower(part[1:]); rest {
		case "d":
			if att {
				res.ADis = true
			} else {
				res.DDis = true
			}
		case "r":
			if att {
				res.ARet = true
			} else {
				res.DRet = true
			}
		default:
			n, err := strconv.Atoi(rest)
			if err != nil || n < 1 || n > 9 {
				return res, fmt.Errorf("shock result %q: part %q", r, part)
			}
			if att {
				res.ALoss = n
			} else {
				res.DLoss = n
			}
		}
	}
	return res, nil
}

// look reads the result in column col for a modified dr.
func (t *ResultTable) look(col, dr int) string {
	i := min(max(dr-t.Low, 0), len(t.Rows)-1)
	return t.Rows[i][col]
}

// fireColumn is the column of a fire strength (the highest bracket whose
// low end it reaches).
func (t *ResultTable) fireColumn(sp int) int {
	col := 0
	for i, b := range t.Cols {
		if sp >= b.Lo {
			col = i
		}
	}
	return col
}

// oddsColumn is the column of attacker:defender strengths: the best odds
// the attacker reaches (a*Hi >= d*Lo), rounded in the defender's favour.
func (t *ResultTable) oddsColumn(a, d int) int {
	col := 0
	for i, b := range t.Cols {
		if a*b.Hi >= d*b.Lo {
			col = i
		}
	}
	return col
}

func (t *Tables) check() error {
	switch {
	case len(t.Terrain) == 0:
		return fmt.Errorf("the scenario has no [terrain] chart (R4): load one with 'tables sample-tables' or write your own")
	case len(t.Weapons) == 0:
		return fmt.Errorf("the scenario has no [weapons] chart (R2): load one with 'tables sample-tables' or write your own")
	case t.Efficiency != nil && t.MarchAMs == nil:
		return fmt.Errorf("the [efficiency] chart needs a 'march' row (B5)")
	}
	for _, tab := range []*ResultTable{t.Fire, t.Shock} {
		if tab != nil && len(tab.Rows) == 0 {
			return fmt.Errorf("a results table has column heads but no rows")
		}
	}
	if t.Shock != nil && t.Shock.Cols[0].Hi == 0 {
		return fmt.Errorf("the [shock] table's columns are odds, e.g. 1:2")
	}
	return nil
}

// drm reads a DRM of a chart, 0 if it gives none.
func drm(m map[string]int, k string) int { return m[k] }
