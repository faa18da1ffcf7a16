package gbacw

// Cases read against the seed where the second version still read it
// otherwise: fire by the stack (11.1, 11.5, 11.5a), leaders per brigade
// activation (17.1), the one March AM (10.1, 3.3), the player's own
// choices (7.3, 14.3b) and numbers the seed does not give (10.8, 11.4,
// 19.6).

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/hex"
	"pbem/events"
)

// --- 11.1, 11.5, 11.5a (B14): fire by the stack ---

// TestGBACW_11_1_ArtilleryCapIsTheStacks: the 12 SP of artillery is
// what a stack fires, not each battery: a battery under another of 8 SP
// fires 4.
func TestGBACW_11_1_ArtilleryCapIsTheStacks(t *testing.T) {
	h := clearField(t, "", "U Bat", "U Horse", "C1a")
	h.set("U Bat SP 8", "U Horse SP 6")
	h.put("U Bat", "0505", "E")
	h.put("U Horse", "0505", "E")
	h.set("U Bat STACK 0", "U Horse STACK 1")
	h.put("C1a", "0705", "W")
	h.activate(USA, "U Cav Div")
	h.rolls = []int{0, 0}
	h.must(USA, "U Horse: FIRE AT 0705")
	if fs := h.fires(); len(fs) != 1 || fs[0].Int("sp") != 4 {
		t.Errorf("a battery under 8 SP of artillery fires %v; want 4 (12 SP a stack, 11.1)", fs)
	}
}

// TestGBACW_11_5a_EachTopUnitWithinTheCapsFires: the specification's
// reading of B14 is the default: every unit from the top of the stack
// that the stack's caps reach fires (11.1), the second infantry unit
// with what the first leaves of the 7 SP. Option b14-top-non-artillery
// gives the first version's reading (only the top unit other than
// artillery, and the batteries); b14-one-firer the top unit alone.
func TestGBACW_11_5a_EachTopUnitWithinTheCapsFires(t *testing.T) {
	for _, tc := range []struct {
		opt     string
		second  string // "" when U1b fires, else the refusal
		batFire bool
	}{
		{"", "", true},
		{"b14-top-non-artillery", "top unit", true},
		{"b14-one-firer", "top unit", false},
	} {
		h := clearField(t, tc.opt, "U1a", "U1b", "U Bat", "C1a")
		h.set("U1a SP 4", "U1b SP 5")
		h.put("U1a", "0505", "E")
		h.put("U1b", "0505", "E")
		h.put("U Bat", "0505", "E")
		h.set("U1a STACK 0", "U1b STACK 1", "U Bat STACK 2")
		h.put("C1a", "0705", "W")
		h.activate(USA, "U Div")
		h.rolls = make([]int, 10)
		if tc.second != "" {
			h.refused(USA, "U1a: FIRE AT 0705\nU1b: FIRE AT 0705", tc.second)
		} else {
			h.must(USA, "U1a: FIRE AT 0705\nU1b: FIRE AT 0705\nU Bat: FIRE AT 0705")
			if fs := h.fires(); len(fs) != 3 || fs[0].Int("sp") != 4 || fs[1].Int("sp") != 3 || fs[2].Int("sp") != 3 {
				t.Errorf("option %q: 4 and 5 SP of infantry and a battery of 3 from one stack fire %v; want 4, 3 and 3 (7 SP, 11.1)", tc.opt, fs)
			}
			continue
		}
		if probs := h.send(USA, "U1a: FIRE AT 0705\nU Bat: FIRE AT 0705"); (len(probs) == 0) != tc.batFire {
			t.Errorf("option %q: the battery's fire: %v", tc.opt, probs)
		}
	}
	// Below a stack's 7 SP of infantry, another infantry unit fires nothing.
	h := clearField(t, "", "U1a", "U1b", "C1a")
	h.set("U1a SP 7")
	h.put("U1a", "0505", "E")
	h.put("U1b", "0505", "E")
	h.set("U1a STACK 0", "U1b STACK 1")
	h.put("C1a", "0705", "W")
	h.activate(USA, "U Div")
	h.refused(USA, "U1b: FIRE AT 0705", "top unit")
}

