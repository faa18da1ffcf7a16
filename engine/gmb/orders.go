package gmb

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pbem/engine"
	"pbem/engine/names"
	"pbem/engine/table"
	"pbem/events"
)

// Order is one parsed line of a mail.
type Order struct {
	Line int
	Col  int
	Text string
	Verb string
	// What the line names, resolved against the state.
	Name, Name2 string
	Word        string // a keyword argument (a battlefield, a field, a direction)
	Value       string // a SET's value, as written
	Pts         []table.Point
	Ways        []Waypoint
	W, D        table.Length
	Angle       table.Angle
	Flags       []string
	Ints        []int
	Names       []string
	March       bool
	Steps       []Step
	From, To    table.Length
	HasRange    bool
}

// Waypoint is one point a road or railway is laid through (13.10h): a
// table edge, an operational base, a strategic point, another road, a
// bridge that exists (13.10q), or a point.
type Waypoint struct {
	Kind string // "edge", "base", "sp", "road", "bridge", "point"
	Name string // "north", "A", "1", "road 2"
	At   table.Point
}

// Step is one manoeuvre of a normal move (7.2, 7.3).
type Step struct {
	Kind  string       // "forward", "wheel", "pivot", "road"
	Dist  table.Length // forward
	Turn  table.Angle  // wheel, pivot: clockwise positive
	To    table.Point  // road
	Col   int
	Words string
}

// forcedKinds are 7.5d's forced moves: push-back, disengagement, a
// general's failed order, a played battle card, pursuit of a disengaged
// enemy.
var forcedKinds = []string{"push-back", "disengagement", "failed-order", "card", "pursuit"}

// Level is the flag of a railway not on an embankment (13.10h).
const Level = "level"

type token struct {
	s   string
	col int // 1-based
}

