package gbacw

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pbem/engine"
	"pbem/engine/hex"
	"pbem/engine/names"
	"pbem/events"
)

// Order kinds.
const (
	oBegin      = "BEGIN"
	oOrder      = "ORDER"      // Division Orders, Reinforcement Orders, Reserves (3.2)
	oFirst      = "FIRST"      // the initiative player's AM (4.2)
	oDone       = "DONE"       // nothing (more)
	oPass       = "PASS"       // decline (a reaction asked), or nothing
	oChange     = "CHANGE"     // Order Change Phase (3.3)
	oCoordinate = "COORDINATE" // Multi-brigade coordination Phase (3.3)
	oRelease    = "RELEASE"    // release of reserves (3.4)
	oStanding   = "STANDING"
	oReact      = "REACT" // the answer to a reaction asked (written as the reaction's name)
	oSet        = "SET"
	oRule       = "RULE"
	oAnswer     = "ANSWER" // the referee answers a reaction for a side

	// Actions of a unit or leader: "<name>: <action>".
	aMove     = "MOVE"
	aFace     = "FACE"
	aWithdraw = "WITHDRAW"
	aFire     = "FIRE"
	aShock    = "SHOCK"
	aCharge   = "CHARGE"
	aRecover  = "RECOVER"
	aBuild    = "BUILD"
	aMount    = "MOUNT"
	aDismount = "DISMOUNT"
	aTop      = "TOP"
	aRefuse   = "REFUSE"
)

var topWords = []string{oBegin, oOrder, oFirst, oDone, oPass, oChange, oCoordinate, oRelease, oStanding}
var refWords = []string{oSet, oRule, oAnswer}
var actionWords = []string{aMove, aFace, aWithdraw, aFire, aShock, aCharge, aRecover, aBuild, aMount, aDismount, aTop, aRefuse}

// The reactions of the non-moving side (docs/ORDERS.md), as written.
const (
	rFace      = "REACTION FACE"   // 7.6
	rReturn    = "RETURN FIRE"     // 13.1
	rClosing   = "CLOSING FIRE"    // 13.4
	rWithdrawF = "WITHDRAWAL FIRE" // 9.6, 13.3
	rRetreat   = "PRE-SHOCK RETREAT"
	rPreFire   = "PRE-SHOCK FIRE" // 13.2, 14.3e
	rWM        = "WITHDRAW"       // 9.5a: mounted cavalry's reaction WM
	rCounter   = "COUNTER-CHARGE" // 16.3b
	// rRout is not a reaction but the owner's choice of the hex a
	// routing unit ends in (R11), asked and answered as one.
	rRout = "ROUT"
)

var reactions = []string{rFace, rReturn, rClosing, rWithdrawF, rRetreat, rPreFire, rWM, rCounter, rRout}

// Order is one parsed line.
type Order struct {
	Line, Col int
	Text      string
	Kind      string // a top word, or an action word for "<name>: <action>"

	Unit     string   // the unit or leader acting
	Units    []string // SHOCK, CHARGE, RECOVER: every unit named
	Leader   bool     // Unit is a leader
	Brigade  string   // ORDER, CHANGE, RELEASE: the brigade; actions: the acting brigade
	Brigades []string // COORDINATE
	Order    string   // attack, advance, march, reserve
	Path     []hex.Hex
	From     hex.Hex // MOVE: where the move began (the program notes it)
	HasFrom  bool
	To       hex.Hex // MOVE TO
	HasTo    bool
	Face     int
	HasFace  bool
	Top      bool // MOVE ... TOP | BOTTOM: where it stacks (artillery's choice, 8.3)
	Bottom   bool
	Targets  []hex.Hex
	Advance  bool
	AM       string // FIRST

	Reaction, Scope, Rule string // STANDING; REACT/ANSWER: Reaction

	Field, Value string // SET; RULE: Value
	Words        []string
}

func problemAt(o Order, col int, msg, hint string) events.Problem {
	return events.Problem{Line: o.Line, Col: max(col, 1), Text: o.Text, Msg: msg, Hint: hint}
}

// parser reads one mail.
type parser struct {
	st    *State
	side  string
	probs []events.Problem
}

func (p *parser) problem(o Order, col int, msg, hint string) {
	p.probs = append(p.probs, problemAt(o, col, msg, hint))
}

