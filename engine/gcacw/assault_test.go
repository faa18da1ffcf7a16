package gcacw

import (
	"strings"
	"testing"

	"pbem/engine"
)

// testCombat is a combat table whose results are easy to read off: the
// row is the modified roll, the columns 1-1 and 2-1.
const testCombat = `[combat]
columns 1-1 2-1
<=2 A1 A1/D1
3 Ad D1
4 NE Dd
5 D1 D1/Dr
>=6 D2/Dr D3/Dr
drm -1 terrain=woods
drm +1 grand
fatigue attacker=1 defender=0
retreat hexes=1
`

// assaultScn: Able (6) and Baker (4) of corps I under Lyon, next to Yoke
// (4) in 0504; Hale leads the army; Dent of corps II is elsewhere.
func assaultScn(tables, mapL string) scn {
	return scn{mapL: mapL, tables: tables,
		units: `USA A "Able" inf XX str=6 tac=3 art=2 at=0505 in=AC/I
USA B "Baker" inf X str=4 tac=2 art=1 at=0604 in=AC/I
USA D "Dent" inf X str=3 tac=1 art=0 at=0909 in=AC/II
USA F "Far" inf X str=3 tac=1 art=0 at=0501 in=AC/I
CSA Y "Yoke" inf X str=4 tac=2 art=1 at=0504 in=Z
CSA W "Wren" inf X str=2 tac=1 art=0 at=0101 in=Z`,
		leaders: `USA L "Lyon" corps cmd=2 tac=2 commands=I with=A
USA H "Hale" army cmd=4 commands=AC with=A
USA N "Nash" division cmd=2 tac=1 commands=II with=D`}
}

