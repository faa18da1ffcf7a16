package gcacw

import (
	"strings"
	"testing"

	"pbem/engine"
)

func cycleScn(game, options, extraTables string) scn {
	return scn{game: game, options: options,
		units: `USA A "Able" inf X str=3 at=0505 in=I
USA B "Baker" inf X str=3 at=0506 in=I
USA C "Cobb" cav X str=2 at=0305 in=I
CSA Y "Yoke" inf X str=3 at=0909 in=Z
CSA Z "Zulu" inf X str=3 at=1010 in=Z`,
		leaders: `USA L "Lyon" corps cmd=2 tac=2 commands=I with=A
CSA M "Moss" corps cmd=2 tac=2 commands=Z with=Y`,
		tables: flatTEC + emTable("") + extraTables}
}

func mustContain(t *testing.T, what, got, want string) {
	t.Helper()
	if !strings.Contains(got, want) {
		t.Errorf("%s: %q does not contain %q", what, got, want)
	}
}

// GCACW 4.2a: one die each (Ambiguity A11); the higher wins.
func TestGCACW_4_2a_HigherRollWins(t *testing.T) {
	for _, tc := range []struct {
		usa, csa int
		want     string
	}{{5, 2, USA}, {2, 5, CSA}, {6, 1, USA}} {
		h := newHarness(t, cycleScn("", "", "").bytes())
		h.do(USA, "PASS")
		dec := h.do(CSA, "PASS", "initiative USA="+itoa(tc.usa), "initiative CSA="+itoa(tc.csa))
		if f := fact(t, dec, "initiative.rolled"); f.Str("side") != tc.want {
			t.Errorf("USA %d CSA %d: %s, want %s", tc.usa, tc.csa, f, tc.want)
		}
		if h.st.Cycle.Holder != tc.want || h.st.Cycle.Stage != StageChoose {
			t.Errorf("holder %s stage %s", h.st.Cycle.Holder, h.st.Cycle.Stage)
		}
	}
}

// GCACW 4.2b: ties go to the Confederacy, except in BAC and AIO, where
// the game's table (R5) says who wins each number; with no table loaded
// the referee rules.
func TestGCACW_4_2b_Ties(t *testing.T) {
	ties := `[initiative-ties]
1 USA
2 CSA
3 USA insubordination
4 CSA
5 USA
6 CSA
`
	t.Run("other games: the Confederacy", func(t *testing.T) {
		for _, g := range []string{"SSR", "RTG", "OTR"} {
			h := newHarness(t, cycleScn(g, "", "").bytes())
			h.do(USA, "PASS")
			dec := h.do(CSA, "PASS", "initiative USA=3", "initiative CSA=3")
			if f := fact(t, dec, "initiative.rolled"); f.Str("side") != CSA || !f.Bool("tie") {
				t.Errorf("%s: %s", g, f)
			}
		}
	})
	t.Run("BAC table", func(t *testing.T) {
		h := newHarness(t, cycleScn("BAC", "", ties).bytes())
		h.do(USA, "PASS")
		dec := h.do(CSA, "PASS", "initiative USA=5", "initiative CSA=5")
		if f := fact(t, dec, "initiative.rolled"); f.Str("side") != USA {
			t.Errorf("BAC tie on 5: %s, want USA", f)
		}
	})
	t.Run("BAC insubordination goes to the referee", func(t *testing.T) {
		h := newHarness(t, cycleScn("BAC", "", ties).bytes())
		h.do(USA, "PASS")
		h.do(CSA, "PASS", "initiative USA=3", "initiative CSA=3")
		if h.st.Pending == nil || h.st.Pending.Step != StepInsub || h.st.Cycle.Holder != USA {
			t.Fatalf("pending %+v holder %s", h.st.Pending, h.st.Cycle.Holder)
		}
		h.reject(USA, "PASS")
		h.do(engine.RefereeSide, "RULE FATIGUE Yoke 2\nRULE DONE")
		if h.st.Pending != nil || h.unit("Y").Fatigue != 2 {
			t.Fatalf("after the ruling: pending %+v, Yoke fatigue %d", h.st.Pending, h.unit("Y").Fatigue)
		}
		h.do(USA, "PASS")
	})
	t.Run("AIO without a table: the referee", func(t *testing.T) {
		h := newHarness(t, cycleScn("AIO", "", "").bytes())
		h.do(USA, "PASS")
		dec := h.do(CSA, "PASS", "initiative USA=4", "initiative CSA=4")
		fact(t, dec, "initiative.tied")
		if h.st.Pending == nil || h.st.Pending.Step != StepTie {
			t.Fatalf("pending %+v", h.st.Pending)
		}
		ps := prompts(h.st)
		if len(ps) != 1 || !ps[0].Referee || !strings.Contains(ps[0].What, "4.2b") {
			t.Errorf("prompt %+v", ps)
		}
		h.reject(USA, "PASS")
		h.reject(engine.RefereeSide, "RULE DONE")
		h.do(engine.RefereeSide, "RULE INITIATIVE USA")
		if h.st.Cycle.Holder != USA || h.st.Cycle.Stage != StageChoose {
			t.Errorf("after the ruling: %+v", h.st.Cycle)
		}
	})
}

