package gbacw

import (
	"strings"
	"testing"

	"pbem/engine"
)

func welcomeText(t *testing.T, scn []byte) string {
	t.Helper()
	sc, err := ParseScenario(scn)
	if err != nil {
		t.Fatal(err)
	}
	ex, ok := New().(engine.Explainer)
	if !ok {
		t.Fatal("the GBACW ruleset is no Explainer")
	}
	var b strings.Builder
	for _, e := range ex.Explain(newState(sc), engine.Viewer{Side: USA}, engine.ExplainWelcome) {
		b.WriteString("## " + e.Heading + "\n" + strings.Join(e.Lines, "\n") + "\n")
	}
	return b.String()
}

// TestGBACW_WelcomeListsEveryReadingAndItsOption: the welcome mail says
// each reading the package takes where the seed is silent or ambiguous,
// the option that reads it otherwise, and which options the game plays
// with; a chart's modifier the seed does not give is named a house rule.
func TestGBACW_WelcomeListsEveryReadingAndItsOption(t *testing.T) {
	for k := range optionNames {
		if _, ok := optionReading[k]; !ok {
			t.Errorf("option %s has no reading for the welcome mail", k)
		}
	}
	w := welcomeText(t, fieldScn("", ""))
	for k := range optionNames {
		if !strings.Contains(w, "option "+k+":") {
			t.Errorf("the welcome mail does not offer option %s:\n%s", k, w)
		}
	}
	if strings.Contains(w, " is ON") || !strings.Contains(w, "SAMPLE charts") || strings.Contains(w, "House rule:") {
		t.Errorf("a game with no option, the sample charts and no house rule:\n%s", w)
	}
	w = welcomeText(t, fieldScn("turns-apart b5-march-fixed=2", "[udd-drm]\nmarch-shocked +2\n"))
	for _, want := range []string{"Option turns-apart is ON: each turn is priced alone", "Option b5-march-fixed=2 is ON", "House rule: a March column that is shocked takes its UDD at +2"} {
		if !strings.Contains(w, want) {
			t.Errorf("the welcome mail lacks %q:\n%s", want, w)
		}
	}
	if w := welcomeText(t, mustScenario(t, "tanners-mill")); strings.Contains(w, "House rule:") {
		t.Errorf("Tanner's Mill plays a house rule the welcome mail names:\n%s", w)
	}
}
