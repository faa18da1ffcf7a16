package gbacw

// Cases read against the seed where the first version read it otherwise:
// 14.2a and 14.3a, fire into the front (7.2, 13.1, 13.2), facing costs
// (7.4), stacking by arm (8.2, 10.3, 16.5) and hexsides that block (12.3).

import (
	"strings"
	"testing"
)

// --- 14.2a and 14.3a: a legal move is never made impossible ---

// TestGBACW_14_2a_FlankEnemyDoesNotForceShock: 14.2a binds only the
// units eligible to shock (14.2: an enterable enemy hex in the front).
// An Attack unit that moves next to an enemy standing in its flank
// cannot shock it, so it need not: its move is accepted.
func TestGBACW_14_2a_FlankEnemyDoesNotForceShock(t *testing.T) {
	h := shockField(t)
	h.put("U1a", "0504", "E") // moves SE into 0604, front 0704 and 0705
	h.put("C1a", "0605", "W") // 0605 is in 0604's flank, facing E
	h.activate(USA, "U Div")
	h.must(USA, "U1a: MOVE 0604")
	if u := h.u("U1a"); u.Hex.String() != "0604" || strings.Contains(h.facts(), "shock.declared") {
		t.Errorf("U1a at %s; want 0604 and no shock\n%s", u.Hex, h.facts())
	}
	// With the enemy in its front it must still shock.
	h = shockField(t)
	h.put("U1a", "0504", "E")
	h.put("C1a", "0705", "W")
	h.activate(USA, "U Div")
	h.refused(USA, "U1a: MOVE 0604", "must shock (14.2a)")
}

// TestGBACW_14_3a_OneShockTakesTwoDefenderHexes: a combination may
// attack more than one defender hex (14.3a: the attacker decides the
// combinations, and every enemy in the attackers' front is attacked),
// so a unit with two enemy hexes in its front shocks both at once.
func TestGBACW_14_3a_OneShockTakesTwoDefenderHexes(t *testing.T) {
	h := shockField(t)
	h.put("U1a", "0504", "E")
	h.put("C1a", "0704", "W")
	h.put("C1b", "0705", "W")
	h.activate(USA, "U Div")
	h.rolls = make([]int, 20)
	h.must(USA, "U1a: MOVE 0604\nU1a: SHOCK 0704 AND 0705")
	fs := h.facts()
	if strings.Count(fs, "shock.declared") != 1 || strings.Count(fs, "shock.resolved") != 1 {
		t.Fatalf("want one shock declared and resolved\n%s", fs)
	}
	for _, want := range []string{"C1a", "C1b"} {
		if !strings.Contains(fs[strings.Index(fs, "shock.resolved"):], want) {
			t.Errorf("the shock's defenders lack %s\n%s", want, fs)
		}
	}
	// One hex of the two alone leaves an enemy in the front unattacked.
	h = shockField(t)
	h.put("U1a", "0504", "E")
	h.put("C1a", "0704", "W")
	h.put("C1b", "0705", "W")
	h.activate(USA, "U Div")
	h.refused(USA, "U1a: MOVE 0604\nU1a: SHOCK 0704", "every enemy unit in the front")
}

// --- 7.2 with 13.1 and 13.2: fire only into the front ---

// TestGBACW_7_2_13_1_ReturnFireOnlyIntoTheFront: return fire answers
// the hex that fired (13.1) only if that hex is in the unit's front
// (7.2); a unit fired on from its flank must first turn by a reaction
// facing change (7.6), and if that fails (or it does not try) it does
// not fire back.
func TestGBACW_7_2_13_1_ReturnFireOnlyIntoTheFront(t *testing.T) {
	for _, tc := range []struct {
		name, face string
		rolls      []int
		want       int // return fires
	}{
		{"no facing change", "NEVER", []int{0, 0, 0, 0}, 0},
		{"a failed facing change", "ALWAYS", []int{9, 0, 0, 0}, 0},
		{"a facing change that succeeds", "ALWAYS", []int{0, 0, 0, 0}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := clearField(t, "", "U1a", "C1a")
			h.put("U1a", "0604", "E")   // front 0704 and 0705
			h.put("C1a", "0705", "SSW") // 0604 is in its flank (NW)
			h.standing(CSA, "RETURN FIRE C1a ALWAYS", "REACTION FACE C1a "+tc.face)
			h.activate(USA, "U Div")
			h.rolls = tc.rolls
			h.must(USA, "U1a: FIRE AT 0705")
			if n := strings.Count(h.facts(), "kind=return"); n != tc.want {
				t.Errorf("%d return fires, want %d\n%s", n, tc.want, h.facts())
			}
		})
	}
}

