package gmb

import (
	"slices"
	"strings"
	"testing"

	"pbem/engine"
)

// TestHelpGivesEachStepsGrammarFromTheParsersTable plays a game by its
// examples and, at every step, reads HELP as each prompted player gets
// it: every form of the step is there with its example, and each
// example parses to the form's verb (the table the parser takes its
// verbs from), so HELP and the parser cannot drift apart.
func TestHelpGivesEachStepsGrammarFromTheParsersTable(t *testing.T) {
	g := newGame(t)
	seen := map[string]bool{}
	for range 400 {
		ps := prompts(g.st)
		if len(ps) == 0 || g.st.Step == StepOver {
			break
		}
		for _, p := range ps {
			if p.Referee {
				continue
			}
			help := (rules{}).Explain(g.st, engine.Viewer{Side: p.Side}, engine.ExplainHelp)
			if len(help) == 0 {
				t.Fatalf("step %s: HELP for %s gives no grammar", g.st.Step, p.Side)
			}
			text := strings.Join(help[0].Lines, "\n")
			for _, f := range formsAt(g.st) {
				if !strings.Contains(text, f.Form+": ") {
					t.Errorf("step %s: HELP lacks %q", g.st.Step, f.Form)
				}
				e := f.Ex(g.st, p.Side)
				if e == "" {
					continue
				}
				if !strings.Contains(text, "Example: "+e) {
					t.Errorf("step %s: HELP gives %q no example %q", g.st.Step, f.Form, e)
				}
				os, probs := parseOrders(g.st, p.Side, e)
				if len(probs) > 0 || os[0].Verb != f.Verb {
					t.Errorf("step %s: %q, the example of %q, parses to %+v %v; want verb %s", g.st.Step, e, f.Form, os, probs, f.Verb)
				}
				seen[f.Verb] = true
			}
		}
		// The referee's HELP too, each example parsed as his.
		ref := (rules{}).Explain(g.st, engine.Viewer{Referee: true}, engine.ExplainHelp)
		if len(ref) == 0 {
			t.Fatalf("step %s: the referee's HELP is empty", g.st.Step)
		}
		for _, f := range refereeForms(g.st) {
			if !strings.Contains(strings.Join(ref[0].Lines, "\n"), f.Form+": ") {
				t.Errorf("step %s: the referee's HELP lacks %q", g.st.Step, f.Form)
			}
			if e := f.Ex(g.st, ""); e != "" {
				os, probs := parseOrders(g.st, engine.RefereeSide, e)
				if len(probs) > 0 || os[0].Verb != f.Verb {
					t.Errorf("step %s: the referee's %q parses to %+v %v; want verb %s", g.st.Step, e, os, probs, f.Verb)
				}
				seen["referee "+f.Verb] = true
			}
		}
		p := ps[0]
		side := p.Side
		if p.Referee {
			side = engine.RefereeSide
		}
		g.send(side, p.Examples[0])
	}
	for _, v := range []string{"TABLE", "YEAR", "DEAL", "KEEP", "BATTLEFIELD", "LIST", "ROAD", "RAILWAY", "PASS", "PLACE", "TACTIC", "PATROL", "ACTIVATE", "UNIT", "PASSAGE"} {
		if !seen[v] {
			t.Errorf("no example of %s was parsed", v)
		}
	}
	// Every verb the parser reads is a form of the table.
	for _, v := range []string{"SET", "LAYOUT", "COMBAT", "FORCE", "OBJECTIVES", "SCORE"} {
		if !seen["referee "+v] {
			t.Errorf("no example of the referee's %s was parsed", v)
		}
	}
	for _, v := range verbs {
		found := false
		for _, f := range append(slices.Clone(grammar), refGrammar...) {
			found = found || f.Verb == v
		}
		if !found {
			t.Errorf("verb %s has no form", v)
		}
	}
}