// GCACW 4.2c: OTR (and scenarios that say so) record the winner's die.
func TestGCACW_4_2c_RecordWinnerDie(t *testing.T) {
	for _, tc := range []struct {
		game, opt string
		want      int
	}{{"OTR", "", 5}, {"SSR", "", 0}, {"SSR", "record-initiative-die", 5}} {
		h := newHarness(t, cycleScn(tc.game, tc.opt, "").bytes())
		h.do(USA, "PASS")
		dec := h.do(CSA, "PASS", "initiative USA=2", "initiative CSA=5")
		if got := len(facts(dec, "initiative.recorded")); (got == 1) != (tc.want > 0) || h.st.Cycle.Recorded != tc.want {
			t.Errorf("%s %s: %d recorded, Recorded=%d, want %d", tc.game, tc.opt, got, h.st.Cycle.Recorded, tc.want)
		}
	}
}

// GCACW 4.2d: a side with no eligible unit loses the initiative without a
// roll.
func TestGCACW_4_2d_AutomaticInitiative(t *testing.T) {
	s := cycleScn("", "", "")
	s.units = strings.ReplaceAll(s.units, "in=Z", "in=Z fatigue=4")
	h := newHarness(t, s.bytes())
	h.do(USA, "PASS")
	dec := h.do(CSA, "PASS") // no dice
	if f := fact(t, dec, "initiative.automatic"); f.Str("side") != USA {
		t.Errorf("%s", f)
	}
	// And after USA's action, again without a roll.
	dec = h.do(USA, "MARCH Able 0504", "march MA A=2")
	fact(t, dec, "initiative.automatic")
}

// GCACW 4.2e: where a tie may end the turn, both sides always roll; a
// winner with no eligible unit must pass; ties go to the referee.
func TestGCACW_4_2e_TieSpecialScenario(t *testing.T) {
	s := cycleScn("", "tie-special", "")
	s.units = strings.ReplaceAll(s.units, "in=Z", "in=Z fatigue=4")
	h := newHarness(t, s.bytes())
	h.do(USA, "PASS")
	dec := h.do(CSA, "PASS", "initiative USA=2", "initiative CSA=6")
	if f := fact(t, dec, "initiative.rolled"); f.Str("side") != CSA {
		t.Fatalf("%s", f)
	}
	if f := fact(t, dec, "initiative.passed"); f.Str("side") != CSA || !strings.Contains(f.Str("reason"), "4.2e") {
		t.Errorf("%s, want CSA to pass for want of an eligible unit", f)
	}
	if h.st.Cycle.Holder != USA || h.st.Cycle.Stage != StageLoser {
		t.Fatalf("%+v", h.st.Cycle)
	}
	// A tie: the referee may end the turn.
	h.do(USA, "MARCH Able 0504", "march MA A=2", "initiative USA=3", "initiative CSA=3")
	if h.st.Pending == nil || h.st.Pending.Step != StepTie {
		t.Fatalf("pending %+v", h.st.Pending)
	}
	dec = h.do(engine.RefereeSide, "RULE INITIATIVE END")
	fact(t, dec, "cycle.ended")
	if h.st.Phase != PhaseReorg {
		t.Errorf("phase %s", h.st.Phase)
	}
}

