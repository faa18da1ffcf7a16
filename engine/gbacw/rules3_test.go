package gbacw

import (
	"strings"
	"testing"

	"pbem/engine/hex"
	"pbem/events"
)

// fires lists the fire.resolved facts of the last decision.
func (h *harness) fires() []events.Fact {
	var out []events.Fact
	for _, f := range h.last.Facts {
		if f.Kind == "fire.resolved" {
			out = append(out, f)
		}
	}
	return out
}

// --- 11 Fire ---

func TestGBACW_11_1_FireFromTheTopOfTheStackWithinCaps(t *testing.T) {
	h := clearField(t, "", "U1a", "U1b", "U Bat", "C1a")
	h.set("U1a SP 9", "U1b SP 6")
	h.put("U1a", "0505", "E")
	h.put("U1b", "0505", "E")
	h.set("U1a STACK 0", "U1b STACK 1")
	h.put("C1a", "0705", "W")
	h.activate(USA, "U Div")
	h.refused(USA, "U1b: FIRE AT 0705", "top unit")
	h.rolls = []int{0, 0}
	h.must(USA, "U1a: FIRE AT 0705")
	if fs := h.fires(); len(fs) != 1 || fs[0].Int("sp") != 7 {
		t.Errorf("9 SP of infantry fire as 7 (11.1): %v", fs)
	}
	// A battery in the stack fires too (B14), with its own 12 at most.
	h2 := clearField(t, "", "U1a", "U Bat", "C1a")
	h2.put("U1a", "0505", "E")
	h2.put("U Bat", "0505", "E")
	h2.set("U Bat STACK 1", "U Bat SP 14")
	h2.put("C1a", "0705", "W")
	h2.activate(USA, "U Div")
	h2.rolls = []int{0, 0, 0, 0}
	h2.must(USA, "U1a: FIRE AT 0705\nU Bat: FIRE AT 0705")
	if fs := h2.fires(); len(fs) != 2 || fs[1].Int("sp") != 12 {
		t.Errorf("the battery under the infantry: %v", fs)
	}
	// Mounted cavalry fires 4 at most.
	h3 := clearField(t, "", "UCa", "C1a")
	h3.set("UCa SP 6")
	h3.put("UCa", "0605", "E")
	h3.put("C1a", "0705", "W")
	h3.activate(USA, "U Cav Div")
	h3.rolls = []int{0}
	h3.must(USA, "UCa: FIRE AT 0705")
	if fs := h3.fires(); len(fs) != 1 || fs[0].Int("sp") != 4 {
		t.Errorf("6 SP of mounted cavalry: %v", fs)
	}
}

func TestGBACW_11_2_AdvanceOrdersFireOnlyIfNotMoved(t *testing.T) {
	h := clearField(t, "", "U1a", "C1a")
	h.put("U1a", "0402", "E")
	h.put("C1a", "0702", "W")
	h.activate(USA, "U Div")
	h.refused(USA, "U1a: MOVE 0502\nU1a: FIRE AT 0702", "has moved")
	h.rolls = []int{0}
	h.must(USA, "U1a: FIRE AT 0702")
}

func TestGBACW_11_3_AttackOrdersFireAnyTimeButAfterAWithdrawal(t *testing.T) {
	h := clearField(t, "", "U1a", "C1a")
	h.set("U1a ORDER attack")
	h.put("U1a", "0402", "E")
	h.put("C1a", "0702", "W")
	h.activate(USA, "U Div")
	h.rolls = []int{0}
	h.must(USA, "U1a: MOVE 0502\nU1a: FIRE AT 0702")
	h2 := clearField(t, "", "U1a", "C1a")
	h2.set("U1a ORDER attack")
	h2.put("U1a", "0605", "E")
	h2.put("C1a", "0705", "W")
	h2.activate(USA, "U Div")
	h2.refused(USA, "U1a: WITHDRAW\nU1a: FIRE AT 0705", "withdrawal movement")
}

func TestGBACW_11_4_NoPreparedFireBonusAfterMoving(t *testing.T) {
	drm := func(move bool) int64 {
		h := clearField(t, "", "U1a", "C1a")
		h.set("U1a ORDER attack")
		h.put("U1a", "0402", "E")
		h.put("C1a", "0702", "W")
		h.activate(USA, "U Div")
		h.rolls = []int{0}
		if move {
			h.must(USA, "U1a: MOVE 0502\nU1a: FIRE AT 0702")
		} else {
			h.must(USA, "U1a: FIRE AT 0702")
		}
		return h.fires()[0].Int("drm")
	}
	still, moved := drm(false), drm(true)
	// From 0402 the range is 3 (DRM -1), from 0502 2 (DRM 0): take the
	// range out and the Prepared Fire bonus (+1) is what is left.
	if still-(-1) != 1 || moved-0 != 0 {
		t.Errorf("DRMs: still %+d (range 3: -1, prepared +1), moved %+d (range 2: 0, no bonus)", still, moved)
	}
}

