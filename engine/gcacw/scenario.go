package gcacw

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"pbem/engine"
	"pbem/engine/hex"
)

// The two sides (GCACW 2a).
const (
	USA = "USA"
	CSA = "CSA"
)

// Sides are the two sides, Union first.
var Sides = []string{USA, CSA}

func opponent(side string) string {
	if side == USA {
		return CSA
	}
	return USA
}

// ScenarioDef is a scenario file after parsing: everything Setup needs. It is
// never changed after Setup.
type ScenarioDef struct {
	Name    string   `json:"name"`
	Game    string   `json:"game"`
	Turns   int      `json:"turns"`
	Year    int      `json:"year,omitempty"`
	Options []string `json:"options,omitempty"` // sorted
	// Readings are the ambiguities the scenario reads otherwise than by
	// default (readings.go), in the order written.
	Readings []ChosenReading `json:"readings,omitempty"`
	Notes    []string        `json:"notes,omitempty"`
	Map      Map             `json:"map"`
	Tables   Tables          `json:"tables"`
	// Battles are the assaults fought out as tactical battles (battles.go).
	Battles []Battle `json:"battles,omitempty"`
	Units   []Unit   `json:"-"` // initial counters, moved into the State
	Leaders []Leader `json:"-"`
}

// Scenario options (gcacw.md; each names the rule it switches).
const (
	// OptFatigue4 is the optional rule 5.1-OPT / 5.2.2-OPT.
	OptFatigue4 = "fatigue4-march"
	// OptActivationMarch reads the missing 5.2 step 4 (R16) as: the named
	// units march one after another by 5.1 steps 2 to 5, each using the
	// leader's MA in place of the step 1 roll (Ambiguity A14). Without it,
	// step 4 goes to the referee.
	OptActivationMarch = "activation-march"
	// OptProvisionalSwampZOC makes provisional swamp block ZOC like swamp
	// (Ambiguity A20).
	OptProvisionalSwampZOC = "provisional-swamp-blocks-zoc"
	// OptRandomEvents plays the Random Events Phase (GCACW 3, phase 1).
	OptRandomEvents = "random-events"
	// OptTieSpecial marks a scenario where a tied initiative roll may end
	// the turn or cause insubordination (GCACW 4.2e, R6): both sides always
	// roll and the referee rules every tie.
	OptTieSpecial = "tie-special"
	// OptRecordDie records the initiative winner's die (GCACW 4.2c); OTR
	// records it always.
	OptRecordDie = "record-initiative-die"
	// OptAdvanced marks an advanced scenario (no Random Events Phase).
	OptAdvanced = "advanced"
	// OptMarchAttacks lets a march end by entering an enemy-held hex, the
	// attack that GCACW 5.1.5 implies (Ambiguity A25); the attack itself
	// is not in the rules (R10), so the referee resolves it, and the
	// action stays open until it is resolved. A referee may also allow
	// march attacks during a game (RULE ATTACKS ALLOWED).
	OptMarchAttacks = "march-attacks"
)

var knownOptions = []string{OptFatigue4, OptActivationMarch, OptProvisionalSwampZOC, OptRandomEvents, OptTieSpecial, OptRecordDie, OptAdvanced, OptMarchAttacks}

// Option reports whether the scenario turns option o on.
func (s *ScenarioDef) Option(o string) bool { return slices.Contains(s.Options, o) }

// Games are the game identifiers of GCACW 1a/1b, and SSR for a scenario
// that uses the Standard Series Rules with no game-specific exception.
var Games = []string{"AGA", "AIO", "BAC", "BTC", "GTC", "HCR", "HSN", "OTR", "RTG", "RWH", "SIV", "SJW", "SLB", "SSR"}

// GCACW 2.2o: the maximum unit strength each game allows.
func maxStrength(game string) int {
	switch game {
	case "RTG":
		return 17
	case "SIV":
		return 8
	case "OTR":
		return 21
	case "BAC":
		return 14
	case "AGA":
		return 7
	case "AIO":
		return 16
	case "HSN":
		return 11
	}
	return 8 // "all other games", SSR included
}

// GCACW 2.2k: every game has Army Leaders except SIV and AGA.
func hasArmyLeaders(game string) bool { return game != "SIV" && game != "AGA" }

// GCACW 5.2.2a: Union cavalry belongs to no command structure in these
// games (they have no Union cavalry leaders).
func unionCavalryUncommanded(game string) bool {
	switch game {
	case "SIV", "OTR", "SJW", "HCR", "SLB", "AGA":
		return true
	}
	return false
}

//go:embed scenarios/*.txt
var files embed.FS

// Scenarios lists the scenarios shipped with the package, by name (the
// file name without ".txt"), sorted. Table files are not scenarios.
//
// A shipped scenario with house rules is listed a second time as
// NAME-refereed: the same scenario for a game with a referee, who rules
// every step the seed leaves out instead of the house rules (Refereed).
func Scenarios() []string {
	var out []string
	for _, n := range shipped.Names() {
		out = append(out, n)
		if full, err := Scenario(n); err == nil && !bytes.Equal(Refereed(full), full) {
			out = append(out, n+RefereedSuffix)
		}
	}
	sort.Strings(out)
	return out
}

// shipped are the scenario files shipped (a table file is not one).
var shipped = engine.Shipped{Files: files, Dir: "scenarios", Skip: func(_ string, b []byte) bool { return !isScenario(b) }}

// RefereedSuffix names a shipped scenario played with a referee: its
// house rules left out (Refereed).
const RefereedSuffix = "-refereed"

