package gcacw

import (
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/hex"
)

// linkedBattles is a [battles] section for assaultScn: the assault on 0504
// fought out in GBACW with a mapping and a table, any other in Hair Roller
// Armies, set up and ruled by the referee.
const linkedBattles = `
[battles]
# SAMPLE: a house rule, not the published game's
battle   0504  gbacw  tanners-mill  USA=USA  CSA=CSA
force    A     "Hale's Brigade"
force    Y     "Moss's Brigade"
result   winner=attacker  defender-lost=3-99  D2/Dr
result   winner=attacker  D1/Dr
result   winner=defender  routed=attacker     A2/Ad
result   winner=defender  A1
result   winner=draw      A1/D1
battle   default  hra  kettle-run  USA=Union  CSA=Confederate
forces   referee
result   referee
`

// A campaign scenario names, per assault or by default, the tactical
// system and scenario, the sides, the forces (or the referee's setup) and
// the result table (or the referee's ruling).
func TestLinkedBattleScenarioData(t *testing.T) {
	sc, err := ParseScenario(assaultScn(flatTEC+testCombat+linkedBattles, "").bytes())
	if err != nil {
		t.Fatal(err)
	}
	b := sc.BattleFor(hex.MustParse("0504"))
	if b == nil || b.System != "gbacw" || b.Scenario != "tanners-mill" || b.TacticalSide(USA) != "USA" || len(b.Forces) != 2 || b.Forces[1] != (ForceMap{Unit: "Y", Force: "Moss's Brigade", Line: 63}) {
		t.Fatalf("battle for 0504: %+v", b)
	}
	d := sc.BattleFor(hex.MustParse("0909"))
	if d == nil || d.System != "hra" || !d.RefereeForces || !d.RefereeResult || d.TacticalSide(CSA) != "Confederate" {
		t.Fatalf("default battle: %+v", d)
	}
	for _, tc := range []struct {
		o    BattleOutcome
		want string
	}{
		{BattleOutcome{Winner: WinAttacker, DefenderLost: 4}, "D2/Dr"},
		{BattleOutcome{Winner: WinAttacker, DefenderLost: 2}, "D1/Dr"},
		{BattleOutcome{Winner: WinDefender, Routed: WinAttacker}, "A2/Ad"},
		{BattleOutcome{Winner: WinDefender}, "A1"},
		{BattleOutcome{Winner: WinDraw, AttackerLost: 5, DefenderLost: 5}, "A1/D1"},
	} {
		if got := b.Result(tc.o); got != tc.want {
			t.Errorf("%+v: result %q, want %q", tc.o, got, tc.want)
		}
	}
	if got := d.Result(BattleOutcome{Winner: WinAttacker}); got != "" {
		t.Errorf("the referee's battle maps to %q, want the referee's ruling", got)
	}
	// Without a [battles] section, no assault is fought out.
	plain, err := ParseScenario(assaultScn(flatTEC+testCombat, "").bytes())
	if err != nil || plain.BattleFor(hex.MustParse("0504")) != nil {
		t.Fatalf("a scenario without battles fights one out: %v", err)
	}
}

// The players' list of house rules says which assaults are fought out,
// where, and who rules the result.
func TestLinkedBattleListedAsHouseRule(t *testing.T) {
	h := newHarness(t, assaultScn(flatTEC+testCombat+linkedBattles, "").bytes())
	var all []string
	for _, e := range rulesLists(h.st) {
		all = append(all, e.Lines...)
	}
	got := strings.Join(all, "\n")
	mustContain(t, "house rules", got, "- Battles: an assault on 0504 is fought out as a battle of Great Battles of the American Civil War, scenario tanners-mill (USA as USA, CSA as CSA); forces by the scenario's mapping (SAMPLE): only those whose units are in the assault fight, each with its unit's share left of its starting Manpower; its result by the scenario's battle table (SAMPLE), else the referee.")
	mustContain(t, "house rules", got, "- Battles: an assault on any other hex (default) is fought out as a battle of Hair Roller Armies, scenario kettle-run (USA as Union, CSA as Confederate); the referee sets the forces up; the referee rules its result.")
}