func splitField(t *testing.T) *harness {
	t.Helper()
	scn := strings.Replace(string(fieldScn("", "")), `weapon rifle    hex 0101 facing SSE`, `weapon rifle    hex 0101 facing SSE split "1st Regiment"`, 1)
	scn = strings.Replace(scn, `weapon rifle    hex 0102 facing SSE`, `weapon rifle    hex 0102 facing SSE split "1st Regiment"`, 1)
	h := newHarnessOf(t, "split", []byte(scn))
	h.facts0(events.NewFact("turn.begun", events.I("turn", 1)), events.NewFact("phase.set", events.S("phase", PhaseActivation)))
	for _, u := range h.st.Units {
		if u.Name != "U1a" && u.Name != "U1b" && u.Name != "C1a" {
			h.set(u.Name + " REMOVED on")
		}
	}
	h.noReactions(CSA)
	return h
}

func TestGBACW_11_5_SplitUnitsInAStackFiringAtOneTargetCombine(t *testing.T) {
	h := splitField(t)
	h.set("U1a SP 3", "U1b SP 2")
	h.put("U1a", "0505", "E")
	h.put("U1b", "0505", "E")
	h.put("C1a", "0705", "W")
	h.activate(USA, "U Div")
	h.rolls = []int{0}
	h.must(USA, "U1a: FIRE AT 0705\nU1b: FIRE AT 0705")
	if fs := h.fires(); len(fs) != 1 || fs[0].Int("sp") != 5 || !h.u("U1b").Fired {
		t.Errorf("the split regiment's fire: %v (want one fire of 3+2)", fs)
	}
	// Other units never combine: two regiments fire apart.
	h2 := clearField(t, "", "U1a", "U Bat", "C1a")
	h2.put("U1a", "0505", "E")
	h2.put("U Bat", "0505", "E")
	h2.set("U Bat STACK 1")
	h2.put("C1a", "0705", "W")
	h2.activate(USA, "U Div")
	h2.rolls = []int{0, 0}
	h2.must(USA, "U1a: FIRE AT 0705\nU Bat: FIRE AT 0705")
	if len(h2.fires()) != 2 {
		t.Errorf("infantry and a battery combined: %v", h2.fires())
	}
}

func TestGBACW_11_5a_SeveralUnitsFireFromOneHex(t *testing.T) {
	h := clearField(t, "b14-one-firer", "U1a", "U Bat", "C1a")
	h.put("U1a", "0505", "E")
	h.put("U Bat", "0505", "E")
	h.set("U Bat STACK 1")
	h.put("C1a", "0705", "W")
	h.activate(USA, "U Div")
	h.refused(USA, "U Bat: FIRE AT 0705", "top unit")
}

func TestGBACW_11_6_SplitFireAsEvenlyAsPossible(t *testing.T) {
	h := clearField(t, "", "U1a", "C1a", "C1b")
	h.put("U1a", "0505", "E")
	h.put("C1a", "0604", "W")
	h.put("C1b", "0605", "W")
	h.activate(USA, "U Div")
	h.rolls = []int{0, 0}
	h.must(USA, "U1a: FIRE AT 0604 AND 0605")
	fs := h.fires()
	if len(fs) != 2 || fs[0].Int("sp") != 3 || fs[1].Int("sp") != 3 {
		t.Errorf("6 SP split: %v", fs)
	}
	h.set("U1a SP 5")
	h.activate(USA, "U Div")
	h.rolls = []int{0, 0}
	h.must(USA, "U1a: FIRE AT 0604 AND 0605")
	if fs := h.fires(); fs[0].Int("sp") != 3 || fs[1].Int("sp") != 2 {
		t.Errorf("5 SP split: %v", fs)
	}
}

// --- 12 Line of sight ---

func TestGBACW_12_1_ObstaclesBlockingLOS(t *testing.T) {
	h := clearField(t, "")
	for _, tc := range []struct {
		a, b string
		want bool
		why  string
	}{
		{"0503", "0507", false, "woods (level 0 + 1) between two level-0 hexes: higher than both"},
		{"0605", "0609", false, "the hill (levels 1 and 2) between two level-0 hexes"},
		{"0608", "0610", true, "from the top (level 2) down, nothing higher in between"},
		{"0102", "0106", true, "open ground"},
	} {
		if got := h.st.los(hexOf(tc.a), hexOf(tc.b), losSight); got != tc.want {
			t.Errorf("%s to %s: LOS %v, want %v (%s)", tc.a, tc.b, got, tc.want, tc.why)
		}
	}
}

func TestGBACW_12_1_LowerEndRule(t *testing.T) {
	s := func(extra string) *State {
		scn := strings.Replace(string(fieldScn("", "")), "0608 clear 2", "0608 clear 2\n"+extra, 1)
		sc, err := ParseScenario([]byte(scn))
		if err != nil {
			t.Fatal(err)
		}
		return newState(sc)
	}
	// 0102 level 2, 0106 level 0; a level-1 obstacle at 0103 (nearer the
	// higher end) does not block, at 0105 (nearer the lower) it does.
	if !s("0102 clear 2\n0103 clear 1").los(hexOf("0102"), hexOf("0106"), losSight) {
		t.Error("an obstacle nearer the higher end blocked")
	}
	if s("0102 clear 2\n0105 clear 1").los(hexOf("0102"), hexOf("0106"), losSight) {
		t.Error("an obstacle nearer the lower end did not block")
	}
}