// parseOrders reads the order text a side (or the referee) sent.
func parseOrders(st *State, side, text string) ([]Order, []events.Problem) {
	p := &parser{st: st, side: side}
	var out []Order
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		raw := lines[i]
		// A line indented further than the order's first continues it
		// (docs/ORDERS.md): a block copied from a mail, its lines
		// indented alike, stays the orders it shows.
		first := engine.IndentWidth(raw)
		for i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "" && engine.IndentWidth(lines[i+1]) > first && strings.TrimSpace(raw) != "" {
			i++
			raw += " " + strings.TrimSpace(lines[i])
		}
		line := raw
		if c := strings.IndexByte(line, '#'); c >= 0 {
			line = line[:c]
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		o := Order{Line: i + 1, Text: strings.TrimSpace(raw)}
		if p.line(&o, line) {
			out = append(out, o)
		}
	}
	if len(out) == 0 && len(p.probs) == 0 {
		p.probs = append(p.probs, events.Problem{Line: 1, Col: 1, Msg: "no order in this mail", Hint: "HELP lists what you may send now"})
	}
	return out, p.probs
}

// word is one word of a line and the column it starts at.
type word struct {
	s   string
	col int
}

func words(line string) []word {
	var out []word
	i := 0
	for i < len(line) {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == ',') {
			i++
		}
		if i >= len(line) {
			break
		}
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' && line[j] != ',' {
			j++
		}
		out = append(out, word{line[i:j], i + 1})
		i = j
	}
	return out
}

// keyword matches w against kws by unique prefix (docs/ORDERS.md).
func keyword(w string, kws []string) (string, bool) {
	u := strings.ToUpper(w)
	var hits []string
	for _, k := range kws {
		if k == u {
			return k, true
		}
		if strings.HasPrefix(k, u) && len(u) >= 2 {
			hits = append(hits, k)
		}
	}
	if len(hits) == 1 {
		return hits[0], true
	}
	return "", false
}

// reaction reads a reaction's name from ws, returning it and how many
// words it took.
func reactionAt(ws []word) (string, int) {
	for _, r := range reactions {
		parts := strings.Fields(r)
		n := len(parts)
		if len(ws) >= n {
			ok := true
			for i := range n {
				if !strings.EqualFold(ws[i].s, parts[i]) {
					ok = false
					break
				}
			}
			if ok {
				return r, n
			}
		}
	}
	return "", 0
}

