package gcacw

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Tables are the charts the rules refer to but do not give (gcacw.md,
// "Referenced but not defined in the seed"), loaded with the scenario.
// A nil table means the scenario loads none: the step it serves goes to
// the referee.
type Tables struct {
	Files    []string    `json:"files,omitempty"` // table files the scenario named
	Terrain  *TEC        `json:"terrain,omitempty"`
	Extended *EMTable    `json:"extended,omitempty"`
	Strength []StrengthV `json:"strength,omitempty"`
	Ties     []TieRow    `json:"ties,omitempty"`
	Events   []EventRow  `json:"events,omitempty"`
	// House rules (house.go): steps the seed leaves to a referee, given
	// as data instead.
	House   *HouseRules   `json:"house,omitempty"`
	Reorg   *ReorgTable   `json:"reorganization,omitempty"`
	Victory *VictoryTable `json:"victory,omitempty"`
	// Combat resolves assaults (combat.go, R10).
	Combat *CombatTable `json:"combat,omitempty"`
	Notes  []string     `json:"notes,omitempty"` // header lines such as "SAMPLE TABLE …"
}

// Unit classes, the columns of the Terrain Effects Chart.
const (
	Infantry  = "inf"
	Cavalry   = "cav"
	Artillery = "art"
)

// UnitTypes are the three unit types of GCACW 2.2g.
var UnitTypes = []string{Infantry, Cavalry, Artillery}

// Prohibited is the cost of a move the chart forbids.
const Prohibited = -1

// TEC is the Terrain Effects Chart (R1): movement points by unit type for
// entering each terrain type, crossing each hexside feature, entering each
// in-hex feature, and moving along each route.
type TEC struct {
	Rows []TECRow `json:"rows"` // sorted by Name
}

// TECRow is one row: the cost for infantry, cavalry and artillery
// (Prohibited, or MP ≥ 0).
type TECRow struct {
	Name string `json:"name"`
	Inf  int    `json:"inf"`
	Cav  int    `json:"cav"`
	Art  int    `json:"art"`
}

// Cost returns the row's cost for a unit type, and false if the chart has
// no row called name.
func (t *TEC) Cost(name, typ string) (int, bool) {
	i, ok := slices.BinarySearchFunc(t.Rows, name, func(r TECRow, n string) int { return strings.Compare(r.Name, n) })
	if !ok {
		return 0, false
	}
	r := t.Rows[i]
	switch typ {
	case Cavalry:
		return r.Cav, true
	case Artillery:
		return r.Art, true
	}
	return r.Inf, true
}

// EMTable is the Extended March Table (R2): results by modified roll, by
// Strength-marker side and Manpower, plus the game's die-roll modifiers.
type EMTable struct {
	Columns []EMColumn `json:"columns"`
	Rows    []EMRow    `json:"rows"` // ascending rolls; the first may be "or less", the last "or more"
	DRMs    []DRM      `json:"drms,omitempty"`
}

// EMColumn is a column: organized or disorganized, for Manpower Lo..Hi.
type EMColumn struct {
	Organized bool `json:"organized"`
	Lo        int  `json:"lo"`
	Hi        int  `json:"hi"`
}

func (c EMColumn) String() string {
	s := "D"
	if c.Organized {
		s = "O"
	}
	return fmt.Sprintf("%s%d-%d", s, c.Lo, c.Hi)
}

// EMRow is the results for one modified roll, one per column.
type EMRow struct {
	Roll    int      `json:"roll"`
	Results []string `json:"results"` // NE, D, 1, 2 or 3
}

// DRM is one die-roll modifier of the Extended March Table and when it
// applies: every condition must hold.
type DRM struct {
	Value int      `json:"value"`
	When  []string `json:"when"` // side=USA, type=inf, fatigue=3, exhausted, normal, organized, disorganized, in=X, not-in=X
	Note  string   `json:"note,omitempty"`
}

// Lookup reads the table: the column for the marker side and Manpower,
// and the row for the modified roll (clamped to the first and last rows).
func (t *EMTable) Lookup(organized bool, manpower, roll int) (EMColumn, string, bool) {
	for ci, c := range t.Columns {
		if c.Organized != organized || manpower < c.Lo || manpower > c.Hi {
			continue
		}
		r := t.Rows[0]
		for _, row := range t.Rows {
			if row.Roll <= roll {
				r = row
			}
		}
		return c, r.Results[ci], true
	}
	return EMColumn{}, "", false
}

// StrengthV is one Strength marker (R3): its Manpower value and the
// Combat value on its disorganized side, in halves (1 = ½).
type StrengthV struct {
	Manpower   int `json:"manpower"`
	DisorgHalf int `json:"disorg_half"`
}

// TieRow is one row of a BAC/AIO initiative tie table (R5): the tied
// die value, the side that wins, and whether insubordination may follow.
type TieRow struct {
	Die             int    `json:"die"`
	Winner          string `json:"winner"`
	Insubordination bool   `json:"insubordination,omitempty"`
}

// EventRow is one row of the Random Events Table (R4).
type EventRow struct {
	Roll int    `json:"roll"`
	Text string `json:"text"`
}

// table sections a file may hold.
const (
	secTerrain  = "terrain-effects"
	secExtended = "extended-march"
	secStrength = "strength"
	secTies     = "initiative-ties"
	secEvents   = "random-events"
	secHouse    = "house-rules"
	secReorg    = "reorganization"
	secVictory  = "victory"
	secCombat   = "combat"
)

var tableSections = []string{secTerrain, secExtended, secStrength, secTies, secEvents, secHouse, secReorg, secVictory, secCombat}

// srcLine is one non-blank line of a scenario or table file.
type srcLine struct {
	File string
	No   int
	Toks []token
	Raw  string
}

func (l srcLine) errf(format string, a ...any) error {
	return fmt.Errorf("%s line %d: %s", l.File, l.No, fmt.Sprintf(format, a...))
}

// parseTable reads one table section into t.
func (t *Tables) parseTable(sec string, lines []srcLine) []error {
	switch sec {
	case secTerrain:
		return t.parseTEC(lines)
	case secExtended:
		return t.parseEM(lines)
	case secStrength:
		return t.parseStrength(lines)
	case secTies:
		return t.parseTies(lines)
	case secEvents:
		return t.parseEvents(lines)
	case secHouse:
		return t.parseHouse(lines)
	case secReorg:
		return t.parseReorg(lines)
	case secVictory:
		return t.parseVictory(lines)
	case secCombat:
		return t.parseCombat(lines)
	}
	return nil
}

func tecCell(s string) (int, error) {
	if strings.EqualFold(s, "P") {
		return Prohibited, nil
	}
	n, err := strconv.Atoi(strings.TrimPrefix(s, "+"))
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q is not a cost: write a whole number of MP (0, 1, +2 …) or P for prohibited", s)
	}
	return n, nil
}

