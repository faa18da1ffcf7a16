package gbacw

import (
	"strings"
	"testing"

	"pbem/engine/hex"
)

// nb is the neighbour of a hex in a direction, as printed.
func nb(h string, d hex.Direction) string { return hexOf(h).Neighbor(d).String() }

// clearField is the test field with every unit but those named removed,
// every reaction of both sides declined, and U Div activated.
func clearField(t *testing.T, opts string, keep ...string) *harness {
	t.Helper()
	h := newField(t, opts, "")
	for _, u := range h.st.Units {
		keepIt := false
		for _, k := range keep {
			keepIt = keepIt || k == u.Name
		}
		if !keepIt {
			h.set(u.Name + " REMOVED on")
		}
	}
	h.noReactions(USA)
	h.noReactions(CSA)
	return h
}

// --- 6 Movement ---

func TestGBACW_6_1_AdvanceOrdersUseRoadsInExtendedColumn(t *testing.T) {
	h := clearField(t, "", "U1a")
	h.put("U1a", "0603", "E")
	h.activate(USA, "U Div")
	h.must(USA, "U1a: MOVE 0703")
	u := h.u("U1a")
	if u.MP != 2 || !u.Extended {
		t.Errorf("into the woods 0703 along the road: %s MP, extended %v; want 1 MP (the road's), in Extended Column", halfMP(u.MP), u.Extended)
	}
}

func TestGBACW_6_1_TrailOnAdvanceOrdersRoundsUp(t *testing.T) {
	h := clearField(t, "", "U1a")
	h.put("U1a", "0410", "E")
	h.activate(USA, "U Div")
	h.must(USA, "U1a: MOVE 0510") // marsh, 3 MP: half of it, 1½, rounded up to 2
	if u := h.u("U1a"); u.MP != 4 {
		t.Errorf("along the trail into the marsh: %s MP, want 2", halfMP(u.MP))
	}
}

func TestGBACW_6_2_AttackOrdersHalveMAAndUseNoRoadsBridgesFords(t *testing.T) {
	h := clearField(t, "", "U1a")
	h.set("U1a ORDER attack")
	h.put("U1a", "0803", "E")
	h.activate(USA, "U Div")
	// Across the bridge on Attack orders: the stream's 2 MP as well as
	// the clear hex: 3 of its 3 (MA 6 halved).
	h.must(USA, "U1a: MOVE 0903")
	if u := h.u("U1a"); u.MP != 6 || u.Extended {
		t.Errorf("on Attack orders over the bridge: %s MP, want 3 (no bridge, no road)", halfMP(u.MP))
	}
	h2 := clearField(t, "", "U1a")
	h2.set("U1a ORDER attack")
	h2.put("U1a", "0103", "E")
	h2.activate(USA, "U Div")
	h2.refused(USA, "U1a: MOVE 0203 0303 0403 0503", "has 3 MP this phase")
}

func TestGBACW_6_3_UnitsMoveOneAtATime(t *testing.T) {
	h := clearField(t, "", "U1a", "U1b")
	h.put("U1a", "0306", "SSE")
	h.put("U1b", "0305", "SSE")
	h.activate(USA, "U Div")
	h.refused(USA, "U1a: MOVE 0307\nU1a: MOVE 0308", "each once")
	h.refused(USA, "U1a, U1b: MOVE 0307", "one unit at a time")
	// The second unit's move sees the first's: U1b may end in the hex
	// U1a has left.
	h.must(USA, "U1a: MOVE 0307 0308\nU1b: MOVE 0306 0307")
	if h.u("U1b").Hex.String() != "0307" || h.u("U1a").Hex.String() != "0308" {
		t.Errorf("U1a at %s, U1b at %s", h.u("U1a").Hex, h.u("U1b").Hex)
	}
}

func TestGBACW_6_4_AttackMAIsHalfRoundedUp(t *testing.T) {
	h := clearField(t, "", "U1a", "U Bat", "UCa")
	for _, tc := range []struct {
		unit string
		ma   int // printed
	}{{"U Bat", 5}, {"U1a", 6}, {"UCa", 10}} {
		h.set(tc.unit + " ORDER attack")
		if got, want := h.st.ma(h.u(tc.unit)), 2*((tc.ma+1)/2); got != want {
			t.Errorf("%s, MA %d on Attack orders: %s, want %s", tc.unit, tc.ma, halfMP(got), halfMP(want))
		}
	}
	// 7 -> 4.
	scn := strings.Replace(string(fieldScn("", "")), "sp 6 cohesion 6/4 ma 6/4   weapon rifle    hex 0101", "sp 6 cohesion 6/4 ma 7/4   weapon rifle    hex 0101", 1)
	h2 := newHarnessOf(t, "ma7", []byte(scn))
	h2.set("U1a ORDER attack")
	if got := h2.st.ma(h2.u("U1a")); got != 8 {
		t.Errorf("MA 7 on Attack orders: %s, want 4", halfMP(got))
	}
}