func isScenario(b []byte) bool {
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) > 0 && strings.EqualFold(f[0], "scenario") {
			return true
		}
	}
	return false
}

// Scenario returns a shipped scenario by name, with the table files it
// names copied in, so the bytes a game is created with hold everything
// it needs and a later change to a shipped table cannot change it.
func Scenario(name string) ([]byte, error) {
	if base, ok := strings.CutSuffix(name, RefereedSuffix); ok && !strings.HasSuffix(base, RefereedSuffix) {
		if b, err := Scenario(base); err == nil {
			if r := Refereed(b); !bytes.Equal(r, b) {
				note := fmt.Sprintf("# %s as a game with a referee plays it: its house rules are left out,\n# and the referee rules every step the rules leave out, deciding the result\n# by the victory conditions below.\n", base)
				return append([]byte(note), r...), nil
			}
		}
	}
	b, err := files.ReadFile("scenarios/" + name + ".txt")
	if err != nil || !isScenario(b) {
		return nil, fmt.Errorf("gcacw: no scenario %q (shipped: %s)", name, strings.Join(Scenarios(), ", "))
	}
	var out strings.Builder
	for _, line := range strings.SplitAfter(string(b), "\n") {
		toks, _ := lineLexer.Line(line)
		if len(toks) == 2 && strings.EqualFold(toks[0].Text, "tables") {
			tb, err := tableFile(toks[1].Text)
			if err != nil {
				return nil, err
			}
			fmt.Fprintf(&out, "# tables %s, copied in from the file shipped with pbem:\n", toks[1].Text)
			out.WriteString("[tables " + toks[1].Text + "]\n")
			out.Write(tb)
			if !strings.HasSuffix(string(tb), "\n") {
				out.WriteString("\n")
			}
			out.WriteString("[end]\n")
			continue
		}
		out.WriteString(line)
	}
	return []byte(out.String()), nil
}

// Refereed returns scenario bytes without their house-rule tables
// ([house-rules], [reorganization], [combat]): the scenario as a game
// with a referee may play it, every step the seed leaves out handed to
// the referee rather than to sample house rules. The [victory] section
// stays, with "decide referee": the conditions are what the referee
// weighs when deciding the result at the end (R24).
func Refereed(scenario []byte) []byte {
	var out []string
	skip := false
	for _, l := range strings.Split(string(scenario), "\n") {
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") {
			switch strings.ToLower(strings.TrimSpace(t[1 : len(t)-1])) {
			case secHouse, secReorg, secCombat:
				skip = true
				continue
			case secVictory:
				// The conditions stay, as what the referee weighs: the
				// referee decides the result at the end (R24).
				skip = false
				out = append(out, l, "decide     referee   # the referee decides the result after the last turn, weighing these conditions")
				continue
			default:
				skip = false
			}
		}
		if !skip {
			out = append(out, l)
		}
	}
	return []byte(strings.Join(out, "\n"))
}

// TableFile returns a table file shipped with the package by name.
func tableFile(name string) ([]byte, error) {
	b, err := files.ReadFile("scenarios/" + name + ".txt")
	if err != nil || isScenario(b) {
		return nil, fmt.Errorf("no table file %q is shipped with pbem", name)
	}
	return b, nil
}

// ParseScenario reads a scenario file. Every error names its line.
//
// The format is plain text, one item a line; '#' starts a comment, and
// "double quotes" hold names with spaces. Settings come first:
//
//	scenario  Harrow Creek, June 1863 (sample)
//	game      SSR            # AGA AIO BAC BTC GTC HCR HSN OTR RTG RWH SIV SJW SLB, or SSR
//	turns     3
//	year      1863
//	option    activation-march fatigue4-march
//	tables    sample-tables  # a table file shipped with pbem (or inline table sections)
//
// Then sections. [map] gives the printed extent, a default terrain, one
// line per other hex (terrain, in-hex features, "partial" for a partial
// hex at the edge, a "name"), hexside lines (one or more hexsides, then
// their features), and routes (every hex a pike, road, trail or railroad
// runs through, in order):
//
//	[map]
//	hexes     0101 2016
//	default   clear
//	1007      city rr-station "Ashford"
//	0216      partial
//	1003/1104 river-minor ford "Carver's Ford"
//	1513/1514 river-major ferry
//	pike      0108 0208 0308 "Ashford Pike"
//
// [units] and [leaders] are the order of battle; in= lists the
// formations a unit belongs to (army/corps/division, any codes), and a
// leader commands= one of them and stands with= a unit of it. Union
// infantry may give div=, the numeric division designation printed on its
// counter; it is for information only (GCACW 2.2d):
//
//	[units]
//	USA  ORNE  "Orne"  inf XX  str=7 tac=3 art=2  at=1408  in=AC/I/I-1
//	USA  PASK  "Pask"  inf XX  str=6 tac=2 art=1  at=1508  in=AC/I/I-2  fatigue=1 exhausted
//	[leaders]
//	USA  HALE  "Hale"   army      cmd=4        commands=AC   with=ORNE
//	USA  KELL  "Kellogg" division cmd=2 tac=3  commands=CC-1 with=VANE cavalry
//
// Table sections ([terrain-effects], [extended-march], [strength],
// [initiative-ties], [random-events]) may stand in the scenario itself or
// in a table file; see scenarios/sample-tables.txt for their form. A
// "[tables NAME]" … "[end]" block holds a table file copied in (Scenario
// writes one for each "tables" line).
func ParseScenario(b []byte) (*ScenarioDef, error) {
	p := &scnParser{s: &ScenarioDef{}, file: "scenario"}
	p.parse(string(b))
	if len(p.errs) > 0 {
		return nil, errors.Join(p.errs...)
	}
	return p.s, nil
}

