package gcacw

import (
	"pbem/engine/hex"
)

// ZOC is the kind of zone of control a unit exerts into a hex.
type ZOC int

// Kinds of ZOC, weakest first.
const (
	NoZOC         ZOC = iota
	RestrictedZOC     // GCACW 2.4e
	NormalZOC
)

func (z ZOC) String() string {
	switch z {
	case RestrictedZOC:
		return "restricted"
	case NormalZOC:
		return "normal"
	}
	return "none"
}

// zocInto returns the ZOC a military unit in hex u exerts into the hex h
// (GCACW 2.4f, the derived algorithm of 2.4a-e). It does not look at the
// units: any military unit exerts it, whatever its status (2.4a).
func (m *Map) zocInto(u, h hex.Hex, provisionalSwamp bool) ZOC {
	side, err := hex.Between(u, h)
	if err != nil || !m.OnMap(h) {
		return NoZOC
	}
	// GCACW 2.4b: not across a major or minor river, except through a ford,
	// dam, ferry or bridge.
	if m.River(side) && !m.RiverCrossing(side) {
		return NoZOC
	}
	// GCACW 2.4d: never into water.
	t := m.Terrain(h)
	if t == Water {
		return NoZOC
	}
	connected := len(m.RoutesAcross(side)) > 0
	// GCACW 2.4c: into swamp and mountain only along a road, pike, railroad
	// or trail (provisional swamp too if the scenario says so: A20).
	if (t == Swamp || t == Mountain || t == ProvisionalSwamp && provisionalSwamp) && !connected {
		return NoZOC
	}
	// GCACW 2.4e: across a woods hexside (2.3h) with no route, Restricted.
	if m.WoodsHexside(side) && !connected {
		return RestrictedZOC
	}
	return NormalZOC
}

// ZOCOf returns the ZOC the units of side exert into h: the strongest
// exerted by any of them (GCACW 2.4a). Leaders exert none.
func (s *State) ZOCOf(side string, h hex.Hex) ZOC {
	best := NoZOC
	for _, n := range h.Neighbors() {
		if !s.hasFriend(side, n) {
			continue
		}
		if z := s.Scn.Map.zocInto(n, h, s.Scn.provisionalSwampBlocksZOC()); z > best {
			best = z
		}
	}
	return best
}

// zocMap returns the ZOC the units of side exert, by hex (ZOCOf for every
// hex at once, for drawing a board). It is only looked up, never iterated.
func (s *State) zocMap(side string) map[hex.Hex]ZOC {
	out := map[hex.Hex]ZOC{}
	prov := s.Scn.provisionalSwampBlocksZOC()
	for _, u := range s.live() {
		if u.Side != side {
			continue
		}
		for _, n := range u.Hex.Neighbors() {
			if z := s.Scn.Map.zocInto(u.Hex, n, prov); z > out[n] {
				out[n] = z
			}
		}
	}
	return out
}

// inEnemyZOC reports whether h is in the ZOC (normal or Restricted) of
// side's enemy.
func (s *State) inEnemyZOC(side string, h hex.Hex) bool {
	return s.ZOCOf(opponent(side), h) != NoZOC
}

// CommandRadius returns the hexes within a command radius of the leader's
// hex for side (GCACW 2.5a-g; 2.5b: three hexes): a path of at most three hexes from the leader
// (not counted) to the unit (counted), whatever the terrain (2.5c), never
// entering a hex with an enemy unit or in enemy ZOC, Restricted included
// (2.5d), unless a friendly unit is there (2.5e); the leader's own hex is
// inside (2.5f). Partial hexes are off the map (2.3e) and are not entered.
func (s *State) CommandRadius(side string, from hex.Hex) *hex.Reach {
	r, _ := hex.Reachable(from, 3, func(_, to hex.Hex) (int, bool) {
		if !s.Scn.Map.OnMap(to) || s.hasEnemy(side, to) {
			return 0, false
		}
		if s.inEnemyZOC(side, to) && !s.hasFriend(side, to) {
			return 0, false
		}
		return 1, true
	})
	return r
}

// inRadius reports whether unit u is within the command radius of leader
// l (GCACW 2.5a: traced by the leader, from its hex, to the unit; 2.5g).
func (s *State) inRadius(l *Leader, u *Unit) bool { return s.radiusOf(l).contains(u) }

// radiusOf is leader l's command radius, traced once, when first asked,
// for a caller that asks about many units (a prompt's example, the
// leader's eligibility); l and the state must not change meanwhile.
func (s *State) radiusOf(l *Leader) *leaderRadius { return &leaderRadius{s: s, l: l} }

// leaderRadius is a leader's command radius traced at most once (radiusOf).
type leaderRadius struct {
	s      *State
	l      *Leader
	traced bool
	reach  *hex.Reach // nil: the leader has no unit to stand with
}

// contains is inRadius for the leader's radius.
func (r *leaderRadius) contains(u *Unit) bool {
	if u.Eliminated {
		return false
	}
	if !r.traced {
		r.traced = true
		if lh, ok := r.s.leaderHex(r.l); ok {
			r.reach = r.s.CommandRadius(r.l.Side, lh)
		}
	}
	return r.reach != nil && r.reach.Contains(u.Hex)
}