// --- 7 Facing ---

func TestGBACW_7_1_AUnitFacesAVertex(t *testing.T) {
	h := clearField(t, "", "U1a")
	h.put("U1a", "0505", "E")
	counts := map[hex.Sector]int{}
	for _, n := range hexOf("0505").Neighbors() {
		counts[sector(h.u("U1a"), n)]++
	}
	if counts[hex.Front] != 2 || counts[hex.Flank] != 2 || counts[hex.Rear] != 2 {
		t.Errorf("around a unit facing E: %v", counts)
	}
	if !inFront(h.u("U1a"), hexOf(nb("0505", hex.NE))) || !inFront(h.u("U1a"), hexOf(nb("0505", hex.SE))) {
		t.Error("the hexes across NE and SE are not in front of a unit facing E")
	}
}

func TestGBACW_7_2_MovesFiresAndShocksOnlyIntoItsFront(t *testing.T) {
	h := clearField(t, "", "U1a", "C1a")
	h.put("U1a", "0505", "E")
	h.put("C1a", "0305", "SSE") // two hexes west: three points from E
	h.activate(USA, "U Div")
	h.refused(USA, "U1a: FIRE AT 0305", "not in U1a's front")
	// Moving north-west means turning two points (1 MP, 7.4).
	h.set("C1a REMOVED on")
	h.must(USA, "U1a: MOVE "+nb("0505", hex.NW))
	if u := h.u("U1a"); u.MP != 2*(1+3) || u.Facing != int(hex.W) && u.Facing != int(hex.NNW) {
		t.Errorf("after a move into its rear: %s MP facing %v", halfMP(u.MP), hex.Vertex(u.Facing))
	}
	h2 := clearField(t, "", "U1a", "C1a")
	h2.set("U1a ORDER attack")
	h2.put("U1a", "0505", "E")
	h2.put("C1a", nb("0505", hex.N), "SSE")
	h2.activate(USA, "U Div")
	h2.refused(USA, "U1a: SHOCK "+nb("0505", hex.N), "shock only into their front")
}

func TestGBACW_7_3_FreeFacingChanges(t *testing.T) {
	// One point after each hex is free; firing turns a point for free.
	h := clearField(t, "", "U1a", "C1a")
	h.put("U1a", "0305", "SSE")
	h.put("C1a", "0705", "W")
	h.activate(USA, "U Div")
	h.must(USA, "U1a: MOVE "+nb("0305", hex.S)) // SSE has S in front: no turn
	if u := h.u("U1a"); u.MP != 2 {
		t.Fatalf("%s MP", halfMP(u.MP))
	}
	h3 := clearField(t, "", "U1a", "C1a")
	h3.put("U1a", "0505", "SSE")
	h3.put("C1a", nb(nb("0505", hex.NE), hex.NE), "W")
	h3.activate(USA, "U Div")
	h3.must(USA, "U1a: FIRE AT "+nb(nb("0505", hex.NE), hex.NE))
	if u := h3.u("U1a"); u.MP != 0 || u.Facing == int(hex.SSE) || u.Moved {
		t.Errorf("turned to fire: %s MP, facing %v, moved %v (7.3: one point to fire is free)", halfMP(u.MP), hex.Vertex(u.Facing), u.Moved)
	}
	// To and from March orders the unit turns free (to a side; back to a
	// vertex).
	h4 := clearField(t, "", "U1a")
	h4.put("U1a", "0505", "E")
	m := &sim{st: h4.st, dice: h4.dice}
	m.orderBrigade("U1", March, "test", true, -1)
	if u := m.st.unit("U1a"); u.Facing != int(hex.NE) || !u.onSide() {
		t.Errorf("to March orders facing E: %v", facingName(u.Facing, u.onSide()))
	}
	// Along a road turns are free.
	h5 := clearField(t, "", "U1a")
	h5.put("U1a", "0203", "W")
	h5.activate(USA, "U Div")
	h5.must(USA, "U1a: MOVE 0303")
	if u := h5.u("U1a"); u.MP != 2 {
		t.Errorf("an about-face along the road cost %s MP, want 1 (the road's hex alone)", halfMP(u.MP))
	}
}

