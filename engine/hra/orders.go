package hra

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pbem/engine"
	"pbem/engine/table"
	"pbem/events"
)

// Order kinds.
const (
	oBegin  = "begin"
	oOrder  = "order"   // <who>: <order> (Phase II)
	oFire   = "fire"    // FIRE <unit> AT <target> (Phase III)
	oNoFire = "no fire" // FIRE NONE
	oSet    = "set"     // referee: SET <name> <field> <value>
	// Priority lists for the players' alternate choices (see doc.go).
	oPick         = "pick"          // PICK <unit>, ... (HRA 4.III.c, Phase III)
	oRetreatOrder = "retreat order" // RETREAT ORDER <unit>, ... (HRA 4.I.b)
	oGenerals     = "generals"      // GENERALS <brigade> [<status>], ... (HRA 3c)
)

// Verbs of a Phase II order (HRA 4.II.c, 4.II.f).
const (
	vMarch    = "march"
	vRoad     = "road"
	vHold     = "hold"
	vRetreat  = "retreat"
	vMount    = "mount"
	vDismount = "dismount"
	vLimber   = "limber"
	vUnlimber = "unlimber"
	vEntrench = "entrench"
	vGeneral  = "general"
)

// Order is one parsed line.
type Order struct {
	Line, Col int
	Text      string
	Kind      string
	Brigade   string   // the brigade the units belong to
	Whole     bool     // the line named the brigade (one order to it all)
	Units     []string // the units ordered, or the firer; PICK's list
	Cols      []int    // each unit's column (for a brigade, the brigade's)
	Verb      string
	VerbCol   int // column of the order's verb
	Steps     []step
	Dist      table.Length // ROAD
	To        *table.Point // ROAD TO
	ToName    string
	Target    string // fire target; GENERAL TO unit
	Statuses  []int  // GENERALS: the status given to each brigade in Units, if written
	// SET (referee)
	Name  string // unit or brigade or "game"
	Field string
	Ints  []int64
	Word  string
}

type parser struct {
	st     *State
	writer string // the side that wrote the mail
	line   int
	text   string
	probs  []events.Problem
}

func (p *parser) fail(col int, msg, hint string) {
	p.probs = append(p.probs, events.Problem{Line: p.line, Col: max(col, 1), Text: p.text, Msg: msg, Hint: hint})
}

// word is a token with its column (1-based, in runes).
type word struct {
	s   string
	col int
}

func splitWords(s string, base int) []word {
	var out []word
	rs := []rune(s)
	for i := 0; i < len(rs); {
		if rs[i] == ' ' || rs[i] == '\t' || rs[i] == '\r' {
			i++
			continue
		}
		j := i
		for j < len(rs) && rs[j] != ' ' && rs[j] != '\t' && rs[j] != '\r' {
			j++
		}
		out = append(out, word{string(rs[i:j]), base + i})
		i = j
	}
	return out
}

// kw matches w against keywords by unique prefix (docs/ORDERS.md), case-insensitively.
func kw(w string, opts ...string) string {
	w = strings.ToUpper(w)
	if w == "" {
		return ""
	}
	found := ""
	for _, o := range opts {
		if o == w {
			return o
		}
		if strings.HasPrefix(o, w) && len(w) >= 2 {
			if found != "" {
				return ""
			}
			found = o
		}
	}
	return found
}

func parseOrders(st *State, side, text string) ([]Order, []events.Problem) {
	var out []Order
	p := &parser{st: st, writer: side}
	for n, raw := range strings.Split(text, "\n") {
		p.line, p.text = n+1, strings.TrimRight(raw, "\r")
		line := p.text
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		ws := splitWords(line, 1)
		before := len(p.probs)
		o := Order{Line: p.line, Col: ws[0].col, Text: strings.TrimRight(p.text, " \t")}
		switch first := strings.ToUpper(ws[0].s); {
		case first == "BEGIN" || first == "START":
			o.Kind = oBegin
		case first == "SET":
			if side != engine.RefereeSide {
				p.fail(ws[0].col, "only the referee may SET a unit's or brigade's state", "")
				continue
			}
			p.set(&o, ws[1:])
		case first == "FIRE" && !strings.Contains(line, ":"):
			p.fire(&o, ws[1:])
		case first == "GENERALS" && !strings.Contains(line, ":"):
			p.generals(&o, line, ws[0])
		case first == "PICK" && !strings.Contains(line, ":"):
			o.Kind = oPick
			p.unitList(&o, line, ws[0])
		case first == "RETREAT" && len(ws) > 1 && strings.EqualFold(ws[1].s, "ORDER") && !strings.Contains(line, ":"):
			o.Kind = oRetreatOrder
			p.unitList(&o, line, ws[1])
		default:
			p.order(&o, line)
		}
		if len(p.probs) == before {
			out = append(out, o)
		}
	}
	if len(out) == 0 && len(p.probs) == 0 {
		p.line, p.text = 1, strings.TrimSpace(text)
		p.fail(1, "no order in this mail", "HELP shows what you may send now")
	}
	return out, p.probs
}

