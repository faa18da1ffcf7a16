// Package web serves each participant's live page of a game: the HTML
// campaign report (map, slider over the history, what happened, strength
// chart) as that participant may see the game now, with what they are to
// do next and the deadlines, behind a per-seat secret link.
//
// The link is /p/<game>/<seat>/<token>, the token an HMAC of the game, the
// seat and the seat's key epoch under the server's secret
// (token.Page): a seat that changed hands (REPLACE, which a referee may
// give to the seat's own address to revoke a leaked link) has a new link,
// and the old one opens nothing. The page is read-only (orders stay by
// mail); any other method is refused, and a wrong game, seat or token all
// get the same 404, compared in constant time. The log names the game and
// the seat a page was served for, never the token or the path.
package web

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"html"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
	"pbem/mail/token"
	"pbem/report"
	"pbem/store"
)

// Source is the game log the pages are made from: the events, and where
// each game's log ends.
type Source interface {
	play.Source
	Head(game string) (store.Head, error)
}

// Prefix is the path every page link starts with (see token.PagePath).
const Prefix = "/p/"

// Link is the page link of a seat at a key epoch under base (the server's
// public address, "https://pbem.example.org"), or "" when base is empty
// (the web page is off).
func Link(base string, secret []byte, game, seat string, epoch uint64) string {
	if base == "" {
		return ""
	}
	return strings.TrimRight(base, "/") + token.PagePath(secret, game, seat, epoch)
}

// Handler serves the pages.
type Handler struct {
	Log    Source
	Reg    *engine.Registry
	Secret []byte
	// Credentials are the secrets game g's mails carry, left out of the
	// page as an export leaves them out (compose.Composer.Credentials).
	Credentials func(g *play.Game) []string
	Logger      *slog.Logger

	mu    sync.Mutex
	seats map[string]seatsAt // by game
}

// seatsAt are a game's seats and their key epochs at a head of its log:
// a wrong link costs a head read, not a replay, while the game stands.
type seatsAt struct {
	head   uint64
	epochs map[string]uint64
}

// ServeHTTP serves GET (and HEAD) of a page link; everything else is a 404
// or, for another method, a 405.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Cache-Control", "no-store")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("X-Frame-Options", "DENY")
	hd.Set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'") // a page sets its own
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hd.Set("Allow", "GET, HEAD")
		http.Error(w, "read-only: orders go by mail", http.StatusMethodNotAllowed)
		return
	}
	g, seat, ok := h.authorised(r.URL.EscapedPath())
	if !ok {
		http.NotFound(w, r)
		return
	}
	game := g.ID
	body, err := h.page(g, seat)
	if err != nil {
		h.logger().Error("page not made", "game", game, "seat", seat, "err", err)
		http.Error(w, "the page cannot be made now", http.StatusInternalServerError)
		return
	}
	hd.Set("Content-Type", "text/html; charset=utf-8")
	hd.Set("Content-Security-Policy", "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'nonce-"+body.nonce+
		"'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	w.Write(body.html)
	h.logger().Info("page served", "game", game, "seat", seat)
}

func (h *Handler) logger() *slog.Logger {
	if h.Logger != nil {
		return h.Logger
	}
	return slog.Default()
}

// authorised reads a page path and checks its token against the seat's
// key epoch in the game as it stands; ok is false for anything else, and
// a game or seat that does not exist answers as a wrong token does.
func (h *Handler) authorised(path string) (g *play.Game, seat string, ok bool) {
	rest, found := strings.CutPrefix(path, Prefix)
	if !found {
		return nil, "", false
	}
	parts := strings.Split(rest, "/")
	if len(parts) != 3 || len(parts[2]) != token.PageLen {
		return nil, "", false
	}
	game, err1 := url.PathUnescape(parts[0])
	seat, err2 := url.PathUnescape(parts[1])
	if err1 != nil || err2 != nil || game == "" || seat == "" {
		return nil, "", false
	}
	epoch, isSeat, err := h.epochOf(game, seat)
	if err != nil {
		h.logger().Error("page not checked", "game", game, "seat", seat, "err", err)
		return nil, "", false
	}
	if !isSeat {
		token.ValidPage(h.Secret, game, seat, 0, parts[2]) // the same work as a seat's check
		return nil, "", false
	}
	if !token.ValidPage(h.Secret, game, seat, epoch, parts[2]) {
		return nil, "", false
	}
	g, err = play.Replay(h.Log, h.Reg, game, 0)
	if err != nil || g.Rules == nil {
		h.logger().Error("page not made", "game", game, "seat", seat, "err", err)
		return nil, "", false
	}
	if _, still := g.PlayerByID(seat); !still || g.KeyEpoch(seat) != epoch {
		return nil, "", false // the seat changed hands since the check
	}
	return g, seat, true
}

