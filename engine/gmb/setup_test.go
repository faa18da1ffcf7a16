package gmb

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/table"
	"pbem/events"
)

// setupTo plays a fresh game by the prompts' first examples up to a step.
func setupTo(t *testing.T, step string, extra ...string) *game {
	t.Helper()
	g := newGame(t, extra...)
	g.auto(300, atStep(step))
	return g
}

// atLinear is a game at the linear terrain (13.10h) with Union as Player
// A on an Offensive battlefield and the typical list: Confederate (B)
// places first.
func atLinear(t *testing.T, extra ...string) *game {
	t.Helper()
	g := setupTo(t, StepList, extra...)
	g.st.PlayerA, g.st.Battlefield, g.st.Placer = "Union", Offensive, "Union"
	g.send("Union", "LIST TYPICAL")
	if g.st.Step != StepLinear || g.st.Placer != "Confederate" {
		t.Fatalf("after the list: step %s, placer %s", g.st.Step, g.st.Placer)
	}
	return g
}

// atNormal passes the linear terrain with both sides passing.
func atNormal(t *testing.T, extra ...string) *game {
	t.Helper()
	g := atLinear(t, extra...)
	g.send("Confederate", "PASS")
	g.send("Union", "PASS")
	if g.st.Step != StepNormal {
		t.Fatalf("after two passes: step %s", g.st.Step)
	}
	return g
}

func TestGMB_13_1_TableSize(t *testing.T) {
	g := newGame(t)
	g.send("Union", "TABLE 72x48")
	g.send("Confederate", "TABLE 72x48")
	if g.st.TableSize != "72x48" {
		t.Errorf("both asked for 72x48; the table is %q", g.st.TableSize)
	}
	// They disagree: 13.1's recommendation for armies up to $1500.
	g = newGame(t)
	g.send("Union", "TABLE 72x48")
	g.send("Confederate", "TABLE 48x48")
	if g.st.TableSize != "48x48" || g.facts("table.set")[0].Str("how") != "recommended" {
		t.Errorf("disagreeing on $1400 armies gave %q", g.st.TableSize)
	}
	// Larger armies: the 72" table.
	sc := scenario(t)
	sc = []byte(strings.Replace(string(sc), "value 1400\nyear 1862", "value 2000\nyear 1862", 1))
	st, err := rules{}.Setup(sc, testPlayers)
	if err != nil {
		t.Fatal(err)
	}
	if r := recommended(st.Scn); r != "72x48" {
		t.Errorf("a $2000 army: %s recommended", r)
	}
	// A scenario that fixes the table skips the step.
	g = newGame(t, "table-size 72x48")
	if g.st.Step != StepYear || g.st.W != table.Inch(72) {
		t.Errorf("a fixed table: step %s, width %v", g.st.Step, g.st.W)
	}
	newGame(t).refuse("Union", "TABLE 60x40", "this scenario has no \"60x40\" table (13.1)")
}

func TestGMB_13_3_TheSetupStepsComeInOrder(t *testing.T) {
	g := setupTo(t, StepActivate, "option neutral-card hand")
	var steps []string
	for _, f := range g.facts("step.begun") {
		if s := f.Str("step"); len(steps) == 0 || steps[len(steps)-1] != s {
			steps = append(steps, s)
		}
	}
	order := []string{StepYear, StepDraw, StepGenerals, StepCards, StepDeclare, StepList, StepLinear, StepNormal, StepTactic, StepCavalry, StepPatrol, StepActivate}
	j := 0
	for _, s := range steps {
		if j < len(order) && s == order[j] {
			j++
		}
	}
	if j != len(order) {
		t.Errorf("steps %v; want them in 13.3's order %v", steps, order)
	}
}

func TestGMB_13_4a_13_4b_13_4c_TheYear(t *testing.T) {
	g := setupTo(t, StepYear)
	g.refuse("Confederate", "YEAR 1862", "Alabama Brigade can be fielded only from 1863 (13.4b)")
	g.send("Union", "YEAR 1862")
	g.send("Confederate", "YEAR 1863")
	if g.st.Year != 1863 || g.facts("year.set")[0].Str("how") != "later" {
		t.Errorf("armies of 1862 and 1863 fight in %d; want the later (13.4c)", g.st.Year)
	}
	// 13.4a: left to an impartial referee.
	g = setupTo(t, StepYear, "battle-year referee")
	ps := prompts(g.st)
	if len(ps) != 1 || !ps[0].Referee {
		t.Fatalf("prompts %+v; want the referee's", ps)
	}
	g.refuse("Union", "YEAR 1862", "the referee acts now")
	// 13.4b holds whoever sets the year: the referee's 1862 would field
	// the Alabama Brigade, available from 1863.
	g.refuse(engine.RefereeSide, "YEAR 1862", "the Confederate army's Alabama Brigade can be fielded only from 1863 (13.4b)")
	g.send(engine.RefereeSide, "YEAR 1864")
	g.refuse(engine.RefereeSide, "SET game YEAR 1862", "Alabama Brigade can be fielded only from 1863 (13.4b)")
	if g.st.Year != 1864 || g.st.Step != StepDraw {
		t.Errorf("year %d, step %s", g.st.Year, g.st.Step)
	}
	// Or agreed when the game was arranged.
	// A scenario's battle-year too.
	if _, err := (rules{}).Setup(scenario(t, "battle-year 1862"), testPlayers); err == nil || !strings.Contains(err.Error(), "Alabama Brigade can be fielded only from 1863 (13.4b)") {
		t.Errorf("a scenario fought in 1862 with a brigade of 1863: %v; want refused (13.4b)", err)
	}
	g = setupTo(t, StepDraw, "battle-year 1863")
	if g.st.Year != 1863 || len(g.facts("year.proposed")) != 0 {
		t.Errorf("a scenario's year: %d, proposals %v", g.st.Year, g.facts("year.proposed"))
	}
}

// drawn returns the generals.drawn fact of an army's group.
func (g *game) drawn(side, group string) events.Fact {
	g.t.Helper()
	for _, f := range g.facts("generals.drawn") {
		if f.Str("side") == side && f.Str("group") == group {
			return f
		}
	}
	g.t.Fatalf("%s's %s were not drawn", side, group)
	return events.Fact{}
}

func TestGMB_13_5a_TheOpponentDrawsOpenly(t *testing.T) {
	g := setupTo(t, StepDraw)
	g.send("Union", "DEAL GENERALS")
	if fs := g.facts("army.drawn"); len(fs) != 1 || fs[0].Str("side") != "Confederate" || fs[0].Str("by") != "Union" {
		t.Fatalf("Union's draw: %v; want Confederate's generals drawn by Union", fs)
	}
	for _, f := range g.log {
		if !f.Vis.Public() {
			t.Errorf("%s is hidden; drawn generals are open", f)
		}
	}
	g.refuse("Union", "DEAL GENERALS", "it is not your turn")
	g = setupTo(t, StepDraw, "option generals-drawn-by owner")
	g.send("Union", "DEAL GENERALS")
	if fs := g.facts("army.drawn"); fs[0].Str("side") != "Union" {
		t.Errorf("with generals-drawn-by owner Union drew %s's", fs[0].Str("side"))
	}
}