// resolve finds a unit or brigade by name (docs/ORDERS.md: case- and
// accent-insensitive, unique prefix, possessive ignored).
func (p *parser) resolve(name string, col int, units, brigades bool) (string, bool, bool) {
	k := normName(name)
	if k == "" {
		p.fail(col, "a unit or brigade name is missing", "")
		return "", false, false
	}
	var cands []string
	var isBrig []bool
	if units {
		for _, u := range p.st.Units {
			if normName(u.Name) == k {
				return u.Name, false, true
			}
			if strings.HasPrefix(normName(u.Name), k) {
				cands, isBrig = append(cands, u.Name), append(isBrig, false)
			}
		}
	}
	if brigades {
		for _, b := range p.st.Brigades {
			if normName(b.Name) == k {
				return b.Name, true, true
			}
			if strings.HasPrefix(normName(b.Name), k) {
				cands, isBrig = append(cands, b.Name), append(isBrig, true)
			}
		}
	}
	switch len(cands) {
	case 1:
		return cands[0], isBrig[0], true
	case 0:
		if !brigades {
			// Only units may be named here: a brigade's name gets its units.
			for _, b := range p.st.Brigades {
				if normName(b.Name) == k {
					var us []string
					for _, u := range p.st.Units {
						if u.Brigade == b.Name {
							us = append(us, u.Name)
						}
					}
					p.fail(col, fmt.Sprintf("%s is a brigade, and only units may be named here", b.Name), "name its units: "+strings.Join(us, ", "))
					return "", false, false
				}
			}
		}
		best, bd := "", 4
		if units {
			for _, u := range p.st.Units {
				if d := editDistance(k, normName(u.Name)); d < bd {
					best, bd = u.Name, d
				}
			}
		}
		if brigades {
			for _, b := range p.st.Brigades {
				if d := editDistance(k, normName(b.Name)); d < bd {
					best, bd = b.Name, d
				}
			}
		}
		hint := ""
		if best != "" {
			hint = fmt.Sprintf("did you mean %q?", best)
		}
		what := "unit or brigade"
		if !brigades {
			what = "unit"
		}
		p.fail(col, fmt.Sprintf("no %s is called %q", what, name), hint)
	default:
		p.fail(col, fmt.Sprintf("%q is ambiguous: %s", name, strings.Join(cands, ", ")), "write more of the name")
	}
	return "", false, false
}

