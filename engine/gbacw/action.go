package gbacw

import (
	"fmt"
	"strings"
)

// faceAction is a unit's FACE without moving: one point free, two or
// more 1 MP (7.3, 7.4); a unit that entered a hex next to the enemy this
// phase cannot turn there (9.2, B9).
func (m *sim) faceAction(o *Order) {
	st := m.st
	u := st.unit(o.Unit)
	if u.Routed {
		m.fail(o, o.Col, u.Name+" is routed", "")
	}
	f := o.Face
	if (f >= faceSide) != u.onSide() {
		m.fail(o, o.Col, fmt.Sprintf("%s faces a %s", u.Name, map[bool]string{true: "side (March orders, 10.2)", false: "vertex (7.1)"}[u.onSide()]), "")
	}
	if f >= faceSide {
		f -= faceSide
	}
	if u.Moved && st.enemyAdjacent(u.Hex, u.Side) && !(st.Scn.Options.FaceIfBlocked && st.frontBlocked(u)) {
		m.fail(o, o.Col, fmt.Sprintf("%s moved next to the enemy: it cannot change facing there (9.2, B9)", u.Name), "")
	}
	if turnPoints(u, f) == 0 {
		m.fail(o, o.Col, fmt.Sprintf("%s faces %s already", u.Name, facingName(f, u.onSide())), "")
	}
	m.turn(o, u, f, false)
	m.say("%s faces %s.", u.Name, facingName(f, u.onSide()))
}

// recover is a unit's recovery (19.3, 19.4): dr <= its cohesion with
// DRMs (+1 next to the enemy, -1 mounted cavalry, -1 for each star of
// the leaders in its stack, who may have moved there first, 19.5). It
// recovers, and may turn a point. On a modified dr of twice its cohesion
// or more, or of 9 or more, it loses a strength point (B10; option
// b10-double-only: twice its cohesion only). A routed unit that
// recovers is disordered again, no longer routed (R11 reading). Not on
// March orders (10.7).
func (m *sim) recover(o *Order) {
	for _, n := range o.Units {
		st := m.st
		u := st.unit(n)
		switch {
		case !u.onMap():
			continue
		case u.Order == March:
			m.fail(o, o.Col, u.Name+" is on March orders: no recovery (10.7)", "")
		case !u.Disordered && !u.Routed:
			m.fail(o, o.Col, u.Name+" is not disordered", "")
		}
		var ms []mod
		if st.enemyAdjacent(u.Hex, u.Side) {
			ms = append(ms, mod{1, "next to the enemy (19.4)"})
		}
		if st.mountedCav(u) {
			ms = append(ms, mod{-1, "mounted cavalry (19.4)"})
		}
		ms = append(ms, mod{-st.starsWith(u), "leaders' stars (18.4)"})
		mods, drm := modTexts(ms)
		m.emit(kUnitMarked, aUnit.Arg(u.Name), aFlag.Arg("recover"), aOn.Arg(true))
		dr := m.d10("recovery "+u.Name, 0)
		coh := st.cohesion(u)
		ok := dr+drm <= coh
		m.emit(kUddRolled, aUnit.Arg(u.Name), aWhy.Arg("recovery (19.3)"), aDr.Arg(int64(dr)), aDrm.Arg(int64(drm)), aNeed.Arg(int64(coh)), aOk.Arg(ok), aMods.Arg(mods...))
		if ok {
			if u.Routed {
				m.emit(kUnitRallied, aUnit.Arg(u.Name), aWhy.Arg("recovery (19.3)"))
			} else {
				m.emit(kUnitRecovered, aUnit.Arg(u.Name), aWhy.Arg("recovery (19.3)"))
			}
			if o.HasFace && len(o.Units) == 1 {
				if turnPoints(m.st.unit(u.Name), o.Face) != 1 {
					m.fail(o, o.Col, "a recovery turns one point (7.3, 19.3)", "")
				}
				m.emit(kUnitFaced, aUnit.Arg(u.Name), aFacing.Arg(int64(o.Face)), aMp.Arg(int64(u.MP)), aMoved.Arg(false))
			}
		}
		if mod := dr + drm; mod >= 2*coh || (mod >= 9 && !st.Scn.Options.DoubleOnly) {
			m.loseSP(m.st.unit(u.Name), 1, fmt.Sprintf("recovery roll %d (19.3)", mod), false)
		}
	}
}