type scnParser struct {
	s    *ScenarioDef
	file string
	errs []error
}

func (p *scnParser) errf(l srcLine, format string, a ...any) {
	p.errs = append(p.errs, l.errf(format, a...))
}

// splitSections splits text into (section, lines); lines before any
// section header belong to section "".
func splitSections(file, text string, errs *[]error) (order []string, secs map[string][]srcLine, secLine map[string]int, tableBlocks []tableBlock) {
	secs = map[string][]srcLine{}
	secLine = map[string]int{}
	cur := ""
	var block *tableBlock
	for i, raw := range strings.Split(text, "\n") {
		raw = strings.TrimRight(raw, "\r")
		no := i + 1
		trim := strings.TrimSpace(raw)
		if block != nil {
			if strings.EqualFold(trim, "[end]") {
				tableBlocks = append(tableBlocks, *block)
				block = nil
				continue
			}
			block.lines = append(block.lines, raw)
			continue
		}
		if strings.HasPrefix(trim, "[") && strings.HasSuffix(trim, "]") {
			name := strings.ToLower(strings.TrimSpace(trim[1 : len(trim)-1]))
			if rest, ok := strings.CutPrefix(name, "tables "); ok {
				block = &tableBlock{name: strings.TrimSpace(rest), line: no}
				continue
			}
			if _, dup := secLine[name]; dup {
				*errs = append(*errs, fmt.Errorf("%s line %d: section [%s] is given twice (first at line %d)", file, no, name, secLine[name]))
			}
			cur = name
			secLine[name] = no
			order = append(order, name)
			continue
		}
		toks, err := lineLexer.Line(raw)
		if err != nil {
			*errs = append(*errs, fmt.Errorf("%s line %d: %s", file, no, err))
			continue
		}
		if len(toks) == 0 {
			continue
		}
		secs[cur] = append(secs[cur], srcLine{File: file, No: no, Toks: toks, Raw: raw})
	}
	if block != nil {
		*errs = append(*errs, fmt.Errorf("%s line %d: [tables %s] has no [end]", file, block.line, block.name))
	}
	return order, secs, secLine, tableBlocks
}

type tableBlock struct {
	name  string
	line  int
	lines []string
}

func (p *scnParser) parse(text string) {
	order, secs, secLine, blocks := splitSections(p.file, text, &p.errs)
	known := append([]string{"", "map", "units", "leaders", "notes", secBattles}, tableSections...)
	for _, name := range order {
		if !slices.Contains(known, name) {
			p.errs = append(p.errs, fmt.Errorf("%s line %d: unknown section [%s] (sections: [map], [units], [leaders], [notes], [battles], table sections [%s])", p.file, secLine[name], name, strings.Join(tableSections, "], [")))
		}
	}
	for _, l := range secs["notes"] {
		p.s.Notes = append(p.s.Notes, strings.TrimSpace(l.Raw))
	}
	var tableFiles []string
	p.parseHeader(secs[""], &tableFiles)
	p.parseMap(secs["map"], secLine["map"])
	// Tables: inline sections, copied-in blocks, and named shipped files.
	tsrc := map[string]string{} // section -> where it came from
	addTables := func(file string, order []string, ts map[string][]srcLine, at map[string]int) {
		for _, sec := range order {
			if !slices.Contains(tableSections, sec) {
				if file != p.file {
					p.errs = append(p.errs, fmt.Errorf("%s line %d: [%s] is not a table section (%s)", file, at[sec], sec, strings.Join(tableSections, ", ")))
				}
				continue
			}
			if prev, dup := tsrc[sec]; dup {
				p.errs = append(p.errs, fmt.Errorf("%s line %d: table [%s] is loaded twice (also from %s)", file, at[sec], sec, prev))
				continue
			}
			tsrc[sec] = file
			if len(ts[sec]) == 0 {
				p.errs = append(p.errs, fmt.Errorf("%s line %d: table [%s] is empty", file, at[sec], sec))
				continue
			}
			p.errs = append(p.errs, p.s.Tables.parseTable(sec, ts[sec])...)
		}
	}
	addTables(p.file, order, secs, secLine)
	loaded := map[string]bool{}
	for _, b := range blocks {
		file := b.name
		loaded[strings.ToLower(b.name)] = true
		var terrs []error
		// Lines of the copied-in block are numbered from the block's start in
		// the scenario file.
		txt := strings.Repeat("\n", b.line) + strings.Join(b.lines, "\n")
		o, ts, at, _ := splitSections(p.file+" (tables "+file+")", txt, &terrs)
		p.errs = append(p.errs, terrs...)
		p.noteHeader(txt)
		addTables(p.file+" (tables "+file+")", o, ts, at)
		p.s.Tables.Files = append(p.s.Tables.Files, b.name)
	}
	for _, tf := range tableFiles {
		if loaded[strings.ToLower(tf)] {
			continue
		}
		b, err := tableFile(tf)
		if err != nil {
			p.errs = append(p.errs, fmt.Errorf("%s: tables %s: %w", p.file, tf, err))
			continue
		}
		var terrs []error
		o, ts, at, _ := splitSections(tf+".txt", string(b), &terrs)
		p.errs = append(p.errs, terrs...)
		p.noteHeader(string(b))
		addTables(tf+".txt", o, ts, at)
		p.s.Tables.Files = append(p.s.Tables.Files, tf)
	}
	p.parseUnits(secs["units"], secLine["units"])
	p.parseLeaders(secs["leaders"])
	p.parseBattles(secs[secBattles])
	if len(p.errs) == 0 {
		p.validate()
	}
}