// order reads "<who>: <order>" (HRA 4.II.c, 4.II.d).
func (p *parser) order(o *Order, line string) {
	o.Kind = oOrder
	who, rest, ok := strings.Cut(line, ":")
	if !ok {
		p.fail(o.Col, "an order reads <brigade or units>: <order>", "e.g. "+p.exampleOrder())
		return
	}
	restCol := len([]rune(who)) + 2
	col := 1
	for _, part := range strings.Split(who, ",") {
		name := strings.TrimSpace(part)
		c := col + len([]rune(part)) - len([]rune(strings.TrimLeft(part, " \t")))
		col += len([]rune(part)) + 1
		n, brig, ok := p.resolve(name, c, true, true)
		if !ok {
			return
		}
		var b string
		if brig {
			if o.Whole || len(o.Units) > 0 {
				p.fail(c, "name either a brigade or some of its units, not both", "")
				return
			}
			o.Whole, b = true, n
			for _, u := range p.st.brigadeUnits(n) {
				o.Units, o.Cols = append(o.Units, u.Name), append(o.Cols, c)
			}
		} else {
			if o.Whole {
				p.fail(c, "name either a brigade or some of its units, not both", "")
				return
			}
			u := p.st.unit(n)
			if u.Removed() {
				p.fail(c, fmt.Sprintf("%s has left the battlefield", n), "")
				return
			}
			b = u.Brigade
			o.Units, o.Cols = append(o.Units, n), append(o.Cols, c)
		}
		if o.Brigade != "" && o.Brigade != b {
			p.fail(c, fmt.Sprintf("%s is not of %s: one mail orders one brigade (HRA 4.II.a)", n, o.Brigade), "")
			return
		}
		o.Brigade = b
	}
	// Steps: separated by ',' ';' or THEN.
	rs := []rune(rest)
	var phrases [][]word
	cur := []word{}
	for _, w := range splitWords(strings.NewReplacer(",", " , ", ";", " ; ").Replace(string(rs)), restCol) {
		if w.s == "," || w.s == ";" || strings.EqualFold(w.s, "THEN") {
			if len(cur) > 0 {
				phrases = append(phrases, cur)
			}
			cur = []word{}
			continue
		}
		cur = append(cur, w)
	}
	if len(cur) > 0 {
		phrases = append(phrases, cur)
	}
	// columns are approximate after the replacer: recompute from the text
	fixCols(phrases, line)
	if len(phrases) == 0 {
		p.fail(restCol, "the order is missing after the colon", "e.g. HOLD, ADVANCE 6, WHEEL LEFT 45, RETREAT")
		return
	}
	if len(phrases[0]) > 0 && strings.EqualFold(phrases[0][0].s, "MARCH") {
		phrases[0] = phrases[0][1:]
		if len(phrases[0]) == 0 {
			phrases = phrases[1:]
		}
		if len(phrases) == 0 {
			p.fail(restCol, "MARCH what? e.g. MARCH ADVANCE 6", "")
			return
		}
	}
	verbs := []string{"HOLD", "RETREAT", "MOUNT", "DISMOUNT", "LIMBER", "UNLIMBER", "ENTRENCH", "ROAD", "GENERAL",
		"ADVANCE", "FORWARD", "CHARGE", "WHEEL", "TURN", "ABOUT", "COLUMN", "LINE", "MOVE"}
	for i, ph := range phrases {
		v := kw(ph[0].s, verbs...)
		switch v {
		case "HOLD", "RETREAT", "MOUNT", "DISMOUNT", "LIMBER", "UNLIMBER", "ENTRENCH", "ROAD", "GENERAL":
			if len(phrases) > 1 {
				p.fail(ph[0].col, v+" is a whole order: it cannot be combined with other steps", "")
				return
			}
			o.Verb, o.VerbCol = strings.ToLower(v), ph[0].col
			args := ph[1:]
			switch v {
			case "ROAD":
				p.road(o, args, ph[0].col)
			case "GENERAL":
				if len(args) > 0 && kw(args[0].s, "TO", "WITH") != "" {
					args = args[1:]
				}
				if len(args) == 0 {
					p.fail(ph[0].col, "GENERAL TO <unit>: which unit is the general to join?", "")
					return
				}
				n, _, ok := p.resolve(joinWords(args), args[0].col, true, false)
				if !ok {
					return
				}
				o.Target = n
			default:
				if len(args) > 0 && !(v == "ABOUT") {
					p.fail(args[0].col, fmt.Sprintf("%s takes nothing more", v), "")
					return
				}
			}
			if o.Verb == "general" && !o.Whole {
				p.fail(o.Col, "GENERAL TO is given to the brigade: <brigade>: GENERAL TO <unit> (HRA 4.II.f)", "")
			}
			return
		case "":
			p.fail(ph[0].col, fmt.Sprintf("unknown order %q", ph[0].s), "orders: HOLD, ADVANCE n, WHEEL LEFT|RIGHT deg, TURN LEFT|RIGHT deg, ABOUT, COLUMN LEFT|RIGHT, LINE LEFT|RIGHT, MOVE TO, ROAD n, CHARGE n, RETREAT, MOUNT, DISMOUNT, LIMBER, UNLIMBER, ENTRENCH, GENERAL TO")
			return
		}
		o.Verb = vMarch
		if o.VerbCol == 0 {
			o.VerbCol = ph[0].col
		}
		s, ok := p.step(v, ph)
		if !ok {
			return
		}
		_ = i
		o.Steps = append(o.Steps, s)
	}
}

