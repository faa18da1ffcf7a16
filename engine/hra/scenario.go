package hra

import (
	"embed"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"pbem/engine"
	"pbem/engine/table"
)

// The two sides.
const (
	Union       = "Union"
	Confederate = "Confederate"
)

// Sides are the two sides, Union first.
var Sides = []string{Union, Confederate}

func opponent(side string) string {
	if side == Union {
		return Confederate
	}
	return Union
}

// Arms of a unit (HRA 2a-2c).
const (
	Infantry  = "infantry"
	Cavalry   = "cavalry"
	Artillery = "artillery"
)

// Terrain kinds: areas (polygons) and lines (polylines).
const (
	Woods    = "woods"
	Rough    = "rough"
	Hill     = "hill"
	Building = "building"
	River    = "river"
	Ford     = "ford"
	Bridge   = "bridge"
	Road     = "road"
	Stream   = "stream"
	Fence    = "fence"
	Wall     = "wall"
	Redoubt  = "redoubt"
)

var areaKinds = []string{Woods, Rough, Hill, Building, River, Ford, Bridge}
var lineKinds = []string{Road, Stream, Fence, Wall, Redoubt}

// Terrain is one terrain feature: an area (Poly) or a line (Path).
type Terrain struct {
	Kind string         `json:"kind"`
	Name string         `json:"name"`
	Poly table.Polygon  `json:"poly,omitempty"`
	Path table.Polyline `json:"path,omitempty"`
}

// Point is a named place on the table (MOVE TO uses it).
type Point struct {
	Name string      `json:"name"`
	At   table.Point `json:"at"`
	VP   int         `json:"vp,omitempty"` // victory points for holding it (objective)
}

// BrigadeDef is a brigade as the scenario sets it up.
type BrigadeDef struct {
	Name    string
	Side    string
	General string // the unit the general starts with (HRA 2f)
	Units   []string
}

// UnitDef is a unit as the scenario sets it up.
type UnitDef struct {
	Name    string
	Side    string
	Brigade string
	Arm     string
	Front   table.Point
	Facing  table.Angle
	Letter  byte
	// State is the state it starts at, when a campaign set the battle up
	// weaker (applyMuster); 0 is full (3).
	State int
}

// ScenarioDef is a scenario file after parsing. It never changes after Setup.
type ScenarioDef struct {
	Name   string
	Width  table.Length
	Height table.Length
	// Rounds is the scenario's length (R12: the seed has no game end; the
	// scenario sets it) and also the "day" of HRA 16b (R10).
	Rounds int
	// Charges a cavalry regiment may make in the scenario's day (HRA 16b).
	Charges int
	// LeaderlessStatus is the status a brigade whose general was killed is
	// led with (R9: not in the seed; scenario data).
	LeaderlessStatus int
	// RegimentDepth is the depth of a regiment's three ranked bases (H2).
	RegimentDepth table.Length
	// Dismounted and Horses are the base sizes of dismounted cavalry and its
	// horses (R7: not in the seed; scenario data).
	DismountedDepth table.Length
	HorsesDepth     table.Length
	// RemovedVP is what each enemy unit removed is worth at the end (R12).
	RemovedVP int
	// DismountedFireAsInfantry: dismounted cavalry fires without the
	// cavalry −1 (HRA H15's alternative). The spec's reading, the default,
	// keeps the −1: 16a says "cavalry" and 16d changes only how dismounted
	// cavalry is hit. The scenario line "dismounted-fire infantry" or
	// "dismounted-fire cavalry" makes the choice explicit.
	DismountedFireAsInfantry bool
	// TurnPerQuarter: a rotation over 90° other than an about-face costs
	// 2 cm for each started quarter turn (scenario line "turn-over-90
	// per-quarter"). The seed states no cost for it; by default it costs
	// 2 cm, H4's nearest stated value ("turn-over-90 two-cm").
	TurnPerQuarter bool
	// CrossingAlone: a ford or river crossing must be the unit's only
	// move in its round (scenario line "crossing alone"). The seed says
	// only that a ford takes a round (T1); by default a march may end
	// with the crossing ("crossing ends-march").
	CrossingAlone bool
	// WheelTravel: the ground a wheel about a front corner carries the
	// unit's centre over (the chord) counts as distance travelled, beside
	// the rotation's cost (scenario line "wheel-travel counted"). The
	// seed charges a rotation only its cost, so by default ("wheel-travel
	// free") wheels of up to 45° about alternate corners move a unit at no
	// cost.
	WheelTravel bool

	Terrain  []Terrain
	Points   []Point
	Brigades []BrigadeDef
	Units    []UnitDef
	Sample   bool // the file says its data is SAMPLE data
	// Muster tells the players the forces a campaign set this battle up
	// with (applyMuster); none for a scenario as written.
	Muster []string
}

