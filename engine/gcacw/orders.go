package gcacw

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"pbem/engine"
	"pbem/engine/hex"
	"pbem/events"
)

// Order kinds.
const (
	oMarch    = "MARCH"
	oActivate = "ACTIVATE"
	oTake     = "TAKE"
	oPass     = "PASS"
	oTransfer = "TRANSFER"
	oQueue    = "QUEUE"
	oCancel   = "CANCEL"
	oHelp     = "HELP"
	oRule     = "RULE"
	oStatus   = "STATUS"
	oSet      = "SET"
	oRetreat  = "CAVALRY"  // CAVALRY RETREAT: the answer to a Cavalry Retreat asked now
	oStanding = "STANDING" // STANDING CAVALRY RETREAT …: a standing order (or the list)
	oUndo     = "UNDO"
)

var playerWords = []string{oActivate, oAssault, oCancel, oRetreat, oGrand, oHelp, oMarch, oPass, oQueue, oFallBack, oStanding, oStatus, oTake, oTransfer, oUndo}
var refereeWords = []string{oHelp, oRule, oSet, oStatus}

// Order is one parsed order.
type Order struct {
	Kind string
	Line int    // first line of the order in the mail
	Text string // that line as written
	Col  int    // column of the keyword

	// MARCH: the unit and its plan. ACTIVATE: the leader and entries.
	Unit    string
	UnitCol int
	Plan    Plan
	PlanPos []pos // where each path hex was written
	Leader  string
	LCol    int
	Entries []Entry
	Target  string // TRANSFER: the unit the leader goes to
	// ASSAULT: the hex attacked (the units are Entries, the leader
	// Leader); Grand: a GRAND ASSAULT (GCACW 2.2k).
	At    *hex.Hex
	AtCol int
	Grand bool

	Queued string   // QUEUE: the order's text
	When   string   // STANDING: always, never, ask, outnumbered, enemy=TYPE ("" lists them)
	N      int      // CANCEL: the queue number
	Rule   Rule     // RULE
	Set    SetOrder // SET
}

// Entry is one unit named in an ACTIVATE order.
type Entry struct {
	Unit    string
	Line    int
	Col     int
	Text    string
	Plan    Plan
	PlanPos []pos
}

type pos struct{ Line, Col int }

// Rule is a referee's ruling.
type Rule struct {
	What   string // extended, march, retreat, initiative, fatigue, organized, disorganized, exhausted, rested, manpower, place, transfer, winner, done
	Unit   string
	Leader string
	Result string
	N      int
	Hexes  []hex.Hex
	Note   string
	// A battle fought out (RULE FIGHT) and its result (RULE BATTLE).
	System, Scenario string
	Sides            []SideMap
	Game, Hash       string
	Lost             [2]int // USA's, CSA's
	Routed           string
}

// ptok is a token of a logical order, with its line.
type ptok struct {
	token
	Line int
	Src  string // the physical line
}

type logical struct {
	toks  []ptok
	line  int
	text  string
	lines []string
}

// splitMail turns a mail into logical orders: quoted lines, the "On …
// wrote:" line, everything after a signature marker, blank lines and
// '#' comments are dropped; a line indented further than the order above
// continues it.
func splitMail(text string) ([]logical, []events.Problem) {
	var out []logical
	var probs []events.Problem
	for i, raw := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		no := i + 1
		trim := strings.TrimSpace(raw)
		if trim == "--" || strings.HasPrefix(raw, "-- ") {
			break
		}
		if trim == "" || strings.HasPrefix(trim, "#") || strings.HasPrefix(trim, ">") ||
			strings.HasPrefix(trim, "On ") && strings.HasSuffix(trim, "wrote:") {
			continue
		}
		toks, err := lineLexer.Line(raw)
		if err != nil {
			probs = append(probs, events.Problem{Line: no, Col: 1, Text: raw, Msg: err.Error(), Hint: "close the quotes"})
			continue
		}
		if len(toks) == 0 {
			continue
		}
		var pts []ptok
		for _, t := range toks {
			pts = append(pts, ptok{token: t, Line: no, Src: raw})
		}
		// A line indented further than the order's first continues it
		// (docs/ORDERS.md); a block copied from a mail, its lines
		// indented alike, stays the orders it shows.
		if len(out) > 0 && engine.IndentWidth(raw) > engine.IndentWidth(out[len(out)-1].text) {
			l := &out[len(out)-1]
			l.toks = append(l.toks, ptok{token: token{Text: ";", Col: toks[0].Col, Punct: true}, Line: no, Src: raw})
			l.toks = append(l.toks, pts...)
			l.lines = append(l.lines, raw)
			continue
		}
		out = append(out, logical{toks: pts, line: no, text: raw, lines: []string{raw}})
	}
	return out, probs
}

