package gbacw

import (
	"embed"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pbem/engine"
	"pbem/engine/hex"
)

//go:embed scenarios/*.txt
var scenarioFiles embed.FS

// shipped are the built-in scenarios (the tables files aside).
var shipped = engine.Shipped{Files: scenarioFiles, Dir: "scenarios", Skip: func(n string, _ []byte) bool {
	return strings.HasSuffix(n, "-tables")
}}

// Scenarios lists the built-in scenarios, sorted.
func Scenarios() []string { return shipped.Names() }

// Scenario returns a built-in scenario file.
func Scenario(name string) ([]byte, error) {
	if strings.ContainsAny(name, "/\\.") {
		return nil, fmt.Errorf("gbacw: no scenario %q (known: %s)", name, strings.Join(Scenarios(), ", "))
	}
	b, err := shipped.Read(name)
	if err != nil {
		return nil, fmt.Errorf("gbacw: no scenario %q (known: %s)", name, strings.Join(Scenarios(), ", "))
	}
	return b, nil
}

// Sides of the game.
const (
	USA = "USA"
	CSA = "CSA"
)

// Sides in the order the game lists them.
var Sides = []string{USA, CSA}

func otherSide(s string) string {
	if s == USA {
		return CSA
	}
	return USA
}

// Unit types (R1, R19).
const (
	Infantry  = "inf"
	Cavalry   = "cav"
	Artillery = "art"
	HorseArt  = "hart" // horse artillery (GBACW 15.3)
)

// Orders (R8).
const (
	Attack  = "attack"
	Advance = "advance"
	March   = "march"
	Reserve = "reserve"
)

var orderNames = []string{Attack, Advance, March, Reserve}

// HexDef is what a scenario says of one hex: its terrain (a row of the
// terrain chart), its elevation level, and whether its rise is a gradual
// slope (GBACW 12.2).
type HexDef struct {
	Terrain string
	Level   int
	Gradual bool
}

// LeaderDef is a leader's counter (R1): both sides of it. Reverse is the
// side a replacement leader shows (GBACW 17.7).
type LeaderDef struct {
	Name, Code, Side string
	Hex              hex.Hex
	Stars, Range     int
	Aggressive       bool
	Initiative       int // an army commander's Initiative Rating (4.1b, R15)
	RevStars         int
	RevRange         int
}

// UnitDef is a combat unit's counter (R1): strength, cohesion and
// movement allowance on both sides (front; disordered), type, weapon.
type UnitDef struct {
	Name, Code, Brigade string
	Type                string
	SP, StartSP         int // printed strength; strength at the start
	Cohesion, DCohesion int
	MA, DMA             int
	Weapon              string
	Green, Mounted      bool
	Split               string // the regiment a split unit belongs to (8.32, R16)
	Hex                 hex.Hex
	Facing              int
}

// CorpsDef, DivisionDef and BrigadeDef are the chain of command (5).
type CorpsDef struct {
	Name, Side, Leader string
	Rating             string // efficiency rating: a row of the EM chart (R5)
}

// DivisionDef is a division of a corps.
type DivisionDef struct{ Name, Corps, Leader string }

// BrigadeDef is a brigade of a division, its first order, and when and
// where it arrives if it is a reinforcement (3.2.4).
type BrigadeDef struct {
	Name, Division, Leader string
	Order                  string
	Arrives                int
}

// Objective is a hex worth victory points to the side holding it at the
// end (R18).
type Objective struct {
	Hex  hex.Hex
	VP   int
	Held string
}

// Route is a road, pike or trail through a list of hexes.
type Route struct {
	Kind, Name string
	Hexes      []hex.Hex
}