// GCACW 5b, 2.2m: a corps leader's assault, resolved by the scenario's
// combat table (a house rule): the die line names each modifier and its
// source, the defender loses and retreats where it chooses (asked by
// mail: the table leaves the path to it), the strongest attacker
// advances, the attackers tire, and the action ends.
func TestGCACW_5b_AssaultByTheCombatTable(t *testing.T) {
	h := newHarness(t, assaultScn(flatTEC+testCombat, "").bytes())
	h.start(5, 2)
	// Attack 10 against 4: the 2-1 column. Die 2, +2 Lyon, +1 tactical
	// (3 - 2), +1 artillery (3 > 1) = 6: D3/Dr.
	dec := h.do(USA, "ASSAULT Lyon: Able Baker ON 0504", "assault 0504=2")
	echo := strings.Join(dec.Echo, "\n")
	mustContain(t, "echo", echo, "USA assaults 0504 with A, B under L.")
	r := fact(t, dec, kAssaultRolled)
	if r.Str("column") != "2-1" || r.Int("roll") != 6 || r.Str("result") != "D3/Dr" {
		t.Fatalf("rolled %s", r)
	}
	told := tell(h.st, r)
	mustContain(t, "die line", told, "USA rolls 2, +2 leader Lyon's tactical value (2.2m), +1 Tactical values (2.2h), +1 Artillery values (2.2h) = 6: the defender loses 3 Manpower and the defenders retreat.")
	mustContain(t, "die line", told, "Combat values 10 against 4")
	// The defender chooses the retreat: asked by mail, the default on a
	// missed deadline stated; the other orders wait.
	mustContain(t, "asked", tell(h.st, fact(t, dec, kFallBackAsked)), "The assault on 0504 waits: CSA is asked where Yoke retreats.")
	y := h.unit("Y")
	at := y.Hex
	def := h.st.fallBackPath(y, at, 1)
	var other string
	for _, o := range h.st.fallBackOptions(y, at, 1) {
		if o[0] != def[0] {
			other = o[0].String()
		}
	}
	if other == "" {
		t.Fatalf("Yoke has one retreat: %v", h.st.fallBackOptions(y, at, 1))
	}
	ps := prompts(h.st)
	if len(ps) != 1 || ps[0].Side != CSA {
		t.Fatalf("prompts %+v, want CSA's alone", ps)
	}
	mustContain(t, "question", ps[0].What, "A unit you do not name retreats as pbem picks; PASS lets pbem pick for all, as does a missed deadline whose default order is PASS. pbem picks: Yoke (Y) to "+def[0].String())
	help := eligibleNow(h.st, CSA)
	mustContain(t, "HELP", help.Heading+"\n"+strings.Join(help.Lines, "\n"), "Units that retreat now (the combat table's Dr result, a house rule)\n- Yoke (Y) in 0504: RETREAT ")
	mustContain(t, "others wait", problemsText(h.reject(USA, "MARCH Dent 0910")), "the game waits for CSA to say where the units attacked in 0504 retreat")
	mustContain(t, "first the retreat", problemsText(h.reject(CSA, "MARCH Wren 0102")), "first say where your units attacked in 0504 retreat")
	mustContain(t, "into the attacker", problemsText(h.reject(CSA, "RETREAT Yoke 0505")), "Yoke cannot retreat from 0504 to 0505: 0505 holds an enemy unit")
	mustContain(t, "too far", problemsText(h.reject(CSA, "RETREAT Yoke "+def[0].String()+" 0101")), "Yoke retreats 1 hex (the combat table's retreat, as far as it can go): give 1")
	mustContain(t, "not attacked", problemsText(h.reject(CSA, "RETREAT Wren 0102")), "Wren does not retreat now")
	dec = h.do(CSA, "RETREAT Yoke "+other, "initiative USA=4", "initiative CSA=3")
	mustContain(t, "retreat", tell(h.st, fact(t, dec, kUnitFellBack)), "Yoke retreats 0504–"+other+": the assault on 0504, by the combat table (a house rule); its owner's choice.")
	if y := h.unit("Y"); y.Manpower != 1 || y.Hex.String() != other {
		t.Errorf("Yoke: Manpower %d in %s, want 1 in %s (its owner's choice)", y.Manpower, y.Hex, other)
	}
	if a := h.unit("A"); a.Hex.String() != "0504" || a.Fatigue != 1 {
		t.Errorf("Able in %s fatigue %d: want it advanced into 0504, fatigue 1", a.Hex, a.Fatigue)
	}
	if b := h.unit("B"); b.Hex.String() != "0604" || b.Fatigue != 1 {
		t.Errorf("Baker in %s fatigue %d: want it in place, fatigue 1", b.Hex, b.Fatigue)
	}
	if h.st.Cycle.N != 2 || h.st.Pending != nil {
		t.Errorf("Action Phase %d, pending %+v: want the action over", h.st.Cycle.N, h.st.Pending)
	}
	mustContain(t, "echo", strings.Join(dec.Echo, "\n"), "Y retreats 0504-"+other+".")
}

// GCACW 2.2k: an army leader starts a Grand Assault, which the table's
// own DRM names; a unit alone may assault too (5a: one unit or one
// leader).
func TestGCACW_2_2k_GrandAssaultAndAUnitAlone(t *testing.T) {
	h := newHarness(t, assaultScn(flatTEC+testCombat, "").bytes())
	h.start(5, 2)
	dec := h.do(USA, "GRAND ASSAULT Hale: Able ON 0504", "assault 0504=1", "initiative USA=4", "initiative CSA=3")
	r := fact(t, dec, kAssaultRolled)
	// 6 against 4: 1-1. 1 +1 tactical +1 artillery +1 Grand Assault = 4: NE.
	mustContain(t, "grand", tell(h.st, r), "USA rolls 1, +1 Tactical values (2.2h), +1 Artillery values (2.2h), +1 Grand Assault (house rule) = 4: no effect.")
	mustContain(t, "declared", tell(h.st, fact(t, dec, kAssaultDeclared)), "Hale leads a Grand Assault (GCACW 2.2k) on 0504 with Able.")
	h2 := newHarness(t, assaultScn(flatTEC+testCombat, "").bytes())
	h2.start(5, 2)
	dec = h2.do(USA, "ASSAULT Baker ON 0504", "assault 0504=3", "initiative USA=4", "initiative CSA=3")
	// 4 against 4: 1-1; 3 + 0 tactical + 0 artillery = 3: Ad.
	if r := fact(t, dec, kAssaultRolled); r.Str("result") != "Ad" || !h2.unit("B").Disorganized {
		t.Errorf("rolled %s, Baker disorganized %v", r, h2.unit("B").Disorganized)
	}
}