// keyword resolves w as a unique prefix of one of words (case-insensitive).
func keyword(w string, words []string) (string, []string) {
	u := strings.ToUpper(w)
	var hits []string
	for _, k := range words {
		if k == u {
			return k, nil
		}
		if strings.HasPrefix(k, u) {
			hits = append(hits, k)
		}
	}
	if len(hits) == 1 {
		return hits[0], nil
	}
	return "", hits
}

// parser reads one logical order.
type parser struct {
	st     *State
	side   string
	l      logical
	i      int
	probs  []events.Problem
	queued bool   // a QUEUE'd order: where the unit will be is not known yet
	form   string // the order's form, the hint when there is no better one
	// withEliminated lets names match eliminated units too (SET may bring
	// one back).
	withEliminated bool
}

// forms are the orders' forms, as hints.
var forms = map[string]string{
	oMarch:    "MARCH <unit> <hex> <hex>... | TO <hex> | END [FORCE | FORCE IF MA < n | FORCE IF SHORT] [STOP AT <hex>] [IF ZOC THEN STOP]",
	oActivate: "ACTIVATE <leader>: <unit> <hex>...; <unit> <hex>...",
	oTransfer: "TRANSFER <leader> TO <unit>",
	oQueue:    "QUEUE MARCH <unit> <hex>...  (or QUEUE ACTIVATE …, QUEUE PASS)",
	oCancel:   "CANCEL <n>",
	oPass:     "PASS",
	oTake:     "TAKE",
	oUndo:     "UNDO",
	oHelp:     "HELP",
	oStatus:   "STATUS",
	oRetreat:  "CAVALRY RETREAT <unit> [<hex>...] | CAVALRY RETREAT <unit> NONE",
	oStanding: standingForm,
	oFallBack: fallBackForm,
	oRule:     ruleForms,
	oAssault:  assaultForm,
	oGrand:    assaultForm,
	oSet:      setForms,
}

func (p *parser) peek() (ptok, bool) {
	if p.i < len(p.l.toks) {
		return p.l.toks[p.i], true
	}
	return ptok{}, false
}

func (p *parser) next() (ptok, bool) {
	t, ok := p.peek()
	if ok {
		p.i++
	}
	return t, ok
}

func (p *parser) problem(t ptok, msg, hint string) {
	if hint == "" {
		hint = p.form
	}
	line, col, src := t.Line, t.Col, t.Src
	if line == 0 {
		line, src = p.l.line, p.l.text
		col = len([]rune(strings.TrimRight(src, " \t"))) + 1
	}
	p.probs = append(p.probs, events.Problem{Line: line, Col: col, Text: src, Msg: msg, Hint: hint})
}

// endTok is a position just after the order's last token, for "missing …".
func (p *parser) endTok() ptok {
	if len(p.l.toks) == 0 {
		return ptok{}
	}
	last := p.l.toks[len(p.l.toks)-1]
	last.Col += len([]rune(last.Text))
	if last.Quoted {
		last.Col += 2
	}
	return last
}

// isWord reports whether t is the keyword k or an abbreviation of it.
func isWord(t ptok, k string, min int) bool {
	if t.Quoted || t.Punct {
		return false
	}
	u := strings.ToUpper(t.Text)
	return len(u) >= min && strings.HasPrefix(k, u)
}

// entity is a unit or leader as names are matched.
type entity struct {
	id, name, side string
	leader         bool
}

func (s *State) entities() []entity { return s.entitiesWith(false) }

// allEntities is entities with the eliminated units too.
func (s *State) allEntities() []entity { return s.entitiesWith(true) }

func (s *State) entitiesWith(eliminated bool) []entity {
	var es []entity
	for _, u := range s.Units {
		if eliminated || !u.Eliminated {
			es = append(es, entity{id: u.ID, name: u.Name, side: u.Side})
		}
	}
	for _, l := range s.Leaders {
		es = append(es, entity{id: l.ID, name: l.Name, side: l.Side, leader: true})
	}
	return es
}