func TestGBACW_12_2_MidwayBlocksUnlessAGradualSlope(t *testing.T) {
	s := func(extra string) *State {
		scn := strings.Replace(string(fieldScn("", "")), "0608 clear 2", "0608 clear 2\n"+extra, 1)
		sc, err := ParseScenario([]byte(scn))
		if err != nil {
			t.Fatal(err)
		}
		return newState(sc)
	}
	// 0102 level 2, 0106 level 0, a level-1 rise at 0104: midway.
	if s("0102 clear 2\n0104 clear 1").los(hexOf("0102"), hexOf("0106"), losSight) {
		t.Error("a midway obstacle did not block")
	}
	if !s("0102 clear 2\n0104 clear 1 gradual").los(hexOf("0102"), hexOf("0106"), losSight) {
		t.Error("a midway gradual slope blocked")
	}
}

func TestGBACW_12_3_AHexsideAloneBlocks(t *testing.T) {
	h := clearField(t, "")
	// The crest 0302/0402 and the wall 0303/0403 lie across these lines.
	if h.st.los(hexOf("0202"), hexOf("0502"), losSight) {
		t.Error("LOS across the crest 0302/0402")
	}
	if h.st.los(hexOf("0203"), hexOf("0503"), losSight) {
		t.Error("LOS across the wall 0303/0403")
	}
	// A hexside bordering the firer's or the target's hex blocks as
	// well: TestGBACW_12_3_AHexsideBlocksAlsoAtTheFirersOrTargetsHex.
}

func TestGBACW_12_4_UnitsAsObstacles(t *testing.T) {
	h := clearField(t, "", "U1b", "U Bat", "C1a", "U1a")
	h.put("U1b", "0107", "SSE")
	// Small arms: a unit in between blocks.
	if h.st.los(hexOf("0106"), hexOf("0108"), losSmallArms) || !h.st.los(hexOf("0106"), hexOf("0108"), losSight) {
		t.Error("a unit between: small arms blocked, sight not")
	}
	// Artillery at 3 hexes or less: blocked.
	if h.st.los(hexOf("0105"), hexOf("0108"), losArtillery) {
		t.Error("artillery at 3 hexes over a unit")
	}
	// At 4 or more: blocked only by units within 2 hexes of the target.
	if !h.st.los(hexOf("0106"), hexOf("0111"), losArtillery) {
		t.Error("artillery at 5 hexes over a unit 4 from the target")
	}
	if h.st.los(hexOf("0104"), hexOf("0108"), losArtillery) {
		t.Error("artillery at 4 hexes over a unit next to the target")
	}
	// Artillery is no obstacle.
	h.put("U1b", "0112", "SSE")
	h.put("U Bat", "0107", "SSE")
	if !h.st.los(hexOf("0106"), hexOf("0108"), losSmallArms) {
		t.Error("a battery blocked")
	}
}

// --- 13 Non-phase fire ---

func TestGBACW_13_1_ReturnFire(t *testing.T) {
	h := clearField(t, "", "U1a", "C1a")
	h.put("U1a", "0505", "E")
	h.put("C1a", "0705", "W")
	h.standing(CSA, "RETURN FIRE C1a ALWAYS")
	h.activate(USA, "U Div")
	h.rolls = []int{9, 9} // both high: both hit
	h.must(USA, "U1a: FIRE AT 0705")
	fs := h.fires()
	if len(fs) != 2 || fs[1].Str("kind") != "return" || fs[1].Str("target") != "U1a" {
		t.Fatalf("fires: %v", fs)
	}
	// Simultaneous: both dice were rolled before either result.
	var order []string
	for _, f := range h.last.Facts {
		switch f.Kind {
		case "fire.resolved":
			order = append(order, "fire")
		case "unit.lost":
			order = append(order, "loss")
		}
	}
	if strings.Join(order, " ") != "fire fire loss loss" && !strings.HasPrefix(strings.Join(order, " "), "fire fire") {
		t.Errorf("results before both fires: %v", order)
	}
	// Once per brigade activation (B12): a second firer draws none.
	h2 := clearField(t, "", "U1a", "U1b", "C1a")
	h2.put("U1a", "0505", "E")
	h2.put("U1b", "0506", "E")
	h2.put("C1a", "0705", "W")
	h2.standing(CSA, "RETURN FIRE C1a ALWAYS")
	h2.activate(USA, "U Div")
	h2.rolls = []int{0, 0, 0, 0}
	h2.must(USA, "U1a: FIRE AT 0705\nU1b: FIRE AT 0705")
	if n := strings.Count(h2.facts(), "kind=return"); n != 1 {
		t.Errorf("%d return fires in one brigade activation", n)
	}
	// The phasing side never returns fire: CSA's return fire at U1a does
	// not draw U1a's.
	if strings.Count(h2.facts(), "kind=") != 3 {
		t.Errorf("fires: %s", h2.facts())
	}
}