func TestGMB_13_5b_13_5c_13_5d_13_5_EX2_TheDrawByGroups(t *testing.T) {
	corpsSeen, meadeCorps := map[string]bool{}, false
	for seed := uint64(1); seed <= 12; seed++ {
		g := setupTo(t, StepDraw)
		g.dice = lcg(seed)
		g.send("Confederate", "DEAL GENERALS")
		cic := g.drawn("Union", GroupCiC)
		if c := cic.Strs("generals")[0]; !slices.Contains([]string{"McClellan", "Hooker", "Meade"}, c) {
			t.Errorf("commander-in-chief %s is not of the Army or Army/Corps group (13.5b)", c)
		}
		corps := g.drawn("Union", GroupCorps)
		for _, c := range corps.Strs("generals") {
			corpsSeen[c] = true
			if c == "Meade" {
				meadeCorps = true
			}
			if !slices.Contains([]string{"Reynolds", "Hancock", "Sedgwick", "Meade"}, c) {
				t.Errorf("corps commander %s is from another group (13.5c)", c)
			}
		}
		if slices.Contains(cic.Strs("generals"), "Meade") && slices.Contains(corps.Strs("generals"), "Meade") {
			t.Error("Meade drawn twice")
		}
		// 13.5-EX2: a cavalry corps and two divisions: drawn by level.
		if cc := g.drawn("Union", GroupCavCorps); len(cc.Strs("generals")) != 1 || !slices.Contains([]string{"Stoneman", "Pleasonton"}, cc.Strs("generals")[0]) {
			t.Errorf("cavalry corps commander: %v", cc)
		}
		if cd := g.drawn("Union", GroupCavDivision); len(cd.Strs("generals")) != 2 {
			t.Errorf("cavalry division commanders: %v", cd)
		}
		// 13.5d.8: Hunt, alone in his group, is assigned without a draw.
		if h := g.drawn("Union", GroupArtillery); !h.Bool("auto") || h.Strs("generals")[0] != "Hunt" {
			t.Errorf("the army artillery: %v; want Hunt assigned automatically", h)
		}
	}
	if !meadeCorps {
		t.Error("in 12 draws Meade (Army/Corps) never became a corps commander: 13.5d.3 shuffles him into the corps group")
	}
	// The draw order of 13.5d.
	g := setupTo(t, StepDraw)
	g.send("Confederate", "DEAL GENERALS")
	var groups []string
	for _, f := range g.facts("generals.drawn") {
		groups = append(groups, f.Str("group"))
	}
	want := []string{GroupCiC, GroupCorps, GroupDivision, GroupCavCorps, GroupCavDivision, GroupArtillery}
	if !slices.Equal(groups, want) {
		t.Errorf("Union's groups drawn %v; want %v (13.5d)", groups, want)
	}
}

func TestGMB_13_5e_13_5f_13_5_EX1_G12_ABranchOfOneLevelDrawsFromAll(t *testing.T) {
	g := setupTo(t, StepDraw)
	g.send("Union", "DEAL GENERALS")
	// Confederate: a cavalry division and no cavalry corps, a deck of
	// "Cavalry" generals (13.5f); corps artillery alone (13.5-EX1).
	cav := g.drawn("Confederate", GroupCavalry)
	if c := cav.Strs("generals")[0]; !slices.Contains([]string{"Stuart", "Hampton", "Fitz Lee"}, c) {
		t.Errorf("cavalry commander %s", c)
	}
	art := g.drawn("Confederate", GroupArtillery)
	if a := art.Strs("generals")[0]; !slices.Contains([]string{"Alexander", "Pendleton"}, a) {
		t.Errorf("artillery commander %s", a)
	}
	// G12's other reading splits by the deck's cards alone: Union's
	// cavalry is split either way.
	g = setupTo(t, StepDraw, "option generals-split deck")
	g.send("Confederate", "DEAL GENERALS")
	g.drawn("Union", GroupCavDivision)
	// An army with one cavalry division and a deck of both levels: G12
	// draws from all cavalry generals; the deck reading from the
	// division's own group.
	sc := strings.Replace(string(scenario(t)), "division 2nd Cavalry Division | Cavalry Corps\n", "", 1)
	sc = strings.Replace(sc, "corps Cavalry Corps | infantry", "", 1)
	sc = strings.Replace(sc, "corps Cavalry Corps | cavalry\n", "", 1)
	sc = strings.Replace(sc, "division 1st Cavalry Division | Cavalry Corps", "division 1st Cavalry Division | cavalry", 1)
	sc = strings.Replace(sc, "unit Reserve Brigade | cavalry | 2nd Cavalry Division\n", "", 1)
	for _, tc := range []struct{ opt, group string }{{"", GroupCavalry}, {"option generals-split deck", GroupCavDivision}} {
		st, err := rules{}.Setup([]byte(sc+"\n"+tc.opt+"\n"), testPlayers)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, p := range plans(st.Scn, st.Scn.Army("Union")) {
			if slices.Contains(p.Formations, "1st Cavalry Division") {
				found = p.Group == tc.group
			}
		}
		if !found {
			t.Errorf("%q: the lone cavalry division is not drawn among the %s", tc.opt, tc.group)
		}
	}
}

func TestGMB_13_5g_Redraws(t *testing.T) {
	g := setupTo(t, StepGenerals)
	g.refuse("Confederate", "REDRAW division commanders", "your army may redraw no general")
	g.send("Union", "REDRAW division commanders")
	r := g.st.side("Union").Redrawn
	if r == "" || g.st.general(r) != nil {
		t.Fatalf("redrawn %q; want a set-aside division commander", r)
	}
	g.refuse("Union", "DONE", "first SWAP")
	var old string
	for _, gen := range g.st.Generals {
		if gen.Side == "Union" && gen.Group == GroupDivision {
			old = gen.Name
			break
		}
	}
	g.refuse("Union", "SWAP Hunt", "may replace only a general drawn among the division commanders")
	g.send("Union", "SWAP "+old)
	if n := g.st.general(r); n == nil || n.Formation == "" || g.st.general(old).Formation != "" {
		t.Errorf("after SWAP %s took %s's place? %+v, %+v", r, old, g.st.general(r), g.st.general(old))
	}
	g.refuse("Union", "REDRAW division commanders", "your army may redraw no general") // its one redraw is spent
	g.send("Union", "DONE")
}

func TestGMB_13_5h_AssignmentKeepsLevelAndBranch(t *testing.T) {
	g := setupTo(t, StepGenerals)
	var div1, div2 *General
	for i := range g.st.Generals {
		gen := &g.st.Generals[i]
		if gen.Side == "Union" && gen.Formation == "1st Division" {
			div1 = gen
		}
		if gen.Side == "Union" && gen.Formation == "2nd Division" {
			div2 = gen
		}
	}
	a, b := div1.Name, div2.Name
	g.send("Union", "ASSIGN "+a+" TO 2nd Division")
	if g.st.general(a).Formation != "2nd Division" || g.st.general(b).Formation != "1st Division" {
		t.Errorf("ASSIGN did not swap %s and %s", a, b)
	}
	g.refuse("Union", "ASSIGN "+a+" TO I Corps", "may command only what his level and branch allow (13.5h)")
	g.refuse("Union", "ASSIGN Hunt TO 1st Cavalry Division", "may command only")
}