// Who may assault, and where (GCACW 5.2b, 2.2k-m, 2.5, 2.4, 5.1b by
// pbem's reading): each refusal says why, before any die is rolled.
func TestGCACW_5b_AssaultRefusals(t *testing.T) {
	for _, tc := range []struct {
		name, mapL, setup, order, want string
	}{
		{"in a Leader Activation", "", "", "ACTIVATE Lyon: Able ASSAULT 0504", "an assault cannot be performed during a Leader Activation (GCACW 5.2b)"},
		{"not subordinate", "", "", "ASSAULT Nash: Able ON 0504", "Able is not under Nash's command (GCACW 2.2m)"},
		{"beyond the command radius", "", "SET Far HEX 0909", "ASSAULT Lyon: Far ON 0504", "not within Lyon's command radius"},
		{"not adjacent", "", "", "ASSAULT Far ON 0504", "Far in 0501 is not next to 0504"},
		{"at fatigue 4", "", "SET Able FATIGUE 4", "ASSAULT Able ON 0504", "Able is at fatigue 4"},
		{"no enemy", "", "", "ASSAULT Able ON 0506", "0506 holds no enemy unit to attack"},
		{"army leader, plain assault", "", "", "ASSAULT Hale: Able ON 0504", "starts a Grand Assault (GCACW 2.2k)"},
		{"corps leader, Grand Assault", "", "", "GRAND ASSAULT Lyon: Able ON 0504", "a Grand Assault is started by an army or district leader (GCACW 2.2k, 2.2l)"},
		{"across a river", "0505/0504 river-minor", "", "ASSAULT Able ON 0504", "zone of control does not reach 0504"},
		{"no hex", "", "", "ASSAULT Able", "name the hex attacked"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, assaultScn(flatTEC+testCombat, tc.mapL).bytes())
			if tc.setup != "" {
				h.do(engine.RefereeSide, tc.setup)
			}
			h.start(5, 2)
			mustContain(t, tc.order, problemsText(h.reject(USA, tc.order)), tc.want)
		})
	}
}

