package gcacw

import (
	"strings"
	"testing"

	"pbem/engine"
)

func ordersHarness(t *testing.T) *harness {
	return newHarness(t, scn{
		units: `USA NEWT "Newton" inf XX str=7 at=0505 in=VI
USA NEWH "Newhall" inf X str=3 at=0606 in=VI
USA LUK "Łukasiewicz" inf X str=3 at=0404 in=VI
USA OHIO "1st Ohio Squadron" cav II str=1 at=0303
CSA JACK "Jackson" inf XX str=8 at=1010 in=V`,
		leaders: `USA SEDG "Sedgwick" corps cmd=3 tac=2 commands=VI with=NEWT`,
		tables:  flatTEC + emTable(""),
	}.bytes())
}

func parseOne(t *testing.T, h *harness, side, text string) Order {
	t.Helper()
	os, probs := parseOrders(h.st, side, text)
	if len(probs) > 0 || len(os) != 1 {
		t.Fatalf("%q: %v (%d orders)", text, probs, len(os))
	}
	return os[0]
}

// Names match case- and accent-insensitively, by unique prefix, by name or
// code, ignoring a trailing possessive; keywords are case-insensitive and
// abbreviable.
func TestParseNamesAndKeywords(t *testing.T) {
	h := ordersHarness(t)
	for _, tc := range []struct{ text, unit string }{
		{"MARCH Newton 0504", "NEWT"},
		{"march newton's 0504", "NEWT"},
		{"MAR NEWTON’S 0504", "NEWT"},
		{"m newt 0504", "NEWT"},
		{"MARCH Newto 0504", "NEWT"},
		{"MARCH newha 0605", "NEWH"},
		{"MARCH lukasiewicz 0403", "LUK"},
		{"MARCH ŁUKASIEWICZ's 0403", "LUK"},
		{"MARCH luk 0403", "LUK"},
		{"MARCH \"1st Ohio\" 0302", "OHIO"},
		{"MARCH ohio 0302", "OHIO"},
		{"MARCH 1st 0302", "OHIO"},
	} {
		o := parseOne(t, h, USA, tc.text)
		if o.Kind != oMarch || o.Unit != tc.unit {
			t.Errorf("%q: %s %s, want MARCH %s", tc.text, o.Kind, o.Unit, tc.unit)
		}
	}
	if o := parseOne(t, h, USA, "act sedg: newton 0504"); o.Kind != oActivate || o.Leader != "SEDG" || o.Entries[0].Unit != "NEWT" {
		t.Errorf("%+v", o)
	}
	if o := parseOne(t, h, USA, "pa"); o.Kind != oPass {
		t.Errorf("%+v", o)
	}
	if o := parseOne(t, h, USA, "TAKE MARCH Newton 0504"); o.Kind != oMarch {
		t.Errorf("TAKE + MARCH on one line: %+v", o)
	}
}

func TestParseProblems(t *testing.T) {
	h := ordersHarness(t)
	for _, tc := range []struct {
		text      string
		line, col int
		msg, hint string
	}{
		{"MARCH New 0504", 1, 7, `"New" could be Newhall (NEWH) or Newton (NEWT)`, "write more of the name"},
		{"MARCH Newtn 0504", 1, 7, `no unit is called "Newtn"`, "did you mean Newton (NEWT)?"},
		{"MARCH Jackson 0909", 1, 7, "Jackson (JACK) is a CSA unit", ""},
		{"T", 1, 1, `"T" could be TAKE or TRANSFER`, ""},
		{"MRACH Newton 0504", 1, 1, `"MRACH" is not an order`, "did you mean MARCH?"},
		{"MARCH Newton 504", 1, 14, `"504" is not a hex number`, ""},
		{"MARCH Newton 0507", 1, 14, "0507 is not next to 0505", "the hexes next to 0505 are 0504 0604 0605 0506 0405 0404"},
		{"MARCH Newton 0504 1199", 1, 19, "hex 1199 is not on the map (0101 to 1010)", ""},
		{"MARCH Newton TO", 1, 16, "TO takes the hex to march to", ""},
		{"MARCH Newton TO 0406 0407", 1, 22, "TO 0406 ends the path", ""},
		{"MARCH Newton END 0406", 1, 18, "END ends the path", ""},
		{"MARCH Newton 0504 FORCE IF MA", 1, 28, "FORCE IF MA takes a comparison and a number", ""},
		{"MARCH Newton 0504 STOP AT 0503", 1, 31, "STOP AT 0503: 0503 is not on the path", ""},
		{"# a comment\n\nMARCH Łukasiewicz 0403 0402 0909", 3, 29, "0909 is not next to 0402", ""},
		{"RULE DONE", 1, 1, "only the referee sends RULE", ""},
		{"PASS now", 1, 6, "PASS takes nothing after it", ""},
		{"CANCEL x", 1, 8, "CANCEL takes the number of a queued order", ""},
		{"QUEUE TRANSFER Sedgwick TO Newton", 1, 7, "QUEUE keeps MARCH, ACTIVATE or PASS orders", ""},
		{"ACTIVATE Sedgwick 0504", 1, 19, "name the unit before its path", ""},
		{"", 1, 1, "the mail holds no order", ""},
		{"MARCH \"Newton 0504", 1, 1, "a quoted text is not closed", ""},
	} {
		_, probs := parseOrders(h.st, USA, tc.text)
		if len(probs) == 0 {
			t.Errorf("%q: no problem", tc.text)
			continue
		}
		p := probs[0]
		if p.Line != tc.line || p.Col != tc.col || !strings.Contains(p.Msg, tc.msg) || !strings.Contains(p.Hint, tc.hint) {
			t.Errorf("%q: %d:%d %q (hint %q); want %d:%d %q (hint %q)", tc.text, p.Line, p.Col, p.Msg, p.Hint, tc.line, tc.col, tc.msg, tc.hint)
		}
		if tc.text != "" && p.Text == "" {
			t.Errorf("%q: the problem quotes no text", tc.text)
		}
	}
}