func fixCols(phrases [][]word, line string) {
	// The replacer adds one space before and after each separator; shift
	// the columns back by the separators before each word.
	rs := []rune(line)
	for _, ph := range phrases {
		for j := range ph {
			w := &ph[j]
			// find the word at or before its computed column
			start := min(max(w.col-1, 0), len(rs))
			for k := start; k >= 0; k-- {
				if strings.HasPrefix(string(rs[k:]), w.s) {
					w.col = k + 1
					break
				}
			}
		}
	}
}

func joinWords(ws []word) string {
	var s []string
	for _, w := range ws {
		s = append(s, w.s)
	}
	return strings.Join(s, " ")
}

// dist reads a length in cm: "6", "6.5", "6cm", "6.5 cm", "65mm".
func (p *parser) dist(ws []word, col int) (table.Length, int, bool) {
	if len(ws) == 0 {
		p.fail(col, "a distance in cm is missing", "e.g. ADVANCE 6")
		return 0, 0, false
	}
	s, n := ws[0].s, 1
	if len(ws) > 1 {
		if u := strings.ToLower(ws[1].s); u == "cm" || u == "mm" {
			s += u
			n = 2
		}
	}
	l, err := table.ParseLengthIn(s, table.Centimetres)
	if err != nil || l <= 0 || l > table.CM(200) {
		p.fail(ws[0].col, fmt.Sprintf("%q is not a distance in cm", ws[0].s), "e.g. 6 or 6.5cm")
		return 0, 0, false
	}
	return l, n, true
}

func (p *parser) angle(ws []word, col int) (table.Angle, bool) {
	if len(ws) == 0 {
		p.fail(col, "an angle in degrees is missing", "e.g. WHEEL LEFT 45")
		return 0, false
	}
	a, err := table.ParseAngle(ws[0].s)
	if err != nil || a <= 0 || a > 360*table.Degree {
		p.fail(ws[0].col, fmt.Sprintf("%q is not an angle in degrees (1 to 360)", ws[0].s), "e.g. 45")
		return 0, false
	}
	return a, true
}

func (p *parser) side(ws []word, col int) (table.Side, bool) {
	if len(ws) > 0 {
		switch kw(ws[0].s, "LEFT", "RIGHT") {
		case "LEFT":
			return table.Left, true
		case "RIGHT":
			return table.Right, true
		}
		col = ws[0].col
	}
	p.fail(col, "LEFT or RIGHT?", "")
	return 0, false
}

func (p *parser) step(v string, ph []word) (st step, ok bool) {
	args, col := ph[1:], ph[0].col
	defer func() { st.Col = col }()
	end := func(n int) bool {
		if len(args) > n {
			p.fail(args[n].col, fmt.Sprintf("unexpected %q", args[n].s), "separate steps with commas: WHEEL LEFT 45, ADVANCE 6")
			return false
		}
		return true
	}
	switch v {
	case "ADVANCE", "FORWARD", "CHARGE":
		d, n, ok := p.dist(args, col)
		if !ok || !end(n) {
			return step{}, false
		}
		k := stAdvance
		if v == "CHARGE" {
			k = stCharge
		}
		return step{Kind: k, Dist: d}, true
	case "WHEEL", "TURN":
		if v == "TURN" && len(args) > 0 && kw(args[0].s, "ABOUT") != "" {
			return step{Kind: stAbout}, end(1)
		}
		sd, ok := p.side(args, col)
		if !ok {
			return step{}, false
		}
		a, ok := p.angle(args[1:], args[0].col)
		if !ok || !end(2) {
			return step{}, false
		}
		k := stWheel
		if v == "TURN" {
			k = stTurn
		}
		return step{Kind: k, Side: sd, Angle: a}, true
	case "ABOUT":
		if len(args) > 0 && kw(args[0].s, "FACE") != "" {
			args = args[1:]
		}
		return step{Kind: stAbout}, end(0)
	case "COLUMN", "LINE":
		sd, ok := p.side(args, col)
		if !ok || !end(1) {
			return step{}, false
		}
		k := stColumn
		if v == "LINE" {
			k = stLine
		}
		return step{Kind: k, Side: sd}, true
	case "MOVE":
		if len(args) > 0 && kw(args[0].s, "TO") != "" {
			args = args[1:]
		}
		pt, name, ok := p.place(args, col)
		if !ok {
			return step{}, false
		}
		return step{Kind: stMoveTo, To: pt, Name: name}, true
	}
	p.fail(col, "unknown step", "")
	return step{}, false
}

