package gmb

import (
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/table"
)

// battle is a game at the moves of Union's I Corps in turn 1, on an empty
// 48" x 48" table with no unit deployed: each test puts what it needs.
func battle(t *testing.T, extra ...string) *game {
	t.Helper()
	g := newGame(t, extra...)
	st := g.st
	geo, _ := st.Scn.Geom("48x48")
	st.TableSize, st.W, st.H = geo.Size, geo.Width, geo.Height
	st.PlayerA, st.Battlefield, st.Turn, st.Initiative, st.ToAct = "Union", Neutral, 1, "Union", "Union"
	st.Step, st.Active = StepMove, "I Corps"
	st.Activated = []string{"Union/I Corps"}
	return g
}

func in(v float64) table.Length { return table.Length(v * float64(table.OneInch)) }

// put places a unit with its front edge's centre at x,y facing a bearing.
func (g *game) put(unit string, x, y, facing float64) *Unit {
	g.t.Helper()
	u := g.st.unit(unit)
	if u == nil {
		g.t.Fatalf("no unit %s", unit)
	}
	u.Front, u.Facing, u.Placed = table.Pt(in(x), in(y)), table.Angle(facing*1000).Norm(), true
	return u
}

// area places an area piece x0..x1, y0..y1.
func (g *game) area(kind string, x0, y0, x1, y1 float64) {
	st := g.st
	st.Pieces = append(st.Pieces, Piece{ID: st.nextID(kind), Kind: kind, By: "Union", Poly: rectPoly(in(x0), in(y0), in(x1), in(y1))})
}

// line places a line piece through points x,y, x,y …
func (g *game) line(kind string, xy ...float64) *Piece {
	st := g.st
	var pl table.Polyline
	for i := 0; i+1 < len(xy); i += 2 {
		pl = append(pl, table.Pt(in(xy[i]), in(xy[i+1])))
	}
	st.Pieces = append(st.Pieces, Piece{ID: st.nextID(kind), Kind: kind, By: "Union", Path: pl})
	return &st.Pieces[len(st.Pieces)-1]
}

// moved returns the last unit.moved fact's distance and what was paid for.
func (g *game) lastMove() (dist, rng table.Length, paid string) {
	fs := g.facts("unit.moved")
	if len(fs) == 0 {
		g.t.Fatal("no unit moved")
	}
	f := fs[len(fs)-1]
	return table.Length(f.Int("dist")), table.Length(f.Int("range")), f.Str("paid")
}

func TestGMB_7_2_EX1_7_2d_ObstacleCostIsPaidOnce(t *testing.T) {
	// Woods, a fence, rough terrain and a friendly unit ahead: the March
	// order makes 12", and 3" is subtracted once: 9".
	setup := func() *game {
		g := battle(t)
		g.put("Iron Brigade", 24, 8, 0) // base y 6..8, facing north
		g.area(Woods, 18, 9, 30, 10)
		g.line(Fence, 16, 10.5, 32, 10.5)
		g.area(Rough, 18, 11, 30, 12)
		g.put("Irish Brigade", 24, 14.5, 0) // a friendly base y 12.5..14.5
		return g
	}
	g := setup()
	g.refuse("Union", "Iron Brigade: MARCH FORWARD 9.5", "its range is 9\" once it pays 3\" for woods 1")
	g = setup()
	g.send("Union", "Iron Brigade: MARCH FORWARD 9")
	if d, r, paid := g.lastMove(); d != in(9) || r != in(9) || paid != "woods 1" {
		t.Errorf("moved %v of %v, paid for %q; want 9\" of 9\", paid for woods 1 (once)", d, r, paid)
	}
}

func TestGMB_7_2_EX2_7_2b_7_2c_7_2e_RangeDropsOnContact(t *testing.T) {
	// Armistead's 12" (March): 6" to rough terrain, then 3" more.
	setup := func(roughAt float64) *game {
		g := battle(t)
		g.put("Iron Brigade", 24, 10, 0)
		g.area(Rough, 10, 10+roughAt, 38, 40)
		return g
	}
	g := setup(6)
	g.send("Union", "Iron Brigade: MARCH FORWARD 9")
	if d, r, paid := g.lastMove(); d != in(9) || r != in(9) || paid != "rough 1" {
		t.Errorf("moved %v of %v paying for %q; want 9\" of 9\" paying for rough 1", d, r, paid)
	}
	setup(6).refuse("Union", "Iron Brigade: MARCH FORWARD 10", "its range is 9\"")
	// Meeting the rough after 10" of 12": the range drops to 9 there.
	setup(10).refuse("Union", "Iron Brigade: MARCH FORWARD 11", "it meets rough 1 after 10\"; its range drops to 9\"")
	// Without the obstacle the whole 12" (7.2e: March +3").
	g = battle(t)
	g.put("Iron Brigade", 24, 10, 0)
	g.send("Union", "Iron Brigade: MARCH FORWARD 12")
	if d, r, paid := g.lastMove(); d != in(12) || r != in(12) || paid != "" {
		t.Errorf("moved %v of %v paying for %q; want 12\" of 12\"", d, r, paid)
	}
}