// resolve matches a typed name to one entity among those keep accepts:
// by code or name, case- and accent-insensitively, by unique prefix,
// ignoring a trailing possessive.
func (p *parser) resolve(t ptok, what string, keep func(entity) bool) (string, bool) {
	typed := normName(t.Text)
	if typed == "" {
		p.problem(t, fmt.Sprintf("%s: a name is missing", what), "")
		return "", false
	}
	all := p.st.entities()
	if p.withEliminated {
		all = p.st.allEntities()
	}
	match := func(es []entity) (exact, prefix []entity) {
		for _, e := range es {
			c, n := normName(e.id), normName(e.name)
			switch {
			case typed == c || typed == n:
				exact = append(exact, e)
			case strings.HasPrefix(c, typed) || strings.HasPrefix(n, typed):
				prefix = append(prefix, e)
			}
		}
		return exact, prefix
	}
	var mine []entity
	for _, e := range all {
		if keep(e) {
			mine = append(mine, e)
		}
	}
	exact, prefix := match(mine)
	switch {
	case len(exact) == 1:
		return exact[0].id, true
	case len(exact) == 0 && len(prefix) == 1:
		return prefix[0].id, true
	case len(exact)+len(prefix) > 1:
		cands := append(exact, prefix...)
		if len(exact) > 1 {
			cands = exact
		}
		var names []string
		for _, e := range cands {
			names = append(names, fmt.Sprintf("%s (%s)", e.name, e.id))
		}
		sort.Strings(names)
		p.problem(t, fmt.Sprintf("%q could be %s", t.Text, strings.Join(names, " or ")), "write more of the name, or the code")
		return "", false
	}
	// Not one of ours: say whose it is, or suggest the closest.
	if ex, pre := match(all); len(ex)+len(pre) > 0 {
		e := append(ex, pre...)[0]
		kind := "unit"
		if e.leader {
			kind = "leader"
		}
		p.problem(t, fmt.Sprintf("%s (%s) is a %s %s: %s", e.name, e.id, e.side, kind, whatHint(what)), "")
		return "", false
	}
	best, bd := "", 1<<30
	for _, e := range mine {
		if len(typed) > 40 {
			break // nothing is called anything that long
		}
		for _, cand := range []string{e.id, e.name} {
			if d := editDistance(typed, normName(cand)); d < bd {
				best, bd = e.name+" ("+e.id+")", d
			}
		}
	}
	hint := ""
	if best != "" {
		hint = "did you mean " + best + "?"
	}
	p.problem(t, fmt.Sprintf("no %s is called %q", what, t.Text), hint)
	return "", false
}

func whatHint(what string) string {
	return "name one of your own (" + what + ")"
}

func (p *parser) myUnit(t ptok) (string, bool) {
	return p.resolve(t, "unit", func(e entity) bool {
		return !e.leader && (p.side == engine.RefereeSide || e.side == p.side)
	})
}

func (p *parser) myLeader(t ptok) (string, bool) {
	return p.resolve(t, "leader", func(e entity) bool {
		return e.leader && (p.side == engine.RefereeSide || e.side == p.side)
	})
}

func isHexTok(t ptok) bool {
	if t.Quoted || t.Punct || len(t.Text) != 4 {
		return false
	}
	_, err := hex.Parse(t.Text)
	return err == nil
}

// parseHex reads a hex that must be on the map.
func (p *parser) parseHex(t ptok) (hex.Hex, bool) {
	h, err := hex.Parse(t.Text)
	if err != nil {
		p.problem(t, fmt.Sprintf("%q is not a hex number: write four digits, column then row (e.g. 0406)", t.Text), "")
		return hex.Hex{}, false
	}
	if _, ok := p.st.Scn.Map.Hex(h); !ok {
		g := p.st.Scn.Map.Grid()
		p.problem(t, fmt.Sprintf("hex %s is not on the map (%s to %s)", h, g.First(), g.Last()), "")
		return hex.Hex{}, false
	}
	return h, true
}

