package play_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/draw"
	"pbem/engine/enginetest"
	"pbem/events"
	"pbem/mail/compose/composetest"
)

// leakyDrawer is the reference game whose ASCII board is right but whose
// drawn board shows every hand, as the referee sees them.
type leakyDrawer struct{ engine.Ruleset }

type leakyView struct {
	inner engine.View
	st    engine.State
}

func (l leakyDrawer) View(s engine.State, v engine.Viewer) engine.View {
	return leakyView{l.Ruleset.View(s, v), s}
}
func (l leakyDrawer) Render(v engine.View) engine.Board { return l.Ruleset.Render(v.(leakyView).inner) }
func (l leakyDrawer) Draw(v engine.View) *draw.Scene {
	return l.Ruleset.(engine.Drawer).Draw(l.Ruleset.View(v.(leakyView).st, engine.Viewer{Referee: true}))
}
func (l leakyDrawer) Facts() []engine.FactSchema { return l.Ruleset.(engine.Teller).Facts() }
func (l leakyDrawer) Describe(s engine.State, f events.Fact) string {
	return l.Ruleset.(engine.Teller).Describe(s, f)
}

// The leak test compares drawn boards as it compares ASCII
// ones. A rule system whose drawing shows another side's hand, with an
// ASCII board that does not, fails it (run in a child process, whose
// failure is the test's success).
func TestLeakTestCatchesADrawnBoardThatShowsAHiddenHand(t *testing.T) {
	t.Parallel()
	if os.Getenv("PBEM_LEAKY_DRAWER") == "1" {
		reg := engine.NewRegistry(func() engine.Ruleset { return leakyDrawer{enginetest.Race()} })
		enginetest.Leak(t, reg, composetest.New(t), raceWithHands())
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestLeakTestCatchesADrawnBoardThatShowsAHiddenHand$")
	cmd.Env = append(os.Environ(), "PBEM_LEAKY_DRAWER=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the leak test passed a drawing that shows the other side's hand:\n%s", out)
	}
	if !strings.Contains(string(out), "learns it before") || !strings.Contains(string(out), "<svg") {
		t.Fatalf("the leak test failed, but not on the drawing:\n%s", out)
	}
	// And the honest drawing passes (the acceptance suite runs it: see
	// TestAcceptanceSuiteWithHiddenHandsAndSealedBids).
}