func TestGMB_7_2_EX3_7_2c_StartingInWoodsPaysOnceForTheWoodsAndTheField(t *testing.T) {
	setup := func() *game {
		g := battle(t)
		g.put("Iron Brigade", 24, 10, 0) // base y 8..10, inside the woods
		g.area(Woods, 10, 4, 38, 16)
		g.area(Rough, 10, 16.5, 38, 40) // the field beyond the woods
		return g
	}
	g := setup()
	g.send("Union", "Iron Brigade: MARCH FORWARD 6, FORWARD 3") // 6" to the edge, 3" into the field
	if d, r, paid := g.lastMove(); d != in(9) || r != in(9) || paid != "woods 1" {
		t.Errorf("moved %v of %v paying for %q; want 9\" of 9\" paying for woods 1 only", d, r, paid)
	}
	setup().refuse("Union", "Iron Brigade: MARCH FORWARD 9.5", "its range is 9\"")
}

func TestGMB_7_1d_7_1e_7_1f_RangeIsClampedBetween3AndTwiceTheValue(t *testing.T) {
	for _, tc := range []struct {
		name  string
		bonus float64
		march bool
		want  float64 // the range
		pen   float64 // once the obstacle cost is paid
	}{
		{"plain", 0, false, 9, 6},
		{"march (7.2e)", 0, true, 12, 9},
		{"capped at twice the value (7.1d)", 12, true, 18, 18},
		{"at least 3 (7.1e)", -9, false, 3, 3},
		{"at least 3 after the obstacle too (7.1e, G4)", -4, false, 5, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := battle(t)
			u := g.put("Iron Brigade", 24, 10, 0)
			u.Bonus = in(tc.bonus)
			eff, pen := g.st.ranges(u, tc.march)
			if eff != in(tc.want) || pen != in(tc.pen) {
				t.Errorf("range %v, after the obstacle %v; want %v and %v", eff, pen, in(tc.want), in(tc.pen))
			}
		})
	}
}

func TestGMB_G4_MinimumRangeRemainingReading(t *testing.T) {
	// With "minimum-range remaining" the unit keeps 3" after reaching an
	// obstacle even when its range after the cost is spent.
	g := battle(t, "option minimum-range remaining")
	g.put("Iron Brigade", 24, 10, 0)
	g.area(Rough, 10, 18, 38, 40) // met after 8"
	g.send("Union", "Iron Brigade: FORWARD 9")
	if d, r, _ := g.lastMove(); d != in(9) || r != in(9) {
		t.Errorf("moved %v of %v; want 9\" of 9\" (8\" to the rough, then its 3\" capped by the range)", d, r)
	}
	g = battle(t)
	g.put("Iron Brigade", 24, 10, 0)
	g.area(Rough, 10, 18, 38, 40)
	g.refuse("Union", "Iron Brigade: FORWARD 9", "it meets rough 1 after 8\"; its range drops to 6\"")
}