// TestGBACW_7_2_13_2_PreShockFireOnlyIntoTheFront: pre-shock fire
// (13.2, 14.3e) is at a shock attacker in the defender's front (7.2):
// an attacker at its flank draws none.
func TestGBACW_7_2_13_2_PreShockFireOnlyIntoTheFront(t *testing.T) {
	for _, tc := range []struct {
		facing string
		want   int
	}{
		{"SSW", 0}, // 0604 in C1a's flank
		{"W", 1},   // 0604 in C1a's front
	} {
		h := clearField(t, "", "U1a", "C1a")
		h.set("U1a ORDER attack")
		h.put("U1a", "0604", "E")
		h.put("C1a", "0705", tc.facing)
		h.standing(CSA, "PRE-SHOCK FIRE C1a ALWAYS")
		h.activate(USA, "U Div")
		h.rolls = make([]int, 10)
		h.must(USA, "U1a: SHOCK 0705")
		if n := strings.Count(h.facts(), "kind=pre-shock"); n != tc.want {
			t.Errorf("C1a facing %s: %d pre-shock fires, want %d\n%s", tc.facing, n, tc.want, h.facts())
		}
	}
}

// --- 7.4: facing costs ---

// TestGBACW_7_4_TwoPointsInOneHexCostOneMPHoweverTurned: a change of 2
// points or more in one hex costs 1 MP (7.4), whether made at once, as
// two separate turns of a point, or as a FACE and then the free point
// of a MOVE's start hex; once paid in a hex, it is paid.
func TestGBACW_7_4_TwoPointsInOneHexCostOneMPHoweverTurned(t *testing.T) {
	for _, tc := range []struct {
		name, orders string
		mp           int // half MP spent
	}{
		{"two points at once", "U1a: FACE SSW", 2},
		{"two FACEs of a point", "U1a: FACE SSE\nU1a: FACE SSW", 2},
		{"three FACEs of a point: paid once", "U1a: FACE SSE\nU1a: FACE SSW\nU1a: FACE W", 2},
		{"one point: free", "U1a: FACE SSE", 0},
		// 0305's SW neighbour is 0205: facing SSE it needs one more
		// point (SSW) to enter it; clear costs 1 MP (2 half MP).
		{"FACE then MOVE turning in the start hex", "U1a: FACE SSE\nU1a: MOVE 0205", 4},
		{"MOVE alone, one point", "U1a: FACE SSE\nU1a: MOVE 0306", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := clearField(t, "", "U1a")
			h.put("U1a", "0305", "E")
			h.activate(USA, "U Div")
			h.must(USA, tc.orders)
			if u := h.u("U1a"); u.MP != tc.mp {
				t.Errorf("U1a spent %s MP, want %s\n%s", halfMP(u.MP), halfMP(tc.mp), h.facts())
			}
		})
	}
}

// TestGBACW_7_4_PaidFaceDoesNotEndTheMove: the seed charges a paid
// facing change 1 MP (7.4) and nothing more: the unit may then move
// with the MP it has left (6.3 is one move at a time, not "a turn ends
// the move").
func TestGBACW_7_4_PaidFaceDoesNotEndTheMove(t *testing.T) {
	h := clearField(t, "", "U1a")
	h.put("U1a", "0305", "E")
	h.activate(USA, "U Div")
	h.must(USA, "U1a: FACE W\nU1a: MOVE 0205")
	if u := h.u("U1a"); u.Hex.String() != "0205" || u.MP != 4 {
		t.Errorf("U1a at %s having spent %s MP; want 0205 and 2 MP\n%s", u.Hex, halfMP(u.MP), h.facts())
	}
}

// TestGBACW_7_4_StackAboutFaceReversesTheStackOnce: an about-face in
// woods under Attack orders reverses the stack (7.4); the stack turning
// about, unit by unit, is reversed once, not once per unit.
func TestGBACW_7_4_StackAboutFaceReversesTheStackOnce(t *testing.T) {
	h := clearField(t, "", "U1a", "U1b")
	h.set("U1 ORDER attack", "U1a ORDER attack", "U1b ORDER attack")
	h.put("U1a", "0505", "E")
	h.put("U1b", "0505", "E")
	h.set("U1a STACK 0", "U1b STACK 1")
	h.activate(USA, "U Div")
	h.must(USA, "U1a: FACE W\nU1b: FACE W")
	if top := h.st.unitsAt(hexOf("0505"))[0].Name; top != "U1b" {
		t.Errorf("after the stack's about-face the top is %s, want U1b (reversed once)", top)
	}
	for _, n := range []string{"U1a", "U1b"} {
		if u := h.u(n); u.MP != 2 {
			t.Errorf("%s spent %s MP, want 1", n, halfMP(u.MP))
		}
	}
}

