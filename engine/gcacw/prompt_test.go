package gcacw

import (
	"strings"
	"testing"

	"pbem/engine"
	"pbem/events"
)

// anyDice answers every roll with the same value.
type anyDice int

func (d anyDice) Roll(string, int) int { return int(d) }

// checkPrompts checks that every example a prompt gives is accepted now,
// and that HELP shows it.
func checkPrompts(t *testing.T, st *State, wantWho ...string) {
	t.Helper()
	ps := prompts(st)
	var who []string
	for _, p := range ps {
		side := p.Side
		if p.Referee {
			side = engine.RefereeSide
		}
		who = append(who, side)
		if p.What == "" || len(p.Examples) == 0 {
			t.Errorf("prompt %+v: no text or no examples", p)
		}
		help := Help(st, map[bool]string{true: "", false: p.Side}[p.Referee])
		for _, ex := range p.Examples {
			os, probs := parseOrders(st, side, ex)
			if len(probs) > 0 {
				t.Errorf("%s example %q: %v", side, ex, probs)
				continue
			}
			d, err := decide(st, side, os, anyDice(3))
			if err != nil || len(d.Problems) > 0 {
				t.Errorf("%s example %q: %v %v", side, ex, err, d.Problems)
			}
			if !strings.Contains(help, ex) {
				t.Errorf("HELP for %s does not show %q:\n%s", side, ex, help)
			}
		}
	}
	if strings.Join(who, ",") != strings.Join(wantWho, ",") {
		t.Errorf("prompts for %v, want %v: %+v", who, wantWho, ps)
	}
}

func TestPromptExamplesAreValid(t *testing.T) {
	b, _ := Scenario("harrow-creek")
	h := newHarness(t, b)
	checkPrompts(t, h.st, USA, CSA)
	h.do(USA, "PASS")
	checkPrompts(t, h.st, CSA)
	h.do(CSA, "PASS", "initiative USA=5", "initiative CSA=2")
	checkPrompts(t, h.st, USA)
	h.do(USA, "PASS")
	checkPrompts(t, h.st, CSA)
	h.do(CSA, "TAKE")
	checkPrompts(t, h.st, CSA)
	h.do(CSA, "MARCH Rusk 0506", "march MA RUSK=3", "initiative USA=5", "initiative CSA=2")
	h.do(USA, "PASS")
	// The cycle ends; the sample's house rules play the Reorganization
	// Phase (R14), and turn 2 begins.
	h.do(CSA, "PASS")
	checkPrompts(t, h.st, USA, CSA)

	// Without them, the Reorganization Phase is the referee's.
	h = newHarness(t, refereedHarrow(t))
	h.do(USA, "PASS")
	h.do(CSA, "PASS", "initiative USA=5", "initiative CSA=2")
	h.do(USA, "PASS")
	h.do(CSA, "PASS")
	checkPrompts(t, h.st, engine.RefereeSide)

	// Referee steps.
	h = newHarness(t, marchScn(`USA A "Able" inf X str=5 at=0505 in=I fatigue=2`, "", "", "").bytes())
	h.start(5, 2)
	h.st.Scn = func() *ScenarioDef { c := *h.st.Scn; c.Tables.Extended, c.Tables.Terrain = nil, nil; return &c }()
	h.do(USA, "MARCH Able 0504 0503", "march MA A=2", "extended march A=4")
	checkPrompts(t, h.st, engine.RefereeSide)
	h.do(engine.RefereeSide, "RULE EXTENDED MARCH Able NE")
	checkPrompts(t, h.st, engine.RefereeSide)

	s := marchScn(ableA, "", "", "")
	s.units += "\nCSA S \"Stuart\" cav X str=2 at=0605 in=Z"
	h = newHarness(t, s.bytes())
	h.start(5, 2)
	h.do(USA, "MARCH Able 0504", "march MA A=2")
	checkPrompts(t, h.st, CSA) // the cavalry's owner is asked (GCACW 5.1.2)
	h.do(CSA, "CAVALRY RETREAT Stuart")
	checkPrompts(t, h.st, engine.RefereeSide) // how is the referee's (R9)

	h = newHarness(t, cycleScn("AIO", "", "").bytes())
	h.do(USA, "PASS")
	h.do(CSA, "PASS", "initiative USA=4", "initiative CSA=4")
	checkPrompts(t, h.st, engine.RefereeSide)
}

func TestHelpOrder(t *testing.T) {
	b, _ := Scenario("harrow-creek")
	h := newHarness(t, b)
	d := h.do(USA, "HELP")
	if len(d.Facts) != 0 {
		t.Errorf("HELP made facts: %v", d.Facts)
	}
	all := strings.Join(d.Echo, "\n")
	for _, want := range []string{"Leader Transfer Phase", "e.g. PASS", "MARCH <unit>", "Defaults:", "None: nothing queued"} {
		mustContain(t, "HELP", all, want)
	}
	d = h.do(engine.RefereeSide, "HELP")
	mustContain(t, "referee HELP", strings.Join(d.Echo, "\n"), "RULE EXTENDED MARCH")
}

func TestStatusOrder(t *testing.T) {
	b, _ := Scenario("harrow-creek")
	h := newHarness(t, b)
	h.do(USA, "QUEUE PASS")
	d := h.do(USA, "status")
	all := strings.Join(d.Echo, "\n")
	mustContain(t, "STATUS", all, "turn 1 of 3, Leader Transfer Phase")
	mustContain(t, "STATUS", all, "queued: #1 PASS")
	if len(d.Facts) != 0 {
		t.Errorf("STATUS made facts")
	}
}

func (d anyDice) As(events.Vis) engine.Dice { return d }
