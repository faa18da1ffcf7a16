package gcacw

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pbem/engine/hex"
	"pbem/events"
)

func TestScenariosListAndLoad(t *testing.T) {
	want := []string{"harrow-creek", "harrow-creek-refereed", "tallow-valley", "tallow-valley-refereed"}
	if got := Scenarios(); !slices.Equal(got, want) {
		t.Fatalf("Scenarios() = %v, want %v (table files are not scenarios)", got, want)
	}
	b, err := Scenario("harrow-creek")
	if err != nil {
		t.Fatal(err)
	}
	// The tables are copied in, so the bytes stand alone.
	if !strings.Contains(string(b), "[tables sample-tables]") || !strings.Contains(string(b), "# SAMPLE TABLE - not from the published game") {
		t.Errorf("the scenario's tables are not copied in")
	}
	// NAME-refereed is the scenario without its house rules, for a game
	// with a referee.
	r, err := Scenario("harrow-creek-refereed")
	if err != nil || !bytes.HasPrefix(r, []byte("# harrow-creek as a game with a referee plays it")) || !bytes.HasSuffix(r, Refereed(b)) || bytes.Contains(r, []byte("[reorganization]")) {
		t.Errorf("harrow-creek-refereed is not Harrow Creek without its house rules: %v", err)
	}
	if _, err := Scenario("harrow-creek-refereed-refereed"); err == nil {
		t.Errorf("a refereed scenario is refereed again")
	}
	if _, err := Scenario("sample-tables"); err == nil {
		t.Errorf("a table file loads as a scenario")
	}
	if _, err := Scenario("nowhere"); err == nil || !strings.Contains(err.Error(), "harrow-creek") {
		t.Errorf("unknown scenario: %v, want an error listing the shipped ones", err)
	}
	sc, err := ParseScenario(b)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := files.ReadFile("scenarios/harrow-creek.txt")
	sc2, err := ParseScenario(raw)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := encodeState(newState(sc))
	c, _ := encodeState(newState(sc2))
	if string(a) != string(c) {
		t.Errorf("the scenario with its tables copied in differs from the one naming them")
	}
}

// The sample scenario must use every terrain type and every hexside and
// in-hex feature of GCACW 2.3, the four leader types of 2.2j, cavalry,
// artillery, and a river with fords and a bridge, on a map of at least
// 20x16 hexes.
func TestSampleScenarioCoversGCACW_2_3(t *testing.T) {
	b, _ := Scenario("harrow-creek")
	sc, err := ParseScenario(b)
	if err != nil {
		t.Fatal(err)
	}
	m := &sc.Map
	if g := m.Grid(); g.Cols < 20 || g.Rows < 16 {
		t.Errorf("map %dx%d, want at least 20x16", g.Cols, g.Rows)
	}
	used := m.used()
	for _, h := range m.Hexes {
		if h.Partial {
			used["partial"] = true
		}
	}
	var want []string
	want = append(want, TerrainTypes...)
	want = append(want, HexsideFeatures...)
	want = append(want, HexFeatures...)
	want = append(want, RouteKinds...)
	want = append(want, "partial")
	for _, w := range want {
		if !used[w] {
			t.Errorf("the sample scenario uses no %s", w)
		}
	}
	kinds := map[string]bool{}
	for _, l := range sc.Leaders {
		kinds[l.Kind] = true
		if l.Cavalry {
			kinds["cavalry"] = true
		}
	}
	for _, k := range append(slices.Clone(leaderKinds), "cavalry") {
		if !kinds[k] {
			t.Errorf("the sample scenario has no %s leader", k)
		}
	}
	types := map[string]int{}
	for _, u := range sc.Units {
		types[u.Side+" "+u.Type]++
	}
	for _, k := range []string{"USA inf", "USA cav", "USA art", "CSA inf", "CSA cav", "CSA art"} {
		if types[k] == 0 {
			t.Errorf("the sample scenario has no %s unit", k)
		}
	}
	fords, bridges := 0, 0
	for _, s := range m.Sides {
		if m.River(s.Side) && slices.Contains(s.Features, Ford) {
			fords++
		}
		if m.River(s.Side) && slices.Contains(s.Features, Bridge) {
			bridges++
		}
	}
	if fords < 2 || bridges < 1 {
		t.Errorf("%d fords and %d bridges on rivers, want 2 and 1 at least", fords, bridges)
	}
	if len(sc.Tables.Notes) == 0 || !strings.HasPrefix(sc.Tables.Notes[0], "SAMPLE TABLE") {
		t.Errorf("the sample tables are not marked as sample: %v", sc.Tables.Notes)
	}
}

