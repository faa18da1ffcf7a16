package gmb

import (
	"fmt"
	"slices"
	"strings"

	"pbem/engine"
	"pbem/engine/table"
)

// Sealed steps: every side chooses without seeing the others' choice
// until all have (the runtime's sealed orders).
const (
	SealDeclare = "battlefield declaration" // 13.7b, 13.8d, G9
	SealCavalry = "cavalry tactics"         // 13.13c
	SealPatrol  = "patrol markers"          // 13.14
)

// stepWhat is one line saying what the game waits for.
func stepWhat(st *State) string {
	switch st.Step {
	case StepTable:
		return "choose the table size (13.1)"
	case StepYear:
		if st.Scn.Year == -1 {
			return "the referee chooses the year of the battle (13.4a)"
		}
		return "say the year of your army (13.4)"
	case StepDraw:
		return "draw your opponent's generals, openly (13.5a)"
	case StepGenerals:
		return "redraw, assign and confirm your generals (13.5g-h)"
	case StepCards:
		return "keep 3 of your battle cards (13.6a)"
	case StepDeclare:
		return "declare your battlefield and any forced march, sealed (13.7b, 13.8d)"
	case StepList:
		return "choose whose terrain list is used (13.10c)"
	case StepLinear:
		return fmt.Sprintf("place linear terrain or pass; %d left in the pool (13.10h-j)", st.Pool)
	case StepBridges:
		return fmt.Sprintf("place %s on the river (13.10q)", plural(st.BridgesDue, "bridge", "bridges"))
	case StepNormal:
		return "place a piece of normal terrain (13.10k)"
	case StepFences:
		return fmt.Sprintf("place a fence or wall or pass; %d left in the pool (13.10p)", st.Pool)
	case StepSpecial:
		return "place or move special terrain, or say DONE (13.10l)"
	case StepSwap:
		return "swap two terrain pieces, or not (13.7f)"
	case StepFortify:
		return "place a section of field fortifications, or say DONE (13.10m)"
	case StepTactic:
		return "choose your army tactic, in secret (13.12)"
	case StepCavalry:
		return "choose your cavalry tactic, sealed (13.13)"
	case StepPatrol:
		return "place your corps' patrol markers, sealed (13.14): PATROL AT x,y … gives one a corps in your army list's order"
	case StepInitiative:
		return "the referee says who wins the tied initiative roll"
	case StepActivate:
		return fmt.Sprintf("turn %d: activate a corps, or pass", st.Turn)
	case StepCombat:
		return fmt.Sprintf("the referee rules %s's attacks and combat (7.1b)", st.Active)
	case StepMove:
		return fmt.Sprintf("turn %d: move the units of %s (7.1b)", st.Turn, st.Active)
	case StepPassage:
		if st.Scn.Option("passage-order") == "initiative" {
			if st.ToAct != st.Initiative {
				return fmt.Sprintf("turn %d, reorganization: declare your passages of lines, or NONE; %s, who has the initiative, orders them (7.6, 7.6i)", st.Turn, st.Initiative)
			}
			if len(st.Pending) > 0 {
				var ps []string
				for i := 0; i+1 < len(st.Pending); i += 2 {
					ps = append(ps, "PASSAGE "+st.Pending[i]+" AND "+st.Pending[i+1])
				}
				return fmt.Sprintf("turn %d, reorganization: order every passage of lines, yours and those %s declared (%s), or NONE: the ones you leave out come after yours (7.6i)", st.Turn, st.other(st.Initiative), strings.Join(ps, "; "))
			}
		}
		return fmt.Sprintf("turn %d, reorganization: passages of lines, or NONE (7.6)", st.Turn)
	case StepEnd:
		return "the referee scores the objectives and ends the battle (13.12c; " + st.quarters() + ", 13.12e)"
	}
	return "nothing: the battle is over"
}

