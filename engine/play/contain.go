package play

import (
	"errors"
	"log/slog"
	"strconv"
	"strings"

	"pbem/engine"
	"pbem/events"
	"pbem/store"
)

// A bug in a rule system stops one input of one game, never the server:
// every call from the runtime into a rule system is guarded
// (engine.Recover), and what it panicked with becomes an error. An input
// whose decision fails so is rejected with undecidedMsg, an event like any
// other, so a replay or a restart never decides it again; the stack goes
// to the server's log (logPanic), never into a mail.

// undecidedMsg starts the problem of an input that could not be decided.
const undecidedMsg = undecidedPrefix + ": an internal error in its rules"

// undecidedPrefix is what every such rejection starts with, also those
// older versions logged in other words.
const undecidedPrefix = "pbem could not decide this order"

// undecided is the rejection of the input in, which could not be decided:
// the sender is told in plain words, and who else has been told.
func undecided(g *Game, in *events.Envelope) *events.OrderRejected {
	told, who := "the operator has been told", "the operator"
	if len(g.Referees) > 0 {
		told, who = "the referee and the operator have been told", "the referee or the operator"
	}
	return &events.OrderRejected{Input: in.Seq, RulesetVersion: g.Rules.Version(), Problems: []events.Problem{{
		Line: 1, Col: 1, Msg: undecidedMsg + "; nothing was applied, and " + told,
		Hint: "send it again once " + who + " says the error is mended, or send another order"}}}
}

// IsUndecided reports whether d rejects an input that pbem could not
// decide (an error or a panic of the rule system), rather than one the
// rules refused: the composer then tells the game's referees too.
func IsUndecided(d *events.OrderRejected) bool {
	return len(d.Problems) == 1 && strings.HasPrefix(d.Problems[0].Msg, undecidedPrefix)
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

// CannotLoad is an optional Notifier method: the mails answering input,
// an input to a game that cannot be loaded now, that it cannot (g is the
// game as far as its log folds; the mails are stored from seq on). The
// input stays in the log, undecided, and is decided once the game loads.
type CannotLoad interface {
	CannotLoad(g *Game, input *events.Envelope, seq uint64) ([]events.Payload, error)
}

// cannotLoadKey keys the answer to the input at seq of a game that could
// not be loaded: one answer per input, whatever the retries.
func cannotLoadKey(seq uint64) string { return "cannot-load/" + strconv.FormatUint(seq, 10) }

// answerFailing answers each input delivered to a game that cannot be
// loaded (loadErr says why) with the notifier's CannotLoad mail, so that
// its sender hears that the game is failing rather than nothing. It is a
// best effort: what cannot be composed or appended is logged and left.
func (a *actor) answerFailing(delivered []events.Envelope, loadErr error) {
	cl, ok := a.r.opts.Notifier.(CannotLoad)
	if !ok {
		return
	}
	lg := a.r.lg.With("game", a.id)
	var g *Game
	head := uint64(0)
	if len(delivered) > 0 {
		head = delivered[len(delivered)-1].Seq
	}
	for i := range delivered {
		in := &delivered[i]
		if !events.IsInput(in.Type) || in.Type == events.TypeDeadlinePassed || in.Type == events.TypePauseExpired {
			continue
		}
		if g == nil {
			// The game as far as it folds, folded anew to that seq so
			// that nothing of the event that failed is in it.
			half, err := Load(a.r.log, a.r.reg, a.id, 0)
			if half == nil || half.Created == nil || half.Rules == nil || half.Seq == 0 {
				lg.Warn("a game that cannot be loaded gets mail, and cannot answer it", "seq", in.Seq, "err", errors.Join(err, loadErr))
				return
			}
			if g, err = Load(a.r.log, a.r.reg, a.id, half.Seq); err != nil {
				lg.Warn("a game that cannot be loaded gets mail, and cannot answer it", "seq", in.Seq, "err", err)
				return
			}
		}
		var mails []events.Payload
		err := engine.Guard("composing the answer of a failing game", func() (err error) {
			mails, err = cl.CannotLoad(g, in, head+1)
			return err
		})
		if err != nil || len(mails) == 0 {
			if err != nil {
				logPanic(lg, "composing the answer of a game that cannot be loaded failed", err, "seq", in.Seq)
			}
			continue
		}
		evs := make([]events.Envelope, len(mails))
		for j, m := range mails {
			key := ""
			if j == 0 {
				key = cannotLoadKey(in.Seq)
			}
			evs[j] = events.New(a.id, in.Time(), key, m)
		}
		res, err := a.r.log.Do(store.Request{Game: a.id, Expected: head, Events: evs})
		if err != nil {
			lg.Warn("answering mail to a game that cannot be loaded failed", "seq", in.Seq, "err", err)
			return
		}
		if !res.Duplicate {
			head = res.Last
			lg.Info("answered mail to a game that cannot be loaded", "seq", in.Seq, "mails", len(mails))
		}
	}
}