func TestGBACW_13_1_ArtilleryReturnFireIsAppliedAfterwards(t *testing.T) {
	h := clearField(t, "", "U1a", "C Bat")
	h.set("U1a SP 9")
	h.put("U1a", "0505", "E")
	h.put("C Bat", "0705", "W")
	h.standing(CSA, "RETURN FIRE ALL ALWAYS")
	h.activate(USA, "U Div")
	h.rolls = []int{9, 0, 9, 0} // U1a's fire eliminates the battery? 3 SP, "2D" then the UDD
	h.must(USA, "U1a: FIRE AT 0705")
	var order []string
	for _, f := range h.last.Facts {
		if f.Kind == "fire.resolved" {
			order = append(order, f.Str("kind"))
		}
		if f.Kind == "unit.lost" {
			order = append(order, "loss")
		}
	}
	if len(order) < 2 || order[0] != "phase" || order[1] != "loss" {
		t.Errorf("the battery's return fire came before the fire at it was applied: %v", order)
	}
}

func TestGBACW_13_2_14_3e_PreShockFire(t *testing.T) {
	h := clearField(t, "", "U1a", "C1a")
	h.set("U1a ORDER attack")
	h.put("U1a", "0605", "E")
	h.put("C1a", "0705", "W")
	h.standing(CSA, "PRE-SHOCK FIRE C1a ALWAYS")
	h.activate(USA, "U Div")
	h.rolls = []int{0, 0, 0, 0, 0, 0}
	h.must(USA, "U1a: SHOCK 0705")
	var order []string
	for _, f := range h.last.Facts {
		switch {
		case f.Kind == "udd.rolled" && strings.Contains(f.Str("why"), "14.3d"):
			order = append(order, "check")
		case f.Kind == "fire.resolved":
			order = append(order, f.Str("kind"))
		case f.Kind == "shock.resolved":
			order = append(order, "shock")
		}
	}
	if strings.Join(order, " ") != "check pre-shock shock" {
		t.Errorf("14.3d, 13.2 then the shock: %v", order)
	}
	// Not with another enemy in its front.
	h2 := clearField(t, "", "U1a", "U1b", "C1a")
	h2.set("U1a ORDER attack")
	h2.put("U1a", "0605", "E")
	h2.put("C1a", "0705", "W")
	h2.put("U1b", "0706", "NNE") // in C1a's front? C1a faces W: its front SW (0605... ) and NW
	h2.set("C1a FACING SSW")     // front S (0706) and SW (0605)
	h2.standing(CSA, "PRE-SHOCK FIRE C1a ALWAYS")
	h2.activate(USA, "U Div")
	h2.rolls = []int{0, 0, 0, 0, 0, 0}
	h2.must(USA, "U1b: FIRE AT 0705\nU1a: SHOCK 0705")
	if strings.Contains(h2.facts(), "kind=pre-shock") {
		t.Error("pre-shock fire with another enemy in its front")
	}
}

func TestGBACW_13_3_WithdrawalFireIsForThePhasingSidesMovesOnly(t *testing.T) {
	// A retreat draws none.
	h := clearField(t, "", "U1a", "C1a")
	h.put("C1a", "0705", "W")
	h.put("U1a", "0605", "E")
	h.standing(CSA, "WITHDRAWAL FIRE ALL ALWAYS")
	m := &sim{st: h.st, dice: h.dice}
	h.activate(USA, "U Div")
	m.st = h.st
	m.retreat(m.st.unit("U1a"), 1, "test")
	for _, f := range m.facts {
		if f.Kind == "fire.resolved" {
			t.Errorf("withdrawal fire at a retreat: %s", f)
		}
	}
}

func TestGBACW_13_4_ClosingFire(t *testing.T) {
	h := clearField(t, "", "U1a", "C1a", "C1b")
	h.put("C1a", "0805", "W")
	h.put("C1b", "0806", "W")
	h.put("U1a", "0305", "E")
	h.standing(CSA, "CLOSING FIRE C1a WITHIN 3", "CLOSING FIRE C1b NEVER")
	h.activate(USA, "U Div")
	h.rolls = []int{0, 0, 0}
	h.must(USA, "U1a: MOVE 0405 0505") // 0505 is 3 from 0805
	fs := h.fires()
	if len(fs) != 1 || fs[0].Str("kind") != "closing" || fs[0].Str("firer") != "C1a" {
		t.Errorf("closing fire: %v", fs)
	}
}

// --- 14 Shock ---

func shockField(t *testing.T) *harness {
	t.Helper()
	h := clearField(t, "", "U1a", "U1b", "C1a", "C1b")
	h.set("U1 ORDER attack", "U1a ORDER attack", "U1b ORDER attack")
	return h
}

