package gcacw

import (
	"strings"
	"testing"

	"pbem/engine"
)

// actScn: Union corps I (Lyon with Able), a cavalry division (Kell with
// Custer), artillery outside any command, a squadron outside any command,
// a unit of another corps, and units out of the command radius.
func actScn(game, options, tables string) scn {
	if tables == "" {
		tables = flatTEC + emTable("")
	}
	return scn{game: game, options: options,
		units: `USA A "Able" inf X str=5 at=0505 in=I
USA B "Baker" inf X str=4 at=0507 in=I
USA F "Far" inf X str=4 at=0909 in=I
USA T "Tired" inf X str=4 at=0404 in=I fatigue=4
USA G "Guns" art X str=2 at=0605
USA O "Other" inf X str=4 at=0606 in=II
USA C "Custer" cav X str=3 at=0303 in=CC
USA S "Squadron" cav II str=1 at=0302
CSA Z "Zulu" inf X str=3 at=1010 in=Z`,
		leaders: `USA L "Lyon" corps cmd=2 tac=2 commands=I with=A
USA K "Kell" division cmd=2 tac=2 commands=CC with=C cavalry
USA H "Hale" army cmd=4 commands=I with=A`,
		tables: tables}
}

// GCACW 5.2c: only a district, corps or division leader is activated.
func TestGCACW_5_2c_NoArmyLeaderActivation(t *testing.T) {
	h := newHarness(t, actScn("", "activation-march", "").bytes())
	h.start(5, 2)
	ps := h.reject(USA, "ACTIVATE Hale: Able 0504")
	mustContain(t, "army", problemsText(ps), "GCACW 5.2c")
	if ps[0].Col != 10 {
		t.Errorf("problem at col %d, want 10 (the leader)", ps[0].Col)
	}
}

// GCACW 5.2d: a leader with no subordinate within its command radius at
// fatigue 3 or less cannot be activated.
func TestGCACW_5_2d_LeaderEligibility(t *testing.T) {
	s := actScn("", "activation-march", "")
	s.units = strings.Replace(strings.Replace(s.units, `at=0505 in=I`, `at=0505 in=I fatigue=4`, 1), `at=0507 in=I`, `at=0507 in=I fatigue=4`, 1)
	h := newHarness(t, s.bytes())
	h.start(5, 2)
	mustContain(t, "eligibility", problemsText(h.reject(USA, "ACTIVATE Lyon: Far 0908")), "GCACW 5.2d")
}

// GCACW 5.2.1, 5.2.2, 5.2.2a, 5.2.2b, 2.5: which units a leader may name.
func TestGCACW_5_2_1_5_2_2_5_2_2b_UnitsALeaderMayName(t *testing.T) {
	for _, tc := range []struct{ order, want string }{
		{"ACTIVATE Lyon: Far 0908", "not within Lyon's command radius (GCACW 2.5)"},
		{"ACTIVATE Lyon: Tired 0403", "fatigue 3 or less (GCACW 5.2.2)"},
		{"ACTIVATE Lyon: Other 0607", "not under Lyon's command"},
		{"ACTIVATE Lyon: Squadron 0301", "no command structure"},
		{"ACTIVATE Kell: Guns 0604", "Kell is a cavalry leader (GCACW 5.2.2b)"},
		{"ACTIVATE Lyon: Zulu 1009", "Zulu (Z) is a CSA unit"},
		{"ACTIVATE Lyon", "name at least one unit to activate (GCACW 5.2.2)"},
	} {
		h := newHarness(t, actScn("", "activation-march", "").bytes())
		h.start(5, 2)
		mustContain(t, tc.order, problemsText(h.reject(USA, tc.order)), tc.want)
	}
	// 5.2.2b: artillery outside the command, named by a leader who is not
	// a cavalry leader; 5.2a: the units march one after another.
	h := newHarness(t, actScn("", "activation-march", "").bytes())
	h.start(5, 2)
	dec := h.do(USA, "ACTIVATE Lyon: Guns 0604 0603; Able 0504\n  Baker 0508", "leader MA L=2", "initiative USA=1", "initiative CSA=2")
	var order []string
	for _, f := range facts(dec, "unit.marched") {
		order = append(order, f.Str("unit")+" "+strings.Join(f.Strs("path"), "-"))
	}
	if got := strings.Join(order, "; "); got != "G 0605-0604-0603; A 0505-0504; B 0507-0508" {
		t.Errorf("marches %s", got)
	}
	if f := fact(t, dec, "leader.activated"); strings.Join(f.Strs("units"), ",") != "G,A,B" {
		t.Errorf("%s", f)
	}
}