// parsePlan reads a path and conditions, up to a ';' or a token that is
// neither (the next unit of an ACTIVATE).
func (p *parser) parsePlan(unit string, example string) (Plan, []pos, bool) {
	var pl Plan
	var ps []pos
	ok := true
	u := p.st.unit(unit)
	if p.queued {
		u = nil
	}
	for {
		t, more := p.peek()
		if !more || t.Punct && t.Text == ";" {
			break
		}
		switch {
		case isHexTok(t):
			p.next()
			h, good := p.parseHex(t)
			if !good {
				ok = false
				continue
			}
			if pl.To != nil {
				p.problem(t, fmt.Sprintf("TO %s ends the path: pbem finds the route; write hexes before TO to go through them", pl.To), "")
				return pl, ps, false
			}
			if len(pl.Path) == 0 && u != nil && h == u.Hex {
				continue // the unit's own hex, written as the start
			}
			prev := hex.Hex{}
			if n := len(pl.Path); n > 0 {
				prev = pl.Path[n-1]
			} else if u != nil {
				prev = u.Hex
			}
			if (len(pl.Path) > 0 || u != nil) && !hex.Adjacent(prev, h) {
				p.problem(t, fmt.Sprintf("%s is not next to %s: a path goes hex by hex", h, prev), "the hexes next to "+prev.String()+" are "+strings.Join(hexStrs(p.st.Scn.Map.Grid().Neighbors(prev)), " "))
				ok = false
			}
			pl.Path = append(pl.Path, h)
			ps = append(ps, pos{t.Line, t.Col})
		case isWord(t, "TO", 2):
			// TO <hex>: the cheapest legal route there, found when decided.
			p.next()
			h, more := p.next()
			if !more || !isHexTok(h) {
				if !more {
					h = p.endTok()
				}
				p.problem(h, "TO takes the hex to march to; pbem finds the cheapest legal route there", "MARCH <unit> TO 0607")
				return pl, ps, false
			}
			hx, good := p.parseHex(h)
			if !good {
				return pl, ps, false
			}
			if pl.To != nil {
				p.problem(h, "one TO per march", "")
				return pl, ps, false
			}
			pl.To = &hx
			ps = append(ps, pos{h.Line, h.Col})
		case isWord(t, "END", 3):
			// END: the march ends here (GCACW 5.1.5); alone, a march in place.
			p.next()
			if n, more := p.peek(); more && isHexTok(n) {
				p.problem(n, "END ends the path: write the hexes before it", "")
				return pl, ps, false
			}
		case !t.Quoted && !t.Punct && strings.Trim(t.Text, "0123456789") == "":
			p.next()
			p.problem(t, fmt.Sprintf("%q is not a hex number: write four digits, column then row (e.g. 0%s)", t.Text, t.Text), "")
			return pl, ps, false
		case isWord(t, "FORCE", 2):
			p.next()
			pl.Force = "always"
			if n, more := p.peek(); more && isWord(n, "IF", 2) {
				p.next()
				c, more := p.next()
				switch {
				case more && isWord(c, "SHORT", 2):
					pl.Force = "short"
				case more && isWord(c, "MA", 2):
					op, more := p.next()
					num, more2 := p.next()
					n, err := strconv.Atoi(num.Text)
					if !more || !more2 || !op.Punct || op.Text == ";" || op.Text == ":" || err != nil {
						p.problem(c, "FORCE IF MA takes a comparison and a number", "FORCE IF MA < 4")
						return pl, ps, false
					}
					pl.Force = op.Text + strconv.Itoa(n)
				default:
					p.problem(c, "FORCE IF takes MA < n or SHORT", "FORCE IF MA < 4")
					return pl, ps, false
				}
			}
		case isWord(t, "STOP", 2):
			p.next()
			n, more := p.next()
			switch {
			case more && isWord(n, "AT", 2):
				h, more := p.next()
				if !more || !isHexTok(h) {
					p.problem(n, "STOP AT takes a hex of the path", "STOP AT 0407")
					return pl, ps, false
				}
				pl.StopAt = h.Text
			case more && isWord(n, "IF", 2):
				z, more := p.next()
				if !more || !isWord(z, "ZOC", 1) {
					p.problem(n, "STOP IF takes ZOC", "STOP IF ZOC")
					return pl, ps, false
				}
				pl.ZOCStop = true
			default:
				p.problem(t, "STOP takes AT <hex> or IF ZOC", "STOP AT 0407")
				return pl, ps, false
			}
		case isWord(t, "IF", 2):
			p.next()
			z, m1 := p.next()
			if !m1 || !isWord(z, "ZOC", 1) {
				p.problem(t, "the condition after a path is IF ZOC THEN STOP (or FORCE IF MA < n)", "IF ZOC THEN STOP")
				return pl, ps, false
			}
			th, m2 := p.next()
			if m2 && isWord(th, "THEN", 2) {
				th, m2 = p.next()
			}
			if !m2 || !isWord(th, "STOP", 2) {
				p.problem(z, "IF ZOC takes THEN STOP", "IF ZOC THEN STOP")
				return pl, ps, false
			}
			pl.ZOCStop = true
		default:
			return pl, ps, ok
		}
	}
	if pl.StopAt != "" {
		h := hex.MustParse(pl.StopAt)
		if !slices.Contains(pl.Path, h) {
			p.problem(p.endTok(), fmt.Sprintf("STOP AT %s: %s is not on the path", pl.StopAt, pl.StopAt), "")
			ok = false
		}
	}
	return pl, ps, ok
}

// maxMail is the longest order text read: a mail holds one action and a
// few QUEUE lines.
const maxMail = 8000

