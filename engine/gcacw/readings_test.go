package gcacw

import (
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/hex"
)

// A scenario may read an ambiguity of gcacw.md otherwise than by default
// (reading <ID> <choice>); the welcome mail lists every reading a game
// plays with, default or chosen.
func TestScenarioReadings(t *testing.T) {
	base := scn{units: ableA + "\nCSA Z \"Zulu\" inf X str=3 at=1010 in=Z", tables: flatTEC + emTable("")}
	s := base
	s.reading = "A9 exhaust"
	sc, err := ParseScenario(s.bytes())
	if err != nil {
		t.Fatal(err)
	}
	if sc.Reading(ReadA9) != "exhaust" || sc.Reading(ReadA12) != "no-minimum" {
		t.Errorf("readings A9 %q, A12 %q", sc.Reading(ReadA9), sc.Reading(ReadA12))
	}
	lines := strings.Join(sc.readingLines(), "\n")
	for _, want := range []string{
		"A9 (GCACW 5.1-OPT, 5.2.2-OPT, chosen by the scenario): a unit that marches at fatigue 4",
		"A12 (GCACW 5.1.1, default): Union infantry and artillery march 1d6 MP, so an MA of 1 stands.",
		"A15 (", "A18 (", "A26 (", "2.4c (", "R15 (",
	} {
		mustContain(t, "reading lines", lines, want)
	}
	for _, tc := range []struct{ reading, want string }{
		{"A99 stay", `"A99" is not an ambiguity a scenario may read another way (A9, A12, A15, A18, A26, 2.4c, R15)`},
		{"A9 maybe", `reading A9 "maybe": the readings are stay, exhaust (stay is the default)`},
		{"A9", "write the ambiguity and the reading"},
	} {
		s := base
		s.reading = tc.reading
		if _, err := ParseScenario(s.bytes()); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("reading %s: %v, want %q", tc.reading, err, tc.want)
		}
	}
	s.reading = "A9 stay\nreading A9 exhaust"
	if _, err := ParseScenario(s.bytes()); err == nil || !strings.Contains(err.Error(), "reading A9 is given twice") {
		t.Errorf("a reading twice: %v", err)
	}
}

// Ambiguity A9 (GCACW 5.1-OPT): a unit marching at fatigue 4 under the
// optional rule stays at 4; read as "exhaust", its counter also turns to
// the exhausted side.
func TestAmbiguityA9_Fatigue4March(t *testing.T) {
	for _, tc := range []struct {
		reading   string
		exhausted bool
	}{{"", false}, {"A9 exhaust", true}} {
		s := marchScn(`USA A "Able" inf X str=5 at=0505 in=I fatigue=4`, "", "fatigue4-march", "")
		s.reading = tc.reading
		h := newHarness(t, s.bytes())
		h.start(5, 2)
		h.do(USA, "MARCH Able 0504", "march MA A=2", "initiative USA=1", "initiative CSA=2")
		if u := h.unit("A"); u.Fatigue != 4 || u.Exhausted != tc.exhausted || !u.Disorganized {
			t.Errorf("reading %q: Able fatigue %d exhausted %v disorganized %v", tc.reading, u.Fatigue, u.Exhausted, u.Disorganized)
		}
	}
}

// Ambiguity A12 (GCACW 5.1.1): Union infantry and artillery march 1d6 MP,
// so a roll of 1 gives MA 1; read as "minimum-2", 2.
func TestAmbiguityA12_UnionMinimumMA(t *testing.T) {
	for _, tc := range []struct {
		reading string
		ma      int64
	}{{"", 1}, {"A12 minimum-2", 2}} {
		s := marchScn(ableA, "", "", "")
		s.reading = tc.reading
		h := newHarness(t, s.bytes())
		h.start(5, 2)
		dec := h.do(USA, "MARCH Able 0504 0503", "march MA A=1", "initiative USA=1", "initiative CSA=2")
		if f := fact(t, dec, "march.begun"); f.Int("ma") != tc.ma {
			t.Errorf("reading %q: %s, want MA %d", tc.reading, f, tc.ma)
		}
	}
}