// TestHelpTellsTheLinearStep: the linear terrain's HELP says who lays
// the river, the three road patterns, the waypoints, RAILWAY
// EMBANKMENT, ROAD SUNKEN and that passing drains the pool (13.10h,
// 13.10j); a road from base A, which lies on the edge, through SP2 to
// road 1 is 13.10h's third pattern.
func TestGMB_13_10h_13_10j_HelpTellsTheLinearStep(t *testing.T) {
	g := atLinear(t)
	help := (rules{}).Explain(g.st, engine.Viewer{Side: "Confederate"}, engine.ExplainHelp)
	text := ""
	for _, h := range help {
		text += strings.Join(h.Lines, "\n") + "\n"
	}
	for _, want := range []string{"only Player A, who won the initiative, lays the river", "first pattern: from an operational base", "second pattern: through two strategic points",
		"third pattern: from an edge", "BASE A, BASE B", "SP1", "BRIDGE n", "ROAD n", "RAILWAY EMBANKMENT <waypoints>", "RAILWAY NO EMBANKMENT <waypoints>", "ROAD SUNKEN <waypoints>", "each pass takes one piece from the pool"} {
		if !strings.Contains(text, want) {
			t.Errorf("the linear step's HELP lacks %q:\n%s", want, text)
		}
	}
	g.send("Confederate", "ROAD WEST, SP1, SP3, EAST")
	g.send("Union", "ROAD BASE A, SP2, ROAD 1")
	if p := g.st.piece("road 2"); p == nil || p.Path[0] != g.st.baseAt("A") {
		t.Errorf("road 2 from base A: %+v", p)
	}
}

// TestGMB_13_10k_TheNormalTerrainMailListsWhatIsLeft and the move mail
// gives each unit's range in words (7.1f).
func TestGMB_13_10k_7_1f_PromptsSayWhatIsLeftAndTheRanges(t *testing.T) {
	g := atNormal(t)
	if w := prompts(g.st)[0].What; !strings.Contains(w, "Left to place (13.10k): hill 4, rough 4, woods 4, built-up 3") {
		t.Errorf("the normal terrain's prompt: %q", w)
	}
	g.send("Confederate", "PLACE woods 2x2 AT 20,6")
	if w := prompts(g.st)[0].What; !strings.Contains(w, "woods 3½") {
		t.Errorf("after half a woods (13.10f): %q", w)
	}
	b := battle(t)
	b.put("Iron Brigade", 24, 10, 0)
	b.put("Irish Brigade", 31, 10, 0)
	if w := prompts(b.st)[0].What; !strings.Contains(w, "Iron Brigade 9\" (MARCH 12\"; 6\" after an obstacle)") {
		t.Errorf("the move's prompt: %q", w)
	}
}

// TestGMB_7_6a_MisplacedPassagesCite76: a PASSAGE sent while corps
// activate or move is refused citing 7.6.
func TestGMB_7_6a_MisplacedPassagesCite76(t *testing.T) {
	g := battle(t)
	g.put("Iron Brigade", 24, 10, 0)
	g.put("Irish Brigade", 31, 10, 0)
	g.refuse("Union", "PASSAGE Iron Brigade AND Irish Brigade", "reorganization phase, once every corps has been activated (7.6a)")
	g.st.Step = StepActivate
	g.refuse("Union", "PASSAGE Iron Brigade AND Irish Brigade", "(7.6a)")
}

// TestGMB_13_12c_TheResultIsASentence: the game-over mail reads "a
// draw. The army tactics' rewards …": the reason is a sentence of its
// own.
func TestGMB_13_12c_TheResultIsASentence(t *testing.T) {
	g := battle(t)
	g.st.Step = StepEnd
	g.send(engine.RefereeSide, "SCORE")
	if !strings.HasPrefix(g.st.Result, "The army tactics' rewards (13.12c): ") {
		t.Errorf("the result %q", g.st.Result)
	}
}
