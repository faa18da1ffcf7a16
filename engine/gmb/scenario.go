package gmb

import (
	"embed"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pbem/engine"
	"pbem/engine/table"
)

// Command levels of generals' cards (GMB 13.5b).
const (
	LevelArmy        = "Army"
	LevelArmyCorps   = "Army/Corps"
	LevelCorps       = "Corps"
	LevelCavCorps    = "Cavalry corps"
	LevelDivision    = "Division"
	LevelCavDivision = "Cavalry division"
	LevelCavalry     = "Cavalry" // 13.5f: no split into corps and divisions
	LevelArmyArt     = "Army artillery"
	LevelArtillery   = "Artillery"
	LevelBrigade     = "Brigade" // historical brigade generals (13.5i)
)

var levels = []string{LevelArmy, LevelArmyCorps, LevelCorps, LevelCavCorps, LevelDivision, LevelCavDivision,
	LevelCavalry, LevelArmyArt, LevelArtillery, LevelBrigade}

// Characters of a commander-in-chief (13.8b).
const (
	Cautious   = "Cautious"
	Neutral    = "Neutral"
	Aggressive = "Aggressive"
)

var characters = []string{Cautious, Neutral, Aggressive}

// Battlefields (13.7b).
const (
	Defensive = "Defensive"
	Offensive = "Offensive"
	// Neutral is also a battlefield.
)

var battlefields = []string{Defensive, Neutral, Offensive}

// Formation kinds of an army list.
const (
	KindArmy        = "army" // the army itself: its commander-in-chief
	KindCorps       = "corps"
	KindCavCorps    = "cavalry corps"
	KindDivision    = "division"
	KindCavDivision = "cavalry division"
	KindArmyArt     = "army artillery"
	KindCorpsArt    = "corps artillery"
)

// Terrain behaviour for movement (R4).
const (
	Clear      = "clear"
	Obstacle   = "obstacle"
	Impassable = "impassable"
)

// Terrain kinds the rules name.
const (
	Hill          = "hill"
	Woods         = "woods"
	Rough         = "rough"
	BuiltUp       = "built-up"
	River         = "river"
	Stream        = "stream"
	Road          = "road"
	Railway       = "railway"
	Fence         = "fence"
	Wall          = "wall"
	Fortification = "fortification"
)

// TerrainKind is one kind of terrain of the scenario (R4).
type TerrainKind struct {
	Name  string
	Line  bool   // linear terrain (a polyline), else an area (a polygon)
	Move  string // Clear, Obstacle or Impassable
	Glyph byte
}

// UnitType is a kind of unit: its movement value and base (R3, R23).
type UnitType struct {
	Name         string
	Move         table.Length
	Width, Depth table.Length
}

// Formation is a corps, division or artillery formation of an army list.
type Formation struct {
	Name   string
	Kind   string
	Parent string // the corps a division or corps artillery belongs to
}

// Cavalry reports whether the formation is cavalry.
func (f Formation) Cavalry() bool { return f.Kind == KindCavCorps || f.Kind == KindCavDivision }

// UnitDef is a unit of an army list.
type UnitDef struct {
	Name      string
	Type      string
	Formation string
	From      int // the first year it may be fielded (13.4b), 0 for any
}

// GeneralDef is a general's card (R10).
type GeneralDef struct {
	Name      string
	Level     string
	Character string // a commander-in-chief's (13.8b)
	Command   int    // dice of his command test (R2)
}

// Army is one army list and its decks.
type Army struct {
	Side           string
	Value          int // its points ($), for 13.1 and 13.12c
	Year           int // the year of its list (13.4c)
	Morale         string
	Redraws        int // generals it may redraw (13.5g)
	Fortifications int // sections bought (13.10m)
	// Special is what the army's traits let it do in 13.10l: place a
	// piece of a kind, or "move" one piece.
	Special    []string
	Formations []Formation
	Units      []UnitDef
	Generals   []GeneralDef
	Cards      []string
}

// Formation returns the formation of a name.
func (a *Army) Formation(name string) (Formation, bool) {
	for _, f := range a.Formations {
		if f.Name == name {
			return f, true
		}
	}
	return Formation{}, false
}

// Corps returns the formation a unit of f is activated with: its corps,
// or f itself when it belongs to none (the army's artillery reserve, a
// cavalry division without a corps).
func (a *Army) Corps(formation string) string {
	f, _ := a.Formation(formation)
	if f.Parent != "" {
		return f.Parent
	}
	return f.Name
}