// With no combat table the referee rules the assault by mail: each
// outcome a structured command, each answered with what it did and what
// it cost; the action stays open until RULE DONE (Ambiguity A25).
func TestGCACW_5b_AssaultRuledByTheReferee(t *testing.T) {
	h := newHarness(t, assaultScn(flatTEC, "").bytes())
	mustContain(t, "referee steps", strings.Join(refereeSteps(h.st), "\n"), "assaults and the attacks that end a march (GCACW 5b, 5.1.5, R10)")
	h.start(5, 2)
	h.do(USA, "ASSAULT Lyon: Able Baker ON 0504")
	if p := h.st.Pending; p == nil || p.Step != StepAssault || h.st.Cycle.Stage != StageAct {
		t.Fatalf("pending %+v: want the assault waiting for the referee", p)
	}
	mustContain(t, "player waits", problemsText(h.reject(CSA, "PASS")), "the game waits for the referee")
	mustContain(t, "not in it", problemsText(h.reject(engine.RefereeSide, "RULE LOSS Dent 1")), "Dent takes no part in the assault on 0504")
	mustContain(t, "too much", problemsText(h.reject(engine.RefereeSide, "RULE LOSS Yoke 5")), "Yoke has 4 Manpower")
	mustContain(t, "advance early", problemsText(h.reject(engine.RefereeSide, "RULE ADVANCE Able 0504")), "0504 still holds an enemy unit")
	dec := h.do(engine.RefereeSide, "RULE LOSS Yoke 2\nRULE DISORGANIZED Yoke\nRULE RETREAT Yoke 0503\nRULE LOSS Baker 1\nRULE ADVANCE Able 0504\nRULE FATIGUE Able 1\nRULE CASUALTY Lyon")
	echo := strings.Join(dec.Echo, "\n")
	for _, want := range []string{
		"Y loses 2 Manpower, 2 left (the assault on 0504, by the referee's ruling). (cost to Y: Manpower 4 -> 2, Combat value 4 -> 2)",
		"Y retreats 0504-0503. (cost to Y: hex 0504 -> 0503)",
		"A advances into 0504. (cost to A: hex 0505 -> 0504)",
		"A fatigue set to 1. (cost to A: fatigue 0 -> 1)",
		"(L is out of play for the rest of the game)",
	} {
		mustContain(t, "referee echo", echo, want)
	}
	if y, a, l := h.unit("Y"), h.unit("A"), h.st.leader("L"); y.Manpower != 2 || !y.Disorganized || y.Hex.String() != "0503" || a.Hex.String() != "0504" || !l.Removed {
		t.Errorf("Yoke %+v, Able %+v, Lyon %+v", y, a, l)
	}
	if h.st.Pending == nil {
		t.Fatal("the assault ended before RULE DONE")
	}
	h.do(engine.RefereeSide, "RULE DONE", "initiative USA=4", "initiative CSA=3")
	if h.st.Pending != nil || h.st.Cycle.N != 2 {
		t.Errorf("after RULE DONE: pending %+v, Action Phase %d", h.st.Pending, h.st.Cycle.N)
	}
	mustContain(t, "no assault", problemsText(h.reject(engine.RefereeSide, "RULE LOSS Yoke 1")), "no assault waits for the referee")
}

// GCACW 5.1.5: with a combat table a march may end attacking the enemy
// in its last hex, and the table resolves the attack at once.
func TestGCACW_5_1_5_MarchAttackByTheCombatTable(t *testing.T) {
	h := newHarness(t, assaultScn(flatTEC+emTable("")+testCombat, "").bytes())
	h.start(5, 2)
	dec := h.do(USA, "MARCH Able 0504", "march MA A=3", "assault 0504=4")
	// Able alone, 6 against 4: 1-1; 4 +1 tactical +1 artillery = 6: D2/Dr.
	if r := fact(t, dec, kAssaultRolled); r.Str("result") != "D2/Dr" {
		t.Fatalf("rolled %s in\n%s", r, factList(dec.Facts))
	}
	// CSA is asked where Yoke retreats; PASS (what a missed deadline with
	// the default order PASS sends) takes pbem's pick, and the march's
	// action ends.
	def := h.st.fallBackPath(h.unit("Y"), h.unit("Y").Hex, 1)
	h.do(CSA, "PASS", "initiative USA=4", "initiative CSA=3")
	if a, y := h.unit("A"), h.unit("Y"); a.Hex.String() != "0504" || y.Manpower != 2 || y.Hex != def[0] {
		t.Errorf("Able in %s, Yoke Manpower %d in %s (want %s)", a.Hex, y.Manpower, y.Hex, def[0])
	}
	if h.st.Cycle.N != 2 || h.st.Ask != nil {
		t.Errorf("Action Phase %d, ask %+v: want the action over", h.st.Cycle.N, h.st.Ask)
	}
}