// GCACW 5.2.2a: in SIV, OTR, SJW, HCR, SLB and AGA Union cavalry belongs
// to no command structure.
func TestGCACW_5_2_2a_UnionCavalryUncommanded(t *testing.T) {
	for _, game := range []string{"SIV", "OTR", "SJW", "HCR", "SLB", "AGA", "RTG"} {
		s := actScn(game, "activation-march", "")
		s.units += "\nUSA D \"Dragoon\" inf X str=2 at=0304 in=CC"
		s.leaders = strings.Replace(s.leaders, `USA K "Kell" division cmd=2 tac=2 commands=CC with=C cavalry`, `USA K "Kell" division cmd=2 tac=2 commands=CC with=C`, 1)
		if game == "SIV" || game == "AGA" {
			s.leaders = strings.Replace(s.leaders, "\nUSA H \"Hale\" army cmd=4 commands=I with=A", "", 1)
		}
		h := newHarness(t, s.bytes())
		h.start(5, 2)
		if game == "RTG" {
			h.do(USA, "ACTIVATE Kell: Custer 0302", "leader MA K=2", "initiative USA=1", "initiative CSA=2")
			continue
		}
		mustContain(t, game, problemsText(h.reject(USA, "ACTIVATE Kell: Custer 0302")), "GCACW 5.2.2a")
		// and the scenario may not give them a cavalry leader
		bad := strings.Replace(string(s.bytes()), "with=C\n", "with=C cavalry\n", 1)
		if _, err := ParseScenario([]byte(bad)); err == nil || !strings.Contains(err.Error(), "GCACW 5.2.2a") {
			t.Errorf("%s with a Union cavalry leader: %v", game, err)
		}
	}
}

// GCACW 5.2.2-OPT: with the option, an organized fatigue-4 unit may be
// named to march, if the leader is eligible through another unit (A18).
func TestGCACW_5_2_2_OPT_Fatigue4InActivation(t *testing.T) {
	s := actScn("", "activation-march fatigue4-march", "")
	s.units = strings.Replace(s.units, `at=0404 in=I fatigue=4`, `at=0506 in=I fatigue=4`, 1)
	h := newHarness(t, s.bytes())
	h.start(5, 2)
	mustContain(t, "force", problemsText(h.reject(USA, "ACTIVATE Lyon: Tired 0406 FORCE")), "5.1-OPT")
	dec := h.do(USA, "ACTIVATE Lyon: Tired 0406", "leader MA L=2", "initiative USA=1", "initiative CSA=2")
	if len(facts(dec, "extended_march.resolved")) != 0 {
		t.Errorf("the fatigue-4 march consulted the Extended March Table")
	}
	if u := h.unit("T"); u.Fatigue != 4 || !u.Disorganized {
		t.Errorf("Tired: fatigue %d disorganized %v", u.Fatigue, u.Disorganized)
	}
}

