package gbacw

import (
	"container/heap"
	"fmt"
	"slices"
	"strings"

	"pbem/engine/hex"
)

// leg is what one step of a move costs and leaves: the facing it turns
// to, the half MPs, and how it moves.
type leg struct {
	facing    int
	turnCost  int
	cost      int
	road      bool
	extended  bool
	throughUD bool // passes through friendly units: a UDD on leaving (8.4)
}

// moveCtx is what a move remembers of its start.
type moveCtx struct {
	origin     hex.Hex
	startAdj   bool // next to an enemy when it began (9.3)
	startNear3 bool // within 3 hexes of an enemy when it began (15.2)
	last       bool // this step ends the move
	first      bool
	enteredAdj bool // the hex it is in was entered next to an enemy (9.2)
}

// checkLeg checks one step of a unit's voluntary move from cur into next
// and prices it: 6.1-6.4, 7.3-7.4, 8.4-8.5, 9.1-9.4, 10.5-10.6, 15.1-15.2,
// 19.2. It does not change the state.
func (s *State) checkLeg(u *Unit, cur, next hex.Hex, c moveCtx) (leg, string) {
	var l leg
	d, ok := cur.DirectionTo(next)
	if !ok {
		return l, fmt.Sprintf("%s does not touch %s: name every hex of the path", next, cur)
	}
	if !s.Scn.Grid.InBounds(next) {
		return l, fmt.Sprintf("%s is off the map", next)
	}
	if c.enteredAdj && !c.first {
		return l, fmt.Sprintf("%s entered %s next to the enemy and must stop there (9.2)", u.Name, cur)
	}
	if len(s.enemiesAt(next, u.Side)) > 0 {
		return l, fmt.Sprintf("%s holds the enemy", next)
	}
	sc := s.step(u, cur, next)
	if sc.why != "" {
		return l, fmt.Sprintf("%s cannot enter %s: %s", u.Name, next, sc.why)
	}
	l.cost, l.road, l.extended = sc.cost, sc.road, sc.extended
	// Units move only into their front hexes (7.2): a point of turn is
	// free where the move starts and after each hex, and along a road;
	// two points or more in one hex cost 1 MP (7.3, 7.4).
	f, pts := facingToward(u, d)
	l.facing = f
	switch {
	case pts >= 2 && c.first && c.startAdj:
		return l, fmt.Sprintf("%s starts next to the enemy: it may turn one point and leave (9.3), not %d", u.Name, pts)
	case pts > 0 && !sc.road:
		l.turnCost = s.turnCost(u, pts)
	}
	// Passing through friendly units (8.4, 8.5).
	friends := s.friendsAt(next, u.Side)
	if len(friends) > 0 && !c.last {
		marchRoad := sc.road && slices.ContainsFunc(friends, func(f *Unit) bool { return f.Order == March })
		ford, bridge := s.crossing(cur, next)
		switch {
		case marchRoad && (ford || bridge):
			return l, fmt.Sprintf("%s cannot pass the March column at %s by its bridge or ford (8.5)", u.Name, next)
		case marchRoad:
			ot, _ := s.otherTerrain(cur, next, u.Order != Attack)
			l.cost = ot // the other terrain's cost (8.5)
		case s.isArt(u) || !slices.ContainsFunc(friends, func(f *Unit) bool { return !s.isArt(f) }):
			// free through or by artillery (8.4)
		default:
			l.cost += 4
			l.throughUD = true
		}
	}
	// Enemy-adjacent hexes (9.1, 10.6, 19.2).
	if s.enemyAdjacent(next, u.Side) {
		ford, bridge := s.crossing(cur, next)
		switch {
		case u.Order == March:
			return l, fmt.Sprintf("a March column cannot move next to the enemy (10.6): %s is", next)
		case u.Disordered:
			return l, fmt.Sprintf("%s is disordered and cannot move next to the enemy (19.2)", u.Name)
		case u.Order == Advance && !s.isArt(u) && !ford && !bridge:
			return l, fmt.Sprintf("on Advance orders %s may move next to the enemy only across a bridge or ford (9.1); %s is next to the enemy", u.Name, next)
		case u.Order != Attack && u.Order != Advance:
			return l, fmt.Sprintf("%s's orders do not let it move next to the enemy", u.Name)
		case !c.last:
			return l, fmt.Sprintf("%s must stop in %s, next to the enemy (9.2)", u.Name, next)
		}
	}
	if u.Order == March && s.enemySees(next, u.Side, 4) {
		return l, fmt.Sprintf("a March column cannot move within 4 hexes of an enemy unit that sees it (10.6): %s", next)
	}
	// Artillery near the enemy (15.1, 15.2); horse artillery moves as
	// cavalry (15.3).
	if s.isArt(u) && !s.isHorseArt(u) && s.enemySees(next, u.Side, 3) {
		if !c.startNear3 {
			return l, fmt.Sprintf("artillery cannot move within 3 hexes of an enemy that sees it (15.1): %s", next)
		}
		closer := s.nearestEnemy(next, u.Side) < s.nearestEnemy(cur, u.Side)
		if closer && !slices.ContainsFunc(friends, func(f *Unit) bool { return !s.isArt(f) }) {
			return l, fmt.Sprintf("artillery that starts within 3 hexes of the enemy moves closer only into hexes with friendly infantry or cavalry (15.2): %s", next)
		}
	}
	if u.MP+l.turnCost+l.cost > s.ma(u) {
		return l, fmt.Sprintf("%s has %s MP this phase; %s would take %s", u.Name, halfMP(s.ma(u)), next, halfMP(u.MP+l.turnCost+l.cost))
	}
	return l, ""
}