func TestGMB_13_5i_BrigadeGeneralsHistoricalFirst(t *testing.T) {
	g := setupTo(t, StepCards)
	var div string
	for _, gen := range g.st.Generals {
		if gen.Side == "Union" && gen.Group == GroupDivision && gen.Formation != "" {
			div = gen.Name
			break
		}
	}
	g.send(engine.RefereeSide, "FALLEN "+div)
	if f := g.facts("general.replaced"); len(f) != 1 || f[0].Str("general") != "Krzyzanowski" {
		t.Fatalf("replaced by %v; want Krzyzanowski, the Union's historical brigade general, first (13.5i)", f)
	}
	g.send(engine.RefereeSide, "FALLEN Krzyzanowski")
	if f := g.facts("general.replaced"); !slices.Contains([]string{"Col. Avery", "Col. Bishop", "Col. Carver"}, f[1].Str("general")) {
		t.Errorf("then %s; want one of the generic deck (4.15)", f[1].Str("general"))
	}
}

func TestGMB_13_6a_FiveDrawnThreeKeptTwoBack(t *testing.T) {
	g := setupTo(t, StepCards)
	for _, f := range g.facts("cards.drawn") {
		if f.Vis != events.ToSide(f.Str("side")) || len(f.Strs("cards")) != 5 {
			t.Errorf("%s: want 5 cards seen by its side alone", f)
		}
	}
	u := g.st.side("Union")
	five := slices.Clone(u.Drawn5)
	g.refuse("Union", "KEEP 1, 2", "keep exactly 3")
	g.refuse("Union", "KEEP Rebel Yell, 1, 2", "you drew no card \"Rebel Yell\"")
	g.send("Union", "KEEP 1, "+five[2]+", 5")
	u = g.st.side("Union")
	if !slices.Equal(u.Hand, []string{five[0], five[2], five[4]}) || len(u.Deck) != 7 || !slices.Contains(u.Deck, five[1]) || !slices.Contains(u.Deck, five[3]) {
		t.Errorf("hand %v, deck %v; want 3 kept and the other 2 back in the deck of 7", u.Hand, u.Deck)
	}
	kept := g.facts("cards.kept")[0]
	if kept.Vis != events.ToSide("Union") {
		t.Errorf("the kept and returned cards are %v; want Union's alone", kept.Vis)
	}
}

// The example a player is given for 13.6a fits a 78-column mail, indented
// as examples are, however long the drawn cards' names; when the names
// would not fit it names the cards by their numbers, and it is taken.
func TestGMB_13_6a_KeepExampleFitsAMailLine(t *testing.T) {
	g := setupTo(t, StepCards)
	u := g.st.side("Union")
	u.Drawn5 = []string{"Iron Brigade Steadiness", "Like Sickles at Gettysburg", "Engineer Bridge Train", u.Drawn5[3], u.Drawn5[4]}
	var keep string
	for _, p := range prompts(g.st) {
		for _, e := range p.Examples {
			if strings.HasPrefix(e, "KEEP") && p.Side == "Union" {
				keep = e
			}
		}
	}
	if keep == "" || len([]rune(keep))+4 > 78 {
		t.Fatalf("Union's KEEP example %q (%d columns indented)", keep, len([]rune(keep))+4)
	}
	g.send("Union", keep)
	if h := g.st.side("Union").Hand; !slices.Equal(h, []string{"Iron Brigade Steadiness", "Like Sickles at Gettysburg", "Engineer Bridge Train"}) {
		t.Errorf("the example %q kept %v", keep, h)
	}
}

func TestGMB_13_6b_OneCardEachTurnFromTheSecond(t *testing.T) {
	g := setupTo(t, StepActivate)
	before := len(g.st.side("Union").Hand)
	g.auto(200, func(s *State) bool { return s.Turn == 2 })
	if after := len(g.st.side("Union").Hand); after != before+1 {
		t.Errorf("hand %d at turn 1, %d at turn 2; want one card more (13.6b)", before, after)
	}
	last := g.facts("cards.dealt")
	if f := last[len(last)-1]; f.Str("rule") != "13.6b" {
		t.Errorf("the turn's draw: %s", f)
	}
}

func TestGMB_13_7b_13_8d_G9_TheDeclarationIsSealed(t *testing.T) {
	g := setupTo(t, StepDeclare)
	ps := prompts(g.st)
	if len(ps) != 2 || ps[0].Sealed != SealDeclare || ps[1].Sealed != SealDeclare {
		t.Fatalf("prompts %+v; want both sides in one sealed step", ps)
	}
	g = setupTo(t, StepDeclare, "option declaration open")
	ps = prompts(g.st)
	if len(ps) != 1 || ps[0].Sealed != "" || ps[0].Side != "Union" {
		t.Fatalf("open declarations: prompts %+v; want Union first, unsealed", ps)
	}
}

func TestGMB_13_8b_13_8d_13_8e_BonusDice(t *testing.T) {
	for field, row := range bonusDice {
		for char, bonus := range row {
			for _, forced := range []bool{false, true} {
				g := setupTo(t, StepDeclare)
				cic := g.st.generalOf("Union", ArmyFormation)
				for _, gd := range g.st.Scn.Army("Union").Generals {
					if gd.Character == char {
						cic.Name = gd.Name
					}
				}
				order := "BATTLEFIELD " + field
				if forced {
					order += " FORCED MARCH"
				}
				g.send("Union", order)
				g.send("Confederate", "BATTLEFIELD NEUTRAL")
				want := 3 + bonus
				if forced {
					want += 4
				}
				f := g.facts("initiative.rolled")[0]
				if f.Str("side") != "Union" || int(f.Int("dice")) != want {
					t.Errorf("%s, %s commander-in-chief, forced %v: %s; want %d dice", field, char, forced, f, want)
				}
				if forced && g.st.side("Union").Morale != "Shaken" {
					t.Errorf("a forced march left morale %s; want one level lower (13.8d)", g.st.side("Union").Morale)
				}
			}
		}
	}
}

func TestGMB_13_8a_13_7c_13_10c_13_10_EX1_TheWinnerIsPlayerAAndChoosesTheList(t *testing.T) {
	g := setupTo(t, StepList)
	w := g.facts("initiative.won")[0]
	a := w.Str("side")
	if g.st.PlayerA != a || g.st.Battlefield != g.st.side(a).Battlefield {
		t.Errorf("Player A %s on %s; the roll's winner %s declared %s", g.st.PlayerA, g.st.Battlefield, a, g.st.side(a).Battlefield)
	}
	g.refuse(g.st.other(a), "LIST TYPICAL", "it is not your turn")
	// 13.10-EX1: he may choose his opponent's list.
	g.send(a, "LIST "+g.st.other(a))
	if g.st.List != g.st.other(a) {
		t.Errorf("list %s", g.st.List)
	}
}

func TestGMB_13_7f_G7_TheNeutralBattlefieldsCard(t *testing.T) {
	for _, opt := range []string{"option neutral-card hand", "option neutral-card keep-3"} {
		g := setupTo(t, StepDeclare, opt)
		g.send("Union", "BATTLEFIELD NEUTRAL")
		g.send("Confederate", "BATTLEFIELD NEUTRAL")
		a := g.st.PlayerA
		if opt == "option neutral-card hand" {
			if n := len(g.st.side(a).Hand); n != 4 || g.st.Step != StepList {
				t.Errorf("%s: Player A holds %d cards at step %s; want 4 (G7: straight into the hand)", opt, n, g.st.Step)
			}
			continue
		}
		if g.st.Step != StepCards || len(g.st.side(a).Drawn5) != 4 {
			t.Fatalf("%s: step %s, %d to choose from", opt, g.st.Step, len(g.st.side(a).Drawn5))
		}
		g.refuse(g.st.other(a), "KEEP 1, 2, 3", "it is not your turn")
		g.send(a, "KEEP 1, 2, 3")
		if len(g.st.side(a).Hand) != 3 || g.st.Step != StepList {
			t.Errorf("%s: hand %v, step %s", opt, g.st.side(a).Hand, g.st.Step)
		}
	}
}

