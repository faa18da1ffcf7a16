package gcacw

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/hex"
)

// GCACW 2.2d: Union infantry carries a numeric division designation, for
// information only: it is kept with the unit (div=), only Union infantry
// may have one, and no rule reads it.
func TestGCACW_2_2d_UnionDivisionDesignation(t *testing.T) {
	sc, err := ParseScenario([]byte(strings.Replace(base, "str=5 at=0202 in=I", "str=5 at=0202 in=I div=3", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if u := newState(sc).unit("AA"); u.Div != 3 {
		t.Errorf("Able's division designation %d, want 3 (the third division of its corps)", u.Div)
	}
	if u := newState(sc).unit("ZZ"); u.Div != 0 {
		t.Errorf("Zulu has division designation %d, want none", u.Div)
	}
	runScenarioCases(t, []scenarioCase{
		{"Confederate infantry", "str=5 at=0404 in=Z", "str=5 at=0404 in=Z div=1", "unit ZZ: div=: only Union infantry carries a numeric division designation (GCACW 2.2d)"},
		{"Union cavalry", "str=3 at=0203 in=C", "str=3 at=0203 in=C div=1", "unit CV: div=: only Union infantry carries a numeric division designation (GCACW 2.2d)"},
		{"not a number", "str=5 at=0202 in=I", "str=5 at=0202 in=I div=x", "unit AA: div=x: want a number from 1 to 99 (GCACW 2.2d)"},
		{"zero", "str=5 at=0202 in=I", "str=5 at=0202 in=I div=0", "div=0: want a number from 1 to 99 (GCACW 2.2d)"},
	})

	// Information only: the same march rolls the same dice and gives the
	// same facts with or without a designation, and a division leader does
	// not command a unit because of its number (command follows in=).
	run := func(div string) string {
		h := newHarness(t, scn{units: `USA A "Able" inf XX str=5 at=0505 in=I/I-3` + div + `
USA B "Baker" inf XX str=4 at=0507 in=I/I-2 div=2
CSA Z "Zulu" inf X str=3 at=1010 in=Z`,
			leaders: `USA D "Dane" division cmd=2 tac=2 commands=I-2 with=B`,
			tables:  flatTEC + emTable("")}.bytes())
		h.start(5, 2)
		mustContain(t, "ACTIVATE Dane: Able", problemsText(h.reject(USA, "ACTIVATE Dane: Able 0504")), "Able is not under Dane's command (Dane commands I-2)")
		dec := h.do(USA, "MARCH Able 0504 0503", "march MA A=4", "initiative USA=1", "initiative CSA=2")
		if u := h.unit("A"); u.Hex.String() != "0503" || u.Fatigue != 1 {
			t.Errorf("div %q: Able at %s fatigue %d, want 0503 and 1", div, u.Hex, u.Fatigue)
		}
		return factList(dec.Facts)
	}
	without, with3, with2 := run(""), run(" div=3"), run(" div=2")
	if without != with3 || without != with2 {
		t.Errorf("the division designation changed the march:\nwithout:\n%s\ndiv=3:\n%s\ndiv=2:\n%s", without, with3, with2)
	}
}

// GCACW 2.2h: a unit has two printed values, the Tactical value and the
// Artillery value, read separately from its line.
func TestGCACW_2_2h_TacticalAndArtilleryValues(t *testing.T) {
	for _, tc := range []struct {
		keys     string
		tac, art int
	}{
		{"tac=3 art=2", 3, 2},
		{"art=2 tac=3", 3, 2},
		{"tac=0 art=4", 0, 4},
		{"tac=5", 5, 0},
		{"", 0, 0},
	} {
		sc, err := ParseScenario([]byte(strings.Replace(base, "str=5 at=0202 in=I", "str=5 "+tc.keys+" at=0202 in=I", 1)))
		if err != nil {
			t.Errorf("%q: %v", tc.keys, err)
			continue
		}
		u := newState(sc).unit("AA")
		if u.Tactical != tc.tac || u.Artillery != tc.art {
			t.Errorf("%q: Tactical %d Artillery %d, want %d and %d", tc.keys, u.Tactical, u.Artillery, tc.tac, tc.art)
		}
		if u.Manpower != 5 {
			t.Errorf("%q: the printed values changed the Strength marker: Manpower %d", tc.keys, u.Manpower)
		}
	}
	runScenarioCases(t, []scenarioCase{
		{"bad tactical", "str=5 at=0202 in=I", "str=5 tac=x at=0202 in=I", "unit AA: tac=x: want a number from 0 to 99"},
		{"negative artillery", "str=5 at=0202 in=I", "str=5 art=-1 at=0202 in=I", "art=-1: want a number from 0 to 99"},
	})
}

// GCACW 2.3a: every hex is one of the nine main terrain types (plus the
// water hexes of Ambiguity A21); anything else is refused.
func TestGCACW_2_3a_NineTerrainTypes(t *testing.T) {
	nine := []string{"clear", "rolling", "rough", "woods", "city", "swamp", "provisional-swamp", "hill", "mountain"}
	if !slices.Equal(TerrainTypes[:9], nine) || len(TerrainTypes) != 10 || TerrainTypes[9] != Water {
		t.Errorf("TerrainTypes = %v, want the nine of 2.3a then water", TerrainTypes)
	}
	for _, tt := range nine {
		sc, err := ParseScenario([]byte(strings.Replace(base, "0303 woods", "0303 "+tt, 1)))
		if err != nil {
			t.Errorf("%s: %v", tt, err)
			continue
		}
		if got := sc.Map.Terrain(hex.MustParse("0303")); got != tt {
			t.Errorf("0303 %s reads as %q", tt, got)
		}
		// Hexes with no line take the default terrain.
		if got := sc.Map.Terrain(hex.MustParse("0304")); got != Clear {
			t.Errorf("0304 (default) reads as %q, want clear", got)
		}
	}
	runScenarioCases(t, []scenarioCase{
		{"jungle", "0303 woods", "0303 jungle", "hex 0303: \"jungle\" is not a terrain type (clear, rolling, rough, woods, city, swamp, provisional-swamp, hill, mountain, water)"},
		{"permanent swamp spelled out", "0303 woods", "0303 permanent-swamp", "\"permanent-swamp\" is not a terrain type"},
	})
}

// tec2 is a Terrain Effects Chart with a different cost for every terrain
// type and unit type (infantry, cavalry, artillery), so a wrong row or
// column shows.
const tec2 = `[terrain-effects]
clear 1 1 1
rolling 2 1 2
rough 3 2 4
woods 4 3 5
city 1 2 3
swamp 5 6 P
provisional-swamp 4 5 6
hill 3 4 5
mountain 6 7 P
water P P P
river-major P P P
river-minor P P P
creek +1 +2 +3
ridge +2 +1 +2
ford +1 +2 +3
ferry +2 +3 +4
dam +1 +1 +1
bridge 0 0 0
county-border 0 0 0
village +1 +1 +2
rr-station 0 0 0
landing 0 0 0
redoubt +2 +2 +2
pike 1 1 1
road 1 1 2
trail 2 1 3
railroad 1 1 1
`

// costScn puts Able (infantry), Custer (cavalry) and Knox (artillery) on
// 0505 and gives 0506, the hex south of it, the terrain and features
// given.
func costScn(t *testing.T, mapL string) *harness {
	t.Helper()
	return newHarness(t, scn{mapL: mapL, units: `USA A "Able" inf X str=5 at=0505 in=I
USA C "Custer" cav X str=3 at=0505 in=I
USA K "Knox" art X str=2 at=0505 in=I
CSA Z "Zulu" inf X str=3 at=1010 in=Z`, tables: tec2}.bytes())
}

// stepTo returns what each of Able, Custer and Knox pays to enter 0506
// from 0505, "P" when prohibited.
func stepTo(h *harness, to string) string {
	var out []string
	for _, id := range []string{"A", "C", "K"} {
		c, known, why := h.st.stepCost(h.unit(id), hex.MustParse("0505"), hex.MustParse(to))
		switch {
		case why != "":
			out = append(out, "P")
		case !known:
			out = append(out, "?")
		default:
			out = append(out, fmt.Sprint(c))
		}
	}
	return strings.Join(out, " ")
}

// GCACW 2.3b: a unit pays the chart's cost of the terrain type of the hex
// it enters, by unit type.
func TestGCACW_2_3b_TerrainCostFromChart(t *testing.T) {
	for _, tc := range []struct{ terrain, want string }{
		{Clear, "1 1 1"},
		{Rolling, "2 1 2"},
		{Rough, "3 2 4"},
		{Woods, "4 3 5"},
		{City, "1 2 3"},
		{Swamp, "5 6 P"},
		{ProvisionalSwamp, "4 5 6"},
		{Hill, "3 4 5"},
		{Mountain, "6 7 P"},
	} {
		h := costScn(t, "0506 "+tc.terrain)
		if got := stepTo(h, "0506"); got != tc.want {
			t.Errorf("entering %s: inf cav art pay %s, want %s", tc.terrain, got, tc.want)
		}
		// The cost is that of the hex entered, not of the hex left.
		if got := stepTo(h, "0504"); got != "1 1 1" {
			t.Errorf("leaving %s into clear: %s, want 1 1 1", tc.terrain, got)
		}
	}
	// The refusal the player sees for a prohibited hex.
	h := costScn(t, "0506 mountain")
	_, _, why := h.st.stepCost(h.unit("K"), hex.MustParse("0505"), hex.MustParse("0506"))
	mustContain(t, "artillery into mountain", why, "0506: mountain is prohibited to artillery off a road (Terrain Effects Chart)")

	// In a march: rough (3) then rolling (2) costs Able 5 MP; with 5 it
	// gets there, with 4 it stops in the rough hex.
	for _, tc := range []struct {
		ma        int
		hex, stop string
		mp        int64
	}{
		{5, "0507", "end of path, all MP spent", 5},
		{4, "0506", "out of MP: 0507 costs 2, 1 left", 3},
	} {
		h := newHarness(t, scn{mapL: "0506 rough\n0507 rolling", units: `USA A "Able" inf X str=5 at=0505 in=I
CSA Z "Zulu" inf X str=3 at=1010 in=Z`, tables: tec2 + emTable("")}.bytes())
		h.start(5, 2)
		// Ambiguity A12: Union infantry MA is the die itself.
		dec := h.do(USA, "MARCH Able 0506 0507", fmt.Sprintf("march MA A=%d", tc.ma), "initiative USA=1", "initiative CSA=2")
		f := fact(t, dec, "unit.marched")
		if h.unit("A").Hex.String() != tc.hex || f.Int("mp") != tc.mp || f.Str("stopped") != tc.stop {
			t.Errorf("MA %d: %s, want at %s having spent %d (%s)", tc.ma, f, tc.hex, tc.mp, tc.stop)
		}
	}
	h = newHarness(t, scn{mapL: "0506 rough\n0507 woods", units: `USA C "Custer" cav X str=3 at=0505 in=I
CSA Z "Zulu" inf X str=3 at=1010 in=Z`, tables: tec2 + emTable("")}.bytes())
	h.start(5, 2)
	// Cavalry pays 2 + 3 = 5 of its 5 MP (2d6 = 2 + 3).
	dec := h.do(USA, "MARCH Custer 0506 0507", "march MA C=2", "march MA C=3", "initiative USA=1", "initiative CSA=2")
	if f := fact(t, dec, "unit.marched"); f.Int("mp") != 5 || h.unit("C").Hex.String() != "0507" {
		t.Errorf("cavalry through rough and woods: %s, want 5 MP to 0507", f)
	}
}

// GCACW 2.3f: the hexside features; they lie on the hexside (the hexes'
// terrain is unchanged) and their chart costs are paid on crossing.
func TestGCACW_2_3f_HexsideFeatures(t *testing.T) {
	want := []string{"river-major", "river-minor", "creek", "ridge", "ford", "bridge", "ferry", "dam", "county-border"}
	if !slices.Equal(HexsideFeatures, want) {
		t.Errorf("HexsideFeatures = %v, want %v", HexsideFeatures, want)
	}
	for _, tc := range []struct{ mapL, want string }{
		{"", "1 1 1"},
		{"0505/0506 creek", "2 3 4"},
		{"0505/0506 ridge", "3 2 3"},
		{"0505/0506 county-border", "1 1 1"},
		{"0505/0506 creek ridge", "4 4 6"},
		{"0505/0506 river-minor", "P P P"},
		{"0505/0506 river-major", "P P P"},
		{"0505/0506 river-minor ford", "2 3 4"},
		{"0505/0506 river-major ferry", "3 4 5"},
		{"0505/0506 river-major dam", "2 2 2"},
		{"0505/0506 river-minor ford ferry", "2 3 4"}, // the cheaper crossing
		{"0505/0506 river-minor bridge\nroad 0505 0506", "1 1 2"},
	} {
		h := costScn(t, tc.mapL)
		if got := stepTo(h, "0506"); got != tc.want {
			t.Errorf("%q: inf cav art pay %s, want %s", tc.mapL, got, tc.want)
		}
		if got := h.st.Scn.Map.Terrain(hex.MustParse("0506")); got != Clear {
			t.Errorf("%q: 0506 is %s, want clear", tc.mapL, got)
		}
		// The hexside next to it is not touched.
		if got := stepTo(h, "0605"); got != "1 1 1" {
			t.Errorf("%q: into 0605: %s", tc.mapL, got)
		}
	}
	h := costScn(t, "0505/0506 river-minor")
	_, _, why := h.st.stepCost(h.unit("A"), hex.MustParse("0505"), hex.MustParse("0506"))
	mustContain(t, "river without a crossing", why, "the minor river at 0505/0506 cannot be crossed here: the Terrain Effects Chart prohibits it (river-minor P), and there is no ford, ferry or dam, nor a bridge on a route")
	runScenarioCases(t, []scenarioCase{
		{"canal", "0204/0304 river-minor", "0204/0304 canal", "\"canal\" is not a hexside feature (river-major, river-minor, creek, ridge, ford, bridge, ferry, dam, county-border)"},
	})
}

// GCACW 2.3g: in-hex features (villages, RR stations, landings,
// redoubts; pikes, roads and trails as routes) leave the hex's terrain
// type, and what follows from it, as it is.
func TestGCACW_2_3g_InHexFeaturesKeepTerrain(t *testing.T) {
	if !slices.Equal(HexFeatures, []string{"village", "rr-station", "landing", "redoubt"}) || !slices.Equal(RouteKinds, []string{"pike", "road", "trail", "railroad"}) {
		t.Errorf("HexFeatures %v, RouteKinds %v", HexFeatures, RouteKinds)
	}
	for _, tc := range []struct{ mapL, want string }{
		{"0506 woods", "4 3 5"},
		{"0506 woods village", "5 4 7"},
		{"0506 woods rr-station", "4 3 5"},
		{"0506 woods landing", "4 3 5"},
		{"0506 woods redoubt", "6 5 7"},
		{"0506 woods village redoubt", "7 6 9"},
		// Along a route across the hexside the route's cost is paid
		// instead; the hex is still woods.
		{"0506 woods\nroad 0505 0506", "1 1 2"},
		{"0506 woods\ntrail 0505 0506", "2 1 3"},
		{"0506 woods\npike 0505 0506", "1 1 1"},
		// A road through the hex that does not cross this hexside does
		// not help.
		{"0506 woods\nroad 0406 0506", "4 3 5"},
	} {
		h := costScn(t, tc.mapL)
		m := &h.st.Scn.Map
		at := hex.MustParse("0506")
		if got := stepTo(h, "0506"); got != tc.want {
			t.Errorf("%q: inf cav art pay %s, want %s", tc.mapL, got, tc.want)
		}
		if got := m.Terrain(at); got != Woods {
			t.Errorf("%q: 0506 is %s, want woods", tc.mapL, got)
		}
		// Still woods for 2.3h: every hexside of 0506 is a woods hexside.
		for _, n := range at.Neighbors() {
			if s, _ := hex.Between(at, n); !m.WoodsHexside(s) {
				t.Errorf("%q: %s is not a woods hexside", tc.mapL, s)
			}
		}
	}
	// A village in a woods hex: the ZOC into it is still Restricted
	// (2.4e), as for any woods hex with no route across the hexside.
	h := costScn(t, "0506 woods village")
	if z := h.st.ZOCOf(USA, hex.MustParse("0506")); z != RestrictedZOC {
		t.Errorf("ZOC into a woods hex with a village: %s, want restricted", z)
	}
	if d, _ := h.st.Scn.Map.Hex(hex.MustParse("0506")); !slices.Equal(d.Features, []string{Village}) {
		t.Errorf("0506 features %v", d.Features)
	}
	// A mountain with an RR station is still a mountain: no ZOC into it
	// without a route (2.4c).
	h = costScn(t, "0506 mountain rr-station")
	if z := h.st.ZOCOf(USA, hex.MustParse("0506")); z != NoZOC {
		t.Errorf("ZOC into a mountain hex with an RR station: %s, want none", z)
	}
}

// GCACW 2.5a: the command radius is traced by the leader, from its own
// hex, to the unit it commands: not from another friendly unit, and it
// moves with the leader.
func TestGCACW_2_5a_RadiusTracedByLeader(t *testing.T) {
	const units = `USA A "Able" inf X str=5 at=0505 in=I
USA B "Baker" inf X str=4 at=0508 in=I
USA F "Far" inf X str=4 at=0509 in=I
USA N "Near" inf X str=4 at=0510 in=I
CSA Z "Zulu" inf X str=3 at=1010 in=Z`
	for _, tc := range []struct {
		with, unit, want string
	}{
		{"A", "A", ""}, // its own hex (2.5f)
		{"A", "B", ""}, // three hexes
		{"A", "F", "Far is not within Lyon's command radius (GCACW 2.5)"}, // four, though Baker is next to it
		{"A", "N", "Near is not within Lyon's command radius (GCACW 2.5)"},
		{"N", "F", ""}, // the leader with Near traces from 0510
		{"N", "A", "Able is not within Lyon's command radius (GCACW 2.5)"},
	} {
		h := newHarness(t, scn{units: units, leaders: `USA L "Lyon" corps cmd=2 tac=2 commands=I with=` + tc.with,
			tables: flatTEC + emTable("")}.bytes())
		got := h.st.mayActivate(h.st.leader("L"), h.unit(tc.unit))
		if got != tc.want {
			t.Errorf("Lyon with %s activating %s: %q, want %q", tc.with, tc.unit, got, tc.want)
		}
	}
	// What the player sees: the order is refused with that reason; after
	// the leader joins Near in the Leader Transfer Phase, Far can be named.
	h := newHarness(t, scn{options: "activation-march", units: units, leaders: `USA L "Lyon" corps cmd=2 tac=2 commands=I with=A`,
		tables: flatTEC + emTable("")}.bytes())
	h.start(5, 2)
	mustContain(t, "ACTIVATE Lyon: Far", problemsText(h.reject(USA, "ACTIVATE Lyon: Far 0608")), "Far is not within Lyon's command radius (GCACW 2.5)")
	h = newHarness(t, scn{options: "activation-march", units: units, leaders: `USA L "Lyon" corps cmd=2 tac=2 commands=I with=A`,
		tables: flatTEC + emTable("")}.bytes())
	h.do(USA, "TRANSFER Lyon TO Near")
	h.do(CSA, "PASS", "initiative USA=5", "initiative CSA=2")
	if l := h.st.leader("L"); l.With != "N" {
		t.Fatalf("Lyon is with %s, want N", l.With)
	}
	dec := h.do(USA, "ACTIVATE Lyon: Far 0608", "leader MA L=2", "initiative USA=1", "initiative CSA=2")
	if f := fact(t, dec, "unit.marched"); f.Str("unit") != "F" || strings.Join(f.Strs("path"), "-") != "0509-0608" {
		t.Errorf("%s", f)
	}
}

// emCase marches Able from fatigue from, exhausted or not, and reports
// whether the march was Extended: the fatigue_raised fact says so, and
// the Extended March die is rolled (the harness fails on an unused or
// missing die) and resolved on the table.
func emCase(t *testing.T, exhausted bool, from int) (extended bool, fatigue int64) {
	t.Helper()
	state := fmt.Sprintf("fatigue=%d", from)
	if exhausted {
		state += " exhausted"
	}
	h := newHarness(t, marchScn(`USA A "Able" inf X str=5 at=0505 in=I `+state, "", "", "").bytes())
	h.start(5, 2)
	rolls := []string{"march MA A=2"}
	if extendedMarch(exhausted, min(from+1, 4)) {
		rolls = append(rolls, "extended march A=4")
	}
	rolls = append(rolls, "initiative USA=1", "initiative CSA=2")
	dec := h.do(USA, "MARCH Able 0504", rolls...)
	f := fact(t, dec, "unit.fatigue_raised")
	resolved := len(facts(dec, "extended_march.resolved"))
	if f.Bool("extended") != (resolved == 1) {
		t.Errorf("%s, but %d Extended March results", f, resolved)
	}
	return f.Bool("extended"), f.Int("fatigue")
}

// GCACW 5.1-EM.1: a unit on its normal side is on an Extended March when
// its fatigue rises to 3 or 4, not to 1 or 2.
func TestGCACW_5_1_EM_1_NormalUnitExtendedAt3Or4(t *testing.T) {
	for _, tc := range []struct {
		from int
		to   int64
		want bool
	}{{0, 1, false}, {1, 2, false}, {2, 3, true}, {3, 4, true}} {
		ext, to := emCase(t, false, tc.from)
		if ext != tc.want || to != tc.to {
			t.Errorf("normal unit, fatigue %d to %d: extended %v, want %d and %v", tc.from, to, ext, tc.to, tc.want)
		}
	}
	for nf, want := range map[int]bool{1: false, 2: false, 3: true, 4: true} {
		if got := extendedMarch(false, nf); got != want {
			t.Errorf("extendedMarch(normal, %d) = %v, want %v", nf, got, want)
		}
	}
}

// GCACW 5.1-EM.2: an exhausted unit is on an Extended March when its
// fatigue rises to 2, 3 or 4, not to 1.
func TestGCACW_5_1_EM_2_ExhaustedUnitExtendedAt2To4(t *testing.T) {
	for _, tc := range []struct {
		from int
		to   int64
		want bool
	}{{0, 1, false}, {1, 2, true}, {2, 3, true}, {3, 4, true}} {
		ext, to := emCase(t, true, tc.from)
		if ext != tc.want || to != tc.to {
			t.Errorf("exhausted unit, fatigue %d to %d: extended %v, want %d and %v", tc.from, to, ext, tc.to, tc.want)
		}
	}
	for nf, want := range map[int]bool{1: false, 2: true, 3: true, 4: true} {
		if got := extendedMarch(true, nf); got != want {
			t.Errorf("extendedMarch(exhausted, %d) = %v, want %v", nf, got, want)
		}
	}
}

// GCACW 5.2b: no assault, no destroying of railroad stations and no rail
// movement during a Leader Activation; the order is refused, naming the
// word, and rolls no die.
func TestGCACW_5_2b_NotDuringLeaderActivation(t *testing.T) {
	for _, tc := range []struct {
		order, want string
		col         int
	}{
		{"ACTIVATE Lyon: Able 0504 ASSAULT 0503", "an assault cannot be performed during a Leader Activation (GCACW 5.2b)", 26},
		{"ACTIVATE Lyon: Able 0504; assault Baker", "an assault cannot be performed during a Leader Activation (GCACW 5.2b)", 27},
		{"ACTIVATE Lyon: Able 0504 DESTROY 0503", "railroad stations cannot be destroyed during a Leader Activation (GCACW 5.2b)", 26},
		{"ACTIVATE Lyon: Able RAIL 0909", "units cannot move by rail during a Leader Activation (GCACW 5.2b)", 21},
		{"ACTIVATE Lyon: Able 0504; Baker 0508 rail", "units cannot move by rail during a Leader Activation (GCACW 5.2b)", 38},
	} {
		h := newHarness(t, actScn("", "activation-march", "").bytes())
		h.start(5, 2)
		ps := h.reject(USA, tc.order)
		mustContain(t, tc.order, problemsText(ps), tc.want)
		if len(ps) == 0 || ps[0].Col != tc.col {
			t.Errorf("%s: problems %v, want the first at col %d", tc.order, ps, tc.col)
		}
	}
	// The same activation without the forbidden word is accepted.
	h := newHarness(t, actScn("", "activation-march", "").bytes())
	h.start(5, 2)
	dec := h.do(USA, "ACTIVATE Lyon: Able 0504; Baker 0508", "leader MA L=2", "initiative USA=1", "initiative CSA=2")
	if n := len(facts(dec, "unit.marched")); n != 2 {
		t.Errorf("%d marches, want 2", n)
	}
}

// R1 (GCACW 2.3b, 2.3f): the chart decides river crossings. Where its row
// for a river gives a cost, the river may be crossed anywhere at that
// cost (or more cheaply at a crossing); where it says P, only at a
// crossing; where the chart has no row for the river (or for anything
// else a step needs), the step is the referee's: the march goes as far as
// the chart allows and the referee rules the rest.
func TestR1_ChartDecidesRiverCrossings(t *testing.T) {
	withRow := func(row string) string {
		return strings.Replace(tec2, "river-minor P P P\n", row, 1)
	}
	for _, tc := range []struct {
		name, tables, mapL, want string
	}{
		{"the chart gives river-minor +2", withRow("river-minor +2 +3 P\n"), "0505/0506 river-minor", "3 4 P"},
		{"the chart prohibits it", tec2, "0505/0506 river-minor", "P P P"},
		{"a ford is cheaper than the river row", withRow("river-minor +2 +3 P\n"), "0505/0506 river-minor ford", "2 3 4"},
		{"the chart is silent on minor rivers", withRow(""), "0505/0506 river-minor", "? ? ?"},
		{"the chart is silent, but a ford crosses", withRow(""), "0505/0506 river-minor ford", "2 3 4"},
		{"the chart is silent on creeks", strings.Replace(tec2, "creek +1 +2 +3\n", "", 1), "0505/0506 creek", "? ? ?"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, scn{mapL: tc.mapL, units: `USA A "Able" inf X str=5 at=0505 in=I
USA C "Custer" cav X str=3 at=0505 in=I
USA K "Knox" art X str=2 at=0505 in=I
CSA Z "Zulu" inf X str=3 at=1010 in=Z`, tables: tc.tables}.bytes())
			if got := stepTo(h, "0506"); got != tc.want {
				t.Errorf("inf cav art pay %s, want %s", got, tc.want)
			}
		})
	}
	// A march that needs a row the chart lacks: it goes as far as the
	// chart allows, and the referee rules where it stops.
	h := newHarness(t, scn{mapL: "0503/0504 river-minor", units: `USA A "Able" inf X str=5 at=0505 in=I
CSA Z "Zulu" inf X str=3 at=1010 in=Z`, tables: withRow("") + emTable("")}.bytes())
	h.start(5, 2)
	h.do(USA, "MARCH Able 0504 0503 0502", "march MA A=4")
	p := h.st.Pending
	if p == nil || p.Step != StepMove || !strings.Contains(p.Note, "reached 0504 with 1 MP spent") || !strings.Contains(p.Note, "no row for river-minor") {
		t.Fatalf("pending %+v, want the referee to rule the march past 0504", p)
	}
	h.do(engine.RefereeSide, "RULE MARCH Able 0503", "initiative USA=5", "initiative CSA=2")
	if u := h.unit("A"); u.Hex.String() != "0503" {
		t.Errorf("Able at %s, want 0503 as ruled", u.Hex)
	}
}