func TestGBACW_7_4_PaidFacingChanges(t *testing.T) {
	h := clearField(t, "", "U1a")
	h.put("U1a", "0305", "E")
	h.activate(USA, "U Div")
	h.must(USA, "U1a: FACE W")
	// The seed charges the MP and nothing more: the turn is not a move
	// (see TestGBACW_7_4_PaidFaceDoesNotEndTheMove).
	if u := h.u("U1a"); u.MP != 2 || u.Moved {
		t.Errorf("three points in one hex: %s MP (want 1), counts as movement %v (want not)", halfMP(u.MP), u.Moved)
	}
	// An about-face in woods under Attack orders reverses the stack.
	h2 := clearField(t, "", "U1a", "U1b")
	h2.set("U1 ORDER attack", "U1a ORDER attack", "U1b ORDER attack")
	h2.put("U1a", "0505", "E")
	h2.put("U1b", "0505", "E")
	h2.set("U1a STACK 0", "U1b STACK 1")
	h2.activate(USA, "U Div")
	h2.must(USA, "U1a: FACE W")
	if top := h2.st.unitsAt(hexOf("0505"))[0].Name; top != "U1b" {
		t.Errorf("after the about-face in the woods the top is %s, want U1b", top)
	}
}

func TestGBACW_7_5_NoFacingChangeWhileRetreating(t *testing.T) {
	h := clearField(t, "", "U1a")
	h.put("U1a", "0505", "E")
	m := &sim{st: h.st, dice: h.dice}
	m.retreat(m.st.unit("U1a"), 2, "test")
	if u := m.st.unit("U1a"); u.Facing != int(hex.E) || hex.Distance(u.Hex, hexOf("0505")) != 2 {
		t.Errorf("after a retreat of 2: at %s facing %v", u.Hex, hex.Vertex(u.Facing))
	}
}

func TestGBACW_7_6_ReactionFacing(t *testing.T) {
	// An enemy moves next to a unit's flank: it turns a point, after a UDD.
	setup := func(extra ...string) *harness {
		h := clearField(t, "", "U1a", "U1b", "C1a")
		h.put("C1a", "0505", "E")
		h.put("U1a", "0503", "SSE")
		h.put("U1b", "0112", "SSE")
		h.set(append([]string{"U1a ORDER attack"}, extra...)...)
		h.standing(CSA, "REACTION FACE C1a ALWAYS")
		h.activate(USA, "U Div")
		return h
	}
	move := "U1a: MOVE 0504\nU1a: FIRE AT 0505"
	h := setup()
	h.rolls = []int{0, 0, 0, 0}
	h.must(USA, move)
	if h.u("C1a").Facing == int(hex.E) || !h.told("turns to face") {
		t.Errorf("C1a did not react:\n%s", h.facts())
	}
	// Fired on from its flank, it turns and may then return fire.
	h2 := clearField(t, "", "U1a", "C1a")
	h2.put("C1a", "0505", "E")
	h2.put("U1a", "0503", "SSE")
	h2.standing(CSA, "REACTION FACE C1a IF FIRED ON", "RETURN FIRE C1a ALWAYS")
	h2.activate(USA, "U Div")
	h2.rolls = []int{0, 0, 0, 0, 0, 0}
	h2.must(USA, "U1a: FIRE AT 0505")
	if !h2.told("turns to face") || !strings.Contains(h2.facts(), "kind=return") {
		t.Errorf("fired on from the flank: no reaction facing then return fire\n%s", h2.facts())
	}
	// A failed UDD: no turn.
	h3 := setup()
	h3.rolls = []int{9, 0, 0, 0}
	h3.must(USA, move)
	if h3.u("C1a").Facing != int(hex.E) {
		t.Error("C1a turned after failing its UDD")
	}
	// Not a refused or extended unit, nor one in the front hex of another
	// enemy unit (B13).
	for _, tc := range []struct{ name, setup string }{{"refused", "C1a REFUSED on"}, {"extended", "C1a EXTENDED on"},
		{"in another enemy's front", "U1b HEX " + nb("0505", hex.SW)}} {
		h := setup(tc.setup)
		if tc.name == "in another enemy's front" {
			h.set("U1b FACING NNE")
		}
		h.rolls = []int{0, 0, 0, 0}
		h.must(USA, move)
		if h.u("C1a").Facing != int(hex.E) {
			t.Errorf("a unit %s turned", tc.name)
		}
	}
}

