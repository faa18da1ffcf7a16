package play

import "pbem/engine"

// FoldTo folds game's log after g.Seq into g up to seq at (0: to the
// end), as the runner catches up on what it finds in the log.
func FoldTo(src Source, reg *engine.Registry, g *Game, at uint64) error { return fold(src, reg, g, at) }
