package gbacw

import (
	"regexp"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/hex"
	"pbem/engine/play"
	"pbem/events"
)

// harness plays orders against a state with a real dice stream, or with
// dice the test scripts (each d10 roll takes the next value; 0-9).
type harness struct {
	t    *testing.T
	st   *State
	dice engine.Dice
	last engine.Decision
	// rolls, when set, are the next d10 values (as the die shows them).
	rolls []int
}

func newHarness(t *testing.T, seed string) *harness {
	t.Helper()
	return newHarnessOf(t, seed, mustScenario(t, "tanners-mill"))
}

func mustScenario(t testing.TB, name string) []byte {
	t.Helper()
	b, err := Scenario(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func newHarnessOf(t *testing.T, seed string, scn []byte) *harness {
	t.Helper()
	sc, err := ParseScenario(scn)
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, st: newState(sc)}
	stream := play.NewStream([]byte(seed), "test", 0)
	h.dice = engine.DiceFunc(func(purpose string, sides int) int {
		if len(h.rolls) > 0 && sides == 10 {
			v := h.rolls[0]
			h.rolls = h.rolls[1:]
			if v == 0 {
				return 10 // the die's 0
			}
			return v
		}
		return stream.Roll(purpose, sides)
	})
	return h
}

// send decides text for side and applies its facts; it returns the problems.
func (h *harness) send(side, text string) []events.Problem {
	h.t.Helper()
	os, probs := parseOrders(h.st, side, text)
	if len(probs) > 0 {
		return probs
	}
	d, err := decide(h.st, side, os, h.dice)
	if err != nil {
		h.t.Fatalf("%q: %v", text, err)
	}
	h.last = d
	if len(d.Problems) > 0 {
		return d.Problems
	}
	checkTold(h.t, h.st, d.Facts)
	st, err := evolveAll(h.st, d.Facts)
	if err != nil {
		h.t.Fatalf("%q: evolve: %v", text, err)
	}
	h.st = st
	return nil
}

func (h *harness) must(side, text string) {
	h.t.Helper()
	if probs := h.send(side, text); len(probs) > 0 {
		h.t.Fatalf("%s %q rejected: %+v\n%s", side, text, probs, render(h.st, engine.Viewer{Referee: true}).Window)
	}
}

// refused sends text and requires it refused with a message holding want.
func (h *harness) refused(side, text, want string) {
	h.t.Helper()
	probs := h.send(side, text)
	if len(probs) == 0 {
		h.t.Fatalf("%s %q accepted; want refused with %q\n%s", side, text, want, h.echo())
	}
	for _, p := range probs {
		if strings.Contains(p.Msg, want) {
			return
		}
	}
	h.t.Fatalf("%s %q refused with %+v; want %q", side, text, probs, want)
}

func (h *harness) echo() string { return strings.Join(h.last.Echo, "\n") }

// told reports whether the last decision told a fact holding want.
func (h *harness) told(want string) bool {
	for _, f := range h.last.Facts {
		if strings.Contains(describe(h.st, f), want) || strings.Contains(f.String(), want) {
			return true
		}
	}
	return strings.Contains(h.echo(), want)
}

func (h *harness) facts() string {
	var b strings.Builder
	for _, f := range h.last.Facts {
		b.WriteString(f.String() + "\n")
	}
	return b.String()
}

// fieldScn is a test scenario: an open map of 12x12 hexes with woods at
// 0505 and 0703 (on the road), a hill (0606 level 1, 0607 level 1
// gradual, 0608 level 2), water at 0909, marsh at 0404 and 0510 (on the
// trail), a town at 0410; a stream along column 08/09
// crossed by the road's bridge (0803/0903) and a ford (0806/0906); a
// crest at 0302/0402, a wall at 0303/0403; a road along row 03 and a
// trail along row 10. Each side has a corps of an infantry division (two
// brigades) and a cavalry division, its leaders and units out of the
// way at the map's edge until a test places them. opts are option
// words, extra is appended (more sections, or tables that replace the
// sample's).
func fieldScn(opts, extra string) []byte {
	if opts != "" && !strings.HasPrefix(opts, "option") {
		opts = "option " + opts
	}
	s := `scenario Test Field
turns 3
tables sample-tables
` + opts + `
[map]
hexes 0101 1212
default clear 0
0505 woods
0606 clear 1
0607 clear 1 gradual
0608 clear 2
0909 water
0404 marsh
0410 town
0510 marsh
0703 woods
[hexsides]
0801/0901 stream
0802/0902 stream
0803/0903 stream bridge
0804/0904 stream
0805/0905 stream
0806/0906 stream ford
0807/0907 stream
0302/0402 crest
0303/0403 wall
[routes]
road "Test Road" 0103 0203 0303 0403 0503 0603 0703 0803 0903 1003 1103 1203
trail "Test Trail" 0110 0210 0310 0410 0510 0610
[forces]
army USA leader "U Army"
army CSA leader "C Army"
corps "U Corps" side USA leader "U Corps Leader" efficiency B
division "U Div" corps "U Corps" leader "U Div Leader"
division "U Cav Div" corps "U Corps" leader "U Cav Leader"
brigade "U1" division "U Div" leader "U1 Leader" order advance
brigade "U2" division "U Div" leader "U2 Leader" order advance
brigade "UC" division "U Cav Div" leader "UC Leader" order advance
corps "C Corps" side CSA leader "C Corps Leader" efficiency B
division "C Div" corps "C Corps" leader "C Div Leader"
division "C Cav Div" corps "C Corps" leader "C Cav Leader"
brigade "C1" division "C Div" leader "C1 Leader" order advance
brigade "C2" division "C Div" leader "C2 Leader" order advance
brigade "CC" division "C Cav Div" leader "CC Leader" order advance
leader "U Army"         side USA code UAR hex 0112 stars 1 range 10 initiative 2 reverse 0/8
leader "U Corps Leader" side USA code UCO hex 0112 stars 1 range 8 reverse 0/6
leader "U Div Leader"   side USA code UDV hex 0106 stars 0 range 6 reverse 0/5
leader "U Cav Leader"   side USA code UCV hex 0112 stars 0 range 8 reverse 0/6
leader "U1 Leader"      side USA code UL1 hex 0101 stars 1 range 4 aggressive reverse 0/3
leader "U2 Leader"      side USA code UL2 hex 0102 stars 0 range 4 reverse 0/3
leader "UC Leader"      side USA code ULC hex 0105 stars 1 range 5 reverse 0/4
leader "C Army"         side CSA code CAR hex 1212 stars 1 range 10 initiative 1 reverse 0/8
leader "C Corps Leader" side CSA code CCO hex 1212 stars 1 range 8 reverse 0/6
leader "C Div Leader"   side CSA code CDV hex 1206 stars 0 range 6 reverse 0/5
leader "C Cav Leader"   side CSA code CCV hex 1212 stars 0 range 8 reverse 0/6
leader "C1 Leader"      side CSA code CL1 hex 1201 stars 1 range 4 reverse 0/3
leader "C2 Leader"      side CSA code CL2 hex 1202 stars 0 range 4 reverse 0/3
leader "CC Leader"      side CSA code CLC hex 1205 stars 1 range 5 reverse 0/4
unit "U1a"    code U1A brigade "U1" type inf  sp 6 cohesion 6/4 ma 6/4   weapon rifle    hex 0101 facing SSE
unit "U1b"    code U1B brigade "U1" type inf  sp 5 cohesion 6/4 ma 6/4   weapon rifle    hex 0102 facing SSE
unit "U Bat"  code UBT brigade "U1" type art  sp 3 cohesion 5/3 ma 5/5   weapon napoleon hex 0103 facing SSE
unit "U2a"    code U2A brigade "U2" type inf  sp 7 cohesion 5/3 ma 6/4   weapon rifle    hex 0104 facing SSE green
unit "U2b"    code U2B brigade "U2" type inf  sp 4 cohesion 6/4 ma 6/4   weapon musket   hex 0106 facing SSE
unit "UCa"    code UCA brigade "UC" type cav  sp 4 cohesion 6/4 ma 10/8  weapon carbine  hex 0105 facing SSE mounted
unit "UCb"    code UCB brigade "UC" type cav  sp 3 cohesion 6/4 ma 10/8  weapon rifle    hex 0107 facing SSE mounted
unit "U Horse" code UHA brigade "UC" type hart sp 2 cohesion 5/3 ma 10/10 weapon napoleon hex 0108 facing SSE
unit "C1a"    code C1A brigade "C1" type inf  sp 6 cohesion 6/4 ma 6/4   weapon rifle    hex 1201 facing SSW
unit "C1b"    code C1B brigade "C1" type inf  sp 5 cohesion 6/4 ma 6/4   weapon rifle    hex 1202 facing SSW
unit "C Bat"  code CBT brigade "C1" type art  sp 3 cohesion 5/3 ma 5/5   weapon napoleon hex 1203 facing SSW
unit "C2a"    code C2A brigade "C2" type inf  sp 7 cohesion 5/3 ma 6/4   weapon rifle    hex 1204 facing SSW green
unit "C2b"    code C2B brigade "C2" type inf  sp 4 cohesion 6/4 ma 6/4   weapon musket   hex 1206 facing SSW
unit "CCa"    code CCA brigade "CC" type cav  sp 4 cohesion 6/4 ma 10/8  weapon carbine  hex 1205 facing SSW mounted
unit "CCb"    code CCB brigade "CC" type cav  sp 3 cohesion 6/4 ma 10/8  weapon carbine  hex 1207 facing SSW mounted
unit "C Horse" code CHA brigade "CC" type hart sp 2 cohesion 5/3 ma 10/10 weapon napoleon hex 1208 facing SSW
[victory]
objective 0606 vp 2 held USA
loss-vp 1
` + extra
	return []byte(s)
}

// newField is a harness on the test field, turn 1 begun with no dice
// rolled (the initiative USA's), in the Activation Segment with nothing
// activated.
func newField(t *testing.T, opts, extra string) *harness {
	t.Helper()
	h := newHarnessOf(t, "field", fieldScn(opts, extra))
	h.facts0(
		events.NewFact("turn.begun", events.I("turn", 1)),
		events.NewFact("initiative.rolled", events.I("usa", 5), events.I("csa", 1), events.I("usa_drm", 0), events.I("csa_drm", 0), events.S("side", USA)),
		events.NewFact("phase.set", events.S("phase", PhaseActivation)),
	)
	return h
}

// facts0 applies facts directly (a test's setting of the scene).
func (h *harness) facts0(fs ...events.Fact) {
	h.t.Helper()
	st, err := evolveAll(h.st, fs)
	if err != nil {
		h.t.Fatal(err)
	}
	h.st = st
}

// set sends referee SET lines, each "<target> <field> <value>".
func (h *harness) set(lines ...string) {
	h.t.Helper()
	for _, l := range lines {
		h.must(engine.RefereeSide, "SET "+l)
	}
}

// put places a unit at a hex facing a vertex (or side).
func (h *harness) put(unit, at, facing string) {
	h.t.Helper()
	h.set(unit+" HEX "+at, unit+" FACING "+facing)
}

// leaderAt places a leader.
func (h *harness) leaderAt(leader, at string) {
	h.t.Helper()
	h.set(leader + " HEX " + at)
}

// activate makes side's AM for what (a division, or March) the one
// activated, as if drawn.
func (h *harness) activate(side, what string) {
	h.t.Helper()
	am := side + "|" + what
	if h.st.Phase != PhaseActivation {
		h.facts0(events.NewFact("phase.set", events.S("phase", PhaseActivation)))
	}
	acting, skipping := h.st.actingFor(side, what)
	h.facts0(
		events.NewFact("pool.filled", events.SL("ams", am)),
		events.NewFact("am.drawn", events.S("am", am), events.I("dr", 1), events.SL("acting", acting...), events.SL("skipping", skipping...)),
	)
}

// u is a unit of the harness's state.
func (h *harness) u(name string) *Unit {
	h.t.Helper()
	u := h.st.unit(name)
	if u == nil {
		h.t.Fatalf("no unit %q", name)
	}
	return u
}

// standing sets a side's standing orders.
func (h *harness) standing(side string, lines ...string) {
	h.t.Helper()
	for _, l := range lines {
		h.must(side, "STANDING "+l)
	}
}

type hexT = hex.Hex

func mustHex(s string) hex.Hex { return hex.MustParse(s) }

// noReactions gives a side standing orders never to react.
func (h *harness) noReactions(side string) {
	h.t.Helper()
	for _, r := range reactions {
		h.must(side, "STANDING "+r+" ALL NEVER")
	}
}

const engineRef = engine.RefereeSide

func eS(k, v string) events.Arg       { return events.S(k, v) }
func eI(k string, v int64) events.Arg { return events.I(k, v) }

type engineDice = engine.Dice

type eventsArg = events.Arg
type eventsFact = events.Fact

func newFact(kind string, args ...events.Arg) events.Fact { return events.NewFact(kind, args...) }

// rawArg is a fact's argument as pbem log writes it ("unit=U1a").
var rawArg = regexp.MustCompile(`(^|\s)[a-z_]+=`)

// checkTold fails unless every fact matches its schema and is told in
// words (engine.Teller): a sentence, never empty, never the raw
// "kind key=value" of pbem log. The harness calls it on every decision,
// so every fact the rule tests reach is checked, not only those of the
// acceptance scripts. st is the state before the decision.
func checkTold(tb testing.TB, st *State, fs []events.Fact) {
	tb.Helper()
	schemas := engine.SchemasOf(New())
	for _, f := range fs {
		if err := schemas.Check(f); err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		if s := describe(st, f); strings.TrimSpace(s) == "" || strings.Contains(s, f.Kind+" ") || rawArg.MatchString(s) {
			tb.Fatalf("%s is told as %q: say it in words", f, s)
		}
	}
}