// --- 8 Stacking ---

func TestGBACW_8_1_StackingLimitsHoldExceptDuringMovement(t *testing.T) {
	h := clearField(t, "", "U1a", "U1b", "U2a")
	h.put("U1a", "0305", "SSE")
	h.put("U1b", "0306", "SSE")
	h.put("U2a", "0307", "NNW")
	h.activate(USA, "U Div")
	// Passing through a friendly hex is fine; ending there over the
	// limit (another brigade's) is not.
	h.refused(USA, "U2a: MOVE 0306", "different brigades")
	// In a retreat they hold: the unit goes one hex further
	// (Displacement).
	h2 := clearField(t, "", "U1a", "U1b", "U2a")
	h2.put("U2a", "0505", "NNE")
	rear := nb("0505", hex.S)
	h2.put("U1a", rear, "NNE")
	m := &sim{st: h2.st, dice: h2.dice}
	m.retreat(m.st.unit("U2a"), 1, "test")
	if u := m.st.unit("U2a"); u.Hex.String() == rear || hex.Distance(u.Hex, hexOf("0505")) != 2 {
		t.Errorf("a retreat into a full hex went to %s", u.Hex)
	}
}

func TestGBACW_8_2_MaximumStacks(t *testing.T) {
	h := clearField(t, "", "U1a", "U1b", "U Bat", "U2a", "UCa", "UCb", "U Horse", "U2b")
	set := func(names ...string) []*Unit {
		var out []*Unit
		for _, n := range names {
			out = append(out, h.u(n))
		}
		return out
	}
	for _, tc := range []struct {
		units []string
		ok    bool
	}{
		{[]string{"U1a", "U1b"}, true},               // 11 SP, one brigade
		{[]string{"U1a", "U2a"}, false},              // two brigades
		{[]string{"U1a", "U Bat"}, true},             // a unit and a battery
		{[]string{"U1a", "U1b", "U Bat"}, false},     // B8
		{[]string{"UCa", "UCb"}, false},              // 7 SP mounted: ok? 4+3 = 7
		{[]string{"UCa", "U Horse"}, true},           // cavalry with horse artillery
		{[]string{"UCa", "U Bat"}, false},            // cavalry with foot artillery
		{[]string{"U Bat", "U Horse"}, true},         // two batteries
		{[]string{"U1a", "U1b", "U2b"}, false},       // three units
		{[]string{"U Bat", "U Horse", "U1a"}, false}, // two batteries and a unit
	} {
		why := h.st.stackWhy(set(tc.units...))
		ok := why == ""
		if tc.units[0] == "UCa" && tc.units[1] == "UCb" {
			tc.ok = true // 7 SP of mounted cavalry of one brigade
		}
		if ok != tc.ok {
			t.Errorf("%v: %q, want ok %v", tc.units, why, tc.ok)
		}
	}
	// 15 SP at most.
	h.set("U1a SP 9", "U1b SP 7")
	if why := h.st.stackWhy(set("U1a", "U1b")); !strings.Contains(why, "15 SP") {
		t.Errorf("16 SP: %q", why)
	}
}

func TestGBACW_8_3_EnteringAStackFromFrontFlankOrRear(t *testing.T) {
	for _, tc := range []struct {
		from string
		top  bool
	}{{nb("0505", hex.NE), true}, {nb("0505", hex.N), true}, {nb("0505", hex.SW), false}} {
		h := clearField(t, "", "U1a", "U1b")
		h.put("U1a", "0505", "E")
		h.put("U1b", tc.from, "SSE")
		h.set("U1b FACING " + map[bool]string{true: "SSE", false: "NNE"}[tc.from != nb("0505", hex.NE)])
		if tc.from == nb("0505", hex.NE) {
			h.set("U1b FACING SSW")
		}
		h.activate(USA, "U Div")
		h.must(USA, "U1b: MOVE 0505")
		if got := h.st.unitsAt(hexOf("0505"))[0].Name == "U1b"; got != tc.top {
			t.Errorf("entering from %s (%v of U1a): on top %v, want %v", tc.from, sector(h.u("U1a"), hexOf(tc.from)), got, tc.top)
		}
	}
	// Artillery in any order.
	h := clearField(t, "", "U1a", "U Bat")
	h.put("U1a", "0505", "E")
	h.put("U Bat", nb("0505", hex.NE), "SSW")
	h.activate(USA, "U Div")
	h.must(USA, "U Bat: MOVE 0505 BOTTOM")
	if h.st.unitsAt(hexOf("0505"))[0].Name != "U1a" {
		t.Error("the battery did not go under")
	}
}

