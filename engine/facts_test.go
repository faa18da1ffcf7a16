package engine_test

import (
	"strings"
	"testing"

	"pbem/engine"
	"pbem/events"
)

// A small rule system's declarations, as a facts.go writes them.
const (
	kMoved = "unit.moved"
	kEnded = "game.ended"
	kOld   = "unit.noted"
)

var (
	testFacts = engine.NewFactSet("test")
	aUnit     = testFacts.Str("unit")
	aPath     = testFacts.Ints("path")
	aMP       = testFacts.Int("mp")
	aForced   = testFacts.Bool("forced")
	aWinner   = testFacts.Str("winner")
	aLosers   = testFacts.Strs("losers")
)

var _ = []string{
	testFacts.Kind(kMoved, aUnit, aPath, aMP, engine.Opt(aForced)),
	testFacts.Kind(kEnded, aWinner, aLosers),
	testFacts.Legacy(kOld, aUnit),
}

// panics returns the message f panics with, or "" if it returns.
func panics(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = r.(string)
		}
	}()
	f()
	return ""
}

// The fields build the same arguments events' own constructors do: the
// log's encoding of a fact does not change when a rule system declares it.
func TestFactSetBuildsTheSameFactsAsEvents(t *testing.T) {
	got := testFacts.New(kMoved, aUnit.Arg("NEWT"), aPath.Arg(2314, 2315), aMP.Arg(3), aForced.Arg(true))
	want := events.NewFact("unit.moved", events.S("unit", "NEWT"), events.IL("path", 2314, 2315), events.I("mp", 3), events.B("forced", true))
	if got.String() != want.String() {
		t.Fatalf("New gives %s, events gives %s", got, want)
	}
	a := events.EncodePayload(&events.OrderAccepted{Facts: []events.Fact{got}})
	b := events.EncodePayload(&events.OrderAccepted{Facts: []events.Fact{want}})
	if string(a) != string(b) {
		t.Fatalf("encodings differ: %x and %x", a, b)
	}
	if aUnit.Of(got) != "NEWT" || aMP.Of(got) != 3 || !aForced.Of(got) || len(aPath.Of(got)) != 2 {
		t.Fatalf("read back %q %d %v %v from %s", aUnit.Of(got), aMP.Of(got), aForced.Of(got), aPath.Of(got), got)
	}
	ended := testFacts.New(kEnded, aWinner.Arg("USA"), aLosers.Arg("CSA"))
	if aWinner.Of(ended) != "USA" || strings.Join(aLosers.Of(ended), ",") != "CSA" {
		t.Fatalf("read back %s", ended)
	}
}

// The schemas come from the declarations: a decided kind's arguments with
// their types and optional marks; a legacy kind is not among them, so a
// decision that makes one is refused.
func TestFactSetSchemas(t *testing.T) {
	var got []string
	for _, s := range testFacts.Schemas() {
		got = append(got, s.Kind)
	}
	if strings.Join(got, " ") != "unit.moved game.ended" {
		t.Fatalf("schemas of %v, want unit.moved and game.ended alone", got)
	}
	want := engine.Schema("unit.moved", "unit:s path:is mp:i ?forced:b")
	if s, _ := testFacts.Schema(kMoved); len(s.Args) != len(want.Args) {
		t.Fatalf("schema %+v, want %+v", s, want)
	} else {
		for i := range s.Args {
			if s.Args[i] != want.Args[i] {
				t.Errorf("argument %d: %+v, want %+v", i, s.Args[i], want.Args[i])
			}
		}
	}
	if err := engine.NewSchemas(testFacts.Schemas()...).Check(events.NewFact(kOld, aUnit.Arg("NEWT"))); err == nil {
		t.Error("a legacy kind passes the schemas")
	}
}

// In a test binary a field read from a fact whose kind does not carry it
// panics, whatever the fact holds: the read is a slip (the wrong field,
// or the wrong kind), which the plain accessor would have answered with
// "" or 0. OfAny is the unchecked read for code that reads across kinds.
func TestFactSetStrictReads(t *testing.T) {
	moved := testFacts.New(kMoved, aUnit.Arg("NEWT"), aPath.Arg(1), aMP.Arg(1))
	ended := testFacts.New(kEnded, aWinner.Arg("USA"), aLosers.Arg())
	cases := []struct {
		name string
		read func()
		want string // "" for no panic
	}{
		{"declared argument", func() { aUnit.Of(moved) }, ""},
		{"optional argument left out", func() { aForced.Of(moved) }, ""},
		{"argument of another kind", func() { aUnit.Of(ended) }, `reading "unit" (a string) of a fact game.ended, whose schema has no such argument`},
		{"presence of another kind's argument", func() { aMP.In(ended) }, `reading "mp"`},
		{"kind not declared", func() { aUnit.Of(events.NewFact("unit.teleported", events.S("unit", "NEWT"))) }, "a kind not declared"},
		{"legacy kind", func() { aUnit.Of(events.NewFact(kOld, events.S("unit", "NEWT"))) }, ""},
		{"unchecked read across kinds", func() { aUnit.OfAny(ended) }, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := panics(c.read)
			if c.want == "" && got != "" {
				t.Fatalf("panics: %s", got)
			}
			if c.want != "" && !strings.Contains(got, c.want) {
				t.Fatalf("panics with %q, want %q", got, c.want)
			}
		})
	}
}

// New refuses, in a test, a fact its kind's schema does not match: an
// argument missing, of another kind's, or a kind not declared.
func TestFactSetNewChecks(t *testing.T) {
	for name, c := range map[string]struct {
		build func()
		want  string
	}{
		"missing":        {func() { testFacts.New(kMoved, aUnit.Arg("NEWT")) }, `argument "path" is missing`},
		"foreign":        {func() { testFacts.New(kEnded, aWinner.Arg("USA"), aLosers.Arg(), aMP.Arg(1)) }, `argument "mp" is not in its schema`},
		"undeclared":     {func() { testFacts.New("unit.teleported") }, "a kind not declared"},
		"declared twice": {func() { testFacts.Kind(kMoved, aUnit) }, "declared twice"},
		"argument twice": {func() { engine.NewFactSet("x").Kind("a.b", aUnit, aUnit) }, "lists unit twice"},
	} {
		if got := panics(c.build); !strings.Contains(got, c.want) {
			t.Errorf("%s: panics with %q, want %q", name, got, c.want)
		}
	}
}