// startCtx is a move's context where it begins.
func (s *State) startCtx(u *Unit) moveCtx {
	return moveCtx{origin: u.Hex, startAdj: s.enemyAdjacent(u.Hex, u.Side),
		startNear3: s.nearestEnemy(u.Hex, u.Side) <= 3}
}

// moveStep carries out step k of a unit's MOVE: step 2i enters Path[i],
// step 2i+1 brings the reactions to it there (so a side asked to react
// sees the unit where it is); step 2*len(Path) ends the move (its facing
// and its place in the stack).
func (m *sim) moveStep(o *Order, k int) int {
	st := m.st
	u := st.unit(o.Unit)
	if k == 0 {
		switch {
		case u.Routed:
			m.fail(o, o.Col, u.Name+" is routed", "")
		case u.Moved:
			m.fail(o, o.Col, u.Name+" has moved this phase: units move one at a time, each once (6.3)", "")
		case u.Order == Reserve:
			m.fail(o, o.Col, u.Name+" is in reserve", "")
		}
		if o.HasTo {
			p, why := st.pathTo(u, o.To)
			if why != "" {
				m.fail(o, o.Col, why, "name the hexes of the path")
			}
			o.Path, o.HasTo = p, false
		}
		o.From, o.HasFrom = u.Hex, true
	}
	switch {
	case k >= 2*len(o.Path):
		m.endMove(o, u)
		return -1
	case k%2 == 1:
		if u.onMap() {
			from := o.From
			if i := k / 2; i > 0 {
				from = o.Path[i-1]
			}
			m.afterEntering(u, from)
		}
		return k + 1
	}
	return m.moveInto(o, u, k/2)
}

// moveInto enters Path[k].
func (m *sim) moveInto(o *Order, u *Unit, k int) int {
	st := m.st
	if !u.onMap() {
		return -1 // gone: nothing more
	}
	cur, next := u.Hex, o.Path[k]
	if k > 0 && cur != o.Path[k-1] || k == 0 && o.HasFrom && cur != o.From {
		m.fail(o, o.Col, fmt.Sprintf("%s is no longer where its path goes on", u.Name), "")
	}
	c := st.startCtx(u)
	if o.HasFrom {
		c = moveCtx{origin: o.From, startAdj: k == 0 && st.enemyAdjacent(cur, u.Side), startNear3: st.nearestEnemy(o.From, u.Side) <= 3}
		if k > 0 {
			c.startNear3 = m.startedNear3(o)
		}
	}
	c.first = k == 0
	c.last = k == len(o.Path)-1
	c.enteredAdj = k > 0 && st.enemyAdjacent(cur, u.Side)
	l, why := st.checkLeg(u, cur, next, c)
	if why != "" {
		m.fail(o, o.Col, why, "")
	}
	// Turning to leave comes first; then withdrawal fire from the enemy
	// whose front it leaves (9.6, 13.3).
	if l.facing != u.Facing {
		m.emit(kUnitFaced, aUnit.Arg(u.Name), aFacing.Arg(int64(l.facing)), aMp.Arg(int64(u.MP+l.turnCost)), aMoved.Arg(true))
	}
	m.withdrawalFire(u)
	u = m.st.unit(u.Name)
	if !u.onMap() || u.Routed {
		return -1
	}
	if u.Disordered && m.st.enemyAdjacent(next, u.Side) {
		m.fail(o, o.Col, fmt.Sprintf("%s is disordered and cannot move next to the enemy (19.2)", u.Name), "")
	}
	mp := u.MP + l.cost
	if mp > m.st.ma(u) {
		m.fail(o, o.Col, fmt.Sprintf("%s has no MP left to enter %s", u.Name, next), "")
	}
	m.emit(kUnitMoved, aUnit.Arg(u.Name), aHex.Arg(hexInt(next)), aFacing.Arg(int64(l.facing)), aMp.Arg(int64(mp)), aExtended.Arg(l.extended))
	if l.throughUD {
		// The UDD for passing through comes as it leaves the hex (8.4);
		// its DRM is the MP cost of the hex it leaves into, if more than 1.
		drm := 0
		if k+1 < len(o.Path) {
			if ot, _ := m.st.otherTerrain(next, o.Path[k+1], u.Order != Attack); ot > 2 {
				drm = ot / 2
			}
		}
		if !m.udd(m.st.unit(u.Name), "passing through (8.4)", drm, 0) {
			m.disorder(m.st.unit(u.Name), "failed its UDD passing through (8.4)")
		}
	}
	return 2*k + 1
}