func TestGMB_7_2a_7_3b_7_3c_7_3_EX_DistanceIsTheFrontEdgeCentresAndTurnsAreFree(t *testing.T) {
	// 7.3-EX: a wheel at A, a move to C, a wheel, a move to D, a last
	// wheel: the distance is the front edge centre's path alone.
	g := battle(t)
	g.put("Iron Brigade", 10, 10, 0)
	g.send("Union", "Iron Brigade: WHEEL RIGHT 45, FORWARD 4, WHEEL LEFT 90, FORWARD 4, WHEEL RIGHT 45")
	d, _, paid := g.lastMove()
	if d != in(8) || paid != "" {
		t.Errorf("counted %v (paid %q); want the 8\" the front edge's centre travelled", d, paid)
	}
	u := g.st.unit("Iron Brigade")
	// Two 4" legs at ±45°: 0" east net, 4·√2 ≈ 5.657" north.
	if u.Facing != 0 || u.Front.X.Abs()-in(10) > 2 || (u.Front.Y-in(10)-table.Length(5656854)*table.OneInch/1000000).Abs() > 5 {
		t.Errorf("ends at %v facing %v; want about (10, 15.657) facing north", u.Front, u.Facing)
	}
	// A pivot about the base's centre moves the front edge's centre, but a
	// manoeuvre is free (7.3b).
	g = battle(t)
	g.put("Iron Brigade", 10, 10, 0)
	g.send("Union", "Iron Brigade: PIVOT RIGHT 180, FORWARD 2")
	if d, _, _ := g.lastMove(); d != in(2) {
		t.Errorf("a pivot and 2\" counted %v", d)
	}
}

func TestGMB_7_2h_TheWholeFrontMeetsObstacles(t *testing.T) {
	// The woods lie beside the front edge's centre's path but within the
	// base's 6" frontage: the base's swept area meets them.
	g := battle(t)
	g.put("Iron Brigade", 24, 10, 0) // frontage x 21..27
	g.area(Woods, 26, 14, 30, 20)
	g.send("Union", "Iron Brigade: FORWARD 6")
	if _, _, paid := g.lastMove(); paid != "woods 1" {
		t.Errorf("paid for %q; want woods 1: the full frontage moves (7.2h)", paid)
	}
	// Running alongside the woods without entering them costs nothing.
	g = battle(t)
	g.put("Iron Brigade", 24, 10, 0)
	g.area(Woods, 27, 8, 30, 20)
	g.send("Union", "Iron Brigade: FORWARD 6")
	if _, _, paid := g.lastMove(); paid != "" {
		t.Errorf("paid for %q brushing the woods' edge", paid)
	}
}

func TestGMB_7_2i_AlongARoadEveryObstacleIsIgnored(t *testing.T) {
	g := battle(t)
	g.line(Road, 24, 0, 24, 48)
	g.area(Woods, 18, 12, 30, 20)
	g.put("Iron Brigade", 24, 10, 0)
	g.send("Union", "Iron Brigade: ROAD TO 24,19")
	d, _, paid := g.lastMove()
	if d != in(9) || paid != "" {
		t.Errorf("road march of %v paid %q; want 9\" and nothing paid (7.2i)", d, paid)
	}
	// The same move off the road pays.
	g = battle(t)
	g.line(Road, 24, 0, 24, 48)
	g.area(Woods, 18, 12, 30, 20)
	g.put("Iron Brigade", 24, 10, 0)
	g.refuse("Union", "Iron Brigade: FORWARD 9", "its range is 6\" once it pays 3\" for woods 1")
	// A road march follows the road's bends and ends facing along it.
	g = battle(t)
	g.line(Road, 24, 0, 24, 16, 32, 16)
	g.put("Iron Brigade", 24, 10, 0)
	g.send("Union", "Iron Brigade: ROAD TO 27,16")
	u := g.st.unit("Iron Brigade")
	if d, _, _ := g.lastMove(); d != in(9) || u.Front != table.Pt(in(27), in(16)) || u.Facing != 90*table.Degree {
		t.Errorf("road march to %v facing %v, %v; want (27,16) facing east after 9\"", u.Front, u.Facing, d)
	}
}

func TestGMB_7_3d_G5_PivotsOnlyFirstOrLast(t *testing.T) {
	g := battle(t)
	g.put("Iron Brigade", 24, 10, 0)
	g.refuse("Union", "Iron Brigade: FORWARD 2, PIVOT LEFT 90, FORWARD 2", "only at the start or the end of its move (7.3d)")
	g.send("Union", "Iron Brigade: PIVOT LEFT 90, FORWARD 2, PIVOT RIGHT 90")
	// G5's other reading: option pivots anytime.
	g = battle(t, "option pivots anytime")
	g.put("Iron Brigade", 24, 10, 0)
	g.send("Union", "Iron Brigade: FORWARD 2, PIVOT LEFT 90, FORWARD 2")
}