// ScenarioDef is a parsed scenario with its tables.
type ScenarioDef struct {
	Name    string
	Turns   int
	Notes   []string
	Options Options
	// TablesFile is the built-in tables file the scenario loads ("" none).
	TablesFile string

	// unitIndex finds a unit's counter by its name; a state's Units are
	// in the same order (newState), so it finds a unit in a state too.
	unitIndex map[string]int

	Grid    hex.Grid
	Default HexDef
	Hexes   map[hex.Hex]HexDef       // looked up by key only
	Sides   map[hex.Hexside][]string // hexside features
	Routes  []Route
	route   map[hex.Hexside]string // the best route across a hexside
	Places  []Place

	Armies    map[string]string // side → army commander (OC)
	Corps     []CorpsDef
	Divisions []DivisionDef
	Brigades  []BrigadeDef
	Leaders   []LeaderDef
	Units     []UnitDef

	// Muster tells the players the forces a campaign set this battle up
	// with (applyMuster); none for a scenario as written.
	Muster []string

	Objectives []Objective
	LossVP     int
	Victory    bool // the scenario says how the game is won

	Tables Tables
}

// Place is a named hex.
type Place struct {
	Hex  hex.Hex
	Name string
}

// Hex returns the definition of h (the default for a hex not listed) and
// whether h is on the map.
func (sc *ScenarioDef) Hex(h hex.Hex) (HexDef, bool) {
	if !sc.Grid.InBounds(h) {
		return HexDef{}, false
	}
	if d, ok := sc.Hexes[h]; ok {
		return d, true
	}
	return sc.Default, true
}

// SideFeatures are the features of a hexside.
func (sc *ScenarioDef) SideFeatures(s hex.Hexside) []string { return sc.Sides[s] }

// RouteAcross is the best route (pike, road, trail) crossing the hexside
// between a and b, or "".
func (sc *ScenarioDef) RouteAcross(a, b hex.Hex) string {
	s, err := hex.Between(a, b)
	if err != nil {
		return ""
	}
	return sc.route[s]
}

// RoutesIn are the kinds of route through h, best first.
func (sc *ScenarioDef) RoutesIn(h hex.Hex) []string {
	var out []string
	for _, k := range routeKinds {
		for _, r := range sc.Routes {
			if r.Kind == k && slices.Contains(r.Hexes, h) && !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out
}

var routeKinds = []string{"pike", "road", "trail"}

func (sc *ScenarioDef) leaderDef(name string) *LeaderDef {
	for i := range sc.Leaders {
		if sc.Leaders[i].Name == name {
			return &sc.Leaders[i]
		}
	}
	return nil
}

func (sc *ScenarioDef) unitDef(name string) *UnitDef {
	if i, ok := sc.unitIndex[name]; ok {
		return &sc.Units[i]
	}
	for i := range sc.Units {
		if sc.Units[i].Name == name {
			return &sc.Units[i]
		}
	}
	return nil
}

func (sc *ScenarioDef) brigadeDef(name string) *BrigadeDef {
	for i := range sc.Brigades {
		if sc.Brigades[i].Name == name {
			return &sc.Brigades[i]
		}
	}
	return nil
}

func (sc *ScenarioDef) divisionDef(name string) *DivisionDef {
	for i := range sc.Divisions {
		if sc.Divisions[i].Name == name {
			return &sc.Divisions[i]
		}
	}
	return nil
}

func (sc *ScenarioDef) corpsDef(name string) *CorpsDef {
	for i := range sc.Corps {
		if sc.Corps[i].Name == name {
			return &sc.Corps[i]
		}
	}
	return nil
}

// sideOfDivision is the side a division fights for.
func (sc *ScenarioDef) sideOfDivision(div string) string {
	if d := sc.divisionDef(div); d != nil {
		if c := sc.corpsDef(d.Corps); c != nil {
			return c.Side
		}
	}
	return ""
}

// sideOfBrigade is the side a brigade fights for.
func (sc *ScenarioDef) sideOfBrigade(b string) string {
	if d := sc.brigadeDef(b); d != nil {
		return sc.sideOfDivision(d.Division)
	}
	return ""
}

// ParseScenario reads a scenario file; a "tables NAME" line loads a
// built-in tables file first, and the scenario's own table sections
// replace its sections.
func ParseScenario(b []byte) (*ScenarioDef, error) {
	sc := &ScenarioDef{Hexes: map[hex.Hex]HexDef{}, Sides: map[hex.Hexside][]string{}, route: map[hex.Hexside]string{},
		Armies: map[string]string{}, Default: HexDef{Terrain: "clear"}}
	b, muster, err := engine.SplitMuster(b)
	if err != nil {
		return nil, fmt.Errorf("gbacw: scenario %w", err)
	}
	p := &scnParser{sc: sc}
	if err := p.parse(string(b), false); err != nil {
		return nil, err
	}
	if err := sc.check(); err != nil {
		return nil, err
	}
	if sc.Muster, err = sc.applyMuster(muster); err != nil {
		return nil, err
	}
	sc.unitIndex = make(map[string]int, len(sc.Units))
	for i, u := range sc.Units {
		sc.unitIndex[u.Name] = i
	}
	return sc, nil
}

type scnParser struct {
	sc      *ScenarioDef
	section string
	line    int
	file    string
	tables  tableParser
}

func (p *scnParser) errf(format string, a ...any) error {
	where := "scenario"
	if p.file != "" {
		where = p.file
	}
	return fmt.Errorf("gbacw: %s line %d: %s", where, p.line, fmt.Sprintf(format, a...))
}

// scnLexer reads a scenario line as every rule system's scenario reader
// does (engine.Lexer): words separated by blanks, a "quoted string" one
// word.
var scnLexer = engine.Lexer{}

// fields splits a line into words, keeping "quoted strings" whole.
func fields(s string) ([]string, error) {
	f, err := scnLexer.Words(s)
	if err != nil {
		return nil, fmt.Errorf("unclosed quote in %q", s)
	}
	return f, nil
}

// stripComment removes a # comment (outside quotes).
func stripComment(s string) string {
	in := false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			in = !in
		case '#':
			if !in {
				return s[:i]
			}
		}
	}
	return s
}