// prompts says who must act now.
func prompts(st *State) []engine.Prompt {
	if st.Step == StepOver {
		return nil
	}
	what := stepWhat(st)
	switch st.Step {
	case StepCombat:
		return []engine.Prompt{{Referee: true, What: what, Examples: []string{"COMBAT DONE", "SET <unit> ENGAGED on", "FORCE <unit> BACK PUSH-BACK"}}}
	case StepEnd:
		return []engine.Prompt{{Referee: true, What: what, Examples: []string{"SCORE", "OBJECTIVES " + st.Sides[0].Name + " 1 2"}}}
	case StepInitiative:
		return []engine.Prompt{{Referee: true, What: what, Examples: []string{"INITIATIVE " + st.Sides[0].Name, "INITIATIVE " + st.Sides[1].Name}}}
	case StepYear:
		if st.Scn.Year == -1 {
			return []engine.Prompt{{Referee: true, What: what, Examples: []string{"YEAR 1863"}}}
		}
	}
	seal := ""
	switch st.Step {
	case StepDeclare:
		if st.Scn.Option("declaration") == "sealed" {
			seal = SealDeclare
		}
	case StepCavalry:
		seal = SealCavalry
	case StepPatrol:
		seal = SealPatrol
	}
	var out []engine.Prompt
	for _, side := range actors(st) {
		w := what
		if notes := stepNotes(st, side); len(notes) > 0 {
			w += ". " + strings.Join(notes, " ")
		}
		out = append(out, engine.Prompt{Side: side, What: w, Examples: examples(st, side), Sealed: seal})
	}
	return out
}

func (m *sim) example(side string) string {
	if ex := examples(m.State, side); len(ex) > 0 {
		return ex[0]
	}
	return "HELP says what you may send now"
}

func (m *sim) placeExample(side string) string { return placeExample(m.State, side) }

func (m *sim) moveExample(u *Unit) string { return moveExample(m.State, u) }