// Mail conventions of docs/ORDERS.md: quoted lines, "On … wrote:", the
// signature are ignored; a line indented further continues the order above.
func TestParseMailConventions(t *testing.T) {
	h := ordersHarness(t)
	text := "ACTIVATE Sedgwick:\n  Newton 0504\n  Newhall 0605\n-- \nAnna\n\nOn Tue, Bob wrote:\n> MARCH Newton 0909\n"
	os, probs := parseOrders(h.st, USA, text)
	if len(probs) > 0 || len(os) != 1 || len(os[0].Entries) != 2 {
		t.Fatalf("%v %+v", probs, os)
	}
	// Only a deeper indent continues: orders copied from a mail with its
	// indent, every line alike, stay two orders.
	text = "    ACTIVATE Sedgwick:\n      Newton 0504\n    PASS"
	if os, probs := parseOrders(h.st, USA, text); len(probs) > 0 || len(os) != 2 || len(os[0].Entries) != 1 || os[1].Kind != oPass {
		t.Fatalf("%v %+v", probs, os)
	}
	text = "> quoted\nOn Mon, 1 Jan 1863, Bob wrote:\nPASS"
	if os, probs := parseOrders(h.st, USA, text); len(probs) > 0 || len(os) != 1 || os[0].Kind != oPass || os[0].Line != 3 {
		t.Fatalf("%v %+v", probs, os)
	}
	// Columns count runes: the accent before the error does not shift it.
	_, probs = parseOrders(h.st, USA, "MARCH Łukasiewicz 0403 0909")
	if len(probs) != 1 || probs[0].Col != 24 {
		t.Errorf("%+v", probs)
	}
}

// The referee's rulings parse; players' words do not.
func TestParseReferee(t *testing.T) {
	h := ordersHarness(t)
	for _, tc := range []struct{ text, what string }{
		{"RULE EXTENDED MARCH Newton D", "extended"},
		{"rule ext newt 2", "extended"},
		{"RULE MARCH Newton 0504", "march"},
		{"RULE RETREAT NONE", "retreat"},
		{"RULE CAVALRY RETREAT Jackson 1009 1008", "retreat"},
		{"RULE INITIATIVE csa", "initiative"},
		{"RULE FATIGUE Jackson 2", "fatigue"},
		{"RULE TRANSFER Sedgwick TO Newhall", "transfer"},
		{"RULE WINNER DRAW nobody held the ford", "winner"},
		{"RULE DO", "done"},
	} {
		o := parseOne(t, h, engine.RefereeSide, tc.text)
		if o.Rule.What != tc.what {
			t.Errorf("%q: %q", tc.text, o.Rule.What)
		}
	}
	_, probs := parseOrders(h.st, engine.RefereeSide, "PASS")
	if len(probs) != 1 || !strings.Contains(probs[0].Msg, "the referee sends RULE") {
		t.Errorf("%+v", probs)
	}
	_, probs = parseOrders(h.st, engine.RefereeSide, "RULE D")
	if len(probs) != 1 || !strings.Contains(probs[0].Msg, "could be DISORGANIZED or DONE") {
		t.Errorf("%+v", probs)
	}
}

// A plan survives its round trip through a fact.
func TestPlanRoundTrip(t *testing.T) {
	h := ordersHarness(t)
	for _, text := range []string{
		"MARCH Newton 0504",
		"MARCH Newton 0504 0503 FORCE",
		"MARCH Newton 0504 0503 FORCE IF MA < 4 STOP AT 0503 IF ZOC THEN STOP",
		"MARCH Newton 0504 FORCE IF MA >= 3",
		"MARCH Newton 0504 FORCE IF SHORT",
	} {
		o := parseOne(t, h, USA, text)
		back, err := planFromString(o.Plan.String())
		if err != nil || back.String() != o.Plan.String() || len(back.Path) != len(o.Plan.Path) || back.Force != o.Plan.Force || back.StopAt != o.Plan.StopAt || back.ZOCStop != o.Plan.ZOCStop {
			t.Errorf("%q: %q -> %+v, %v", text, o.Plan.String(), back, err)
		}
	}
}

// GCACW 5b: of the five actions, March, Leader Activation and Assault
// (resolved by a table or a referee) are played; the others are refused,
// saying so.
func TestGCACW_5b_ActionsNotInRules(t *testing.T) {
	h := ordersHarness(t)
	for word, want := range map[string]string{"destroy 0505": "Destroy Railroad Stations", "Build": "Build Field Works"} {
		_, probs := parseOrders(h.st, USA, word)
		if len(probs) != 1 || !strings.Contains(probs[0].Msg, want) || !strings.Contains(probs[0].Msg, "(GCACW 5b)") || strings.Contains(probs[0].Msg, "R1") || probs[0].Hint == "" {
			t.Errorf("%q: %+v", word, probs)
		}
	}
}

// GCACW 5.2.2c: the field works declaration belongs to an optional rule
// whose action is not in the rules: a scenario cannot turn it on.
func TestGCACW_5_2_2c_FieldWorksOption(t *testing.T) {
	err := scenarioErr(t, strings.Replace(base, "turns 2", "turns 2\noption field-works", 1))
	mustContain(t, "field works", err, "line 4: option field-works")
	mustContain(t, "field works", err, "5.2.2c")
}