func (p *parser) line(o *Order, line string) bool {
	ref := p.side == engine.RefereeSide
	// "<name>: <action>" (a colon outside the first word's hex).
	if c := strings.IndexByte(line, ':'); c > 0 {
		return p.action(o, line[:c], line[c+1:], c+1)
	}
	ws := words(line)
	if len(ws) == 0 { // commas alone
		p.problem(*o, 1, "a line of nothing but commas", "HELP lists what you may send now, with examples")
		return false
	}
	o.Col = ws[0].col
	if r, n := reactionAt(ws); r != "" && !ref {
		o.Kind, o.Reaction = oReact, r
		// <REACTION> <unit> [<arg>]: the answer for one unit of several
		// asked together.
		for end := len(ws); end > n; end-- {
			name, kind, ok := p.exact(joinPieces([][]word{ws[n:end]}))
			if !ok || kind != "unit" {
				continue
			}
			if u := p.st.unit(name); u == nil || u.Side != p.side {
				continue
			}
			o.Unit = name
			ws = append(slices.Clone(ws[:n]), ws[end:]...)
			break
		}
		if len(ws) > n {
			if r == rFace {
				if v, err := hex.ParseVertex(ws[n].s); err == nil && len(ws) == n+1 {
					o.Face, o.HasFace = int(v), true
					return true
				}
			}
			if r == rRetreat || r == rRout {
				// The hex of a pre-shock retreat (14.3b) or a rout (R11)
				// is the player's.
				if h, err := hex.Parse(ws[n].s); err == nil && len(ws) == n+1 {
					o.To, o.HasTo = h, true
					return true
				}
			}
			p.problem(*o, ws[n].col, fmt.Sprintf("%s takes nothing after it here", r), r)
			return false
		}
		return true
	}
	kws := topWords
	if ref {
		kws = refWords
	}
	k, ok := keyword(ws[0].s, kws)
	if !ok {
		if ref {
			p.problem(*o, ws[0].col, fmt.Sprintf("%q is no referee command", ws[0].s), "SET <unit> <field> <value>, RULE <answer> or ANSWER <reaction>|PASS")
		} else {
			p.problem(*o, ws[0].col, fmt.Sprintf("%q is no order", ws[0].s), "HELP lists what you may send now, with examples")
		}
		return false
	}
	o.Kind = k
	rest := ws[1:]
	switch k {
	case oBegin, oDone, oPass:
		if len(rest) > 0 {
			p.problem(*o, rest[0].col, k+" takes nothing after it", k)
			return false
		}
	case oOrder, oChange, oRelease:
		// <brigade> <order> [FACE <side or vertex>]: the facing the
		// brigade's units take going to or from March (7.3).
		if n := len(rest); n >= 4 && k != oRelease && strings.EqualFold(rest[n-2].s, "FACE") {
			if !p.facing(o, rest[n-1]) {
				return false
			}
			rest = rest[:n-2]
		}
		if len(rest) < 2 {
			p.problem(*o, o.Col, k+" names a brigade and its order", k+" <brigade> ATTACK|ADVANCE|MARCH|RESERVE")
			return false
		}
		ord, ok := keyword(rest[len(rest)-1].s, []string{"ATTACK", "ADVANCE", "MARCH", "RESERVE"})
		if !ok {
			p.problem(*o, rest[len(rest)-1].col, fmt.Sprintf("%q is no order", rest[len(rest)-1].s), k+" <brigade> ATTACK|ADVANCE|MARCH|RESERVE")
			return false
		}
		o.Order = strings.ToLower(ord)
		b, ok := p.name(*o, rest[:len(rest)-1], "brigade")
		if !ok {
			return false
		}
		o.Brigade = b
	case oCoordinate:
		// <brigade>, <brigade>... (commas or AND)
		var cur []word
		flush := func() bool {
			if len(cur) == 0 {
				return true
			}
			b, ok := p.name(*o, cur, "brigade")
			cur = nil
			if ok {
				o.Brigades = append(o.Brigades, b)
			}
			return ok
		}
		for _, w := range splitCommas(line, ws[0].col+len(ws[0].s)) {
			if !flush2(&cur, w, flush) {
				return false
			}
		}
		if !flush() {
			return false
		}
		if len(o.Brigades) < 2 {
			p.problem(*o, o.Col, "COORDINATE names two brigades or more of the activated division", "COORDINATE <brigade>, <brigade>")
			return false
		}
	case oFirst:
		if len(rest) == 0 {
			p.problem(*o, o.Col, "FIRST names the division (or MARCH) whose AM you activate first (4.2)", "FIRST <division>")
			return false
		}
		if len(rest) == 1 && strings.EqualFold(rest[0].s, "MARCH") {
			o.AM = "March"
			return true
		}
		d, ok := p.name(*o, rest, "division")
		if !ok {
			return false
		}
		o.AM = d
	case oStanding:
		return p.standing(o, rest)
	case oSet:
		if len(rest) < 3 {
			p.problem(*o, o.Col, "SET names a unit, leader, brigade or GAME, a field and a value", "SET 14th Ohio SP 5")
			return false
		}
		o.Field = strings.ToLower(rest[len(rest)-2].s)
		o.Value = rest[len(rest)-1].s
		if strings.EqualFold(rest[0].s, "GAME") && len(rest) == 3 {
			o.Unit = "GAME"
			return true
		}
		n, kind, ok := p.anyName(*o, rest[:len(rest)-2])
		if !ok {
			return false
		}
		o.Unit, o.Value = n, rest[len(rest)-1].s
		o.Leader = kind == "leader"
		if kind == "brigade" {
			o.Brigade, o.Unit = n, ""
		}
		if kind == "division" {
			o.Brigades, o.Unit = []string{n}, ""
		}
	case oRule:
		if len(rest) == 0 {
			p.problem(*o, o.Col, "RULE gives the ruling asked for", "RULE <answer> (the referee's mail shows the examples)")
			return false
		}
		for _, w := range rest {
			o.Words = append(o.Words, strings.ToUpper(w.s))
		}
		o.Value = strings.Join(o.Words, " ")
	case oAnswer:
		if len(rest) == 1 && strings.EqualFold(rest[0].s, "PASS") {
			o.Reaction = oPass
			return true
		}
		r, n := reactionAt(rest)
		if r == "" || n != len(rest) {
			p.problem(*o, o.Col, "ANSWER gives the reaction asked of a side, or PASS", "ANSWER PASS")
			return false
		}
		o.Reaction = r
	}
	return true
}

