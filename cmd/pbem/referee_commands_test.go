package main

import (
	"strings"
	"testing"

	"pbem/engine/play"
)

// pbem referee with a command no one has answers with every command a
// referee may send: the rule system's (its rejection names them) and
// every game command, not RULE and SET alone. A known command that is
// only wrong gets its problem, without the list.
func TestRefereeUnknownCommandListsEveryRefereeCommand(t *testing.T) {
	t.Parallel()
	dir := newGame(t)
	out, errOut, code := pbem(t, nil, "--data-dir", dir, "referee", "g1", "--as", "ref", "FOO")
	if code != 1 || !strings.Contains(out, `not "FOO"`) || !strings.Contains(out, "RULE") {
		t.Fatalf("referee FOO: exit %d\n%s%s", code, out, errOut)
	}
	for _, form := range play.GameCommandForms {
		if !strings.Contains(out, form) {
			t.Errorf("referee FOO does not list %q:\n%s", form, out)
		}
	}
	out, errOut, code = pbem(t, nil, "--data-dir", dir, "referee", "g1", "--as", "ref", "SET Lyle FOO 3")
	if code != 1 || !strings.Contains(out, `"FOO" is not a field`) || strings.Contains(out, "ROLLBACK") {
		t.Fatalf("referee SET with a bad field: exit %d\n%s%s", code, out, errOut)
	}
}