func TestGMB_7_3_EX2_7_3e_WhatATurnBrushesDoesNotCount(t *testing.T) {
	// The pivot brushes the woods and a friendly unit; after it the base
	// touches neither: no 3".
	g := battle(t)
	g.put("Iron Brigade", 24, 10, 0) // base x 21..27, y 8..10; centre (24, 9)
	g.area(Woods, 26, 5, 30, 7.5)    // the corner sweeps through it while turning 90°
	g.put("Irish Brigade", 20, 11.5, 90)
	g.send("Union", "Iron Brigade: PIVOT RIGHT 90")
	if _, _, paid := g.lastMove(); paid != "" {
		t.Errorf("paid for %q; brushing while turning is free (7.3e)", paid)
	}
	// 7.3e: but the base must have room to stand afterwards.
	g = battle(t)
	g.put("Iron Brigade", 24, 10, 0)
	g.put("Irish Brigade", 24, 13, 0)
	g.refuse("Union", "Iron Brigade: FORWARD 2", "no room to stand (7.3e)")
}

func TestGMB_7_4a_G1_NoEntryIntoAnEnemyZoneOfControl(t *testing.T) {
	setup := func() *game {
		g := battle(t)
		g.put("Iron Brigade", 24, 10, 0)
		g.put("Texas Brigade", 24, 20, 180) // base y 20..22
		return g
	}
	setup().refuse("Union", "Iron Brigade: FORWARD 7.5", "into Texas Brigade's zone of control (3\", 7.4a)")
	g := setup()
	g.send("Union", "Iron Brigade: FORWARD 7") // exactly 3" away: not within
	// Sideways past it: the swept area may not come within 3" either.
	g = battle(t)
	g.put("Iron Brigade", 10, 10, 90)   // facing east, front x=10
	g.put("Texas Brigade", 24, 14, 180) // base x 21..27, y 14..16
	g.refuse("Union", "Iron Brigade: FORWARD 12", "zone of control")
	// A unit that starts within an enemy's zone may move, but never nearer.
	g = battle(t)
	g.put("Iron Brigade", 24, 10, 0)
	g.put("Texas Brigade", 24, 12, 180) // 2" away
	g.refuse("Union", "Iron Brigade: FORWARD 1", "may not come nearer it")
	g.send("Union", "Iron Brigade: PIVOT LEFT 180, FORWARD 3")
}

func TestGMB_7_4b_OneInchFromAUnitWithoutAZone(t *testing.T) {
	g := battle(t)
	g.put("Iron Brigade", 24, 10, 0)
	tx := g.put("Texas Brigade", 24, 20, 180)
	tx.Pinned = true                           // pinned by artillery fire: no zone of control (8.7)
	g.send("Union", "Iron Brigade: FORWARD 9") // 1" away
	g = battle(t)
	g.put("Iron Brigade", 24, 10, 0)
	tx = g.put("Texas Brigade", 24, 20, 180)
	tx.Pinned = true
	g.refuse("Union", "Iron Brigade: FORWARD 9.5", "closer than 1\" to Texas Brigade, which has no zone of control (7.4b)")
}

func TestGMB_7_4c_7_5a_7_5b_7_5c_7_5_EX_ForcedMovesHalveTheValueIgnoreTerrainAndMayCloseIn(t *testing.T) {
	// 7.5-EX: pushed back in rough terrain, an infantry unit of 9" moves 4".
	g := battle(t)
	g.put("Iron Brigade", 24, 20, 0)
	g.area(Rough, 10, 10, 38, 30)
	g.st.Step = StepCombat
	g.send(engine.RefereeSide, "FORCE Iron Brigade BACK PUSH-BACK")
	u := g.st.unit("Iron Brigade")
	if u.Front != table.Pt(in(24), in(16)) || u.Facing != 0 {
		t.Errorf("pushed back to %v facing %v; want (24,16) facing north: 4\" whatever the rough (7.5b-c)", u.Front, u.Facing)
	}
	// Cavalry (12") 6"; a friendly unit in the way does not shorten it.
	g.put("Michigan Brigade", 10, 5, 0)
	g.put("Reserve Brigade", 10, 8, 0)
	g.send(engine.RefereeSide, "FORCE Michigan Brigade FORWARD PURSUIT")
	if m := g.st.unit("Michigan Brigade"); m.Front != table.Pt(in(10), in(11)) {
		t.Errorf("cavalry pursued to %v; want (10,11): 6\", through the friendly unit (7.5c)", m.Front)
	}
	// 7.4c: a pursuit may come closer than 3" to the enemy.
	g.put("Texas Brigade", 24, 20, 180) // Iron Brigade's front is at 16: 2" from the Texans' base
	g.send(engine.RefereeSide, "FORCE Iron Brigade FORWARD PURSUIT")
	if g.st.unit("Iron Brigade").Front.Y != in(20) {
		t.Errorf("the pursuit stopped at %v", g.st.unit("Iron Brigade").Front)
	}
	// G3's other reading: half the modified range.
	g = battle(t, "option forced-move range")
	u = g.put("Iron Brigade", 24, 20, 0)
	u.Bonus = in(3)
	if d := g.st.forcedDistance(u); d != in(6) {
		t.Errorf("forced move with a 12\" range: %v, want 6\"", d)
	}
}