// splitCommas returns the words after col, with a "," word where a comma
// or AND separates names.
func splitCommas(line string, col int) []word {
	var out []word
	for _, w := range words(line[col-1:]) {
		w.col += col - 1
		if strings.EqualFold(w.s, "AND") {
			w.s = ","
		}
		out = append(out, w)
	}
	// words drops commas: put them back where they were.
	var res []word
	for i, w := range out {
		if i > 0 && w.s != "," && out[i-1].s != "," {
			prevEnd := out[i-1].col - 1 + len(out[i-1].s)
			if strings.Contains(line[prevEnd:w.col-1], ",") {
				res = append(res, word{",", prevEnd + 1})
			}
		}
		res = append(res, w)
	}
	return res
}

func flush2(cur *[]word, w word, flush func() bool) bool {
	if w.s == "," {
		return flush()
	}
	*cur = append(*cur, w)
	return true
}

// standing reads STANDING [<reaction> [<unit>|<brigade>|ALL] <rule>]:
// ALWAYS, NEVER, ASK, CLEAR, or conditions joined by AND.
func (p *parser) standing(o *Order, rest []word) bool {
	if len(rest) == 0 {
		return true // the list
	}
	r, n := reactionAt(rest)
	if r == "" {
		p.problem(*o, rest[0].col, fmt.Sprintf("%q is no reaction; the reactions are %s", rest[0].s, strings.Join(reactions, ", ")), "STANDING RETURN FIRE ALL ALWAYS")
		return false
	}
	o.Reaction = r
	rest = rest[n:]
	// The rule starts at the first rule word.
	i := slices.IndexFunc(rest, func(w word) bool {
		switch strings.ToUpper(w.s) {
		case "ALWAYS", "NEVER", "ASK", "CLEAR", "IF", "AT", "WITHIN":
			return true
		}
		return false
	})
	if i < 0 {
		var ws []string
		for _, w := range rest {
			ws = append(ws, w.s)
		}
		p.problem(*o, o.Col, fmt.Sprintf("%q: a standing order ends with ALWAYS, NEVER, ASK, CLEAR or its conditions (%s)", strings.Join(ws, " "), conditionWords), standingForm)
		return false
	}
	if i > 0 {
		scope := rest[:i]
		if len(scope) == 1 && strings.EqualFold(scope[0].s, "ALL") {
			o.Scope = ""
		} else {
			n, kind, ok := p.anyName(*o, scope)
			if !ok {
				return false
			}
			if kind != "unit" && kind != "brigade" {
				p.problem(*o, scope[0].col, fmt.Sprintf("%s is a %s: a standing order is for a unit, a brigade or ALL", n, kind), standingForm)
				return false
			}
			o.Scope = n
		}
	}
	var rw []string
	for _, w := range rest[i:] {
		rw = append(rw, strings.ToUpper(w.s))
	}
	rule, err := parseRule(rw)
	if err != nil {
		p.problem(*o, rest[i].col, err.Error()+" (the conditions: "+conditionWords+")", standingForm)
		return false
	}
	o.Rule = rule
	return true
}

// standingForm is a standing order's form, short enough for a hint.
const standingForm = "STANDING <reaction> [<unit>|<brigade>|ALL] ALWAYS|NEVER|ASK|<if>"

// conditionWords are a standing order's conditions.
const conditionWords = "IF DISORDERED, IF NOT DISORDERED, IF OUTNUMBERED, IF FIRED ON, IF ADJACENT, IF FROM FRONT|FLANK|REAR, IF FROM FLANK OR REAR, AT INFANTRY|CAVALRY|ARTILLERY, WITHIN <n>; joined by AND"