// tokens splits a line into words, a comma followed by a space (or ending
// the line) parting words too: "12,30" stays one word, "a, b" is two.
func tokens(line string) []token {
	var out []token
	start := -1
	for i := 0; i <= len(line); i++ {
		end := i == len(line) || line[i] == ' ' || line[i] == '\t' ||
			line[i] == ',' && (i+1 == len(line) || line[i+1] == ' ')
		if end {
			if start >= 0 {
				out = append(out, token{line[start:i], start + 1})
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	return out
}

func joinTokens(ts []token) string {
	var b []string
	for _, t := range ts {
		b = append(b, t.s)
	}
	return strings.Join(b, " ")
}

// matchVerb returns the verb w abbreviates, if exactly one.
func matchVerb(w string) (string, []string) {
	u := strings.ToUpper(w)
	var hits []string
	for _, v := range verbs {
		if v == u {
			return v, nil
		}
		if strings.HasPrefix(v, u) {
			hits = append(hits, v)
		}
	}
	if len(hits) == 1 {
		return hits[0], nil
	}
	return "", hits
}

// lookup finds a name among candidates: an exact match (case, accent,
// possessive and spacing folded), else a unique prefix. It returns the
// candidate, or the ambiguous ones, or none.
func lookup(s string, cands []string) (string, []string) {
	n := names.Norm(s)
	if n == "" {
		return "", nil
	}
	var pre []string
	for _, c := range cands {
		cn := names.Norm(c)
		if cn == n {
			return c, nil
		}
		if strings.HasPrefix(cn, n) {
			pre = append(pre, c)
		}
	}
	if len(pre) == 1 {
		return pre[0], nil
	}
	return "", pre
}

// nearest suggests the closest candidate to s.
func nearest(s string, cands []string) string {
	best, bd := "", 1<<30
	n := names.Norm(s)
	for _, c := range cands {
		if d := names.Distance(n, names.Norm(c)); d < bd {
			best, bd = c, d
		}
	}
	return best
}

// parseErr is a problem with a line.
type parseErr struct {
	col       int
	msg, hint string
}

// parser reads one line.
type parser struct {
	st   *State
	side string
	ts   []token
	i    int
	o    *Order
	err  *parseErr
}

func (p *parser) fail(col int, msg, hint string) {
	if p.err == nil {
		p.err = &parseErr{col, msg, hint}
	}
}

func (p *parser) more() bool { return p.i < len(p.ts) }

func (p *parser) peek() string {
	if p.i < len(p.ts) {
		return strings.ToUpper(p.ts[p.i].s)
	}
	return ""
}

func (p *parser) col() int {
	if p.i < len(p.ts) {
		return p.ts[p.i].col
	}
	if len(p.ts) > 0 {
		t := p.ts[len(p.ts)-1]
		return t.col + len(t.s)
	}
	return 1
}

func (p *parser) next() token {
	if p.i < len(p.ts) {
		p.i++
		return p.ts[p.i-1]
	}
	return token{"", p.col()}
}

// accept consumes the keyword w (or a prefix of it of at least min letters).
func (p *parser) accept(w string) bool {
	u := p.peek()
	if u != "" && (u == w || len(u) >= 3 && strings.HasPrefix(w, u)) {
		p.i++
		return true
	}
	return false
}

// rawRest returns the rest of the line as written (commas kept).
func (p *parser) rawRest() string {
	if p.i >= len(p.ts) {
		return ""
	}
	s := p.o.Text[p.ts[p.i].col-1:]
	p.i = len(p.ts)
	return s
}

// restUntil returns the words up to the keyword stop (not consumed).
func (p *parser) restUntil(stop ...string) (string, int) {
	col := p.col()
	var ws []string
	for p.more() && !slices.Contains(stop, p.peek()) {
		ws = append(ws, p.next().s)
	}
	return strings.Join(ws, " "), col
}

func (p *parser) length(what string) table.Length {
	t := p.next()
	l, err := table.ParseLengthIn(strings.TrimSuffix(t.s, ","), table.Inches)
	if err != nil || t.s == "" {
		p.fail(t.col, fmt.Sprintf("%s: %q is not a length in inches", what, t.s), "e.g. 6 or 4.5")
	}
	return l
}

func (p *parser) integer(what string) int {
	t := p.next()
	n, err := strconv.Atoi(strings.TrimSuffix(t.s, ","))
	if err != nil {
		p.fail(t.col, fmt.Sprintf("%s: %q is not a whole number", what, t.s), "")
	}
	return n
}

func (p *parser) angle(what string) table.Angle {
	t := p.next()
	a, err := table.ParseAngle(t.s)
	if err != nil || t.s == "" {
		p.fail(t.col, fmt.Sprintf("%s: %q is not an angle in degrees", what, t.s), "e.g. 45")
	}
	return a
}

// point reads "x,y" or "x=12 y=30" in inches.
func (p *parser) point() table.Point {
	t := p.next()
	s := strings.ToLower(t.s)
	if strings.HasPrefix(s, "x=") && p.more() && strings.HasPrefix(strings.ToLower(p.ts[p.i].s), "y=") {
		y := p.next()
		s = s[2:] + "," + strings.ToLower(y.s)[2:]
	}
	pt, err := parsePoint(s)
	if err != nil {
		p.fail(t.col, fmt.Sprintf("%q is not a point x,y in inches from the table's south-west corner", t.s), "e.g. 24,30")
	}
	return pt
}

func isPoint(s string) bool {
	s = strings.ToLower(s)
	if strings.HasPrefix(s, "x=") {
		return true
	}
	_, err := parsePoint(s)
	return err == nil
}

// Parse reads a side's (or the referee's) mail.
func parseOrders(st *State, side, text string) ([]Order, []events.Problem) {
	if lines, ok := isLayoutMail(text); ok && side == engine.RefereeSide {
		return []Order{layoutOrder(lines)}, nil
	}
	var out []Order
	var probs []events.Problem
	var lines []string
	var lineNo []int
	for i, raw := range strings.Split(strings.ReplaceAll(text, "\r", ""), "\n") {
		// A ";" parts orders written on one line.
		indent := raw[:len(raw)-len(strings.TrimLeft(raw, " \t"))]
		for j, part := range strings.Split(raw, ";") {
			if j > 0 {
				part = strings.TrimLeft(part, " \t")
				if strings.TrimSpace(part) == "" {
					continue
				}
			} else if indent != "" && strings.TrimSpace(part) == "" {
				continue
			}
			lines = append(lines, part)
			lineNo = append(lineNo, i)
		}
	}
	orderIndent := 0 // the indent of the line the last order starts on
	for k, raw := range lines {
		i := lineNo[k]
		line := strings.TrimRight(raw, " \t")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		// Continuation: a line indented further than the order's first
		// continues it (docs/ORDERS.md); a block copied from a mail, its
		// lines indented alike, stays the orders it shows.
		if engine.IndentWidth(raw) > orderIndent && len(out) > 0 && len(probs) == 0 {
			prev := &out[len(out)-1]
			joined := prev.Text + " " + strings.TrimSpace(line)
			o, pe := parseLine(st, side, joined)
			o.Line = prev.Line
			if pe != nil {
				probs = append(probs, events.Problem{Line: prev.Line, Col: pe.col, Text: joined, Msg: pe.msg, Hint: pe.hint})
				continue
			}
			*prev = o
			continue
		}
		orderIndent = engine.IndentWidth(raw)
		o, pe := parseLine(st, side, line)
		o.Line = i + 1
		if pe != nil {
			probs = append(probs, events.Problem{Line: i + 1, Col: max(pe.col, 1), Text: line, Msg: pe.msg, Hint: pe.hint})
			continue
		}
		out = append(out, o)
	}
	if len(out) == 0 && len(probs) == 0 {
		probs = append(probs, events.Problem{Line: 1, Col: 1, Msg: "no order in this mail", Hint: "HELP says what you may send now"})
	}
	return out, probs
}

func parseLine(st *State, side, line string) (Order, *parseErr) {
	o := Order{Text: line, Col: 1}
	p := &parser{st: st, side: side, o: &o}
	// A unit's move: "<unit>: steps".
	if name, rest, ok := strings.Cut(line, ":"); ok && side != engine.RefereeSide {
		if u, _ := lookup(name, unitNames(st, side)); u != "" || !startsWithVerb(name) {
			p.ts = tokens(rest)
			for j := range p.ts {
				p.ts[j].col += len(name) + 1
			}
			p.moveLine(name)
			return o, p.err
		}
	}
	p.ts = tokens(line)
	if len(p.ts) == 0 {
		return o, &parseErr{1, "empty line", ""}
	}
	w := p.next()
	v, amb := matchVerb(w.s)
	if v == "" {
		hint := "HELP says what you may send now"
		if len(amb) > 0 {
			hint = "one of " + strings.Join(amb, ", ")
		}
		return o, &parseErr{w.col, fmt.Sprintf("%q is no order", w.s), hint}
	}
	o.Verb = v
	p.body(v)
	if p.err == nil && p.more() {
		t := p.next()
		p.fail(t.col, fmt.Sprintf("%q is more than this order takes", t.s), "")
	}
	return o, p.err
}

func startsWithVerb(s string) bool {
	f := strings.Fields(s)
	if len(f) == 0 {
		return false
	}
	v, _ := matchVerb(f[0])
	return v != ""
}

func unitNames(st *State, side string) []string {
	var out []string
	for _, u := range st.Units {
		if side == "" || u.Side == side || side == engine.RefereeSide {
			out = append(out, u.Name)
		}
	}
	return out
}

// moveLine reads "<unit>: [MARCH] steps" (7.2, 7.3).
func (p *parser) moveLine(name string) {
	o := p.o
	o.Verb = "UNIT"
	u, amb := lookup(name, unitNames(p.st, p.side))
	if u == "" {
		hint := "one of yours: " + nearest(name, unitNames(p.st, p.side))
		if len(amb) > 1 {
			hint = "one of " + strings.Join(amb, ", ")
		}
		p.fail(1, fmt.Sprintf("you have no unit %q", strings.TrimSpace(name)), hint)
		return
	}
	o.Name = u
	if p.accept("MARCH") {
		o.March = true
	}
	if p.accept("HOLD") {
		o.Verb = "HOLD"
		return
	}
	for p.more() && p.err == nil {
		col := p.col()
		w := p.next()
		switch up := strings.ToUpper(w.s); {
		case up == "F" || len(up) >= 3 && strings.HasPrefix("FORWARD", up):
			d := p.length("FORWARD")
			if d <= 0 {
				p.fail(col, "a unit moves forward, front first (7.3a): FORWARD takes a distance above 0", "FORWARD 3")
			}
			o.Steps = append(o.Steps, Step{Kind: "forward", Dist: d, Col: col, Words: "FORWARD " + d.Format(table.Inches)})
		case up == "W" || len(up) >= 3 && strings.HasPrefix("WHEEL", up), up == "P" || len(up) >= 3 && strings.HasPrefix("PIVOT", up):
			kind := "wheel"
			if up[0] == 'P' {
				kind = "pivot"
			}
			dir := p.next()
			sign := table.Angle(0)
			switch strings.ToUpper(dir.s) {
			case "LEFT", "L":
				sign = -1
			case "RIGHT", "R":
				sign = 1
			default:
				p.fail(dir.col, fmt.Sprintf("%s LEFT or RIGHT, then degrees", strings.ToUpper(kind)), strings.ToUpper(kind)+" LEFT 45")
				return
			}
			a := p.angle(kind)
			if a <= 0 || a > 180*table.Degree {
				p.fail(col, "a turn is of 1 to 180 degrees", strings.ToUpper(kind)+" LEFT 45")
			}
			o.Steps = append(o.Steps, Step{Kind: kind, Turn: sign * a, Col: col, Words: strings.ToUpper(kind) + " " + strings.ToUpper(dir.s) + " " + strings.TrimSuffix(a.String(), "°")})
		case up == "ROAD":
			p.accept("TO")
			pt := p.point()
			o.Steps = append(o.Steps, Step{Kind: "road", To: pt, Col: col, Words: "ROAD TO " + fmtPt(pt)})
		default:
			p.fail(w.col, fmt.Sprintf("%q is no manoeuvre", w.s), "FORWARD 6, WHEEL LEFT 30, PIVOT RIGHT 90, ROAD TO 24,30 or HOLD")
		}
	}
	if p.err == nil && len(o.Steps) == 0 {
		p.fail(p.col(), "say how the unit moves", o.Name+": FORWARD 3 (or HOLD)")
	}
}

func fmtPt(p table.Point) string {
	return strings.TrimSuffix(p.X.Format(table.Inches), "in") + "," + strings.TrimSuffix(p.Y.Format(table.Inches), "in")
}

func inch(l table.Length) string { return strings.TrimSuffix(l.Format(table.Inches), "in") + "\"" }

// body reads the rest of the line after its verb.
func (p *parser) body(v string) {
	o := p.o
	st := p.st
	switch v {
	case "TABLE":
		t := p.next()
		o.Word = strings.ToLower(t.s)
		if _, ok := st.Scn.Geom(o.Word); !ok {
			var sizes []string
			for _, g := range st.Scn.Tables {
				sizes = append(sizes, g.Size)
			}
			p.fail(t.col, fmt.Sprintf("this scenario has no %q table (13.1)", t.s), "TABLE "+strings.Join(sizes, " or TABLE "))
		}
	case "YEAR":
		o.Ints = []int{p.integer("YEAR")}
	case "DEAL":
		if !p.accept("GENERALS") {
			p.fail(p.col(), "DEAL GENERALS", "DEAL GENERALS")
		}
	case "ASSIGN":
		g, col := p.restUntil("TO")
		o.Name = p.generalName(g, col)
		if !p.accept("TO") {
			p.fail(p.col(), "ASSIGN <general> TO <formation>", "")
			return
		}
		f, col := p.restUntil()
		o.Name2 = p.formationName(f, col)
	case "REDRAW":
		g, col := p.restUntil()
		o.Name = p.groupName(g, col)
	case "SWAP":
		if st.Step == StepSwap {
			a, col := p.restUntil("WITH")
			o.Name = p.pieceName(a, col)
			if !p.accept("WITH") {
				p.fail(p.col(), "SWAP <piece> WITH <piece>", "")
				return
			}
			b, col := p.restUntil()
			o.Name2 = p.pieceName(b, col)
			return
		}
		g, col := p.restUntil()
		o.Name = p.generalName(g, col)
	case "DISCARD", "DONE", "PASS", "NONE":
	case "NO":
		if !p.accept("SWAP") {
			p.fail(p.col(), "NO SWAP", "NO SWAP")
		}
	case "KEEP":
		o.Names = splitList([]string{p.rawRest()})
		if len(o.Names) == 0 {
			p.fail(p.col(), "KEEP <card>, <card>, <card>", "")
		}
	case "BATTLEFIELD":
		t := p.next()
		f, _ := lookup(t.s, battlefields)
		if f == "" {
			p.fail(t.col, fmt.Sprintf("%q is no battlefield: Defensive, Neutral or Offensive (13.7b)", t.s), "BATTLEFIELD NEUTRAL")
			return
		}
		o.Word = f
		if p.accept("FORCED") {
			if !p.accept("MARCH") {
				p.fail(p.col(), "FORCED MARCH", "")
			}
			o.Flags = []string{"forced"}
		}
	case "LIST":
		t, col := p.restUntil()
		names := []string{"mine", "typical"}
		for _, a := range st.Scn.Armies {
			names = append(names, a.Side)
		}
		n, _ := lookup(t, names)
		if n == "" {
			p.fail(col, fmt.Sprintf("%q is no terrain list (13.10c): yours, the opponent's or the typical one", t), "LIST TYPICAL")
		}
		if n == "mine" {
			n = p.side
		}
		if n == "typical" {
			n = Typical.Name
		}
		o.Word = n
	case "RIVER", "STREAM":
		for p.more() {
			o.Pts = append(o.Pts, p.point())
		}
		if len(o.Pts) < 2 {
			p.fail(p.col(), v+" takes its points from one table edge to another", v+" 0,30 48,30")
		}
	case "ROAD", "RAILWAY":
		for p.more() && (p.peek() == "SUNKEN" || p.peek() == "EMBANKMENT" || p.peek() == "NO") {
			col := p.col()
			flag := strings.ToLower(p.next().s)
			if flag == "no" {
				if !p.accept("EMBANKMENT") {
					p.fail(p.col(), "NO EMBANKMENT: a railway not on an embankment (13.10h)", "RAILWAY NO EMBANKMENT BASE B, SP2, NORTH")
					return
				}
				flag = Level
			}
			if v == "ROAD" && flag != "sunken" {
				p.fail(col, "a road may be SUNKEN; only a railway runs on an embankment or not (13.10h)", "ROAD SUNKEN BASE B, SP2, NORTH")
				return
			}
			if v == "RAILWAY" && flag == "sunken" {
				p.fail(col, "a railway is not sunken: RAILWAY EMBANKMENT … or RAILWAY NO EMBANKMENT … (13.10h)", "RAILWAY NO EMBANKMENT BASE B, SP2, NORTH")
				return
			}
			if len(o.Flags) > 0 {
				p.fail(col, "say it once", "")
				return
			}
			o.Flags = append(o.Flags, flag)
		}
		// 13.10h: the player placing a railway must say whether it runs
		// on an embankment.
		if v == "RAILWAY" && len(o.Flags) == 0 {
			p.fail(p.col(), "say whether the railway runs on an embankment (13.10h): RAILWAY EMBANKMENT … or RAILWAY NO EMBANKMENT …", "RAILWAY NO EMBANKMENT BASE B, SP2, NORTH")
			return
		}
		p.waypoints()
	case "BRIDGE":
		p.accept("AT")
		for p.more() {
			o.Pts = append(o.Pts, p.point())
		}
		if len(o.Pts) == 0 {
			p.fail(p.col(), "BRIDGE x,y (several points for several bridges)", "")
		}
	case "PLACE":
		p.shape()
	case "FENCE", "WALL":
		if !p.accept("ALONG") {
			p.fail(p.col(), v+" ALONG <your road, railway or field>", v+" ALONG road 1")
			return
		}
		a, col := p.restUntil("FROM", "EDGE", "EDGES")
		o.Name = p.pieceName(a, col)
		switch {
		case p.accept("FROM"):
			o.From = p.length("FROM")
			if !p.accept("TO") {
				p.fail(p.col(), "FROM a TO b, in inches along it", "")
				return
			}
			o.To = p.length("TO")
			o.HasRange = true
		case p.accept("EDGE"), p.accept("EDGES"):
			t := p.next()
			a, b, rng := strings.Cut(t.s, "-")
			x, err1 := strconv.Atoi(a)
			y := x
			var err2 error
			if rng {
				y, err2 = strconv.Atoi(b)
			}
			if err1 != nil || err2 != nil || x < 1 || y < x {
				p.fail(t.col, "EDGE n or EDGES n-m, by the numbers of the field's edges", "EDGE 1")
				return
			}
			o.Ints = []int{x, y}
		}
	case "MOVE":
		a, col := p.restUntil("TO")
		o.Name = p.pieceName(a, col)
		if !p.accept("TO") {
			p.fail(p.col(), "MOVE <piece> TO x,y (its new centre)", "")
			return
		}
		o.Pts = []table.Point{p.point()}
	case "FORTIFY":
		o.Pts = []table.Point{p.point(), p.point()}
	case "TACTIC":
		t, col := p.restUntil()
		n, _ := lookup(t, characters)
		if n == "" {
			p.fail(col, fmt.Sprintf("%q is no army tactic: Cautious, Neutral or Aggressive (13.12c)", t), "TACTIC NEUTRAL")
		}
		o.Word = n
	case "CAVALRY":
		t, col := p.restUntil()
		var ns []string
		for _, c := range st.Scn.CavTactics {
			ns = append(ns, c.Name)
		}
		n, _ := lookup(t, ns)
		if n == "" {
			p.fail(col, fmt.Sprintf("%q is no cavalry tactic of this scenario (13.13)", t), "CAVALRY "+ns[0])
		}
		o.Word = n
	case "PATROL":
		// PATROL AT x,y x,y ...: one point per corps, in the army list's order.
		if p.peek() == "AT" {
			p.next()
			var corps []string
			if a := p.st.Scn.Army(p.side); a != nil {
				for _, g := range a.Groups() {
					if p.st.hasAny(p.side, g) {
						corps = append(corps, g)
					}
				}
			}
			for p.more() && p.err == nil {
				o.Pts = append(o.Pts, p.point())
			}
			if p.err == nil && len(o.Pts) != len(corps) {
				p.fail(p.col(), fmt.Sprintf("PATROL AT takes a point for each of your corps, in order: %s", strings.Join(corps, ", ")), "")
			}
			o.Names = corps
			return
		}
		// PATROL <corps> AT x,y[, <corps> AT x,y ...]
		for p.more() && p.err == nil {
			c, col := p.restUntil("AT")
			o.Names = append(o.Names, p.groupOf(p.side, c, col))
			if !p.accept("AT") {
				p.fail(p.col(), "PATROL <corps> AT x,y", "")
				return
			}
			o.Pts = append(o.Pts, p.point())
		}
		if len(o.Names) == 0 {
			p.fail(p.col(), "PATROL <corps> AT x,y", "")
		}
	case "ACTIVATE":
		c, col := p.restUntil()
		o.Name = p.groupOf(p.side, c, col)
	case "PASSAGE":
		// 7.6i: the initiative also names the opponent's passages.
		a, col := p.restUntil("AND", "WITH")
		o.Name = p.unitName(a, col, "")
		if !p.accept("AND") && !p.accept("WITH") {
			p.fail(p.col(), "PASSAGE <unit> AND <unit> (7.6)", "")
			return
		}
		b, col := p.restUntil()
		o.Name2 = p.unitName(b, col, "")
	case "PLAY":
		col := p.col()
		o.Name, o.Col = strings.TrimSpace(p.rawRest()), col
	case "HOLD":
	case "COMBAT":
		if !p.accept("DONE") {
			p.fail(p.col(), "COMBAT DONE", "COMBAT DONE")
		}
	case "FORCE":
		a, col := p.restUntil("BACK", "FORWARD")
		o.Name = p.unitName(a, col, "")
		t := p.next()
		switch strings.ToUpper(t.s) {
		case "BACK", "FORWARD":
			o.Word = strings.ToUpper(t.s)
		default:
			p.fail(t.col, "FORCE <unit> BACK or FORWARD, then its kind (7.5, 7.5d)", "FORCE "+o.Name+" BACK PUSH-BACK")
			return
		}
		// 7.5d: which of the forced moves it is.
		k, col := p.restUntil()
		kind, _ := lookup(strings.ReplaceAll(strings.ToLower(k), " ", "-"), forcedKinds)
		if kind == "" {
			p.fail(col, fmt.Sprintf("say which forced move it is (7.5d): %s", strings.ToUpper(strings.Join(forcedKinds, ", "))), "FORCE "+o.Name+" "+o.Word+" PUSH-BACK")
			return
		}
		o.Value = kind
	case "SET":
		p.set()
	case "FALLEN":
		g, col := p.restUntil()
		o.Name = p.generalName(g, col)
	case "OBJECTIVES":
		t := p.next()
		var sides []string
		for _, s := range st.Sides {
			sides = append(sides, s.Name)
		}
		o.Name, _ = lookup(t.s, sides)
		if o.Name == "" {
			p.fail(t.col, fmt.Sprintf("%q is no side", t.s), "OBJECTIVES "+sides[0]+" 1 2")
		}
		for p.more() {
			o.Ints = append(o.Ints, p.integer("objective"))
		}
	case "SCORE":
	case "INITIATIVE":
		t := p.next()
		var sides []string
		for _, s := range st.Sides {
			sides = append(sides, s.Name)
		}
		o.Name, _ = lookup(t.s, sides)
		if o.Name == "" {
			p.fail(t.col, fmt.Sprintf("%q is no side", t.s), "")
		}
	}
}

// splitList parts names written "a, b, c" (already split at ", ").
func splitList(ns []string) []string {
	var out []string
	for _, n := range ns {
		for _, x := range strings.Split(n, ",") {
			if x = strings.TrimSpace(x); x != "" {
				out = append(out, x)
			}
		}
	}
	return out
}

// resolve finds what a name names among cands (exactly, else by a unique
// prefix); if nothing, it fails saying so (msg, with %q for the name) and
// suggests the nearest or the ambiguous candidates.
func (p *parser) resolve(s string, col int, cands []string, msg, suggest string) string {
	n, amb := lookup(s, cands)
	if n != "" {
		return n
	}
	hint := ""
	switch {
	case len(amb) > 1:
		hint = "one of " + strings.Join(amb, ", ")
	case len(cands) > 0:
		hint = suggest + nearest(s, cands) + "?"
	}
	p.fail(col, fmt.Sprintf(msg, s), hint)
	return ""
}

func (p *parser) generalName(s string, col int) string {
	var cands []string
	for _, g := range p.st.Generals {
		cands = append(cands, g.Name)
	}
	for _, sd := range p.st.Sides {
		for _, gr := range sd.Groups {
			cands = append(cands, gr.SetAside...)
		}
		if sd.Redrawn != "" {
			cands = append(cands, sd.Redrawn)
		}
	}
	return p.resolve(s, col, cands, "no general is called %q", "")
}

func (p *parser) formationName(s string, col int) string {
	a := p.st.Scn.Army(p.side)
	if a == nil {
		p.fail(col, "only a player assigns his generals", "")
		return ""
	}
	var cands []string
	for _, f := range a.Formations {
		cands = append(cands, f.Name)
	}
	return p.resolve(s, col, cands, "your army has no formation %q", "")
}

func (p *parser) groupName(s string, col int) string {
	sd := p.st.side(p.side)
	if sd == nil {
		p.fail(col, "only a player redraws his generals", "")
		return ""
	}
	var cands []string
	for _, g := range sd.Groups {
		cands = append(cands, g.Name)
	}
	return p.resolve(s, col, cands, "%q is no group your generals were drawn in (13.5b)", "REDRAW ")
}

func (p *parser) groupOf(side, s string, col int) string {
	a := p.st.Scn.Army(side)
	if a == nil {
		p.fail(col, "only a player names his corps", "")
		return ""
	}
	return p.resolve(s, col, a.Groups(), "your army has no corps %q", "")
}

func (p *parser) unitName(s string, col int, side string) string {
	if side == engine.RefereeSide {
		side = ""
	}
	return p.resolve(s, col, unitNames(p.st, side), "no unit of yours is called %q", "")
}

func (p *parser) pieceName(s string, col int) string {
	var cands []string
	for _, pc := range p.st.Pieces {
		cands = append(cands, pc.ID)
	}
	return p.resolve(s, col, cands, "no terrain piece is called %q (the board's terrain list names them)", "")
}

// waypoints reads a road's or railway's points (13.10h).
func (p *parser) waypoints() {
	o := p.o
	for p.more() && p.err == nil {
		t := p.next()
		up := strings.ToUpper(t.s)
		switch {
		case up == "N" || up == "NORTH", up == "S" || up == "SOUTH", up == "E" || up == "EAST", up == "W" || up == "WEST":
			o.Ways = append(o.Ways, Waypoint{Kind: "edge", Name: strings.ToLower(up[:1])})
		case up == "BASE":
			b := p.next()
			n := strings.ToUpper(b.s)
			if n != "A" && n != "B" {
				p.fail(b.col, "BASE A or BASE B: the operational bases (13.11a)", "BASE A")
				return
			}
			o.Ways = append(o.Ways, Waypoint{Kind: "base", Name: n})
		case strings.HasPrefix(up, "SP"):
			n := strings.TrimPrefix(up, "SP")
			if n == "" {
				n = p.next().s
			}
			k, err := strconv.Atoi(n)
			if err != nil || k < 1 || k > len(p.st.geom().Points) {
				p.fail(t.col, fmt.Sprintf("SP1 to SP%d: the strategic points, west to east", len(p.st.geom().Points)), "SP2")
				return
			}
			o.Ways = append(o.Ways, Waypoint{Kind: "sp", Name: strconv.Itoa(k)})
		case up == "BRIDGE":
			n := p.next()
			id := "bridge " + strings.TrimSuffix(n.s, ",")
			if !slices.ContainsFunc(p.st.Bridges, func(b Bridge) bool { return b.ID == id }) {
				p.fail(n.col, fmt.Sprintf("there is no %s (13.10q: a road may use a bridge that exists)", id), "")
				return
			}
			o.Ways = append(o.Ways, Waypoint{Kind: "bridge", Name: id})
		case up == "ROAD" || up == "RAILWAY":
			n := p.next()
			id := strings.ToLower(up) + " " + n.s
			if p.st.piece(id) == nil {
				p.fail(n.col, fmt.Sprintf("there is no %s", id), "")
				return
			}
			o.Ways = append(o.Ways, Waypoint{Kind: "road", Name: id})
		case isPoint(t.s):
			p.i--
			o.Ways = append(o.Ways, Waypoint{Kind: "point", At: p.point()})
		default:
			p.fail(t.col, fmt.Sprintf("%q is no waypoint", t.s), "an edge (NORTH, SOUTH, EAST, WEST), BASE A, BASE B, SP1..SP3, ROAD n, or x,y")
		}
	}
	if p.err == nil && len(o.Ways) < 2 {
		p.fail(p.col(), "a road runs through its points from an edge (13.10h)", "ROAD BASE B, SP2, NORTH")
	}
}

// shape reads a terrain piece: "<kind> WxD AT x,y [TURN a]" or
// "<kind> x,y x,y x,y ...".
func (p *parser) shape() {
	o := p.o
	kt := p.next()
	var kinds []string
	for _, k := range p.st.Scn.Kinds {
		if !k.Line {
			kinds = append(kinds, k.Name)
		}
	}
	k, _ := lookup(kt.s, kinds)
	if k == "" {
		p.fail(kt.col, fmt.Sprintf("%q is no kind of area terrain: %s", kt.s, strings.Join(kinds, ", ")), "PLACE woods 6x4 AT 24,30")
		return
	}
	o.Word = k
	if !p.more() {
		p.fail(p.col(), "PLACE <kind> WxD AT x,y [TURN degrees], or PLACE <kind> x,y x,y x,y ...", "PLACE woods 6x4 AT 24,30")
		return
	}
	if w, d, err := parseSize(p.peek()); err == nil {
		p.next()
		o.W, o.D = w, d
		if !p.accept("AT") {
			p.fail(p.col(), "PLACE <kind> WxD AT x,y", "")
			return
		}
		o.Pts = []table.Point{p.point()}
		if p.accept("TURN") {
			o.Angle = p.angle("TURN")
		}
		return
	}
	for p.more() {
		o.Pts = append(o.Pts, p.point())
	}
	if len(o.Pts) < 3 {
		p.fail(p.col(), "a piece given by its corners has at least 3", "")
	}
}

// set reads "SET <object> <field> <value>": the referee may set any
// field of the state.
func (p *parser) set() {
	o := p.o
	// The longest run of words that names an object.
	start := p.i
	best := -1
	var obj string
	for j := len(p.ts); j > start; j-- {
		cand := joinTokens(p.ts[start:j])
		if n := objectNamed(p.st, cand); n != "" {
			best, obj = j, n
			break
		}
	}
	if best < 0 {
		p.fail(p.col(), "SET names a unit, a general, a side, a terrain piece or GAME, then a field and a value", "SET Iron Brigade COHESION 2")
		p.i = len(p.ts)
		return
	}
	p.i = best
	o.Name = obj
	f := p.next()
	fields := setFields(p.st, obj)
	fl, _ := lookup(f.s, fields)
	if fl == "" {
		p.fail(f.col, fmt.Sprintf("%s has no field %q", obj, f.s), "one of "+strings.Join(fields, ", "))
		return
	}
	o.Word = fl
	o.Value = strings.TrimSpace(p.rawRest())
	if o.Value == "" {
		p.fail(p.col(), "SET <object> <field> <value>", "")
	}
}