func TestGMB_13_7f_13_10m_TheDefensiveBattlefieldsFortification(t *testing.T) {
	g := atNormal(t)
	g.st.Battlefield = Defensive
	g.auto(100, atStep(StepFortify))
	if n := g.st.side("Union").Forts; n != 1 {
		t.Fatalf("Player A on the Defensive battlefield has %d sections; want 1 (its army bought none)", n)
	}
	if g.st.Placer != "Union" {
		t.Errorf("fortifications begin with %s; want Player A (13.10r)", g.st.Placer)
	}
	g.refuse("Union", "FORTIFY 10,40 20,40", "at most 6\" long")
	g.refuse("Union", "FORTIFY 10,6 14,6", "not in the opponent's deployment zone")
	g.send("Union", "FORTIFY 10,40 16,40")
	if g.st.Placer != "Confederate" {
		t.Errorf("then %s; want Confederate, who bought one section", g.st.Placer)
	}
}

func TestGMB_13_7d_13_7e_13_9b_ZonesAndStrategicPoints(t *testing.T) {
	g := atLinear(t)
	if !slices.Equal(g.st.Points, []table.Point{table.Pt(table.Inch(12), table.Inch(24)), table.Pt(table.Inch(24), table.Inch(24)), table.Pt(table.Inch(36), table.Inch(24))}) {
		t.Errorf("strategic points %v; want Illustration 13.7's three (the scenario's R16)", g.st.Points)
	}
	if lo, hi := g.st.zoneBand("Union", 0); lo != table.Inch(36) || hi != table.Inch(48) {
		t.Errorf("Player A's zone %v-%v; want the top 12\"", lo, hi)
	}
	if lo, hi := g.st.zoneBand("Confederate", 0); lo != 0 || hi != table.Inch(12) {
		t.Errorf("Player B's zone %v-%v; want the bottom 12\"", lo, hi)
	}
}

func TestGMB_13_10d_13_10e_TheTypicalListAndItsAmount(t *testing.T) {
	count := func(g *game) int {
		n := 0
		for _, e := range g.st.Left {
			n += e.Count
		}
		return n / 2
	}
	g := atNormal(t)
	want := []ListEntry{{Hill, 8}, {Rough, 8}, {Woods, 8}, {BuiltUp, 6}}
	if !slices.Equal(g.st.Left, want) {
		t.Errorf("typical list left %v; want 13.10d's 4 hills, 4 rough, 4 woods, 3 built-up (in halves)", g.st.Left)
	}
	if n := count(atNormal(t, "option terrain-amount fewer")); n != 11 {
		t.Errorf("fewer: %d pieces; want 15-4", n)
	}
	if n := count(atNormal(t, "option terrain-amount more")); n != 19 {
		t.Errorf("more: %d pieces; want 15+4", n)
	}
}

func TestGMB_13_2a_G6_13_10e_PieceSizes(t *testing.T) {
	g := atNormal(t)
	g.refuse("Confederate", "PLACE woods 13x6 AT 20,6", "at most 12\" x 6\"")
	g.send("Confederate", "PLACE woods 18x4 AT 20,6") // 72 sq in: G6's area reading
	g = atNormal(t, "option piece-size box")
	g.refuse("Confederate", "PLACE woods 18x4 AT 20,6", "at most 12\" x 6\"")
	g.send("Confederate", "PLACE woods 12x6 AT 20,6")
	g = atNormal(t, "option piece-limit 9x4")
	g.refuse("Confederate", "PLACE woods 12x6 AT 20,6", "at most 9\" x 4\"")
	g.send("Confederate", "PLACE woods 9x4 AT 20,6")
}

func TestGMB_13_2b_LinesHaveNoLengthLimit(t *testing.T) {
	g := atLinear(t)
	g.send("Confederate", "STREAM 0,20 48,20") // 48" long
}

func TestGMB_13_10f_HalfPieces(t *testing.T) {
	g := atNormal(t)
	g.send("Confederate", "PLACE woods 2x2 AT 20,6")
	g.send("Union", "PLACE woods 2x2 AT 20,42")
	if i := slices.IndexFunc(g.st.Left, func(e ListEntry) bool { return e.Kind == Woods }); g.st.Left[i].Count != 6 {
		t.Errorf("two 2x2 woods left %d halves of 8; want one piece used (13.10f)", g.st.Left[i].Count)
	}
}

// TestGMB_13_10f_TwoHalfPiecesInOneTurnReading: two half pieces may be
// placed instead of one normal piece, so by default they go down in one
// turn (one mail); option half-pieces apart: a turn each.
func TestGMB_13_10f_TwoHalfPiecesInOneTurnReading(t *testing.T) {
	g := atNormal(t)
	g.refuse("Confederate", "PLACE woods 2x2 AT 20,6\nPLACE woods 6x4 AT 30,6", "only when both are half pieces")
	g.send("Confederate", "PLACE woods 2x2 AT 20,6\nPLACE woods 2x2 AT 26,6")
	if i := slices.IndexFunc(g.st.Left, func(e ListEntry) bool { return e.Kind == Woods }); g.st.Left[i].Count != 6 || g.st.Placer != "Union" {
		t.Errorf("two half woods in one turn: %d halves left, placer %s; want 6 and Union (13.10f)", g.st.Left[i].Count, g.st.Placer)
	}
	g = atNormal(t, "option half-pieces apart")
	g.refuse("Confederate", "PLACE woods 2x2 AT 20,6\nPLACE woods 2x2 AT 26,6", "this step takes one order a mail")
}

func TestGMB_13_10g_PlacementAlternatesFromPlayerB(t *testing.T) {
	g := atNormal(t)
	if g.st.Placer != "Confederate" {
		t.Fatalf("normal terrain begins with %s; want Player B", g.st.Placer)
	}
	g.refuse("Union", "PLACE woods 6x4 AT 20,42", "it is not your turn")
	g.send("Confederate", "PLACE woods 6x4 AT 20,6")
	if g.st.Placer != "Union" {
		t.Errorf("then %s", g.st.Placer)
	}
}

func TestGMB_13_10h_13_10n_Rivers(t *testing.T) {
	g := atLinear(t)
	g.refuse("Confederate", "RIVER 0,20 48,20", "only Player A")
	g.send("Confederate", "PASS")
	g.refuse("Union", "RIVER 0,10 48,10", "only in your own deployment zone or the neutral zone")
	g.refuse("Union", "RIVER 0,20 20,20", "between two table edges")
	g.refuse("Union", "RIVER 0,20 0,30", "two different edges")
	g.refuse("Union", "RIVER 0,24 48,24", "no impassable terrain under a strategic point")
	g.send("Union", "RIVER 0,30 48,30")
	if g.st.Step != StepBridges || g.st.Placer != "Confederate" || g.st.BridgesDue != 2 {
		t.Errorf("after a 48\" river: step %s, %s to place %d bridges; want Confederate placing 2 (13.10q)", g.st.Step, g.st.Placer, g.st.BridgesDue)
	}
	// 13.10n: the Confederate list forbids a river.
	g = setupTo(t, StepList)
	g.st.PlayerA, g.st.Placer = "Union", "Union"
	g.send("Union", "LIST Confederate")
	g.send("Confederate", "PASS")
	g.refuse("Union", "RIVER 0,30 48,30", "the Confederate terrain list forbids a river (13.10n)")
}

