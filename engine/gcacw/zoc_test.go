package gcacw

import (
	"fmt"
	"slices"
	"testing"

	"pbem/engine/hex"
)

// zocScene puts a Union unit in 0505 and asks the ZOC it exerts into its
// south neighbour 0506 (side 0505/0506), with the map lines given.
func zocInto(t *testing.T, options, mapL string) ZOC {
	t.Helper()
	h := newHarness(t, scn{options: options, mapL: mapL, units: `USA A "Able" inf X str=3 at=0505
CSA Z "Zulu" inf X str=3 at=1010`}.bytes())
	return h.st.ZOCOf(USA, hex.MustParse("0506"))
}

// GCACW 2.4a: every military unit exerts a ZOC into the six adjacent
// hexes, whatever its status; leaders do not.
func TestGCACW_2_4a_EveryUnitExertsZOC(t *testing.T) {
	for _, status := range []string{"", "fatigue=4", "exhausted", "disorganized", "fatigue=4 exhausted disorganized"} {
		h := newHarness(t, scn{units: fmt.Sprintf(`USA A "Able" inf X str=3 at=0505 in=I %s
CSA Z "Zulu" inf X str=3 at=1010`, status), leaders: `USA L "Lee" corps cmd=1 tac=1 commands=I with=A`}.bytes())
		for _, n := range hex.MustParse("0505").Neighbors() {
			if z := h.st.ZOCOf(USA, n); z != NormalZOC {
				t.Errorf("status %q: ZOC in %s is %s, want normal", status, n, z)
			}
		}
		if z := h.st.ZOCOf(USA, hex.MustParse("0507")); z != NoZOC {
			t.Errorf("ZOC two hexes away: %s", z)
		}
		if z := h.st.ZOCOf(USA, hex.MustParse("0505")); z != NoZOC {
			t.Errorf("ZOC in the unit's own hex: %s", z)
		}
	}
	// A leader is not a military unit: moving the unit away leaves no ZOC
	// where the leader was.
	h := newHarness(t, scn{units: `USA A "Able" inf X str=3 at=0505 in=I
CSA Z "Zulu" inf X str=3 at=1010`, leaders: `USA L "Lee" corps cmd=1 tac=1 commands=I with=A`}.bytes())
	st, _ := h.st.withUnit("A", func(u *Unit) { u.Hex = hex.MustParse("0101") })
	if z := st.ZOCOf(USA, hex.MustParse("0506")); z != NoZOC {
		t.Errorf("ZOC from a leader's old hex: %s", z)
	}
}

// GCACW 2.4b: no ZOC across a major or minor river hexside except through
// a ford, dam, ferry or bridge.
func TestGCACW_2_4b_RiversBlockZOC(t *testing.T) {
	for _, tc := range []struct {
		mapL string
		want ZOC
	}{
		{"0505/0506 river-minor", NoZOC},
		{"0505/0506 river-major", NoZOC},
		{"0505/0506 river-minor ford", NormalZOC},
		{"0505/0506 river-major dam", NormalZOC},
		{"0505/0506 river-major ferry", NormalZOC},
		{"0505/0506 river-minor bridge\nroad 0505 0506", NormalZOC},
		{"0505/0506 creek", NormalZOC},
		{"0505/0506 ridge county-border", NormalZOC},
		{"0505/0506 river-minor ford\n0506 woods", RestrictedZOC},
	} {
		if got := zocInto(t, "", tc.mapL); got != tc.want {
			t.Errorf("%q: %s, want %s", tc.mapL, got, tc.want)
		}
	}
}

// GCACW 2.4c: ZOC extends into swamp and mountain only along a road,
// pike, railroad or trail (provisional swamp too with the scenario option:
// Ambiguity A20).
func TestGCACW_2_4c_SwampAndMountain(t *testing.T) {
	for _, tc := range []struct {
		opts, mapL string
		want       ZOC
	}{
		{"", "0506 swamp", NoZOC},
		{"", "0506 mountain", NoZOC},
		{"", "0506 swamp\nroad 0505 0506", NormalZOC},
		{"", "0506 mountain\ntrail 0505 0506", NormalZOC},
		{"", "0506 mountain\npike 0505 0506", NormalZOC},
		{"", "0506 swamp\nrailroad 0505 0506", NormalZOC},
		{"", "0506 swamp\nroad 0504 0505 0405", NoZOC}, // a road that does not connect the two
		{"", "0505 swamp", NormalZOC},                  // the unit's own hex does not matter
		{"", "0506 provisional-swamp", NormalZOC},
		{"provisional-swamp-blocks-zoc", "0506 provisional-swamp", NoZOC},
		{"provisional-swamp-blocks-zoc", "0506 provisional-swamp\nroad 0505 0506", NormalZOC},
	} {
		if got := zocInto(t, tc.opts, tc.mapL); got != tc.want {
			t.Errorf("%q %q: %s, want %s", tc.opts, tc.mapL, got, tc.want)
		}
	}
}

// GCACW 2.4d: never into water.
func TestGCACW_2_4d_NoZOCIntoWater(t *testing.T) {
	if got := zocInto(t, "", "0506 water"); got != NoZOC {
		t.Errorf("ZOC into water: %s", got)
	}
}

// GCACW 2.4e: across a woods hexside with no route, Restricted ZOC; it
// still counts as ZOC (here: for the command radius, 2.5d).
func TestGCACW_2_4e_RestrictedZOC(t *testing.T) {
	for _, tc := range []struct {
		mapL string
		want ZOC
	}{
		{"0506 woods", RestrictedZOC},
		{"0505 woods", RestrictedZOC},
		{"0505 woods\n0506 woods", RestrictedZOC},
		{"0506 woods\nroad 0505 0506", NormalZOC},
		{"0506 woods\npike 0505 0506", NormalZOC},
		{"0506 woods\nrailroad 0505 0506", NormalZOC},
		{"0506 woods\ntrail 0505 0506", NormalZOC},
		{"0506 woods\nroad 0506 0507", RestrictedZOC},
	} {
		if got := zocInto(t, "", tc.mapL); got != tc.want {
			t.Errorf("%q: %s, want %s", tc.mapL, got, tc.want)
		}
	}
}