// Parse reads the orders a side (or the referee) sent.
func parseOrders(st *State, side, text string) ([]Order, []events.Problem) {
	if len(text) > maxMail {
		return nil, []events.Problem{{Line: 1, Col: 1, Text: firstLine(text), Msg: fmt.Sprintf("the orders are %d bytes long; pbem reads at most %d", len(text), maxMail), Hint: "send one action (and any QUEUE lines) per mail"}}
	}
	ls, probs := splitMail(text)
	var out []Order
	words := playerWords
	if side == engine.RefereeSide {
		words = refereeWords
	}
	for _, l := range ls {
		p := &parser{st: st, side: side, l: l}
		o, ok := p.order(words)
		probs = append(probs, p.probs...)
		if ok {
			out = append(out, o)
		}
	}
	if len(out) == 0 && len(probs) == 0 {
		hint := "PASS"
		if side == engine.RefereeSide {
			hint = "RULE DONE"
		}
		probs = append(probs, events.Problem{Line: 1, Col: 1, Text: firstLine(text), Msg: "the mail holds no order", Hint: hint + " (or HELP)"})
	}
	for i := range probs {
		probs[i].Msg, probs[i].Hint = plainRule(probs[i].Msg), plainRule(probs[i].Hint)
	}
	return out, probs
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

func (p *parser) order(words []string) (Order, bool) {
	t, _ := p.next()
	o := Order{Line: t.Line, Text: t.Src, Col: t.Col}
	k, cands := keyword(t.Text, words)
	if k == "" {
		switch {
		case len(cands) > 1:
			p.problem(t, fmt.Sprintf("%q could be %s", t.Text, strings.Join(cands, " or ")), "write more of the word")
		case p.side != engine.RefereeSide && isWord(t, oRule, 4):
			p.problem(t, "only the referee sends RULE", "PASS")
		case p.side != engine.RefereeSide && isWord(t, oSet, 3):
			p.problem(t, "only the referee sends SET: ask the referee to correct the game", "PASS")
		case notInRules[strings.ToUpper(t.Text)] != "":
			p.problem(t, notInRules[strings.ToUpper(t.Text)], "MARCH or ACTIVATE (HELP lists what you may send now)")
		case p.side == engine.RefereeSide:
			p.problem(t, fmt.Sprintf("the referee sends RULE …, SET … or HELP, not %q", t.Text), "RULE DONE")
		default:
			p.problem(t, fmt.Sprintf("%q is not an order (orders: %s)", t.Text, strings.Join(words, ", ")), suggestWord(t.Text, words))
		}
		return o, false
	}
	o.Kind = k
	if p.form == "" {
		p.form = forms[k]
	}
	switch k {
	case oPass, oTake, oHelp, oStatus, oUndo:
		if n, more := p.peek(); more {
			if k == oTake {
				// TAKE followed by an action on the same line.
				inner, ok := p.order(words)
				if !ok {
					return o, false
				}
				if inner.Kind != oMarch && inner.Kind != oActivate && inner.Kind != oAssault {
					p.problem(n, "TAKE is followed by MARCH, ACTIVATE or ASSAULT, or stands alone", "TAKE")
					return o, false
				}
				return inner, true
			}
			p.problem(n, fmt.Sprintf("%s takes nothing after it", k), k)
			return o, false
		}
		return o, true
	case oStanding:
		n, more := p.peek()
		if !more {
			return o, true // the list
		}
		if !isWord(n, "CAVALRY", 3) {
			p.problem(n, "standing orders are for Cavalry Retreats (GCACW 5.1.2)", standingForm)
			return o, false
		}
		p.next()
		return p.cavalry(o, true)
	case oRetreat:
		return p.cavalry(o, false)
	case oFallBack:
		return p.fallBack(o)
	case oMarch:
		return p.march(o)
	case oActivate:
		return p.activate(o)
	case oAssault, oGrand:
		o.Kind = oAssault
		return p.assault(o, k == oGrand)
	case oTransfer:
		return p.transfer(o, "TRANSFER <leader> TO <unit>")
	case oQueue:
		n, more := p.peek()
		if !more {
			p.problem(p.endTok(), "QUEUE takes the order to keep", "QUEUE MARCH <unit> <hex>...")
			return o, false
		}
		if k, _ := keyword(n.Text, playerWords); k != oMarch && k != oActivate && k != oPass && k != oTake {
			p.problem(n, "QUEUE keeps MARCH, ACTIVATE or PASS orders", "QUEUE MARCH <unit> <hex>...")
			return o, false
		}
		// The queued order is kept as written (with its continuation lines),
		// checked now, and checked again when it is used.
		parts := []string{string([]rune(n.Src)[n.Col-1:])}
		parts = append(parts, p.l.lines[1:]...)
		o.Queued = strings.Join(parts, "\n")
		sub := &parser{st: p.st, side: p.side, l: logical{toks: p.l.toks[p.i:], line: n.Line, text: n.Src, lines: p.l.lines}, queued: true}
		inner, ok := sub.order(playerWords)
		p.probs = append(p.probs, sub.probs...)
		if !ok {
			return o, false
		}
		switch inner.Kind {
		case oMarch, oActivate, oPass:
		default:
			p.problem(n, "QUEUE keeps MARCH, ACTIVATE or PASS orders", "QUEUE MARCH <unit> <hex>...")
			return o, false
		}
		p.i = len(p.l.toks)
		return o, true
	case oCancel:
		n, more := p.next()
		v, err := strconv.Atoi(strings.TrimPrefix(n.Text, "#"))
		if !more || err != nil || v < 1 {
			p.problem(n, "CANCEL takes the number of a queued order", "CANCEL 1")
			return o, false
		}
		o.N = v
		return o, p.done()
	case oRule:
		return p.rule(o)
	case oSet:
		return p.set(o)
	}
	return o, false
}

// notInRules names the actions of GCACW 5b that the rules pbem has do
// not define.
var notInRules = map[string]string{
	"DESTROY": "the Destroy Railroad Stations action is not in the rules pbem has (GCACW 5b, R12)",
	"BUILD":   "the Build Field Works action is not in the rules pbem has (GCACW 5b, R13)",
}

// notInActivation says why word t cannot stand in a Leader Activation, or
// "" (GCACW 5.2b): no assault, no destroying of railroad stations and no
// rail movement during a Leader Activation; its units only march.
func notInActivation(t ptok) string {
	if t.Quoted || t.Punct {
		return ""
	}
	switch strings.ToUpper(t.Text) {
	case "ASSAULT":
		return "an assault cannot be performed during a Leader Activation (GCACW 5.2b)"
	case "DESTROY":
		return "railroad stations cannot be destroyed during a Leader Activation (GCACW 5.2b)"
	case "RAIL":
		return "units cannot move by rail during a Leader Activation (GCACW 5.2b)"
	}
	return ""
}

func suggestWord(w string, words []string) string {
	best, bd := "", 1<<30
	for _, k := range words {
		if d := editDistance(strings.ToUpper(w), k); d < bd {
			best, bd = k, d
		}
	}
	if bd <= 3 {
		return "did you mean " + best + "?"
	}
	return "HELP lists what you may send now"
}

// done reports a problem if tokens are left over.
func (p *parser) done() bool {
	if t, more := p.peek(); more {
		p.problem(t, fmt.Sprintf("%q is not understood here", t.Text), "")
		return false
	}
	return true
}

func (p *parser) march(o Order) (Order, bool) {
	const ex = "MARCH <unit> <hex> <hex>... | TO <hex> | END [FORCE IF MA < 4] [STOP AT <hex>] [IF ZOC THEN STOP]"
	t, more := p.next()
	if !more {
		p.problem(p.endTok(), "MARCH takes a unit and its path", ex)
		return o, false
	}
	id, ok := p.myUnit(t)
	if !ok {
		return o, false
	}
	o.Unit, o.UnitCol = id, t.Col
	pl, ps, ok := p.parsePlan(id, ex)
	if !ok {
		return o, false
	}
	// No hexes: a march in place (GCACW 5.1.5: the player may stop the
	// march before any MP is spent; 5.1.2 still raises its fatigue).
	o.Plan, o.PlanPos = pl, ps
	return o, p.done()
}

const standingForm = "STANDING CAVALRY RETREAT [<unit>|ALL] ALWAYS | NEVER | ASK | IF OUTNUMBERED | IF ENEMY INF|CAV|ART"

// isWhen reports whether t starts a standing order's condition.
func isWhen(t ptok) bool {
	return isWord(t, "ALWAYS", 3) || isWord(t, "NEVER", 2) || isWord(t, "ASK", 3) || isWord(t, "IF", 2)
}

// cavalry reads what follows CAVALRY (or STANDING CAVALRY): RETREAT, then
// a standing order's unit (or ALL) and condition, or the answer to a
// Cavalry Retreat asked now: a unit and its path, or NONE.
func (p *parser) cavalry(o Order, standing bool) (Order, bool) {
	t, more := p.next()
	if !more || !isWord(t, "RETREAT", 3) {
		if !more {
			t = p.endTok()
		}
		p.problem(t, "CAVALRY is followed by RETREAT", standingForm)
		return o, false
	}
	n, more := p.peek()
	if !more {
		p.problem(p.endTok(), "name the cavalry unit that retreats, or give a standing order", "CAVALRY RETREAT <unit> <hex>...  or  "+standingForm)
		return o, false
	}
	all := false
	switch {
	case isWord(n, "ALL", 3):
		p.next()
		all = true
	case isWhen(n):
		all = true
	default:
		p.next()
		id, ok := p.myUnit(n)
		if !ok {
			return o, false
		}
		o.Unit, o.UnitCol = id, n.Col
	}
	w, more := p.peek()
	if all || standing || more && isWhen(w) {
		o.Kind = oStanding
		p.form = standingForm
		if !more || !isWhen(w) {
			p.problem(p.endTok(), "say when the cavalry retreats: ALWAYS, NEVER, ASK (ask me each time) or IF OUTNUMBERED / IF ENEMY INF|CAV|ART", standingForm)
			return o, false
		}
		p.next()
		switch {
		case isWord(w, "ALWAYS", 3):
			o.When = "always"
		case isWord(w, "NEVER", 2):
			o.When = "never"
		case isWord(w, "ASK", 3):
			o.When = "ask"
		default:
			c, more := p.next()
			switch {
			case more && isWord(c, "OUTNUMBERED", 3):
				o.When = "outnumbered"
			case more && isWord(c, "ENEMY", 2):
				ty, more := p.next()
				typ := strings.ToLower(ty.Text)
				if !more || !slices.Contains(UnitTypes, typ) {
					p.problem(ty, "IF ENEMY takes the marching unit's type: INF, CAV or ART", "IF ENEMY INF")
					return o, false
				}
				o.When = "enemy=" + typ
			default:
				if !more {
					c = p.endTok()
				}
				p.problem(c, "the conditions are IF OUTNUMBERED (the marching enemy has more Manpower) and IF ENEMY INF|CAV|ART", standingForm)
				return o, false
			}
		}
		return o, p.done()
	}
	o.Kind = oRetreat
	if more && isWord(w, "NONE", 2) {
		p.next()
		o.Rule.Result = "none"
		return o, p.done()
	}
	for {
		h, more := p.next()
		if !more {
			break
		}
		hx, ok := p.parseHex(h)
		if !ok {
			return o, false
		}
		o.Rule.Hexes = append(o.Rule.Hexes, hx)
	}
	return o, true
}

func (p *parser) activate(o Order) (Order, bool) {
	const ex = "ACTIVATE <leader>: <unit> <hex>...; <unit> <hex>..."
	t, more := p.next()
	if !more {
		p.problem(p.endTok(), "ACTIVATE takes a leader and the units it activates, each with its path", ex)
		return o, false
	}
	id, ok := p.myLeader(t)
	if !ok {
		return o, false
	}
	o.Leader, o.LCol = id, t.Col
	for {
		n, more := p.peek()
		if !more {
			break
		}
		if n.Punct && (n.Text == ":" || n.Text == ";") {
			p.next()
			continue
		}
		if isHexTok(n) {
			p.problem(n, "name the unit before its path", ex)
			return o, false
		}
		p.next()
		if why := notInActivation(n); why != "" {
			p.problem(n, why, ex)
			return o, false
		}
		uid, ok := p.myUnit(n)
		if !ok {
			return o, false
		}
		pl, ps, ok := p.parsePlan(uid, ex)
		if !ok {
			return o, false
		}
		o.Entries = append(o.Entries, Entry{Unit: uid, Line: n.Line, Col: n.Col, Text: n.Src, Plan: pl, PlanPos: ps})
	}
	if len(o.Entries) == 0 {
		p.problem(p.endTok(), "name at least one unit to activate (GCACW 5.2.2)", ex)
		return o, false
	}
	return o, true
}

func (p *parser) transfer(o Order, ex string) (Order, bool) {
	t, more := p.next()
	if !more {
		p.problem(p.endTok(), "TRANSFER takes a leader and the unit it joins", ex)
		return o, false
	}
	id, ok := p.myLeader(t)
	if !ok {
		return o, false
	}
	o.Leader, o.LCol = id, t.Col
	n, more := p.next()
	if more && isWord(n, "TO", 2) {
		n, more = p.next()
	}
	if !more {
		p.problem(p.endTok(), "name the unit the leader joins", ex)
		return o, false
	}
	uid, ok := p.myUnit(n)
	if !ok {
		return o, false
	}
	o.Target, o.UnitCol = uid, n.Col
	return o, p.done()
}

var ruleWords = []string{"ADVANCE", "ATTACKS", "BATTLE", "CASUALTY", "DISORGANIZED", "DONE", "EXHAUSTED", "EXTENDED", "FATIGUE", "FIGHT", "INITIATIVE", "LOSS", "MANPOWER", "MARCH", "ORGANIZED", "PLACE", "RESTED", "RETREAT", "TRANSFER", "WINNER"}

const ruleForms = "RULE ATTACKS ALLOWED|REFUSED, RULE EXTENDED MARCH <unit> NE|D|1|2|3, RULE MARCH <unit> <hex>, RULE RETREAT <unit> <hex>… | NONE, RULE INITIATIVE USA|CSA|END, RULE FATIGUE <unit> <0-4>, RULE ORGANIZED|DISORGANIZED|EXHAUSTED|RESTED <unit>, RULE MANPOWER <unit> <n>, RULE PLACE <unit> <hex>, RULE TRANSFER <leader> TO <unit>, RULE WINNER USA|CSA|DRAW, RULE DONE; for an assault: RULE LOSS <unit> <n>, RULE RETREAT <unit> <hex>…, RULE CASUALTY <leader>, RULE ADVANCE <unit> <hex>, or " + fightForm + "; for a battle fought out: " + battleResultForm

func (p *parser) rule(o Order) (Order, bool) {
	t, more := p.next()
	if !more {
		p.problem(p.endTok(), "RULE takes what is ruled", ruleForms)
		return o, false
	}
	if isWord(t, "CAVALRY", 2) { // RULE CAVALRY RETREAT …
		if t, more = p.next(); !more {
			p.problem(p.endTok(), "RULE CAVALRY RETREAT takes the unit and its path, or NONE", "RULE CAVALRY RETREAT NONE")
			return o, false
		}
	}
	w, cands := keyword(t.Text, ruleWords)
	if w == "" {
		if len(cands) > 1 {
			p.problem(t, fmt.Sprintf("%q could be %s", t.Text, strings.Join(cands, " or ")), "write more of the word")
		} else {
			p.problem(t, fmt.Sprintf("%q is not a ruling", t.Text), ruleForms)
		}
		return o, false
	}
	r := &o.Rule
	r.What = strings.ToLower(w)
	unit := func() bool {
		n, more := p.next()
		if !more {
			p.problem(p.endTok(), "name the unit", "RULE "+w+" <unit>")
			return false
		}
		id, ok := p.myUnit(n)
		r.Unit = id
		o.UnitCol = n.Col
		return ok
	}
	number := func(lo, hi int, ex string) bool {
		n, more := p.next()
		v, err := strconv.Atoi(n.Text)
		if !more || err != nil || v < lo || v > hi {
			p.problem(n, fmt.Sprintf("want a number from %d to %d", lo, hi), ex)
			return false
		}
		r.N = v
		return true
	}
	switch r.What {
	case "extended":
		if n, more := p.peek(); more && isWord(n, "MARCH", 3) {
			p.next()
		}
		if !unit() {
			return o, false
		}
		n, more := p.next()
		res := strings.ToUpper(n.Text)
		if !more || !slices.Contains(emResults, res) {
			p.problem(n, "the Extended March results are NE, D, 1, 2 and 3", "RULE EXTENDED MARCH <unit> NE")
			return o, false
		}
		r.Result = res
	case "march", "place", "advance":
		if !unit() {
			return o, false
		}
		n, more := p.next()
		if !more {
			p.problem(p.endTok(), "give the hex", "RULE "+w+" <unit> <hex>")
			return o, false
		}
		h, ok := p.parseHex(n)
		if !ok {
			return o, false
		}
		r.Hexes = []hex.Hex{h}
	case "retreat":
		if n, more := p.peek(); more && isWord(n, "NONE", 2) {
			p.next()
			r.Result = "none"
			break
		}
		if !unit() {
			return o, false
		}
		for {
			n, more := p.next()
			if !more {
				break
			}
			h, ok := p.parseHex(n)
			if !ok {
				return o, false
			}
			r.Hexes = append(r.Hexes, h)
		}
		if len(r.Hexes) == 0 {
			p.problem(p.endTok(), "give the retreat path", "RULE RETREAT <unit> <hex> <hex>")
			return o, false
		}
	case "attacks":
		n, more := p.next()
		switch {
		case more && isWord(n, "ALLOWED", 2):
			r.Result = "allowed"
		case more && isWord(n, "REFUSED", 3):
			r.Result = "refused"
		default:
			if !more {
				n = p.endTok()
			}
			p.problem(n, "RULE ATTACKS takes ALLOWED or REFUSED: whether a march may end attacking an enemy unit (GCACW 5.1.5)", "RULE ATTACKS ALLOWED")
			return o, false
		}
	case "initiative", "winner":
		n, more := p.next()
		v := strings.ToUpper(n.Text)
		valid := []string{USA, CSA, "END"}
		if r.What == "winner" {
			valid = []string{USA, CSA, "DRAW"}
		}
		if !more || !slices.Contains(valid, v) {
			p.problem(n, "want "+strings.Join(valid, ", "), "RULE "+w+" "+valid[1])
			return o, false
		}
		r.Result = v
		if r.What == "winner" {
			var rest []string
			for {
				n, more := p.next()
				if !more {
					break
				}
				rest = append(rest, n.Text)
			}
			r.Note = strings.Join(rest, " ")
		}
	case "fatigue":
		if !unit() || !number(0, 4, "RULE FATIGUE <unit> 1") {
			return o, false
		}
	case "manpower":
		if !unit() || !number(0, 21, "RULE MANPOWER <unit> 6") {
			return o, false
		}
	case "loss":
		if !unit() || !number(1, 21, "RULE LOSS <unit> 2") {
			return o, false
		}
	case "casualty":
		n, more := p.next()
		if !more {
			p.problem(p.endTok(), "name the leader who falls", "RULE CASUALTY <leader>")
			return o, false
		}
		id, ok := p.myLeader(n)
		if !ok {
			return o, false
		}
		r.Leader, o.UnitCol = id, n.Col
	case "organized", "disorganized", "exhausted", "rested":
		if !unit() {
			return o, false
		}
	case "transfer":
		t2, ok := p.transfer(o, "RULE TRANSFER <leader> TO <unit>")
		if !ok {
			return o, false
		}
		t2.Rule.What = "transfer"
		t2.Rule.Leader, t2.Rule.Unit = t2.Leader, t2.Target
		return t2, true
	case "fight":
		if !p.fightOut(o, r) {
			return o, false
		}
	case "battle":
		if !p.battleResult(r) {
			return o, false
		}
	case "done":
	}
	return o, p.done()
}