// tecNames are the rows a Terrain Effects Chart may have.
func tecNames() []string {
	var ns []string
	ns = append(ns, TerrainTypes...)
	ns = append(ns, HexsideFeatures...)
	ns = append(ns, HexFeatures...)
	ns = append(ns, RouteKinds...)
	return ns
}

func (t *Tables) parseTEC(lines []srcLine) []error {
	var errs []error
	tec := &TEC{}
	seen := map[string]int{}
	for _, l := range lines {
		if len(l.Toks) != 4 {
			errs = append(errs, l.errf("a Terrain Effects Chart row is a name and three costs (inf cav art), e.g. \"woods 2 3 3\""))
			continue
		}
		name := strings.ToLower(l.Toks[0].Text)
		if !slices.Contains(tecNames(), name) {
			errs = append(errs, l.errf("%q is not a terrain type, hexside feature, in-hex feature or route (%s)", l.Toks[0].Text, strings.Join(tecNames(), ", ")))
			continue
		}
		if prev, dup := seen[name]; dup {
			errs = append(errs, l.errf("%s has a row already (line %d)", name, prev))
			continue
		}
		seen[name] = l.No
		var c [3]int
		ok := true
		for i := range c {
			v, err := tecCell(l.Toks[i+1].Text)
			if err != nil {
				errs = append(errs, l.errf("%s", err))
				ok = false
				break
			}
			c[i] = v
		}
		if ok && name == Water && (c[0] != Prohibited || c[1] != Prohibited || c[2] != Prohibited) {
			errs = append(errs, l.errf("water hexes cannot be entered: write \"water P P P\""))
			ok = false
		}
		if ok {
			tec.Rows = append(tec.Rows, TECRow{Name: name, Inf: c[0], Cav: c[1], Art: c[2]})
		}
	}
	slices.SortFunc(tec.Rows, func(a, b TECRow) int { return strings.Compare(a.Name, b.Name) })
	t.Terrain = tec
	return errs
}

