package dicecheck

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		why        string // the problem found, "" for none
	}{
		{"the shape's own example", "Anna's 1st Corps rolls 5 + 3 = 8, +1 cavalry leader (5.1.2) = 9 for its Movement Allowance: MA 9.", ""},
		{"initiative with a modifier on one side", "Initiative (4.1): USA rolls 6, +1 army commander (4.1) = 7; CSA rolls 3: USA has the initiative.", ""},
		{"one die, no modifier", "Battery B rolls 4 for supply: supply 6 (HRA 3e).", ""},
		{"rolled", "The referee rolled 2 + 2 = 4.", ""},
		{"two modifiers, one negative", "Lyle rolls 3 + 4 = 7, +1 leader (5.1.2), -2 disorganized (2.4) = 6: MA 6.", ""},
		{"wrapped as a mail wraps it", "Lyle rolls 3 + 4 = 7, +1\n  leader (5.1.2) =\n  8: MA 8.", ""},
		{"a pool", "USA rolls 3 dice, +2 commander and battlefield (13.8b) = 5 dice: 2 successes.", ""},
		{"a pool without modifiers", "CSA rolls 3 dice: 1 success.", ""},
		{"no number after rolls", "Union rolls for its generals: 3 and 5.", ""},
		{"a wrong sum", "Lyle rolls 5 + 3 = 9: MA 9.", "the dice add up to 8, not 9"},
		{"two dice without a sum", "Lyle rolls 5 + 3: MA 9.", "2 dice without their sum"},
		{"a modifier without its source", "rolls 5 + 3 = 8 +1 = 9: MA 9.", "a modifier without its source"},
		{"the old HRA morale", "8th Illinois rolls 3 -2 = 1, state -1.", "a modifier without its source"},
		{"a wrong result", "Lyle rolls 5 + 3 = 8, +1 cavalry leader (5.1.2) = 10: MA 10.", "make 9, not 10"},
		{"modifiers without a result", "Lyle rolls 5, +1 cavalry leader (5.1.2): MA 6.", "without the result"},
		{"one die said to be another", "Lyle rolls 5 = 6.", "the roll is 5, not 6"},
		{"a pool that does not add up", "USA rolls 3 dice, +2 commander (13.8b) = 6 dice: 2 successes.", "make 5, not 6"},
		{"a pool's result without dice", "USA rolls 3 dice, +2 commander (13.8b) = 5: 2 successes.", "a pool's count"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps := Check(tc.text)
			switch {
			case tc.why == "" && len(ps) > 0:
				t.Errorf("found %v", ps)
			case tc.why != "" && len(ps) != 1:
				t.Errorf("found %d problems, want one (%q): %v", len(ps), tc.why, ps)
			case tc.why != "" && !strings.Contains(ps[0].Why, tc.why):
				t.Errorf("found %q, want %q", ps[0].Why, tc.why)
			}
		})
	}
}

// Every roll of a text is checked, not only the first.
func TestCheckFindsEveryRoll(t *testing.T) {
	ps := Check("A rolls 2 + 2 = 4. B rolls 1 + 1 = 3. C rolls 6, +1 x (1) = 8.")
	if len(ps) != 2 || !strings.HasPrefix(ps[0].Line, "rolls 1 + 1") || !strings.HasPrefix(ps[1].Line, "rolls 6") {
		t.Errorf("got %v", ps)
	}
}