// Groups are the formations activated and given patrol markers: corps,
// cavalry corps, and formations of no corps, in the army list's order.
func (a *Army) Groups() []string {
	var out []string
	for _, f := range a.Formations {
		if f.Parent == "" {
			out = append(out, f.Name)
		}
	}
	return out
}

// HasCavalry reports whether the army list has cavalry (13.13b).
func (a *Army) HasCavalry() bool {
	for _, f := range a.Formations {
		if f.Cavalry() {
			return true
		}
	}
	return false
}

// TerrainList is an army's terrain list, or the typical one (13.10b-d).
type TerrainList struct {
	Name   string
	Pieces []ListEntry
	No     []string // linear kinds the list forbids (13.10n)
}

// ListEntry is one kind of a terrain list and how many pieces of it.
type ListEntry struct {
	Kind  string
	Count int
}

// Typical is 13.10d's typical terrain list.
var Typical = TerrainList{Name: "Typical", Pieces: []ListEntry{{Hill, 4}, {Rough, 4}, {Woods, 4}, {BuiltUp, 3}}}

// TableGeom is a table size with its Illustration 13.7 geometry (R16).
type TableGeom struct {
	Size          string // "48x48"
	Width, Height table.Length
	Zone          table.Length  // depth of each deployment zone
	Points        []table.Point // the strategic points (13.9b), west to east
}

// CavTactic is a cavalry tactic (R21).
type CavTactic struct {
	Name   string
	Patrol table.Length // how far beyond the deployment zone its cavalry patrols
}

// LayoutLine is one piece of a scenario's terrain layout: the order
// that places it, and its line in the file.
type LayoutLine struct {
	Line int
	Text string
}

// ScenarioDef is a scenario file after parsing. It never changes after
// Setup.
type ScenarioDef struct {
	Name   string
	Sample bool
	// Muster tells the players the forces a campaign set this battle up
	// with (applyMuster); none for a scenario as written.
	Muster []string

	Die            int // R1
	InitDice       int
	InitSuccess    int
	InitTies       string // "reroll" or "referee"
	CommandSuccess int    // R2
	ZOC            table.Length
	Support        table.Length
	Turns          int
	Morale         []string
	FortLength     table.Length
	Fences         int
	Combat         string // "referee" or "none"

	// Historical marks a special or historical scenario: no 12" x 6"
	// limit on a piece (13.2a), and normal terrain may stand on normal
	// terrain (13.10o).
	Historical bool
	// Layout is the scenario's terrain layout (13.10a), its "piece"
	// lines: orders as a mail writes them, placed instead of 13.10's
	// method and checked by its rules.
	Layout []LayoutLine

	TableSize string // fixed by the scenario, else chosen by mail (13.1)
	Year      int    // fixed by the scenario (13.4a); 0 by mail; -1 the referee's

	Tables       []TableGeom
	Kinds        []TerrainKind
	UnitTypes    []UnitType
	CavTactics   []CavTactic
	Lists        []TerrainList
	BrigadeDeck  []string
	Armies       []Army
	Options      map[string]string
	LinearLimits map[string]int
}

// Kind returns a terrain kind by name.
func (sc *ScenarioDef) Kind(name string) (TerrainKind, bool) {
	for _, k := range sc.Kinds {
		if k.Name == name {
			return k, true
		}
	}
	return TerrainKind{}, false
}

// UnitType returns a unit type by name.
func (sc *ScenarioDef) UnitType(name string) UnitType {
	for _, t := range sc.UnitTypes {
		if t.Name == name {
			return t
		}
	}
	return UnitType{}
}

// Army returns the army of a side.
func (sc *ScenarioDef) Army(side string) *Army {
	for i := range sc.Armies {
		if sc.Armies[i].Side == side {
			return &sc.Armies[i]
		}
	}
	return nil
}

// Geom returns the geometry of a table size.
func (sc *ScenarioDef) Geom(size string) (TableGeom, bool) {
	for _, g := range sc.Tables {
		if g.Size == size {
			return g, true
		}
	}
	return TableGeom{}, false
}

// List returns a terrain list by name (Typical too).
func (sc *ScenarioDef) List(name string) (TerrainList, bool) {
	if strings.EqualFold(name, Typical.Name) {
		return Typical, true
	}
	for _, l := range sc.Lists {
		if strings.EqualFold(l.Name, name) {
			return l, true
		}
	}
	return TerrainList{}, false
}