// parseRule checks and normalizes a standing order's rule.
func parseRule(w []string) (string, error) {
	switch strings.Join(w, " ") {
	case "ALWAYS", "NEVER", "ASK", "CLEAR":
		return w[0], nil
	}
	var conds []string
	for len(w) > 0 {
		var c string
		switch {
		case w[0] == "AND":
			w = w[1:]
			continue
		case w[0] == "AT" && len(w) >= 2 && slices.Contains([]string{"INFANTRY", "CAVALRY", "ARTILLERY"}, w[1]):
			c, w = "AT "+w[1], w[2:]
		case w[0] == "WITHIN" && len(w) >= 2:
			n, err := strconv.Atoi(w[1])
			if err != nil || n < 1 || n > 20 {
				return "", fmt.Errorf("WITHIN takes a number of hexes")
			}
			c, w = "WITHIN "+w[1], w[2:]
		case w[0] == "IF":
			w = w[1:]
			// Filler words: FIRED ON, ATTACKED.
			neg := false
			if len(w) > 0 && w[0] == "NOT" {
				neg, w = true, w[1:]
			}
			switch {
			case len(w) >= 1 && w[0] == "DISORDERED":
				c, w = "DISORDERED", w[1:]
			case len(w) >= 1 && w[0] == "OUTNUMBERED":
				c, w = "OUTNUMBERED", w[1:]
			case len(w) >= 1 && w[0] == "ADJACENT":
				c, w = "ADJACENT", w[1:]
			case len(w) >= 2 && w[0] == "ENEMY" && w[1] == "ADJACENT":
				c, w = "ADJACENT", w[2:]
			case len(w) >= 2 && w[0] == "FIRED" && w[1] == "ON":
				w = w[2:]
				c = "FIRED ON"
				if len(w) >= 2 && w[0] == "FROM" {
					c = ""
				}
			}
			if c == "" && len(w) >= 2 && w[0] == "FROM" {
				switch {
				case len(w) >= 4 && w[1] == "FLANK" && w[2] == "OR" && w[3] == "REAR":
					c, w = "FROM FLANK OR REAR", w[4:]
				case w[1] == "FLANK" || w[1] == "REAR" || w[1] == "FRONT":
					c, w = "FROM "+w[1], w[2:]
				}
			}
			if c == "" {
				return "", fmt.Errorf("unknown condition IF %s", strings.Join(w, " "))
			}
			if neg {
				if c != "DISORDERED" {
					return "", fmt.Errorf("only DISORDERED can be NOT")
				}
				c = "NOT DISORDERED"
			}
			c = "IF " + c
		default:
			return "", fmt.Errorf("unknown condition %s", strings.Join(w, " "))
		}
		conds = append(conds, c)
	}
	if len(conds) == 0 {
		return "", fmt.Errorf("no condition")
	}
	return strings.Join(conds, " AND "), nil
}