// place reads a named point or "x y" coordinates in cm (x=40 y=25 too).
func (p *parser) place(ws []word, col int) (table.Point, string, bool) {
	if len(ws) == 0 {
		p.fail(col, "where to? a named point or x y in cm", "")
		return table.Point{}, "", false
	}
	if len(ws) == 2 {
		xs := strings.TrimPrefix(strings.ToLower(ws[0].s), "x=")
		ys := strings.TrimPrefix(strings.ToLower(ws[1].s), "y=")
		x, err1 := table.ParseLengthIn(xs, table.Centimetres)
		y, err2 := table.ParseLengthIn(ys, table.Centimetres)
		if err1 == nil && err2 == nil {
			if x < 0 || y < 0 || x > p.st.Scn.Width || y > p.st.Scn.Height {
				p.fail(ws[0].col, "that point is off the table", "")
				return table.Point{}, "", false
			}
			return table.Pt(x, y), "", true
		}
	}
	name := normName(joinWords(ws))
	var cands []Point
	for _, pt := range p.st.Scn.Points {
		if normName(pt.Name) == name {
			return pt.At, pt.Name, true
		}
		if strings.HasPrefix(normName(pt.Name), name) {
			cands = append(cands, pt)
		}
	}
	if len(cands) == 1 {
		return cands[0].At, cands[0].Name, true
	}
	var names []string
	for _, pt := range p.st.Scn.Points {
		names = append(names, pt.Name)
	}
	p.fail(ws[0].col, fmt.Sprintf("no single point is called %q", joinWords(ws)), "points: "+strings.Join(names, ", ")+", or x y in cm")
	return table.Point{}, "", false
}

func (p *parser) road(o *Order, args []word, col int) {
	if len(args) > 0 && kw(args[0].s, "TO") != "" {
		pt, name, ok := p.place(args[1:], args[0].col)
		if ok {
			o.To, o.ToName = &pt, name
		}
		return
	}
	d, n, ok := p.dist(args, col)
	if !ok {
		return
	}
	if len(args) > n {
		p.fail(args[n].col, fmt.Sprintf("unexpected %q", args[n].s), "ROAD 8 or ROAD TO <point>")
		return
	}
	o.Dist = d
}

// fire reads FIRE <unit> AT <target>, or FIRE NONE (HRA 4.III.a).
func (p *parser) fire(o *Order, ws []word) {
	o.Kind = oFire
	if len(ws) == 1 && kw(ws[0].s, "NONE", "NOTHING") != "" {
		o.Kind = oNoFire
		return
	}
	at := -1
	for i, w := range ws {
		if strings.EqualFold(w.s, "AT") {
			at = i
		}
	}
	if at <= 0 || at == len(ws)-1 {
		p.fail(o.Col, "FIRE <unit> AT <enemy unit>, or FIRE NONE", "")
		return
	}
	f, _, ok := p.resolve(joinWords(ws[:at]), ws[0].col, true, false)
	if !ok {
		return
	}
	t, _, ok := p.resolve(joinWords(ws[at+1:]), ws[at+1].col, true, false)
	if !ok {
		return
	}
	o.Units, o.Target = []string{f}, t
}

