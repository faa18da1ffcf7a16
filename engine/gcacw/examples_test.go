package gcacw

import (
	"fmt"
	"strings"
	"testing"

	"pbem/engine/hex"
)

// GCACW 5.1-FM-EX: Newton's division (Union infantry, organized,
// exhausted, fatigue 1, Manpower 7) marches: MA roll 3; fatigue 2 makes it
// an Extended March (exhausted); Extended March roll 4 +1 "for other Union
// units" = 5, organized column, Manpower 7: NE; Force March roll 1: +2 MP
// (the minimum), final MA 5, no loss; the Strength marker ends
// disorganized (5.1-FM.1, Ambiguity A8).
func TestGCACW_5_1_FM_EX_NewtonForceMarch(t *testing.T) {
	h := newHarness(t, scn{
		units: `USA NEWT "Newton" inf XX str=7 tac=3 art=2 at=0505 in=VI fatigue=1 exhausted
CSA JACK "Jackson" inf XX str=8 at=1010 in=VAL`,
		tables: flatTEC + emTable(`drm +1 side=USA not-in=AotP "other Union units"`),
	}.bytes())
	h.start(5, 2)
	dec := h.do(USA, "MARCH Newton's 0504 0503 0502 0501 0401 FORCE IF MA < 4",
		"march MA NEWT=3", "extended march NEWT=4", "force march NEWT=1", "initiative USA=2", "initiative CSA=3")
	begun := fact(t, dec, "march.begun")
	if begun.Int("ma") != 3 || begun.Int("die") != 3 {
		t.Errorf("MA: %s, want ma=3 from die 3", begun)
	}
	fr := fact(t, dec, "unit.fatigue_raised")
	if fr.Int("fatigue") != 2 || !fr.Bool("extended") {
		t.Errorf("fatigue: %s, want 2 and an Extended March", fr)
	}
	em := fact(t, dec, "extended_march.resolved")
	if em.Int("die") != 4 || em.Int("drm") != 1 || em.Int("roll") != 5 || em.Str("column") != "O7-21" || em.Str("result") != "NE" {
		t.Errorf("Extended March: %s, want die 4 drm +1 roll 5 column O7-21 result NE", em)
	}
	fm := fact(t, dec, "unit.force_marched")
	if fm.Int("die") != 1 || fm.Int("mp") != 2 || fm.Int("ma") != 5 {
		t.Errorf("Force March: %s, want die 1, +2 MP, MA 5", fm)
	}
	if n := len(facts(dec, "strength.lost")); n != 0 {
		t.Errorf("Manpower lost %d times, want none (unmodified roll 1)", n)
	}
	m := fact(t, dec, "unit.marched")
	if got := strings.Join(m.Strs("path"), " "); got != "0505 0504 0503 0502 0501 0401" || m.Int("mp") != 5 {
		t.Errorf("march: %s, want 5 hexes for 5 MP", m)
	}
	u := h.unit("NEWT")
	if u.Fatigue != 2 || u.Manpower != 7 || !u.Disorganized || u.Hex != hex.MustParse("0401") {
		t.Errorf("Newton after the march: fatigue %d, Manpower %d, disorganized %v, at %s; want 2, 7, true, 0401", u.Fatigue, u.Manpower, u.Disorganized, u.Hex)
	}
}