// GCACW 2.4f: the derived order of the exceptions, hex by hex.
func TestGCACW_2_4f_DerivedAlgorithm(t *testing.T) {
	h := newHarness(t, scn{mapL: `0504 woods
0604 swamp
0605 water
0506 mountain
0405/0505 river-minor
0404 woods
0404/0505 river-minor ford
road 0505 0506`, units: `USA A "Able" inf X str=3 at=0505
CSA Z "Zulu" inf X str=3 at=1010`}.bytes())
	want := map[string]ZOC{
		"0504": RestrictedZOC, // N: woods hexside, no route
		"0604": NoZOC,         // NE: swamp, no route
		"0605": NoZOC,         // SE: water
		"0506": NormalZOC,     // S: mountain, but a road connects
		"0405": NoZOC,         // SW: river, no crossing
		"0404": RestrictedZOC, // NW: ford over the river, then a woods hexside
	}
	for i, n := range hex.MustParse("0505").Neighbors() {
		if got := h.st.ZOCOf(USA, n); got != want[n.String()] {
			t.Errorf("%s %s: %s, want %s", hex.Direction(i), n, got, want[n.String()])
		}
	}
}

func radiusHexes(t *testing.T, h *harness, side, from string) []string {
	t.Helper()
	r := h.st.CommandRadius(side, hex.MustParse(from))
	var out []string
	for _, x := range r.Hexes() {
		out = append(out, x.String())
	}
	slices.Sort(out)
	return out
}

// GCACW 2.5b, 2.5c, 2.5f: three hexes from the leader, terrain and
// hexsides ignored, the leader's own hex included.
func TestGCACW_2_5b_2_5c_2_5f_CommandRadiusThreeHexes(t *testing.T) {
	h := newHarness(t, scn{mapL: `0506 mountain
0505/0506 river-major
0405 water`, units: `USA A "Able" inf X str=3 at=0505
CSA Z "Zulu" inf X str=3 at=1010`}.bytes())
	r := h.st.CommandRadius(USA, hex.MustParse("0505"))
	for _, tc := range []struct {
		hex  string
		want bool
	}{
		{"0505", true},  // 2.5f: its own hex
		{"0506", true},  // 2.5c: across a river, into a mountain
		{"0405", true},  // 2.5c: water too (terrain has no effect)
		{"0508", true},  // three hexes
		{"0509", false}, // four
		{"0803", true},
		{"0802", false},
	} {
		if got := r.Contains(hex.MustParse(tc.hex)); got != tc.want {
			t.Errorf("%s within the radius of 0505: %v, want %v", tc.hex, got, tc.want)
		}
	}
}

// GCACW 2.5d, 2.5e, 2.5g: the path avoids enemy units and enemy ZOC,
// Restricted included, except hexes holding a friendly unit.
func TestGCACW_2_5d_2_5e_2_5g_CommandRadiusAvoidsEnemy(t *testing.T) {
	for _, tc := range []struct {
		name, mapL, units string
		in, out           []string
	}{
		{name: "enemy ZOC closes the way south",
			units: `CSA Z "Zulu" inf X str=3 at=0507`,
			in:    []string{"0505", "0405", "0605"},
			out:   []string{"0507", "0506", "0508", "0406", "0606"}},
		{name: "a friendly unit in enemy ZOC opens it (2.5e)",
			units: `CSA Z "Zulu" inf X str=3 at=0507
USA B "Baker" inf X str=3 at=0506`,
			in:  []string{"0506"},
			out: []string{"0507"}},
		{name: "Restricted ZOC also blocks",
			mapL:  "0506 woods",
			units: `CSA Z "Zulu" inf X str=3 at=0507`,
			out:   []string{"0506"}},
		{name: "no ZOC across a river",
			mapL:  "0506/0507 river-minor",
			units: `CSA Z "Zulu" inf X str=3 at=0507`,
			in:    []string{"0506"},
			out:   []string{"0507"}},
		{name: "partial hexes are off the map (2.3e)",
			mapL:  "0405 partial\n0406 partial\n0404 partial",
			units: `CSA Z "Zulu" inf X str=3 at=1010`,
			out:   []string{"0405", "0406", "0404"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, scn{mapL: tc.mapL, units: `USA A "Able" inf X str=3 at=0505
` + tc.units}.bytes())
			got := radiusHexes(t, h, USA, "0505")
			for _, x := range tc.in {
				if !slices.Contains(got, x) {
					t.Errorf("%s should be within the radius: %v", x, got)
				}
			}
			for _, x := range tc.out {
				if slices.Contains(got, x) {
					t.Errorf("%s should not be within the radius: %v", x, got)
				}
			}
		})
	}
}

// The board's ZOC marks (zocMap) are ZOCOf for every hex (GCACW 2.4a:
// the strongest any unit exerts).
func TestZOCMapIsZOCOfEveryHex(t *testing.T) {
	b, _ := Scenario("harrow-creek")
	h := newHarness(t, b)
	for _, side := range Sides {
		m := h.st.zocMap(side)
		for _, hd := range h.st.Scn.Map.Hexes {
			if got, want := m[hd.Hex], h.st.ZOCOf(side, hd.Hex); got != want {
				t.Errorf("%s in %s: map %s, ZOCOf %s", side, hd.Hex, got, want)
			}
		}
	}
}