// action reads "<names>: <action> ...".
func (p *parser) action(o *Order, who, what string, off int) bool {
	ws := words(what)
	for i := range ws {
		ws[i].col += off
	}
	o.Col = 1
	if len(ws) == 0 {
		p.problem(*o, off, "nothing after the colon", "<unit>: MOVE <hex> <hex> ...")
		return false
	}
	if p.side == engine.RefereeSide {
		p.problem(*o, 1, "the referee sends SET, RULE or ANSWER lines", "SET <unit> <field> <value>")
		return false
	}
	k, ok := keyword(ws[0].s, actionWords)
	if !ok {
		p.problem(*o, ws[0].col, fmt.Sprintf("%q is no action; the actions are %s", ws[0].s, strings.Join(actionWords, ", ")), "<unit>: MOVE <hex> <hex> ...")
		return false
	}
	o.Kind = k
	// The names before the colon: one unit or leader, or (SHOCK, CHARGE,
	// RECOVER) several units, by commas or AND. A name may hold a comma
	// itself ("Battery K, 1st Ohio"): the longest run of pieces that is
	// a name is taken first.
	var pieces [][]word
	var cur []word
	for _, w := range splitCommas(who, 1) {
		if w.s == "," {
			if len(cur) > 0 {
				pieces = append(pieces, cur)
			}
			cur = nil
			continue
		}
		cur = append(cur, w)
	}
	if len(cur) > 0 {
		pieces = append(pieces, cur)
	}
	if len(pieces) == 0 {
		p.problem(*o, 1, "no unit named before the colon", "<unit>: "+k)
		return false
	}
	multi := k == aShock || k == aCharge || k == aRecover || k == aFire
	for i := 0; i < len(pieces); {
		j := len(pieces)
		for ; j > i+1; j-- {
			if _, _, ok := p.exact(joinPieces(pieces[i:j])); ok {
				break
			}
		}
		g := slices.Concat(pieces[i:j]...)
		i = j
		n, kind, ok := p.anyName(*o, g)
		if !ok {
			return false
		}
		if len(o.Units) > 0 && !multi {
			p.problem(*o, g[0].col, k+" is for one unit at a time (6.3)", "one line for each unit")
			return false
		}
		switch {
		case kind == "leader" && k == aMove && !multi:
			o.Leader = true
		case kind != "unit":
			p.problem(*o, g[0].col, fmt.Sprintf("%s is a %s: %s is for a unit", n, kind, k), "<unit>: "+k+" ...")
			return false
		}
		if u := p.st.unit(n); u != nil && u.Side != p.side {
			p.problem(*o, g[0].col, fmt.Sprintf("%s is not yours", n), "name one of your own units")
			return false
		}
		if l := p.st.leader(n); l != nil && l.Side != p.side {
			p.problem(*o, g[0].col, fmt.Sprintf("%s is not yours", n), "name one of your own leaders")
			return false
		}
		o.Units = append(o.Units, n)
	}
	o.Unit = o.Units[0]
	if u := p.st.unit(o.Unit); u != nil {
		o.Brigade = u.Brigade
	}
	rest := ws[1:]
	switch k {
	case aMove:
		return p.movement(o, rest)
	case aWithdraw:
		for _, w := range rest {
			h, err := hex.Parse(w.s)
			if err != nil {
				p.problem(*o, w.col, fmt.Sprintf("%q is no hex", w.s), "<unit>: WITHDRAW [<hex> [<hex>]]")
				return false
			}
			o.Path = append(o.Path, h)
		}
		if len(o.Path) > 2 {
			p.problem(*o, rest[2].col, "a withdrawal is two hexes at most (9.5)", "<unit>: WITHDRAW <hex> <hex>")
			return false
		}
	case aFace:
		if len(rest) != 1 {
			p.problem(*o, o.Col, "FACE takes a vertex (or a side for a March column)", "<unit>: FACE NNE")
			return false
		}
		return p.facing(o, rest[0])
	case aFire:
		if len(rest) > 0 && strings.EqualFold(rest[0].s, "AT") {
			rest = rest[1:]
		}
		var cur []word
		flush := func() bool {
			if len(cur) == 0 {
				return true
			}
			h, ok := p.target(*o, cur)
			cur = nil
			if ok {
				o.Targets = append(o.Targets, h)
			}
			return ok
		}
		for _, w := range rest {
			if strings.EqualFold(w.s, "AND") {
				if !flush() {
					return false
				}
				continue
			}
			cur = append(cur, w)
		}
		if !flush() {
			return false
		}
		if len(o.Targets) == 0 {
			p.problem(*o, o.Col, "FIRE names its target: a hex or an enemy unit", "<unit>: FIRE AT <hex or unit> [AND <hex or unit>]")
			return false
		}
		if len(o.Units) > 1 && len(o.Targets) > 1 {
			p.problem(*o, o.Col, "several units fire together only as one regiment's split units at one target (11.5)", "one FIRE line for each unit")
			return false
		}
	case aShock, aCharge:
		// ... ADVANCE [FACE <vertex>]: the free turn after an advance
		// after combat (7.3) is the player's.
		if n := len(rest); n >= 3 && strings.EqualFold(rest[n-2].s, "FACE") && strings.EqualFold(rest[n-3].s, "ADVANCE") {
			if !p.facing(o, rest[n-1]) {
				return false
			}
			if o.Face >= faceSide {
				p.problem(*o, rest[n-1].col, "a unit that advances faces a vertex (7.1): FACE NNE, E, SSE, SSW, W or NNW", "")
				return false
			}
			rest = rest[:n-2]
		}
		if n := len(rest); n > 0 && strings.EqualFold(rest[n-1].s, "ADVANCE") {
			o.Advance = true
			rest = rest[:n-1]
		}
		if len(rest) > 0 && strings.EqualFold(rest[0].s, "AT") {
			rest = rest[1:]
		}
		if len(rest) == 0 {
			p.problem(*o, o.Col, k+" names the enemy hex (or unit) attacked", "<unit>: "+k+" <hex or unit> [AND <hex or unit>] [ADVANCE]")
			return false
		}
		// One combination may take more than one defender hex (14.3a).
		var cur []word
		flush := func() bool {
			if len(cur) == 0 {
				p.problem(*o, o.Col, k+" names an enemy hex (or unit) on each side of AND", "<unit>: "+k+" <hex or unit> AND <hex or unit>")
				return false
			}
			h, ok := p.target(*o, cur)
			cur = nil
			if ok && !slices.Contains(o.Targets, h) {
				o.Targets = append(o.Targets, h)
			}
			return ok
		}
		for _, w := range rest {
			if strings.EqualFold(w.s, "AND") {
				if !flush() {
					return false
				}
				continue
			}
			cur = append(cur, w)
		}
		if !flush() {
			return false
		}
	case aRecover:
		if len(rest) == 2 && strings.EqualFold(rest[0].s, "FACE") {
			return p.facing(o, rest[1])
		}
		if len(rest) > 0 {
			p.problem(*o, rest[0].col, "RECOVER takes nothing, or FACE <vertex>", "<unit>: RECOVER FACE NNE")
			return false
		}
	default:
		if len(rest) > 0 {
			p.problem(*o, rest[0].col, k+" takes nothing after it", "<unit>: "+k)
			return false
		}
	}
	return true
}

