package engine_test

import (
	"strings"
	"testing"

	"pbem/engine"
	"pbem/events"
)

// A fact is checked against its schema: a missing or mistyped argument,
// one given twice or one the schema does not have is an error naming it;
// a kind without a schema is an error too.
func TestFactSchemasCatchMissingAndMistypedArguments(t *testing.T) {
	ss := engine.NewSchemas(engine.Schema("unit.moved", "unit:s path:is mp:i ?forced:b"), engine.Schema("note", "texts:ss"))
	tests := []struct {
		f    events.Fact
		want string
	}{
		{events.NewFact("unit.moved", events.S("unit", "A"), events.IL("path", 1, 2), events.I("mp", 3)), ""},
		{events.NewFact("unit.moved", events.S("unit", "A"), events.IL("path", 1), events.I("mp", 3), events.B("forced", true)), ""},
		{events.NewFact("unit.moved", events.S("unit", "A"), events.IL("path", 1)), `argument "mp" is missing`},
		{events.NewFact("unit.moved", events.S("unit", "A"), events.IL("path", 1), events.S("mp", "3")), `"mp" is a string, its schema says an integer`},
		{events.NewFact("unit.moved", events.S("unit", "A"), events.S("unit", "B"), events.IL("path"), events.I("mp", 1)), `"unit" given twice`},
		{events.NewFact("unit.moved", events.S("unit", "A"), events.IL("path"), events.I("mp", 1), events.I("hp", 1)), `"hp" is not in its schema`},
		{events.NewFact("note", events.SL("texts", "x")), ""},
		{events.NewFact("unit.fled"), "no schema"},
	}
	for _, tc := range tests {
		err := ss.Check(tc.f)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.f, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v, want %q", tc.f, err, tc.want)
		}
	}
	if got := strings.Join(ss.Kinds(), " "); got != "note unit.moved" {
		t.Errorf("kinds: %s", got)
	}
}