func TestGBACW_14_1_ShockPerBrigadeAfterMovingAndFiring(t *testing.T) {
	h := shockField(t)
	h.put("C1a", "0705", "W")
	h.put("U1a", "0506", "NNE")
	h.put("U1b", "0604", "E")
	h.activate(USA, "U Div")
	h.rolls = []int{0, 0, 0, 0, 0, 0, 0, 0}
	h.must(USA, "U1a: MOVE 0605\nU1b: FIRE AT 0705\nU1a: SHOCK 0705")
	if order := actionOrder(h); len(order) < 3 || order[len(order)-1] != "shock.declared" || order[0] != "unit.moved" {
		t.Errorf("order: %v", order)
	}
	if strings.Contains(h.echo(), "is carried out after") {
		t.Errorf("a mail in the seed's order is told it was reordered:\n%s", h.echo())
	}
}

// TestGBACW_14_1_AShockWrittenFirstIsCarriedOutAfterItsBrigadesMoves:
// the seed's sequence of play (3.3.3, 14.1: a brigade shocks "after
// moving and firing") leaves the player no order to give between a
// brigade's moves and its shocks, so a mail that writes a shock first is
// accepted, carried out in the seed's order, and its sender told so.
func TestGBACW_14_1_AShockWrittenFirstIsCarriedOutAfterItsBrigadesMoves(t *testing.T) {
	h := shockField(t)
	h.put("C1a", "0705", "W")
	h.put("U1a", "0506", "NNE")
	h.put("U1b", "0604", "E")
	h.activate(USA, "U Div")
	h.rolls = []int{0, 0, 0, 0, 0, 0, 0, 0}
	h.must(USA, "U1a: SHOCK 0705\nU1a: MOVE 0605\nU1b: FIRE AT 0705")
	if order := actionOrder(h); len(order) < 3 || order[0] != "unit.moved" || order[1] != "fire.resolved" || order[len(order)-1] != "shock.declared" {
		t.Errorf("order carried out: %v; want the move, the fire, then the shock", order)
	}
	const told = "Line 1 (U1a: SHOCK 0705) is carried out after lines 2 and 3, the brigade's moves and fires written after it: a brigade shocks when it has finished moving and firing (14.1)."
	if usa := h.seenBy(USA); !strings.Contains(usa, told) {
		t.Errorf("USA is not told its shock was carried out last:\n%s", usa)
	}
	if csa := h.seenBy(CSA); strings.Contains(csa, "is carried out after") {
		t.Errorf("CSA reads how USA's mail was laid out:\n%s", csa)
	}
}

// actionOrder is the order the last decision moved, fired and shocked in.
func actionOrder(h *harness) []string {
	var order []string
	for _, f := range h.last.Facts {
		switch f.Kind {
		case "unit.moved", "fire.resolved", "shock.declared":
			order = append(order, f.Kind)
		}
	}
	return order
}

func TestGBACW_14_2_WhoMayShock(t *testing.T) {
	for _, tc := range []struct {
		name, setup, order, want string
	}{
		{"March orders", "U1a ORDER march", "U1a: SHOCK 0705", "Attack and Advance"},
		{"artillery", "", "U Bat: SHOCK 0705", "artillery does not shock"},
		{"not in front", "U1a FACING W", "U1a: SHOCK 0705", "front"},
		{"recovering too", "U1a DISORDERED on", "U1a: SHOCK 0705\nU1a: RECOVER", "shock and recover"},
	} {
		h := clearField(t, "", "U1a", "U Bat", "C1a")
		h.set("U1a ORDER attack")
		h.put("U1a", "0605", "E")
		h.put("U Bat", "0604", "SSE")
		h.put("C1a", "0705", "W")
		if tc.setup != "" {
			h.set(tc.setup)
		}
		if tc.name == "March orders" {
			h.activate(USA, "March")
		} else {
			h.activate(USA, "U Div")
		}
		h.refused(USA, tc.order, tc.want)
	}
	// Across an impassable hexside: not an enterable front hex. (A
	// stream is passable; none here is impassable, so the water hex
	// stands in: no unit is in it to shock.)
}

func TestGBACW_14_2a_UnitsThatMustAttack(t *testing.T) {
	h := shockField(t)
	h.put("C1a", "0705", "W")
	h.put("U1a", "0504", "SSE")
	h.activate(USA, "U Div")
	h.refused(USA, "U1a: MOVE 0604", "must shock")
	h.rolls = []int{0, 0, 0, 0, 0, 0}
	h.must(USA, "U1a: MOVE 0604\nU1a: SHOCK 0705")
	// Having fired, it need not.
	h2 := shockField(t)
	h2.put("C1a", "0705", "W")
	h2.put("U1a", "0504", "SSE")
	h2.activate(USA, "U Div")
	h2.rolls = []int{0, 0}
	h2.must(USA, "U1a: MOVE 0604\nU1a: FIRE AT 0705")
}