// TestGBACW_11_5_SplitUnitsCombineOnlyAtTheSameTarget: the split units
// of one regiment in a stack combine their fire when they fire at the
// same target (11.5, 8.32), and only then: the top half firing alone
// fires its own SP, and the halves firing at two targets fire apart.
func TestGBACW_11_5_SplitUnitsCombineOnlyAtTheSameTarget(t *testing.T) {
	scene := func() *harness {
		h := splitField(t)
		h.set("U1a SP 3", "U1b SP 2", "C1b REMOVED off", "C1b SP 5")
		h.put("U1a", "0505", "E")
		h.put("U1b", "0505", "E")
		h.put("C1a", "0705", "W")
		h.put("C1b", "0704", "W")
		h.activate(USA, "U Div")
		h.rolls = make([]int, 10)
		return h
	}
	h := scene()
	h.must(USA, "U1a: FIRE AT 0705")
	if fs := h.fires(); len(fs) != 1 || fs[0].Int("sp") != 3 || h.u("U1b").Fired {
		t.Errorf("the top half alone fires %v, U1b fired %v; want 3 SP and U1b free", fs, h.u("U1b").Fired)
	}
	h = scene()
	h.must(USA, "U1a: FIRE AT 0705\nU1b: FIRE AT 0704")
	if fs := h.fires(); len(fs) != 2 || fs[0].Int("sp") != 3 || fs[1].Int("sp") != 2 {
		t.Errorf("halves at two targets fire %v; want 3 and 2 apart", fs)
	}
	h = scene()
	h.must(USA, "U1a: FIRE AT 0705\nU1b: FIRE AT 0705")
	if fs := h.fires(); len(fs) != 1 || fs[0].Int("sp") != 5 {
		t.Errorf("halves at one target fire %v; want one fire of 5 (11.5)", fs)
	}
}

// --- 17.1: leaders move with each brigade activation ---

// TestGBACW_17_1_DivisionLeaderMovesTenInEachBrigadesPhase: a division
// leader has 10 MP in each brigade activation of his division's AM, not
// 10 for the AM: his lines go with the brigade whose line comes before
// them in the mail.
func TestGBACW_17_1_DivisionLeaderMovesTenInEachBrigadesPhase(t *testing.T) {
	h := clearField(t, "", "U1a", "U2a")
	h.put("U1a", "0301", "SSE")
	h.put("U2a", "0304", "SSE")
	h.leaderAt("U Div Leader", "0106")
	h.activate(USA, "U Div")
	h.must(USA, "U1a: FACE E\nU Div Leader: MOVE TO 0112\nU2a: FACE E\nU Div Leader: MOVE TO 0612")
	if l := h.st.leader("U Div Leader"); l.Hex.String() != "0612" {
		t.Errorf("U Div Leader at %s; want 0612 (6 MP in U1's phase, 5 in U2's)", l.Hex)
	}
	// Within one brigade's phase, 10 MP.
	h = clearField(t, "", "U1a", "U2a")
	h.put("U1a", "0301", "SSE")
	h.leaderAt("U Div Leader", "0106")
	h.activate(USA, "U Div")
	h.refused(USA, "U1a: FACE E\nU Div Leader: MOVE TO 0112\nU Div Leader: MOVE TO 0612", "cannot reach")
}

// --- 10.1 and 3.3: the March AM ---