func (p *scnParser) parse(text string, tablesOnly bool) error {
	for i, raw := range strings.Split(text, "\n") {
		p.line = i + 1
		line := strings.TrimSpace(stripComment(raw))
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			p.section = strings.ToLower(strings.TrimSpace(line[1 : len(line)-1]))
			if isTableSection(p.section) {
				p.tables.begin(&p.sc.Tables, p.section)
			} else if tablesOnly {
				return p.errf("a tables file holds only table sections, not [%s]", p.section)
			}
			continue
		}
		f, err := fields(line)
		if err != nil {
			return p.errf("%v", err)
		}
		if isTableSection(p.section) {
			if err := p.tables.row(f); err != nil {
				return p.errf("[%s]: %v", p.section, err)
			}
			continue
		}
		if err := p.scenarioLine(f, raw); err != nil {
			return err
		}
	}
	return nil
}

func (p *scnParser) scenarioLine(f []string, raw string) error {
	sc := p.sc
	switch p.section {
	case "":
		return p.header(f)
	case "notes":
		sc.Notes = append(sc.Notes, strings.TrimSpace(raw))
	case "map":
		return p.mapLine(f)
	case "hexsides":
		return p.sideLine(f)
	case "routes":
		return p.routeLine(f)
	case "places":
		if len(f) != 2 {
			return p.errf("a place is: <hex> \"<name>\"")
		}
		h, err := hex.Parse(f[0])
		if err != nil {
			return p.errf("%v", err)
		}
		sc.Places = append(sc.Places, Place{Hex: h, Name: f[1]})
	case "forces":
		return p.forceLine(f)
	case "victory":
		return p.victoryLine(f)
	default:
		return p.errf("unknown section [%s]", p.section)
	}
	return nil
}