// GCACW 5.2.3: the leader's MA by side, type of leader and game.
func TestGCACW_5_2_3_LeaderMA(t *testing.T) {
	inf := &Leader{Side: USA, Kind: CorpsLeader}
	cinf := &Leader{Side: CSA, Kind: DistrictLeader}
	cdiv := &Leader{Side: USA, Kind: DivisionLeader, Cavalry: true}
	ccor := &Leader{Side: USA, Kind: CorpsLeader, Cavalry: true}
	rdiv := &Leader{Side: CSA, Kind: DivisionLeader, Cavalry: true}
	rcor := &Leader{Side: CSA, Kind: CorpsLeader, Cavalry: true}
	for _, tc := range []struct {
		game      string
		l         *Leader
		sum, want int
	}{
		{"SSR", inf, 3, 4}, {"SIV", inf, 1, 2}, {"SIV", inf, 3, 3}, {"OTR", inf, 1, 2}, {"AGA", inf, 4, 4},
		{"SSR", cinf, 1, 3}, {"OTR", cinf, 1, 2}, {"AGA", cinf, 6, 7},
		{"SSR", cdiv, 7, 8}, {"SSR", ccor, 7, 9}, {"SSR", rdiv, 7, 9}, {"SSR", rcor, 7, 10},
		{"OTR", rcor, 2, 5},
	} {
		if got := leaderMA(tc.game, tc.l, tc.sum); got != tc.want {
			t.Errorf("%s %s %s roll %d: %d, want %d", tc.game, tc.l.Side, leaderClass(tc.l), tc.sum, got, tc.want)
		}
	}
	// A cavalry leader rolls two dice.
	h := newHarness(t, actScn("", "activation-march", "").bytes())
	h.start(5, 2)
	dec := h.do(USA, "ACTIVATE Kell: Custer 0302", "leader MA K=3", "leader MA K=4", "initiative USA=1", "initiative CSA=2")
	if f := fact(t, dec, "leader.ma_rolled"); f.Int("ma") != 8 || f.Str("class") != "cavalry division" {
		t.Errorf("%s", f)
	}
}

// GCACW 5.2 step 4 is not in the rules (R16): without the scenario's
// reading the referee rules the activated units' marches.
func TestGCACW_5_2_4_RefereeWithoutActivationMarch(t *testing.T) {
	h := newHarness(t, actScn("", "", "").bytes())
	h.start(5, 2)
	dec := h.do(USA, "ACTIVATE Lyon: Able; Baker", "leader MA L=4")
	fact(t, dec, "leader.ma_rolled")
	if p := h.st.Pending; p == nil || p.Step != StepActivation || strings.Join(p.Units, ",") != "A,B" {
		t.Fatalf("pending %+v", p)
	}
	h.reject(USA, "PASS")
	h.do(engine.RefereeSide, "RULE PLACE Able 0503\nRULE FATIGUE Able 1\nRULE DONE", "initiative USA=1", "initiative CSA=2")
	if u := h.unit("A"); u.Hex.String() != "0503" || u.Fatigue != 1 || h.st.Act != nil || h.st.Cycle.N != 2 {
		t.Errorf("Able at %s fatigue %d; activation %+v; phase %d", u.Hex, u.Fatigue, h.st.Act, h.st.Cycle.N)
	}
}

// GCACW 5.2a with the activation-march reading (A14): each unit marches
// by 5.1 steps 2-5 with the leader's MA: its own fatigue, Extended March
// and Force March.
func TestGCACW_5_2a_ActivatedUnitsMarch(t *testing.T) {
	s := actScn("", "activation-march", "")
	s.units = strings.Replace(s.units, `at=0507 in=I`, `at=0507 in=I fatigue=2`, 1)
	h := newHarness(t, s.bytes())
	h.start(5, 2)
	dec := h.do(USA, "ACTIVATE Lyon: Able 0504 0503 0502 FORCE IF MA < 3; Baker 0508",
		"leader MA L=1", "force march A=3", "extended march B=6", "initiative USA=1", "initiative CSA=2")
	fm := fact(t, dec, "unit.force_marched")
	if fm.Int("ma") != 4 {
		t.Errorf("%s, want the leader's MA 2 + 2", fm)
	}
	if f := fact(t, dec, "extended_march.resolved"); f.Str("unit") != "B" {
		t.Errorf("%s", f)
	}
	if a, b := h.unit("A"), h.unit("B"); a.Fatigue != 1 || b.Fatigue != 3 || a.Hex.String() != "0502" || b.Hex.String() != "0508" {
		t.Errorf("Able fatigue %d at %s, Baker fatigue %d at %s; want 1 at 0502, 3 at 0508", a.Fatigue, a.Hex, b.Fatigue, b.Hex)
	}
	if h.st.Cycle.N != 2 || h.st.Act != nil {
		t.Errorf("after the activation: Action Phase %d, activation %+v", h.st.Cycle.N, h.st.Act)
	}
}
