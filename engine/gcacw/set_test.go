package gcacw

import (
	"slices"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/hex"
	"pbem/events"
)

// harrowHarness is a harness on the Harrow Creek sample scenario as a
// game with a referee plays it (without its house rules, so the referee
// has the steps the seed leaves out); started games have rolled their
// first initiative (USA 5, CSA 2: USA chooses).
func harrowHarness(t *testing.T, started bool) *harness {
	t.Helper()
	h := newHarness(t, refereedHarrow(t))
	if started {
		h.start(5, 2)
	}
	return h
}

// The referee corrects every kind of field with SET: each line is one
// "set" fact naming the target, field, old and new value, the echo says
// what changed, and the state after holds the new value.
func TestReferee_SET_Fields(t *testing.T) {
	for _, tc := range []struct {
		name    string
		started bool   // in the action cycle, USA choosing
		before  string // referee lines sent first
		text    string
		echo    []string // lines the echo must have, in this order
		check   func(t *testing.T, st *State)
	}{
		{name: "unit hex", text: "SET Orne HEX 1307",
			echo: []string{"read: SET Orne (ORNE) HEX 1307", "SET Orne hex 1408 → 1307"},
			check: func(t *testing.T, st *State) {
				want := hex.MustParse("1307")
				if got := st.unit("ORNE").Hex; got != want {
					t.Errorf("Orne in %s, want %s", got, want)
				}
				// Its leaders go with it (GCACW 2.2j).
				if h, _ := st.leaderHex(st.leader("BRND")); h != want {
					t.Errorf("Brand in %s, want %s", h, want)
				}
			}},
		{name: "unit strength", text: "set vane strength 2",
			echo:  []string{"SET Vane strength 3 → 2"},
			check: unitIs("VANE", func(u *Unit) bool { return u.Manpower == 2 && !u.Eliminated })},
		{name: "unit manpower is strength", text: "SET Vane MANPOWER 4",
			echo:  []string{"SET Vane strength 3 → 4"},
			check: unitIs("VANE", func(u *Unit) bool { return u.Manpower == 4 })},
		{name: "unit fatigue", text: "SET Orne FATIGUE 3",
			echo:  []string{"SET Orne fatigue 0 → 3"},
			check: unitIs("ORNE", func(u *Unit) bool { return u.Fatigue == 3 })},
		{name: "unit disorganized", text: "SET Orne DISORGANIZED",
			echo:  []string{"SET Orne disorganized no → yes"},
			check: unitIs("ORNE", func(u *Unit) bool { return u.Disorganized })},
		{name: "unit organized", before: "SET Orne DISORGANIZED YES", text: "SET Orne ORGANIZED",
			echo:  []string{"SET Orne disorganized yes → no"},
			check: unitIs("ORNE", func(u *Unit) bool { return !u.Disorganized })},
		{name: "unit rested", text: "SET Pask RESTED",
			echo:  []string{"SET Pask exhausted yes → no"},
			check: unitIs("PASK", func(u *Unit) bool { return !u.Exhausted && u.Fatigue == 1 })},
		{name: "unit exhausted", text: "SET Orne EXHAUSTED",
			echo:  []string{"SET Orne exhausted no → yes"},
			check: unitIs("ORNE", func(u *Unit) bool { return u.Exhausted })},
		{name: "unit marched", started: true, text: "SET Orne MARCHED YES",
			echo:  []string{"SET Orne marched no → yes"},
			check: unitIs("ORNE", func(u *Unit) bool { return u.Marched })},
		{name: "unit activated", started: true, before: "SET Orne ACTIVATED", text: "SET Orne ACTIVATED NO",
			echo:  []string{"SET Orne activated yes → no"},
			check: unitIs("ORNE", func(u *Unit) bool { return !u.Activated })},
		{name: "unit eliminated", text: "SET Vane ELIMINATED",
			echo: []string{"read: SET Vane (VANE) STRENGTH 0", "SET Vane strength 3 → 0", "VANE is eliminated (referee)."},
			check: func(t *testing.T, st *State) {
				if u := st.unit("VANE"); !u.Eliminated || u.Manpower != 0 {
					t.Errorf("Vane %+v, want eliminated", u)
				}
				// Kellogg stood with Vane: a leader never stands alone (GCACW 2.2j).
				if st.Pending == nil || st.Pending.Step != StepLeaderAlone || !slices.Contains(st.Pending.Units, "KELL") {
					t.Errorf("pending %+v, want Kellogg's leader-alone step", st.Pending)
				}
			}},
		{name: "unit brought back", before: "SET Vane STRENGTH 0", text: "SET Vane STRENGTH 2",
			echo: []string{"SET Vane eliminated yes → no", "SET Vane strength 0 → 2"},
			check: func(t *testing.T, st *State) {
				if u := st.unit("VANE"); u.Eliminated || u.Manpower != 2 {
					t.Errorf("Vane %+v, want back with strength 2", u)
				}
				if st.Pending != nil {
					t.Errorf("pending %+v: Kellogg has his unit back", st.Pending)
				}
			}},
		{name: "leader with", text: "SET Brand WITH Pask",
			echo:  []string{"read: SET Brand (BRND) WITH Pask (PASK)", "SET Brand with ORNE → PASK"},
			check: func(t *testing.T, st *State) { wantWith(t, st, "BRND", "PASK") }},
		{name: "leader hex", text: "SET Brand HEX 1508",
			echo:  []string{"SET Brand with ORNE → PASK"},
			check: func(t *testing.T, st *State) { wantWith(t, st, "BRND", "PASK") }},
		{name: "turn", text: "SET TURN 2",
			echo: []string{"read: SET TURN 2", "SET turn 1 → 2"},
			check: func(t *testing.T, st *State) {
				if got := New().(engine.Turner).Turn(st); got != 2 {
					t.Errorf("Turn = %d, want 2", got)
				}
			}},
		{name: "phase", text: "SET PHASE reorg",
			echo:  []string{"SET phase leader-transfer → reorganization"},
			check: func(t *testing.T, st *State) { wantEq(t, "phase", st.Phase, PhaseReorg) }},
		{name: "stage", started: true, text: "SET STAGE loser",
			echo:  []string{"SET stage choose → loser"},
			check: func(t *testing.T, st *State) { wantEq(t, "stage", st.Cycle.Stage, StageLoser) }},
		{name: "holder", started: true, text: "SET HOLDER CSA",
			echo:  []string{"SET holder USA → CSA"},
			check: func(t *testing.T, st *State) { wantEq(t, "holder", st.Cycle.Holder, CSA) }},
		{name: "initiative", started: true, text: "SET INITIATIVE csa",
			echo:  []string{"SET initiative USA → CSA"},
			check: func(t *testing.T, st *State) { wantEq(t, "winner", st.Cycle.Winner, CSA) }},
		{name: "recorded die", started: true, text: "SET RECORDED 4",
			echo:  []string{"SET recorded 0 → 4"},
			check: func(t *testing.T, st *State) { wantEq(t, "recorded", st.Cycle.Recorded, 4) }},
		{name: "action phase", started: true, text: "SET ACTION 3",
			echo:  []string{"SET action 1 → 3"},
			check: func(t *testing.T, st *State) { wantEq(t, "action phase", st.Cycle.N, 3) }},
		{name: "several lines in order", text: "SET Orne HEX 1307\nSET Orne FATIGUE 2\nSET Orne HEX 1306",
			echo:  []string{"SET Orne hex 1408 → 1307", "SET Orne fatigue 0 → 2", "SET Orne hex 1307 → 1306"},
			check: unitIs("ORNE", func(u *Unit) bool { return u.Hex == hex.MustParse("1306") && u.Fatigue == 2 })},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := harrowHarness(t, tc.started)
			if tc.before != "" {
				h.do(engine.RefereeSide, tc.before)
			}
			d := h.do(engine.RefereeSide, tc.text)
			sets := facts(d, "set")
			if len(sets) == 0 {
				t.Fatalf("no set fact in:\n%s", factList(d.Facts))
			}
			for _, f := range sets {
				for _, k := range []string{"target", "field", "old", "new"} {
					if !f.Has(k) {
						t.Errorf("%s has no %s", f, k)
					}
				}
			}
			i := 0
			for _, e := range d.Echo {
				if i < len(tc.echo) && e == tc.echo[i] {
					i++
				}
			}
			if i < len(tc.echo) {
				t.Errorf("echo lacks %q (in order) in:\n%s", tc.echo[i], strings.Join(d.Echo, "\n"))
			}
			tc.check(t, h.st)
		})
	}
}