//go:embed scenarios/*.txt
var files embed.FS

var shipped = engine.Shipped{Files: files, Dir: "scenarios"}

// Scenarios lists the scenarios shipped with the package, sorted.
func Scenarios() []string { return shipped.Names() }

// Scenario returns a shipped scenario file by name.
func Scenario(name string) ([]byte, error) {
	b, err := shipped.Read(name)
	if err != nil {
		return nil, fmt.Errorf("hra: no scenario %q (shipped: %s)", name, strings.Join(Scenarios(), ", "))
	}
	return b, nil
}

// ErrScenario is wrapped by every scenario error.
var ErrScenario = errors.New("hra scenario")

// scnLexer reads a scenario line: words separated by blanks or commas,
// double-quoted text kept together, and a # comment dropped.
var scnLexer = engine.Lexer{Commas: true, Comments: true}

func cm(s string) (table.Length, error) { return table.ParseLengthIn(s, table.Centimetres) }

func points(ws []string) ([]table.Point, error) {
	if len(ws)%2 != 0 {
		return nil, fmt.Errorf("coordinates come in pairs, got %d numbers", len(ws))
	}
	var out []table.Point
	for i := 0; i < len(ws); i += 2 {
		x, err := cm(ws[i])
		if err != nil {
			return nil, err
		}
		y, err := cm(ws[i+1])
		if err != nil {
			return nil, err
		}
		out = append(out, table.Pt(x, y))
	}
	return out, nil
}

