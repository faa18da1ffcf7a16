package plainwords

import "testing"

func TestText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Lyle's fatigue is now 3: reorganization (R14, house rule).", "Lyle's fatigue is now 3: reorganization (house rule)."},
		{"the Assault action is not in the rules pbem has (GCACW 5b, R10)", "the Assault action is not in the rules pbem has (GCACW 5b)"},
		{"how cavalry retreats [7.7] is not in the rules pbem has (R9): rule each retreat", "how cavalry retreats is not in the rules pbem has: rule each retreat"},
		{"the referee rules how it retreats (R9: the rule is not in the seed)", "the referee rules how it retreats (the rule is not in the rules pbem has)"},
		{"the referee ruled the result after the last turn (victory conditions: R24)", "the referee ruled the result after the last turn (victory conditions)"},
		{"each with the leader's MA (GCACW 5.2 step 4, which the rules lack: R16, Ambiguity A14)", "each with the leader's MA (GCACW 5.2 step 4, which the rules lack)"},
		{"ZOC enters swamp (GCACW 2.4c (Ambiguity A20), default)", "ZOC enters swamp (GCACW 2.4c, default)"},
		{"a battery stacks with one infantry or cavalry unit (8.2, B8)", "a battery stacks with one infantry or cavalry unit (8.2)"},
		{"they are revealed when both sides have declared (H23)", "they are revealed when both sides have declared"},
		{"Union declares 1 volley(s); Confederate 3 volley(s).", "Union declares 1 volley; Confederate 3 volleys."},
		{"The dice seed stays.", "The dice seed stays."},
		{"Extended March BECK: die 4 +1 = 5, column D1-4: 1.", "Extended March BECK: die 4 +1 = 5, the disorganized, Manpower 1-4 column: 1."},
		// The rules' own numbers, hexes and other parentheses stay.
		{"Battery B rolls 4 for supply: supply 6 (HRA 3e, HRA T2).", "Battery B rolls 4 for supply: supply 6 (HRA 3e, HRA T2)."},
		{"Lyle marches to 0805 (GCACW 5.1.1; 3 MP left).", "Lyle marches to 0805 (GCACW 5.1.1; 3 MP left)."},
		{"The board (H0805 is the ford).", "The board (H0805 is the ford)."},
	} {
		if got := Text(c.in); got != c.want {
			t.Errorf("Text(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}