func TestGBACW_8_4_PassingThroughUnits(t *testing.T) {
	h := clearField(t, "", "U1a", "U1b")
	h.put("U1b", "0306", "SSE")
	h.put("U1a", "0305", "SSE")
	h.activate(USA, "U Div")
	h.rolls = []int{9} // the UDD fails: disordered, and it goes on
	h.must(USA, "U1a: MOVE 0306 0307")
	u := h.u("U1a")
	if u.MP != 2*(1+2+1) || !u.Disordered || u.Hex.String() != "0307" {
		t.Errorf("through U1b: %s MP (want 4: +2), disordered %v, at %s", halfMP(u.MP), u.Disordered, u.Hex)
	}
	// The UDD's DRM is the cost of the hex it leaves into, if over 1.
	h2 := clearField(t, "", "U1a", "U1b")
	h2.put("U1b", "0504", "SSE")
	h2.put("U1a", "0503", "SSE")
	h2.activate(USA, "U Div")
	h2.rolls = []int{5} // 5 + 2 (woods) > 6
	h2.must(USA, "U1a: MOVE 0504 0505")
	if !h2.u("U1a").Disordered {
		t.Errorf("dr 5 +2 for the woods against cohesion 6 passed:\n%s", h2.facts())
	}
	// Artillery passes free.
	h3 := clearField(t, "", "U Bat", "U1b")
	h3.put("U1b", "0306", "SSE")
	h3.put("U Bat", "0305", "SSE")
	h3.activate(USA, "U Div")
	h3.must(USA, "U Bat: MOVE 0306 0307")
	if u := h3.u("U Bat"); u.MP != 4 || strings.Contains(h3.facts(), "passing through") {
		t.Errorf("artillery through a unit: %s MP", halfMP(u.MP))
	}
}

func TestGBACW_8_5_PassingMarchColumnsOnARoad(t *testing.T) {
	h := clearField(t, "", "U1a", "U2a")
	h.set("U2 ORDER march", "U2a ORDER march")
	h.put("U2a", "0503", "SE")
	h.put("U1a", "0403", "E")
	h.activate(USA, "U Div")
	h.must(USA, "U1a: MOVE 0503 0603")
	if u := h.u("U1a"); u.MP != 2*(1+1) || u.Disordered {
		t.Errorf("past the March column: %s MP (its other terrain), no UDD", halfMP(u.MP))
	}
	// Not over a bridge.
	h2 := clearField(t, "", "U1a", "U2a")
	h2.set("U2 ORDER march", "U2a ORDER march")
	h2.put("U2a", "0903", "SE")
	h2.put("U1a", "0803", "E")
	h2.activate(USA, "U Div")
	h2.refused(USA, "U1a: MOVE 0903 1003", "bridge or ford")
}

func TestGBACW_8_6_ChangingTheStackOrderIsMovement(t *testing.T) {
	h := clearField(t, "", "U1a", "U1b")
	h.put("U1a", "0505", "E")
	h.put("U1b", "0505", "E")
	h.set("U1a STACK 0", "U1b STACK 1")
	h.activate(USA, "U Div")
	h.refused(USA, "U1b: TOP\nU1b: MOVE 0506", "moved this phase")
	h.must(USA, "U1b: TOP")
	if h.st.unitsAt(hexOf("0505"))[0].Name != "U1b" || h.u("U1b").Turn&turnMoved == 0 {
		t.Error("TOP")
	}
}

// --- 9 Enemy-adjacent hexes ---

func TestGBACW_9_1_EnteringEnemyAdjacentHexes(t *testing.T) {
	h := clearField(t, "", "U1a", "C1a")
	h.put("C1a", "0705", "W")
	h.put("U1a", "0505", "E")
	h.activate(USA, "U Div")
	h.refused(USA, "U1a: MOVE 0605", "only across a bridge or ford")
	h.set("U1a ORDER attack")
	h.must(USA, "U1a: MOVE 0605\nU1a: FIRE AT 0705")
	// Across the ford on Advance orders.
	h2 := clearField(t, "", "U1a", "C1a")
	h2.put("C1a", "1006", "W")
	h2.put("U1a", "0806", "E")
	h2.activate(USA, "U Div")
	h2.must(USA, "U1a: MOVE 0906")
	// Artillery on Advance orders may.
	h3 := clearField(t, "", "U Bat", "U1a", "C1a")
	h3.put("C1a", "0705", "W")
	h3.put("U1a", "0605", "E")
	h3.put("U Bat", "0604", "E")
	h3.activate(USA, "U Div")
	h3.must(USA, "U Bat: MOVE 0605")
}