func TestGMB_13_10h_Streams(t *testing.T) {
	g := atLinear(t)
	g.refuse("Confederate", "STREAM 0,40 48,40", "only in your own deployment zone or the neutral zone")
	g.send("Confederate", "STREAM 0,20 48,20")
	g.refuse("Union", "STREAM 0,30 48,30", "at most 1 stream (13.10h)")
}

func TestGMB_13_10h_13_10_EX2_RoadsByTheirPatterns(t *testing.T) {
	g := atLinear(t)
	// (1) from an operational base through one strategic point to the
	// opposite edge (road C of 13.10-EX2).
	g.send("Confederate", "ROAD BASE B, SP2, NORTH")
	if p := g.st.piece("road 1").Path; !slices.Equal(p, table.Polyline{table.Pt(table.Inch(24), 0), table.Pt(table.Inch(24), table.Inch(24)), table.Pt(table.Inch(24), table.Inch(48))}) {
		t.Errorf("road 1 runs %v", p)
	}
	g.refuse("Union", "ROAD BASE A, SP1, EAST", "a road must (1)")
	g.refuse("Union", "ROAD WEST, SP1, EAST", "a road must (1)")
	// (2) through two strategic points (road A).
	g.send("Union", "ROAD WEST, SP1, SP3, EAST")
	// (3) from an edge through a strategic point, ending on another road
	// (road B): by the shortest line onto it.
	g.send("Confederate", "ROAD SOUTH, SP1, ROAD 1")
	if p := g.st.piece("road 3").Path; p[len(p)-1] != table.Pt(table.Inch(24), table.Inch(24)) {
		t.Errorf("road 3 ends at %v; want on road 1 at 24,24", p[len(p)-1])
	}
	// G15: no free points unless the scenario says so.
	g.refuse("Union", "ROAD WEST, 10,30, SP2, EAST", "by the shortest line")
	g.refuse("Union", "ROAD BASE B, SP2, NORTH", "a road runs there already")
	g.send("Union", "RAILWAY EMBANKMENT BASE A, SP3, SOUTH")
	if p := g.st.piece("railway 1"); !slices.Contains(p.Flags, "embankment") {
		t.Errorf("the railway's flags %v", p.Flags)
	}
	g.send("Confederate", "ROAD BASE A, SP1, SOUTH")
	g.refuse("Union", "ROAD SUNKEN BASE B, SP3, NORTH", "at most 4 roads")
	// 13.10h: a railway says whether it runs on an embankment, and "not"
	// can be written.
	g.refuse("Union", "RAILWAY BASE B, SP1, NORTH", "say whether the railway runs on an embankment (13.10h)")
	g.send("Union", "RAILWAY NO EMBANKMENT BASE B, SP1, NORTH")
	if p := g.st.piece("railway 2"); p == nil || !slices.Equal(p.Flags, []string{"level"}) {
		t.Errorf("a railway not on an embankment: %+v", p)
	}
	g = atLinear(t, "option roads free")
	g.send("Confederate", "ROAD WEST, 10,30, SP2, EAST")
}

func TestGMB_13_10i_TwoWaterLinesMeetAtARightAngle(t *testing.T) {
	g := atLinear(t)
	g.send("Confederate", "PASS")
	g.send("Union", "STREAM 0,30 48,30")
	g.send("Confederate", "PASS")
	g.refuse("Union", "RIVER 0,25 48,25", "may only meet, at a right angle, stream 1 (13.10i)")
	g.refuse("Union", "RIVER 20,48 40,20 48,20", "at a right angle")
	g.send("Union", "RIVER 30,48 30,20 48,20") // crosses the stream square
}

func TestGMB_13_10j_G10_PassingTakesFromThePool(t *testing.T) {
	g := atLinear(t)
	pool := g.st.Pool
	if pool != 8 {
		t.Fatalf("the linear pool is %d; want river 1, stream 1, roads 4, railways 2 (G10)", pool)
	}
	g.send("Confederate", "PASS")
	if g.st.Pool != 7 || g.st.Placer != "Union" {
		t.Errorf("after a pass: pool %d, placer %s", g.st.Pool, g.st.Placer)
	}
	g.send("Union", "ROAD BASE B, SP2, NORTH")
	g.send("Confederate", "PASS")
	g.send("Union", "PASS") // two passes in a row end it
	if g.st.Step != StepNormal {
		t.Errorf("two passes in a row left step %s", g.st.Step)
	}
	// Passing is for linear terrain and fences alone.
	g.refuse("Confederate", "PASS", "passing is only for linear terrain, fences and walls (13.10j)")
	// G10's other reading: a pass takes nothing from the pool.
	g = atLinear(t, "option linear-pool kinds")
	g.send("Confederate", "PASS")
	if g.st.Pool != 8 {
		t.Errorf("linear-pool kinds: a pass took the pool to %d", g.st.Pool)
	}
}

// placeAny places a 2x2 piece of any kind left at x,y.
func (g *game) placeAny(side string, x, y int) {
	g.t.Helper()
	for _, e := range g.st.Left {
		if e.Count > 0 {
			g.send(side, fmt.Sprintf("PLACE %s 2x2 AT %d,%d", e.Kind, x, y))
			return
		}
	}
	g.t.Fatal("nothing left to place")
}

// neutralRow is where a side's small pieces go in the neutral zone:
// y 20 for the Confederates (Player B), 28 for the Union.
func neutralRow(side string) int {
	if side == "Union" {
		return 28
	}
	return 20
}

// fillNeutral places small pieces in the neutral zone, from x on, while
// more is true; it returns the next x.
func (g *game) fillNeutral(x int, more func() bool) int {
	g.t.Helper()
	for more() {
		g.placeAny(g.st.Placer, x%46, neutralRow(g.st.Placer)+3*(x/46))
		x += 3
	}
	return x
}

func TestGMB_13_10k_NormalTerrainZones(t *testing.T) {
	g := atNormal(t)
	g.refuse("Confederate", "PLACE woods 6x4 AT 20,40", "not be placed in the opponent's deployment zone")
	// Each side places its pieces in the neutral zone until the last
	// ones: then the Confederates must place in their own zone, three
	// pieces more than half in it.
	g.fillNeutral(2, func() bool { return g.st.leftPieces() > 6 })
	side := g.st.Placer
	_, probs := g.decide(side, fmt.Sprintf("PLACE woods 2x2 AT 40,%d", neutralRow(side)))
	if len(probs) == 0 || !strings.Contains(probs[0].Msg, "at least 3 of your pieces must lie more than half in your deployment zone") {
		t.Fatalf("with %d pieces left %s placed outside its zone: %v", g.st.leftPieces(), side, probs)
	}
	// A zone no more than 6" deep: everything may go in the neutral zone.
	sc := strings.Replace(string(scenario(t)), "table 48x48 | zone 12", "table 48x48 | zone 6", 1)
	st, err := rules{}.Setup([]byte(sc), testPlayers)
	if err != nil {
		t.Fatal(err)
	}
	g2 := &game{t: t, st: st, dice: lcg(1)}
	g2.auto(200, atStep(StepList))
	g2.st.PlayerA, g2.st.Placer = "Union", "Union"
	g2.send("Union", "LIST TYPICAL")
	g2.send("Confederate", "PASS")
	g2.send("Union", "PASS")
	g2.fillNeutral(2, func() bool { return g2.st.Step == StepNormal })
}