// noteHeader keeps a table file's "SAMPLE" marking, so boards and HELP can
// say the game runs on sample tables.
func (p *scnParser) noteHeader(text string) {
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "#"))
		if strings.HasPrefix(t, "SAMPLE TABLE") && !slices.Contains(p.s.Tables.Notes, t) {
			p.s.Tables.Notes = append(p.s.Tables.Notes, t)
		}
	}
}

func (p *scnParser) parseHeader(lines []srcLine, tableFiles *[]string) {
	seen := map[string]int{}
	for _, l := range lines {
		key := strings.ToLower(l.Toks[0].Text)
		args := l.Toks[1:]
		if prev, dup := seen[key]; dup && key != "option" && key != "tables" && key != "reading" {
			p.errf(l, "%s is given twice (first at line %d)", key, prev)
			continue
		}
		seen[key] = l.No
		switch key {
		case "scenario":
			name, _, _ := strings.Cut(l.Raw, "#")
			name = strings.TrimSpace(name)
			p.s.Name = strings.TrimSpace(name[len(l.Toks[0].Text):])
		case "game":
			if len(args) != 1 {
				p.errf(l, "write the game identifier, e.g. \"game RTG\" (%s)", strings.Join(Games, ", "))
				continue
			}
			g := strings.ToUpper(args[0].Text)
			if !slices.Contains(Games, g) {
				p.errf(l, "unknown game %q: the GCACW games are %s (SSR: the series rules with no game-specific exception)", args[0].Text, strings.Join(Games, ", "))
				continue
			}
			p.s.Game = g
		case "turns", "year":
			n := 0
			var err error
			if len(args) == 1 {
				n, err = strconv.Atoi(args[0].Text)
			}
			if len(args) != 1 || err != nil || n < 1 || (key == "turns" && n > 99) {
				p.errf(l, "%s takes one positive number, e.g. \"%s %s\"", key, key, map[string]string{"turns": "6", "year": "1863"}[key])
				continue
			}
			if key == "turns" {
				p.s.Turns = n
			} else {
				p.s.Year = n
			}
		case "option":
			for _, a := range args {
				o := strings.ToLower(a.Text)
				switch {
				case o == "field-works": // GCACW 5.2.2c, 5b, R13
					p.errf(l, "option field-works: the Build Field Works action and its declaration (GCACW 5b, 5.2.2c, R13) are not in the rules pbem has; leave the option out")
				case !slices.Contains(knownOptions, o):
					p.errf(l, "unknown option %q (options: %s)", a.Text, strings.Join(knownOptions, ", "))
				case slices.Contains(p.s.Options, o):
					p.errf(l, "option %s is given twice", o)
				default:
					p.s.Options = append(p.s.Options, o)
				}
			}
		case "reading":
			p.parseReading(l)
		case "tables":
			if len(args) != 1 {
				p.errf(l, "write the name of a table file shipped with pbem, e.g. \"tables sample-tables\"")
				continue
			}
			*tableFiles = append(*tableFiles, args[0].Text)
		default:
			p.errf(l, "unknown setting %q (settings: scenario, game, turns, year, option, reading, tables; then sections [map], [units], [leaders])", l.Toks[0].Text)
		}
	}
	sort.Strings(p.s.Options)
	missing := func(what, example string) {
		p.errs = append(p.errs, fmt.Errorf("%s: no %s line (e.g. %q)", p.file, what, example))
	}
	if p.s.Name == "" {
		missing("scenario", "scenario Harrow Creek, 1863")
	}
	if p.s.Game == "" && seen["game"] == 0 {
		missing("game", "game RTG")
	}
	if p.s.Turns == 0 && seen["turns"] == 0 {
		missing("turns", "turns 6")
	}
}