var emResults = []string{"NE", "D", "1", "2", "3"}

func (t *Tables) parseEM(lines []srcLine) []error {
	var errs []error
	em := &EMTable{}
	var orLess, orMore bool
	for _, l := range lines {
		head := strings.ToLower(l.Toks[0].Text)
		switch {
		case head == "columns":
			if em.Columns != nil {
				errs = append(errs, l.errf("the columns are given twice"))
				continue
			}
			for _, tk := range l.Toks[1:] {
				c, err := parseEMColumn(tk.Text)
				if err != nil {
					errs = append(errs, l.errf("%s", err))
					continue
				}
				em.Columns = append(em.Columns, c)
			}
		case head == "drm":
			d, err := parseDRM(l.Toks[1:])
			if err != nil {
				errs = append(errs, l.errf("%s", err))
				continue
			}
			em.DRMs = append(em.DRMs, d)
		default:
			if em.Columns == nil {
				errs = append(errs, l.errf("give the columns first, e.g. \"columns O1-4 O5-21 D1-4 D5-21\""))
				continue
			}
			roll, rest := l.Toks[0], l.Toks[1:]
			less, more := false, false
			if roll.Punct && (roll.Text == "<=" || roll.Text == ">=") && len(l.Toks) > 1 {
				less, more = roll.Text == "<=", roll.Text == ">="
				roll, rest = l.Toks[1], l.Toks[2:]
			}
			n, err := strconv.Atoi(roll.Text)
			if err != nil {
				errs = append(errs, l.errf("a row starts with a modified roll (5, <=1 or >=9), not %q", roll.Text))
				continue
			}
			if len(rest) != len(em.Columns) {
				errs = append(errs, l.errf("roll %d has %d results for %d columns", n, len(rest), len(em.Columns)))
				continue
			}
			row := EMRow{Roll: n}
			for _, tk := range rest {
				r := strings.ToUpper(tk.Text)
				if !slices.Contains(emResults, r) {
					errs = append(errs, l.errf("%q is not an Extended March result (NE, D, 1, 2 or 3)", tk.Text))
					r = "NE"
				}
				row.Results = append(row.Results, r)
			}
			if k := len(em.Rows); k > 0 && em.Rows[k-1].Roll+1 != n {
				errs = append(errs, l.errf("roll %d does not follow roll %d: list every roll in order", n, em.Rows[k-1].Roll))
			}
			if orMore {
				errs = append(errs, l.errf("roll %d comes after an \"or more\" row", n))
			}
			if less {
				if len(em.Rows) > 0 {
					errs = append(errs, l.errf("an \"or less\" row (<=%d) must be the first", n))
				}
				orLess = true
			}
			orMore = more
			em.Rows = append(em.Rows, row)
		}
	}
	if len(em.Columns) == 0 || len(em.Rows) == 0 {
		errs = append(errs, fmt.Errorf("the Extended March Table needs columns and rows"))
	} else {
		for _, org := range []bool{true, false} {
			covered := make([]int, 22)
			for _, c := range em.Columns {
				if c.Organized == org {
					for m := c.Lo; m <= c.Hi; m++ {
						covered[m]++
					}
				}
			}
			for m := 1; m <= 21; m++ {
				if covered[m] != 1 {
					side := "disorganized"
					if org {
						side = "organized"
					}
					errs = append(errs, fmt.Errorf("the Extended March Table's %s columns cover Manpower %d %d times (want exactly once for 1 to 21)", side, m, covered[m]))
					break
				}
			}
		}
		if !orLess || !orMore {
			errs = append(errs, fmt.Errorf("the Extended March Table must start with an \"or less\" row (<=N) and end with an \"or more\" row (>=N), so every modified roll has a result"))
		}
	}
	t.Extended = em
	return errs
}