func TestGMB_13_10k_G13_TotalReading(t *testing.T) {
	g := atNormal(t, "option zone-pieces total")
	for i := 0; i < 3; i++ {
		g.placeAny("Confederate", 4+6*i, 6)
		g.placeAny("Union", 4+6*i, 28)
	}
	// Three pieces lie in their placers' zones already: no one is held
	// to his own zone any more.
	g.fillNeutral(24, func() bool { return g.st.Step == StepNormal })
}

func TestGMB_13_10o_TerrainOnTerrain(t *testing.T) {
	g := atLinear(t)
	g.send("Confederate", "ROAD BASE B, SP2, NORTH")
	g.send("Union", "RIVER 0,30 48,30")
	g.send("Confederate", "BRIDGE 10,30 36,30")
	g.send("Confederate", "PASS")
	g.send("Union", "PASS")
	if g.st.Step != StepNormal {
		t.Fatalf("step %s", g.st.Step)
	}
	g.send("Confederate", "PLACE woods 6x4 AT 24,6") // on the road: it runs through the woods
	g.refuse("Union", "PLACE rough 6x4 AT 25,7", "not placed on another")
	g.refuse("Union", "PLACE hill 6x4 AT 30,30", "a hill may not be placed on a river")
	g.refuse("Union", "PLACE built-up 4x3 AT 30,30", "built-up may not be placed on a river")
	g.send("Union", "PLACE woods 6x4 AT 30,30") // woods may
}

func TestGMB_13_10p_FencesAndWalls(t *testing.T) {
	g := atLinear(t)
	g.send("Confederate", "ROAD BASE B, SP2, NORTH")
	g.send("Union", "ROAD SUNKEN BASE A, SP1, SOUTH")
	g.send("Confederate", "PASS")
	g.send("Union", "PASS")
	// Normal terrain until the list is done.
	for g.st.Step == StepNormal {
		g.send(g.st.Placer, placeExample(g.st, g.st.Placer))
	}
	for g.st.Step != StepFences {
		t.Fatalf("after normal terrain: step %s", g.st.Step)
	}
	if g.st.Placer != "Confederate" || g.st.Pool != 4 {
		t.Errorf("fences begin with %s, pool %d", g.st.Placer, g.st.Pool)
	}
	g.refuse("Confederate", "FENCE ALONG road 2", "placed by Union")
	g.send("Confederate", "FENCE ALONG road 1 FROM 0 TO 12")
	if p := g.st.piece("fence 1"); p.Path.Len() != table.Inch(12) {
		t.Errorf("fence 1 is %v long", p.Path.Len())
	}
	g.refuse("Union", "WALL ALONG road 2", "no fence or wall along a sunken road")
	var rough string
	for _, p := range g.st.Pieces {
		if p.Kind == Rough && p.By == "Union" {
			rough = p.ID
		}
	}
	g.refuse("Union", "WALL ALONG "+rough, "at least one edge")
	g.send("Union", "WALL ALONG "+rough+" EDGES 1-2")
	if p := g.st.piece("wall 1"); len(p.Path) != 3 {
		t.Errorf("a wall along two edges: %v", p.Path)
	}
}

func TestGMB_13_10q_13_10_EX3_Bridges(t *testing.T) {
	if bridgesDue(table.Inch(20)) != 1 || bridgesDue(table.Inch(48)) != 2 || bridgesDue(table.Inch(47)) != 1 || bridgesDue(table.Inch(72)) != 3 {
		t.Error("bridges due: one for every full 24\", at least one")
	}
	g := atLinear(t)
	g.send("Confederate", "PASS")
	g.send("Union", "RIVER 0,30 48,30")
	if g.st.BridgesDue != 2 {
		t.Fatalf("%d bridges due", g.st.BridgesDue)
	}
	g.refuse("Confederate", "BRIDGE 20,30 22,30", "at least 3\" apart")
	g.refuse("Confederate", "BRIDGE 20,20 28,30", "is not on river 1")
	g.refuse("Confederate", "BRIDGE 28,30", "2 bridges")
	g.send("Confederate", "BRIDGE 14,30 36,30")
	// A road across the river makes a bridge, or uses one within 3".
	g.send("Confederate", "ROAD BASE B, SP2, NORTH")
	if n := len(g.st.Bridges); n != 3 || g.st.Bridges[2].At != table.Pt(table.Inch(24), table.Inch(30)) {
		t.Errorf("bridges %v after a road across the river; want a third at 24,30", g.st.Bridges)
	}
	// 13.10q: a crossing 1" from a bridge is refused, not snapped to it
	// (the road would cross where no bridge stands) …
	g.refuse("Union", "ROAD BASE A, SP1, SOUTH", "it would cross river 1 at 15,30, 1\" from bridge 1, where no bridge stands: bridges are at least 3\" apart, and a road may use a bridge that exists (13.10q)")
	// … and a road led through the bridge uses it.
	g.send("Union", "ROAD BASE A, BRIDGE 1, SP1, SOUTH")
	if n, p := len(g.st.Bridges), g.st.piece("road 2").Path; n != 3 || !slices.Contains(p, g.st.Bridges[0].At) {
		t.Errorf("%d bridges, road 2 runs %v; a road may use an existing bridge (13.10q)", n, p)
	}
	// 13.10-EX3: in all three bridges on this stretch of river.
	g.send("Confederate", "PASS")
	g.send("Union", "PASS")
	if g.st.Step != StepNormal {
		t.Fatalf("step %s", g.st.Step)
	}
	// No impassable terrain within 6" of a bridge.
	g.st.Left = append(g.st.Left, ListEntry{"swamp", 2})
	g.refuse("Confederate", "PLACE swamp 4x4 AT 26,25", "no impassable terrain within 6\" of a bridge")
}

func TestGMB_13_10l_13_10r_SpecialTerrain(t *testing.T) {
	g := atNormal(t)
	for g.st.Step == StepNormal {
		g.send(g.st.Placer, placeExample(g.st, g.st.Placer))
	}
	g.auto(20, atStep(StepSpecial))
	if g.st.Placer != "Union" {
		t.Fatalf("special terrain begins with %s; want Player A (13.10l, 13.10r)", g.st.Placer)
	}
	var conf string
	for _, p := range g.st.Pieces {
		if p.By == "Confederate" && p.Path == nil {
			conf = p.ID
		}
	}
	c := g.st.piece(conf).Poly.Centroid()
	to := c.Add(table.Vector{X: table.Inch(1)})
	g.refuse("Union", "PLACE woods 6x4 AT 24,24", "your army's traits give no woods")
	g.send("Union", "MOVE "+conf+" TO "+fmtPt(to))
	// 13.10r: the initiative player's changes all come first: his
	// traits' move, then his Offensive swap (13.7f); only then the
	// opponent's.
	if g.st.piece(conf).MovedBy != "Union" || g.st.Step != StepSwap || actors(g.st)[0] != "Union" {
		t.Fatalf("after Player A's move: %+v, step %s, actors %v; want Player A's Offensive swap before Player B's special terrain (13.10r)", g.st.piece(conf), g.st.Step, actors(g.st))
	}
	g.refuse("Confederate", searchPlace(g.st, "Confederate", Woods, false), "it is not your turn")
	g.send("Union", "NO SWAP")
	if g.st.Step != StepSpecial || g.st.Placer != "Confederate" {
		t.Fatalf("after Player A's changes: step %s, placer %s; want Player B's special terrain (13.10r)", g.st.Step, g.st.Placer)
	}
	g.refuse("Confederate", "MOVE "+conf+" TO "+fmtPt(c), "your army's traits let you move no terrain")
	ex := searchPlace(g.st, "Confederate", Woods, false)
	g.send("Confederate", ex)
	// 13.10l: a piece the other player moved may not be moved or swapped.
	if why := g.st.checkSwap("Confederate", g.st.piece(conf), g.st.piece("woods 1")); !strings.Contains(why, "may not move or swap it") {
		t.Errorf("swapping a piece Union moved: %q", why)
	}
}