// TestGBACW_10_1_OneMarchAMActivatesTheColumnsInARow: a side's March AM
// is one marker in the pool; drawn, it activates the March columns as
// many times as its draw says (1-4), one after the other, before the
// next AM is drawn.
func TestGBACW_10_1_OneMarchAMActivatesTheColumnsInARow(t *testing.T) {
	h := marchField(t, "U2a", "U1a")
	h.put("U2a", "0203", "SE")
	h.put("U1a", "0210", "SSE")
	h.facts0(newFact("march.ams", eS("side", USA), eI("n", 3), eI("dr", 7)),
		newFact("march.ams", eS("side", CSA), eI("n", 0), eI("dr", 0)),
		newFact("division.ams", eS("division", "U Div"), eI("n", 1), eI("dr", 0), eS("why", "")),
		newFact("division.ams", eS("division", "U Cav Div"), eI("n", 0), eI("dr", 0), eS("why", "")),
		newFact("division.ams", eS("division", "C Div"), eI("n", 0), eI("dr", 0), eS("why", "")),
		newFact("division.ams", eS("division", "C Cav Div"), eI("n", 0), eI("dr", 0), eS("why", "")),
		newFact("side.done", eS("side", USA)), newFact("side.done", eS("side", CSA)))
	m := &sim{st: h.st, dice: h.dice}
	m.maybeStartActivations()
	h.st = m.st
	if n := strings.Count(strings.Join(append(slices.Clone(h.st.Pool), h.st.Act.AM), " "), "USA|March"); n != 1 {
		t.Fatalf("the pool and the activation hold %d USA March AMs; want one marker (10.1)", n)
	}
	// Bring the March AM up first, whatever the draw.
	h.activate(USA, "March")
	h.facts0(newFact("pool.filled", events.SL("ams", "USA|U Div")))
	for i, hexes := range []string{"0303", "0403", "0503"} {
		if h.st.Act == nil || h.st.Act.AM != "USA|March" {
			t.Fatalf("activation %d of 3: the AM is %v; want USA's March AM again", i+1, h.st.Act)
		}
		h.must(USA, "U2a: MOVE "+hexes)
	}
	if h.st.Act == nil || h.st.Act.AM != "USA|U Div" {
		t.Errorf("after three March activations the AM is %v; want the next one drawn", h.st.Act)
	}
}

// TestGBACW_3_3_OrdersChangeOnTheMarchAM: every activation has its
// Order Change Phase (3.3), the March AM's too: a March brigade may
// change its orders there. Option march-am-no-change forbids it.
func TestGBACW_3_3_OrdersChangeOnTheMarchAM(t *testing.T) {
	for _, opt := range []string{"", "march-am-no-change"} {
		h := clearField(t, opt, "U2a")
		h.set("U2 ORDER march", "U2a ORDER march")
		h.put("U2a", "0203", "SE")
		h.activate(USA, "March")
		h.rolls = []int{9}
		probs := h.send(USA, "CHANGE U2 ADVANCE")
		if (len(probs) == 0) != (opt == "") {
			t.Errorf("option %q: an order change on the March AM: %v", opt, probs)
		}
	}
}

// --- numbers the seed does not give (10.8, 11.4, 19.6) ---

// TestGBACW_10_8_NoMarchShockedDRMTheSeedDoesNotGive: 10.8 says a March
// column shocked takes a UDD "with DRMs" and gives none; the sample
// tables add none of their own (a scenario may give one).
func TestGBACW_10_8_NoMarchShockedDRMTheSeedDoesNotGive(t *testing.T) {
	h := marchField(t, "U2b", "C1a")
	h.set("C1 ORDER attack", "C1a ORDER attack")
	h.put("U2b", "0505", "NE")
	h.put("C1a", nb("0505", hex.NE), "SSW")
	h.activate(CSA, "C Div")
	h.rolls = []int{0, 5, 5, 5, 5, 5, 5}
	h.must(CSA, "C1a: SHOCK 0505")
	for _, f := range h.last.Facts {
		if f.Kind == "udd.rolled" && f.Str("unit") == "U2b" && f.Int("drm") != 0 {
			t.Errorf("the March column's UDD has DRM %+d from the sample tables; the seed gives none (10.8)", f.Int("drm"))
		}
	}
}