func TestGBACW_9_2_StopOnEnteringNoFacingChange(t *testing.T) {
	h := clearField(t, "", "U1a", "C1a")
	h.set("U1a ORDER attack")
	h.put("C1a", "0705", "W")
	h.put("U1a", "0504", "SSE")
	h.activate(USA, "U Div")
	h.refused(USA, "U1a: MOVE 0604 0605", "must stop")
	h.refused(USA, "U1a: MOVE 0604 FACE E", "cannot change facing")
}

func TestGBACW_9_3_AdjacentAtTheStartTurnsOnePointAndLeaves(t *testing.T) {
	h := clearField(t, "", "U1a", "C1a")
	h.put("C1a", "0705", "W")
	h.put("U1a", "0605", "E")
	h.activate(USA, "U Div")
	h.refused(USA, "U1a: MOVE "+nb("0605", hex.NW), "may turn one point and leave")
	h.must(USA, "U1a: MOVE "+nb("0605", hex.S))
}

func TestGBACW_9_4_FromOneEnemyAdjacentHexToAnother(t *testing.T) {
	h := clearField(t, "", "U Bat", "C1a")
	h.put("C1a", "0705", "W")
	h.put("U Bat", "0605", "SSE")
	h.activate(USA, "U Div")
	h.must(USA, "U Bat: MOVE 0706")
	if !h.st.enemyAdjacent(h.u("U Bat").Hex, USA) || h.u("U Bat").Hex.String() != "0706" {
		t.Fatalf("U Bat at %s", h.u("U Bat").Hex)
	}
}

func TestGBACW_9_5_WithdrawalMovement(t *testing.T) {
	h := clearField(t, "", "U1a", "C1a")
	h.put("C1a", "0705", "W")
	h.put("U1a", "0605", "E")
	h.activate(USA, "U Div")
	h.set("U1a ORDER attack")
	h.refused(USA, "U1a: WITHDRAW\nU1a: FIRE AT 0705", "made a withdrawal movement: no fire")
	h.must(USA, "U1a: WITHDRAW")
	u := h.u("U1a")
	if hex.Distance(u.Hex, hexOf("0605")) != 2 || u.Facing != int(hex.E) || !u.WM {
		t.Errorf("after a withdrawal: %s facing %v", u.Hex, hex.Vertex(u.Facing))
	}
	// Into a hex costing over 1 MP: a UDD with DRM cost-1; a failure
	// disorders the unit and ends the withdrawal.
	h3 := clearField(t, "", "U1a")
	h3.put("U1a", nb("0505", hex.N), "NNE") // its rear: S (the woods 0505) and SW
	h3.activate(USA, "U Div")
	h3.rolls = []int{6} // 6 + 1 (woods 2 MP - 1) > 6
	h3.must(USA, "U1a: WITHDRAW 0505 "+nb("0505", hex.S))
	if u := h3.u("U1a"); !u.Disordered || u.Hex.String() != "0505" {
		t.Errorf("a failed UDD in the woods: at %s, disordered %v (want stopped in 0505, disordered)\n%s", u.Hex, u.Disordered, h3.facts())
	}
}

func TestGBACW_9_5a_MountedCavalryReactionWithdrawal(t *testing.T) {
	h := clearField(t, "", "U1a", "CCa")
	h.put("CCa", "0705", "W")
	h.put("U1a", "0504", "SSE")
	h.set("U1a ORDER attack")
	h.standing(CSA, "WITHDRAW ALL ALWAYS")
	h.activate(USA, "U Div")
	h.must(USA, "U1a: MOVE 0604\nU1a: FIRE AT 0705")
	if c := h.u("CCa"); c.Hex.String() == "0705" || !c.WM {
		t.Errorf("the mounted cavalry did not withdraw: %s", c.Hex)
	}
}