// ParseScenario reads a scenario file.
func ParseScenario(b []byte) (*ScenarioDef, error) {
	sc := &ScenarioDef{Rounds: 0, Charges: 2, RegimentDepth: table.CM(3)}
	b, muster, err := engine.SplitMuster(b)
	if err != nil {
		return nil, fmt.Errorf("%w %v", ErrScenario, err)
	}
	side := ""
	var br *BrigadeDef
	for n, line := range strings.Split(string(b), "\n") {
		if strings.Contains(line, "SAMPLE") {
			sc.Sample = true
		}
		ws, err := scnLexer.Words(line)
		if err != nil {
			return nil, fmt.Errorf("%w line %d: %v", ErrScenario, n+1, err)
		}
		if len(ws) == 0 {
			continue
		}
		fail := func(format string, a ...any) error {
			return fmt.Errorf("%w line %d: %s", ErrScenario, n+1, fmt.Sprintf(format, a...))
		}
		key := strings.ToLower(ws[0])
		args := ws[1:]
		intArg := func() (int, error) {
			if len(args) != 1 {
				return 0, fail("%s takes one number", key)
			}
			v, err := strconv.Atoi(args[0])
			if err != nil || v < 0 || v > 1000 {
				return 0, fail("%s: bad number %q", key, args[0])
			}
			return v, nil
		}
		lenArg := func() (table.Length, error) {
			if len(args) != 1 {
				return 0, fail("%s takes one length", key)
			}
			v, err := cm(args[0])
			if err != nil || v <= 0 || v > table.CM(100) {
				return 0, fail("%s: bad length %q", key, args[0])
			}
			return v, nil
		}
		// option reads a line that chooses between two readings: off (the
		// default) and on.
		option := func(off, on, rule string) (bool, error) {
			switch strings.ToLower(strings.Join(args, " ")) {
			case off:
				return false, nil
			case on:
				return true, nil
			}
			return false, fail("%s takes %s or %s (%s)", key, off, on, rule)
		}
		switch {
		case key == "scenario":
			sc.Name = strings.Join(args, " ")
		case key == "table":
			if len(args) != 2 {
				return nil, fail("table takes width and height in cm")
			}
			pts, err := points(args)
			if err != nil || pts[0].X <= 0 || pts[0].Y <= 0 || pts[0].X > table.CM(1000) || pts[0].Y > table.CM(1000) {
				return nil, fail("bad table size")
			}
			sc.Width, sc.Height = pts[0].X, pts[0].Y
		case key == "rounds":
			if sc.Rounds, err = intArg(); err != nil {
				return nil, err
			}
		case key == "charges":
			if sc.Charges, err = intArg(); err != nil {
				return nil, err
			}
		case key == "leaderless-status":
			if sc.LeaderlessStatus, err = intArg(); err != nil {
				return nil, err
			}
		case key == "removed-vp":
			if sc.RemovedVP, err = intArg(); err != nil {
				return nil, err
			}
		case key == "regiment-depth":
			if sc.RegimentDepth, err = lenArg(); err != nil {
				return nil, err
			}
		case key == "dismounted-fire":
			if sc.DismountedFireAsInfantry, err = option("cavalry", "infantry", "HRA H15"); err != nil {
				return nil, err
			}
		case key == "turn-over-90":
			if sc.TurnPerQuarter, err = option("two-cm", "per-quarter", "HRA 9c, H4"); err != nil {
				return nil, err
			}
		case key == "crossing":
			if sc.CrossingAlone, err = option("ends-march", "alone", "T1"); err != nil {
				return nil, err
			}
		case key == "wheel-travel":
			if sc.WheelTravel, err = option("free", "counted", "HRA 9c, 9d"); err != nil {
				return nil, err
			}
		case key == "dismounted-depth":
			if sc.DismountedDepth, err = lenArg(); err != nil {
				return nil, err
			}
		case key == "horses-depth":
			if sc.HorsesDepth, err = lenArg(); err != nil {
				return nil, err
			}
		case key == "side":
			if len(args) != 1 || (args[0] != Union && args[0] != Confederate) {
				return nil, fail("side is %s or %s", Union, Confederate)
			}
			side, br = args[0], nil
		case key == "brigade":
			// brigade "Name" general "Unit"
			if side == "" || len(args) != 3 || strings.ToLower(args[1]) != "general" {
				return nil, fail(`brigade "Name" general "Unit" (after a side line)`)
			}
			sc.Brigades = append(sc.Brigades, BrigadeDef{Name: args[0], Side: side, General: args[2]})
			br = &sc.Brigades[len(sc.Brigades)-1]
		case key == Infantry || key == Cavalry || key == Artillery:
			// infantry "Name" x y facing
			if br == nil || len(args) != 4 {
				return nil, fail(`%s "Name" x y facing (after a brigade line)`, key)
			}
			pts, err := points(args[1:3])
			if err != nil {
				return nil, fail("%v", err)
			}
			f, err := table.ParseAngle(args[3])
			if err != nil {
				return nil, fail("%v", err)
			}
			sc.Units = append(sc.Units, UnitDef{Name: args[0], Side: side, Brigade: br.Name, Arm: key, Front: pts[0], Facing: f.Norm()})
			br.Units = append(br.Units, args[0])
		case key == "point" || key == "objective":
			if len(args) != 3 && !(key == "objective" && len(args) == 4) {
				return nil, fail(`%s "Name" x y`, key)
			}
			pts, err := points(args[1:3])
			if err != nil {
				return nil, fail("%v", err)
			}
			p := Point{Name: args[0], At: pts[0]}
			if key == "objective" {
				p.VP = 1
				if len(args) == 4 {
					if p.VP, err = strconv.Atoi(args[3]); err != nil || p.VP < 0 {
						return nil, fail("bad victory points %q", args[3])
					}
				}
			}
			sc.Points = append(sc.Points, p)
		case contains(areaKinds, key) || contains(lineKinds, key):
			if len(args) < 1 {
				return nil, fail("%s \"Name\" x y, x y, ...", key)
			}
			pts, err := points(args[1:])
			if err != nil {
				return nil, fail("%v", err)
			}
			t := Terrain{Kind: key, Name: args[0]}
			if contains(areaKinds, key) {
				if len(pts) < 3 {
					return nil, fail("an area needs at least 3 points")
				}
				if (key == Ford || key == Bridge) && !table.Polygon(pts).Convex() {
					return nil, fail("a %s is a convex area (what crosses the river is measured on it)", key)
				}
				t.Poly = table.Polygon(pts)
			} else {
				if len(pts) < 2 {
					return nil, fail("a line needs at least 2 points")
				}
				t.Path = table.Polyline(pts)
			}
			sc.Terrain = append(sc.Terrain, t)
		default:
			return nil, fail("unknown line %q", ws[0])
		}
	}
	if err := sc.check(); err != nil {
		return nil, err
	}
	if sc.Muster, err = sc.applyMuster(muster); err != nil {
		return nil, err
	}
	return sc, nil
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func (sc *ScenarioDef) check() error {
	fail := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", ErrScenario, fmt.Sprintf(format, a...))
	}
	if sc.Width == 0 {
		return fail("no table line")
	}
	if sc.Rounds < 1 {
		return fail("no rounds line (the scenario sets the game's length)")
	}
	if sc.DismountedDepth == 0 {
		sc.DismountedDepth = table.CM(1)
	}
	if sc.HorsesDepth == 0 {
		sc.HorsesDepth = table.CM(2)
	}
	if sc.LeaderlessStatus < 1 {
		return fail("no leaderless-status line (R9: what a brigade whose general is killed is led with)")
	}
	names := map[string]bool{}
	letters := "ABCDEFGHIJKLMNOPQRSUVWXYZ"
	lower := "abcdefghijklmnopqrsuvwxyz"
	nu, nc := 0, 0
	for i := range sc.Units {
		u := &sc.Units[i]
		k := normName(u.Name)
		if k == "" || names[k] {
			return fail("unit name %q is empty or used twice", u.Name)
		}
		names[k] = true
		if u.Side == Union {
			if nu >= len(letters) {
				return fail("too many Union units")
			}
			u.Letter = letters[nu]
			nu++
		} else {
			if nc >= len(lower) {
				return fail("too many Confederate units")
			}
			u.Letter = lower[nc]
			nc++
		}
		if !u.Front.Valid() || u.Front.X < 0 || u.Front.Y < 0 || u.Front.X > sc.Width || u.Front.Y > sc.Height {
			return fail("unit %q is off the table", u.Name)
		}
	}
	for _, b := range sc.Brigades {
		k := normName(b.Name)
		if k == "" || names[k] {
			return fail("brigade name %q is empty or used by another brigade or unit", b.Name)
		}
		names[k] = true
		if !contains(b.Units, b.General) {
			return fail("brigade %q: its general is with %q, not one of its units (HRA 2f)", b.Name, b.General)
		}
		if err := checkComposition(sc, b); err != nil {
			return fail("%v", err)
		}
	}
	for _, s := range Sides {
		found := false
		for _, b := range sc.Brigades {
			found = found || b.Side == s
		}
		if !found {
			return fail("side %s has no brigade", s)
		}
	}
	return nil
}