// TestGBACW_11_4_PreparedFireIsThePhasingUnits: the Prepared Fire bonus
// is lost by a unit that moved in its phase (11.4): it is the phasing
// unit's fire. Return fire has none, though the unit has not moved;
// option prepared-fire-any gives it to any fire by a unit that has not
// moved.
func TestGBACW_11_4_PreparedFireIsThePhasingUnits(t *testing.T) {
	drm := func(opt string) int64 {
		h := clearField(t, opt, "U1a", "C1a")
		h.put("U1a", "0505", "E")
		h.put("C1a", "0705", "W")
		h.standing(CSA, "RETURN FIRE C1a ALWAYS")
		h.activate(USA, "U Div")
		h.rolls = []int{5, 5, 5, 5}
		h.must(USA, "U1a: FIRE AT 0705")
		for _, f := range h.fires() {
			if f.Str("kind") == "return" {
				return f.Int("drm")
			}
		}
		t.Fatalf("option %q: no return fire", opt)
		return 0
	}
	plain, withOpt := drm(""), drm("prepared-fire-any")
	if withOpt-plain != 1 {
		t.Errorf("return fire DRM %+d, with prepared-fire-any %+d: want the +1 Prepared Fire bonus only with the option", plain, withOpt)
	}
}

// TestGBACW_19_6_ARetreatIsNotMoving: end-of-turn recovery is for units
// that did not move (19.6): a retreat or a rout is a result suffered,
// not a move made, so a disordered unit that only retreated recovers.
// Option retreat-is-moving reads it the other way.
func TestGBACW_19_6_ARetreatIsNotMoving(t *testing.T) {
	for _, tc := range []struct {
		opt       string
		recovered bool
	}{{"", true}, {"retreat-is-moving", false}} {
		h := clearField(t, tc.opt, "U1a")
		h.put("U1a", "0505", "E")
		h.set("U1a DISORDERED on")
		m := &sim{st: h.st, dice: h.dice}
		m.retreat(m.st.unit("U1a"), 1, "a pre-shock retreat")
		h.st = m.st
		if h.u("U1a").Hex.String() == "0505" {
			t.Fatal("U1a did not retreat")
		}
		h.facts0(events.NewFact("phase.set", events.S("phase", PhaseCommanders)))
		h.must(USA, "DONE")
		h.must(CSA, "DONE")
		if got := !h.u("U1a").Disordered; got != tc.recovered {
			t.Errorf("option %q: a unit that only retreated recovered %v at the end of the turn", tc.opt, got)
		}
	}
}

// --- the package's readings as options ---

// TestGBACW_7_4_TurnsApartOption: by default the points a unit turns in
// one hex add up (7.4: two one-point turns cost 1 MP); option
// turns-apart prices each turn alone.
func TestGBACW_7_4_TurnsApartOption(t *testing.T) {
	for _, tc := range []struct {
		opt string
		mp  int
	}{{"", 2}, {"turns-apart", 0}} {
		h := clearField(t, tc.opt, "U1a")
		h.put("U1a", "0305", "E")
		h.activate(USA, "U Div")
		h.must(USA, "U1a: FACE SSE\nU1a: FACE SSW")
		if u := h.u("U1a"); u.MP != tc.mp {
			t.Errorf("option %q: two FACEs of a point cost %s MP, want %s", tc.opt, halfMP(u.MP), halfMP(tc.mp))
		}
	}
}