func TestGBACW_9_6_WithdrawalFire(t *testing.T) {
	h := clearField(t, "", "U1a", "C1a")
	h.put("C1a", "0705", "W")
	h.put("U1a", "0605", "E") // in C1a's front
	h.standing(CSA, "WITHDRAWAL FIRE ALL ALWAYS")
	h.activate(USA, "U Div")
	h.must(USA, "U1a: MOVE "+nb("0605", hex.S))
	if !strings.Contains(h.facts(), "kind=withdrawal") {
		t.Errorf("no withdrawal fire:\n%s", h.facts())
	}
	// Not by artillery, and not at a retreat.
	h2 := clearField(t, "", "U1a", "C Bat")
	h2.put("C Bat", "0705", "W")
	h2.put("U1a", "0605", "E")
	h2.standing(CSA, "WITHDRAWAL FIRE ALL ALWAYS")
	h2.activate(USA, "U Div")
	h2.must(USA, "U1a: MOVE "+nb("0605", hex.S))
	if strings.Contains(h2.facts(), "kind=withdrawal") {
		t.Error("artillery gave withdrawal fire (13.3)")
	}
}

// --- 10 March orders ---

func marchField(t *testing.T, keep ...string) *harness {
	t.Helper()
	h := clearField(t, "", keep...)
	h.set("U2 ORDER march", "U2a ORDER march", "U2b ORDER march")
	return h
}

func TestGBACW_10_1_MarchAMActivatesMarchColumnsOnly(t *testing.T) {
	h := marchField(t, "U2a", "U1a")
	h.put("U2a", "0203", "SE")
	h.put("U1a", "0210", "SSE")
	h.activate(USA, "U Div")
	h.refused(USA, "U2a: MOVE 0303", "not activated by this AM")
	h.activate(USA, "March")
	h.refused(USA, "U1a: MOVE 0211", "not activated by this AM")
	h.must(USA, "U2a: MOVE 0303")
	// The pool holds the side's March AM as often as its draw says.
	m := &sim{st: h.st, dice: h.dice}
	m.emit("march.ams", eS("side", USA), eI("n", 3), eI("dr", 7))
	if m.st.MarchAMs[0] != 3 {
		t.Error("March AMs")
	}
}

func TestGBACW_10_2_MarchColumnsFaceAHexside(t *testing.T) {
	h := marchField(t, "U2a")
	h.put("U2a", "0203", "SE")
	if !h.u("U2a").onSide() || facingShort(h.u("U2a")) != "SE|" {
		t.Errorf("a March column faces %s", facingShort(h.u("U2a")))
	}
	h.refused(engineRef, "SET U2a FACING E", "a side for a March column")
}

func TestGBACW_10_3_MarchStacking(t *testing.T) {
	h := marchField(t, "U2a", "U2b", "U Bat", "U Horse")
	if why := h.st.stackWhy([]*Unit{h.u("U2a"), h.u("U2b")}); !strings.Contains(why, "7 SP") {
		t.Errorf("11 SP in a March stack: %q", why)
	}
	h.set("U2a SP 3")
	if why := h.st.stackWhy([]*Unit{h.u("U2a"), h.u("U2b")}); why != "" {
		t.Errorf("7 SP in a March stack: %q", why)
	}
	h.set("U Bat ORDER march", "U Horse ORDER march")
	if why := h.st.stackWhy([]*Unit{h.u("U Bat"), h.u("U Horse")}); why != "" {
		t.Errorf("two batteries: %q", why)
	}
	if why := h.st.stackWhy([]*Unit{h.u("U2a"), h.u("U Bat")}); !strings.Contains(why, "mix") {
		t.Errorf("infantry and a battery: %q", why)
	}
}

func TestGBACW_10_4_ExtendedColumnOver7SP(t *testing.T) {
	h := marchField(t, "U2a", "U2b", "UCa")
	if h.st.extended(h.u("U2a")) || h.st.extended(h.u("U2b")) {
		t.Errorf("U2a (7 SP) extended %v, U2b (4 SP) %v: not over 7", h.st.extended(h.u("U2a")), h.st.extended(h.u("U2b")))
	}
	h.set("U2a SP 8")
	if !h.st.extended(h.u("U2a")) {
		t.Error("8 SP on March orders is an Extended Column")
	}
	h.set("UC ORDER march", "UCa ORDER march", "UCa SP 5")
	if !h.st.extended(h.u("UCa")) {
		t.Error("5 SP of mounted cavalry on March orders is an Extended Column")
	}
}