// Option returns the reading a scenario chose for a switch (see options).
func (sc *ScenarioDef) Option(key string) string {
	if v, ok := sc.Options[key]; ok {
		return v
	}
	for _, o := range options {
		if o.Key == key {
			return o.Values[0]
		}
	}
	panic("gmb: no option " + key)
}

// on reports whether a switch reads "on".
func (sc *ScenarioDef) on(key string) bool { return sc.Option(key) == "on" }

// option is a scenario switch: the ambiguities G1-G20 and the starred
// rules (G18), the spec's reading first (the default).
type option struct {
	Key    string
	Values []string
	Rule   string
}

var options = []option{
	{"forced-move", []string{"base", "range"}, "G3 (7.5b): half the base movement value, or of the modified range"},
	{"minimum-range", []string{"total", "remaining"}, "G4 (7.1e): the 3\" minimum bounds the whole range, or also what remains after an obstacle"},
	{"pivots", []string{"start-or-end", "anytime"}, "G5 (7.3d): a pivot about the base's centre only first or last, or anywhere in the move"},
	{"piece-size", []string{"area", "box"}, "G6 (13.2a): a normal piece's limit is its area (72 sq in, 36 with 9x4), or its length and breadth"},
	{"piece-limit", []string{"12x6", "9x4"}, "13.10e: the optional 9\" x 4\" limit for normal pieces"},
	{"terrain-amount", []string{"normal", "fewer", "more"}, "13.10e: four pieces fewer, or more, by the players' agreement"},
	{"neutral-card", []string{"hand", "keep-3"}, "G7 (13.7f): the Neutral battlefield's extra card goes into the hand, or the player then keeps 3 of his 4"},
	{"first-initiative", []string{"battlefield-roll", "separate"}, "G8 (13.8): the battlefield roll is also turn 1's initiative roll, or turn 1 has its own"},
	{"declaration", []string{"sealed", "open"}, "G9 (13.7b, 13.8d): the battlefield and forced march are declared sealed and revealed together, or openly in turn"},
	{"linear-pool", []string{"pool", "kinds"}, "G10 (13.10j): a pass takes one piece from a pool of all linear pieces, or only ends the player's turn"},
	{"operational-base", []string{"6cm", "6in"}, "G11 (13.11d): the operational base is 6 x 6 cm as printed, or 6 x 6 inches"},
	{"generals-split", []string{"army", "deck"}, "G12 (13.5e): a branch's levels are drawn apart when the army fields both levels, or whenever the deck has both"},
	{"zone-pieces", []string{"per-player", "total"}, "G13 (13.10k): the 3 pieces in a deployment zone are each player's, or of both together"},
	{"roads", []string{"shortest", "free"}, "G15 (13.10h): roads run by the shortest line through their points, or by the points the player gives"},
	{"fences-order", []string{"before-special", "after-special"}, "G16: fences and walls before the special terrain of 13.10l, or after it"},
	{"rewards", []string{"highest", "sum"}, "G17 (13.12c): only the highest reward an army tactic meets, or every one it meets"},
	{"passage-of-lines", []string{"on", "off"}, "G18: the starred rule *7.6, passage of lines"},
	{"cavalry-tactics", []string{"on", "off"}, "G18: the starred rule *13.13, cavalry tactics"},
	{"friendly-units", []string{"pass", "block"}, "G20 (7.2c): a move may pass through friendly units at the obstacle cost, or may not"},
	{"generals-drawn-by", []string{"opponent", "owner"}, "13.5a: the opponent draws an army's generals (good practice), or its owner"},
	{"contact", []string{"touch", "enter"}, "7.2c: an obstacle is met (its 3\" paid) when the base touches it («po zetknięciu»), or only when it enters it"},
	{"road-start", []string{"free", "pays"}, "7.2i: a unit starting its move in terrain that moves only along a road ignores that terrain too, or pays for it (7.2c)"},
	{"passage-order", []string{"initiative", "own"}, "7.6i: the initiative player orders every passage of lines, the opponent's too, or each side its own, the initiative first"},
	{"half-pieces", []string{"together", "apart"}, "13.10f: two half pieces go down together in one turn instead of one piece, or each in a turn of its own"},
}