// Wrong SET lines are refused with the line, column and a hint, and
// nothing of the mail is applied.
func TestReferee_SET_Problems(t *testing.T) {
	for _, tc := range []struct {
		name    string
		started bool
		before  string
		side    string // engine.RefereeSide unless given
		text    string
		line    int
		col     int
		msg     string // in the problem's message
		hint    string // in its hint
	}{
		{name: "unknown unit", text: "SET Vanne STRENGTH 2", line: 1, col: 5,
			msg: `no unit or leader is called "Vanne"`, hint: "did you mean Vane (VANE)?"},
		{name: "unknown unit field", text: "SET Vane STRENTH 2", line: 1, col: 10,
			msg: `"STRENTH" is not a field of a unit`, hint: "did you mean STRENGTH?"},
		{name: "unknown leader field", text: "SET Brand FATIGUE 2", line: 1, col: 11,
			msg: `"FATIGUE" is not a field of a leader (fields: HEX, WITH)`},
		{name: "hex not on the map", text: "SET Orne HEX 2517", line: 1, col: 14,
			msg: "hex 2517 is not on the map"},
		{name: "not a hex", text: "SET Orne HEX 14x8", line: 1, col: 14,
			msg: "is not a hex number"},
		{name: "water hex", text: "SET Orne HEX 0614", line: 1, col: 14,
			msg: "0614 is water"},
		{name: "enemy hex", text: "SET Orne HEX 0507", line: 1, col: 14,
			msg: "0507 holds enemy units"},
		{name: "fatigue out of range", text: "SET Orne FATIGUE 5", line: 1, col: 18,
			msg: "5 is out of range: Fatigue levels go from 0 to 4 (GCACW 2.2p)", hint: "SET <unit> FATIGUE 1"},
		{name: "strength out of range", text: "SET Orne STRENGTH 22", line: 1, col: 19,
			msg: "Strength markers go from 1 to 8 in SSR"},
		{name: "not a number", text: "SET Orne STRENGTH many", line: 1, col: 19,
			msg: `"many" is not a number`},
		{name: "no value", text: "SET Orne FATIGUE", line: 1, col: 17,
			msg: "takes a number from 0 to 4"},
		{name: "flag value", text: "SET Orne MARCHED perhaps", line: 1, col: 18,
			msg: "takes YES or NO"},
		{name: "same value", text: "SET Orne FATIGUE 0", line: 1, col: 18,
			msg: "Orne's fatigue is 0 already"},
		{name: "eliminated unit", before: "SET Vane ELIMINATED", text: "SET Vane HEX 1310", line: 1, col: 5,
			msg: "Vane has been eliminated", hint: "SET VANE STRENGTH <n> brings it back"},
		{name: "leader with an enemy unit", text: "SET Brand WITH Rusk", line: 1, col: 16,
			msg: "Rusk is a CSA unit and Brand a USA leader"},
		{name: "leader hex with no unit", text: "SET Brand HEX 1001", line: 1, col: 15,
			msg: "no USA unit is in 1001"},
		{name: "turn out of range", text: "SET TURN 4", line: 1, col: 10,
			msg: "the scenario has turns 1 to 3"},
		{name: "unknown phase", text: "SET PHASE lunch", line: 1, col: 11,
			msg: `"lunch" is not a phase`, hint: "SET PHASE action-cycle"},
		{name: "cycle field outside the cycle", text: "SET STAGE act", line: 1, col: 11,
			msg: "stage belongs to the action cycle", hint: "SET PHASE action-cycle first"},
		{name: "second line wrong", started: true, text: "SET Orne FATIGUE 2\n  \nSET Lyle HEX 0507", line: 3, col: 14,
			msg: "0507 holds enemy units"},
		{name: "nothing to set", text: "SET", line: 1, col: 4,
			msg: "SET takes what to correct"},
		{name: "a player sends SET", side: USA, text: "SET Orne FATIGUE 2", line: 1, col: 1,
			msg: "only the referee sends SET", hint: "PASS"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := harrowHarness(t, tc.started)
			if tc.before != "" {
				h.do(engine.RefereeSide, tc.before)
			}
			side := tc.side
			if side == "" {
				side = engine.RefereeSide
			}
			before, _ := encodeState(h.st)
			probs := h.reject(side, tc.text)
			if after, _ := encodeState(h.st); string(after) != string(before) {
				t.Fatal("a refused mail changed the state")
			}
			if len(probs) != 1 {
				t.Fatalf("want one problem, got:\n%s", problemsText(probs))
			}
			p := probs[0]
			lines := strings.Split(tc.text, "\n")
			if p.Line != tc.line || p.Col != tc.col || p.Text != lines[tc.line-1] {
				t.Errorf("problem at line %d col %d text %q, want line %d col %d text %q", p.Line, p.Col, p.Text, tc.line, tc.col, lines[tc.line-1])
			}
			if !strings.Contains(p.Msg, tc.msg) {
				t.Errorf("message %q, want it to say %q", p.Msg, tc.msg)
			}
			if p.Hint == "" || !strings.Contains(p.Hint, tc.hint) {
				t.Errorf("hint %q, want one with %q", p.Hint, tc.hint)
			}
		})
	}
}