// checkComposition checks a brigade against the brigade table (HRA 2e, T4).
func checkComposition(sc *ScenarioDef, b BrigadeDef) error {
	var inf, cav, art int
	for _, un := range b.Units {
		for _, u := range sc.Units {
			if u.Name == un {
				switch u.Arm {
				case Infantry:
					inf++
				case Cavalry:
					cav++
				case Artillery:
					art++
				}
			}
		}
	}
	if !AllowedBrigade(inf, cav, art) {
		return fmt.Errorf("brigade %q (%d infantry, %d cavalry, %d artillery) is not a composition of the brigade table (HRA T4)", b.Name, inf, cav, art)
	}
	return nil
}

// AllowedBrigade reports whether a brigade of inf infantry regiments, cav
// cavalry regiments and art batteries is in the brigade table (HRA T4).
func AllowedBrigade(inf, cav, art int) bool {
	for _, c := range brigadeTable {
		if c == [3]int{inf, cav, art} {
			return true
		}
	}
	return false
}

// brigadeTable is HRA T4: infantry, cavalry and artillery brigades as
// (infantry regiments, cavalry regiments, batteries).
var brigadeTable = [][3]int{
	{3, 0, 0}, {3, 0, 1}, {4, 0, 0}, {4, 0, 1}, {5, 0, 0}, // infantry brigades
	{0, 3, 0}, {0, 4, 0}, {0, 5, 0}, // cavalry brigades
	{1, 0, 2}, {0, 0, 3}, {1, 0, 3}, {0, 0, 4}, {1, 0, 4}, {0, 0, 5}, // artillery brigades
}
