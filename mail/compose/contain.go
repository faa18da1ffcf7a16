package compose

import (
	"log/slog"

	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
)

// A rule system that panics while a mail is composed (drawing the board,
// telling a fact, saying who must act) costs that part of the mail, not
// the mail: the part is replaced by a line saying so, and the panic, with
// its stack, goes to the server's log (Config.Logger) alone.

// The lines that stand for a part of a mail the rules could not give.
const (
	boardFailed = "(The board could not be drawn: an internal error in the rules. The operator has been told.)"
	factFailed  = "(What happened here could not be told: an internal error in the rules. The operator has been told.)"
)

func (c *Composer) logger() *slog.Logger {
	if c.cfg.Logger != nil {
		return c.cfg.Logger
	}
	return slog.Default()
}

// contain calls fn, which calls into g's rule system for the mail stored
// at seq; false if it panicked (logged at ERROR, with the stack).
func (c *Composer) contain(g *play.Game, seq uint64, where string, fn func()) bool {
	err := engine.Guard(where, func() error { fn(); return nil })
	if err == nil {
		return true
	}
	c.logger().Error("the rules panicked while a mail was composed; the mail goes out without that part",
		"component", "compose", "game", g.ID, "seq", seq, "where", where, "err", err, "stack", engine.PanicStack(err))
	return false
}

// promptsOf is g.Prompts(st, d) for the batch's mails, or none if the
// rules panicked.
func (b *batch) promptsOf(st engine.State, d *events.OrderAccepted) []engine.Prompt {
	var ps []engine.Prompt
	b.c.contain(b.orig, b.next, "prompting", func() { ps = b.g.Prompts(st, d) })
	return ps
}

// tell is g.Tell(st, f), or a line saying it could not be told.
func (b *batch) tell(st engine.State, f events.Fact) string {
	line := factFailed
	b.c.contain(b.orig, b.next, "describing "+f.Kind, func() { line = b.g.Tell(st, f) })
	return line
}
