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

// roadMove moves a unit along the road it stands on (T1: road modifier),
// dist along it, or to the road point nearest to a place. The unit must
// stand with the middle of its front within 2 cm of the road; it follows
// the road the way it faces, turning with it at no cost.
func (s *State) roadMove(u *Unit, dist table.Length, to *table.Point, dc *dicer) (moved, error) {
	m := moved{Column: u.Column, Allowance: s.allowance(u) + roadBonus(u.Arm)}
	if u.Arm == Artillery && !u.Limbered {
		return m, fmt.Errorf("an unlimbered battery cannot move (HRA 17a)")
	}
	r := s.footprint(u)
	// The road and the point on it.
	var path table.Polyline
	best := table.CM(2) + 1
	var at table.Point
	seg0 := 0
	for _, t := range s.terrain(Road) {
		for i, sg := range t.Path.Segments() {
			if d := sg.DistanceTo(r.Front); d < best {
				best, path, seg0, at = d, t.Path, i, project(sg, r.Front)
			}
		}
	}
	if path == nil {
		return m, fmt.Errorf("%s is not on a road (the middle of its front must be within 2 cm of one)", u.Name)
	}
	// Walk the way the unit faces.
	pts := []table.Point(path)
	segs := path.Segments()
	fwd := table.Turn(r.Facing, table.Bearing(segs[seg0].A, segs[seg0].B)).Abs() <= 90*table.Degree
	var route []table.Point
	route = append(route, at)
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
		return m, fmt.Errorf("nothing to march")
	}
	if dist > m.Allowance {
		return m, fmt.Errorf("%v along the road is more than %s's %v this round (T1: move + road modifier)", dist, u.Name, m.Allowance)
	}
	// Build the moves: onto the road, then along it.
	cur := table.Base(at, r.Width, r.Depth, r.Facing)
	left := dist
	for i := 0; i+1 < len(route) && left > 0; i++ {
		sg := table.Seg(route[i], route[i+1])
		l := sg.Len()
		if l == 0 {
			continue
		}
		nr := cur.PivotFront(table.Turn(cur.Facing, table.Bearing(sg.A, sg.B)))
		if err := s.checkTurn(u, cur, nr, step{Kind: stTurn}); err != nil && i > 0 {
			return m, err
		}
		cur = nr
		d := min(l, left)
		var err error
		tmp := moved{Allowance: m.Allowance}
		if cur, err = s.advance(u, cur, d, &tmp, 0, true, dc); err != nil {
			return m, err
		}
		m.Notes = append(m.Notes, tmp.Notes...)
		if tmp.Through != "" {
			return m, fmt.Errorf("a road march does not pass through %s", tmp.Through)
		}
		if tmp.Busy > 0 {
			// T1: a ford or river crossing takes the unit's round; as in a
			// march it must be the unit's only move.
			if i > 0 || left > d {
				return m, fmt.Errorf("crossing a ford or river takes the unit's whole round: march along the road only to the far bank (T1)")
			}
			m.Busy, m.Work = tmp.Busy, tmp.Work
			left = 0
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
		return m, fmt.Errorf("the road ends %v short", left)
	}
	m.Cost = dist - left
	if m.Busy > 0 {
		m.Cost = m.Allowance
	}
	m.Rect = cur
	return m, nil
}