// startedNear3 reports whether the move began within 3 hexes of the
// enemy (15.2), as the state stood when it began: the origin's distance
// now, the best the state keeps.
func (m *sim) startedNear3(o *Order) bool {
	u := m.st.unit(o.Unit)
	return m.st.nearestEnemy(o.From, u.Side) <= 3
}

// endMove ends a move: a last facing change (one point free, more 1 MP,
// none after entering an enemy-adjacent hex, 9.2, B9), and the unit's
// place in the stack (8.3) within the stacking limits (8.1, 8.2, 10.3).
func (m *sim) endMove(o *Order, u *Unit) {
	st := m.st
	if !u.onMap() || len(o.Path) == 0 {
		return
	}
	if o.HasFace {
		f := o.Face
		if f >= faceSide {
			f -= faceSide
		}
		if (o.Face >= faceSide) != u.onSide() {
			m.fail(o, o.Col, fmt.Sprintf("%s faces a %s", u.Name, map[bool]string{true: "side (March orders, 10.2)", false: "vertex (7.1)"}[u.onSide()]), "")
		}
		if st.enemyAdjacent(u.Hex, u.Side) && f != u.Facing && !(st.Scn.Options.FaceIfBlocked && st.frontBlocked(u)) {
			m.fail(o, o.Col, fmt.Sprintf("%s entered a hex next to the enemy: it cannot change facing there (9.2, B9)", u.Name), "")
		}
		m.turn(o, u, f, true)
		u = m.st.unit(u.Name)
	}
	prev := o.From
	if len(o.Path) >= 2 {
		prev = o.Path[len(o.Path)-2]
	}
	m.place(o, u, prev)
}

// frontBlocked reports whether both of u's front hexes are impassable
// (B9's option).
func (s *State) frontBlocked(u *Unit) bool {
	for _, h := range u.Hex.Neighbors() {
		if inFront(u, h) {
			if _, t, ok := s.hexDef(h); ok && !t.Impassable {
				return false
			}
		}
	}
	return true
}

// turnCost is the half MPs that turning pts more points in its hex
// costs u (7.3, 7.4): the points it turns in one hex in a phase count
// together, its turns to fire and to leave the hex included; the first
// time they come to 2 or more they cost 1 MP, and the hex is then paid
// for. A turn on changing to or from March orders is free.
func (s *State) turnCost(u *Unit, pts int) int {
	if s.Scn.Options.TurnsApart {
		// Option turns-apart: each turn is priced alone.
		if u.FreeFace || pts < 2 {
			return 0
		}
		return 2
	}
	if u.FreeFace || u.HexTurns >= 2 || u.HexTurns+pts < 2 {
		return 0
	}
	return 2
}

// turn changes u's facing to f: one point free (7.3), two or more in
// its hex 1 MP (7.4); an about-face in woods under Attack orders costs
// 1 MP and turns the stack upside down (7.4), once for the stack: a
// stack-mate already turned about to f has reversed it. The seed
// charges MP for a paid turn and nothing else: it does not end the
// unit's movement, nor count as moving (11.2, 11.4, 14.2a).
func (m *sim) turn(o *Order, u *Unit, f int, afterMove bool) {
	st := m.st
	pts := turnPoints(u, f)
	if pts == 0 {
		return
	}
	cost := st.turnCost(u, pts)
	if u.MP+cost > st.ma(u) {
		m.fail(o, o.Col, fmt.Sprintf("%s has no MP left to turn %d points (7.4)", u.Name, pts), "")
	}
	m.emit(kUnitFaced, aUnit.Arg(u.Name), aFacing.Arg(int64(f)), aMp.Arg(int64(u.MP+cost)), aMoved.Arg(false))
	d, _, _ := st.hexDef(u.Hex)
	turned := slices.ContainsFunc(m.st.friendsAt(u.Hex, u.Side), func(v *Unit) bool {
		return v.Name != u.Name && v.Facing == f && v.HexTurns >= 3
	})
	if pts == 3 && u.Order == Attack && d.Terrain == "woods" && !turned {
		var names []string
		us := m.st.friendsAt(u.Hex, u.Side)
		for i := len(us) - 1; i >= 0; i-- {
			names = append(names, us[i].Name)
		}
		if len(names) > 1 {
			m.emit(kStackSet, aHex.Arg(hexInt(u.Hex)), aUnits.Arg(names...))
			m.say("%s turns about in the woods under Attack orders: the stack is reversed (7.4).", u.Name)
		}
	}
}