func (p *scnParser) header(f []string) error {
	sc := p.sc
	switch f[0] {
	case "scenario":
		sc.Name = strings.Join(f[1:], " ")
	case "turns":
		n, err := strconv.Atoi(at(f, 1))
		if err != nil || n < 1 {
			return p.errf("turns wants a number of turns")
		}
		sc.Turns = n
	case "tables":
		if len(f) != 2 {
			return p.errf("tables names a built-in tables file: tables sample-tables")
		}
		b, err := scenarioFiles.ReadFile("scenarios/" + f[1] + ".txt")
		if err != nil || !strings.HasSuffix(f[1], "-tables") {
			return p.errf("no built-in tables file %q", f[1])
		}
		sub := &scnParser{sc: sc, file: f[1]}
		if err := sub.parse(string(b), true); err != nil {
			return err
		}
		sc.TablesFile = f[1]
	case "option":
		for _, o := range f[1:] {
			if err := sc.Options.set(o); err != nil {
				return p.errf("%v", err)
			}
		}
	default:
		return p.errf("unknown setting %q (scenario, turns, tables, option)", f[0])
	}
	return nil
}

func at(f []string, i int) string {
	if i < len(f) {
		return f[i]
	}
	return ""
}

func (p *scnParser) mapLine(f []string) error {
	sc := p.sc
	switch f[0] {
	case "hexes":
		if len(f) != 3 {
			return p.errf("hexes <first> <last>")
		}
		a, err1 := hex.Parse(f[1])
		b, err2 := hex.Parse(f[2])
		if err1 != nil || err2 != nil {
			return p.errf("hexes <first> <last>: %v %v", err1, err2)
		}
		g, err := hex.NewGrid(a, b)
		if err != nil {
			return p.errf("%v", err)
		}
		sc.Grid = g
		return nil
	case "default":
		d, err := p.hexDef(f[1:])
		if err != nil {
			return err
		}
		sc.Default = d
		return nil
	}
	h, err := hex.Parse(f[0])
	if err != nil {
		return p.errf("a map line is <hex> <terrain> [<level>] [gradual]: %v", err)
	}
	d, err := p.hexDef(f[1:])
	if err != nil {
		return err
	}
	sc.Hexes[h] = d
	return nil
}

func (p *scnParser) hexDef(f []string) (HexDef, error) {
	if len(f) == 0 {
		return HexDef{}, p.errf("a hex needs its terrain")
	}
	d := HexDef{Terrain: f[0]}
	for _, w := range f[1:] {
		if w == "gradual" {
			d.Gradual = true
			continue
		}
		n, err := strconv.Atoi(w)
		if err != nil || n < 0 || n > 9 {
			return HexDef{}, p.errf("level %q: want 0 to 9", w)
		}
		d.Level = n
	}
	return d, nil
}

func (p *scnParser) sideLine(f []string) error {
	if len(f) < 2 {
		return p.errf("a hexside line is <hex>/<hex> <feature>...")
	}
	s, err := hex.ParseHexside(f[0])
	if err != nil {
		return p.errf("%v", err)
	}
	p.sc.Sides[s] = append(p.sc.Sides[s], f[1:]...)
	return nil
}

func (p *scnParser) routeLine(f []string) error {
	if len(f) < 3 || !slices.Contains(routeKinds, f[0]) {
		return p.errf("a route line is pike|road|trail \"<name>\" <hex> <hex>...")
	}
	r := Route{Kind: f[0], Name: f[1]}
	for _, w := range f[2:] {
		h, err := hex.Parse(w)
		if err != nil {
			return p.errf("%v", err)
		}
		if n := len(r.Hexes); n > 0 && !hex.Adjacent(r.Hexes[n-1], h) {
			return p.errf("route %s: %s does not touch %s", r.Name, r.Hexes[n-1], h)
		}
		r.Hexes = append(r.Hexes, h)
	}
	p.sc.Routes = append(p.sc.Routes, r)
	for i := 1; i < len(r.Hexes); i++ {
		s, _ := hex.Between(r.Hexes[i-1], r.Hexes[i])
		old := p.sc.route[s]
		if old == "" || slices.Index(routeKinds, r.Kind) < slices.Index(routeKinds, old) {
			p.sc.route[s] = r.Kind
		}
	}
	return nil
}