// TestGBACW_14_3a_ShockBestHexOption: a shock on two defender hexes
// takes the defender's hex DRMs (facing, terrain, works, hexside) from
// the first hex named; option shock-best-hex from the hex best for the
// defender.
func TestGBACW_14_3a_ShockBestHexOption(t *testing.T) {
	drm := func(opt string) int64 {
		h := clearField(t, opt, "U1a", "C1a", "C1b")
		h.set("U1 ORDER attack", "U1a ORDER attack")
		h.put("U1a", "0604", "E")
		h.put("C1a", "0704", "W")
		h.put("C1b", "0705", "E") // U1a at its rear
		h.activate(USA, "U Div")
		h.rolls = make([]int, 20)
		h.must(USA, "U1a: SHOCK 0705 AND 0704")
		for _, f := range h.last.Facts {
			if f.Kind == "shock.resolved" {
				return f.Int("drm")
			}
		}
		t.Fatalf("option %q: no shock resolved\n%s", opt, h.facts())
		return 0
	}
	first, best := drm(""), drm("shock-best-hex")
	if first-best != 2 {
		t.Errorf("DRM %+d with the first hex named (C1b's rear, +2), %+d with shock-best-hex; want 2 apart", first, best)
	}
}

// --- mail ---

// seenBy is what a side reads of the last decision: the echo lines and
// facts open to it, each fact in its words.
func (h *harness) seenBy(side string) string {
	var b strings.Builder
	for i, l := range h.last.Echo {
		if v := h.last.EchoVis[i]; v.Public() || v.Open("", side) {
			b.WriteString(l + "\n")
		}
	}
	for _, f := range h.last.Facts {
		if f.Vis.Public() || f.Vis.Open("", side) {
			b.WriteString(describe(h.st, f) + "\n")
		}
	}
	return b.String()
}

// TestGBACW_ReactionAskedIsToldToTheAskedSideAlone: while a reaction is
// asked of one side, the other reads only that the game waits for it:
// not the question, which names the asked side's units and says "your"
// to it (13.1, 13.4).
func TestGBACW_ReactionAskedIsToldToTheAskedSideAlone(t *testing.T) {
	h := clearField(t, "", "U1a", "C1a")
	h.put("U1a", "0505", "E")
	h.put("C1a", "0705", "W")
	h.standing(CSA, "RETURN FIRE C1a ASK")
	h.activate(USA, "U Div")
	h.rolls = []int{5, 5}
	h.must(USA, "U1a: FIRE AT 0705")
	usa, csa := h.seenBy(USA), h.seenBy(CSA)
	if !strings.Contains(csa, "13.1 Return fire") || !strings.Contains(csa, "your C1a") {
		t.Fatalf("CSA is not asked:\n%s", csa)
	}
	if strings.Contains(usa, "Return fire") || strings.Contains(usa, "your C1a") || !strings.Contains(usa, "The game waits for CSA") {
		t.Errorf("USA reads the question asked of CSA, or not that the game waits:\n%s", usa)
	}
	if w := render(h.st, engine.Viewer{Side: USA}).Window; strings.Contains(w, "your C1a") || !strings.Contains(w, "waiting for CSA") {
		t.Errorf("USA's board:\n%s", w)
	}
	if w := render(h.st, engine.Viewer{Side: CSA}).Window; !strings.Contains(w, "your C1a") {
		t.Errorf("CSA's board does not say what is asked:\n%s", w)
	}
	// The prompt's line, which every mail's "who acts now" shows to
	// every reader, names no unit of the side asked.
	for _, p := range prompts(h.st) {
		if strings.Contains(p.What, "C1a") || strings.Contains(p.What, "your") {
			t.Errorf("the prompt every reader sees: %q", p.What)
		}
	}
	// Nor does the refusal of a mail USA sends while CSA is asked.
	if ps := h.send(USA, "U1a: FIRE AT 0705"); len(ps) != 1 || strings.Contains(ps[0].Msg, "C1a") || strings.Contains(ps[0].Msg, "your") || !strings.Contains(ps[0].Msg, "waits for CSA") {
		t.Errorf("USA's mail while CSA is asked is refused with %+v", ps)
	}
}