func TestLinkedBattleScenarioErrors(t *testing.T) {
	good := assaultScn(flatTEC+testCombat+linkedBattles, "").bytes()
	for _, tc := range []struct{ name, old, new, want string }{
		{"unknown system", "0504  gbacw", "0504  chess", `"chess" is not a tactical rule system (gbacw, gmb, hra)`},
		{"hex off the map", "battle   0504", "battle   1212", `"1212" is not a hex of the map, nor default`},
		{"side missing", "USA=USA  CSA=CSA", "USA=USA", "say which tactical side CSA plays"},
		{"same side", "USA=USA  CSA=CSA", "USA=USA  CSA=USA", "USA and CSA play the same tactical side USA"},
		{"unknown unit", `force    A `, `force    Q `, "Q is not a unit of this scenario"},
		{"unit twice", `force    Y `, `force    A `, "A is mapped twice"},
		{"bad result", "winner=draw      A1/D1", "winner=draw A1/X9", `"A1/X9" is not a result`},
		{"bad winner", "winner=draw", "winner=nobody", "winner= is attacker, defender or draw"},
		{"bad span", "defender-lost=3-99", "defender-lost=9-3", "defender-lost:"},
		{"both forces", "forces   referee", "forces   referee\nforce A \"X\"", "this battle says forces referee"},
		{"no forces", "forces   referee\n", "", "says neither how the units map to the tactical forces"},
		{"no results", "result   referee\n", "", "has no result lines and no result referee"},
		{"default twice", "battle   default", "battle default gmb hazel-run USA=Union CSA=Confederate\nforces referee\nresult referee\nbattle   default", "the battle for any other hex (default) is given twice"},
		{"line before battle", "[battles]\n", "[battles]\nforces referee\n", "forces comes before any battle line"},
		{"bad strength", `force    A `, "strength most\nforce    A ", `write "strength share"`},
		{"unknown line", "forces   referee", "forces   referee\nweather rain", `unknown [battles] line "weather"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := string(good)
			if !strings.Contains(s, tc.old) {
				t.Fatalf("scenario has no %q", tc.old)
			}
			_, err := ParseScenario([]byte(strings.Replace(s, tc.old, tc.new, 1)))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

const finalHash = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"

// An assault the scenario has fought out opens a battle: the campaign
// waits on it alone (no one is prompted, a player's order is refused),
// and the battle's result, carried back as RULE BATTLE, maps through the
// scenario's table to the assault's result and ends the action.
func TestLinkedBattleFoughtOutAndCarriedBackByTheTable(t *testing.T) {
	h := newHarness(t, assaultScn(flatTEC+testCombat+linkedBattles, "").bytes())
	h.start(5, 2)
	dec := h.do(USA, "ASSAULT Lyon: Able Baker ON 0504")
	o := fact(t, dec, kBattleOpened)
	if o.Str("system") != "gbacw" || o.Str("scenario") != "tanners-mill" || o.Str("key") != "t1-a1-0504" {
		t.Fatalf("opened %s", o)
	}
	if len(facts(dec, kAssaultRolled)) != 0 {
		t.Fatal("the combat table resolved an assault that is fought out")
	}
	mustContain(t, "players told", tell(h.st, o), "The assault on 0504 by Able and Baker is fought out as a battle of Great Battles of the American Civil War, scenario tanners-mill (USA as USA, CSA as CSA)")
	if p := h.st.Pending; p == nil || p.Step != StepBattle || p.Battle == nil || p.Battle.Key != "t1-a1-0504" {
		t.Fatalf("pending %+v: want the campaign waiting on the battle", p)
	}
	if ps := New().Prompt(h.st); len(ps) != 0 {
		t.Errorf("prompts while the battle is fought out: %+v", ps)
	}
	h.reject(CSA, "PASS")
	mustContain(t, "wrong battle", problemsText(h.reject(engine.RefereeSide, "RULE BATTLE t9-a9-0101 GAME c-t9 HASH "+finalHash+" WINNER USA LOST 1 4")), "the battle being fought out is t1-a1-0504")
	mustContain(t, "no hash", problemsText(h.reject(engine.RefereeSide, "RULE BATTLE t1-a1-0504 GAME c-t1 WINNER USA")), "names its GAME, its final HASH and its WINNER")
	// USA attacked and won, CSA lost 4: the first line, D2/Dr.
	dec = h.do(engine.RefereeSide, "RULE BATTLE t1-a1-0504 GAME camp-t1-a1-0504 HASH "+finalHash+" WINNER USA LOST 1 4", "initiative USA=4", "initiative CSA=3")
	e := fact(t, dec, kBattleEnded)
	if e.Str("winner") != WinAttacker || e.Int("defender_lost") != 4 || e.Str("result") != "D2/Dr" || e.Str("hash") != finalHash {
		t.Fatalf("ended %s", e)
	}
	mustContain(t, "players told", tell(h.st, e), "the attacker lost 1, the defender 4. By the scenario's battle table (a house rule) the assault's result is:")
	if y, a := h.unit("Y"), h.unit("A"); y.Manpower != 2 || y.Hex.String() == "0504" || a.Hex.String() != "0504" {
		t.Errorf("Yoke %d Manpower in %s, Able in %s: want D2/Dr applied", y.Manpower, y.Hex, a.Hex)
	}
	if h.st.Pending != nil || h.st.Cycle.N != 2 {
		t.Errorf("after the battle: pending %+v, Action Phase %d", h.st.Pending, h.st.Cycle.N)
	}
}

// A battle whose result the scenario leaves to the referee comes back
// as an assault the referee rules, with the battle's outcome in hand; the
// referee may also have an assault fought out by mail (RULE FIGHT OUT).
func TestLinkedBattleRefereeRulesTheResultAndOrdersABattle(t *testing.T) {
	h := newHarness(t, assaultScn(flatTEC, "").bytes())
	h.start(5, 2)
	h.do(USA, "ASSAULT Lyon: Able Baker ON 0504")
	mustContain(t, "wrong hex", problemsText(h.reject(engine.RefereeSide, "RULE FIGHT OUT 0909 IN hra kettle-run")), "the assault waiting is on 0504")
	mustContain(t, "no system", problemsText(h.reject(engine.RefereeSide, "RULE FIGHT OUT 0504 IN chess")), "the tactical systems are gbacw, gmb, hra")
	dec := h.do(engine.RefereeSide, "RULE FIGHT OUT 0504 IN hra kettle-run")
	o := fact(t, dec, kBattleOpened)
	if got := strings.Join(o.Strs("sides"), " "); got != "USA=Union CSA=Confederate" || o.Str("side") != USA {
		t.Fatalf("opened %s", o)
	}
	// A battle the referee orders is set up by the referee: no mapping.
	if bs := battlesWaited(h.st); o.Str("forces") != forcesReferee || len(bs) != 1 || !bs[0].RefereeForces || len(bs[0].Muster) != 0 {
		t.Errorf("opened %s; battles waited on %+v: want the referee's setup", o, bs)
	}
	mustContain(t, "players told", tell(h.st, o), "The referee sets its forces up before it starts.")
	if p := h.st.Pending; p == nil || p.Step != StepBattle {
		t.Fatalf("pending %+v", p)
	}
	dec = h.do(engine.RefereeSide, "RULE BATTLE t1-a1-0504 GAME camp-t1-a1-0504 HASH "+finalHash+" WINNER CSA LOST 3 1 ROUTED USA")
	e := fact(t, dec, kBattleEnded)
	if e.Str("winner") != WinDefender || e.Str("routed") != WinAttacker || e.Int("attacker_lost") != 3 || e.Str("result") != "" {
		t.Fatalf("ended %s", e)
	}
	if p := h.st.Pending; p == nil || p.Step != StepAssault {
		t.Fatalf("pending %+v: want the assault waiting for the referee's ruling", p)
	}
	mustContain(t, "referee told", p0(h.st).Note, "the defender won, attacker lost 3, defender lost 1")
	h.do(engine.RefereeSide, "RULE LOSS Able 2\nRULE LOSS Baker 1")
	h.do(engine.RefereeSide, "RULE DONE", "initiative USA=4", "initiative CSA=3")
	if a := h.unit("A"); a.Manpower != 4 || h.st.Pending != nil || h.st.Cycle.N != 2 {
		t.Errorf("Able %d Manpower, pending %+v, Action Phase %d", a.Manpower, h.st.Pending, h.st.Cycle.N)
	}
}

func p0(st *State) *Pending { return st.Pending }

// The order that carries a battle's end back names the winner and each
// side's losses in the campaign's sides, whatever the tactical sides are
// called, and reads back as the ruling it is.
func TestLinkedBattleResultOrderInTheCampaignsSides(t *testing.T) {
	b := engine.Battle{Key: "t1-a1-0504", Sides: []engine.BattleSide{{Side: USA, Tactical: "Union"}, {Side: CSA, Tactical: "Confederate"}}}
	var final [32]byte
	final[0] = 0xab
	got := battleResultOrder(b, engine.BattleEnd{Game: "camp-t1-a1-0504", Final: final, Winner: "Confederate",
		Lost: map[string]int{"Union": 3, "Confederate": 1}, Routed: "Union"})
	want := "RULE BATTLE t1-a1-0504 GAME camp-t1-a1-0504 HASH ab" + strings.Repeat("00", 31) + " WINNER CSA LOST 3 1 ROUTED USA"
	if got != want {
		t.Errorf("order %q\nwant  %q", got, want)
	}
	if d := battleResultOrder(b, engine.BattleEnd{Game: "g", Final: final}); !strings.Contains(d, " WINNER DRAW LOST 0 0") {
		t.Errorf("a draw: %q", d)
	}
	h := newHarness(t, assaultScn(flatTEC+testCombat+linkedBattles, "").bytes())
	os, probs := h.rs.Parse(h.st, engine.RefereeSide, got)
	if len(probs) > 0 || len(os) != 1 {
		t.Fatalf("the order does not read back: %v", probs)
	}
	if r := os[0].(Order).Rule; r.What != "battle" || r.Result != CSA || r.Lost != [2]int{3, 1} || r.Routed != USA || r.Game != "camp-t1-a1-0504" {
		t.Errorf("read back as %+v", r)
	}
}

// The battle an assault opens records the forces the scenario's mapping
// gives, as the assault stands: each mapped unit in it (attackers and
// defenders), with its Manpower now and at the start; a mapped unit out
// of the assault (Dent, far away) gives none; "strength full" has them
// fight as the tactical scenario writes them. The campaign waits on a
// battle set up so (engine.Battle.Muster).
func TestLinkedBattleForcesOfTheAssault(t *testing.T) {
	mapped := strings.Replace(linkedBattles, `force    Y     "Moss's Brigade"`, "force    Y     \"Moss's Brigade\"\nforce    D     \"Dunn's Brigade\"", 1)
	for _, tc := range []struct {
		name, strength string
		want           []string
		told           string
	}{
		{"share", "", []string{"USA|Hale's Brigade|3|6|Able", "CSA|Moss's Brigade|4|4|Yoke"},
			"By the scenario's mapping (a house rule, SAMPLE) these fight, each with its share left of its starting Manpower: Able (3 of 6 Manpower) as Hale's Brigade; Yoke (full strength) as Moss's Brigade; the tactical forces of no unit in the assault stay out."},
		{"full", "strength full\n", []string{"USA|Hale's Brigade|6|6|Able", "CSA|Moss's Brigade|4|4|Yoke"},
			"Able (full strength) as Hale's Brigade; Yoke (full strength) as Moss's Brigade"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := strings.Replace(mapped, "result   winner=attacker  defender-lost", tc.strength+"result   winner=attacker  defender-lost", 1)
			h := newHarness(t, assaultScn(flatTEC+testCombat+s, "").bytes())
			h.start(5, 2)
			h.do(engine.RefereeSide, "SET Able STRENGTH 3")
			dec := h.do(USA, "ASSAULT Lyon: Able Baker ON 0504")
			o := fact(t, dec, kBattleOpened)
			if got := o.Strs("muster"); o.Str("forces") != forcesCampaign || strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("opened with forces %q %q, want %q", o.Str("forces"), got, tc.want)
			}
			mustContain(t, "players told", tell(h.st, o), tc.told)
			bs := battlesWaited(h.st)
			if len(bs) != 1 || bs[0].RefereeForces || len(bs[0].Muster) != 2 || bs[0].Muster[0] != (engine.BattleForce{Side: USA, Force: "Hale's Brigade", Unit: "Able", Present: 3, Start: 6}) && tc.strength == "" {
				t.Errorf("battles waited on: %+v", bs)
			}
		})
	}
}
