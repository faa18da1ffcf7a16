package hra

import (
	"errors"
	"fmt"

	"pbem/engine/table"
)

// shot is how a volley would be fired now (HRA 13, T2, T3).
type shot struct {
	Weapon   string
	Short    bool
	Hindered bool
	State    int    // the firer's state for the table (HRA 3g: low when out of supply)
	Mod      int    // die modifier (HRA 16a)
	Why      string // why it is hindered, for the echo
}

// coverGrid is the sampling pitch for how much of a target an obstacle
// covers (T3's one-third rows).
const coverGrid = 5 * table.Millimetre / 2

// canFire decides whether firer may fire a volley at target now, and how
// (HRA 13, 15b, 16a, 17b, T3). melee is fire between units in melee
// (HRA 11d: small arms at short range, H9); defensive is the defender's
// extra volley (HRA 11c). Both follow the normal rules otherwise (HRA
// 11d): the fire arc (13c) and obstacles (T3) hinder them, though nothing
// prevents fire between units in contact.
func (s *State) canFire(f, t *Unit, melee, defensive bool) (shot, error) {
	sh := shot{Weapon: weapon(f), State: f.State}
	if f.Supply <= 0 {
		sh.State = 1 // HRA 3g
	}
	if f.Side == t.Side {
		return sh, fmt.Errorf("%s is a friendly unit", t.Name)
	}
	if f.Removed() || t.Removed() {
		return sh, fmt.Errorf("a removed unit neither fires nor is fired on")
	}
	if f.Retreating || f.Acted {
		return sh, fmt.Errorf("%s is in retreat and can take no action this round (HRA 4.I.c)", f.Name)
	}
	if f.Pending == "dismount" || f.Pending == "mount" {
		return sh, fmt.Errorf("%s is %sing this round (HRA 16c)", f.Name, f.Pending)
	}
	fr, tr := s.footprint(f), s.footprint(t)
	if melee || defensive {
		sh.Weapon = SmallArms
		sh.Short = true
		if f.Arm == Artillery {
			sh.State = 1 // HRA 11g: small arms, as at low state: 1-3 = 0, 4-6 = 1
			return sh, nil
		}
		if f.Column {
			sh.Hindered, sh.Why = true, "in column (HRA 15b)"
		}
		if f.Arm == Cavalry && !melee {
			sh.Mod = -1 // HRA 16a: not in melee
		}
		if !fr.Arc(fireSpread).WithinAtLeast(tr, maxRange(SmallArms), 1, 3) {
			sh.hinder("outside the front arc (HRA 13c)")
		}
		if why := s.obstacles(f, t, fr, tr, &sh); why != "" {
			sh.hinder(why) // in contact nothing prevents the fire (HRA 11d)
		}
		return sh, nil
	}
	if f.Arm == Artillery && (f.Limbered || f.Pending == "limber") {
		if f.Pending == "limber" {
			return sh, fmt.Errorf("%s is limbering this round and cannot fire (HRA 17b; T1: limbering takes the round)", f.Name)
		}
		return sh, fmt.Errorf("%s is limbered and cannot fire (HRA 17b)", f.Name)
	}
	if f.Column {
		return sh, fmt.Errorf("%s is in column and cannot fire on its own initiative (HRA 15b)", f.Name)
	}
	if s.inMelee(f.Name) {
		return sh, fmt.Errorf("%s is in melee and fights there (HRA 4.III.a)", f.Name)
	}
	if f.Arm == Cavalry && !(f.Dismounted && s.Scn.DismountedFireAsInfantry) {
		sh.Mod = -1 // HRA 16a; dismounted too, unless the scenario says otherwise (H15)
	}
	// HRA 13b: at least a third of the target within range of the base's
	// edge, measured exactly.
	if !fr.WithinAtLeast(tr, maxRange(sh.Weapon), 1, 3) {
		return sh, fmt.Errorf("%s is out of range of %s (%s: %s; a third of the target must be within, HRA 13b)", t.Name, f.Name, sh.Weapon, cmText(maxRange(sh.Weapon)))
	}
	sh.Short = fr.WithinAtLeast(tr, shortRange(sh.Weapon), 1, 3) // H20
	// HRA 13c/13d: the fire arc, a third of the target in it and in range.
	if !fr.Arc(fireSpread).WithinAtLeast(tr, maxRange(sh.Weapon), 1, 3) {
		if sh.Weapon == Guns {
			return sh, fmt.Errorf("%s is outside the battery's arc (HRA 13d)", t.Name)
		}
		sh.Hindered, sh.Why = true, "outside the front arc (HRA 13c)"
	}
	if why := s.obstacles(f, t, fr, tr, &sh); why != "" {
		return sh, errors.New(why)
	}
	return sh, nil
}