// movement reads MOVE <hex> <hex> ... | MOVE TO <hex>, then optionally
// FACE <vertex or side>, then TOP or BOTTOM.
func (p *parser) movement(o *Order, rest []word) bool {
	for i := 0; i < len(rest); i++ {
		w := rest[i]
		switch u := strings.ToUpper(w.s); {
		case u == "FROM" && i == 0 && len(rest) > 1:
			h, err := hex.Parse(rest[1].s)
			if err != nil {
				p.problem(*o, rest[1].col, fmt.Sprintf("%q is no hex", rest[1].s), "<unit>: MOVE 0805 0806")
				return false
			}
			o.From, o.HasFrom = h, true
			i++
			if i+1 < len(rest) && strings.EqualFold(rest[i+1].s, "TO") {
				i++
				if i+1 >= len(rest) {
					break
				}
				h, err := hex.Parse(rest[i+1].s)
				if err != nil {
					p.problem(*o, rest[i+1].col, fmt.Sprintf("%q is no hex", rest[i+1].s), "<unit>: MOVE TO 0805")
					return false
				}
				o.To, o.HasTo = h, true
				i++
			}
		case u == "TO" && i == 0 && len(rest) > 1:
			h, err := hex.Parse(rest[1].s)
			if err != nil {
				p.problem(*o, rest[1].col, fmt.Sprintf("%q is no hex", rest[1].s), "<unit>: MOVE TO 0805")
				return false
			}
			o.To, o.HasTo = h, true
			i++
		case u == "FACE" && i+1 < len(rest):
			if !p.facing(o, rest[i+1]) {
				return false
			}
			i++
		case u == "TOP":
			o.Top = true
		case u == "BOTTOM":
			o.Bottom = true
		default:
			h, err := hex.Parse(w.s)
			if err != nil {
				p.problem(*o, w.col, fmt.Sprintf("%q is no hex", w.s), "<unit>: MOVE 0805 0806 [FACE NNE], or MOVE TO 0806")
				return false
			}
			if o.HasTo || o.HasFace {
				p.problem(*o, w.col, "the hexes of a path come first", "<unit>: MOVE 0805 0806 FACE W")
				return false
			}
			o.Path = append(o.Path, h)
		}
	}
	if len(o.Path) == 0 && !o.HasTo {
		p.problem(*o, o.Col, "MOVE names the hexes of its path, or TO a hex", "<unit>: MOVE <hex> <hex> ... or MOVE TO <hex>")
		return false
	}
	return true
}

func (p *parser) facing(o *Order, w word) bool {
	if v, err := hex.ParseVertex(w.s); err == nil {
		o.Face, o.HasFace = int(v), true
		return true
	}
	if d, err := hex.ParseDirection(w.s); err == nil {
		o.Face, o.HasFace = int(d)+faceSide, true
		return true
	}
	p.problem(*o, w.col, fmt.Sprintf("%q is no vertex (NNE, E, SSE, SSW, W, NNW) nor side (N, NE, SE, S, SW, NW)", w.s), "FACE NNE")
	return false
}

// faceSide marks a facing written as a side (for March columns).
const faceSide = 10