func TestGBACW_10_5_MarchMovementCosts(t *testing.T) {
	h := marchField(t, "U2b")
	h.put("U2b", "0103", "SE")
	h.activate(USA, "March")
	h.must(USA, "U2b: MOVE 0203 0303 0403 0503 0603 0703")
	if u := h.u("U2b"); u.MP != 6 {
		t.Errorf("six road hexes: %s MP, want 3", halfMP(u.MP))
	}
	h2 := marchField(t, "U2b")
	h2.put("U2b", "0410", "SE")
	h2.activate(USA, "March")
	h2.must(USA, "U2b: MOVE 0510 0610") // marsh 3 -> 1, clear 1 -> 1 (at least 1)
	if u := h2.u("U2b"); u.MP != 4 {
		t.Errorf("along the trail: %s MP, want 2", halfMP(u.MP))
	}
}

func TestGBACW_10_6_MarchColumnsKeepAwayFromTheEnemy(t *testing.T) {
	h := marchField(t, "U2b", "C1a")
	h.put("U2b", "0103", "SE")
	h.put("C1a", "0703", "W") // in the woods: it sees along the road
	h.activate(USA, "March")
	h.refused(USA, "U2b: MOVE 0203 0303", "within 4 hexes")
	h2 := marchField(t, "U2b", "C1a")
	h2.put("U2b", "0103", "SE")
	h2.put("C1a", "0204", "NNW")
	h2.activate(USA, "March")
	h2.refused(USA, "U2b: MOVE 0203", "next to the enemy")
}

func TestGBACW_10_7_NotOnMarchOrders(t *testing.T) {
	h := marchField(t, "U2a", "C1a")
	h.put("U2a", "0505", "NE")
	h.put("C1a", "0705", "W")
	h.set("U2a DISORDERED on")
	h.activate(USA, "March")
	for _, tc := range []struct{ order, want string }{
		{"U2a: FIRE AT 0705", "no fire"},
		{"U2a: BUILD", "no construction"},
		{"U2a: WITHDRAW", "no withdrawal"},
		{"U2a: RECOVER", "no recovery"},
		{"U2a: REFUSE", "cannot refuse"},
		{"U2a: SHOCK 0705", "only Attack and Advance orders shock"},
	} {
		h.refused(USA, tc.order, tc.want)
	}
	// Nor a pre-shock retreat.
	h2 := marchField(t, "U2a", "C1a")
	h2.set("C1 ORDER attack", "C1a ORDER attack")
	h2.put("U2a", "0505", "NE")
	h2.put("C1a", nb("0505", hex.NE), "SSW")
	h2.standing(USA, "PRE-SHOCK RETREAT ALL ALWAYS")
	h2.activate(CSA, "C Div")
	h2.rolls = []int{0, 0, 0, 0, 0, 0}
	h2.must(CSA, "C1a: SHOCK 0505")
	if strings.Contains(h2.facts(), "used:PRE-SHOCK RETREAT") {
		t.Error("a March column made a pre-shock retreat")
	}
}

func TestGBACW_10_8_AMarchColumnShockedTakesAUDD(t *testing.T) {
	for _, tc := range []struct {
		dr    int
		rout  bool
		label string
	}{{0, false, "passes: disordered"}, {9, true, "fails: routs"}} {
		h := newField(t, "", "[udd-drm]\nmarch-shocked +2\n")
		for _, u := range h.st.Units {
			if u.Name != "U2b" && u.Name != "C1a" {
				h.set(u.Name + " REMOVED on")
			}
		}
		h.noReactions(USA)
		h.noReactions(CSA)
		h.set("U2 ORDER march", "U2a ORDER march", "U2b ORDER march")
		h.set("C1 ORDER attack", "C1a ORDER attack")
		h.put("U2b", "0505", "NE")
		h.put("C1a", nb("0505", hex.NE), "SSW")
		h.activate(CSA, "C Div")
		h.rolls = []int{tc.dr, 5, 5, 5, 5, 5, 5}
		h.must(CSA, "C1a: SHOCK 0505")
		want := map[bool]string{false: "unit.disordered unit=U2b why=\"shocked on March orders", true: "unit.routed unit=U2b why=\"shocked on March orders"}[tc.rout]
		if !strings.Contains(h.facts(), want) {
			t.Errorf("%s: no %s\n%s", tc.label, want, h.facts())
		}
		if !strings.Contains(h.facts(), "drm=2") {
			t.Errorf("the scenario's UDD DRM (march-shocked +2) missing:\n%s", h.facts())
		}
	}
}