func (p *scnParser) parseMap(lines []srcLine, at int) {
	m := &p.s.Map
	if at == 0 {
		p.errs = append(p.errs, fmt.Errorf("%s: no [map] section", p.file))
		return
	}
	var grid hex.Grid
	haveGrid := false
	def := ""
	hexLine := map[hex.Hex]int{}
	sideLine := map[hex.Hexside]int{}
	data := map[hex.Hex]*HexData{}
	for _, l := range lines {
		first := l.Toks[0].Text
		switch strings.ToLower(first) {
		case "hexes":
			if len(l.Toks) != 3 {
				p.errf(l, "write the first and last hex of the map, e.g. \"hexes 0101 2016\"")
				continue
			}
			a, err1 := hex.Parse(l.Toks[1].Text)
			b, err2 := hex.Parse(l.Toks[2].Text)
			if err := errors.Join(err1, err2); err != nil {
				p.errf(l, "%v", err)
				continue
			}
			g, err := hex.NewGrid(a, b)
			if err != nil {
				p.errf(l, "%v", err)
				continue
			}
			grid, haveGrid = g, true
			m.First, m.Last = a, b
			continue
		case "default":
			if len(l.Toks) != 2 || !slices.Contains(TerrainTypes, strings.ToLower(l.Toks[1].Text)) {
				p.errf(l, "write the terrain of hexes not listed, e.g. \"default clear\" (%s)", strings.Join(TerrainTypes, ", "))
				continue
			}
			def = strings.ToLower(l.Toks[1].Text)
			continue
		}
		if !haveGrid {
			p.errf(l, "give the map's extent first, e.g. \"hexes 0101 2016\"")
			return
		}
		if k := strings.ToLower(first); slices.Contains(RouteKinds, k) {
			p.parseRoute(l, k, grid)
			continue
		}
		if strings.Contains(first, "/") {
			p.parseSides(l, grid, sideLine)
			continue
		}
		h, err := hex.Parse(first)
		if err != nil {
			p.errf(l, "%q is not a hex (2314), a hexside (2314/2414), a route (%s) or a setting (hexes, default)", first, strings.Join(RouteKinds, ", "))
			continue
		}
		if !grid.InBounds(h) {
			p.errf(l, "hex %s is outside the map (%s to %s)", h, grid.First(), grid.Last())
			continue
		}
		if prev, dup := hexLine[h]; dup {
			p.errf(l, "hex %s is described twice (first at line %d)", h, prev)
			continue
		}
		hexLine[h] = l.No
		d := &HexData{Hex: h}
		for _, t := range l.Toks[1:] {
			w := strings.ToLower(t.Text)
			switch {
			case t.Quoted:
				d.Name = t.Text
			case slices.Contains(TerrainTypes, w):
				if d.Terrain != "" {
					p.errf(l, "hex %s has two terrain types (%s, %s): a hex counts as the type that dominates it (GCACW 2.3d)", h, d.Terrain, w)
				}
				d.Terrain = w
			case slices.Contains(HexFeatures, w):
				if !slices.Contains(d.Features, w) {
					d.Features = append(d.Features, w)
				}
			case w == "partial":
				d.Partial = true
			case slices.Contains(RouteKinds, w):
				p.errf(l, "%s is drawn as a route from hex to hex: write a line \"%s %s <next hex> …\"", w, w, h)
			default:
				p.errf(l, "hex %s: %q is not a terrain type (%s), an in-hex feature (%s), \"partial\" or a \"name\"", h, t.Text, strings.Join(TerrainTypes, ", "), strings.Join(HexFeatures, ", "))
			}
		}
		sort.Strings(d.Features)
		data[h] = d
	}
	if !haveGrid {
		p.errs = append(p.errs, fmt.Errorf("%s line %d: the [map] needs its extent, e.g. \"hexes 0101 2016\"", p.file, at))
		return
	}
	if def == "" {
		for h := range grid.All() {
			if d, ok := data[h]; !ok || d.Terrain == "" {
				p.errs = append(p.errs, fmt.Errorf("%s line %d: hex %s has no terrain; give every hex one, or a \"default clear\" line", p.file, at, h))
				break
			}
		}
	}
	for h := range grid.All() {
		d, ok := data[h]
		if !ok {
			d = &HexData{Hex: h}
		}
		if d.Terrain == "" {
			d.Terrain = def
		}
		m.Hexes = append(m.Hexes, *d)
	}
	slices.SortFunc(m.Sides, func(a, b SideData) int { return strings.Compare(a.Side.String(), b.Side.String()) })
	m.index()
}

func (p *scnParser) parseSides(l srcLine, grid hex.Grid, sideLine map[hex.Hexside]int) {
	m := &p.s.Map
	var sides []hex.Hexside
	var feats []string
	name := ""
	for _, t := range l.Toks {
		w := strings.ToLower(t.Text)
		switch {
		case t.Quoted:
			name = t.Text
		case strings.Contains(w, "/"):
			s, err := hex.ParseHexside(w)
			if err != nil {
				p.errf(l, "%v", err)
				return
			}
			a, b := s.Hexes()
			if !grid.InBounds(a) || !grid.InBounds(b) {
				p.errf(l, "hexside %s: both hexes must be on the map", s)
				return
			}
			sides = append(sides, s)
		case slices.Contains(HexsideFeatures, w):
			if !slices.Contains(feats, w) {
				feats = append(feats, w)
			}
		default:
			p.errf(l, "%q is not a hexside feature (%s)", t.Text, strings.Join(HexsideFeatures, ", "))
			return
		}
	}
	if len(feats) == 0 {
		p.errf(l, "name the hexside's features, e.g. \"2314/2414 river-minor ford\"")
		return
	}
	if slices.Contains(feats, RiverMajor) && slices.Contains(feats, RiverMinor) {
		p.errf(l, "a hexside is a major or a minor river, not both")
		return
	}
	sort.Strings(feats)
	for _, s := range sides {
		if prev, dup := sideLine[s]; dup {
			p.errf(l, "hexside %s is described twice (first at line %d)", s, prev)
			continue
		}
		sideLine[s] = l.No
		m.Sides = append(m.Sides, SideData{Side: s, Features: feats, Name: name, Line: l.No})
	}
}

func (p *scnParser) parseRoute(l srcLine, kind string, grid hex.Grid) {
	r := Route{Kind: kind, Line: l.No}
	for _, t := range l.Toks[1:] {
		if t.Quoted {
			r.Name = t.Text
			continue
		}
		h, err := hex.Parse(t.Text)
		if err != nil {
			p.errf(l, "%s: %v", kind, err)
			return
		}
		if !grid.InBounds(h) {
			p.errf(l, "%s: hex %s is outside the map", kind, h)
			return
		}
		if n := len(r.Hexes); n > 0 && !hex.Adjacent(r.Hexes[n-1], h) {
			p.errf(l, "%s: %s and %s are not adjacent; list every hex the %s runs through", kind, r.Hexes[n-1], h, kind)
			return
		}
		r.Hexes = append(r.Hexes, h)
	}
	if len(r.Hexes) < 2 {
		p.errf(l, "a %s runs through at least two hexes, e.g. \"%s 0305 0306 0406\"", kind, kind)
		return
	}
	p.s.Map.Routes = append(p.s.Map.Routes, r)
}