// TestGBACW_NoInternalIDsInProse: the mails name an AM as a player
// reads it ("USA's U Div AM", not "USA|U Div") and give the orders
// waiting as the player wrote them (not the program's "MOVE FROM").
func TestGBACW_NoInternalIDsInProse(t *testing.T) {
	h := clearField(t, "", "U1a", "U2a", "C1a")
	h.put("U1a", "0305", "E")
	h.put("C1a", "0805", "W")
	h.standing(CSA, "CLOSING FIRE C1a ASK")
	h.activate(USA, "U Div")
	h.must(USA, "U1a: MOVE 0405 0505 0605")
	usa := h.seenBy(USA)
	if !strings.Contains(usa, "The orders sent wait") {
		t.Fatalf("no closing fire asked, no orders held:\n%s", usa)
	}
	if strings.Contains(usa, "FROM") || strings.Contains(usa, "USA|") {
		t.Errorf("internal ids in USA's mail:\n%s", usa)
	}
	h = clearField(t, "", "U1a", "UCa")
	h.activate(USA, "U Div")
	probs := h.send(USA, "UCa: MOVE 0205")
	if len(probs) == 0 || strings.Contains(probs[0].Msg, "|") || !strings.Contains(probs[0].Msg, "USA's U Div AM") {
		t.Errorf("the refusal names the AM %v", probs)
	}
}

// dieLineRe reads a die line of the shared shape: "rolls D, +K source
// ... = RESULT".
var dieLineRe = regexp.MustCompile(`rolls (\d+)((?:, [+-]\d+ [^,=]*[^,= ])*)(?: = (-?\d+))?`)
var modRe = regexp.MustCompile(`, ([+-]\d+) [^,=]+`)

// checkDieLines checks every die line of text: each modifier named, the
// result their sum; it returns how many it read.
func checkDieLines(t *testing.T, text string) int {
	t.Helper()
	n := 0
	for _, m := range dieLineRe.FindAllStringSubmatch(text, -1) {
		n++
		sum, _ := strconv.Atoi(m[1])
		mods := modRe.FindAllStringSubmatch(m[2], -1)
		for _, x := range mods {
			k, _ := strconv.Atoi(x[1])
			sum += k
		}
		if len(mods) > 0 && m[3] != strconv.Itoa(sum) {
			t.Errorf("die line %q: the modifiers make %d", m[0], sum)
		}
		if len(mods) == 0 && m[3] != "" {
			t.Errorf("die line %q: a result with no modifier named", m[0])
		}
	}
	return n
}

// TestGBACW_11_4_FireLinesNameTheirDRMs: a fire's line gives the roll,
// each DRM with its source (the weapon at its range, Prepared Fire 11.4,
// ...) and their sum, in the die-line shape every rule system writes;
// so do the UDD and the shock.
func TestGBACW_11_4_FireLinesNameTheirDRMs(t *testing.T) {
	h := clearField(t, "", "U1a", "C1a")
	h.set("U1a ORDER attack")
	h.put("U1a", "0402", "E")
	h.put("C1a", "0702", "W")
	h.activate(USA, "U Div")
	h.rolls = []int{5, 0, 0}
	h.must(USA, "U1a: FIRE AT 0702")
	text := h.seenBy(USA)
	if !strings.Contains(text, "U1a rolls 5, -1 rifle at 3 hexes (R2), +1 prepared fire (11.4) = 5 on the Fire Results Table (R2)") {
		t.Errorf("the fire line does not name its DRMs:\n%s", text)
	}
	if checkDieLines(t, text) == 0 {
		t.Errorf("no die line read:\n%s", text)
	}
	h = shockField(t)
	h.put("U1a", "0604", "E")
	h.put("C1a", "0705", "E") // U1a at its rear
	h.leaderAt("C1 Leader", "0705")
	h.activate(USA, "U Div")
	h.rolls = make([]int, 20)
	h.must(USA, "U1a: SHOCK 0705")
	text = h.seenBy(USA)
	if !strings.Contains(text, "(R3) = ") || !strings.Contains(text, "+2 at the rear (R3)") {
		t.Errorf("the shock line does not name its DRMs:\n%s", text)
	}
	if checkDieLines(t, text) < 2 {
		t.Errorf("the shock's UDD and resolution are not die lines:\n%s", text)
	}
}