func TestGBACW_14_3a_EveryEnemyInTheAttackersFrontIsAttacked(t *testing.T) {
	h := shockField(t)
	h.put("U1a", "0605", "E") // front: 0705 (NE) and 0706 (SE)
	h.put("C1a", "0705", "W")
	h.put("C1b", "0706", "NNW")
	h.activate(USA, "U Div")
	h.refused(USA, "U1a: SHOCK 0705", "every enemy unit in the front")
	h.put("U1b", "0606", "NNE") // front 0706? 0606's N is 0605... its NE is 0706
	h.activate(USA, "U Div")
	h.rolls = make([]int, 20)
	h.must(USA, "U1a: SHOCK 0705\nU1b: SHOCK 0706")
}

func TestGBACW_14_3b_PreShockRetreat(t *testing.T) {
	h := shockField(t)
	h.put("U1a", "0605", "E")
	h.put("C1a", "0705", "W")
	h.standing(CSA, "PRE-SHOCK RETREAT C1a ALWAYS")
	h.activate(USA, "U Div")
	h.rolls = []int{0, 0, 0}
	h.must(USA, "U1a: SHOCK 0705 ADVANCE")
	c := h.u("C1a")
	if c.Hex.String() == "0705" || c.Facing != int(hex.W) || h.u("U1a").Hex.String() != "0705" || strings.Contains(h.facts(), "shock.resolved") {
		t.Errorf("C1a at %s facing %v; U1a at %s; no shock after it (no continued shock)\n%s", c.Hex, hex.Vertex(c.Facing), h.u("U1a").Hex, h.facts())
	}
	// Not on Attack orders, not artillery, not from mounted cavalry.
	for _, tc := range []struct{ name, defender, attacker, setup string }{
		{"on Attack orders", "C1a", "U1a", "C1a ORDER attack"},
		{"artillery", "C Bat", "U1a", ""},
		{"mounted cavalry attacking", "C1a", "UCa", ""},
	} {
		h := clearField(t, "", "U1a", "UCa", "C1a", "C Bat")
		h.set("U1a ORDER attack")
		h.put(tc.attacker, "0605", "E")
		h.put(tc.defender, "0705", "W")
		if tc.setup != "" {
			h.set(tc.setup)
		}
		h.standing(CSA, "PRE-SHOCK RETREAT ALL ALWAYS")
		div := "U Div"
		if tc.attacker == "UCa" {
			div = "U Cav Div"
		}
		h.activate(USA, div)
		h.rolls = make([]int, 10)
		h.must(USA, tc.attacker+": SHOCK 0705")
		if strings.Contains(h.facts(), "used:PRE-SHOCK RETREAT") {
			t.Errorf("a pre-shock retreat %s", tc.name)
		}
	}
	// Disordered: a UDD, failure a second disorder.
	h2 := shockField(t)
	h2.put("U1a", "0605", "E")
	h2.put("C1a", "0705", "W")
	h2.set("C1a DISORDERED on")
	h2.standing(CSA, "PRE-SHOCK RETREAT C1a IF DISORDERED")
	h2.activate(USA, "U Div")
	h2.rolls = []int{9, 0, 0, 0}
	h2.must(USA, "U1a: SHOCK 0705")
	if !strings.Contains(h2.facts(), "second disorder") {
		t.Errorf("a disordered unit failing its retreat UDD:\n%s", h2.facts())
	}
}

func TestGBACW_14_3c_GreenAttackersUDD(t *testing.T) {
	h := clearField(t, "", "U2a", "C1a")
	h.set("U2a ORDER attack")
	h.put("U2a", "0605", "E")
	h.put("C1a", "0705", "W")
	h.activate(USA, "U Div")
	h.rolls = []int{9, 0, 0}
	h.must(USA, "U2a: SHOCK 0705")
	if !h.told("is green and fails") || strings.Contains(h.facts(), "shock.resolved") || h.u("U2a").Disordered {
		t.Errorf("a green attacker failing its UDD:\n%s", h.facts())
	}
}

func TestGBACW_14_3d_DefenderUDD(t *testing.T) {
	for _, tc := range []struct {
		dis  bool
		dr   int
		want string
	}{{false, 0, "passed"}, {false, 9, "unit.disordered unit=C1a"}, {true, 9, "second disorder"}} {
		h := shockField(t)
		h.put("U1a", "0605", "E")
		h.put("C1a", "0705", "W")
		if tc.dis {
			h.set("C1a DISORDERED on")
		}
		h.activate(USA, "U Div")
		h.rolls = []int{tc.dr, 0, 0, 0, 0}
		h.must(USA, "U1a: SHOCK 0705")
		if !strings.Contains(h.facts(), "shocked (14.3d)") || !strings.Contains(h.facts(), tc.want) && !(tc.want == "passed" && strings.Contains(h.facts(), "ok=true")) {
			t.Errorf("dr %d, disordered %v: want %q\n%s", tc.dr, tc.dis, tc.want, h.facts())
		}
	}
}