// unitList reads the comma-separated units after the keyword kw (PICK,
// RETREAT ORDER) into o.Units, each with its column in o.Cols. NONE (or
// nothing) is an empty list.
func (p *parser) unitList(o *Order, line string, kw word) {
	rs := []rune(line)
	start := min(kw.col-1+len([]rune(kw.s)), len(rs))
	rest := string(rs[start:])
	if t := strings.TrimSpace(rest); t == "" || strings.EqualFold(t, "NONE") {
		return
	}
	col := start + 1
	for _, part := range strings.Split(rest, ",") {
		name := strings.TrimSpace(part)
		c := col + len([]rune(part)) - len([]rune(strings.TrimLeft(part, " \t")))
		col += len([]rune(part)) + 1
		if name == "" {
			p.fail(c, "a unit name is missing between the commas", strings.ToUpper(kw.s)+" <unit>, <unit>, ...")
			return
		}
		n, _, ok := p.resolve(name, c, true, false)
		if !ok {
			return
		}
		if i := slices.Index(o.Units, n); i >= 0 {
			p.fail(c, fmt.Sprintf("%s is named twice in the list", n), "name each unit once")
			return
		}
		o.Units, o.Cols = append(o.Units, n), append(o.Cols, c)
	}
}

// generals reads GENERALS <brigade> <status>, <brigade> <status>, ... or
// GENERALS <brigade>, <brigade>, ... (the best general first) into
// o.Units (brigade names) and o.Statuses (HRA 3c).
func (p *parser) generals(o *Order, line string, kw word) {
	o.Kind = oGenerals
	rs := []rune(line)
	start := min(kw.col-1+len([]rune(kw.s)), len(rs))
	rest := string(rs[start:])
	if strings.TrimSpace(rest) == "" {
		p.fail(kw.col, "GENERALS: name your brigades, the best general's first, or each with its status", "GENERALS "+p.exampleGenerals())
		return
	}
	col := start + 1
	for _, part := range strings.Split(rest, ",") {
		c := col + len([]rune(part)) - len([]rune(strings.TrimLeft(part, " \t")))
		col += len([]rune(part)) + 1
		ws := splitWords(strings.TrimSpace(part), c)
		if len(ws) == 0 {
			p.fail(c, "a brigade name is missing between the commas", "GENERALS "+p.exampleGenerals())
			return
		}
		name := ws
		status := 0
		if n, err := strconv.Atoi(ws[len(ws)-1].s); err == nil && len(ws) > 1 {
			if n < 1 || n > 6 {
				p.fail(ws[len(ws)-1].col, fmt.Sprintf("%d is no general's status (1 to 6, HRA 3c)", n), "")
				return
			}
			name, status = ws[:len(ws)-1], n
		}
		if (status > 0) != (len(o.Statuses) > 0) && len(o.Units) > 0 {
			p.fail(c, "give every brigade a status, or none (then the best general goes to the first brigade named)", "GENERALS "+p.exampleGenerals())
			return
		}
		b, _, ok := p.resolve(joinWords(name), c, false, true)
		if !ok {
			return
		}
		if slices.Contains(o.Units, b) {
			p.fail(c, fmt.Sprintf("%s is named twice", b), "name each brigade once")
			return
		}
		o.Units, o.Cols = append(o.Units, b), append(o.Cols, c)
		if status > 0 {
			o.Statuses = append(o.Statuses, status)
		}
	}
}

// exampleGenerals is the writer's brigades, as GENERALS lists them.
func (p *parser) exampleGenerals() string {
	var bs []string
	for _, b := range p.st.Brigades {
		if b.Side == p.writer {
			bs = append(bs, b.Name)
		}
	}
	if len(bs) == 0 {
		return "<brigade>, <brigade>"
	}
	return strings.Join(bs, ", ")
}

// setFields are the fields a referee may SET to correct the state.
var setFields = []string{"POS", "FACING", "STATE", "SUPPLY", "GENERAL", "WITH", "COLUMN", "LIMBERED", "DISMOUNTED",
	"RETREATING", "ENTRENCHED", "BUSY", "CHARGES", "ROUND", "INITIATIVE"}