func TestGMB_13_7f_TheOffensiveSwap(t *testing.T) {
	g := atNormal(t)
	for g.st.Step == StepNormal {
		g.send(g.st.Placer, placeExample(g.st, g.st.Placer))
	}
	g.auto(20, atStep(StepSwap))
	ex := examples(g.st, "Union")[0]
	var an, bn string
	if _, err := fmt.Sscanf(strings.ReplaceAll(strings.ReplaceAll(ex, "built-up ", "built-up_"), " WITH ", " "), "SWAP %s %s", &an, &bn); err != nil {
		t.Fatalf("example %q: %v", ex, err)
	}
	_ = an
	os, _ := parseOrders(g.st, "Union", ex)
	a, b := g.st.piece(os[0].Name), g.st.piece(os[0].Name2)
	ca, cb := a.Poly.Centroid(), b.Poly.Centroid()
	g.refuse("Confederate", "NO SWAP", "it is not your turn")
	g.refuse("Union", "SWAP "+a.ID+" WITH "+a.ID, "swap two different pieces")
	g.send("Union", ex)
	if g.st.piece(a.ID).Poly.Centroid() != cb || g.st.piece(b.ID).Poly.Centroid() != ca {
		t.Errorf("the swap did not exchange the centres")
	}
}

func TestGMB_13_11a_13_11c_13_11d_G11_OperationalBases(t *testing.T) {
	g := setupTo(t, StepTactic)
	if len(g.st.Bases) != 2 {
		t.Fatalf("%d operational bases; want one each (13.11c)", len(g.st.Bases))
	}
	for _, b := range g.st.Bases {
		lo, hi := b.Poly.Bounds()
		if hi.X-lo.X != table.CM(6) || hi.Y-lo.Y != table.CM(6) || (lo.X+hi.X)/2 != g.st.W/2 {
			t.Errorf("%s: %v-%v; want 6 x 6 cm at the middle of its edge (13.11a, 13.11d, G11)", b.ID, lo, hi)
		}
		if b.By == g.st.PlayerA && hi.Y != g.st.H || b.By != g.st.PlayerA && lo.Y != 0 {
			t.Errorf("%s does not touch its own table edge", b.ID)
		}
	}
	g = setupTo(t, StepTactic, "option operational-base 6in")
	lo, hi := g.st.Bases[0].Poly.Bounds()
	if hi.X-lo.X != table.Inch(6) {
		t.Errorf("operational-base 6in: %v wide", hi.X-lo.X)
	}
}

func TestGMB_13_12a_13_12b_TheArmyTacticIsSecretUntilTheEnd(t *testing.T) {
	g := setupTo(t, StepTactic)
	d := g.send("Union", "TACTIC AGGRESSIVE")
	for i, f := range d.Facts {
		if f.Kind == "tactic.chosen" && f.Vis != events.ToSide("Union") {
			t.Errorf("the tactic is told to %v", f.Vis)
		}
		_ = i
	}
	if d.EchoVis[0] != events.ToSide("Union") {
		t.Errorf("the echo of TACTIC is %v", d.EchoVis)
	}
	other := render(g.st, engine.Viewer{Side: "Confederate"}).Full
	if strings.Contains(other, "Aggressive") && strings.Contains(other, "army tactic Aggressive") {
		t.Error("Confederate's board shows Union's tactic")
	}
	if !strings.Contains(other, "army tactic chosen (secret") {
		t.Error("Confederate's board does not say Union has chosen")
	}
	g.send("Confederate", "TACTIC CAUTIOUS")
	g.send(engine.RefereeSide, "OBJECTIVES Union 3 4 5")
	g.send(engine.RefereeSide, "SCORE")
	rev := g.facts("tactic.revealed")
	if len(rev) != 2 || !rev[0].Vis.Public() || rev[0].Str("tactic") != "Aggressive" {
		t.Errorf("at the end: %v; want both tactics told to all (13.12b)", rev)
	}
	if other := render(g.st, engine.Viewer{Side: "Confederate"}).Full; !strings.Contains(other, "army tactic Aggressive") {
		t.Error("at the end Confederate's board does not show Union's tactic (13.12b)")
	}
	if sc := g.facts("reward.scored"); sc[0].Int("percent") != 300 || sc[0].Int("amount") != 4200 || g.st.Winner != "Union" {
		t.Errorf("Union's reward %v, winner %q; want 300%% of $1400 (Aggressive, objectives 3-5)", sc[0], g.st.Winner)
	}
}

func TestGMB_13_12c_G17_Rewards(t *testing.T) {
	// 13.12c's lines, and an objective implied by another counting for both.
	for _, tc := range []struct {
		tactic string
		done   []int
		want   int
		sum    int
	}{
		{Cautious, []int{1, 2, 3}, 100, 150},
		{Cautious, []int{1, 3}, 50, 50},
		{Cautious, []int{2}, 0, 0},
		{Neutral, []int{1, 2, 3, 4}, 200, 350},
		{Neutral, []int{1, 2, 3}, 100, 150},
		{Neutral, []int{2, 4}, 50, 50},
		// 13.12c: an objective implied by another counts for both: all
		// the strategic points (1) are more than half of them (5).
		{Aggressive, []int{1, 2, 3, 4}, 400, 800},
		{Aggressive, []int{1, 3, 4}, 300, 400},
		{Aggressive, []int{1, 2}, 100, 100},
		{Aggressive, []int{3, 4, 5}, 300, 400},
		{Aggressive, []int{1, 2, 5}, 100, 100},
		{Aggressive, []int{1, 5}, 0, 0},
	} {
		if got := reward(tc.tactic, tc.done, false); got != tc.want {
			t.Errorf("%s %v: %d%%; want %d%% (G17: the highest only)", tc.tactic, tc.done, got, tc.want)
		}
		if got := reward(tc.tactic, tc.done, true); got != tc.sum {
			t.Errorf("%s %v with rewards sum: %d%%; want %d%%", tc.tactic, tc.done, got, tc.sum)
		}
	}
}

func TestGMB_13_12e_AQuarterRoundedUp(t *testing.T) {
	for n, want := range map[int]int{9: 3, 12: 3, 13: 4, 1: 1, 0: 0} {
		if got := quarterUp(n); got != want {
			t.Errorf("25%% of %d units rounded up: %d; want %d", n, got, want)
		}
	}
}