// examples are orders Decide would accept now from side, best first.
func examples(st *State, side string) []string {
	sd := st.side(side)
	switch st.Step {
	case StepTable:
		ex := []string{"TABLE " + recommended(st.Scn)}
		for _, g := range st.Scn.Tables {
			if g.Size != recommended(st.Scn) {
				ex = append(ex, "TABLE "+g.Size)
			}
		}
		return ex
	case StepYear:
		a := st.Scn.Army(side)
		y, _ := earliest(a)
		return []string{fmt.Sprintf("YEAR %d", max(y, a.Year))}
	case StepDraw:
		return []string{"DEAL GENERALS"}
	case StepGenerals:
		if sd.Redrawn != "" {
			ex := []string{"DISCARD"}
			for _, g := range st.Generals {
				if g.Side == side && g.Group == sd.RedrawGroup && g.Formation != "" {
					ex = append(ex, "SWAP "+g.Name)
					break
				}
			}
			return ex
		}
		ex := []string{"DONE"}
		for _, grp := range sd.Groups {
			if len(grp.Formations) >= 2 {
				if g := st.generalOf(side, grp.Formations[0]); g != nil {
					ex = append(ex, fmt.Sprintf("ASSIGN %s TO %s", g.Name, grp.Formations[1]))
					break
				}
			}
		}
		if sd.Redraws > 0 {
			for _, grp := range sd.Groups {
				if len(grp.SetAside) > 0 {
					ex = append(ex, "REDRAW "+grp.Name)
					break
				}
			}
		}
		return ex
	case StepCards:
		if len(sd.Drawn5) >= 3 {
			// An example is sent as it stands (not wrapped, so it can be
			// copied): three long card names would overrun a 78-column
			// mail, so then it names them by their numbers on the board.
			if ex := "KEEP " + strings.Join(sd.Drawn5[:3], ", "); len([]rune(ex)) <= maxExample {
				return []string{ex}
			}
			return []string{"KEEP 1, 2, 3"}
		}
	case StepDeclare:
		return []string{"BATTLEFIELD NEUTRAL", "BATTLEFIELD OFFENSIVE", "BATTLEFIELD DEFENSIVE FORCED MARCH"}
	case StepList:
		return []string{"LIST TYPICAL", "LIST MINE", "LIST " + st.other(side)}
	case StepLinear:
		return linearExamples(st, side)
	case StepBridges:
		return []string{bridgeExample(st)}
	case StepNormal:
		if ex := placeExample(st, side); ex != "" {
			return []string{ex}
		}
		return []string{"PASS"}
	case StepFences:
		var ex []string
		try := func(text string) {
			os, probs := parseOrders(st, side, text)
			if len(probs) == 0 {
				pc, why := st.fenceAlong(side, os[0])
				if why == "" && !st.duplicate(Fence, pc.Path) && !st.duplicate(Wall, pc.Path) {
					ex = append(ex, text)
				}
			}
		}
		for _, p := range st.Pieces {
			if p.By != side || len(ex) >= 2 {
				continue
			}
			switch p.Kind {
			case Road, Railway:
				try("FENCE ALONG " + p.ID)
			case Rough:
				for e := 1; e <= len(p.Poly) && len(ex) < 2; e++ {
					try(fmt.Sprintf("WALL ALONG %s EDGE %d", p.ID, e))
				}
			}
		}
		return append(ex, "PASS")
	case StepSpecial:
		var ex []string
		for _, g := range st.grants(side) {
			if g == "move" {
				if e := moveTerrainExample(st, side); e != "" {
					ex = append(ex, e)
				}
			} else if e := searchPlace(st, side, g, false); e != "" {
				ex = append(ex, e)
			}
		}
		return append(ex, "DONE")
	case StepSwap:
		var ex []string
		for i := range st.Pieces {
			for j := i + 1; j < len(st.Pieces) && len(ex) == 0; j++ {
				a, b := &st.Pieces[i], &st.Pieces[j]
				if a.Kind != b.Kind && st.checkSwap(side, a, b) == "" {
					ex = append(ex, fmt.Sprintf("SWAP %s WITH %s", a.ID, b.ID))
				}
			}
		}
		return append(ex, "NO SWAP")
	case StepFortify:
		var ex []string
		if e := fortExample(st, side); e != "" {
			ex = append(ex, e)
		}
		return append(ex, "DONE")
	case StepTactic:
		return []string{"TACTIC NEUTRAL", "TACTIC CAUTIOUS", "TACTIC AGGRESSIVE"}
	case StepCavalry:
		var ex []string
		for _, t := range st.Scn.CavTactics {
			ex = append(ex, "CAVALRY "+t.Name)
		}
		return ex
	case StepPatrol:
		return []string{patrolExample(st, side)}
	case StepActivate:
		var ex []string
		for _, c := range st.corpsLeft(side) {
			ex = append(ex, "ACTIVATE "+c)
		}
		return append(ex, "PASS")
	case StepMove:
		var ex []string
		for i := range st.Units {
			u := &st.Units[i]
			if u.Side == side && u.Corps == st.Active && u.Placed && !u.Removed {
				if e := moveExample(st, u); !strings.HasSuffix(e, "HOLD") {
					ex = append(ex, e)
				}
			}
		}
		// As many units' moves in one example as fit a mail's line.
		if len(ex) > 1 {
			all := ex[0]
			for _, e := range ex[1:] {
				if len(all)+2+len(e) <= table.MailWidth-4 {
					all += "; " + e
				}
			}
			if all != ex[0] {
				ex = append([]string{all}, ex...)
			}
		}
		return append(ex, "DONE")
	case StepPassage:
		var ex []string
		for i := range st.Units {
			for j := i + 1; j < len(st.Units) && len(ex) == 0; j++ {
				a, b := &st.Units[i], &st.Units[j]
				if a.Side == side && b.Side == side {
					if _, _, why := st.passage(a, b); why == "" {
						ex = append(ex, fmt.Sprintf("PASSAGE %s AND %s", a.Name, b.Name))
					}
				}
			}
		}
		return append(ex, "NONE")
	}
	return nil
}

// moveExample is a legal move of the unit: as far forward as it may go
// in whole inches up to 6", else HOLD.
func moveExample(st *State, u *Unit) string {
	for _, d := range []int64{6, 4, 3, 2, 1} {
		o := Order{Steps: []Step{{Kind: "forward", Dist: table.Inch(d)}}}
		if _, why := st.normalMove(u, o); why == "" {
			return fmt.Sprintf("%s: FORWARD %d", u.Name, d)
		}
	}
	return u.Name + ": HOLD"
}