// place puts a unit that has ended a move (or an advance) in its hex's
// stack: on top if it came from the occupant's front or flank, under it
// from its rear; artillery where its order says (8.3). The stacking
// limits hold (8.1, 8.2).
func (m *sim) place(o *Order, u *Unit, from hex.Hex) {
	st := m.st
	others := slices.DeleteFunc(st.friendsAt(u.Hex, u.Side), func(v *Unit) bool { return v.Name == u.Name })
	if len(others) == 0 {
		return
	}
	if why := st.stackWhy(append(slices.Clone(others), u)); why != "" {
		m.fail(o, o.Col, why, "")
	}
	top := true
	switch {
	case st.isArt(u):
		top = !o.Bottom
	default:
		top = sector(others[0], from) != hex.Rear
	}
	var names []string
	if top {
		names = append(names, u.Name)
	}
	for _, v := range others {
		names = append(names, v.Name)
	}
	if !top {
		names = append(names, u.Name)
	}
	m.emit(kStackSet, aHex.Arg(hexInt(u.Hex)), aUnits.Arg(names...))
}

// stackWhy says why units may not stack together (8.2, B8, 10.3), or "".
func (s *State) stackWhy(us []*Unit) string {
	var combat, bats []*Unit
	march := false
	for _, u := range us {
		if s.isArt(u) {
			bats = append(bats, u)
		} else {
			combat = append(combat, u)
		}
		march = march || u.Order == March
	}
	sp := 0
	mounted := false
	for _, u := range combat {
		sp += s.strength(u)
		mounted = mounted || s.mountedCav(u)
		if u.Brigade != combat[0].Brigade {
			return "units of different brigades cannot stack (8.2)"
		}
	}
	if march && len(us) > 1 {
		// 10.3: 7 SP of infantry, 4 of mounted cavalry, or 2 batteries,
		// no mixing of arms.
		switch {
		case len(bats) > 0 && len(combat) > 0,
			mounted && slices.ContainsFunc(combat, func(u *Unit) bool { return !s.mountedCav(u) }):
			// Dismounted cavalry is infantry (16.5).
			return "March columns do not mix arms (10.3)"
		case len(bats) > 2:
			return "two batteries at most in a March stack (10.3)"
		case mounted && sp > 4:
			return "4 SP of mounted cavalry at most in a March stack (10.3)"
		case !mounted && len(combat) > 0 && sp > 7:
			return "7 SP of infantry at most in a March stack (10.3)"
		}
		return ""
	}
	switch {
	case len(bats) > 2:
		return "two batteries at most in a hex (8.2)"
	case len(bats) == 2 && len(combat) > 0:
		return "two batteries stack with no other unit (8.2, B8)"
	case len(bats) == 1 && len(combat) > 1 && !s.Scn.Options.TwoPlusBattery:
		return "a battery stacks with one infantry or cavalry unit (8.2, B8)"
	case len(bats) == 1 && len(combat) > 0 && s.mountedCav(combat[0]) && !s.isHorseArt(bats[0]):
		// Dismounted cavalry is infantry (16.5): any battery takes it.
		return "cavalry stacks only with horse artillery (8.2)"
	case mounted && slices.ContainsFunc(combat, func(u *Unit) bool { return !s.mountedCav(u) }):
		return "mounted cavalry stacks only with mounted cavalry (8.2)"
	case mounted && sp > 7:
		return "7 SP of mounted cavalry at most in a hex (8.2)"
	case len(combat) > 2:
		return "two infantry units at most in a hex (8.2)"
	case sp > 15:
		return fmt.Sprintf("15 SP of infantry at most in a hex (8.2): %d", sp)
	}
	return ""
}