func TestGMB_7_1c_WhoCannotMove(t *testing.T) {
	for _, tc := range []struct {
		state string
		set   func(*Unit)
	}{
		{"pinned", func(u *Unit) { u.Pinned = true }},
		{"engaged in combat", func(u *Unit) { u.Engaged = true }},
		{"attacked or took part in a combat", func(u *Unit) { u.Attacked = true }},
		{"supported units in a combat", func(u *Unit) { u.Supported = true }},
		{"retreated", func(u *Unit) { u.Retreated = true }},
		{"has made its move", func(u *Unit) { u.Moved = true }},
	} {
		g := battle(t)
		tc.set(g.put("Iron Brigade", 24, 10, 0))
		g.refuse("Union", "Iron Brigade: FORWARD 1", tc.state)
	}
}

func TestGMB_7_1a_7_1b_MovesComeAtTheEndOfTheCorpsActivation(t *testing.T) {
	g := battle(t)
	g.put("Iron Brigade", 24, 10, 0)
	g.put("Excelsior Brigade", 34, 10, 0)
	g.refuse("Union", "Excelsior Brigade: FORWARD 3", "not of I Corps, the corps you activated (7.1b)")
	g.st.Step = StepCombat
	g.refuse("Union", "Iron Brigade: FORWARD 3", "the referee acts now")
	g.send(engine.RefereeSide, "COMBAT DONE")
	g.send("Union", "Iron Brigade: FORWARD 3")
	if g.st.Step != StepActivate || g.st.ToAct != "Confederate" && g.st.ToAct != "Union" {
		t.Errorf("after the moves: step %s, %s to act", g.st.Step, g.st.ToAct)
	}
}

func TestGMB_R4_RiversAreCrossedAtBridgesAndSwampsNotAtAll(t *testing.T) {
	g := battle(t)
	river := g.line(River, 0, 14, 48, 14)
	_ = river
	g.st.Bridges = []Bridge{{ID: "bridge 1", At: table.Pt(in(30), in(14)), Over: "river 1"}}
	g.put("Iron Brigade", 24, 10, 0)
	g.refuse("Union", "Iron Brigade: FORWARD 6", "river 1 is impassable but at a bridge")
	g.put("Iron Brigade", 30, 10, 0)
	g.send("Union", "Iron Brigade: FORWARD 6")
	g = battle(t)
	g.area("swamp", 20, 12, 28, 16)
	g.put("Iron Brigade", 24, 10, 0)
	g.refuse("Union", "Iron Brigade: FORWARD 3", "swamp 1 is impassable")
}

func TestGMB_G20_FriendlyUnitsBlockReading(t *testing.T) {
	g := battle(t, "option friendly-units block")
	g.put("Iron Brigade", 24, 8, 0)
	g.put("Irish Brigade", 24, 12, 0)
	g.refuse("Union", "Iron Brigade: FORWARD 8", "friendly units block the way")
	// The default: through at the obstacle cost.
	g = battle(t)
	g.put("Iron Brigade", 24, 8, 0)
	g.put("Irish Brigade", 24, 12, 0)
	g.send("Union", "Iron Brigade: FORWARD 6")
	if _, _, paid := g.lastMove(); paid != "friendly Irish Brigade" {
		t.Errorf("paid for %q; want the friendly unit", paid)
	}
}

func TestGMB_MoveMessagesQuoteTheLine(t *testing.T) {
	g := battle(t)
	g.put("Iron Brigade", 24, 10, 0)
	_, probs := g.decide("Union", "Iron Brigade: FORWARD 20")
	if len(probs) != 1 || probs[0].Line != 1 || !strings.Contains(probs[0].Hint, "Iron Brigade: FORWARD") {
		t.Fatalf("problems %+v; want one, on line 1, suggesting a legal move", probs)
	}
}