// linearExamples offers a road through the strategic points and a water
// line where the rules allow one.
func linearExamples(st *State, side string) []string {
	var ex []string
	tryRoad := func(words string) bool {
		o, pe := parseLine(st, side, "ROAD "+words)
		if pe != nil {
			return false
		}
		pl, why := st.roadPath(o.Ways)
		if why != "" || st.duplicate(Road, pl) {
			return false
		}
		ex = append(ex, "ROAD "+words)
		return true
	}
	if st.linearLeft(Road) > 0 {
		n := len(st.Points)
		done := false
		for k := 1; k <= n && !done; k++ {
			for _, b := range []string{"BASE B, SP%d, NORTH", "BASE A, SP%d, SOUTH"} {
				if tryRoad(fmt.Sprintf(b, k)) {
					done = true
					break
				}
			}
		}
		for k := 1; k < n && !done; k++ {
			done = tryRoad(fmt.Sprintf("WEST, SP%d, SP%d, EAST", k, k+1))
		}
	}
	for _, kind := range []string{Stream, River} {
		if st.linearLeft(kind) == 0 || kind == River && side != st.PlayerA {
			continue
		}
		if e := waterExample(st, side, kind); e != "" {
			ex = append(ex, e)
		}
	}
	return append(ex, "PASS")
}

// duplicate reports whether a line of the kind runs along pl already
// (either way).
func (s *State) duplicate(kind string, pl table.Polyline) bool {
	rev := slices.Clone(pl)
	slices.Reverse(rev)
	for _, p := range s.Pieces {
		if p.Kind == kind && (slices.Equal(p.Path, pl) || slices.Equal(p.Path, rev)) {
			return true
		}
	}
	return false
}

// waterExample is a straight river or stream from the west edge to the
// east, in the side's half of the table.
func waterExample(st *State, side, kind string) string {
	g := st.geom()
	for _, f := range []int64{5, 7, 4, 8, 3, 9} { // tenths of the table's height
		y := g.Height * table.Length(f) / 10 / table.OneInch * table.OneInch
		if side != st.PlayerA {
			y = g.Height - y
		}
		pts := []table.Point{table.Pt(0, y), table.Pt(g.Width, y)}
		if st.waterLine(side, kind, pts) == "" {
			return fmt.Sprintf("%s %s", strings.ToUpper(kind), fmtPath(pts))
		}
	}
	return ""
}

// bridgeExample places the bridges due evenly along the river.
func bridgeExample(st *State) string {
	var river *Piece
	for i := range st.Pieces {
		if st.Pieces[i].Kind == River {
			river = &st.Pieces[i]
		}
	}
	if river == nil {
		return "BRIDGE x,y"
	}
	l := river.Path.Len()
	n := st.BridgesDue
	for shift := int64(0); shift < 12; shift++ {
		var have []Bridge
		var ps []string
		for k := 1; k <= n; k++ {
			d := l*table.Length(k)/table.Length(n+1) + table.Inch(shift)
			if d > l {
				break
			}
			p := river.Path.Part(0, d)
			at := p[len(p)-1]
			at = table.Pt(at.X/table.OneInch*table.OneInch, at.Y/table.OneInch*table.OneInch)
			got, why := st.checkBridge(at, have)
			if why != "" {
				break
			}
			have = append(have, Bridge{At: got, Over: river.ID})
			ps = append(ps, fmtPt(at))
		}
		if len(have) == n {
			return "BRIDGE " + strings.Join(ps, " ")
		}
	}
	return "BRIDGE x,y"
}

// pieceSizes are the sizes the examples give each kind.
func pieceSize(kind string) (w, d int64) {
	switch kind {
	case Hill:
		return 8, 5
	case BuiltUp:
		return 4, 3
	}
	return 6, 4
}

// placeExample finds a legal place for the next normal piece.
func placeExample(st *State, side string) string {
	for _, e := range st.Left {
		if e.Count == 0 {
			continue
		}
		if ex := searchPlace(st, side, e.Kind, true); ex != "" {
			return ex
		}
	}
	return ""
}