// set reads SET <unit|brigade> <FIELD> <value...>, SET ROUND n, SET
// INITIATIVE side.
func (p *parser) set(o *Order, ws []word) {
	o.Kind = oSet
	fi := -1
	for i, w := range ws {
		if f := strings.ToUpper(w.s); contains(setFields, f) || f == "POSITION" {
			fi = i
			if i > 0 {
				break
			}
		}
	}
	if fi < 0 {
		p.fail(o.Col, "SET <unit or brigade> <field> <value>; fields: "+strings.Join(setFields, " "), "e.g. SET 2nd Wisconsin STATE 2")
		return
	}
	o.Field = strings.ToUpper(ws[fi].s)
	if o.Field == "POSITION" {
		o.Field = "POS"
	}
	vals := ws[fi+1:]
	if fi == 0 {
		if o.Field != "ROUND" && o.Field != "INITIATIVE" {
			p.fail(ws[0].col, "SET whom? name a unit or brigade first", "")
			return
		}
		o.Name = "game"
	} else {
		n, brig, ok := p.resolve(joinWords(ws[:fi]), ws[0].col, true, true)
		if !ok {
			return
		}
		o.Name = n
		needBrig := o.Field == "GENERAL" || o.Field == "WITH"
		if needBrig && !brig {
			p.fail(ws[0].col, fmt.Sprintf("%s is a unit; SET <brigade> %s", n, o.Field), "")
			return
		}
		if !needBrig && brig && o.Field != "SUPPLY" {
			p.fail(ws[0].col, fmt.Sprintf("%s is a brigade; SET <unit> %s", n, o.Field), "")
			return
		}
	}
	if o.Field == "GENERAL" && len(vals) > 0 && strings.EqualFold(vals[0].s, "WITH") {
		o.Field, vals = "WITH", vals[1:]
	}
	col := ws[fi].col
	switch o.Field {
	case "POS":
		if len(vals) != 2 {
			p.fail(col, "SET <unit> POS x y (cm)", "")
			return
		}
		pt, _, ok := p.place(vals, col)
		if !ok {
			return
		}
		o.Ints = []int64{int64(pt.X), int64(pt.Y)}
	case "FACING":
		if len(vals) != 1 {
			p.fail(col, "SET <unit> FACING degrees", "")
			return
		}
		a, err := table.ParseAngle(vals[0].s)
		if err != nil {
			p.fail(vals[0].col, "not an angle", "")
			return
		}
		o.Ints = []int64{int64(a.Norm())}
	case "WITH":
		if len(vals) == 0 {
			p.fail(col, "SET <brigade> GENERAL WITH <unit>", "")
			return
		}
		n, _, ok := p.resolve(joinWords(vals), vals[0].col, true, false)
		if !ok {
			return
		}
		o.Word = n
	case "INITIATIVE":
		if len(vals) != 1 || (!strings.EqualFold(vals[0].s, Union) && !strings.EqualFold(vals[0].s, Confederate)) {
			p.fail(col, "SET INITIATIVE Union|Confederate", "")
			return
		}
		o.Word = Union
		if strings.EqualFold(vals[0].s, Confederate) {
			o.Word = Confederate
		}
	case "COLUMN", "LIMBERED", "DISMOUNTED", "RETREATING", "ENTRENCHED":
		if len(vals) != 1 || kw(vals[0].s, "ON", "OFF", "YES", "NO") == "" {
			p.fail(col, "SET <unit> "+o.Field+" ON|OFF", "")
			return
		}
		v := int64(0)
		if w := kw(vals[0].s, "ON", "OFF", "YES", "NO"); w == "ON" || w == "YES" {
			v = 1
		}
		o.Ints = []int64{v}
	default: // numbers
		if len(vals) != 1 {
			p.fail(col, "SET <name> "+o.Field+" <number>", "")
			return
		}
		v, err := strconv.Atoi(vals[0].s)
		lo, hi := 0, 99
		switch o.Field {
		case "STATE":
			hi = 3
		case "GENERAL":
			lo, hi = 1, 6
		case "ROUND":
			lo, hi = 1, p.st.Scn.Rounds
		}
		if err != nil || v < lo || v > hi {
			p.fail(vals[0].col, fmt.Sprintf("%s must be a number from %d to %d", o.Field, lo, hi), "")
			return
		}
		o.Ints = []int64{int64(v)}
	}
}

// exampleOrder is a simple order for one of the writer's own brigades.
func (p *parser) exampleOrder() string {
	if p.writer == engine.RefereeSide {
		return "SET <unit> <field> <value>"
	}
	return exampleFor(p.st, p.writer)
}
