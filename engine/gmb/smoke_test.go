package gmb

import "testing"

func TestSmokeWholeGameByExamples(t *testing.T) {
	g := newGame(t)
	g.auto(400, atStep(StepOver))
	t.Log(render(g.st, engineViewerRef).Full)
}