// GCACW 5.1-EM-EX: in RTG an exhausted Union unit not in the Army of the
// Potomac marches to fatigue 3: an Extended March with DRM +3 (+2 not in
// the AotP, +1 for reaching fatigue 3). A unit of the AotP gets +1 only.
func TestGCACW_5_1_EM_EX_RTGExtendedMarchDRM(t *testing.T) {
	drms := `drm +2 side=USA not-in=AotP "not in the Army of the Potomac (RTG)"
drm +1 exhausted fatigue=3 "exhausted unit raised to fatigue 3"
`
	for _, tc := range []struct {
		name, in string
		drm      int
	}{
		{"not in the AotP", "in=XII", 3},
		{"in the AotP", "in=AotP/VI", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, scn{game: "RTG",
				units: fmt.Sprintf(`USA SLOC "Slocum" inf XX str=9 at=0505 %s fatigue=2 exhausted
CSA EWEL "Ewell" inf XX str=9 at=1010 in=ANV`, tc.in),
				tables: flatTEC + emTable(drms),
			}.bytes())
			h.start(4, 1)
			dec := h.do(USA, "MARCH Slocum 0504", "march MA SLOC=2", "extended march SLOC=3", "initiative USA=1", "initiative CSA=2")
			if fr := fact(t, dec, "unit.fatigue_raised"); fr.Int("fatigue") != 3 || !fr.Bool("extended") {
				t.Errorf("%s, want fatigue 3 and an Extended March", fr)
			}
			if em := fact(t, dec, "extended_march.resolved"); em.Int("drm") != int64(tc.drm) || em.Int("roll") != int64(3+tc.drm) {
				t.Errorf("%s, want DRM %+d", em, tc.drm)
			}
		})
	}
}

// GCACW 5.2.2-OTR: a Union leader activated by a player who won the
// initiative by the roll may activate 1 unit on a die of 1-4, 2 on a 5 and
// any number on a 6; through a Confederate pass, or without a roll, any
// number.
func TestGCACW_5_2_2_OTR_ActivationLimit(t *testing.T) {
	base := scn{game: "OTR", options: "activation-march",
		units: `USA A "Able" inf X str=3 at=0505 in=II
USA B "Baker" inf X str=3 at=0506 in=II
USA C "Charlie" inf X str=3 at=0406 in=II
CSA Z "Zulu" inf X str=3 at=1010 in=ANV`,
		leaders: `USA HOOK "Hooker" corps cmd=2 tac=2 commands=II with=A`,
		tables:  flatTEC + emTable(""),
	}
	three := "ACTIVATE Hooker: Able 0504; Baker 0507; Charlie 0407"
	for die := 1; die <= 6; die++ {
		want := map[int]int{1: 1, 2: 1, 3: 1, 4: 1, 5: 2, 6: 0}[die]
		t.Run(fmt.Sprint("die ", die), func(t *testing.T) {
			h := newHarness(t, base.bytes())
			if die == 1 {
				// A Union 1 never wins the roll (ties go to the Confederacy,
				// 4.2b), so the table's first row is checked on the state.
				st := *h.st
				st.Phase, st.Cycle = PhaseCycle, Cycle{N: 1, Stage: StageChoose, Winner: USA, Rolled: true, DieUSA: 1, Holder: USA, Via: "roll"}
				if got := st.activationLimit(USA); got != want {
					t.Errorf("limit %d, want %d", got, want)
				}
				return
			}
			// The Union die beats the Confederate's; OTR records it (4.2c).
			h.do(USA, "PASS")
			dec := h.do(CSA, "PASS", fmt.Sprintf("initiative USA=%d", die), fmt.Sprintf("initiative CSA=%d", die-1))
			if rec := fact(t, dec, "initiative.recorded"); rec.Int("die") != int64(die) {
				t.Errorf("recorded %s, want die %d", rec, die)
			}
			if got := h.st.activationLimit(USA); got != want {
				t.Errorf("limit %d, want %d (0 = any number)", got, want)
			}
			if want == 0 {
				h.do(USA, three, "leader MA HOOK=3", "initiative USA=1", "initiative CSA=2")
				return
			}
			ps := h.reject(USA, three)
			if !strings.Contains(problemsText(ps), "5.2.2-OTR") {
				t.Errorf("problems %v, want a 5.2.2-OTR limit", ps)
			}
			ok := strings.Join([]string{"Able 0504", "Baker 0507"}[:want], "; ")
			dec = h.do(USA, "ACTIVATE Hooker: "+ok, "leader MA HOOK=3", "initiative USA=1", "initiative CSA=2")
			if l := fact(t, dec, "leader.activated"); l.Str("limit") != fmt.Sprint(want) {
				t.Errorf("%s, want limit=%d", l, want)
			}
		})
	}
	t.Run("through a Confederate pass", func(t *testing.T) {
		h := newHarness(t, base.bytes())
		h.do(USA, "PASS")
		h.do(CSA, "PASS", "initiative USA=1", "initiative CSA=4")
		h.do(CSA, "PASS")
		if got := h.st.activationLimit(USA); got != 0 {
			t.Fatalf("limit %d after a Confederate pass, want any", got)
		}
		h.do(USA, three, "leader MA HOOK=3", "initiative USA=1", "initiative CSA=2")
	})
	t.Run("without a roll", func(t *testing.T) {
		b := base
		b.units = strings.Replace(b.units, `at=1010 in=ANV`, `at=1010 in=ANV fatigue=4`, 1)
		h := newHarness(t, b.bytes())
		h.do(USA, "PASS")
		dec := h.do(CSA, "PASS")
		if a := fact(t, dec, "initiative.automatic"); a.Str("side") != USA {
			t.Fatalf("%s, want USA automatically (GCACW 4.2d)", a)
		}
		if got := h.st.activationLimit(USA); got != 0 {
			t.Fatalf("limit %d without a roll, want any", got)
		}
		h.do(USA, three, "leader MA HOOK=3")
	})
}