// A defender with nowhere to retreat loses a Manpower instead, and the
// combat table's scenario needs no referee for assaults.
func TestCombatTable_NoRetreatCostsManpower(t *testing.T) {
	// Yoke in a corner, USA all round it.
	s := assaultScn(flatTEC+testCombat, "")
	s.units = `USA A "Able" inf XX str=6 tac=3 art=2 at=0102 in=AC/I
USA B "Baker" inf X str=4 tac=2 art=1 at=0201 in=AC/I
CSA Y "Yoke" inf X str=4 tac=2 art=1 at=0101 in=Z`
	s.leaders = `USA L "Lyon" corps cmd=2 tac=2 commands=I with=A`
	h := newHarness(t, s.bytes())
	if steps := strings.Join(refereeSteps(h.st), "\n"); strings.Contains(steps, "assault") {
		t.Errorf("a scenario with a combat table hands assaults to the referee: %s", steps)
	}
	h.start(5, 2)
	dec := h.do(USA, "ASSAULT Lyon: Able Baker ON 0101", "assault 0101=3")
	// 10 against 4: 2-1; 3+2+1+1 = 7: D3/Dr; no hex to retreat into: -1 more.
	mustContain(t, "no retreat", factList(dec.Facts), "no hex open to retreat into")
	if u := h.st.unit("Y"); !u.Eliminated {
		t.Errorf("Yoke %+v: want it eliminated (4 - 3 - 1)", u)
	}
	if a := h.unit("A"); a.Hex.String() != "0101" {
		t.Errorf("Able in %s: want it advanced", a.Hex)
	}
}

// The [combat] section's errors name their line.
func TestCombatTable_Errors(t *testing.T) {
	for _, tc := range []struct{ table, want string }{
		{"[combat]\ncolumns 2-1 1-1\n1 NE NE\n", "from the lowest odds to the highest"},
		{"[combat]\ncolumns 1-1\n1 X2\n", "result \"X2\""},
		{"[combat]\ncolumns 1:1\n1 NE\n", "write odds as attack-defence"},
		{"[combat]\n1 NE\n", "give the columns first"},
		{"[combat]\ncolumns 1-1\n1 NE\ndrm -1 terrain=lava\n", "terrain=lava"},
		{"[combat]\ncolumns 1-1\n1 NE\n2 NE NE\n", "roll 2 has 2 results for 1 columns"},
	} {
		err := scenarioErr(t, string(assaultScn(flatTEC+tc.table, "").bytes()))
		mustContain(t, tc.table, err, tc.want)
	}
}

// Victory in sight: every board's header gives the victory points as
// they stand (the scenario's victory table), or says the referee rules
// the result; the points move with the Manpower an assault costs.
func TestVictoryPointsStandInEveryBoard(t *testing.T) {
	b, _ := Scenario("harrow-creek")
	h := newHarness(t, b)
	mustContain(t, "header", strings.Join(h.st.header(), "\n"), " victory points now: USA 5, CSA 2, USA leads by 3; after turn 3 a lead of 2 VP")
	h.do(engine.RefereeSide, "SET Starling STRENGTH 2\nSET Orne STRENGTH 3")
	// CSA lost 2 (1 VP to USA), USA lost 4 (2 VP to CSA).
	mustContain(t, "header", strings.Join(h.st.header(), "\n"), " victory points now: USA 6, CSA 4, USA leads by 2;")
	// Refereed, the board shows the conditions the referee will weigh
	// (R24): who holds each objective, the Manpower lost, their count.
	h = newHarness(t, refereedHarrow(t))
	head := func() string { return strings.Join(strings.Fields(strings.Join(h.st.header(), " ")), " ") }
	mustContain(t, "refereed header", head(), "victory: the referee decides the result after turn 3, weighing the scenario's conditions: Ashford 1007 3 VP (empty, USA's), Harrow 0408 2 VP (empty, CSA's), Millbrook 1104 1 VP (empty, USA's), Caddon 1508 1 VP (USA holds it); Manpower lost USA 0, CSA 0; their count now USA 5 VP, CSA 2 VP, a lead of 2 wins")
	h.do(engine.RefereeSide, "SET Rusk HEX 1007\nSET Orne STRENGTH 3")
	mustContain(t, "refereed header", head(), "Ashford 1007 3 VP (CSA holds it)")
	mustContain(t, "refereed header", head(), "Manpower lost USA 4, CSA 0; their count now USA 2 VP, CSA 7 VP")
	if strings.Contains(head(), "victory points now") {
		t.Errorf("a refereed board counts points as if pbem decided:\n%s", head())
	}
}