// afterEntering brings the non-phasing side's reactions to a unit that
// has entered a hex: leaders alone next to it go to their units (17.5);
// mounted cavalry it comes next to may withdraw (9.5a) and any unit it
// comes next to may face it (7.6); units it comes within 3 hexes of may
// give closing fire (13.4).
func (m *sim) afterEntering(u *Unit, from hex.Hex) {
	for _, l := range m.st.leadersAloneNear(u.Hex, otherSide(u.Side)) {
		m.leaderFlees(l)
	}
	for i := range m.st.Units {
		e := m.st.Units[i]
		mover := m.st.unit(u.Name)
		if !e.onMap() || e.Side == u.Side || e.Routed || !mover.onMap() {
			continue
		}
		if hex.Adjacent(e.Hex, mover.Hex) && !hex.Adjacent(e.Hex, from) {
			c := reactCtx{enemy: mover, trigger: "adjacent", odds: m.st.stackSP(mover.Hex)}
			if m.st.mountedCav(e) && e.Order != March && !e.WM {
				if ok, _ := m.react(rWM, e, c, fmt.Sprintf("9.5a Reaction withdrawal: %s moves next to your mounted %s (%s).", mover.Name, e.Name, e.Hex)); ok {
					m.withdrawal(m.st.unit(e.Name), nil, true)
					continue
				}
			}
			m.reactionFace(m.st.unit(e.Name), mover, "adjacent")
		}
		m.closingFire(m.st.unit(e.Name), m.st.unit(u.Name))
	}
}

// reactionFace is 7.6: a unit an enemy moves next to, or fires at from
// other than its front, may turn one point toward it, once per brigade
// activation, after a UDD (artillery needs none); not an extended unit,
// one in the front hex of another enemy unit (B13; option
// b13-enemy-in-front: one with another enemy in its front), nor a
// refused one. It reports whether the unit turned.
func (m *sim) reactionFace(e, enemy *Unit, trigger string) bool {
	st := m.st
	if !e.onMap() || e.Routed || inFront(e, enemy.Hex) || slices.Contains(e.Used, rFace) || st.extended(e) || e.Refused {
		return false
	}
	for i := range st.Units {
		x := st.Units[i]
		if !x.onMap() || x.Side == e.Side || x.Name == enemy.Name {
			continue
		}
		if st.Scn.Options.EnemyInFront {
			if hex.Adjacent(x.Hex, e.Hex) && inFront(e, x.Hex) {
				return false
			}
		} else if hex.Adjacent(x.Hex, e.Hex) && inFront(x, e.Hex) {
			return false
		}
	}
	what := fmt.Sprintf("7.6 Reaction facing: %s (%s) is next to your %s (%s), not in its front.", enemy.Name, enemy.Hex, e.Name, e.Hex)
	if trigger == "fired" {
		what = fmt.Sprintf("7.6 Reaction facing: %s (%s) fires at your %s (%s) from its %s.", enemy.Name, enemy.Hex, e.Name, e.Hex, sector(e, enemy.Hex))
	}
	ok, arg := m.react(rFace, e, reactCtx{enemy: enemy, trigger: trigger, odds: st.stackSP(enemy.Hex)}, what)
	if !ok {
		return false
	}
	f := st.faceToward(e, enemy.Hex)
	if arg != "" {
		var v int
		fmt.Sscan(arg, &v)
		if turnPoints(e, v) == 1 {
			f = v
		}
	}
	m.emit(kUnitMarked, aUnit.Arg(e.Name), aFlag.Arg("used:"+rFace), aOn.Arg(true))
	if !st.isArt(e) && !m.udd(m.st.unit(e.Name), "reaction facing (7.6)", 0, 0) {
		m.say("%s fails its UDD and does not turn (7.6).", e.Name)
		return false
	}
	m.emit(kUnitFaced, aUnit.Arg(e.Name), aFacing.Arg(int64(f)), aMp.Arg(int64(e.MP)), aMoved.Arg(false))
	m.say("%s turns to face %s (7.6).", e.Name, facingName(f, e.onSide()))
	return true
}

// faceToward is the facing one point from u's that brings h nearest its
// front (clockwise on a tie).
func (s *State) faceToward(u *Unit, h hex.Hex) int {
	best, bestScore := u.Facing, -1
	for _, n := range []int{1, -1} {
		f := (u.Facing + n + 6) % 6
		v := *u
		v.Facing = f
		score := 0
		switch sector(&v, h) {
		case hex.Front:
			score = 2
		case hex.Flank:
			score = 1
		}
		if score > bestScore {
			best, bestScore = f, score
		}
	}
	return best
}

// extended: in Extended Column (6.1, 10.4, R10).
func (s *State) extended(u *Unit) bool {
	if u.Extended {
		return true
	}
	if u.Order != March {
		return false
	}
	if s.mountedCav(u) {
		return u.SP > 4
	}
	return !s.isArt(u) && u.SP > 7
}

// --- withdrawal movement (9.5) and retreats ---

