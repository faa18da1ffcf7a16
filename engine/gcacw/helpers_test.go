package gcacw

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
)

// scn builds a small test scenario: a 10x10 map of clear hexes, with the
// settings, map lines, units, leaders and tables given.
type scn struct {
	game    string
	options string
	mapL    string
	units   string
	leaders string
	tables  string // inline table sections; "sample" loads the sample tables
	turns   int
	reading string // "A9 exhaust": a reading line
}

func (s scn) bytes() []byte {
	game := s.game
	if game == "" {
		game = "SSR"
	}
	turns := s.turns
	if turns == 0 {
		turns = 2
	}
	var b strings.Builder
	fmt.Fprintf(&b, "scenario Test\ngame %s\nturns %d\n", game, turns)
	if s.options != "" {
		fmt.Fprintf(&b, "option %s\n", s.options)
	}
	if s.reading != "" {
		fmt.Fprintf(&b, "reading %s\n", s.reading)
	}
	if s.tables == "sample" {
		b.WriteString("tables sample-tables\n")
	}
	fmt.Fprintf(&b, "[map]\nhexes 0101 1010\ndefault clear\n%s\n[units]\n%s\n[leaders]\n%s\n", s.mapL, s.units, s.leaders)
	if s.tables != "sample" {
		b.WriteString(s.tables)
	}
	return []byte(b.String())
}

// flatTEC is a Terrain Effects Chart where everything costs 1 MP and
// nothing adds to a move.
const flatTEC = `[terrain-effects]
clear 1 1 1
rolling 1 1 1
rough 2 2 2
woods 2 2 2
city 1 1 1
swamp 3 3 P
provisional-swamp 2 2 2
hill 2 2 2
mountain 3 3 P
water P P P
river-major P P P
river-minor P P P
creek +1 +1 +1
ridge +1 +1 +1
ford +1 +1 +1
ferry +2 +2 +2
dam +1 +1 +1
bridge 0 0 0
county-border 0 0 0
village 0 0 0
rr-station 0 0 0
landing 0 0 0
redoubt 0 0 0
pike 1 1 1
road 1 1 1
trail 1 1 1
railroad 1 1 1
`

// emTable is an Extended March Table whose only non-NE results are in the
// rows from 7 up, with a given DRM list.
func emTable(drms string) string {
	return `[extended-march]
columns O1-6 O7-21 D1-6 D7-21
<=4 NE NE NE NE
5 NE NE D 1
6 NE D 1 1
7 D 1 2 2
>=8 1 2 3 3
` + drms
}

// harness plays a game directly through the Ruleset, with scripted dice.
type harness struct {
	t  *testing.T
	rs engine.Ruleset
	st *State
}

func newHarness(t *testing.T, b []byte) *harness {
	t.Helper()
	rs := New()
	s, err := rs.Setup(b, []events.Player{{ID: "n", Side: USA}, {ID: "s", Side: CSA}})
	if err != nil {
		t.Fatalf("setup: %v", err)
	}
	return &harness{t: t, rs: rs, st: s.(*State)}
}

// dice turns "purpose=value" strings into recorded dice.
func dice(t *testing.T, rolls ...string) *play.Recorded {
	t.Helper()
	r := &play.Recorded{}
	for _, s := range rolls {
		i := strings.LastIndex(s, "=")
		v, err := strconv.Atoi(s[i+1:])
		if i < 0 || err != nil {
			t.Fatalf("bad roll %q", s)
		}
		r.Dice = append(r.Dice, events.Die{Purpose: s[:i], Sides: 6, Value: v})
	}
	return r
}

// do sends an order that must be accepted, rolling exactly the dice given
// (each "purpose=value"), and applies its facts.
func (h *harness) do(side, text string, rolls ...string) engine.Decision {
	h.t.Helper()
	os, probs := h.rs.Parse(h.st, side, text)
	if len(probs) > 0 {
		h.t.Fatalf("%s %q: parse problems: %v", side, text, probs)
	}
	d := dice(h.t, rolls...)
	dec, err := h.rs.Decide(h.st, side, os, d)
	if err != nil {
		h.t.Fatalf("%s %q: decide: %v", side, text, err)
	}
	if len(dec.Problems) > 0 {
		h.t.Fatalf("%s %q: rejected: %v", side, text, dec.Problems)
	}
	if d.Mismatch != "" || !d.Used() {
		h.t.Fatalf("%s %q: dice: %q (used all: %v)\nfacts:\n%s", side, text, d.Mismatch, d.Used(), factList(dec.Facts))
	}
	checkTold(h.t, h.st, dec.Facts)
	for _, f := range dec.Facts {
		before, _ := encodeState(h.st)
		s, err := h.rs.Evolve(h.st, f)
		if err != nil {
			h.t.Fatalf("evolve %s: %v", f, err)
		}
		if after, _ := encodeState(h.st); string(before) != string(after) {
			h.t.Fatalf("evolve %s changed its input", f)
		}
		h.st = s.(*State)
	}
	return dec
}

// reject sends an order that must be rejected, without rolling a die.
func (h *harness) reject(side, text string) []events.Problem {
	h.t.Helper()
	os, probs := h.rs.Parse(h.st, side, text)
	if len(probs) > 0 {
		return probs
	}
	d := &play.Recorded{}
	dec, err := h.rs.Decide(h.st, side, os, d)
	if err != nil {
		h.t.Fatalf("%s %q: decide: %v", side, text, err)
	}
	if len(dec.Problems) == 0 {
		h.t.Fatalf("%s %q: accepted, want rejected; facts:\n%s", side, text, factList(dec.Facts))
	}
	if d.Mismatch != "" {
		h.t.Fatalf("%s %q: a rejected order rolled dice: %s", side, text, d.Mismatch)
	}
	return dec.Problems
}

func factList(fs []events.Fact) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString("  " + f.String() + "\n")
	}
	return b.String()
}

// facts returns the facts of a decision whose kind is kind.
func facts(d engine.Decision, kind string) []events.Fact {
	var out []events.Fact
	for _, f := range d.Facts {
		if f.Kind == kind {
			out = append(out, f)
		}
	}
	return out
}

func fact(t *testing.T, d engine.Decision, kind string) events.Fact {
	t.Helper()
	fs := facts(d, kind)
	if len(fs) != 1 {
		t.Fatalf("want one %s fact, got %d in:\n%s", kind, len(fs), factList(d.Facts))
	}
	return fs[0]
}

// start passes both Leader Transfer Phases and rolls the first
// initiative: usa and csa are the two dice.
func (h *harness) start(usa, csa int) {
	h.t.Helper()
	h.do(USA, "PASS")
	h.do(CSA, "PASS", fmt.Sprintf("initiative USA=%d", usa), fmt.Sprintf("initiative CSA=%d", csa))
}

func (h *harness) unit(id string) *Unit {
	h.t.Helper()
	u := h.st.unit(id)
	if u == nil {
		h.t.Fatalf("no unit %s", id)
	}
	return u
}

func problemsText(ps []events.Problem) string {
	var ss []string
	for _, p := range ps {
		ss = append(ss, p.String())
	}
	return strings.Join(ss, "\n")
}

// refereedHarrow is Harrow Creek without its house rules.
func refereedHarrow(t testing.TB) []byte {
	t.Helper()
	b, err := Scenario("harrow-creek")
	if err != nil {
		t.Fatal(err)
	}
	return Refereed(b)
}