// --- the player's choices (7.3) ---

// TestGBACW_7_3_TheTurnAfterAnAdvanceIsThePlayers: the free turn after
// an advance after combat (7.3) is ordered with the advance: SHOCK ...
// ADVANCE FACE <vertex>.
func TestGBACW_7_3_TheTurnAfterAnAdvanceIsThePlayers(t *testing.T) {
	h := shockField(t)
	h.set("C1a SP 2")
	h.put("U1a", "0604", "E")
	h.put("C1a", "0705", "W")
	h.activate(USA, "U Div")
	h.rolls = []int{9, 9, 9, 9, 9, 9, 9, 9}
	h.must(USA, "U1a: SHOCK 0705 ADVANCE FACE SSE")
	u := h.u("U1a")
	if u.Hex.String() != "0705" {
		t.Fatalf("U1a did not advance: at %s\n%s", u.Hex, h.facts())
	}
	if got := facingShort(u); got != "SSE" {
		t.Errorf("U1a faces %s after its advance; it was ordered to face SSE (7.3)", got)
	}
	h.refused(USA, "U1b: SHOCK 0705 ADVANCE FACE S", "faces a vertex")
}

// TestGBACW_7_3_FacingToAndFromMarchIsThePlayers: the free turn on
// going to or from March orders (7.3) is the player's: CHANGE (or
// ORDER) <brigade> MARCH FACE <side>; without FACE the units take the
// side next to their vertex.
func TestGBACW_7_3_FacingToAndFromMarchIsThePlayers(t *testing.T) {
	h := clearField(t, "", "U1a")
	h.put("U1a", "0305", "E")
	h.activate(USA, "U Div")
	h.rolls = []int{9}
	h.must(USA, "CHANGE U1 MARCH FACE S")
	if u := h.u("U1a"); u.Order != March || facingShort(u) != "S|" {
		t.Errorf("U1a: %s orders facing %s; want March facing the side S", u.Order, facingShort(u))
	}
	h.activate(USA, "March")
	h.refused(USA, "CHANGE U1 ATTACK FACE S", "faces a vertex")
	h.rolls = []int{9}
	h.must(USA, "CHANGE U1 ADVANCE FACE W")
	if u := h.u("U1a"); u.Order != Advance || facingShort(u) != "W" {
		t.Errorf("U1a: %s orders facing %s; want Advance facing W", u.Order, facingShort(u))
	}
	h.activate(USA, "U Div")
	h.refused(USA, "CHANGE U1 ATTACK FACE E", "to or from March")
}

// TestGBACW_14_3b_TheRetreatHexIsThePlayers: where a pre-shock retreat
// has two hexes open (14.3b: into the rear, keeping the facing), the
// question names them and the answer may choose: PRE-SHOCK RETREAT
// <hex>; with none named (or a standing order) the first is taken.
func TestGBACW_14_3b_TheRetreatHexIsThePlayers(t *testing.T) {
	scene := func() *harness {
		h := shockField(t)
		h.put("U1a", "0605", "E")
		h.put("C1a", "0705", "W")
		h.standing(CSA, "PRE-SHOCK RETREAT C1a ASK")
		h.activate(USA, "U Div")
		h.rolls = []int{0, 0, 0}
		h.must(USA, "U1a: SHOCK 0705")
		return h
	}
	h := scene()
	hs := h.st.rearHexes(h.u("C1a"))
	if len(hs) != 2 {
		t.Fatalf("C1a's rear hexes open: %v", hs)
	}
	if csa := h.seenBy(CSA); !strings.Contains(csa, "It may retreat into "+hs[0]+" or "+hs[1]) {
		t.Errorf("the question does not name the hexes:\n%s", csa)
	}
	h.must(CSA, "PRE-SHOCK RETREAT "+hs[1])
	if got := h.u("C1a").Hex.String(); got != hs[1] {
		t.Errorf("C1a retreated to %s; its player chose %s", got, hs[1])
	}
	h = scene()
	h.must(CSA, "PRE-SHOCK RETREAT")
	if got := h.u("C1a").Hex.String(); got != hs[0] {
		t.Errorf("C1a retreated to %s with no hex named; want the first, %s", got, hs[0])
	}
	h = scene()
	h.refused(CSA, "PRE-SHOCK RETREAT 0101 0102", "takes nothing after it")
	h.refused(CSA, "PRE-SHOCK RETREAT 0101", "not a hex C1a may retreat into")
}