// withdrawStep is a unit's WITHDRAW: Withdrawal Movement (9.5).
func (m *sim) withdrawStep(o *Order, k int) int {
	u := m.st.unit(o.Unit)
	switch {
	case u.Order == March:
		m.fail(o, o.Col, "a March column makes no withdrawal movement (10.7)", "")
	case u.Moved || u.WM:
		m.fail(o, o.Col, u.Name+" has moved this phase", "")
	}
	if !m.withdrawal(u, o, false) {
		m.fail(o, o.Col, fmt.Sprintf("%s has no hex to its rear to withdraw into", u.Name), "")
	}
	return -1
}

// withdrawal moves u up to two hexes into its rear hexes without turning
// (9.5): each hex costing more than 1 MP needs a UDD, DRM its cost - 1,
// and a failure disorders the unit and ends the withdrawal. o's path, if
// given, is followed; else the first open rear hex each time. A reaction
// withdrawal (9.5a) gives no withdrawal fire. It reports whether the
// unit moved at all.
func (m *sim) withdrawal(u *Unit, o *Order, reaction bool) bool {
	moved := false
	for i := range 2 {
		u = m.st.unit(u.Name)
		if !u.onMap() {
			return moved
		}
		var next hex.Hex
		if o != nil && i < len(o.Path) {
			next = o.Path[i]
			d, ok := u.Hex.DirectionTo(next)
			if !ok || !slices.Contains(rearDirs(u), d) {
				m.fail(o, o.Col, fmt.Sprintf("%s is not to %s's rear: a withdrawal goes back without turning (9.5)", next, u.Name), "")
			}
			if why := m.st.retreatWhy(u, next); why != "" {
				m.fail(o, o.Col, why, "")
			}
		} else if o != nil && len(o.Path) > 0 {
			return moved
		} else {
			var ok bool
			if next, ok = m.st.rearHex(u); !ok {
				return moved
			}
		}
		if !reaction {
			m.withdrawalFire(u)
			u = m.st.unit(u.Name)
			if !u.onMap() || u.Routed {
				return true
			}
		}
		m.emit(kUnitMoved, aUnit.Arg(u.Name), aHex.Arg(hexInt(next)), aFacing.Arg(int64(u.Facing)), aMp.Arg(int64(u.MP)), aExtended.Arg(false))
		m.emit(kUnitMarked, aUnit.Arg(u.Name), aFlag.Arg("wm"), aOn.Arg(true))
		moved = true
		from := u.Hex
		m.carryLeaders(u, from, next)
		if ot, _ := m.st.otherTerrain(from, next, true); ot > 2 {
			if !m.udd(m.st.unit(u.Name), "withdrawal into costly ground (9.5)", ot/2-1, 0) {
				m.disorder(m.st.unit(u.Name), "failed its withdrawal UDD (9.5)")
				return true
			}
		}
	}
	return moved
}

// retreatWhy says why u may not retreat or withdraw into h: off the map,
// impassable, the enemy there, or an enemy's front hex with no friendly
// unit in it (14.3b).
func (s *State) retreatWhy(u *Unit, h hex.Hex) string {
	if _, why := s.otherTerrain(u.Hex, h, true); why != "" {
		return fmt.Sprintf("%s cannot go to %s: %s", u.Name, h, why)
	}
	if len(s.enemiesAt(h, u.Side)) > 0 {
		return fmt.Sprintf("%s holds the enemy", h)
	}
	if len(s.friendsAt(h, u.Side)) == 0 {
		for _, n := range h.Neighbors() {
			for _, e := range s.enemiesAt(n, u.Side) {
				if inFront(e, h) {
					return fmt.Sprintf("%s is in the front of %s, with no friendly unit there (14.3b)", h, e.Name)
				}
			}
		}
	}
	return ""
}

// rearHex is the first rear hex u may go back into, in direction order.
func (s *State) rearHex(u *Unit) (hex.Hex, bool) {
	for _, d := range rearDirs(u) {
		h := u.Hex.Neighbor(d)
		if s.retreatWhy(u, h) == "" {
			return h, true
		}
	}
	return hex.Hex{}, false
}

// retreat moves u n hexes to its rear keeping its facing (7.5, 14.3b);
// where the stack would be over the limits it goes one hex further
// (Displacement, R11 reading). A unit that cannot retreat stays and
// loses a strength point (R11 reading). Leaders stacked with it go too
// (17.6).
func (m *sim) retreat(u *Unit, n int, why string) { m.retreatVia(u, n, why, nil) }

// rearHexes are the hexes u may retreat into, in rearDirs' order.
func (s *State) rearHexes(u *Unit) []string {
	var out []string
	for _, d := range rearDirs(u) {
		if h := u.Hex.Neighbor(d); s.retreatWhy(u, h) == "" {
			out = append(out, h.String())
		}
	}
	return out
}