// kv reads "word value" pairs after a name: flags (a key with no value)
// are listed in flags.
func kv(f []string, flags ...string) (map[string]string, error) {
	m := map[string]string{}
	for i := 0; i < len(f); i++ {
		k := f[i]
		if slices.Contains(flags, k) {
			m[k] = "yes"
			continue
		}
		if i+1 >= len(f) {
			return nil, fmt.Errorf("%s wants a value", k)
		}
		m[k] = f[i+1]
		i++
	}
	return m, nil
}

func atoi(m map[string]string, k string, def int) (int, error) {
	v, ok := m[k]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimPrefix(v, "+"))
	if err != nil {
		return 0, fmt.Errorf("%s %q is not a number", k, v)
	}
	return n, nil
}

// pair reads "a/b" (front side / reverse side).
func pair(m map[string]string, k string) (int, int, error) {
	v, ok := m[k]
	if !ok {
		return 0, 0, fmt.Errorf("%s is missing (front/disordered, e.g. 6/4)", k)
	}
	a, b, ok := strings.Cut(v, "/")
	x, err1 := strconv.Atoi(a)
	y, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("%s %q: want front/disordered, e.g. 6/4", k, v)
	}
	return x, y, nil
}

func (p *scnParser) forceLine(f []string) error {
	sc := p.sc
	if len(f) < 2 {
		return p.errf("a forces line is army|corps|division|brigade|leader|unit \"<name>\" <key> <value>...")
	}
	name := f[1]
	m, err := kv(f[2:], "aggressive", "green", "mounted", "gradual")
	if err != nil {
		return p.errf("%s %s: %v", f[0], name, err)
	}
	need := func(keys ...string) error {
		for _, k := range keys {
			if m[k] == "" {
				return p.errf("%s %s: %s is missing", f[0], name, k)
			}
		}
		return nil
	}
	switch f[0] {
	case "army":
		if name != USA && name != CSA {
			return p.errf("army %s: the armies are USA and CSA", name)
		}
		if err := need("leader"); err != nil {
			return err
		}
		sc.Armies[name] = m["leader"]
	case "corps":
		if err := need("side", "leader", "efficiency"); err != nil {
			return err
		}
		sc.Corps = append(sc.Corps, CorpsDef{Name: name, Side: m["side"], Leader: m["leader"], Rating: m["efficiency"]})
	case "division":
		if err := need("corps", "leader"); err != nil {
			return err
		}
		sc.Divisions = append(sc.Divisions, DivisionDef{Name: name, Corps: m["corps"], Leader: m["leader"]})
	case "brigade":
		if err := need("division", "leader", "order"); err != nil {
			return err
		}
		arr, err := atoi(m, "arrives", 0)
		if err != nil {
			return p.errf("brigade %s: %v", name, err)
		}
		if !slices.Contains(orderNames, m["order"]) {
			return p.errf("brigade %s: order %q is none of %s", name, m["order"], strings.Join(orderNames, ", "))
		}
		sc.Brigades = append(sc.Brigades, BrigadeDef{Name: name, Division: m["division"], Leader: m["leader"], Order: m["order"], Arrives: arr})
	case "leader":
		if err := need("side", "code", "hex", "range"); err != nil {
			return err
		}
		l := LeaderDef{Name: name, Code: m["code"], Side: m["side"], Aggressive: m["aggressive"] != ""}
		if l.Hex, err = hex.Parse(m["hex"]); err != nil {
			return p.errf("leader %s: %v", name, err)
		}
		for _, x := range []struct {
			k   string
			v   *int
			def int
		}{{"stars", &l.Stars, 0}, {"range", &l.Range, 0}, {"initiative", &l.Initiative, 0}} {
			if *x.v, err = atoi(m, x.k, x.def); err != nil {
				return p.errf("leader %s: %v", name, err)
			}
		}
		l.RevStars, l.RevRange = 0, l.Range
		if _, ok := m["reverse"]; ok {
			if l.RevStars, l.RevRange, err = pair(m, "reverse"); err != nil {
				return p.errf("leader %s: reverse (stars/range of the replacement): %v", name, err)
			}
		}
		sc.Leaders = append(sc.Leaders, l)
	case "unit":
		return p.unitLine(name, m)
	default:
		return p.errf("unknown force %q (army, corps, division, brigade, leader, unit)", f[0])
	}
	return nil
}

