package engine

import (
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
)

// PanicError is a panic recovered at the boundary between the runtime and
// a rule system (or the mail composer that calls one): a bug in one rule
// system must stop one input of one game, never the server. Error says
// where and what in one line, fit for a player's or a referee's eyes;
// Stack is for the server's log alone.
type PanicError struct {
	Where string // what was called: "decide", "evolve", "render", ...
	Value any    // what was passed to panic
	Stack []byte // the goroutine's stack where it panicked
}

func (e *PanicError) Error() string { return fmt.Sprintf("%s panicked: %v", e.Where, e.Value) }

// Unwrap gives the error the code panicked with, if it panicked with one.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// Recover, deferred directly by a function with a named error result
// (defer engine.Recover(&err, "evolve")), turns a panic in that function
// into a *PanicError in *err. It costs no allocation unless there is a
// panic, so it may guard a fold's every event.
func Recover(err *error, where string) {
	if v := recover(); v != nil {
		*err = &PanicError{Where: where, Value: v, Stack: debug.Stack()}
	}
}

// RecoverLogged, deferred directly (defer engine.RecoverLogged(lg,
// "handling an event", "seq", seq)), stops a panic of the calling
// function and logs it at ERROR with its stack: for a loop that must go
// on with its next item whatever one item does.
func RecoverLogged(lg *slog.Logger, msg string, attrs ...any) {
	if v := recover(); v != nil {
		lg.Error(msg, append(attrs, "err", fmt.Sprint(v), "stack", string(debug.Stack()))...)
	}
}

// Guard calls fn and returns its error, or a *PanicError if it panicked.
func Guard(where string, fn func() error) (err error) {
	defer Recover(&err, where)
	return fn()
}

// Panicked returns the panic err holds (anywhere in its chain), if any.
func Panicked(err error) (*PanicError, bool) {
	var p *PanicError
	ok := errors.As(err, &p)
	return p, ok
}

// PanicStack is the stack of the panic err holds, as a log attribute's
// value ("" if err holds none): the server logs it with the error, and
// nothing else ever shows it.
func PanicStack(err error) string {
	if p, ok := Panicked(err); ok {
		return string(p.Stack)
	}
	return ""
}