//go:embed scenarios/*.txt
var files embed.FS

var shipped = engine.Shipped{Files: files, Dir: "scenarios"}

// Scenarios lists the built-in scenarios, sorted.
func Scenarios() []string { return shipped.Names() }

// Scenario returns a built-in scenario's file.
func Scenario(name string) ([]byte, error) {
	b, err := shipped.Read(name)
	if err != nil {
		return nil, fmt.Errorf("gmb: no scenario %q (have %v)", name, Scenarios())
	}
	return b, nil
}

// scnErr is a scenario error with its line.
type scnErr struct {
	line int
	msg  string
}

func (e scnErr) Error() string { return fmt.Sprintf("gmb scenario line %d: %s", e.line, e.msg) }

func fields(s string) []string {
	var out []string
	for _, f := range strings.Split(s, "|") {
		out = append(out, strings.TrimSpace(f))
	}
	return out
}

func inches(s string) (table.Length, error) {
	return table.ParseLengthIn(s, table.Inches)
}

// parsePoint reads "x,y" in inches.
func parsePoint(s string) (table.Point, error) {
	xs, ys, ok := strings.Cut(s, ",")
	if !ok {
		return table.Point{}, fmt.Errorf("%q is not x,y", s)
	}
	x, err := inches(strings.TrimSpace(xs))
	if err != nil {
		return table.Point{}, err
	}
	y, err := inches(strings.TrimSpace(ys))
	if err != nil {
		return table.Point{}, err
	}
	return table.Pt(x, y), nil
}

// parseSize reads "WxD" in inches.
func parseSize(s string) (w, d table.Length, err error) {
	ws, ds, ok := strings.Cut(strings.ToLower(s), "x")
	if !ok {
		return 0, 0, fmt.Errorf("%q is not WxD", s)
	}
	if w, err = inches(ws); err != nil {
		return
	}
	d, err = inches(ds)
	return
}