func TestGMB_7_2f_TraitsAndCardsChangeTheRange(t *testing.T) {
	// The referee sets what a general's trait or a card gives this turn
	// (R10, R11: their effects are not in the seeds).
	g := battle(t)
	g.put("Iron Brigade", 24, 10, 0)
	g.send(engine.RefereeSide, "SET Iron Brigade BONUS 2")
	g.send("Union", "Iron Brigade: FORWARD 11")
	if _, r, _ := g.lastMove(); r != in(11) {
		t.Errorf("range %v with a 2\" bonus; want 11\"", r)
	}
}

func TestGMB_7_3a_AlwaysForwardFrontFirst(t *testing.T) {
	g := battle(t)
	g.put("Iron Brigade", 24, 10, 0)
	g.refuse("Union", "Iron Brigade: FORWARD -2", "a unit moves forward, front first (7.3a)")
	g.refuse("Union", "Iron Brigade: BACK 2", "is no manoeuvre")
	// Any number of wheels (7.3a).
	g.send("Union", "Iron Brigade: WHEEL LEFT 10, WHEEL LEFT 10, WHEEL RIGHT 20, WHEEL RIGHT 5, FORWARD 1")
}

// TestGMB_7_5d_ForcedMovesRecordTheirKind: the referee's FORCE says
// which of 7.5d's forced moves it is, and the fact records it.
func TestGMB_7_5d_ForcedMovesRecordTheirKind(t *testing.T) {
	g := battle(t)
	g.put("Iron Brigade", 24, 20, 0)
	g.st.Step = StepCombat
	g.refuse(engine.RefereeSide, "FORCE Iron Brigade BACK", "say which forced move it is (7.5d)")
	for _, tc := range []struct{ words, kind string }{
		{"BACK PUSH-BACK", "push-back"}, {"BACK DISENGAGEMENT", "disengagement"}, {"FORWARD FAILED ORDER", "failed-order"},
		{"FORWARD CARD", "card"}, {"FORWARD PURSUIT", "pursuit"},
	} {
		d := g.send(engine.RefereeSide, "FORCE Iron Brigade "+tc.words)
		var got string
		for _, f := range d.Facts {
			if f.Kind == kUnitForced {
				got = aCause.Of(f)
			}
		}
		if got != tc.kind {
			t.Errorf("FORCE Iron Brigade %s recorded %q; want %q (7.5d)", tc.words, got, tc.kind)
		}
	}
}

// TestGMB_7_2c_TouchingAnObstacleIsContactReading: 7.2c reduces the
// range «po zetknięciu», on contact: by default a base that only
// touches an obstacle has met it; option contact enter, only one that
// enters it.
func TestGMB_7_2c_TouchingAnObstacleIsContactReading(t *testing.T) {
	for _, tc := range []struct {
		opt  string
		paid string
	}{{"", "woods 1"}, {"option contact enter", ""}} {
		g := battle(t, tc.opt)
		g.area(Woods, 18, 12, 30, 20)
		g.put("Iron Brigade", 24, 10, 0)
		g.send("Union", "Iron Brigade: FORWARD 2") // its front reaches the woods' edge
		if _, _, paid := g.lastMove(); paid != tc.paid {
			t.Errorf("%q: a base brought against the woods paid %q; want %q (7.2c)", tc.opt, paid, tc.paid)
		}
	}
}

// TestGMB_7_2i_AUnitStartingInTerrainOnARoadReading: by default a unit
// that starts in woods and moves only along a road ignores the woods
// too (7.2i: every obstacle); option road-start pays: it pays for the
// terrain it starts in (7.2c).
func TestGMB_7_2i_AUnitStartingInTerrainOnARoadReading(t *testing.T) {
	g := battle(t)
	g.line(Road, 24, 0, 24, 48)
	g.area(Woods, 18, 12, 30, 20)
	g.put("Iron Brigade", 24, 14, 0)
	g.send("Union", "Iron Brigade: ROAD TO 24,23")
	if d, _, paid := g.lastMove(); d != in(9) || paid != "" {
		t.Errorf("a road march from inside the woods: %v, paid %q; want 9\" and nothing paid (7.2i)", d, paid)
	}
	g = battle(t, "option road-start pays")
	g.line(Road, 24, 0, 24, 48)
	g.area(Woods, 18, 12, 30, 20)
	g.put("Iron Brigade", 24, 14, 0)
	g.refuse("Union", "Iron Brigade: ROAD TO 24,23", "its range is 6\" once it pays 3\" for woods 1")
}