func TestGBACW_14_3ef_ResolutionDRMsAndAdvance(t *testing.T) {
	h := shockField(t)
	h.put("U1a", "0605", "E")
	h.put("C1a", "0705", "W")
	h.leaderAt("U1 Leader", "0605") // aggressive, with the attacker
	h.activate(USA, "U Div")
	h.rolls = []int{0, 9, 0, 0}
	h.must(USA, "U1a: SHOCK 0705 ADVANCE")
	var res events.Fact
	for _, f := range h.last.Facts {
		if f.Kind == "shock.resolved" {
			res = f
		}
	}
	// +1 aggressive leader (18.3), +1 infantry charge (14.3h).
	if res.Int("drm") != 2 || res.Str("odds") != "1:1" {
		t.Errorf("shock: %s", res)
	}
	// A 9 + 2 at 1:1 is D1/Dd/Dr: the defender loses, is disordered,
	// retreats; the attacker advances.
	if h.u("C1a").Hex.String() == "0705" || h.u("U1a").Hex.String() != "0705" || !h.u("C1a").Disordered {
		t.Errorf("after D1/Dd/Dr: C1a %s disordered %v, U1a %s\n%s", h.u("C1a").Hex, h.u("C1a").Disordered, h.u("U1a").Hex, h.facts())
	}
}

func TestGBACW_14_3g_DisorderIsAppliedLast(t *testing.T) {
	h := shockField(t)
	h.put("U1a", "0605", "E")
	h.put("C1a", "0705", "W")
	h.activate(USA, "U Div")
	h.rolls = []int{0, 0, 0}
	h.must(USA, "U1a: SHOCK 0705") // dr 0 +0 (-1 no leader, +1 charge) at 1:1: Ad
	var after bool
	for _, f := range h.last.Facts {
		after = after || f.Kind == "shock.resolved"
		if f.Kind == "unit.disordered" && f.Str("unit") == "U1a" && !after {
			t.Error("the attacker disordered before the resolution")
		}
	}
	if !h.u("U1a").Disordered {
		t.Errorf("Ad: U1a not disordered\n%s", h.facts())
	}
}

func TestGBACW_14_3h_ChargeBonusForInfantryOnAttackOrdersThatDidNotFire(t *testing.T) {
	drm := func(order string, fired bool) int64 {
		h := clearField(t, "", "U1a", "C1a")
		h.set("U1a ORDER " + order)
		h.put("U1a", "0605", "E")
		h.put("C1a", "0705", "W")
		h.leaderAt("U1 Leader", "0101")
		if fired {
			h.set("U1a FIRED on")
		}
		h.activate(USA, "U Div")
		if fired {
			h.set("U1a FIRED on")
		}
		h.rolls = make([]int, 8)
		h.must(USA, "U1a: SHOCK 0705")
		for _, f := range h.last.Facts {
			if f.Kind == "shock.resolved" {
				return f.Int("drm")
			}
		}
		t.Fatalf("no shock\n%s", h.facts())
		return 0
	}
	if a, v := drm(Attack, false), drm(Advance, false); a-v != 1 {
		t.Errorf("Attack orders %+d, Advance %+d: the charge bonus is +1", a, v)
	}
	if a, f := drm(Attack, false), drm(Attack, true); a-f != 1 {
		t.Errorf("not fired %+d, fired %+d", a, f)
	}
}

func TestGBACW_14_3i_MountedCavalryCharges(t *testing.T) {
	h := clearField(t, "", "UCa", "C1a")
	h.put("UCa", "0605", "E")
	h.put("C1a", "0705", "W")
	h.activate(USA, "U Cav Div")
	h.rolls = make([]int, 8)
	h.must(USA, "UCa: CHARGE 0705")
	u := h.u("UCa")
	if !u.Charged || !u.Blown || !strings.Contains(h.facts(), "shock.resolved") {
		t.Errorf("a charge: charged %v blown %v\n%s", u.Charged, u.Blown, h.facts())
	}
	if !strings.Contains(h.echoAll(), "") {
		t.Fatal()
	}
}

func (h *harness) echoAll() string { return h.echo() }

// --- 15 Artillery ---

func TestGBACW_15_1_ArtilleryKeepsOutOfTheEnemysReach(t *testing.T) {
	h := clearField(t, "", "U Bat", "C1a")
	h.put("U Bat", "0105", "E")
	h.put("C1a", "0505", "W")
	h.activate(USA, "U Div")
	h.refused(USA, "U Bat: MOVE 0205", "within 3 hexes")
}

func TestGBACW_15_2_ArtilleryNearTheEnemyClosesOnlyIntoFriendlyUnits(t *testing.T) {
	h := clearField(t, "", "U Bat", "U1a", "C1a")
	h.put("U Bat", "0205", "E")
	h.put("C1a", "0505", "W")
	h.put("U1a", "0305", "E")
	h.activate(USA, "U Div")
	h.refused(USA, "U Bat: MOVE "+nb("0205", hex.SE), "only into hexes with friendly")
	h.must(USA, "U Bat: MOVE 0305")
}

