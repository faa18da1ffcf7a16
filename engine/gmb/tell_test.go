package gmb

import (
	"regexp"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/events"
)

// raw is a fact as pbem log writes it ("unit.moved unit=…") or a field
// told by its key: players' mails never show either (engine.Teller).
var raw = regexp.MustCompile(`(^|\s)[a-z_]+\.[a-z_]+ [a-z_]+=|(^|\s)[a-z_]+=\S|%!`)

// sample is a fact of schema s with every argument given (or only the
// required ones), each of a plausible value.
func sample(s engine.FactSchema, all bool) events.Fact {
	f := events.Fact{Kind: s.Kind}
	for _, a := range s.Args {
		if a.Optional && !all {
			continue
		}
		switch a.Kind {
		case events.ArgInt:
			f.Args = append(f.Args, events.I(a.Key, 2))
		case events.ArgStr:
			v := "Union"
			switch a.Key {
			case "id":
				v = "woods 1"
			case "step":
				v = StepNormal
			}
			f.Args = append(f.Args, events.S(a.Key, v))
		case events.ArgInts:
			in := int64(25400)
			f.Args = append(f.Args, events.IL(a.Key, 0, 0, in, 0, in, in, 0, in))
		case events.ArgStrs:
			f.Args = append(f.Args, events.SL(a.Key, "Meade", "Hooker"))
		case events.ArgBool:
			f.Args = append(f.Args, events.B(a.Key, true))
		}
	}
	return f
}

// The lead's Teller contract: every kind of fact GMB decides has a schema
// and a sentence, with every argument or only the required ones, and no
// fact is told by its raw fields; step.begun has a sentence for each
// step.
func TestEveryFactIsToldInWords(t *testing.T) {
	st := newGame(t).st
	schemas := engine.NewSchemas(factSet.Schemas()...)
	check := func(f events.Fact) {
		t.Helper()
		if err := schemas.Check(f); err != nil {
			t.Fatal(err)
		}
		s := describe(st, f)
		if strings.TrimSpace(s) == "" || strings.Contains(s, f.Kind) || raw.MatchString(s) {
			t.Errorf("%s is told as %q", f, s)
		}
	}
	for _, s := range factSet.Schemas() {
		check(sample(s, true))
		check(sample(s, false))
	}
	for _, step := range steps {
		check(events.Fact{Kind: "step.begun", Args: []events.Arg{events.S("step", step), events.S("side", "Union"), events.I("n", 2)}})
	}
	// Every kind Decide makes is among the schemas: a fact not told would
	// be refused by the runtime.
	if n := describe(st, events.Fact{Kind: "no.such"}); n != "" {
		t.Errorf("an unknown fact is told as %q", n)
	}
	if s := stepSentence(st, "no-such-step", "Union", 0); s != "" {
		t.Errorf("an unknown step is told as %q", s)
	}
}