// GCACW 4.2f, 4.2g, 4.2h, 4.3, 4.4a: the winner takes or passes; given the
// initiative by a pass, the loser takes or passes, and a second pass ends
// the action cycle.
func TestGCACW_4_1_4_2f_4_2g_4_2h_4_3_4_4a_TakeOrPass(t *testing.T) {
	h := newHarness(t, cycleScn("", "", "").bytes())
	h.start(5, 2)
	// 4.3: only the side holding the initiative acts.
	ps := h.reject(CSA, "MARCH Yoke 0908")
	mustContain(t, "CSA acting out of turn", problemsText(ps), "USA holds the initiative")
	// 4.2f: TAKE, then the action.
	h.do(USA, "TAKE")
	if h.st.Cycle.Stage != StageAct {
		t.Fatalf("stage %s after TAKE", h.st.Cycle.Stage)
	}
	ps = h.reject(USA, "PASS")
	mustContain(t, "PASS after TAKE", problemsText(ps), "must act (GCACW 4.2f)")
	h.reject(USA, "TAKE")
	h.do(USA, "MARCH Able 0504", "march MA A=1", "initiative USA=1", "initiative CSA=4")
	// 4.2f: the winner passes; 4.2g: the loser may take it.
	h.do(CSA, "PASS")
	if h.st.Cycle.Holder != USA || h.st.Cycle.Stage != StageLoser || h.st.Cycle.Via != "pass" {
		t.Fatalf("%+v", h.st.Cycle)
	}
	h.do(USA, "MARCH Baker 0507", "march MA B=1", "initiative USA=6", "initiative CSA=4")
	// 4.2h, 4.4a: both pass in one Initiative Segment: the cycle ends.
	h.do(USA, "PASS")
	dec := h.do(CSA, "PASS")
	mustContain(t, "end", fact(t, dec, "cycle.ended").Str("reason"), "4.4a")
	if h.st.Phase != PhaseReorg {
		t.Errorf("phase %s, want the Reorganization Phase (4.4c)", h.st.Phase)
	}
}

// GCACW 4.4b: the cycle ends when neither side has an eligible unit.
func TestGCACW_4_4b_NobodyEligible(t *testing.T) {
	s := cycleScn("", "", "")
	s.units = strings.ReplaceAll(strings.ReplaceAll(s.units, "in=Z", "in=Z fatigue=4"), "in=I", "in=I fatigue=4")
	h := newHarness(t, s.bytes())
	h.do(USA, "PASS")
	dec := h.do(CSA, "PASS")
	mustContain(t, "end", fact(t, dec, "cycle.ended").Str("reason"), "4.4b")
	// The last march of the last eligible unit also ends it.
	s = cycleScn("", "", "")
	s.units = strings.ReplaceAll(strings.ReplaceAll(s.units, "in=Z", "in=Z fatigue=4"), "in=I", "in=I fatigue=4")
	s.units = strings.Replace(s.units, `at=0505 in=I fatigue=4`, `at=0505 in=I fatigue=3`, 1)
	h = newHarness(t, s.bytes())
	h.do(USA, "PASS")
	h.do(CSA, "PASS")
	dec = h.do(USA, "MARCH Able 0504", "march MA A=2", "extended march A=1")
	mustContain(t, "end", fact(t, dec, "cycle.ended").Str("reason"), "4.4b")
}

// GCACW 5a: the holder performs one action; one mail is one action.
func TestGCACW_5a_OneActionPerMail(t *testing.T) {
	h := newHarness(t, cycleScn("", "", "").bytes())
	h.start(5, 2)
	ps := h.reject(USA, "MARCH Able 0504\nMARCH Baker 0507")
	mustContain(t, "two actions", problemsText(ps), "one action per mail")
	if ps[0].Line != 2 || ps[0].Col != 1 {
		t.Errorf("problem at line %d col %d, want 2:1", ps[0].Line, ps[0].Col)
	}
}