// retreatVia is retreat by the hexes the player chose (14.3b, R11: the
// owner's choice where two are open), each taken when it is one u may
// retreat into; else the first open.
func (m *sim) retreatVia(u *Unit, n int, why string, via []string) {
	for i := 0; i < n || (i < n+1 && m.overStacked(u)); i++ {
		u = m.st.unit(u.Name)
		if !u.onMap() {
			return
		}
		next, ok := m.st.rearHex(u)
		if i < len(via) {
			if h, err := hex.Parse(via[i]); err == nil && slices.Contains(m.st.rearHexes(u), via[i]) {
				next, ok = h, true
			}
		}
		if !ok {
			if i == 0 {
				m.say("%s cannot retreat (%s): it stays and loses a strength point.", u.Name, why)
				m.loseSP(u, 1, "no retreat open ("+why+")", false)
			}
			return
		}
		from := u.Hex
		m.emit(kUnitMoved, aUnit.Arg(u.Name), aHex.Arg(hexInt(next)), aFacing.Arg(int64(u.Facing)), aMp.Arg(int64(u.MP)), aExtended.Arg(false), aForced.Arg(true))
		m.carryLeaders(u, from, next)
		m.say("%s retreats to %s (%s).", u.Name, next, why)
	}
	if u = m.st.unit(u.Name); u.onMap() {
		m.place(&Order{Text: why}, u, u.Hex)
	}
}

// retreatEnds are the hexes a retreat of n hexes (1 or 2) may end in:
// each hex into a rear hex a retreat may enter (keeping the facing,
// 14.3b), a unit with no rear hex open from the first stopping there;
// each end with the first path found to it, in rearDirs' order, so the
// first is the hex pbem takes when the owner does not choose. A rout is
// two hexes (R11 reading), a mounted unit's pre-shock retreat too.
func (s *State) retreatEnds(u *Unit, n int) (ends []string, paths [][]string) {
	add := func(end string, path []string) {
		if !slices.Contains(ends, end) {
			ends, paths = append(ends, end), append(paths, path)
		}
	}
	for _, h1 := range s.rearHexes(u) {
		if n < 2 {
			add(h1, []string{h1})
			continue
		}
		v := *u
		v.Hex = hex.MustParse(h1)
		h2s := s.rearHexes(&v)
		if len(h2s) == 0 {
			add(h1, []string{h1})
		}
		for _, h2 := range h2s {
			add(h2, []string{h1, h2})
		}
	}
	return ends, paths
}

// viaEnd is the path to the end a player chose (a hex of ends), or nil
// (the first path) for none or one not among them.
func viaEnd(ends []string, paths [][]string, end string) []string {
	if i := slices.Index(ends, end); i >= 0 {
		return paths[i]
	}
	return nil
}

// routVia asks u's owner where it routs to (R11), when its rout may end
// in two hexes or more: the answer given, else its standing order (any
// rule but ASK: the first hex, unasked), else the question waits for a
// mail, the other side reading only that the game waits. PASS, or no
// answer by the deadline, takes the first hex, the one pbem would take.
// A dry run, or a rout outside an activation's program, takes the first.
func (m *sim) routVia(u *Unit, why string) []string {
	ends, paths := m.st.retreatEnds(u, 2)
	if len(ends) < 2 || m.dry || m.st.Act == nil || m.st.Act.Prog == nil {
		return nil
	}
	key := m.key(rRout, u.Name) + "|" + strings.Join(ends, " ")
	// The answer is found by the step and the unit: the hexes open may
	// have changed since it was asked, with another unit's answer (a
	// friendly unit where another routed opens an enemy's front hex).
	if v, ok := m.answeredChoice(m.key(rRout, u.Name) + "|"); ok {
		if _, h, ok := strings.Cut(v, ":"); ok && strings.HasPrefix(v, "yes") {
			if p := viaEnd(ends, paths, h); p != nil {
				return p
			}
			m.say("%s cannot end its rout at %s now: it routs towards %s.", u.Name, h, ends[0])
		}
		return nil
	}
	switch m.st.standingFor(u, rRout) {
	case "", "ASK":
	default:
		return nil
	}
	what := fmt.Sprintf("Rout: your %s at %s routs (%s), two hexes back keeping its facing; where it ends is yours to choose: %s (ROUT %s <hex>; PASS, or no answer by the deadline, takes %s).",
		u.Name, u.Hex, why, joinOr(ends), u.Name, ends[0])
	if m.probe {
		m.probed = append(m.probed, Ask{Side: u.Side, Key: key, What: what})
		return nil
	}
	panic(suspend{Ask{Side: u.Side, Key: key,
		What:     what + fmt.Sprintf(" Answer %s %s <hex> or PASS (STANDING %s %s ALWAYS would take the first hex from now on, unasked).", rRout, u.Name, rRout, u.Name),
		Examples: []string{fmt.Sprintf("%s %s %s", rRout, u.Name, ends[0]), oPass, fmt.Sprintf("STANDING %s ALL ALWAYS", rRout)}}})
}

