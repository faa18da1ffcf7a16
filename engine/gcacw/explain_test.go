package gcacw

import (
	"strings"
	"testing"

	"pbem/engine"
)

func explained(st *State, v engine.Viewer, word string) string {
	var b strings.Builder
	for _, e := range New().(engine.Explainer).Explain(st, v, word) {
		b.WriteString(e.Heading + "\n")
		for _, l := range e.Lines {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// HELP lists what is eligible now, one example each, and every example
// is an order that would be accepted: in the action cycle each unit that
// can march (GCACW 5.1b) and each leader that can be activated (GCACW
// 5.2d); in the Leader Transfer Phase each leader and where it may go.
func TestHelpListsWhatIsEligibleNow(t *testing.T) {
	b, _ := Scenario("harrow-creek")
	h := newHarness(t, b)
	help := explained(h.st, engine.Viewer{Side: USA}, engine.ExplainHelp)
	mustContain(t, "transfer phase", help, "- Brand (BRND), with Orne (ORNE): TRANSFER Brand TO Pask")
	mustContain(t, "transfer phase", help, "- Ashley (ASHL), with Lyle (LYLE): no other unit it may join")
	h.do(USA, "PASS")
	h.do(CSA, "PASS", "initiative USA=5", "initiative CSA=2")
	help = explained(h.st, engine.Viewer{Side: USA}, engine.ExplainHelp)
	var examples []string
	for _, l := range strings.Split(help, "\n") {
		if _, ex, ok := strings.Cut(strings.TrimPrefix(l, "- "), ": "); ok && strings.HasPrefix(l, "- ") && (strings.HasPrefix(ex, "MARCH ") || strings.HasPrefix(ex, "ACTIVATE ")) {
			examples = append(examples, ex)
		}
	}
	for _, id := range []string{"1OH", "LYLE", "ORNE", "PASK", "RART", "VANE", "BRND", "ASHL", "KELL"} {
		mustContain(t, "HELP in the cycle", help, "("+id+")")
	}
	if strings.Contains(help, "(HALE)") {
		t.Errorf("HELP offers to activate Hale, an Army Leader (GCACW 5.2c):\n%s", help)
	}
	if len(examples) != 9 {
		t.Errorf("%d examples, want one for each of 6 units and 3 leaders:\n%s", len(examples), help)
	}
	for _, ex := range examples {
		os, probs := parseOrders(h.st, USA, ex)
		if len(probs) > 0 {
			t.Errorf("example %q: %v", ex, probs)
			continue
		}
		if d, err := decide(h.st, USA, os, anyDice(3)); err != nil || len(d.Problems) > 0 {
			t.Errorf("example %q refused: %v %v", ex, err, d.Problems)
		}
	}
	// The side not holding the initiative is told what it could do then.
	mustContain(t, "CSA's HELP", explained(h.st, engine.Viewer{Side: CSA}, engine.ExplainHelp), "Eligible when you hold the initiative")
	mustContain(t, "referee's HELP", explained(h.st, engine.Viewer{Referee: true}, engine.ExplainHelp), "RULE ATTACKS ALLOWED|REFUSED")
}

// STATUS lists the side's orders waiting: queued orders, standing orders,
// and an order UNDO could take back; another side's are not shown to it.
func TestStatusListsOrdersWaiting(t *testing.T) {
	b, _ := Scenario("harrow-creek")
	h := newHarness(t, b)
	mustContain(t, "empty", explained(h.st, engine.Viewer{Side: USA}, engine.ExplainStatus), "None: nothing queued")
	h.do(USA, "QUEUE MARCH Orne 1407 FORCE\nSTANDING CAVALRY RETREAT Vane NEVER")
	st := explained(h.st, engine.Viewer{Side: USA}, engine.ExplainStatus)
	for _, want := range []string{"- QUEUE #1 MARCH Orne 1407 FORCE", "- STANDING CAVALRY RETREAT Vane NEVER", "- UNDO would take back the last order"} {
		mustContain(t, "USA's STATUS", st, want)
	}
	if other := explained(h.st, engine.Viewer{Side: CSA}, engine.ExplainStatus); strings.Contains(other, "Orne") {
		t.Errorf("CSA's STATUS shows USA's orders:\n%s", other)
	}
	mustContain(t, "referee's STATUS", explained(h.st, engine.Viewer{Referee: true}, engine.ExplainStatus), "- USA: QUEUE #1 MARCH Orne 1407 FORCE")
}

// The welcome mail says what the game is played with: the scenario and
// its options, every reading of an ambiguity (default or chosen), the
// house rules for the steps the seed leaves out, and what is left to a
// referee.
func TestWelcomeExplainsTheScenario(t *testing.T) {
	b, _ := Scenario("harrow-creek")
	h := newHarness(t, b)
	w := explained(h.st, engine.Viewer{Side: USA}, engine.ExplainWelcome)
	for _, want := range []string{
		"Harrow Creek, June 1863 (sample): 3 turns, played by the Standard Series Rules, in 1863.",
		"- Option activation-march: ", "- Option fatigue4-march: ",
		"- GCACW 5.1-OPT, 5.2.2-OPT (default): ", "- GCACW 3, phase 2 (default): ",
		"What pbem plays (the Standard Series Rules)",
		"What the referee rules",
		"What this scenario's house rules add",
		"- Combat (assaults, and marches that end attacking): the scenario's combat table, columns 1-2, 1-1, 3-2, 2-1, 3-1",
		"- The Reorganization Phase (GCACW 3, phase 4) plays by the scenario's table",
		"- Cavalry Retreat (GCACW 5.1.2): its owner decides",
		"- Victory, after the last turn",
		"No step is left to a referee: two players can finish this game alone.",
		"SAMPLE TABLE",
	} {
		mustContain(t, "welcome", w, want)
	}
	h = newHarness(t, refereedHarrow(t))
	rw := explained(h.st, engine.Viewer{Referee: true}, engine.ExplainWelcome)
	// The operator ('pbem scenarios --long') reads the ids a scenario's
	// reading lines use; players and the referee, by mail, read the
	// rules' numbers alone.
	mustContain(t, "the operator's scenario", explained(h.st, engine.Viewer{Referee: true}, engine.ExplainScenario), "- A9 (GCACW 5.1-OPT, 5.2.2-OPT, default): ")
	mustContain(t, "refereed welcome", rw, "- GCACW 5.1-OPT, 5.2.2-OPT (default): ")
	for _, mail := range []string{w, rw} {
		if strings.Contains(mail, "A9") || strings.Contains(mail, "Ambiguity") {
			t.Errorf("a welcome mail names ambiguity ids:\n%s", mail)
		}
	}
	mustContain(t, "refereed welcome", rw, "Left to the referee (the game waits for the ruling")
	mustContain(t, "refereed welcome", rw, "\n- the Reorganization Phase of every turn (GCACW 3, phase 4): a [reorganization] table would play it.")
	mustContain(t, "refereed welcome", rw, "\n- assaults and the attacks that end a march (GCACW 5b, 5.1.5): a [combat] table would resolve them.")
	mustContain(t, "refereed welcome", rw, "What this scenario's house rules add\nNone: the rules as written.")
	if strings.Contains(rw[strings.Index(rw, "What pbem plays"):], "R1") {
		t.Errorf("the rules lists name R-numbers:\n%s", rw)
	}
}

// A side's queued and standing orders are its own plans: the facts that
// keep them, and the echo lines that read them back, are seen by that
// side (and the referee) alone; the other side's mails do not carry them.
func TestQueuedAndStandingOrdersAreTheSidesOwn(t *testing.T) {
	b, _ := Scenario("harrow-creek")
	h := newHarness(t, b)
	d := h.do(USA, "PASS\nQUEUE MARCH Orne 1407 FORCE\nSTANDING CAVALRY RETREAT ALL NEVER\nSTATUS")
	csa, usa := engine.Viewer{Player: "s", Side: CSA}, engine.Viewer{Player: "n", Side: USA}
	for _, f := range d.Facts {
		secret := f.Kind == "queue.added" || f.Kind == "standing.set"
		if csa.Sees(f.Vis) == secret || !usa.Sees(f.Vis) {
			t.Errorf("%s: CSA sees it %v, USA %v", f, csa.Sees(f.Vis), usa.Sees(f.Vis))
		}
	}
	if len(d.EchoVis) != len(d.Echo) {
		t.Fatalf("%d echo lines, %d visibilities", len(d.Echo), len(d.EchoVis))
	}
	var seen []string
	for i, l := range d.Echo {
		if csa.Sees(d.EchoVis[i]) {
			seen = append(seen, l)
		}
	}
	if got := strings.Join(seen, "\n"); strings.Contains(got, "Orne") || strings.Contains(got, "NEVER") || !strings.Contains(got, "read: PASS") {
		t.Errorf("CSA sees of USA's mail:\n%s", got)
	}
}
