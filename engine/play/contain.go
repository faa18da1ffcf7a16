package play

import (
	"log/slog"
	"strings"

	"pbem/engine"
	"pbem/events"
)

// A bug in a rule system stops one input of one game, never the server:
// every call from the runtime into a rule system is guarded
// (engine.Recover), and what it panicked with becomes an error. An input
// whose decision fails so is rejected with undecidedMsg, an event like any
// other, so a replay or a restart never decides it again; the stack goes
// to the server's log (logPanic), never into a mail.

// undecidedMsg starts the problem of an input that could not be decided.
const undecidedMsg = "pbem could not decide this order: an internal error in its rules"

// undecided is the rejection of the input in, which could not be decided:
// the sender is told in plain words, and who else has been told.
func undecided(g *Game, in *events.Envelope) *events.OrderRejected {
	told := "the operator has been told"
	if len(g.Referees) > 0 {
		told = "the referee and the operator have been told"
	}
	return &events.OrderRejected{Input: in.Seq, RulesetVersion: g.Rules.Version(), Problems: []events.Problem{{
		Line: 1, Col: 1, Msg: undecidedMsg + "; nothing was applied, and " + told,
		Hint: "send it again once the referee or the operator says the error is mended, or send another order"}}}
}

// IsUndecided reports whether d rejects an input that pbem could not
// decide (an error or a panic of the rule system), rather than one the
// rules refused: the composer then tells the game's referees too.
func IsUndecided(d *events.OrderRejected) bool {
	return len(d.Problems) == 1 && strings.HasPrefix(d.Problems[0].Msg, "pbem could not decide this order")
}

// logPanic logs err at ERROR with the stack of the panic it holds, if it
// holds one: the operator's copy of what went wrong.
func logPanic(lg *slog.Logger, msg string, err error, attrs ...any) {
	attrs = append(attrs, "err", err)
	if stack := engine.PanicStack(err); stack != "" {
		attrs = append(attrs, "panic", true, "stack", stack)
	}
	lg.Error(msg, attrs...)
}
