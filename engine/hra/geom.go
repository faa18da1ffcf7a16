package hra

import (
	"pbem/engine/table"
)

// Base sizes (HRA 2a-2c).
var (
	infantryWidth = table.MM(65)
	cavalryWidth  = table.MM(35)
	batteryWidth  = table.CM(3)
	gunDepth      = table.CM(1)
	crewDepth     = table.MM(5)
	limberDepth   = table.CM(2)
)

// fireSpread is the fire arc of HRA 13c/13d as read in ambiguity H3: a ray
// from each front corner at 135° to the front edge (45° out from ahead).
const fireSpread = 45 * table.Degree

// footprint is the rectangle a unit covers: its bases together (H2: a
// regiment's three bases ranked one behind another; a battery's guns, crew
// and limbers one row behind another, HRA 2c, 17d).
func (s *State) footprint(u *Unit) table.Rect {
	return footprintAt(s.Scn, u, u.Front, u.Facing)
}

func footprintAt(sc *ScenarioDef, u *Unit, front table.Point, facing table.Angle) table.Rect {
	w, d := unitSize(sc, u)
	return table.Base(front, w, d, facing)
}

func unitSize(sc *ScenarioDef, u *Unit) (w, d table.Length) {
	switch u.Arm {
	case Cavalry:
		w, d = cavalryWidth, sc.RegimentDepth
		if u.Dismounted {
			d = sc.DismountedDepth + sc.HorsesDepth
		}
	case Artillery:
		w, d = batteryWidth, gunDepth+crewDepth+limberDepth
	default:
		w, d = infantryWidth, sc.RegimentDepth
		if u.Column {
			// HRA 15a: in column a side of the regiment is its front.
			w, d = d, w
		}
	}
	return w, d
}

// bases are the unit's bases as drawn (HRA 2a-2c, 16c, 17d).
func (s *State) bases(u *Unit) []table.Rect {
	r := s.footprint(u)
	sc := s.Scn
	var out []table.Rect
	row := func(front table.Point, depth table.Length, n int, width table.Length) {
		// n bases of width side by side along r's front direction
		full := table.Base(front, r.Width, depth, r.Facing)
		left := full.Corner(table.Left)
		step := full.Corner(table.Right).Sub(left)
		for i := range n {
			num := int64(2*i + 1)
			off := table.Vector{X: table.Length(int64(step.X) * num / int64(2*n)), Y: table.Length(int64(step.Y) * num / int64(2*n))}
			out = append(out, table.Base(left.Add(off), width, depth, r.Facing))
		}
	}
	switch u.Arm {
	case Artillery:
		if u.Limbered {
			row(r.Front, limberDepth, 3, table.CM(1))
			g := r.Forward(-limberDepth)
			row(g.Front, gunDepth, 3, table.CM(1))
			out = append(out, g.Forward(-gunDepth).Shift(table.Vector{}))
			out[len(out)-1].Width, out[len(out)-1].Depth = batteryWidth, crewDepth
		} else {
			row(r.Front, gunDepth, 3, table.CM(1))
			c := r.Forward(-gunDepth)
			c.Depth = crewDepth
			out = append(out, c)
			l := r.Forward(-gunDepth - crewDepth)
			row(l.Front, limberDepth, 3, table.CM(1))
		}
	case Cavalry:
		if u.Dismounted {
			d := r
			d.Depth = sc.DismountedDepth
			h := r.Forward(-sc.DismountedDepth)
			h.Depth = sc.HorsesDepth
			out = append(out, d, h)
		} else {
			third := r.Depth / 3
			for i := range 3 {
				b := r.Forward(-third * table.Length(i))
				b.Depth = third
				out = append(out, b)
			}
		}
	default:
		if u.Column {
			row(r.Front, r.Depth, 3, r.Width/3)
		} else {
			third := r.Depth / 3
			for i := range 3 {
				b := r.Forward(-third * table.Length(i))
				b.Depth = third
				out = append(out, b)
			}
		}
	}
	return out
}

// terrain returns the scenario's features of kind.
func (s *State) terrain(kind string) []Terrain {
	var out []Terrain
	for _, t := range s.Scn.Terrain {
		if t.Kind == kind {
			out = append(out, t)
		}
	}
	return out
}

// inArea reports whether p is inside an area of one of the kinds.
func (s *State) inArea(p table.Point, kinds ...string) bool {
	for _, t := range s.Scn.Terrain {
		if t.Poly != nil && contains(kinds, t.Kind) && t.Poly.Contains(p) {
			return true
		}
	}
	return false
}

// lengthIn is how much of seg lies inside areas of the kinds.
func (s *State) lengthIn(seg table.Segment, kinds ...string) table.Length {
	var n table.Length
	for _, t := range s.Scn.Terrain {
		if t.Poly != nil && contains(kinds, t.Kind) {
			n += t.Poly.LengthInside(seg)
		}
	}
	return n
}

// onTable reports whether a base lies wholly on the table.
func (s *State) onTable(r table.Rect) bool {
	for _, c := range r.Corners() {
		if c.X < 0 || c.Y < 0 || c.X > s.Scn.Width || c.Y > s.Scn.Height {
			return false
		}
	}
	return true
}

// others returns the units on the table other than u, friends or enemies.
func (s *State) others(u *Unit, enemies bool) []*Unit {
	var out []*Unit
	for i := range s.Units {
		o := &s.Units[i]
		if o.Name == u.Name || o.Removed() || (o.Side != u.Side) != enemies {
			continue
		}
		out = append(out, o)
	}
	return out
}

// weapon is what a unit fires with (HRA 13a, 17b): unlimbered artillery
// fires guns; everything else small arms.
func weapon(u *Unit) string {
	if u.Arm == Artillery && !u.Limbered {
		return Guns
	}
	return SmallArms
}

// enemyShort is the short range of an enemy unit (H11): 10 cm for an
// unlimbered battery, 5 cm otherwise.
func enemyShort(u *Unit) table.Length { return shortRange(weapon(u)) }

// underEnemyShortRange reports whether u is within the short range of an
// enemy unit (HRA 4.II.e).
func (s *State) underEnemyShortRange(u *Unit) bool {
	r := s.footprint(u)
	for _, e := range s.others(u, true) {
		if table.Within(s.footprint(e), r, enemyShort(e)) {
			return true
		}
	}
	return false
}

// cavTarget: mounted cavalry is a cavalry target; dismounted cavalry counts
// as infantry (HRA 16d); everything else is in the infantry/artillery
// column (HRA T2).
func cavTarget(u *Unit) bool { return u.Arm == Cavalry && !u.Dismounted }
