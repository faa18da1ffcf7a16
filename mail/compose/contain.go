package compose

import (
	"errors"
	"fmt"
	"log/slog"

	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
	"pbem/templates"
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

var _ play.CannotLoad = (*Composer)(nil)

// CannotLoad implements play.CannotLoad: the answer to a mail (or a
// command) for a game that cannot be loaded just now, to its sender at
// their registered addresses. g is the game as far as its log folds; the
// mail is stored at seq.
func (c *Composer) CannotLoad(g *play.Game, input *events.Envelope, seq uint64) ([]events.Payload, error) {
	if g.Created == nil {
		return nil, errors.New("compose: the game is not created")
	}
	o, err := origin(input)
	if err != nil {
		return nil, fmt.Errorf("compose game %s seq %d: %w", g.ID, seq, err)
	}
	r, ok := reader(g, o.player)
	if !ok {
		return nil, nil // no one registered to tell
	}
	b := c.batch(g, g.State, seq)
	err = b.add(mail{to: r, tmpl: templates.NameNotice, kind: "this game cannot be loaded just now", inReplyTo: o.messageID, refs: o.refs,
		data: func(cm templates.Common, _ templates.Board) any {
			return templates.Notice{Common: cm,
				What: fmt.Sprintf("Your mail received %s is for game %s, which pbem cannot load just now: an internal error, and the operator has been told.", o.received, g.ID),
				Do:   "Your mail is kept: it is decided once the game loads again, and you get the answer then. You need not send it again."}
		}})
	if err != nil {
		return nil, err
	}
	return b.out, nil
}