// GCACW 2.4-EX: a hex across a woods hexside with no road is in the
// unit's Restricted ZOC; a road across that hexside makes it normal ZOC.
func TestGCACW_2_4_EX_RestrictedZOC(t *testing.T) {
	for _, tc := range []struct {
		name, mapL string
		want       ZOC
	}{
		{"woods, no road", "0506 woods", RestrictedZOC},
		{"woods, road across", "0506 woods\nroad 0505 0506", NormalZOC},
		{"unit in woods, clear hex A", "0505 woods", RestrictedZOC},
		{"no woods", "", NormalZOC},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, scn{mapL: tc.mapL, units: `USA A "Able" inf X str=3 at=0505
CSA Z "Zulu" inf X str=3 at=1010`}.bytes())
			if got := h.st.ZOCOf(USA, hex.MustParse("0506")); got != tc.want {
				t.Errorf("ZOC in hex A (0506): %s, want %s", got, tc.want)
			}
		})
	}
}

// The derived table checks of the rules README.
func TestGCACW_5_1_FM_4_DerivedTableChecks(t *testing.T) {
	for _, tc := range []struct {
		typ              string
		roll, manpower   int
		wantMP, wantLoss int
	}{
		{Infantry, 6, 6, 5, 2},
		{Infantry, 6, 5, 5, 1},
		{Cavalry, 3, 4, 4, 0},
		{Cavalry, 8, 4, 7, 1},
	} {
		mp, loss := forceMarch(tc.typ, tc.roll, tc.manpower)
		if mp != tc.wantMP || loss != tc.wantLoss {
			t.Errorf("%s force march roll %d Manpower %d: +%d MP, -%d; want +%d, -%d", tc.typ, tc.roll, tc.manpower, mp, loss, tc.wantMP, tc.wantLoss)
		}
	}
}

func TestGCACW_5_1_1_DerivedConfederateInfantryMA(t *testing.T) {
	for _, game := range []string{"OTR", "RTG", "SSR"} {
		if got := marchMA(game, CSA, Infantry, 1); got != 2 {
			t.Errorf("%s: Confederate infantry MA on a 1: %d, want 2", game, got)
		}
	}
}

func TestGCACW_5_2_3_DerivedUnionLeaderMA(t *testing.T) {
	l := &Leader{Side: USA, Kind: CorpsLeader}
	for _, game := range []string{"SIV", "RTG", "SSR"} {
		if got := leaderMA(game, l, 1); got != 2 {
			t.Errorf("%s: Union infantry leader MA on a 1: %d, want 2", game, got)
		}
	}
}