func TestGBACW_15_3_HorseArtilleryIsTreatedAsCavalry(t *testing.T) {
	h := clearField(t, "", "U Horse", "UCa", "C1a")
	h.put("U Horse", "0105", "E")
	h.put("C1a", "0505", "W")
	h.put("UCa", "0105", "E")
	if why := h.st.stackWhy([]*Unit{h.u("UCa"), h.u("U Horse")}); why != "" {
		t.Errorf("cavalry with horse artillery: %q", why)
	}
	h.set("UCa HEX 0112")
	h.activate(USA, "U Cav Div")
	h.must(USA, "U Horse: MOVE 0205") // no 15.1 for it
	if h.st.ma(h.u("U Horse")) != 20 {
		t.Errorf("MA %s", halfMP(h.st.ma(h.u("U Horse"))))
	}
}

// --- 16 Cavalry ---

func TestGBACW_16_1_MountAndDismountBeforeMovingNotNextToTheEnemy(t *testing.T) {
	h := clearField(t, "", "UCa", "C1a")
	h.put("UCa", "0105", "E")
	h.put("C1a", "0505", "W")
	h.activate(USA, "U Cav Div")
	h.refused(USA, "UCa: MOVE 0205\nUCa: DISMOUNT", "before it moves")
	h.must(USA, "UCa: DISMOUNT\nUCa: MOVE 0205")
	if h.u("UCa").Mounted {
		t.Error("still mounted")
	}
	h2 := clearField(t, "", "UCa", "C1a")
	h2.put("UCa", "0405", "E")
	h2.put("C1a", "0505", "W")
	h2.activate(USA, "U Cav Div")
	h2.refused(USA, "UCa: DISMOUNT", "next to the enemy")
}

func TestGBACW_16_2_HalfMAInThePhaseOfTheChange(t *testing.T) {
	h := clearField(t, "", "UCa")
	h.put("UCa", "0101", "SSE")
	h.activate(USA, "U Cav Div")
	h.refused(USA, "UCa: DISMOUNT\nUCa: MOVE 0102 0103 0104 0105 0106 0107", "MP this phase")
	h.must(USA, "UCa: DISMOUNT\nUCa: MOVE 0102 0103 0104 0105")
}

func TestGBACW_16_3a_BlownCannotDismount(t *testing.T) {
	h := clearField(t, "", "UCa")
	h.set("UCa BLOWN on")
	h.activate(USA, "U Cav Div")
	h.refused(USA, "UCa: DISMOUNT", "blown")
}

func TestGBACW_16_3b_NoFireInAPhaseOfCharge(t *testing.T) {
	h := clearField(t, "", "UCa", "C1a")
	h.put("UCa", "0605", "E")
	h.put("C1a", "0705", "W")
	h.activate(USA, "U Cav Div")
	h.refused(USA, "UCa: FIRE AT 0705\nUCa: CHARGE 0705", "fired this phase")
}

func TestGBACW_16_3c_MountedFireTwoHexesButReturnFire(t *testing.T) {
	// UCb carries rifles (range 3).
	h := clearField(t, "", "UCb", "C1a")
	h.put("UCb", "0402", "E")
	h.put("C1a", "0702", "W")
	h.activate(USA, "U Cav Div")
	h.refused(USA, "UCb: FIRE AT 0702", "2 hexes at most")
	// Its return fire may reach 3.
	h2 := clearField(t, "", "UCb", "C1a")
	h2.put("UCb", "0402", "E")
	h2.put("C1a", "0702", "W")
	h2.standing(USA, "RETURN FIRE ALL ALWAYS")
	h2.activate(CSA, "C Div")
	h2.rolls = make([]int, 6)
	h2.must(CSA, "C1a: FIRE AT 0402")
	if !strings.Contains(h2.facts(), "kind=return") {
		t.Errorf("no return fire by mounted cavalry at 3 hexes:\n%s", h2.facts())
	}
}

func TestGBACW_16_4_DismountedCavalryOf4SPLeavesHorseHolders(t *testing.T) {
	h := clearField(t, "", "UCa", "UCb")
	h.set("UCa MOUNTED off", "UCb MOUNTED off")
	if h.st.strength(h.u("UCa")) != 3 || h.st.strength(h.u("UCb")) != 3 {
		t.Errorf("dismounted 4 SP counts %d, 3 SP counts %d", h.st.strength(h.u("UCa")), h.st.strength(h.u("UCb")))
	}
}

func TestGBACW_16_5_DismountedCavalryIsInfantry(t *testing.T) {
	h := clearField(t, "", "UCa")
	h.set("UCa MOUNTED off")
	if h.st.typ(h.u("UCa")) != Infantry || h.st.fireCap(h.u("UCa")) != 7 {
		t.Errorf("dismounted cavalry: %s, fire cap %d", h.st.typ(h.u("UCa")), h.st.fireCap(h.u("UCa")))
	}
}