// Ambiguity A15 (GCACW 5.2.2b): artillery outside a leader's command may
// be named only within its command radius; read as "anywhere", wherever
// it stands.
func TestAmbiguityA15_ArtilleryRadius(t *testing.T) {
	for _, tc := range []struct {
		reading string
		ok      bool
	}{{"", false}, {"A15 anywhere", true}} {
		s := actScn("", "activation-march", "")
		s.units = strings.Replace(s.units, `"Guns" art X str=2 at=0605`, `"Guns" art X str=2 at=0910`, 1)
		s.reading = tc.reading
		h := newHarness(t, s.bytes())
		h.start(5, 2)
		if tc.ok {
			h.do(USA, "ACTIVATE Lyon: Guns 0909", "leader MA L=2", "initiative USA=1", "initiative CSA=2")
		} else {
			mustContain(t, "A15", problemsText(h.reject(USA, "ACTIVATE Lyon: Guns 0909")), "not within Lyon's command radius")
		}
	}
}

// Ambiguity A18 (GCACW 5.2d, 5.2.2-OPT): a fatigue-4 unit joins an
// activation only when a unit at fatigue 3 or less makes the leader
// eligible; read as "counts", an organized fatigue-4 unit makes it
// eligible under the optional rule.
func TestAmbiguityA18_Fatigue4Eligibility(t *testing.T) {
	for _, tc := range []struct {
		reading string
		ok      bool
	}{{"", false}, {"A18 counts", true}} {
		s := actScn("", "activation-march fatigue4-march", "")
		s.units = strings.NewReplacer(`at=0505 in=I`, `at=0505 in=I fatigue=4`, `at=0507 in=I`, `at=0507 in=I fatigue=4`, `at=0909 in=I`, `at=0909 in=I fatigue=4`).Replace(s.units)
		s.reading = tc.reading
		h := newHarness(t, s.bytes())
		h.start(5, 2)
		if tc.ok {
			h.do(USA, "ACTIVATE Lyon: Able 0504", "leader MA L=2", "initiative USA=1", "initiative CSA=2")
		} else {
			mustContain(t, "A18", problemsText(h.reject(USA, "ACTIVATE Lyon: Able 0504")), "GCACW 5.2d")
		}
	}
}

// Ambiguity A26 (GCACW 4.2d, 4.4b): eligible means able to March or be
// activated, so a side with only fatigue-4 units is passed over without a
// roll; read as "any-unit", every unit is eligible: both sides roll, and
// a side that cannot act may only pass.
func TestAmbiguityA26_Eligible(t *testing.T) {
	units := `USA A "Able" inf X str=5 at=0505 in=I fatigue=4
CSA Z "Zulu" inf X str=3 at=1010 in=Z`
	h := newHarness(t, scn{units: units, tables: flatTEC + emTable("")}.bytes())
	h.do(USA, "PASS")
	dec := h.do(CSA, "PASS")
	fact(t, dec, "initiative.automatic")
	h = newHarness(t, scn{units: units, tables: flatTEC + emTable(""), reading: "A26 any-unit"}.bytes())
	h.do(USA, "PASS")
	h.do(CSA, "PASS", "initiative USA=6", "initiative CSA=1")
	mustContain(t, "A26", problemsText(h.reject(USA, "TAKE")), "none of your units can march")
	if ps := prompts(h.st); len(ps) != 1 || ps[0].Side != USA || strings.Join(ps[0].Examples, ",") != "PASS" {
		t.Errorf("prompts %+v, want USA to pass", ps)
	}
	h.do(USA, "PASS")
}