// target reads a hex, or an enemy unit (its hex).
func (p *parser) target(o Order, ws []word) (hex.Hex, bool) {
	if len(ws) == 1 {
		if h, err := hex.Parse(ws[0].s); err == nil {
			return h, true
		}
	}
	n, kind, ok := p.anyName(o, ws)
	if !ok {
		return hex.Hex{}, false
	}
	u := p.st.unit(n)
	if kind != "unit" || u == nil || !u.onMap() {
		p.problem(o, ws[0].col, fmt.Sprintf("%s is no unit on the map", n), "a hex, or an enemy unit's name")
		return hex.Hex{}, false
	}
	return u.Hex, true
}

// candidate is a name the game knows.
type candidate struct{ name, kind string }

func (p *parser) candidates() []candidate {
	st := p.st
	var out []candidate
	for _, u := range st.Scn.Units {
		out = append(out, candidate{u.Name, "unit"}, candidate{u.Code, "unit=" + u.Name})
	}
	for _, l := range st.Scn.Leaders {
		out = append(out, candidate{l.Name, "leader"}, candidate{l.Code, "leader=" + l.Name})
	}
	for _, b := range st.Scn.Brigades {
		out = append(out, candidate{b.Name, "brigade"})
	}
	for _, d := range st.Scn.Divisions {
		out = append(out, candidate{d.Name, "division"})
	}
	return out
}

// anyName resolves a name written in ws: case and accent insensitive,
// by unique prefix, a unit's code too (docs/ORDERS.md).
func (p *parser) anyName(o Order, ws []word) (string, string, bool) {
	var parts []string
	for _, w := range ws {
		parts = append(parts, w.s)
	}
	written := strings.Join(parts, " ")
	key := norm(written)
	col := 1
	if len(ws) > 0 {
		col = ws[0].col
	}
	resolve := func(c candidate) (string, string) {
		if n, ok := strings.CutPrefix(c.kind, "unit="); ok {
			return n, "unit"
		}
		if n, ok := strings.CutPrefix(c.kind, "leader="); ok {
			return n, "leader"
		}
		return c.name, c.kind
	}
	cands := p.candidates()
	for _, c := range cands {
		if norm(c.name) == key {
			n, k := resolve(c)
			return n, k, true
		}
	}
	var hits []candidate
	for _, c := range cands {
		if key != "" && strings.HasPrefix(norm(c.name), key) && !strings.Contains(c.kind, "=") {
			hits = append(hits, c)
		}
	}
	switch len(hits) {
	case 1:
		return hits[0].name, hits[0].kind, true
	case 0:
		best, bd := "", 1<<30
		for _, c := range cands {
			if strings.Contains(c.kind, "=") {
				continue
			}
			if d := names.Distance(key, norm(c.name)); d < bd {
				best, bd = c.name, d
			}
		}
		p.problem(o, col, fmt.Sprintf("no unit, leader, brigade or division is called %q", written), fmt.Sprintf("did you mean %q?", best))
	default:
		var ns []string
		for _, h := range hits {
			ns = append(ns, h.name)
		}
		p.problem(o, col, fmt.Sprintf("%q could be %s", written, strings.Join(ns, " or ")), "write more of the name")
	}
	return "", "", false
}

// norm folds a name for matching; commas count as spaces.
func norm(s string) string { return names.Norm(strings.ReplaceAll(s, ",", " ")) }

func joinPieces(ps [][]word) string {
	var parts []string
	for _, p := range ps {
		for _, w := range p {
			parts = append(parts, w.s)
		}
	}
	return strings.Join(parts, " ")
}

// exact finds a name written in full (a unit's code too).
func (p *parser) exact(written string) (string, string, bool) {
	key := norm(written)
	for _, c := range p.candidates() {
		if norm(c.name) == key {
			if n, ok := strings.CutPrefix(c.kind, "unit="); ok {
				return n, "unit", true
			}
			if n, ok := strings.CutPrefix(c.kind, "leader="); ok {
				return n, "leader", true
			}
			return c.name, c.kind, true
		}
	}
	return "", "", false
}

// name resolves a name that must be of one kind.
func (p *parser) name(o Order, ws []word, kind string) (string, bool) {
	n, k, ok := p.anyName(o, ws)
	if !ok {
		return "", false
	}
	if k != kind {
		p.problem(o, ws[0].col, fmt.Sprintf("%s is a %s, not a %s", n, k, kind), "name a "+kind)
		return "", false
	}
	return n, true
}