func (sh *shot) hinder(why string) {
	if !sh.Hindered {
		sh.Hindered, sh.Why = true, why
	}
}

// obstacles applies HRA 13e and T3 (with ambiguity H13) to the line of fire,
// taken from the middle of the firer's front to the target's centre: it
// hinders sh, or returns why the fire is prevented.
func (s *State) obstacles(f, t *Unit, fr, tr table.Rect, sh *shot) string {
	guns := sh.Weapon == Guns
	from, to := fr.Front, tr.Centre()
	line := table.Seg(from, to)
	// Woods: target in the woods hinders; woods between prevent small arms
	// and hinder artillery (H13).
	if s.inArea(to, Woods) {
		sh.hinder("target in woods (T3)")
	}
	for _, w := range s.terrain(Woods) {
		if w.Poly.Contains(to) || w.Poly.Contains(from) {
			continue
		}
		if w.Poly.LengthInside(line) > 0 {
			if !guns {
				return fmt.Sprintf("%s is behind %s: small-arms fire is prevented (T3)", t.Name, w.Name)
			}
			sh.hinder("target behind woods (T3)")
		}
	}
	// Fences, walls and redoubts protect only targets directly behind them
	// (T3): the line of fire crosses the feature within 2 cm of the target.
	behind := func(pl table.Polyline) bool {
		if !pl.IntersectsSegment(line) {
			return false
		}
		for _, sg := range pl.Segments() {
			for i := range 4 {
				c := tr.Corners()
				if table.SegmentDistance(sg, table.Seg(c[i], c[(i+1)%4])) <= table.CM(2) {
					return true
				}
			}
		}
		return false
	}
	for _, k := range []string{Fence, Wall} {
		for _, o := range s.terrain(k) {
			if !guns && behind(o.Path) {
				sh.hinder("target behind " + o.Name + " (T3)")
			}
		}
	}
	redoubt := t.Entrenched // an entrenched unit counts as behind a redoubt (R5, see doc.go)
	for _, o := range s.terrain(Redoubt) {
		redoubt = redoubt || behind(o.Path)
	}
	if redoubt && (!guns || sh.Short) {
		sh.hinder("target behind a redoubt or entrenched (T3)")
	}
	// Buildings, units and hills (H13) covering part of the target.
	var blocks []func(table.Segment) bool
	for _, b := range s.Scn.Terrain {
		if b.Kind != Building && b.Kind != Hill {
			continue
		}
		pg := b.Poly
		if b.Kind == Hill && (pg.Contains(from) || pg.Contains(to)) {
			continue // fire from or onto the hill is not masked by it
		}
		blocks = append(blocks, func(sg table.Segment) bool { return pg.LengthInside(sg) > 0 })
	}
	for i := range s.Units {
		o := &s.Units[i]
		if o.Removed() || o.Name == f.Name || o.Name == t.Name {
			continue
		}
		or := s.footprint(o)
		if or.DistanceTo(from) > table.Distance(from, to)+table.CM(7) {
			continue
		}
		pg := or.Polygon()
		blocks = append(blocks, func(sg table.Segment) bool { return pg.LengthInside(sg) > 0 })
	}
	if len(blocks) == 0 {
		return ""
	}
	cov := table.SampleFraction(tr, coverGrid, func(p table.Point) bool {
		sg := table.Seg(from, p)
		for _, b := range blocks {
			if b(sg) {
				return true
			}
		}
		return false
	})
	switch {
	case cov.Num == 0:
	case cov.Num == cov.Den: // the whole target
		if !guns || sh.Short {
			return fmt.Sprintf("%s is wholly covered (T3)", t.Name)
		}
		sh.hinder("target wholly covered, long range (T3)")
	case cov.AtLeast(1, 3) && cov.Num*3 != cov.Den: // more than a third
		if !guns {
			return fmt.Sprintf("more than a third of %s is covered: small-arms fire is prevented (T3)", t.Name)
		}
		sh.hinder("more than a third of the target covered (T3)")
	default: // at most a third
		if !guns {
			sh.hinder("up to a third of the target covered (T3)")
		}
	}
	return ""
}

// flankOrRear reports whether f fires on t from its flank or rear (HRA
// 12a c): less than a third of f's base lies in t's front arc (the fire
// arc of HRA 13c, read as H3), measured exactly as the one-third rule of
// HRA 13b. A unit in contact front to front but offset is in front.
func (s *State) flankOrRear(f, t *Unit) bool {
	return !s.footprint(t).Arc(fireSpread).WithinAtLeast(s.footprint(f), table.CM(100), 1, 3)
}