func TestGMB_13_13c_G18_CavalryTactics(t *testing.T) {
	g := setupTo(t, StepCavalry)
	ps := prompts(g.st)
	if len(ps) != 2 || ps[0].Sealed != SealCavalry {
		t.Fatalf("prompts %+v; want both sides with cavalry, sealed (13.13c)", ps)
	}
	g.send("Union", "CAVALRY Deep Raid")
	g.send("Confederate", "CAVALRY Screen")
	if g.st.Step != StepPatrol {
		t.Fatalf("step %s", g.st.Step)
	}
	// Deep Raid lets Union's cavalry corps patrol 12" beyond its zone.
	lo, hi := g.st.patrolZone("Union", "Cavalry Corps")
	zlo, zhi := g.st.zoneBand("Union", 0)
	if g.st.PlayerA == "Union" && lo != zlo-table.Inch(12) || g.st.PlayerA != "Union" && hi != zhi+table.Inch(12) {
		t.Errorf("the raiding cavalry's zone %v-%v; its deployment zone %v-%v", lo, hi, zlo, zhi)
	}
	g = setupTo(t, StepPatrol, "option cavalry-tactics off")
	if len(g.facts("cavalry.chosen")) != 0 {
		t.Error("cavalry tactics were chosen with *13.13 switched off")
	}
}

func TestGMB_13_14a_13_14b_13_14c_PatrolMarkersThenTheGameBegins(t *testing.T) {
	g := setupTo(t, StepPatrol)
	ps := prompts(g.st)
	if len(ps) != 2 || ps[0].Sealed != SealPatrol {
		t.Fatalf("prompts %+v", ps)
	}
	a, b := g.st.PlayerA, g.st.playerB()
	g.refuse(a, "PATROL I Corps AT 24,42", "has none (13.14a)")
	ex := examples(g.st, b)[0]
	g.refuse(b, strings.Replace(ex, ",6", ",30", 1), "patrol zone")
	g.send(a, examples(g.st, a)[0])
	g.send(b, ex)
	if g.st.Step != StepActivate || g.st.Turn != 1 {
		t.Fatalf("after the markers: step %s, turn %d; want the game begun (13.14c)", g.st.Step, g.st.Turn)
	}
	for _, u := range g.st.Units {
		if !u.Placed {
			t.Errorf("%s was not deployed", u.Name)
		}
		lo, hi := g.st.patrolZone(u.Side, u.Corps)
		if u.Front.Y < lo-table.Inch(3) || u.Front.Y > hi+table.Inch(3) {
			t.Errorf("%s deployed at %v, outside its zone %v-%v", u.Name, u.Front, lo, hi)
		}
	}
	// G8: the battlefield roll was turn 1's initiative roll.
	if g.st.Initiative != g.st.PlayerA {
		t.Errorf("turn 1's initiative is %s; want Player A", g.st.Initiative)
	}
}

func TestGMB_G8_SeparateFirstInitiative(t *testing.T) {
	g := setupTo(t, StepActivate, "option first-initiative separate")
	rolls := 0
	for _, f := range g.facts("initiative.rolled") {
		_ = f
		rolls++
	}
	if rolls < 4 {
		t.Errorf("%d initiative rolls; want the battlefield roll and turn 1's own", rolls)
	}
}

func TestGMB_13_10_EX2_RoadD(t *testing.T) {
	// Road D: through a strategic point and the other operational base.
	g := atLinear(t)
	g.send("Confederate", "ROAD NORTH, SP3, BASE B")
}

func TestGMB_13_13b_OnlyASideWithCavalryChooses(t *testing.T) {
	sc := string(scenario(t))
	sc = strings.Replace(sc, "division Cavalry Division | cavalry\n", "", 1)
	sc = strings.Replace(sc, "unit Laurel Brigade | cavalry | Cavalry Division\n", "", 1)
	st, err := rules{}.Setup([]byte(sc), testPlayers)
	if err != nil {
		t.Fatal(err)
	}
	g := &game{t: t, st: st, dice: lcg(1)}
	g.auto(300, atStep(StepCavalry))
	ps := prompts(g.st)
	if len(ps) != 1 || ps[0].Side != "Union" {
		t.Fatalf("prompts %+v; want Union's alone: the Confederates field no cavalry", ps)
	}
	g.send("Union", "CAVALRY Screen")
	if g.st.Step != StepPatrol {
		t.Errorf("step %s", g.st.Step)
	}
}

func TestGMB_13_6c_CardsArePlayedOpenlyAndRuledByTheReferee(t *testing.T) {
	g := setupTo(t, StepActivate)
	hand := slices.Clone(g.st.side("Confederate").Hand)
	g.send("Confederate", "PLAY 2")
	f := g.facts("card.played")
	if len(f) != 1 || f[0].Str("card") != hand[1] || !f[0].Vis.Public() || slices.Contains(g.st.side("Confederate").Hand, hand[1]) {
		t.Fatalf("played %v; want %s, told to all, out of the hand", f, hand[1])
	}
	g.refuse("Confederate", "PLAY Rebel Yelp", "you hold no card")
	setupTo(t, StepTactic).refuse("Union", "PLAY 1", "once the battle has begun")
}

// TestGMB_13_10l_13_10r_NoAlternationWithinASidesChanges: a side with
// two grants makes both before the opponent makes any (13.10l starts
// with Player A; 13.10r: the initiative first, then the opponent).
func TestGMB_13_10l_13_10r_NoAlternationWithinASidesChanges(t *testing.T) {
	sc := strings.Replace(string(scenario(t)), "special move ", "special move\nspecial hill ", 1)
	st, err := rules{}.Setup([]byte(sc), testPlayers)
	if err != nil {
		t.Fatal(err)
	}
	g := &game{t: t, st: st, dice: lcg(1)}
	g.auto(300, atStep(StepList))
	g.st.PlayerA, g.st.Battlefield, g.st.Placer = "Union", Neutral, "Union"
	g.send("Union", "LIST TYPICAL")
	g.send("Confederate", "PASS")
	g.send("Union", "PASS")
	for g.st.Step == StepNormal {
		g.send(g.st.Placer, placeExample(g.st, g.st.Placer))
	}
	g.auto(20, atStep(StepSpecial))
	if g.st.Placer != "Union" {
		t.Fatalf("special terrain begins with %s; want Player A (13.10l)", g.st.Placer)
	}
	g.send("Union", searchPlace(g.st, "Union", Hill, false))
	if g.st.Step != StepSpecial || g.st.Placer != "Union" {
		t.Fatalf("after Player A's first of two changes: step %s, placer %s; want Player A again (13.10r)", g.st.Step, g.st.Placer)
	}
	g.send("Union", "DONE")
	if g.st.Step != StepSpecial || g.st.Placer != "Confederate" {
		t.Fatalf("after Player A's DONE: step %s, placer %s; want Player B (13.10r)", g.st.Step, g.st.Placer)
	}
}

// TestGMB_13_7e_AStreamMayRunUnderAStrategicPoint: players may put any
// terrain but impassable under a strategic point (13.7e): a stream (an
// obstacle in the sample) may, a river (impassable) may not.
func TestGMB_13_7e_AStreamMayRunUnderAStrategicPoint(t *testing.T) {
	g := atLinear(t)
	g.send("Confederate", "STREAM 0,24 48,24")
	if p := g.st.piece("stream 1"); p == nil {
		t.Fatal("no stream placed")
	}
	g = atLinear(t)
	g.send("Confederate", "PASS")
	g.refuse("Union", "RIVER 0,24 48,24", "no impassable terrain under a strategic point (13.7e)")
}