// --- 16.5 with 8.2 and 10.3: stacking by arm ---

// TestGBACW_16_5_8_2_DismountedCavalryStacksWithAFootBattery: dismounted
// cavalry counts as infantry (16.5), so it stacks with any battery
// (8.2); only mounted cavalry is held to horse artillery.
func TestGBACW_16_5_8_2_DismountedCavalryStacksWithAFootBattery(t *testing.T) {
	for _, tc := range []struct {
		mounted string
		want    string // "" accepted, else the refusal
	}{
		{"off", ""},
		{"on", "cavalry stacks only with horse artillery (8.2)"},
	} {
		h := clearField(t, "", "UCa", "U Bat")
		h.set("UCa MOUNTED " + tc.mounted)
		h.put("U Bat", "0305", "SSE")
		h.put("UCa", "0304", "SSE")
		h.activate(USA, "U Cav Div")
		if tc.want != "" {
			h.refused(USA, "UCa: MOVE 0305", tc.want)
			continue
		}
		h.must(USA, "UCa: MOVE 0305")
		if u := h.u("UCa"); u.Hex.String() != "0305" {
			t.Errorf("dismounted UCa at %s, want 0305 with the battery", u.Hex)
		}
	}
}

// TestGBACW_10_3_MarchStackDoesNotMixInfantryAndCavalry: a March stack
// does not mix arms (10.3): infantry and mounted cavalry of one brigade
// may not stack in March, even within the 4 SP of mounted cavalry.
func TestGBACW_10_3_MarchStackDoesNotMixInfantryAndCavalry(t *testing.T) {
	h := marchField(t, "U2b", "UCb")
	h.set("UCb ORDER march", "U2b SP 1")
	cav := *h.u("UCb") // 3 SP mounted; of U2b's brigade for the test
	cav.Brigade = "U2"
	if why := h.st.stackWhy([]*Unit{h.u("U2b"), &cav}); !strings.Contains(why, "mix") {
		t.Errorf("1 SP of infantry and 3 of mounted cavalry in March: %q, want no mixing of arms (10.3)", why)
	}
	// Dismounted, the cavalry is infantry (16.5): 4 SP of infantry stack.
	cav.Mounted = false
	if why := h.st.stackWhy([]*Unit{h.u("U2b"), &cav}); why != "" {
		t.Errorf("infantry and dismounted cavalry in March: %q", why)
	}
}

// TestGBACW_16_5_8_2_MountingWithAFootBatteryIsRefused: mounted, the
// cavalry of a stack with a foot battery would break 8.2 (stacking holds
// except while moving, 8.1): it may not mount there.
func TestGBACW_16_5_8_2_MountingWithAFootBatteryIsRefused(t *testing.T) {
	h := clearField(t, "", "UCa", "U Bat")
	h.set("UCa MOUNTED off")
	h.put("U Bat", "0305", "SSE")
	h.put("UCa", "0305", "SSE")
	h.activate(USA, "U Cav Div")
	h.refused(USA, "UCa: MOUNT", "cavalry stacks only with horse artillery (8.2)")
}

// --- 12.3: a hexside alone blocks ---

// TestGBACW_12_3_AHexsideBlocksAlsoAtTheFirersOrTargetsHex: a wall or
// crest hexside blocks line of sight by itself (12.3), and the seed
// makes no exception for a hexside that borders the firer's or the
// target's hex.
func TestGBACW_12_3_AHexsideBlocksAlsoAtTheFirersOrTargetsHex(t *testing.T) {
	h := clearField(t, "")
	for _, tc := range []struct{ a, b, what string }{
		// Lines straight along a row (no hex spine to go around by).
		{"0303", "0603", "the wall 0303/0403 at the firer's hex"},
		{"0603", "0303", "the wall 0303/0403 at the target's hex"},
		{"0303", "0403", "the wall 0303/0403 between two adjacent hexes"},
		{"0302", "0602", "the crest 0302/0402 at the firer's hex"},
		{"0602", "0302", "the crest 0302/0402 at the target's hex"},
	} {
		if h.st.los(hexOf(tc.a), hexOf(tc.b), losSight) {
			t.Errorf("LOS %s to %s across %s", tc.a, tc.b, tc.what)
		}
	}
	// Away from the hexsides the ground is open.
	if !h.st.los(hexOf("0305"), hexOf("0505"), losSight) {
		t.Error("no LOS 0305 to 0505 over open ground")
	}
}
