package main

import (
	"strings"
	"testing"
)

// pbem tick acts on a running server's games; with none, it says so and
// fails, rather than pretending the clock was applied.
func TestTickNeedsARunningServer(t *testing.T) {
	t.Parallel()
	out, errOut, code := pbem(t, nil, "--data-dir", t.TempDir(), "tick")
	if code == 0 || !strings.Contains(errOut, "needs a running 'pbem serve'") {
		t.Fatalf("pbem tick with no server: exit %d\n%s\n%s", code, out, errOut)
	}
}
