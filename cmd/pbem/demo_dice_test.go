package main

import (
	"strings"
	"testing"

	"pbem/internal/dicecheck"
)

// diceChecked says, for each rule system, whether its demo's die lines
// are checked to add up (dicecheck): every one is.
var diceChecked = map[string]bool{
	"hra":   true,
	"gmb":   true,
	"gcacw": true,
	"gbacw": true,
}

// mailsOf is every mail of a demo's output, as its recipient reads it:
// the name of the recipient, and the body (the demo's own header lines
// and the scripted players' answers left out).
func mailsOf(out string) (names, bodies []string) {
	mails, _, _ := strings.Cut(out, "\nThe game's log stays in")
	for _, m := range strings.Split(mails, "=== mail to ")[1:] {
		name, _, _ := strings.Cut(m, " ")
		var body []string
		for _, l := range strings.Split(m, "\n")[1:] {
			if strings.HasPrefix(l, "=== ") || strings.HasPrefix(l, ">>>") || strings.Trim(l, "=") == "" && l != "" {
				continue
			}
			body = append(body, l)
		}
		names, bodies = append(names, name), append(bodies, strings.Join(body, "\n"))
	}
	return names, bodies
}

// checkDiceAddUp checks every die line of every mail of a demo adds up
// and names each modifier's source.
func checkDiceAddUp(t *testing.T, ruleset, out string) {
	t.Helper()
	if !diceChecked[ruleset] {
		return
	}
	names, bodies := mailsOf(out)
	bad := 0
	for i, b := range bodies {
		for _, p := range dicecheck.Check(b) {
			if bad++; bad <= 10 {
				t.Errorf("%s's mail: a die line that does not add up: %s", names[i], p)
			}
		}
	}
}