// base is a valid scenario the error cases change one line of.
const base = `scenario Errors
game SSR
turns 2
[map]
hexes 0101 0505
default clear
0303 woods
0505 partial
0204/0304 river-minor
road 0101 0102
[units]
USA AA "Able" inf XX str=5 at=0202 in=I
USA CV "Cav" cav XX str=3 at=0203 in=C
CSA ZZ "Zulu" inf XX str=5 at=0404 in=Z
[leaders]
USA LEAD "Leader" corps cmd=2 tac=2 commands=I with=AA
`

func scenarioErr(t *testing.T, text string) string {
	t.Helper()
	_, err := ParseScenario([]byte(text))
	if err == nil {
		t.Fatalf("accepted:\n%s", text)
	}
	return err.Error()
}

func TestScenarioBaseIsValid(t *testing.T) {
	if _, err := ParseScenario([]byte(base)); err != nil {
		t.Fatal(err)
	}
}

// scenarioCase replaces old by new in base and wants an error naming line
// and containing want.
type scenarioCase struct {
	name, old, new, want string
}

func runScenarioCases(t *testing.T, cases []scenarioCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(base, tc.old) {
				t.Fatalf("base has no %q", tc.old)
			}
			err := scenarioErr(t, strings.Replace(base, tc.old, tc.new, 1))
			if !strings.Contains(err, tc.want) {
				t.Errorf("error %q, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestScenarioErrors(t *testing.T) {
	runScenarioCases(t, []scenarioCase{
		{"unknown game", "game SSR", "game XYZ", "line 2: unknown game \"XYZ\""},
		{"unknown setting", "turns 2", "turns 2\nweather rain", "line 4: unknown setting \"weather\""},
		{"unknown option", "turns 2", "turns 2\noption nightfall", "line 4: unknown option \"nightfall\""},
		{"field works", "turns 2", "turns 2\noption field-works", "5.2.2c"},
		{"no turns", "turns 2\n", "", "no turns line"},
		{"unknown terrain", "0303 woods", "0303 jungle", "line 7: hex 0303: \"jungle\" is not a terrain type"},
		{"hex off the map", "0303 woods", "0606 woods", "line 7: hex 0606 is outside the map"},
		{"hex twice", "0303 woods", "0303 woods\n0303 hill", "line 8: hex 0303 is described twice (first at line 7)"},
		{"route not adjacent", "road 0101 0102", "road 0101 0103", "line 10: road: 0101 and 0103 are not adjacent"},
		{"ford without river", "0204/0304 river-minor", "0204/0304 ford", "line 9: hexside 0204/0304 has a ford but no river"},
		{"bridge without route", "0204/0304 river-minor", "0204/0304 river-minor bridge", "line 9: hexside 0204/0304 has a bridge but no pike, road, trail or railroad crosses it"},
		{"route across a river", "road 0101 0102", "road 0101 0102\nroad 0204 0304", "line 11: the road crosses the river at 0204/0304 without a bridge, ford, ferry or dam"},
		{"both rivers", "0204/0304 river-minor", "0204/0304 river-minor river-major", "line 9: a hexside is a major or a minor river, not both"},
		{"unit type", `"Able" inf`, `"Able" dragoon`, "line 12: unit type \"dragoon\""},
		{"unit twice", `CSA ZZ "Zulu"`, `CSA AA "Zulu"`, "line 14: code AA is used twice (first at line 12)"},
		{"unknown key", "str=5 at=0202 in=I", "str=5 at=0202 in=I speed=4 range=2", "line 12: unit AA: unknown key range= (keys: str, tac, art, fatigue, at, in); unknown key speed="},
		{"leader with enemy", "with=AA", "with=ZZ", "with=ZZ is a CSA unit"},
		{"leader commands nobody", "commands=I with=AA", "commands=IX with=AA", "stacked with a unit it commands"},
		{"tables unknown", "turns 2", "turns 2\ntables nowhere", "no table file \"nowhere\""},
		{"TEC bad cost", "[leaders]", "[terrain-effects]\nclear 1 x 1\n[leaders]", "\"x\" is not a cost"},
		{"EM table gap", "[leaders]", "[extended-march]\ncolumns O1-4 D1-21\n<=1 NE NE\n>=2 D D\n[leaders]", "organized columns cover Manpower 5 0 times"},
		{"EM table open ends", "[leaders]", "[extended-march]\ncolumns O1-21 D1-21\n1 NE NE\n2 D D\n[leaders]", "must start with an \"or less\" row"},
		{"EM bad DRM", "[leaders]", "[extended-march]\ncolumns O1-21 D1-21\n<=1 NE NE\n>=2 D D\ndrm +1 moon=full\n[leaders]", "unknown DRM condition"},
		{"GTC campaign die", "game SSR", "game GTC\noption record-initiative-die", "R7"},
	})
}

func TestScenarioUnitOnWater(t *testing.T) {
	b := strings.Replace(strings.Replace(base, "0303 woods", "0303 water", 1), "at=0404 in=Z", "at=0303 in=Z", 1)
	if err := scenarioErr(t, b); !strings.Contains(err, "line 14: unit ZZ: at=0303 is a water hex") {
		t.Errorf("%v", err)
	}
}

// GCACW 2a: two sides, Union and Confederacy.
func TestGCACW_2a_TwoSides(t *testing.T) {
	runScenarioCases(t, []scenarioCase{{"unit side", `USA AA "Able"`, `UK AA "Able"`, "the sides are USA and CSA (GCACW 2a)"}})
	_, err := New().Setup([]byte(base), []events.Player{{ID: "x", Side: "UK"}})
	if err == nil || !strings.Contains(err.Error(), "GCACW 2a") {
		t.Errorf("a player on side UK: %v", err)
	}
}

// GCACW 2.2e: squadrons are Union only, demi-divisions Confederate only.
func TestGCACW_2_2e_UnitSizes(t *testing.T) {
	runScenarioCases(t, []scenarioCase{
		{"Confederate squadron", `"Zulu" inf XX`, `"Zulu" inf II`, "squadrons (II) are Union only (GCACW 2.2e)"},
		{"Union demi-division", `"Able" inf XX`, `"Able" inf X+`, "demi-divisions (X+) are Confederate only (GCACW 2.2e)"},
		{"no size", `"Able" inf XX`, `"Able" inf`, "give the unit's size"},
	})
	for _, ok := range []string{`"Zulu" inf X+`, `"Zulu" inf III`, `"Zulu" inf X`} {
		if _, err := ParseScenario([]byte(strings.Replace(base, `"Zulu" inf XX`, ok, 1))); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}

// GCACW 2.2g: infantry, cavalry, artillery.
func TestGCACW_2_2g_UnitTypes(t *testing.T) {
	for _, typ := range UnitTypes {
		if _, err := ParseScenario([]byte(strings.Replace(base, `"Zulu" inf`, `"Zulu" `+typ, 1))); err != nil {
			t.Errorf("%s: %v", typ, err)
		}
	}
	runScenarioCases(t, []scenarioCase{{"trains", `"Zulu" inf`, `"Zulu" train`, "the types are inf, cav, art (GCACW 2.2g)"}})
}

// GCACW 2.2o: Strength markers 1 to 21, capped by the game.
func TestGCACW_2_2o_MaximumStrength(t *testing.T) {
	for _, tc := range []struct {
		game string
		max  int
	}{{"RTG", 17}, {"SIV", 8}, {"OTR", 21}, {"BAC", 14}, {"AGA", 7}, {"AIO", 16}, {"HSN", 11}, {"GTC", 8}, {"SJW", 8}, {"SSR", 8}} {
		if got := maxStrength(tc.game); got != tc.max {
			t.Errorf("%s: max %d, want %d", tc.game, got, tc.max)
		}
		at := strings.Replace(strings.Replace(base, "game SSR", "game "+tc.game, 1), "str=5 at=0202", "str="+itoa(tc.max)+" at=0202", 1)
		if _, err := ParseScenario([]byte(at)); err != nil {
			t.Errorf("%s: strength %d: %v", tc.game, tc.max, err)
		}
		over := strings.Replace(at, "str="+itoa(tc.max)+" at=0202", "str="+itoa(tc.max+1)+" at=0202", 1)
		if err := scenarioErr(t, over); !strings.Contains(err, "GCACW 2.2o") {
			t.Errorf("%s: strength %d: %v", tc.game, tc.max+1, err)
		}
	}
	runScenarioCases(t, []scenarioCase{{"zero", "str=5 at=0202", "str=0 at=0202", "str=0: want a number from 1"}})
}

func itoa(n int) string { return strconv.Itoa(n) }

// GCACW 2.2p: five fatigue levels, 0 to 4.
func TestGCACW_2_2i_2_2p_FatigueAndExhausted(t *testing.T) {
	runScenarioCases(t, []scenarioCase{{"fatigue 5", "in=Z", "in=Z fatigue=5", "fatigue=5: want a number from 0 to 4 (GCACW 2.2p)"}})
	b := strings.Replace(base, "in=Z", "in=Z fatigue=4 exhausted disorganized", 1)
	sc, err := ParseScenario([]byte(b))
	if err != nil {
		t.Fatal(err)
	}
	z := newState(sc).unit("ZZ")
	if z.Fatigue != 4 || !z.Exhausted || !z.Disorganized {
		t.Errorf("ZZ: %+v", z)
	}
}

// GCACW 2.2j: a leader never stands alone; it is stacked with a unit it
// commands.
func TestGCACW_2_2j_LeaderStackedWithSubordinate(t *testing.T) {
	runScenarioCases(t, []scenarioCase{
		{"no with", "commands=I with=AA", "commands=I", "with= is missing"},
		{"not subordinate", "commands=I with=AA", "commands=I with=CV", "must be stacked with a unit it commands (GCACW 2.2j)"},
		{"unknown unit", "with=AA", "with=QQ", "with=QQ is not a unit"},
	})
}

// GCACW 2.2k: Army Leaders have one value, stand with infantry, and are
// absent from SIV and AGA.
func TestGCACW_2_2k_ArmyLeaders(t *testing.T) {
	army := strings.Replace(base, "corps cmd=2 tac=2 commands=I with=AA", "army cmd=4 commands=I with=AA", 1)
	if _, err := ParseScenario([]byte(army)); err != nil {
		t.Fatal(err)
	}
	for _, g := range []string{"SIV", "AGA"} {
		if err := scenarioErr(t, strings.Replace(army, "game SSR", "game "+g, 1)); !strings.Contains(err, g+" has no Army Leaders (GCACW 2.2k)") {
			t.Errorf("%s: %v", g, err)
		}
	}
	if err := scenarioErr(t, strings.Replace(army, "cmd=4", "cmd=4 tac=2", 1)); !strings.Contains(err, "only a Command value (GCACW 2.2k)") {
		t.Errorf("army leader with a tactical value: %v", err)
	}
	cav := strings.Replace(strings.Replace(army, "commands=I with=AA", "commands=C with=CV", 1), `in=C`, `in=C/I`, 1)
	if err := scenarioErr(t, cav); !strings.Contains(err, "must be assigned to infantry (GCACW 2.2k, 2.2l), not cavalry") {
		t.Errorf("army leader on cavalry: %v", err)
	}
}

// GCACW 2.2l: District Leaders stand with infantry.
func TestGCACW_2_2l_DistrictLeaders(t *testing.T) {
	d := strings.Replace(base, "corps cmd=2", "district cmd=2", 1)
	if _, err := ParseScenario([]byte(d)); err != nil {
		t.Fatal(err)
	}
	onCav := strings.Replace(d, "commands=I with=AA", "commands=C with=CV", 1)
	if err := scenarioErr(t, onCav); !strings.Contains(err, "district leader must be assigned to infantry") {
		t.Errorf("district leader on cavalry: %v", err)
	}
	if err := scenarioErr(t, strings.Replace(d, "with=AA", "with=AA cavalry", 1)); !strings.Contains(err, "cannot be a cavalry leader") {
		t.Errorf("cavalry district leader: %v", err)
	}
}

// GCACW 2.2m: corps and division leaders stand with a unit of their
// formation, of any type.
func TestGCACW_2_2m_CorpsAndDivisionLeaders(t *testing.T) {
	for _, k := range []string{"corps", "division"} {
		onCav := strings.Replace(base, "corps cmd=2 tac=2 commands=I with=AA", k+" cmd=2 tac=2 commands=C with=CV cavalry", 1)
		if _, err := ParseScenario([]byte(onCav)); err != nil {
			t.Errorf("%s leader on cavalry: %v", k, err)
		}
	}
	runScenarioCases(t, []scenarioCase{{"no tactical value", "cmd=2 tac=2", "cmd=2", "tac= is missing"}})
}

// GCACW 2.3d: one terrain type per hex; GCACW 2.3a: the nine types.
func TestGCACW_2_3d_OneTerrainPerHex(t *testing.T) {
	runScenarioCases(t, []scenarioCase{{"two types", "0303 woods", "0303 woods hill", "a hex counts as the type that dominates it (GCACW 2.3d)"}})
	for _, tt := range TerrainTypes {
		if _, err := ParseScenario([]byte(strings.Replace(base, "0303 woods", "0303 "+tt, 1))); err != nil {
			t.Errorf("GCACW 2.3a %s: %v", tt, err)
		}
	}
}

// GCACW 2.3e: partial hexes are off the map.
func TestGCACW_2_3e_PartialHexesOffMap(t *testing.T) {
	runScenarioCases(t, []scenarioCase{{"unit on a partial hex", "at=0404 in=Z", "at=0505 in=Z", "at=0505 is not a playable hex of the map (GCACW 2.3e)"}})
	sc, _ := ParseScenario([]byte(base))
	if sc.Map.OnMap(hex.MustParse("0505")) || !sc.Map.OnMap(hex.MustParse("0504")) || sc.Map.OnMap(hex.MustParse("0606")) {
		t.Errorf("OnMap: partial 0505 %v, 0504 %v, outside 0606 %v", sc.Map.OnMap(hex.MustParse("0505")), sc.Map.OnMap(hex.MustParse("0504")), sc.Map.OnMap(hex.MustParse("0606")))
	}
}

// GCACW 2.3h: a woods hexside touches at least one woods hex.
func TestGCACW_2_3h_WoodsHexside(t *testing.T) {
	sc, _ := ParseScenario([]byte(base))
	for _, tc := range []struct {
		a, b string
		want bool
	}{{"0303", "0304", true}, {"0302", "0303", true}, {"0203", "0303", true}, {"0101", "0102", false}, {"0404", "0405", false}} {
		s, _ := hex.Between(hex.MustParse(tc.a), hex.MustParse(tc.b))
		if got := sc.Map.WoodsHexside(s); got != tc.want {
			t.Errorf("%s: woods hexside %v, want %v", s, got, tc.want)
		}
	}
}
