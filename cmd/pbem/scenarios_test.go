package main

import (
	"strings"
	"testing"
)

// pbem scenarios says what each built-in scenario is, as its rule system
// reads it: sides, map or table, turns and whether it needs a referee;
// --long adds its house rules and options.
func TestScenariosSayWhatEachScenarioIs(t *testing.T) {
	t.Parallel()
	out, errOut, code := pbem(t, nil, "scenarios")
	if code != 0 {
		t.Fatalf("scenarios: exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		"rule system gcacw ",
		"  harrow-creek\n    USA v CSA; 20 x 16 hexes; 3 turns; no referee needed\n",
		"  harrow-creek-refereed\n    USA v CSA; 20 x 16 hexes; 3 turns; needs a referee\n",
		"  tallow-valley\n    USA v CSA; 32 x 26 hexes; 6 turns; no referee needed\n",
		"rule system hra ",
		"  kettle-run\n    Union v Confederate; 120cm x 80cm table; 8 turns; no referee needed\n",
		"rule system gbacw ",
		"  tanners-mill\n    USA v CSA; 14 x 10 hexes; 3 turns; no referee needed\n",
		"rule system gmb ",
		"  hazel-run\n    Union v Confederate; table chosen by mail: 48x48 or 72x48 inches; 3 turns; needs a referee\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("scenarios lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Option ") || strings.Contains(out, "option ") {
		t.Errorf("scenarios without --long lists options:\n%s", out)
	}

	out, errOut, code = pbem(t, nil, "scenarios", "--long", "gcacw")
	if code != 0 || strings.Contains(out, "rule system hra") {
		t.Fatalf("scenarios --long gcacw: exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"- Option activation-march:", "Readings of the rules", "- A9 (GCACW", "Left to the referee (", "What pbem plays", "What this scenario's house rules add",
		"No step is left to a referee: two players can finish this game alone."} {
		if !strings.Contains(out, want) {
			t.Errorf("scenarios --long gcacw lacks %q:\n%s", want, out)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if len([]rune(l)) > 78 {
			t.Errorf("a line wider than 78 columns: %q", l)
		}
	}
	out, _, _ = pbem(t, nil, "scenarios", "--long", "gmb")
	for _, want := range []string{"House rules and options:", "- combat referee", "- option forced-move base", "Left to the referee:", "- combat after each corps' activation"} {
		if !strings.Contains(out, want) {
			t.Errorf("scenarios --long gmb lacks %q:\n%s", want, out)
		}
	}
	out, _, _ = pbem(t, nil, "scenarios", "--long", "hra")
	if !strings.Contains(out, "- dismounted-fire cavalry (HRA H15)") {
		t.Errorf("scenarios --long hra lacks its readings:\n%s", out)
	}
}