// GCACW 3: the Leader Transfer Phase, the action cycle, the
// Reorganization Phase (the referee's, R14), the end of the turn; after
// the last turn the referee rules the result (R24).
func TestGCACW_3_4_4c_TurnSequence(t *testing.T) {
	h := newHarness(t, cycleScn("", "", "").bytes())
	if h.st.Phase != PhaseTransfer || h.st.Turn != 1 {
		t.Fatalf("start: %s turn %d", h.st.Phase, h.st.Turn)
	}
	ps := prompts(h.st)
	if len(ps) != 2 || ps[0].Side != USA || ps[1].Side != CSA {
		t.Fatalf("transfer prompts %+v", ps)
	}
	// 3.2: a leader moves to another subordinate unit.
	dec := h.do(USA, "TRANSFER Lyon TO Baker")
	if f := fact(t, dec, "leader.transferred"); f.Str("from") != "A" || f.Str("to") != "B" {
		t.Errorf("%s", f)
	}
	h.reject(USA, "PASS") // USA's phase is over
	h.reject(USA, "MARCH Able 0504")
	h.do(CSA, "PASS", "initiative USA=1", "initiative CSA=2")
	ps2 := h.reject(CSA, "TRANSFER Moss TO Zulu")
	mustContain(t, "transfer in the cycle", problemsText(ps2), "only in the Leader Transfer Phase")
	h.do(CSA, "PASS")
	h.do(USA, "PASS")
	if h.st.Phase != PhaseReorg {
		t.Fatalf("phase %s", h.st.Phase)
	}
	h.reject(USA, "PASS")
	h.do(engine.RefereeSide, "RULE FATIGUE Able 0\nRULE RESTED Able\nRULE DONE")
	if h.st.Turn != 2 || h.st.Phase != PhaseTransfer {
		t.Fatalf("after the reorganization: turn %d, %s", h.st.Turn, h.st.Phase)
	}
	h.do(USA, "PASS")
	h.do(CSA, "PASS", "initiative USA=4", "initiative CSA=2")
	h.do(USA, "PASS")
	h.do(CSA, "PASS")
	dec = h.do(engine.RefereeSide, "RULE DONE")
	fact(t, dec, "turn.ended")
	if h.st.Phase != PhaseVictory || h.rs.Outcome(h.st).Over {
		t.Fatalf("after the last turn: %s, %+v", h.st.Phase, h.rs.Outcome(h.st))
	}
	h.reject(engine.RefereeSide, "RULE DONE")
	h.do(engine.RefereeSide, "RULE WINNER CSA held the ford")
	out := h.rs.Outcome(h.st)
	if !out.Over || out.Winner != CSA || !strings.Contains(out.Reason, "held the ford") {
		t.Errorf("outcome %+v", out)
	}
	h.reject(USA, "PASS")
	if len(prompts(h.st)) != 0 {
		t.Errorf("prompts after the end: %+v", prompts(h.st))
	}
}

// GCACW 3, phase 1: with the option, the turn begins with a 2d6 roll on
// the Random Events Table (R4); the referee applies the event.
func TestGCACW_3_RandomEvents(t *testing.T) {
	events := "[random-events]\n2 \"A\"\n3 \"B\"\n4 \"C\"\n5 \"D\"\n6 \"E\"\n7 \"Seven\"\n8 \"F\"\n9 \"G\"\n10 \"H\"\n11 \"I\"\n12 \"J\"\n"
	h := newHarness(t, cycleScn("", "random-events", events).bytes())
	dec := h.do(USA, "PASS", "random events=3", "random events=4")
	if f := fact(t, dec, "random_event.rolled"); f.Int("roll") != 7 || f.Str("event") != "Seven" {
		t.Errorf("%s", f)
	}
	if h.st.Pending == nil || h.st.Pending.Step != StepEvent {
		t.Fatalf("pending %+v", h.st.Pending)
	}
	// The transfer phase goes on; the cycle waits for the referee.
	h.do(CSA, "PASS")
	if h.st.Phase != PhaseTransfer {
		t.Fatalf("phase %s", h.st.Phase)
	}
	h.do(engine.RefereeSide, "RULE DONE", "initiative USA=4", "initiative CSA=1")
	if h.st.Phase != PhaseCycle || h.st.Cycle.Holder != USA {
		t.Fatalf("%s %+v", h.st.Phase, h.st.Cycle)
	}
	// Without a table the referee reads the roll.
	h = newHarness(t, cycleScn("", "random-events", "").bytes())
	h.do(USA, "PASS", "random events=6", "random events=6")
	mustContain(t, "note", h.st.Pending.Note, "no Random Events Table")
}