// searchPlace tries centres on a 6" grid, the side's zone first, then
// the neutral zone from its side outwards.
func searchPlace(st *State, side, kind string, normal bool) string {
	w, d := pieceSize(kind)
	lo, hi := st.zoneBand(side, 0)
	mid := (lo + hi) / 2
	var rows []table.Length
	step := table.Inch(6)
	if side == st.PlayerA {
		for y := mid; y > table.Inch(3); y -= step {
			rows = append(rows, y)
		}
	} else {
		for y := mid; y < st.H-table.Inch(3); y += step {
			rows = append(rows, y)
		}
	}
	for _, y := range rows {
		for x := table.Inch(6); x < st.W; x += step {
			o := Order{Verb: "PLACE", Word: kind, W: table.Inch(w), D: table.Inch(d), Pts: []table.Point{table.Pt(x, y)}}
			var why string
			if normal {
				_, why = st.checkNormal(side, o)
			} else {
				pg := piecePoly(o)
				why = st.checkArea(kind, pg)
				if why == "" && table.OverlapConvex(pg, st.zone(st.other(side))) {
					why = "zone"
				}
			}
			if why == "" {
				return fmt.Sprintf("PLACE %s %dx%d AT %s", kind, w, d, fmtPt(table.Pt(x, y)))
			}
		}
	}
	return ""
}

// moveTerrainExample moves one of the pieces 3" along an axis.
func moveTerrainExample(st *State, side string) string {
	for i := range st.Pieces {
		p := &st.Pieces[i]
		if p.Path != nil {
			continue
		}
		c := p.Poly.Centroid()
		for _, v := range []table.Vector{{X: table.Inch(3)}, {X: -table.Inch(3)}, {Y: table.Inch(3)}, {Y: -table.Inch(3)}} {
			to := c.Add(v)
			to = table.Pt(to.X/table.OneInch*table.OneInch, to.Y/table.OneInch*table.OneInch)
			if _, why := st.checkMoveTerrain(side, p, to); why == "" {
				return fmt.Sprintf("MOVE %s TO %s", p.ID, fmtPt(to))
			}
		}
	}
	return ""
}

// fortExample is a section along the side's deployment zone.
func fortExample(st *State, side string) string {
	lo, hi := st.zoneBand(side, 0)
	y := (lo + hi) / 2 / table.OneInch * table.OneInch
	l := st.Scn.FortLength / table.OneInch * table.OneInch
	for x := table.Inch(6); x+l <= st.W; x += table.Inch(6) {
		a, b := table.Pt(x, y), table.Pt(x+l, y)
		if st.checkFort(side, a, b) == "" {
			return fmt.Sprintf("FORTIFY %s %s", fmtPt(a), fmtPt(b))
		}
	}
	return ""
}

// patrolExample spreads the corps' markers along the middle of the
// side's deployment zone.
func patrolExample(st *State, side string) string {
	var corps []string
	for _, g := range st.Scn.Army(side).Groups() {
		if st.hasAny(side, g) {
			corps = append(corps, g)
		}
	}
	lo, hi := st.zoneBand(side, 0)
	var parts, pts []string
	var placed []Unit
	for i, c := range corps {
		found := false
		for _, yy := range []table.Length{(lo + hi) / 2, lo + table.Inch(3), hi - table.Inch(3)} {
			y := yy / table.OneInch * table.OneInch
			for _, dx := range []int64{0, 4, -4, 8, -8, 12, -12} {
				x := st.W*table.Length(i+1)/table.Length(len(corps)+1)/table.OneInch*table.OneInch + table.Inch(dx)
				at := table.Pt(x, y)
				us := st.deployment(side, c, at)
				ok := true
				for _, u := range us {
					r := st.rect(&u)
					if st.standing(&u, r) != "" {
						ok = false
					}
					for _, q := range placed {
						if table.Overlap(r, st.rect(&q)) {
							ok = false
						}
					}
				}
				if ok {
					placed = append(placed, us...)
					parts = append(parts, fmt.Sprintf("%s AT %s", c, fmtPt(at)))
					pts = append(pts, fmtPt(at))
					found = true
					break
				}
			}
			if found {
				break
			}
		}
	}
	if len(pts) == len(corps) {
		return "PATROL AT " + strings.Join(pts, " ") // in the army list's order
	}
	return "PATROL " + strings.Join(parts, ", ")
}

// maxExample is the longest example line that fits a 78-column mail
// indented by four columns, as the prompt prints its examples.
const maxExample = 74