// keyVals reads key=value and bare-word tokens of a unit or leader line
// (the lexer splits "str=7" into "str", "=", "7").
func keyVals(toks []token) (kv map[string]token, words []token, bad string) {
	kv = map[string]token{}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if i+1 < len(toks) && toks[i+1].Punct && toks[i+1].Text == "=" {
			if i+2 >= len(toks) {
				return nil, nil, t.Text + "= has no value"
			}
			k := strings.ToLower(t.Text)
			if _, dup := kv[k]; dup {
				return nil, nil, k + " is given twice"
			}
			kv[k] = toks[i+2]
			i += 2
			continue
		}
		words = append(words, t)
	}
	return kv, words, ""
}

func sortedKeys(kv map[string]token) []string {
	ks := make([]string, 0, len(kv))
	for k := range kv {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func intVal(kv map[string]token, key string, lo, hi int, required bool) (int, string) {
	t, ok := kv[key]
	if !ok {
		if required {
			return 0, fmt.Sprintf("%s= is missing", key)
		}
		return 0, ""
	}
	n, err := strconv.Atoi(t.Text)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Sprintf("%s=%s: want a number from %d to %d", key, t.Text, lo, hi)
	}
	return n, ""
}

var unitSizes = []string{"II", "III", "X", "XX", "X+"}

func (p *scnParser) parseUnits(lines []srcLine, at int) {
	if at == 0 {
		p.errs = append(p.errs, fmt.Errorf("%s: no [units] section", p.file))
		return
	}
	const form = `USA ORNE "Orne" inf XX str=7 tac=3 art=2 at=0405 in=AC/I/I-1 [fatigue=1] [exhausted] [disorganized] [div=1]`
	maxStr := maxStrength(p.s.Game)
	for _, l := range lines {
		if len(l.Toks) < 5 || !l.Toks[2].Quoted {
			p.errf(l, "a unit line reads: %s", form)
			continue
		}
		u := Unit{Side: strings.ToUpper(l.Toks[0].Text), ID: strings.ToUpper(l.Toks[1].Text), Name: l.Toks[2].Text,
			Type: strings.ToLower(l.Toks[3].Text), Manpower: 1}
		if u.Side != USA && u.Side != CSA {
			p.errf(l, "side %q: the sides are USA and CSA (GCACW 2a)", l.Toks[0].Text)
			continue
		}
		if !validCode(u.ID) {
			p.errf(l, "unit code %q: use 1 to 4 letters or digits (it is printed on the board)", l.Toks[1].Text)
			continue
		}
		if !slices.Contains(UnitTypes, u.Type) {
			p.errf(l, "unit type %q: the types are inf, cav, art (GCACW 2.2g)", l.Toks[3].Text)
			continue
		}
		kv, words, bad := keyVals(l.Toks[4:])
		if bad != "" {
			p.errf(l, "%s", bad)
			continue
		}
		var msgs []string
		for _, w := range words {
			switch ww := strings.ToUpper(w.Text); {
			case slices.Contains(unitSizes, ww):
				if u.Size != "" {
					msgs = append(msgs, "two sizes")
				}
				u.Size = ww
			case ww == "EXHAUSTED":
				u.Exhausted = true
			case ww == "DISORGANIZED":
				u.Disorganized = true
			default:
				msgs = append(msgs, fmt.Sprintf("%q is not a size (II, III, X, XX, X+), \"exhausted\", \"disorganized\" or key=value", w.Text))
			}
		}
		// GCACW 2.2e: squadrons are Union only, demi-divisions Confederate only.
		switch {
		case u.Size == "":
			msgs = append(msgs, "give the unit's size: II, III, X, XX or X+ (GCACW 2.2e)")
		case u.Size == "II" && u.Side != USA:
			msgs = append(msgs, "squadrons (II) are Union only (GCACW 2.2e)")
		case u.Size == "X+" && u.Side != CSA:
			msgs = append(msgs, "demi-divisions (X+) are Confederate only (GCACW 2.2e)")
		}
		var m string
		// GCACW 2.2o: Manpower 1 to 21, capped by the game.
		if u.Manpower, m = intVal(kv, "str", 1, maxStr, true); m != "" {
			msgs = append(msgs, m+fmt.Sprintf(" (GCACW 2.2o: the most %s allows is %d)", p.s.Game, maxStr))
		}
		// GCACW 2.2h: the two printed values, the Tactical value and the
		// Artillery value.
		if u.Tactical, m = intVal(kv, "tac", 0, 99, false); m != "" {
			msgs = append(msgs, m)
		}
		if u.Artillery, m = intVal(kv, "art", 0, 99, false); m != "" {
			msgs = append(msgs, m)
		}
		// GCACW 2.2d: Union infantry also carries a numeric division
		// designation. It is for information only: it is kept with the
		// unit, and no rule reads it (command follows in=, GCACW 2.2c).
		if _, ok := kv["div"]; ok {
			if u.Side != USA || u.Type != Infantry {
				msgs = append(msgs, "div=: only Union infantry carries a numeric division designation (GCACW 2.2d)")
			} else if u.Div, m = intVal(kv, "div", 1, 99, false); m != "" {
				msgs = append(msgs, m+" (GCACW 2.2d)")
			}
		}
		// GCACW 2.2p: fatigue levels 0 to 4.
		if u.Fatigue, m = intVal(kv, "fatigue", 0, 4, false); m != "" {
			msgs = append(msgs, m+" (GCACW 2.2p)")
		}
		if t, ok := kv["at"]; ok {
			h, err := hex.Parse(t.Text)
			switch {
			case err != nil:
				msgs = append(msgs, err.Error())
			case !p.s.Map.OnMap(h):
				msgs = append(msgs, fmt.Sprintf("at=%s is not a playable hex of the map (GCACW 2.3e)", h))
			case p.s.Map.Terrain(h) == Water:
				msgs = append(msgs, fmt.Sprintf("at=%s is a water hex", h))
			}
			u.Hex = h
		} else {
			msgs = append(msgs, "at= is missing (the unit's hex)")
		}
		if t, ok := kv["in"]; ok {
			for _, f := range strings.Split(t.Text, "/") {
				if f != "" {
					u.In = append(u.In, f)
				}
			}
		}
		unknown := false
		for _, k := range sortedKeys(kv) {
			if !slices.Contains([]string{"str", "tac", "art", "fatigue", "at", "in", "div"}, k) {
				msgs = append(msgs, fmt.Sprintf("unknown key %s= (keys: str, tac, art, fatigue, at, in)", k))
				unknown = true
			}
		}
		if unknown && u.Side == USA && u.Type == Infantry {
			msgs = append(msgs, "Union infantry may also give div=, its division number (GCACW 2.2d)")
		}
		if len(msgs) > 0 {
			p.errf(l, "unit %s: %s", u.ID, strings.Join(msgs, "; "))
			continue
		}
		u.Line = l.No
		p.s.Units = append(p.s.Units, u)
	}
}

func validCode(s string) bool {
	if len(s) < 1 || len(s) > 4 {
		return false
	}
	for _, r := range s {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// Leader kinds (GCACW 2.2j).
const (
	ArmyLeader     = "army"
	DistrictLeader = "district"
	CorpsLeader    = "corps"
	DivisionLeader = "division"
)

var leaderKinds = []string{ArmyLeader, DistrictLeader, CorpsLeader, DivisionLeader}

func (p *scnParser) parseLeaders(lines []srcLine) {
	const form = `USA BRND "Brand" corps cmd=3 tac=2 commands=I with=ORNE [cavalry]`
	for _, l := range lines {
		if len(l.Toks) < 4 || !l.Toks[2].Quoted {
			p.errf(l, "a leader line reads: %s", form)
			continue
		}
		ld := Leader{Side: strings.ToUpper(l.Toks[0].Text), ID: strings.ToUpper(l.Toks[1].Text), Name: l.Toks[2].Text, Kind: strings.ToLower(l.Toks[3].Text)}
		if ld.Side != USA && ld.Side != CSA {
			p.errf(l, "side %q: the sides are USA and CSA", l.Toks[0].Text)
			continue
		}
		if !validCode(ld.ID) {
			p.errf(l, "leader code %q: use 1 to 4 letters or digits", l.Toks[1].Text)
			continue
		}
		if !slices.Contains(leaderKinds, ld.Kind) {
			p.errf(l, "leader type %q: the four types are army, district, corps, division (GCACW 2.2j)", l.Toks[3].Text)
			continue
		}
		kv, words, bad := keyVals(l.Toks[4:])
		if bad != "" {
			p.errf(l, "%s", bad)
			continue
		}
		var msgs []string
		for _, w := range words {
			if strings.EqualFold(w.Text, "cavalry") {
				ld.Cavalry = true
			} else {
				msgs = append(msgs, fmt.Sprintf("%q: a leader line takes key=value pairs and the word \"cavalry\"", w.Text))
			}
		}
		var m string
		if ld.Command, m = intVal(kv, "cmd", 0, 9, true); m != "" {
			msgs = append(msgs, m)
		}
		// GCACW 2.2k: an Army Leader has a single value, Command.
		if ld.Kind == ArmyLeader {
			if _, ok := kv["tac"]; ok {
				msgs = append(msgs, "an Army Leader has only a Command value (GCACW 2.2k)")
			}
			if ld.Cavalry {
				msgs = append(msgs, "an Army Leader is not a cavalry leader")
			}
		} else if ld.Tactical, m = intVal(kv, "tac", 0, 9, true); m != "" {
			msgs = append(msgs, m+" (GCACW 2.2l, 2.2m: district, corps and division leaders have a tactical value)")
		}
		if ld.Kind == DistrictLeader && ld.Cavalry {
			msgs = append(msgs, "a District Leader is assigned to infantry (GCACW 2.2l); it cannot be a cavalry leader")
		}
		if t, ok := kv["commands"]; ok {
			ld.Commands = t.Text
		} else {
			msgs = append(msgs, "commands= is missing (the formation the leader commands, as in the units' in=)")
		}
		if t, ok := kv["with"]; ok {
			ld.With = strings.ToUpper(t.Text)
		} else {
			msgs = append(msgs, "with= is missing (the unit it is stacked with: a leader never occupies a hex alone, GCACW 2.2j)")
		}
		for _, k := range sortedKeys(kv) {
			if !slices.Contains([]string{"cmd", "tac", "commands", "with"}, k) {
				msgs = append(msgs, fmt.Sprintf("unknown key %s= (keys: cmd, tac, commands, with)", k))
			}
		}
		if len(msgs) > 0 {
			p.errf(l, "leader %s: %s", ld.ID, strings.Join(msgs, "; "))
			continue
		}
		ld.Line = l.No
		p.s.Leaders = append(p.s.Leaders, ld)
	}
}

// validate checks what needs the whole scenario.
func (p *scnParser) validate() {
	s := p.s
	m := &s.Map
	at := func(line int, format string, a ...any) {
		p.errs = append(p.errs, fmt.Errorf("%s line %d: %s", p.file, line, fmt.Sprintf(format, a...)))
	}
	// Hexsides: crossings are on rivers; a bridge carries a route.
	for _, sd := range m.Sides {
		for _, f := range []string{Ford, Ferry, Dam} {
			if slices.Contains(sd.Features, f) && !m.River(sd.Side) {
				at(sd.Line, "hexside %s has a %s but no river (river-major or river-minor)", sd.Side, f)
			}
		}
		if slices.Contains(sd.Features, Bridge) {
			if !m.River(sd.Side) && !slices.Contains(sd.Features, Creek) {
				at(sd.Line, "hexside %s has a bridge but no river or creek", sd.Side)
			}
			if len(m.RoutesAcross(sd.Side)) == 0 {
				at(sd.Line, "hexside %s has a bridge but no pike, road, trail or railroad crosses it", sd.Side)
			}
		}
	}
	for _, r := range m.Routes {
		for i := 1; i < len(r.Hexes); i++ {
			sd, _ := hex.Between(r.Hexes[i-1], r.Hexes[i])
			if m.River(sd) && !m.RiverCrossing(sd) {
				at(r.Line, "the %s crosses the river at %s without a bridge, ford, ferry or dam", r.Kind, sd)
			}
			for _, h := range []hex.Hex{r.Hexes[i-1], r.Hexes[i]} {
				if m.Terrain(h) == Water {
					at(r.Line, "the %s runs into water hex %s", r.Kind, h)
				}
			}
		}
	}
	// Terrain Effects Chart: where it has no row for something the map
	// uses, the chart is silent and the referee rules those moves (R1);
	// RefereeSteps says so.
	// Victory objectives stand on the map.
	if v := s.Tables.Victory; v != nil {
		for _, vh := range v.Hexes {
			if !m.OnMap(vh.Hex) || m.Terrain(vh.Hex) == Water {
				at(vh.Line, "victory hex %s is not a playable land hex of the map", vh.Hex)
			}
		}
	}
	// Units: codes unique across units and leaders.
	ids := map[string]int{}
	for _, u := range s.Units {
		if prev, dup := ids[u.ID]; dup {
			at(u.Line, "code %s is used twice (first at line %d)", u.ID, prev)
		}
		ids[u.ID] = u.Line
	}
	for _, l := range s.Leaders {
		if prev, dup := ids[l.ID]; dup {
			at(l.Line, "code %s is used twice (first at line %d)", l.ID, prev)
		}
		ids[l.ID] = l.Line
	}
	unit := func(id string) *Unit {
		for i := range s.Units {
			if s.Units[i].ID == id {
				return &s.Units[i]
			}
		}
		return nil
	}
	for _, l := range s.Leaders {
		u := unit(l.With)
		switch {
		case u == nil:
			at(l.Line, "leader %s: with=%s is not a unit of the scenario", l.ID, l.With)
			continue
		case u.Side != l.Side:
			at(l.Line, "leader %s: with=%s is a %s unit", l.ID, l.With, u.Side)
			continue
		}
		// GCACW 2.2j-m: a leader is stacked with a subordinate unit; army and
		// district leaders with infantry.
		if !slices.Contains(u.In, l.Commands) {
			at(l.Line, "leader %s must be stacked with a unit it commands (GCACW 2.2j): %s is not in %s", l.ID, u.ID, l.Commands)
		}
		if (l.Kind == ArmyLeader || l.Kind == DistrictLeader) && u.Type != Infantry {
			at(l.Line, "leader %s: a%s %s leader must be assigned to infantry (GCACW 2.2k, 2.2l), not %s", l.ID, map[bool]string{true: "n", false: ""}[l.Kind == ArmyLeader], l.Kind, typeName(u.Type))
		}
		// GCACW 2.2k: no Army Leaders in SIV and AGA.
		if l.Kind == ArmyLeader && !hasArmyLeaders(s.Game) {
			at(l.Line, "leader %s: %s has no Army Leaders (GCACW 2.2k)", l.ID, s.Game)
		}
		// GCACW 5.2.2a: these games have no Union cavalry leaders.
		if l.Cavalry && l.Side == USA && unionCavalryUncommanded(s.Game) {
			at(l.Line, "leader %s: %s has no Union cavalry leaders (GCACW 5.2.2a)", l.ID, s.Game)
		}
		n := 0
		for _, o := range s.Units {
			if o.Side == l.Side && slices.Contains(o.In, l.Commands) {
				n++
			}
		}
		if n == 0 {
			at(l.Line, "leader %s commands %s, but no unit is in %s", l.ID, l.Commands, l.Commands)
		}
	}
	// GCACW 4.2c / R7: the GTC campaign's die-to-eligibility rule is not in
	// the rules, so a GTC scenario cannot record the die for it.
	if s.Game == "GTC" && s.Option(OptRecordDie) {
		p.errs = append(p.errs, fmt.Errorf("%s: GTC with %s: the GTC campaign's rule for which units the recorded initiative die makes eligible (GCACW 4.2c, R7) is not in the rules pbem has", p.file, OptRecordDie))
	}
	if s.Option(OptRandomEvents) && s.Option(OptAdvanced) {
		p.errs = append(p.errs, fmt.Errorf("%s: advanced scenarios have no Random Events Phase (GCACW 3)", p.file))
	}
	if len(s.Units) == 0 {
		p.errs = append(p.errs, fmt.Errorf("%s: the scenario has no units", p.file))
	}
}

func typeName(t string) string {
	switch t {
	case Cavalry:
		return "cavalry"
	case Artillery:
		return "artillery"
	}
	return "infantry"
}
