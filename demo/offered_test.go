package demo

import (
	"slices"
	"testing"

	"pbem/templates"
)

// The demo's players read the examples a mail offers as the move template
// writes them, an example of several lines whole: its first line alone may
// be an order the rules refuse (GBACW 14.2a: a move next to the enemy on
// Attack orders without its shock), and the refusal offers the same
// example again, so a player sending the first line alone never got past it.
func TestDemoPlayersReadWholeExamples(t *testing.T) {
	set, err := templates.Load("")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		examples []string
	}{
		{"one a line", []string{"RETURN FIRE", "PASS", "STANDING RETURN FIRE ALL ALWAYS"}},
		{"one alone", []string{"BEGIN"}},
		{"several lines", []string{"12th Georgia: MOVE 0605 0706 0707\n12th Georgia: SHOCK 0708\n5th Alabama: MOVE 0707",
			"DONE", "STANDING RETURN FIRE ALL ALWAYS"}},
		{"a long order wrapped", []string{"7th Virginia Cavalry: MOVE 0809 0808 0708 0608 0508 0507 0506 0605 0705\n    0805", "DONE"}},
		{"several lines last", []string{"DONE", "FIRE 2nd Virginia AT 6th Wisconsin\nFIRE 5th Virginia AT 7th Wisconsin"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, err := set.Render(templates.NameYourMove, templates.Turn{Action: templates.Action{Kind: "silent"},
				Move: &templates.Prompt{Side: "CSA", Yours: true, What: "turn 3, activation of Rusk's Division (3.3)", Examples: tc.examples}})
			if err != nil {
				t.Fatal(err)
			}
			if got := Offered(body); !slices.Equal(got, tc.examples) {
				t.Errorf("the mail offers %q, the player read %q:\n%s", tc.examples, got, body)
			}
		})
	}
}