// The referee's HELP lists the SET forms; a player's does not.
func TestReferee_SET_Help(t *testing.T) {
	h := harrowHarness(t, false)
	ref := strings.Join(h.do(engine.RefereeSide, "HELP").Echo, "\n")
	for _, want := range []string{"SET <unit> HEX <hex>", "SET <unit> STRENGTH <n>", "SET <unit> FATIGUE <0-4>", "SET <leader> WITH <unit>", "SET TURN <n>", "SET PHASE"} {
		if !strings.Contains(ref, want) {
			t.Errorf("referee HELP lacks %q:\n%s", want, ref)
		}
	}
	if usa := strings.Join(h.do(USA, "HELP").Echo, "\n"); strings.Contains(usa, "SET <unit>") {
		t.Errorf("a player's HELP lists SET:\n%s", usa)
	}
}

// Evolve checks that a set fact's old value is the state's: a log whose
// set fact does not fit the state it is applied to does not fold.
func TestReferee_SET_FactChecksOldValue(t *testing.T) {
	h := harrowHarness(t, false)
	f := events.NewFact("set", events.S("target", "VANE"), events.S("field", "strength"), events.S("old", "5"), events.S("new", "2"))
	if _, err := evolve(h.st, f); err == nil || !strings.Contains(err.Error(), `the state has "3"`) {
		t.Errorf("evolve %s: err %v, want the old value refused", f, err)
	}
	f.Args[2] = events.S("old", "3")
	st, err := evolve(h.st, f)
	if err != nil || st.unit("VANE").Manpower != 2 {
		t.Fatalf("evolve %s: %v", f, err)
	}
}

// Turn says which game turn a state is in (engine.Turner).
func TestTurn(t *testing.T) {
	h := harrowHarness(t, false)
	turner, ok := New().(engine.Turner)
	if !ok {
		t.Fatal("gcacw does not implement engine.Turner")
	}
	if got := turner.Turn(h.st); got != 1 {
		t.Errorf("Turn at the start = %d, want 1", got)
	}
	h.st.Turn = 3 // a state of the last turn
	if got := turner.Turn(h.st); got != 3 {
		t.Errorf("Turn = %d, want 3", got)
	}
}

func unitIs(id string, ok func(*Unit) bool) func(*testing.T, *State) {
	return func(t *testing.T, st *State) {
		t.Helper()
		if u := st.unit(id); !ok(u) {
			t.Errorf("%s is %+v", id, *u)
		}
	}
}

func wantWith(t *testing.T, st *State, leader, unit string) {
	t.Helper()
	if got := st.leader(leader).With; got != unit {
		t.Errorf("%s with %s, want %s", leader, got, unit)
	}
}

func wantEq[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}