func (p *scnParser) unitLine(name string, m map[string]string) error {
	for _, k := range []string{"code", "brigade", "type", "sp", "cohesion", "ma", "weapon", "hex", "facing"} {
		if m[k] == "" {
			return p.errf("unit %s: %s is missing", name, k)
		}
	}
	u := UnitDef{Name: name, Code: m["code"], Brigade: m["brigade"], Type: m["type"], Weapon: m["weapon"],
		Green: m["green"] != "", Mounted: m["mounted"] != "", Split: m["split"]}
	if !slices.Contains([]string{Infantry, Cavalry, Artillery, HorseArt}, u.Type) {
		return p.errf("unit %s: type %q is none of inf, cav, art, hart", name, u.Type)
	}
	if len(u.Code) > 3 {
		return p.errf("unit %s: code %q is longer than 3 characters (the board shows it)", name, u.Code)
	}
	var err error
	if u.SP, err = atoi(m, "sp", 0); err != nil || u.SP < 1 {
		return p.errf("unit %s: sp wants a strength of 1 or more", name)
	}
	if u.StartSP, err = atoi(m, "start", u.SP); err != nil || u.StartSP < 1 || u.StartSP > u.SP {
		return p.errf("unit %s: start wants a strength from 1 to its sp", name)
	}
	if u.Cohesion, u.DCohesion, err = pair(m, "cohesion"); err != nil {
		return p.errf("unit %s: %v", name, err)
	}
	if u.MA, u.DMA, err = pair(m, "ma"); err != nil {
		return p.errf("unit %s: %v", name, err)
	}
	if u.Hex, err = hex.Parse(m["hex"]); err != nil {
		return p.errf("unit %s: %v", name, err)
	}
	if v, err := hex.ParseVertex(m["facing"]); err == nil {
		u.Facing = int(v)
	} else if d, err := hex.ParseDirection(m["facing"]); err == nil {
		u.Facing = int(d)
	} else {
		return p.errf("unit %s: facing %q is no vertex (NNE, E, SSE, SSW, W, NNW) nor side (N, NE, SE, S, SW, NW)", name, m["facing"])
	}
	p.sc.Units = append(p.sc.Units, u)
	return nil
}

func (p *scnParser) victoryLine(f []string) error {
	sc := p.sc
	sc.Victory = true
	switch f[0] {
	case "objective":
		if len(f) < 2 {
			return p.errf("objective <hex> vp <n> held <side>")
		}
		h, err := hex.Parse(f[1])
		if err != nil {
			return p.errf("%v", err)
		}
		m, err := kv(f[2:])
		if err != nil {
			return p.errf("%v", err)
		}
		vp, err := atoi(m, "vp", 0)
		if err != nil || vp < 1 || (m["held"] != USA && m["held"] != CSA) {
			return p.errf("objective <hex> vp <n> held USA|CSA")
		}
		sc.Objectives = append(sc.Objectives, Objective{Hex: h, VP: vp, Held: m["held"]})
	case "loss-vp":
		n, err := strconv.Atoi(at(f, 1))
		if err != nil || n < 0 {
			return p.errf("loss-vp <victory points per strength point the enemy lost>")
		}
		sc.LossVP = n
	default:
		return p.errf("a victory line is objective or loss-vp")
	}
	return nil
}

