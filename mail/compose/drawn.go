package compose

import (
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"sync"

	"pbem/engine"
	"pbem/engine/draw"
	"pbem/engine/play"
	"pbem/events"
)

// A mail that carries a board carries it drawn too (engine.Drawer, from
// the same view as the ASCII board), but the log keeps no picture: the
// mail.queued event has an attachment map-GAME-SEQ.png whose body only
// names whose view it is ("drawn board, the view of: player=north&side=USA").
// The outbox draws the picture as it sends the mail (outbox Config.Draw):
// from the state the composer kept when it composed the mail (Drawn), or,
// after a restart or when the composer no longer has it, from the game
// loaded at the decision the mail follows (DrawBoard) — the same state,
// so the same scene and the same bytes.

// drawnPrefix begins a drawn board's attachment body.
const drawnPrefix = "drawn board, the view of: "

// keptDrawings is how many mails' states the composer keeps to draw from.
const keptDrawings = 64

// drawings are the states of the latest mails with a drawn board, by
// MailID (immutable states: engine.State).
type drawings struct {
	mu    sync.Mutex
	m     map[string]drawing
	order []string
}

type drawing struct {
	game  string
	rules engine.Ruleset
	state engine.State
	v     engine.Viewer
	body  string // the mail's body as composed: a MailID composed twice (two nodes) is told apart
}

// drawnBoard is the placeholder of the reader's drawn board, and keeps
// the state it is drawn from; nothing when the rule system draws nothing
// or the game's images setting is off.
func (c *Composer) drawnBoard(g *play.Game, st engine.State, v engine.Viewer, mailID string, seq uint64) []events.Attachment {
	if _, ok := g.Rules.(engine.Drawer); !ok || g.Policy().NoImages {
		return nil
	}
	c.drawn.keep(mailID, drawing{game: g.ID, rules: g.Rules, state: st, v: v})
	return []events.Attachment{{Name: fmt.Sprintf("map-%s-%d.png", g.ID, seq), Body: drawnPrefix + viewerString(v)}}
}

// keep keeps d for mailID (its body is set when the mail is built).
func (ds *drawings) keep(mailID string, d drawing) {
	ds.mu.Lock()
	defer ds.mu.Unlock()
	if ds.m == nil {
		ds.m = map[string]drawing{}
	}
	if _, ok := ds.m[mailID]; !ok {
		ds.order = append(ds.order, mailID)
	}
	ds.m[mailID] = d
	for len(ds.order) > keptDrawings {
		delete(ds.m, ds.order[0])
		ds.order = ds.order[1:]
	}
}

// bodyOf records the body of the mail mailID (see drawing.body).
func (ds *drawings) bodyOf(mailID, body string) {
	ds.mu.Lock()
	defer ds.mu.Unlock()
	if d, ok := ds.m[mailID]; ok {
		d.body = body
		ds.m[mailID] = d
	}
}

// Drawn returns the board of a (an attachment of q that IsDrawn) drawn
// from the state the composer kept when it composed q, if it kept it (a
// nil scene if the rules drew nothing for that view). If the rules panic
// drawing it, it is logged and not kept (DrawBoard then says why).
func (c *Composer) Drawn(q *events.MailQueued, a events.Attachment) (*draw.Scene, bool) {
	v, ok := DrawnViewer(a)
	if !ok {
		return nil, false
	}
	c.drawn.mu.Lock()
	d, ok := c.drawn.m[q.MailID]
	c.drawn.mu.Unlock()
	if !ok || d.v != v || d.body != q.Body {
		return nil, false
	}
	var sc *draw.Scene
	if err := engine.Guard("drawing the board", func() error { sc = d.rules.(engine.Drawer).Draw(d.rules.View(d.state, v)); return nil }); err != nil {
		c.logger().Error("the rules panicked drawing a mail's board", "component", "compose", "game", d.game, "mail", q.MailID,
			"err", err, "stack", engine.PanicStack(err))
		return nil, false
	}
	return sc, true
}

// ErrNotDrawn is DrawBoard's error when the rules panicked drawing the
// board: the mail says the map could not be drawn, and no more.
var ErrNotDrawn = errors.New("an internal error in the rules (the operator has been told)")

// DrawBoard draws the board of a (an attachment that IsDrawn) from g,
// the game loaded at the decision the mail follows. A panic of the rules
// is logged (with the stack, to slog.Default()) and is ErrNotDrawn.
func DrawBoard(g *play.Game, a events.Attachment) (*draw.Scene, error) {
	v, ok := DrawnViewer(a)
	if !ok {
		return nil, fmt.Errorf("attachment %s is not a drawn board", a.Name)
	}
	d, ok := g.Rules.(engine.Drawer)
	if !ok {
		return nil, fmt.Errorf("game %s: its rules draw no board", g.ID)
	}
	var sc *draw.Scene
	if err := engine.Guard("drawing the board", func() error { sc = d.Draw(g.Rules.View(g.State, v)); return nil }); err != nil {
		slog.Error("the rules panicked drawing a mail's board", "component", "compose", "game", g.ID, "seq", g.Seq,
			"err", err, "stack", engine.PanicStack(err))
		return nil, ErrNotDrawn
	}
	if sc == nil {
		return nil, draw.ErrNothing
	}
	return sc, nil
}

// IsDrawn reports whether a is a drawn board's placeholder.
func IsDrawn(a events.Attachment) bool {
	_, ok := DrawnViewer(a)
	return ok
}

// DrawnViewer is whose view a drawn board's placeholder shows.
func DrawnViewer(a events.Attachment) (engine.Viewer, bool) {
	rest, ok := strings.CutPrefix(a.Body, drawnPrefix)
	if !ok || !strings.HasSuffix(a.Name, ".png") {
		return engine.Viewer{}, false
	}
	vs, err := url.ParseQuery(rest)
	if err != nil {
		return engine.Viewer{}, false
	}
	v := engine.Viewer{Player: vs.Get("player"), Side: vs.Get("side"), Referee: vs.Has("referee")}
	return v, viewerString(v) == rest
}

func viewerString(v engine.Viewer) string {
	vs := url.Values{}
	if v.Player != "" {
		vs.Set("player", v.Player)
	}
	if v.Side != "" {
		vs.Set("side", v.Side)
	}
	if v.Referee {
		vs.Set("referee", "yes")
	}
	if len(vs) == 0 {
		return "observer"
	}
	return vs.Encode()
}