func parseEMColumn(s string) (EMColumn, error) {
	bad := fmt.Errorf("column %q: write O or D (organized, disorganized) and a Manpower range, e.g. O1-4 or D13-21", s)
	if len(s) < 2 {
		return EMColumn{}, bad
	}
	var c EMColumn
	switch s[0] {
	case 'O', 'o':
		c.Organized = true
	case 'D', 'd':
	default:
		return EMColumn{}, bad
	}
	lo, hi, found := strings.Cut(s[1:], "-")
	var err1, err2 error
	c.Lo, err1 = strconv.Atoi(lo)
	c.Hi = c.Lo
	if found {
		c.Hi, err2 = strconv.Atoi(hi)
	}
	if err1 != nil || err2 != nil || c.Lo < 1 || c.Hi > 21 || c.Lo > c.Hi {
		return EMColumn{}, bad
	}
	return c, nil
}

// drmConds are the conditions a DRM line may use.
var drmConds = []string{"side=", "type=", "fatigue=", "in=", "not-in=", "exhausted", "normal", "organized", "disorganized"}

func parseDRM(toks []token) (DRM, error) {
	if len(toks) == 0 {
		return DRM{}, fmt.Errorf("a DRM line is \"drm +1 fatigue=3\": a value, then conditions")
	}
	v, err := strconv.Atoi(strings.TrimPrefix(toks[0].Text, "+"))
	if err != nil {
		return DRM{}, fmt.Errorf("DRM %q is not a number like +1 or -1", toks[0].Text)
	}
	d := DRM{Value: v}
	// Conditions come as key = value tokens (the lexer splits off '=').
	for i := 1; i < len(toks); i++ {
		tk := toks[i]
		if tk.Quoted {
			d.Note = tk.Text
			continue
		}
		k, val, hasVal := strings.ToLower(tk.Text), "", false
		if i+1 < len(toks) && toks[i+1].Punct && toks[i+1].Text == "=" {
			if i+2 >= len(toks) {
				return DRM{}, fmt.Errorf("condition %s= has no value", k)
			}
			val, hasVal = toks[i+2].Text, true
			i += 2
		}
		name := k
		if hasVal {
			name += "="
		}
		if !slices.Contains(drmConds, name) {
			return DRM{}, fmt.Errorf("unknown DRM condition %q (use side=, type=, fatigue=, in=, not-in=, exhausted, normal, organized, disorganized)", tk.Text)
		}
		switch k {
		case "side":
			val = strings.ToUpper(val)
			if val != USA && val != CSA {
				return DRM{}, fmt.Errorf("side=%s: the sides are USA and CSA", val)
			}
		case "type":
			val = strings.ToLower(val)
			if !slices.Contains(UnitTypes, val) {
				return DRM{}, fmt.Errorf("type=%s: the unit types are inf, cav, art", val)
			}
		case "fatigue":
			if n, err := strconv.Atoi(val); err != nil || n < 0 || n > 4 {
				return DRM{}, fmt.Errorf("fatigue=%s: fatigue levels are 0 to 4", val)
			}
		}
		if hasVal {
			d.When = append(d.When, k+"="+val)
		} else {
			d.When = append(d.When, k)
		}
	}
	return d, nil
}

func (t *Tables) parseStrength(lines []srcLine) []error {
	var errs []error
	seen := map[int]bool{}
	for _, l := range lines {
		if len(l.Toks) != 2 {
			errs = append(errs, l.errf("a Strength row is a Manpower value and its disorganized Combat value, e.g. \"7 3\" or \"1 1/2\""))
			continue
		}
		m, err := strconv.Atoi(l.Toks[0].Text)
		if err != nil || m < 1 || m > 21 {
			errs = append(errs, l.errf("Manpower %q: want 1 to 21 (GCACW 2.2o)", l.Toks[0].Text))
			continue
		}
		half, err := parseHalves(l.Toks[1].Text)
		if err != nil || half < 1 || half > 28 {
			errs = append(errs, l.errf("disorganized Combat value %q: want 1/2 to 14 (GCACW 2.2o)", l.Toks[1].Text))
			continue
		}
		if seen[m] {
			errs = append(errs, l.errf("Manpower %d is given twice", m))
			continue
		}
		seen[m] = true
		t.Strength = append(t.Strength, StrengthV{Manpower: m, DisorgHalf: half})
	}
	slices.SortFunc(t.Strength, func(a, b StrengthV) int { return a.Manpower - b.Manpower })
	return errs
}