// check verifies what the sections say of each other.
func (sc *ScenarioDef) check() error {
	if sc.Name == "" || sc.Turns == 0 {
		return fmt.Errorf("gbacw: a scenario needs 'scenario <name>' and 'turns <n>'")
	}
	if sc.Grid.Cols == 0 {
		return fmt.Errorf("gbacw: the scenario's [map] needs 'hexes <first> <last>'")
	}
	if err := sc.Tables.check(); err != nil {
		return fmt.Errorf("gbacw: %w", err)
	}
	known := func(h hex.Hex, what string) error {
		d, ok := sc.Hex(h)
		if !ok {
			return fmt.Errorf("gbacw: %s: hex %s is off the map (%s to %s)", what, h, sc.Grid.First(), sc.Grid.Last())
		}
		if _, ok := sc.Tables.Terrain[d.Terrain]; !ok {
			return fmt.Errorf("gbacw: %s: hex %s: terrain %q is not in the terrain chart", what, h, d.Terrain)
		}
		return nil
	}
	for h := range sc.Grid.All() {
		if err := known(h, "map"); err != nil {
			return err
		}
	}
	for s, fs := range sc.Sides {
		for _, f := range fs {
			if _, ok := sc.Tables.SideFeat[f]; !ok {
				return fmt.Errorf("gbacw: hexside %s: feature %q is not in the [hexside-features] chart", s, f)
			}
		}
	}
	for _, side := range Sides {
		l := sc.leaderDef(sc.Armies[side])
		if l == nil || l.Side != side {
			return fmt.Errorf("gbacw: army %s needs a commander (army %s leader \"<name>\", a leader of that side)", side, side)
		}
	}
	for _, c := range sc.Corps {
		if l := sc.leaderDef(c.Leader); l == nil || l.Side != c.Side {
			return fmt.Errorf("gbacw: corps %s: leader %q is not a leader of %s", c.Name, c.Leader, c.Side)
		}
		if sc.Tables.Efficiency != nil {
			if _, ok := sc.Tables.Efficiency[c.Rating]; !ok {
				return fmt.Errorf("gbacw: corps %s: efficiency %q is not a row of the [efficiency] chart", c.Name, c.Rating)
			}
		}
	}
	for _, d := range sc.Divisions {
		c := sc.corpsDef(d.Corps)
		if c == nil {
			return fmt.Errorf("gbacw: division %s: no corps %q", d.Name, d.Corps)
		}
		if l := sc.leaderDef(d.Leader); l == nil || l.Side != c.Side {
			return fmt.Errorf("gbacw: division %s: leader %q is not a leader of %s", d.Name, d.Leader, c.Side)
		}
	}
	for _, b := range sc.Brigades {
		if sc.divisionDef(b.Division) == nil {
			return fmt.Errorf("gbacw: brigade %s: no division %q", b.Name, b.Division)
		}
		if l := sc.leaderDef(b.Leader); l == nil || l.Side != sc.sideOfBrigade(b.Name) {
			return fmt.Errorf("gbacw: brigade %s: leader %q is not a leader of its side", b.Name, b.Leader)
		}
	}
	seen := map[string]bool{}
	for _, u := range sc.Units {
		if seen[u.Name] || seen[u.Code] {
			return fmt.Errorf("gbacw: unit %s: its name or code %q is used twice", u.Name, u.Code)
		}
		seen[u.Name], seen[u.Code] = true, true
		if sc.brigadeDef(u.Brigade) == nil {
			return fmt.Errorf("gbacw: unit %s: no brigade %q", u.Name, u.Brigade)
		}
		if err := known(u.Hex, "unit "+u.Name); err != nil {
			return err
		}
		if _, ok := sc.Tables.Weapons[u.Weapon]; !ok {
			return fmt.Errorf("gbacw: unit %s: weapon %q is not in the [weapons] chart", u.Name, u.Weapon)
		}
	}
	for _, l := range sc.Leaders {
		if seen[l.Name] || seen[l.Code] {
			return fmt.Errorf("gbacw: leader %s: its name or code %q is used twice", l.Name, l.Code)
		}
		seen[l.Name], seen[l.Code] = true, true
		if l.Side != USA && l.Side != CSA {
			return fmt.Errorf("gbacw: leader %s: side %q", l.Name, l.Side)
		}
		if err := known(l.Hex, "leader "+l.Name); err != nil {
			return err
		}
	}
	for _, o := range sc.Objectives {
		if err := known(o.Hex, "objective"); err != nil {
			return err
		}
	}
	return nil
}