// keyInt reads "key N".
func keyInt(s, key string) (int, bool) {
	k, v, ok := strings.Cut(s, " ")
	if !ok || !strings.EqualFold(k, key) {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	return n, err == nil
}

// ParseScenario reads a scenario file.
func ParseScenario(b []byte) (*ScenarioDef, error) {
	sc := &ScenarioDef{Options: map[string]string{}, Combat: "referee", InitTies: "reroll",
		LinearLimits: map[string]int{River: 1, Stream: 1, Road: 4, Railway: 2}}
	b, muster, err := engine.SplitMuster(b)
	if err != nil {
		return nil, fmt.Errorf("gmb: scenario %v", err)
	}
	var army *Army
	for i, raw := range strings.Split(string(b), "\n") {
		line := raw
		// A comment starts at a "#" that begins the line or is followed by a
		// space (a terrain glyph may be "#").
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		if j := strings.Index(line, "# "); j >= 0 {
			line = line[:j]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		word, rest, _ := strings.Cut(line, " ")
		rest = strings.TrimSpace(rest)
		if word == "piece" {
			sc.Layout = append(sc.Layout, LayoutLine{i + 1, rest})
			continue
		}
		if err := sc.line(&army, word, rest); err != nil {
			return nil, scnErr{i + 1, err.Error()}
		}
	}
	if err := sc.check(); err != nil {
		return sc, err
	}
	if sc.Muster, err = sc.applyMuster(muster); err != nil {
		return nil, err
	}
	return sc, nil
}

func (sc *ScenarioDef) line(army **Army, word, rest string) error {
	f := fields(rest)
	atoi := func(s string) (int, error) {
		n, err := strconv.Atoi(s)
		if err != nil {
			return 0, fmt.Errorf("%q is not a number", s)
		}
		return n, nil
	}
	var err error
	armyWords := []string{"value", "year", "morale", "redraws", "fortifications", "special", "corps", "division", "artillery", "unit", "general", "card"}
	if *army != nil && slices.Contains(armyWords, word) {
		return (*army).line(word, rest, f)
	}
	switch word {
	case "scenario":
		sc.Name = rest
	case "sample":
		sc.Sample = true
	case "historical":
		sc.Historical = true
	case "die":
		sc.Die, err = atoi(rest)
	case "initiative":
		if sc.InitDice, err = atoi(f[0]); err != nil {
			return err
		}
		if len(f) < 2 {
			return errors.New("initiative N | success M")
		}
		n, ok := keyInt(f[1], "success")
		if !ok {
			return errors.New("initiative N | success M")
		}
		sc.InitSuccess = n
	case "initiative-ties":
		if rest != "reroll" && rest != "referee" {
			return errors.New("initiative-ties reroll or referee")
		}
		sc.InitTies = rest
	case "command-success":
		sc.CommandSuccess, err = atoi(rest)
	case "zoc":
		sc.ZOC, err = inches(rest)
	case "support":
		sc.Support, err = inches(rest)
	case "turns":
		sc.Turns, err = atoi(rest)
	case "morale-levels":
		sc.Morale = f
	case "fortification-length":
		sc.FortLength, err = inches(rest)
	case "fences":
		sc.Fences, err = atoi(rest)
	case "combat":
		if rest != "referee" && rest != "none" {
			return errors.New("combat referee or none")
		}
		sc.Combat = rest
	case "table-size":
		sc.TableSize = rest
	case "battle-year":
		if rest == "referee" {
			sc.Year = -1
		} else {
			sc.Year, err = atoi(rest)
		}
	case "option":
		k, v, _ := strings.Cut(rest, " ")
		v = strings.TrimSpace(v)
		for _, o := range options {
			if o.Key == k {
				if !slices.Contains(o.Values, v) {
					return fmt.Errorf("option %s is one of %s", k, strings.Join(o.Values, ", "))
				}
				sc.Options[k] = v
				return nil
			}
		}
		var keys []string
		for _, o := range options {
			keys = append(keys, o.Key)
		}
		return fmt.Errorf("no option %q (options: %s)", k, strings.Join(keys, ", "))
	case "table":
		if len(f) != 3 {
			return errors.New("table WxH | zone D | points x,y x,y x,y")
		}
		g := TableGeom{Size: strings.ToLower(f[0])}
		if g.Width, g.Height, err = parseSize(f[0]); err != nil {
			return err
		}
		z, ok := strings.CutPrefix(f[1], "zone ")
		if !ok {
			return errors.New("table WxH | zone D | points x,y x,y x,y")
		}
		if g.Zone, err = inches(z); err != nil {
			return err
		}
		ps, ok := strings.CutPrefix(f[2], "points ")
		if !ok {
			return errors.New("table WxH | zone D | points x,y x,y x,y")
		}
		for _, p := range strings.Fields(ps) {
			pt, err := parsePoint(p)
			if err != nil {
				return err
			}
			g.Points = append(g.Points, pt)
		}
		sc.Tables = append(sc.Tables, g)
	case "terrain":
		if len(f) != 4 || len(f[3]) != 1 {
			return errors.New("terrain NAME | area or line | clear, obstacle or impassable | GLYPH")
		}
		k := TerrainKind{Name: f[0], Line: f[1] == "line", Move: f[2], Glyph: f[3][0]}
		if f[1] != "line" && f[1] != "area" || !slices.Contains([]string{Clear, Obstacle, Impassable}, f[2]) {
			return errors.New("terrain NAME | area or line | clear, obstacle or impassable | GLYPH")
		}
		sc.Kinds = append(sc.Kinds, k)
	case "unit-type":
		if len(f) != 3 {
			return errors.New("unit-type NAME | move N | base WxD")
		}
		t := UnitType{Name: f[0]}
		m, ok := strings.CutPrefix(f[1], "move ")
		if !ok {
			return errors.New("unit-type NAME | move N | base WxD")
		}
		if t.Move, err = inches(m); err != nil {
			return err
		}
		bs, ok := strings.CutPrefix(f[2], "base ")
		if !ok {
			return errors.New("unit-type NAME | move N | base WxD")
		}
		if t.Width, t.Depth, err = parseSize(bs); err != nil {
			return err
		}
		sc.UnitTypes = append(sc.UnitTypes, t)
	case "cavalry-tactic":
		t := CavTactic{Name: f[0]}
		if len(f) > 1 {
			p, ok := strings.CutPrefix(f[1], "patrol ")
			if !ok {
				return errors.New("cavalry-tactic NAME | patrol N")
			}
			if t.Patrol, err = inches(p); err != nil {
				return err
			}
		}
		sc.CavTactics = append(sc.CavTactics, t)
	case "terrain-list":
		l := TerrainList{Name: f[0]}
		for _, e := range f[1:] {
			if k, ok := strings.CutPrefix(e, "no "); ok {
				l.No = append(l.No, k)
				continue
			}
			i := strings.LastIndex(e, " ")
			if i < 0 {
				return fmt.Errorf("%q is not KIND COUNT", e)
			}
			n, err := atoi(e[i+1:])
			if err != nil {
				return err
			}
			l.Pieces = append(l.Pieces, ListEntry{e[:i], n})
		}
		sc.Lists = append(sc.Lists, l)
	case "brigade-general":
		sc.BrigadeDeck = append(sc.BrigadeDeck, rest)
	case "army":
		sc.Armies = append(sc.Armies, Army{Side: rest})
		*army = &sc.Armies[len(sc.Armies)-1]
	default:
		return fmt.Errorf("unknown line %q", word)
	}
	return err
}

func (a *Army) line(word, rest string, f []string) error {
	atoi := func(s string) (int, error) {
		n, err := strconv.Atoi(s)
		if err != nil {
			return 0, fmt.Errorf("%q is not a number", s)
		}
		return n, nil
	}
	var err error
	switch word {
	case "value":
		a.Value, err = atoi(rest)
	case "year":
		a.Year, err = atoi(rest)
	case "morale":
		a.Morale = rest
	case "redraws":
		a.Redraws, err = atoi(rest)
	case "fortifications":
		a.Fortifications, err = atoi(rest)
	case "corps":
		if len(f) != 2 || f[1] != "infantry" && f[1] != "cavalry" {
			return errors.New("corps NAME | infantry or cavalry")
		}
		k := KindCorps
		if f[1] == "cavalry" {
			k = KindCavCorps
		}
		a.Formations = append(a.Formations, Formation{Name: f[0], Kind: k})
	case "division":
		if len(f) != 2 {
			return errors.New("division NAME | CORPS (or cavalry, for a cavalry division of no corps)")
		}
		d := Formation{Name: f[0], Kind: KindDivision}
		if f[1] == "cavalry" {
			d.Kind = KindCavDivision
		} else {
			c, ok := a.Formation(f[1])
			if !ok || (c.Kind != KindCorps && c.Kind != KindCavCorps) {
				return fmt.Errorf("no corps %q above division %s", f[1], f[0])
			}
			d.Parent = c.Name
			if c.Kind == KindCavCorps {
				d.Kind = KindCavDivision
			}
		}
		a.Formations = append(a.Formations, d)
	case "artillery":
		if len(f) != 2 {
			return errors.New("artillery NAME | army or CORPS")
		}
		d := Formation{Name: f[0], Kind: KindArmyArt}
		if f[1] != "army" {
			c, ok := a.Formation(f[1])
			if !ok || c.Parent != "" {
				return fmt.Errorf("no corps %q for artillery %s", f[1], f[0])
			}
			d.Kind, d.Parent = KindCorpsArt, c.Name
		}
		a.Formations = append(a.Formations, d)
	case "unit":
		if len(f) < 3 {
			return errors.New("unit NAME | TYPE | FORMATION [| from YEAR]")
		}
		u := UnitDef{Name: f[0], Type: f[1], Formation: f[2]}
		if len(f) > 3 {
			n, ok := keyInt(f[3], "from")
			if !ok {
				return errors.New("unit NAME | TYPE | FORMATION | from YEAR")
			}
			u.From = n
		}
		a.Units = append(a.Units, u)
	case "general":
		if len(f) < 2 {
			return errors.New("general NAME | LEVEL [| CHARACTER] | command N")
		}
		g := GeneralDef{Name: f[0], Level: f[1]}
		if !slices.Contains(levels, g.Level) {
			return fmt.Errorf("general %s: level %q is none of %s", g.Name, g.Level, strings.Join(levels, ", "))
		}
		for _, x := range f[2:] {
			if n, ok := keyInt(x, "command"); ok {
				g.Command = n
			} else if slices.Contains(characters, x) {
				g.Character = x
			} else {
				return fmt.Errorf("general %s: %q is neither a character nor command N", g.Name, x)
			}
		}
		a.Generals = append(a.Generals, g)
	case "card":
		a.Cards = append(a.Cards, rest)
	case "special":
		a.Special = append(a.Special, rest)
	default:
		return fmt.Errorf("unknown line %q", word)
	}
	return err
}

// check makes sure the scenario gives every table the rules need: a
// missing one is an error here, never a silent default.
func (sc *ScenarioDef) check() error {
	var errs []string
	need := func(ok bool, what string) {
		if !ok {
			errs = append(errs, what)
		}
	}
	need(sc.Name != "", "scenario NAME")
	need(sc.Die >= 2, "die N (R1)")
	need(sc.InitDice >= 1 && sc.InitSuccess >= 1 && sc.InitSuccess <= sc.Die, "initiative N | success M (R1)")
	need(sc.CommandSuccess >= 1 && sc.CommandSuccess <= sc.Die, "command-success N (R2)")
	need(sc.ZOC > 0, "zoc N (R5, G1)")
	need(sc.Support > 0, "support N (R7)")
	need(sc.Turns >= 1, "turns N (R24)")
	need(len(sc.Morale) >= 2, "morale-levels LEVEL | LEVEL ... (R20)")
	need(len(sc.Tables) > 0, "table WxH | zone D | points ... (R16)")
	need(len(sc.UnitTypes) > 0, "unit-type ... (R3, R23)")
	for _, k := range []string{Hill, Woods, Rough, BuiltUp, River, Stream, Road, Railway, Fence, Wall, Fortification} {
		_, ok := sc.Kind(k)
		need(ok, "terrain "+k+" | ... (R4)")
	}
	if sc.on("cavalry-tactics") {
		need(len(sc.CavTactics) > 0, "cavalry-tactic ... (R21), or option cavalry-tactics off")
	}
	need(sc.FortLength > 0, "fortification-length N (R17)")
	need(len(sc.Armies) == 2, "two armies")
	if len(sc.Layout) > 0 {
		need(sc.TableSize != "", "table-size for the terrain layout's pieces (13.10a)")
	}
	if sc.TableSize != "" {
		_, ok := sc.Geom(sc.TableSize)
		need(ok, "table-size names a table line")
	}
	for _, g := range sc.Tables {
		need(g.Zone > 0 && 2*g.Zone < g.Height && len(g.Points) > 0, "table "+g.Size+": a zone shallower than half the table and the strategic points")
		for _, p := range g.Points {
			need(p.X > 0 && p.X < g.Width && p.Y > 0 && p.Y < g.Height, "table "+g.Size+": strategic points on the table")
		}
	}
	if sc.Year > 0 {
		if why := sc.fieldable(sc.Year); why != "" {
			errs = append(errs, "a battle-year that fields both armies: "+why)
		}
	}
	for _, l := range sc.Lists {
		for _, e := range l.Pieces {
			k, ok := sc.Kind(e.Kind)
			need(ok && !k.Line, "terrain-list "+l.Name+": "+e.Kind+" is an area kind")
		}
	}
	for i := range sc.Armies {
		a := &sc.Armies[i]
		_, listed := sc.List(a.Side)
		need(listed, "terrain-list "+a.Side+" (13.10b)")
		need(a.Value > 0 && a.Year > 0, "army "+a.Side+": value and year")
		need(slices.Contains(sc.Morale, a.Morale), "army "+a.Side+": morale is a level of the morale line")
		need(len(a.Cards) >= 6, "army "+a.Side+": at least 6 battle cards (13.6a, 13.7f)")
		for _, u := range a.Units {
			f, ok := a.Formation(u.Formation)
			need(ok, "army "+a.Side+": unit "+u.Name+"'s formation "+u.Formation)
			need(sc.UnitType(u.Type).Move > 0, "army "+a.Side+": unit "+u.Name+"'s type "+u.Type)
			need(u.From <= a.Year, "army "+a.Side+": "+u.Name+" is fielded only from "+strconv.Itoa(u.From)+" (13.4b)")
			_ = f
		}
		for _, g := range a.Generals {
			if g.Level == LevelArmy || g.Level == LevelArmyCorps {
				need(g.Character != "", "army "+a.Side+": general "+g.Name+"'s character (13.8b)")
			}
			need(g.Command > 0, "army "+a.Side+": general "+g.Name+"'s command N (R2)")
		}
		if err := drawPlanCheck(sc, a); err != nil {
			errs = append(errs, err.Error())
		}
	}
	if len(sc.Armies) == 2 && sc.Armies[0].Side == sc.Armies[1].Side {
		errs = append(errs, "two armies of different sides")
	}
	if len(errs) > 0 {
		return fmt.Errorf("gmb scenario %q lacks: %s", sc.Name, strings.Join(errs, "; "))
	}
	return nil
}