// build is construction (R13): the chart's works are finished at the end
// of the turns it says; without one the referee rules what is built.
func (m *sim) build(o *Order) {
	st := m.st
	u := st.unit(o.Unit)
	if u.Order == March {
		m.fail(o, o.Col, u.Name+" is on March orders: no construction (10.7)", "")
	}
	if st.Scn.Tables.Construction == nil {
		v := m.rule("build|"+u.Name, fmt.Sprintf("%s builds at %s, and the scenario has no construction chart (R13): rule whether it has built works (they give the breastworks' DRMs of the chart, or none)", u.Name, u.Hex),
			[]string{"RULE BUILT", "RULE NOT YET"}, "NOT YET")
		if v == "BUILT" {
			m.emit(kWorksBuilt, aHex.Arg(hexInt(u.Hex)))
		}
	}
	m.emit(kUnitMarked, aUnit.Arg(u.Name), aFlag.Arg("build"), aOn.Arg(true))
	m.say("%s builds at %s.", u.Name, u.Hex)
}

// mount is MOUNT or DISMOUNT (16.1-16.4): at the start of the unit's
// phase, before it moves, not next to the enemy, not dismounting while
// blown; its MA is halved that phase (16.2).
func (m *sim) mount(o *Order) {
	st := m.st
	u := st.unit(o.Unit)
	on := o.Kind == aMount
	switch {
	case !st.isCavalry(u):
		m.fail(o, o.Col, u.Name+" is not cavalry", "")
	case u.Mounted == on:
		m.fail(o, o.Col, fmt.Sprintf("%s is %s already", u.Name, map[bool]string{true: "mounted", false: "dismounted"}[on]), "")
	case u.Moved || u.Fired:
		m.fail(o, o.Col, u.Name+" mounts or dismounts before it moves (16.1)", "")
	case st.enemyAdjacent(u.Hex, u.Side):
		m.fail(o, o.Col, u.Name+" is next to the enemy: it cannot mount or dismount (16.1)", "")
	case !on && u.Blown:
		m.fail(o, o.Col, u.Name+" is blown: it cannot dismount (16.3a)", "")
	}
	// Dismounted it counted as infantry (16.5); mounted, its stack must
	// still be legal (8.1, 8.2): with a foot battery it is not.
	v := *u
	v.Mounted = on
	us := []*Unit{&v}
	for _, w := range st.friendsAt(u.Hex, u.Side) {
		if w.Name != u.Name {
			us = append(us, w)
		}
	}
	if why := st.stackWhy(us); why != "" {
		m.fail(o, o.Col, fmt.Sprintf("%s cannot %s here: %s", u.Name, strings.ToLower(o.Kind), why), "")
	}
	m.emit(kUnitMarked, aUnit.Arg(u.Name), aFlag.Arg("mounted"), aOn.Arg(on))
	m.emit(kUnitMarked, aUnit.Arg(u.Name), aFlag.Arg("switched"), aOn.Arg(true))
	m.say("%s %ss: its MA is halved this phase (16.2).", u.Name, map[bool]string{true: "mount", false: "dismount"}[on])
}

// top puts a unit on top of its stack; it counts as its movement (8.6).
func (m *sim) top(o *Order) {
	st := m.st
	u := st.unit(o.Unit)
	us := st.friendsAt(u.Hex, u.Side)
	if len(us) < 2 || us[0].Name == u.Name {
		m.fail(o, o.Col, u.Name+" is on top of its hex already", "")
	}
	if u.Moved {
		m.fail(o, o.Col, u.Name+" has moved this phase (6.3, 8.6)", "")
	}
	names := []string{u.Name}
	for _, v := range us {
		if v.Name != u.Name {
			names = append(names, v.Name)
		}
	}
	m.emit(kStackSet, aHex.Arg(hexInt(u.Hex)), aUnits.Arg(names...))
	m.emit(kUnitMarked, aUnit.Arg(u.Name), aFlag.Arg("moved"), aOn.Arg(true))
	m.say("%s goes to the top of its stack: that is its movement this phase (8.6).", u.Name)
}

// refuse puts a unit in a Refused formation (R10): it makes no reaction
// facing (7.6); not on March orders (10.7).
func (m *sim) refuse(o *Order) {
	u := m.st.unit(o.Unit)
	if u.Order == March {
		m.fail(o, o.Col, u.Name+" is on March orders: it cannot refuse (10.7)", "")
	}
	m.emit(kUnitMarked, aUnit.Arg(u.Name), aFlag.Arg("refused"), aOn.Arg(true))
	m.say("%s refuses its flank.", u.Name)
}