// GCACW 2.4c (Ambiguity A20): ZOC enters swamp only along a route;
// provisional swamp is not swamp, unless the scenario reads 2.4c as
// "provisional-swamp".
func TestGCACW_2_4c_ProvisionalSwampReading(t *testing.T) {
	for _, tc := range []struct {
		reading string
		want    ZOC
	}{{"", NormalZOC}, {"2.4c provisional-swamp", NoZOC}} {
		h := newHarness(t, scn{units: ableA + "\nCSA Z \"Zulu\" inf X str=3 at=1010 in=Z", mapL: "0504 provisional-swamp",
			tables: flatTEC + emTable(""), reading: tc.reading}.bytes())
		if z := h.st.ZOCOf(USA, hex.MustParse("0504")); z != tc.want {
			t.Errorf("reading %q: ZOC %s, want %s", tc.reading, z, tc.want)
		}
	}
}

// R15 (GCACW 3, phase 2): a leader may transfer to any unit it commands;
// read as "command-radius", only within its command radius.
func TestR15_TransferRangeReading(t *testing.T) {
	for _, tc := range []struct {
		reading string
		ok      bool
	}{{"", true}, {"R15 command-radius", false}} {
		s := actScn("", "activation-march", "")
		s.reading = tc.reading
		h := newHarness(t, s.bytes())
		if tc.ok {
			h.do(USA, "TRANSFER Lyon TO Far")
		} else {
			ps := h.reject(USA, "TRANSFER Lyon TO Far")
			mustContain(t, "R15", problemsText(ps), "not within Lyon's command radius")
			if ps[0].Hint != "TRANSFER Lyon TO Baker" {
				t.Errorf("hint %q, want a transfer within the radius", ps[0].Hint)
			}
		}
	}
}

// GCACW 5.1.5 (Ambiguity A25): a march that attacks is refused, saying a
// referee may allow it; once a referee allows march attacks (or the
// scenario's option march-attacks does), a march may end attacking the
// enemy in the last hex of its path: it stops next to it, and the action
// stays open until the referee has resolved the attack.
func TestGCACW_5_1_5_AttackAllowedByAReferee(t *testing.T) {
	s := marchScn(ableA, "", "", "")
	s.units += "\nCSA Y \"Yoke\" inf X str=2 at=0503 in=Z"
	h := newHarness(t, s.bytes())
	h.start(5, 2)
	mustContain(t, "refused", problemsText(h.reject(USA, "MARCH Able 0504 0503")), "a referee may allow march attacks with RULE ATTACKS ALLOWED")
	h.do(engine.RefereeSide, "RULE ATTACKS ALLOWED")
	mustContain(t, "through", problemsText(h.reject(USA, "MARCH Able 0504 0503 0502")), "only with the last hex of its path")
	dec := h.do(USA, "MARCH Able 0504 0503", "march MA A=3")
	if f := fact(t, dec, "unit.marched"); strings.Join(f.Strs("path"), " ") != "0505 0504" || f.Str("stopped") != "attack 0503" {
		t.Errorf("%s", f)
	}
	if p := h.st.Pending; p == nil || p.Step != StepAttack || h.st.Cycle.Stage != StageAct {
		t.Fatalf("pending %+v, stage %s: want the attack open for the referee", p, h.st.Cycle.Stage)
	}
	h.do(engine.RefereeSide, "RULE MANPOWER Yoke 1\nRULE DONE", "initiative USA=5", "initiative CSA=2")
	if h.unit("Y").Manpower != 1 || h.st.Cycle.N != 2 || h.st.Pending != nil {
		t.Errorf("after the ruling: Yoke %d, Action Phase %d, pending %+v", h.unit("Y").Manpower, h.st.Cycle.N, h.st.Pending)
	}
	h.do(engine.RefereeSide, "RULE ATTACKS REFUSED")
	mustContain(t, "refused again", problemsText(h.reject(USA, "MARCH Able 0503")), "RULE ATTACKS ALLOWED")
	// The scenario's option allows them from the start, and so needs a referee.
	s.options = "march-attacks"
	h = newHarness(t, s.bytes())
	mustContain(t, "referee steps", strings.Join(refereeSteps(h.st), "\n"), "the attacks that end a march (GCACW 5b, 5.1.5, R10)")
}