// QUEUE keeps an order for when the side next holds the initiative;
// CANCEL removes it; an order no longer valid is dropped, saying why.
func TestQueueAndCancel(t *testing.T) {
	h := newHarness(t, cycleScn("", "", "").bytes())
	dec := h.do(USA, "PASS\nQUEUE MARCH Able 0504\nQUEUE MARCH Able 0503\nQUEUE MARCH Baker 0507")
	if n := len(facts(dec, "queue.added")); n != 3 {
		t.Fatalf("%d queued", n)
	}
	h.do(USA, "CANCEL 3")
	ps := h.reject(USA, "CANCEL 3")
	mustContain(t, "cancel twice", problemsText(ps), "no queued order #3")
	// USA wins twice: its two queued marches are used in turn, in the
	// decision of CSA's mail; then CSA wins and the game waits for it.
	dec = h.do(CSA, "PASS", "initiative USA=6", "initiative CSA=1", "march MA A=1",
		"initiative USA=6", "initiative CSA=2", "march MA A=1", "initiative USA=1", "initiative CSA=1")
	if f := facts(dec, "queue.used"); len(f) != 2 || f[0].Int("n") != 1 || f[1].Int("n") != 2 {
		t.Fatalf("queue.used: %v", f)
	}
	if u := h.unit("A"); u.Hex.String() != "0503" || u.Fatigue != 2 {
		t.Errorf("Able at %s fatigue %d", u.Hex, u.Fatigue)
	}
	if h.st.Cycle.Holder != CSA || len(h.st.Queue) != 0 {
		t.Fatalf("cycle %+v queue %+v", h.st.Cycle, h.st.Queue)
	}
	// A queued order that is no longer valid is dropped, and the next used.
	h = newHarness(t, cycleScn("", "", "").bytes())
	h.do(USA, "PASS\nQUEUE MARCH Able 0406 0407\nQUEUE PASS")
	h.do(engine.RefereeSide, "RULE PLACE Able 0202")
	dec = h.do(CSA, "PASS", "initiative USA=6", "initiative CSA=1")
	mustContain(t, "drop reason", fact(t, dec, "queue.dropped").Str("reason"), "not next to")
	if f := fact(t, dec, "queue.used"); f.Str("order") != "PASS" {
		t.Errorf("%s", f)
	}
	if h.st.Cycle.Holder != CSA || h.st.Cycle.Stage != StageLoser {
		t.Errorf("%+v", h.st.Cycle)
	}
}

// The Leader Transfer Phase follows GCACW 2.2j-m.
func TestGCACW_3_LeaderTransferChecks(t *testing.T) {
	s := cycleScn("", "", "")
	s.units += "\nUSA D \"Dunn\" inf X str=2 at=0606 in=II"
	h := newHarness(t, s.bytes())
	ps := h.reject(USA, "TRANSFER Lyon TO Dunn")
	mustContain(t, "not subordinate", problemsText(ps), "GCACW 2.2j")
	ps = h.reject(USA, "TRANSFER Lyon TO Able")
	mustContain(t, "same unit", problemsText(ps), "already")
	ps = h.reject(USA, "TRANSFER Moss TO Baker")
	mustContain(t, "enemy leader", problemsText(ps), "Moss (M) is a CSA leader")
	if ps[0].Col != 10 {
		t.Errorf("col %d, want 10", ps[0].Col)
	}
}