// epochOf is seat's key epoch in game as its log stands; isSeat is false
// for a game or seat that does not exist.
func (h *Handler) epochOf(game, seat string) (epoch uint64, isSeat bool, err error) {
	hd, err := h.Log.Head(game)
	if err != nil || hd.Seq == 0 {
		return 0, false, err
	}
	h.mu.Lock()
	c, ok := h.seats[game]
	h.mu.Unlock()
	if !ok || c.head != hd.Seq {
		g, err := play.Replay(h.Log, h.Reg, game, hd.Seq)
		if err != nil {
			return 0, false, err
		}
		c = seatsAt{head: hd.Seq, epochs: map[string]uint64{}}
		for _, ps := range [][]events.Player{g.Players, g.Referees} {
			for _, p := range ps {
				c.epochs[p.ID] = g.KeyEpoch(p.ID)
			}
		}
		h.mu.Lock()
		if h.seats == nil {
			h.seats = map[string]seatsAt{}
		}
		h.seats[game] = c
		h.mu.Unlock()
	}
	epoch, isSeat = c.epochs[seat]
	return epoch, isSeat, nil
}

type page struct {
	html  []byte
	nonce string
}

// page renders seat's page of g: the campaign report cut to the seat's
// view, opening at the game as it stands, with what stands now above it.
func (h *Handler) page(g *play.Game, seat string) (*page, error) {
	v := g.ViewerOf(seat)
	p, _ := g.PlayerByID(seat)
	who := seat + " (" + p.Side + ")"
	if v.Referee {
		who = seat + " (referee)"
	}
	x := report.Exporter{Log: h.Log, Reg: h.Reg, Game: g.ID, Viewer: v, Who: who, Cut: true}
	if h.Credentials != nil {
		x.Redact = report.Redactor(h.Credentials(g))
	}
	var nb [18]byte
	if _, err := rand.Read(nb[:]); err != nil {
		return nil, fmt.Errorf("page nonce: %w", err)
	}
	nonce := base64.RawURLEncoding.EncodeToString(nb[:])
	var b bytes.Buffer
	if err := x.Page(&b, report.PageOptions{Nonce: nonce, Now: nowSection(g, seat, v), AtEnd: true}); err != nil {
		return nil, fmt.Errorf("page of %s in %s: %w", seat, g.ID, err)
	}
	return &page{html: b.Bytes(), nonce: nonce}, nil
}

// nowSection is what stands now for the viewer: whose step it is (with
// the viewer's own examples only), the deadlines, a pause, the game's end.
func nowSection(g *play.Game, seat string, v engine.Viewer) (out string) {
	esc := html.EscapeString
	var b strings.Builder
	b.WriteString(`<section id="now"><h2>Now</h2>`)
	defer func() {
		if r := recover(); r != nil {
			// A rule system that panics leaves the section short, not the
			// page missing.
			out = b.String() + "<p>(what comes next cannot be told now)</p></section>"
		}
	}()
	switch {
	case g.Ended != nil:
		b.WriteString("<p>The game is over.</p>")
	default:
		b.WriteString("<ul id=\"next\">")
		for _, pr := range g.Prompts(g.State, nil) {
			who := pr.Side
			if pr.Referee {
				who = "the referee"
			}
			yours := (pr.Referee && v.Referee) || (!pr.Referee && !v.Referee && pr.Side != "" && pr.Side == v.Side)
			if yours {
				b.WriteString("<li class=\"yours\"><strong>Your move</strong>: " + esc(pr.What))
				if len(pr.Examples) > 0 {
					b.WriteString("<br>for example: <code>" + esc(strings.Join(pr.Examples, " / ")) + "</code>")
				}
			} else {
				b.WriteString("<li>" + esc(who) + ": " + esc(pr.What))
			}
			b.WriteString("</li>")
		}
		b.WriteString("</ul>")
		if g.Paused != nil {
			b.WriteString("<p>The game is paused " + esc(g.PausedText()) + ".</p>")
		}
	}
	if len(g.Deadlines) > 0 && g.Ended == nil {
		b.WriteString("<p>Deadlines:</p><ul id=\"deadlines\">")
		for _, d := range g.Deadlines {
			name := d.Player
			if p, ok := g.PlayerByID(d.Player); ok && p.Side != "" {
				name += " (" + p.Side + ")"
			}
			line := name + ": " + g.TimeFor(seat, d.Due)
			if d.Passed {
				line += " (passed)"
			}
			b.WriteString("<li>" + esc(line) + "</li>")
		}
		b.WriteString("</ul>")
	}
	b.WriteString("<p>Orders go by mail, as always; this page only shows the game.</p></section>")
	return b.String()
}