// TestGBACW_13_4_OneQuestionForEveryUnitOneEventConcerns: a move that
// lets two units react is asked of their side once, naming both; the
// answer names the units that react ("CLOSING FIRE C1b"), PASS none.
func TestGBACW_13_4_OneQuestionForEveryUnitOneEventConcerns(t *testing.T) {
	h := clearField(t, "", "U1a", "C1a", "C1b")
	h.put("C1a", "0805", "W")
	h.put("C1b", "0706", "W")
	h.put("U1a", "0405", "E")
	h.standing(CSA, "CLOSING FIRE ALL ASK")
	h.activate(USA, "U Div")
	h.rolls = []int{0, 0, 0}
	h.must(USA, "U1a: MOVE 0505")
	var asks []string
	for _, f := range h.last.Facts {
		if f.Kind == "prog.asked" {
			asks = append(asks, f.Str("what"))
		}
	}
	if len(asks) != 1 || !strings.Contains(asks[0], "your C1a") || !strings.Contains(asks[0], "your C1b") {
		t.Fatalf("want one question naming C1a and C1b, got %q", asks)
	}
	h.refused(CSA, "CLOSING FIRE", "name the unit")
	h.must(CSA, "CLOSING FIRE C1b")
	fs := h.fires()
	if len(fs) != 1 || fs[0].Str("firer") != "C1b" || strings.Contains(h.facts(), "prog.asked") {
		t.Errorf("after the answer: fires %v, asked again %v\n%s", fs, strings.Contains(h.facts(), "prog.asked"), h.facts())
	}
}

// TestGBACW_14_3b_AMountedRetreatEndsWhereThePlayerChooses: mounted
// cavalry retreats two hexes before a shock (14.3b), so the hex it ends
// in is the choice: the question names the hexes two back, PRE-SHOCK
// RETREAT <hex> chooses one of them, a hex it would only pass is refused.
func TestGBACW_14_3b_AMountedRetreatEndsWhereThePlayerChooses(t *testing.T) {
	scene := func() *harness {
		h := clearField(t, "", "U1a", "CCa")
		h.set("U1 ORDER attack", "U1a ORDER attack")
		h.put("U1a", "0605", "E")
		h.put("CCa", "0705", "W")
		h.standing(CSA, "PRE-SHOCK RETREAT CCa ASK")
		h.activate(USA, "U Div")
		h.rolls = []int{0, 0, 0}
		h.must(USA, "U1a: SHOCK 0705")
		return h
	}
	h := scene()
	if csa := h.seenBy(CSA); !strings.Contains(csa, "may end in 0904, 0905 or 0906") {
		t.Errorf("the question does not name the hexes two back:\n%s", csa)
	}
	h.refused(CSA, "PRE-SHOCK RETREAT 0804", "not a hex CCa may retreat into")
	h.must(CSA, "PRE-SHOCK RETREAT 0906")
	if got := h.u("CCa").Hex.String(); got != "0906" {
		t.Errorf("CCa retreated to %s; its player chose 0906", got)
	}
	h = scene()
	h.must(CSA, "PRE-SHOCK RETREAT")
	if got := h.u("CCa").Hex.String(); got != "0904" {
		t.Errorf("CCa retreated to %s with no hex named; want the first, 0904", got)
	}
}