// overStacked reports whether u's hex holds more than the limits.
func (m *sim) overStacked(u *Unit) bool {
	u = m.st.unit(u.Name)
	return u.onMap() && m.st.stackWhy(m.st.friendsAt(u.Hex, u.Side)) != ""
}

// carryLeaders moves the leaders stacked with a unit that leaves a hex
// now empty of their units with it (17.6).
func (m *sim) carryLeaders(u *Unit, from, to hex.Hex) {
	if len(m.st.friendsAt(from, u.Side)) > 0 {
		return
	}
	for _, l := range m.st.leadersAt(from) {
		if l.Side == u.Side {
			m.emit(kLeaderMoved, aLeader.Arg(l.Name), aHex.Arg(hexInt(to)), aMp.Arg(int64(l.MP)))
		}
	}
}

// --- MOVE TO: the cheapest legal path ---

type pathNode struct {
	h      hex.Hex
	facing int
}

type pathItem struct {
	n          pathNode
	cost, seq  int
	prev       *pathItem
	enteredAdj bool
}

type pathQueue []*pathItem

func (q pathQueue) Len() int { return len(q) }
func (q pathQueue) Less(i, j int) bool {
	if q[i].cost != q[j].cost {
		return q[i].cost < q[j].cost
	}
	return q[i].seq < q[j].seq
}
func (q pathQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *pathQueue) Push(x any)   { *q = append(*q, x.(*pathItem)) }
func (q *pathQueue) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}

// pathTo finds the cheapest path for u to dest as checkLeg prices it,
// through no friendly unit (a path through them must be written out),
// ties broken by the order of search (deterministic).
func (s *State) pathTo(u *Unit, dest hex.Hex) ([]hex.Hex, string) {
	if dest == u.Hex {
		return nil, fmt.Sprintf("%s is at %s already", u.Name, dest)
	}
	paths, why := s.search(u, &dest)
	if p, ok := paths[dest]; ok {
		return p, ""
	}
	if why == "" {
		why = fmt.Sprintf("%s cannot reach %s this phase", u.Name, dest)
	}
	return nil, why
}

// search finds the cheapest legal paths for u this phase: to dest alone
// (and why not, if it cannot), or with dest nil to every hex it can end
// in, each the first path found of the least cost.
func (s *State) search(u *Unit, dest *hex.Hex) (map[hex.Hex][]hex.Hex, string) {
	start := s.startCtx(u)
	seen := map[pathNode]int{}
	out := map[hex.Hex][]hex.Hex{}
	q := &pathQueue{{n: pathNode{u.Hex, u.Facing}, cost: u.MP}}
	seq := 0
	why := ""
	for q.Len() > 0 {
		it := heap.Pop(q).(*pathItem)
		if c, ok := seen[it.n]; ok && c <= it.cost {
			continue
		}
		seen[it.n] = it.cost
		if it.prev != nil {
			if _, done := out[it.n.h]; !done {
				var path []hex.Hex
				for p := it; p.prev != nil; p = p.prev {
					path = append([]hex.Hex{p.n.h}, path...)
				}
				out[it.n.h] = path
				if dest != nil && it.n.h == *dest {
					return out, ""
				}
			}
		}
		if it.prev != nil && (it.enteredAdj || len(s.friendsAt(it.n.h, u.Side)) > 0) {
			continue
		}
		for _, next := range it.n.h.Neighbors() {
			if next == u.Hex {
				continue
			}
			v := *u
			v.Hex, v.Facing, v.MP = it.n.h, it.n.facing, it.cost
			if it.prev != nil {
				v.HexTurns = 0
			}
			c := start
			c.first = it.prev == nil
			c.last = dest == nil || next == *dest
			l, w := s.checkLeg(&v, it.n.h, next, c)
			if w != "" {
				if dest != nil && next == *dest {
					why = w
				}
				continue
			}
			if dest != nil && !c.last && len(s.friendsAt(next, u.Side)) > 0 {
				continue
			}
			if dest == nil && s.enemyAdjacent(next, u.Side) {
				// Could it also go on? checkLeg with last=false says.
				c.last = false
			}
			seq++
			heap.Push(q, &pathItem{n: pathNode{next, l.facing}, cost: it.cost + l.turnCost + l.cost, seq: seq, prev: it,
				enteredAdj: s.enemyAdjacent(next, u.Side)})
		}
	}
	if dest != nil {
		return nil, why
	}
	// Hexes holding friendly units it may only pass through are no
	// place to end.
	for h := range out {
		if len(s.friendsAt(h, u.Side)) > 0 {
			delete(out, h)
		}
	}
	return out, ""
}
