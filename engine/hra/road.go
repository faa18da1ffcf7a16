package hra

import (
	"fmt"

	"pbem/engine/table"
)

// project returns the point of seg nearest p.
func project(seg table.Segment, p table.Point) table.Point {
	v := seg.Vec()
	l2 := v.Len2()
	if l2 == 0 {
		return seg.A
	}
	t := p.Sub(seg.A).Dot(v)
	t = max(0, min(t, l2))
	return seg.A.Add(table.Vector{X: table.Length(int64(v.X) * t / l2), Y: table.Length(int64(v.Y) * t / l2)})
}

// roadMove is a march along a road (T1: road modifier), dist along it, or
// to the road point nearest to a place. The seed does not ask a road
// march to start on the road: a unit off it first moves to the nearest
// point of the nearest road (turning to face it, charged as any march),
// then follows the road the way it faced, turning with the road about the
// middle of its front at no cost; the whole march has the modifier.
func (s *State) roadMove(u *Unit, dist table.Length, to *table.Point, dc *dicer, col int) (moved, error) {
	m := moved{Column: u.Column, Allowance: s.allowance(u) + roadBonus(u.Arm)}
	if u.Arm == Artillery && !u.Limbered {
		return m, errAt(col, "an unlimbered battery cannot move (HRA 17a)")
	}
	r := s.footprint(u)
	// The nearest road and the point on it.
	var path table.Polyline
	var best table.Length = -1
	var at table.Point
	seg0 := 0
	for _, t := range s.terrain(Road) {
		for i, sg := range t.Path.Segments() {
			if d := sg.DistanceTo(r.Front); best < 0 || d < best {
				best, path, seg0, at = d, t.Path, i, project(sg, r.Front)
			}
		}
	}
	if path == nil {
		return m, errAt(col, "there is no road on this table")
	}
	// Walk the way the unit faces.
	pts := []table.Point(path)
	segs := path.Segments()
	fwd := table.Turn(r.Facing, table.Bearing(segs[seg0].A, segs[seg0].B)).Abs() <= 90*table.Degree
	route := []table.Point{at}
	if fwd {
		route = append(route, pts[seg0+1:]...)
	} else {
		for i := seg0; i >= 0; i-- {
			route = append(route, pts[i])
		}
	}
	if to != nil {
		// Distance along the route to the route point nearest the place.
		bd, acc := table.Length(-1), table.Length(0)
		var bestD table.Length
		for i := 0; i+1 < len(route); i++ {
			sg := table.Seg(route[i], route[i+1])
			p := project(sg, *to)
			if d := table.Distance(p, *to); bd < 0 || d < bd {
				bd, bestD = d, acc+table.Distance(route[i], p)
			}
			acc += sg.Len()
		}
		dist = bestD
	}
	if dist <= 0 {
		return m, errAt(col, "nothing to march")
	}
	// Onto the road first, if the unit is off it.
	cur := r
	if best > 0 {
		var err error
		if cur, err = s.walk(u, r, []step{{Kind: stMoveTo, To: at, Name: "the road", Col: col}}, &m, dc); err != nil {
			return m, err
		}
		if m.Contact != "" || m.Busy > 0 || m.Through != "" {
			m.Rect = cur
			return m, s.settle(u, &m, nil)
		}
		cur = table.Base(at, cur.Width, cur.Depth, cur.Facing)
	}
	if m.Cost+dist > m.Allowance {
		return m, errAt(col, "%s along the road%s is more than %s's %s this round (T1: move + road modifier)",
			cmText(dist), map[bool]string{true: " after " + cmText(m.Cost) + " to reach it", false: ""}[m.Cost > 0], u.Name, cmText(m.Allowance))
	}
	// Along it.
	left := dist
	for i := 0; i+1 < len(route) && left > 0; i++ {
		sg := table.Seg(route[i], route[i+1])
		l := sg.Len()
		if l == 0 {
			continue
		}
		a := table.Turn(cur.Facing, table.Bearing(sg.A, sg.B))
		if err := s.checkSweep(u, cur, table.PivotFrontMove(a), true); err != nil && (i > 0 || best > 0) {
			return m, errAt(col, "%v", err)
		}
		if i == 0 && best > 0 {
			// Having marched to the road, it turns onto it: a rotation
			// (HRA 9c); the road's own bends are followed at no cost.
			m.charge(costItem{What: fmt.Sprintf("turn (onto the road, %v)", a.Abs()), Cost: s.rotationCost(a.Abs(), false), Col: col})
		}
		cur = cur.PivotFront(a)
		d := min(l, left)
		var err error
		tmp := moved{Allowance: m.Allowance, Cost: m.Cost + dist - left}
		if cur, err = s.advance(u, cur, d, &tmp, true, col, dc); err != nil {
			return m, err
		}
		m.Notes = append(m.Notes, tmp.Notes...)
		if tmp.Through != "" {
			return m, errAt(col, "a road march does not pass through %s", tmp.Through)
		}
		if tmp.Busy > 0 {
			// T1: a ford or river crossing takes the rest of the unit's
			// round, as in a march.
			if left > d {
				return m, errAt(col, "crossing a ford or river takes the rest of the unit's round: march along the road only to the far bank (T1)")
			}
			m.Busy, m.Work = tmp.Busy, tmp.Work
			left -= d
			break
		}
		if tmp.Contact != "" {
			m.Contact = tmp.Contact
			left -= d
			break
		}
		left -= d
	}
	if left > 0 && m.Contact == "" {
		return m, errAt(col, "the road ends %s short", cmText(left))
	}
	m.charge(costItem{What: "along the road", Cost: dist - left, Col: col})
	m.Rect = cur
	return m, s.settle(u, &m, nil)
}