// parseHalves reads "3", "1/2", "½", "2½" or "2.5" as a count of halves.
func parseHalves(s string) (int, error) {
	s = strings.ReplaceAll(s, "½", ".5")
	if s == "1/2" {
		return 1, nil
	}
	if strings.HasPrefix(s, ".") {
		s = "0" + s
	}
	whole, frac, found := strings.Cut(s, ".")
	n, err := strconv.Atoi(whole)
	if err != nil {
		return 0, err
	}
	switch {
	case !found:
		return 2 * n, nil
	case frac == "5":
		return 2*n + 1, nil
	}
	return 0, fmt.Errorf("not a whole or half number")
}

func halves(h int) string {
	switch {
	case h == 1:
		return "1/2"
	case h%2 == 1:
		return fmt.Sprintf("%d.5", h/2)
	}
	return strconv.Itoa(h / 2)
}

func (t *Tables) parseTies(lines []srcLine) []error {
	var errs []error
	seen := map[int]bool{}
	for _, l := range lines {
		if len(l.Toks) < 2 || len(l.Toks) > 3 {
			errs = append(errs, l.errf("a tie row is the tied die, the side that wins, and optionally \"insubordination\", e.g. \"3 CSA insubordination\""))
			continue
		}
		d, err := strconv.Atoi(l.Toks[0].Text)
		if err != nil || d < 1 || d > 6 {
			errs = append(errs, l.errf("tied die %q: want 1 to 6", l.Toks[0].Text))
			continue
		}
		side := strings.ToUpper(l.Toks[1].Text)
		if side != USA && side != CSA {
			errs = append(errs, l.errf("winner %q: the sides are USA and CSA", l.Toks[1].Text))
			continue
		}
		row := TieRow{Die: d, Winner: side}
		if len(l.Toks) == 3 {
			if !strings.EqualFold(l.Toks[2].Text, "insubordination") {
				errs = append(errs, l.errf("%q: the only note a tie row takes is \"insubordination\"", l.Toks[2].Text))
				continue
			}
			row.Insubordination = true
		}
		if seen[d] {
			errs = append(errs, l.errf("die %d is given twice", d))
			continue
		}
		seen[d] = true
		t.Ties = append(t.Ties, row)
	}
	if len(seen) != 6 && len(errs) == 0 {
		errs = append(errs, fmt.Errorf("the initiative tie table must give a winner for every die 1 to 6"))
	}
	slices.SortFunc(t.Ties, func(a, b TieRow) int { return a.Die - b.Die })
	return errs
}

func (t *Tables) parseEvents(lines []srcLine) []error {
	var errs []error
	seen := map[int]bool{}
	for _, l := range lines {
		if len(l.Toks) != 2 || !l.Toks[1].Quoted {
			errs = append(errs, l.errf("a Random Events row is a 2d6 roll and the event in quotes, e.g. 7 \"Rain: roads muddy\""))
			continue
		}
		r, err := strconv.Atoi(l.Toks[0].Text)
		if err != nil || r < 2 || r > 12 {
			errs = append(errs, l.errf("roll %q: want 2 to 12", l.Toks[0].Text))
			continue
		}
		if seen[r] {
			errs = append(errs, l.errf("roll %d is given twice", r))
			continue
		}
		seen[r] = true
		t.Events = append(t.Events, EventRow{Roll: r, Text: l.Toks[1].Text})
	}
	if len(seen) != 11 && len(errs) == 0 {
		errs = append(errs, fmt.Errorf("the Random Events Table must give an event for every roll 2 to 12"))
	}
	slices.SortFunc(t.Events, func(a, b EventRow) int { return a.Roll - b.Roll })
	return errs
}
