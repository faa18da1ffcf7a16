// Package logx builds pbem's structured logger (log/slog, text or JSON) and
// the adapters that make the libraries pbem embeds log through it:
// nats-server's Logger, and the Printf-style loggers of go-imap and go-smtp.
package logx

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
)

// New returns a logger writing to w in format "text" or "json" at level
// ("debug", "info", "warn", "error").
func New(w io.Writer, format, level string) (*slog.Logger, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("log level %q: %w", level, err)
	}
	opts := &slog.HandlerOptions{Level: lv}
	switch strings.ToLower(format) {
	case "", "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("log format %q: use text or json", format)
}

// NATS adapts a slog.Logger to nats-server's Logger interface.
type NATS struct{ L *slog.Logger }

func (n NATS) log(lv slog.Level, format string, v []any) {
	n.L.Log(context.Background(), lv, fmt.Sprintf(format, v...))
}

// Noticef logs at info.
func (n NATS) Noticef(format string, v ...any) { n.log(slog.LevelInfo, format, v) }

// Warnf logs at warn.
func (n NATS) Warnf(format string, v ...any) { n.log(slog.LevelWarn, format, v) }

// Fatalf logs at error (nats-server calls it before shutting itself down).
func (n NATS) Fatalf(format string, v ...any) { n.log(slog.LevelError, format, v) }

// Errorf logs at error.
func (n NATS) Errorf(format string, v ...any) { n.log(slog.LevelError, format, v) }

// Debugf logs at debug.
func (n NATS) Debugf(format string, v ...any) { n.log(slog.LevelDebug, format, v) }

// Tracef logs at debug.
func (n NATS) Tracef(format string, v ...any) { n.log(slog.LevelDebug-4, format, v) }

// Printf adapts a slog.Logger to the Printf/Println loggers of go-imap and
// go-smtp, logging each line at a fixed level.
type Printf struct {
	L     *slog.Logger
	Level slog.Level
}

// Printf logs one formatted message.
func (p Printf) Printf(format string, v ...any) {
	p.L.Log(context.Background(), p.Level, strings.TrimRight(fmt.Sprintf(format, v...), "\n"))
}

// Println logs its operands.
func (p Printf) Println(v ...any) {
	p.L.Log(context.Background(), p.Level, strings.TrimRight(fmt.Sprintln(v...), "\n"))
}

// Writer returns an io.Writer that logs each line written to it (for
// protocol debug streams).
func Writer(l *slog.Logger, level slog.Level, msg string) io.Writer {
	return &lineWriter{l: l, lv: level, msg: msg}
}

type lineWriter struct {
	l   *slog.Logger
	lv  slog.Level
	msg string
	buf []byte
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.buf = append(w.buf, p...)
	for {
		i := strings.IndexByte(string(w.buf), '\n')
		if i < 0 {
			return len(p), nil
		}
		w.l.Log(context.Background(), w.lv, w.msg, "line", strings.TrimRight(string(w.buf[:i]), "\r"))
		w.buf = w.buf[i+1:]
	}
}
