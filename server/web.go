package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"pbem/mail/compose"
	"pbem/web"
)

// pageBase is the base of the page links the mails carry: set only when
// the pages are served.
func (w WebConfig) pageBase() string {
	if w.Listen == "" {
		return ""
	}
	return w.BaseURL
}

// serveWeb serves the players' pages (package web) on addr until ctx is
// done; it returns the address it listens on.
func serveWeb(ctx context.Context, addr string, src web.Source, s *Server, comp *compose.Composer, lg *slog.Logger) (string, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("web listener: %w", err)
	}
	h := &web.Handler{Log: src, Reg: s.reg, Secret: s.secret, Credentials: comp.Credentials, Logger: lg.With("component", "web")}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, WriteTimeout: time.Minute,
		MaxHeaderBytes: 16 << 10,
		// The server's own errors name no path (a path holds a token).
		ErrorLog: slog.NewLogLogger(lg.Handler(), slog.LevelWarn)}
	var once sync.Once
	go func() {
		<-ctx.Done()
		once.Do(func() { srv.Close() })
	}()
	go func() {
		if err := srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			lg.Error("web server stopped", "err", err)
		}
	}()
	return l.Addr().String(), nil
}
