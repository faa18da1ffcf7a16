package compose

import (
	"fmt"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
	"pbem/mail/token"
	"pbem/templates"
)

// recipient is a player or referee a mail goes to.
type recipient struct {
	events.Player
	referee  bool
	observer bool // sees what the rules let a non-player see
	former   bool // held a seat that changed hands: gets no key
}

func (r recipient) viewer() engine.Viewer {
	if r.observer {
		return engine.Viewer{}
	}
	if r.referee {
		return engine.Viewer{Player: r.ID, Referee: true}
	}
	return engine.Viewer{Player: r.ID, Side: r.Side}
}

// readers are everyone who gets a game's mails: players, referees (each
// list in the order the game was created with, at their current
// addresses) and observers; anyone without an address is left out (there
// is nowhere to send to).
func readers(g *play.Game) []recipient {
	var out []recipient
	for _, p := range g.Players {
		if len(p.Addresses) > 0 {
			out = append(out, recipient{Player: p})
		}
	}
	for _, p := range g.Referees {
		if len(p.Addresses) > 0 {
			out = append(out, recipient{Player: p, referee: true})
		}
	}
	for _, a := range g.Observers {
		out = append(out, recipient{Player: events.Player{ID: play.ObserverPrefix + a, Name: "Observer", Addresses: []string{a}}, observer: true})
	}
	return out
}

// reader is the player or referee id, if they can be mailed.
func reader(g *play.Game, id string) (recipient, bool) {
	for _, r := range readers(g) {
		if r.ID == id {
			return r, true
		}
	}
	return recipient{}, false
}

// mail is one mail to render.
type mail struct {
	to   recipient
	tmpl string
	// kind says what the mail is ("your move", "order rejected"): its
	// first line. (The subject is the same for every mail of a game, so
	// that clients that thread by subject keep one thread.)
	kind      string
	inReplyTo string   // Message-ID of the mail this one answers, or ""
	refs      []string // that mail's References
	board     bool     // the mail carries the reader's board
	// drawn: the board goes drawn too (a picture), in a mail whose board
	// changed for its reader; full: the whole map goes as a text
	// attachment (BOARD FULL, or a digest).
	drawn, full bool
	// told: the mail tells what was held for its reader (their held
	// parts are dropped once it is queued).
	told bool
	// data builds the template's data once the common part and the board
	// (which names the attachment, hence the seq) are known.
	data func(templates.Common, templates.Board) any
}

// batch collects the mails of one event, numbering them from next.
type batch struct {
	c      *Composer
	g      game
	before engine.State // the state the decision was made on
	state  engine.State // the state the mails show
	ended  bool         // the decision ends the game
	next   uint64       // seq the next mail will be stored at
	out    []events.Payload
	// silent: the game's overrides were silent when the decision was
	// taken; in is the decided input; welcomed are the seats the decision
	// gave to someone (they get a welcome instead of the report).
	silent   bool
	in       *events.Envelope
	welcomed []string
	orig     *play.Game // the game before the decision
	turn     int        // 0: not yet known; 1: the decision stays in its game turn; 2: it begins a new one
	// boards are the boards rendered from before (true) and state
	// (false) for each viewer: a reader's board is compared with the one
	// before and then mailed, and rendering is most of a mail's cost.
	boards map[shownBoard]engine.Board
}

// shownBoard is a board of the batch: a viewer's, of the state before.
type shownBoard struct {
	v      engine.Viewer
	before bool
}

// board is v's board of the state before the decision (before) or of the
// state the mails show, rendered once in the batch.
func (b *batch) board(v engine.Viewer, before bool) engine.Board {
	k := shownBoard{v, before}
	if bd, ok := b.boards[k]; ok {
		return bd
	}
	st := b.state
	if before {
		st = b.before
	}
	bd := b.g.Rules.Render(b.g.Rules.View(st, v))
	if b.boards == nil {
		b.boards = map[shownBoard]engine.Board{}
	}
	b.boards[k] = bd
	return bd
}

func (c *Composer) batch(g *play.Game, state engine.State, first uint64) *batch {
	return &batch{c: c, g: game{g}, before: g.State, state: state, next: first, orig: g}
}

// add renders m and queues it at the next seq.
func (b *batch) add(m mail) error {
	g, cfg, seq := b.g, b.c.cfg, b.next
	var board templates.Board
	var att []events.Attachment
	if m.board {
		var bd engine.Board
		if b.c.contain(b.orig, seq, "rendering the board", func() { bd = b.board(m.to.viewer(), false) }) {
			board.Window = strings.TrimRight(bd.Window, "\n")
			if bd.Full != "" && m.full {
				board.Attachment = fmt.Sprintf("map-%s-%d.txt", g.ID, seq)
				att = []events.Attachment{{Name: board.Attachment, Body: bd.Full}}
			}
			if m.drawn {
				att = append(att, b.c.drawnBoard(g.Game, b.state, m.to.viewer(), mailID(g.ID, seq, cfg.Domain), seq)...)
			}
		} else {
			board.Window = boardFailed
		}
	}
	common := templates.Common{Game: g.ID, Ruleset: g.Created.Ruleset, Version: g.Created.RulesetVersion,
		Scenario: g.Created.ScenarioName, Name: name(m.to.Player), Side: m.to.Side, Referee: m.to.referee,
		Observer: m.to.observer, Key: token.MakeAt(cfg.Secret, g.ID, m.to.ID, g.KeyEpoch(m.to.ID)), Mailbox: cfg.Local + "@" + cfg.Domain}
	if c, what := play.ParentText(g.Game); c != "" {
		common.Campaign = what
	}
	if gd, ok := g.Rules.(engine.Guider); ok {
		og := gd.Guide()
		common.Guide = templates.Guide{Prefix: og.Prefix, Keyword: og.Keyword, Conditions: og.Conditions}
	}
	if m.to.observer || m.to.former {
		common.Key = "" // an observer sends nothing; a former holder has no key
	}
	body, err := b.c.t.Render(m.tmpl, m.data(common, board))
	if err != nil {
		return fmt.Errorf("compose game %s mail %d (%s to %s): %w", g.ID, seq, m.tmpl, m.to.ID, err)
	}
	q := &events.MailQueued{
		MailID:      mailID(g.ID, seq, cfg.Domain),
		To:          append([]string(nil), m.to.Addresses...),
		Subject:     Subject(g.ID, g.Created.ScenarioName),
		Template:    m.tmpl,
		ReplyTo:     token.AddressAt(cfg.Secret, cfg.Local, cfg.Domain, g.ID, m.to.ID, g.KeyEpoch(m.to.ID)),
		Body:        kindLine(m.kind) + "\n\n" + body,
		Attachments: att,
	}
	if m.to.observer || m.to.former {
		q.ReplyTo = cfg.Local + "@" + cfg.Domain // an observer sends nothing; a former holder has no key
	}
	q.InReplyTo, q.References = thread(rootOf(g.Game, m.to, cfg.Domain), q.MailID, m.inReplyTo, m.refs)
	b.c.drawn.bodyOf(q.MailID, q.Body)
	b.out = append(b.out, q)
	b.next++
	if m.told {
		b.out = append(b.out, &events.MailHeld{Reader: m.to.ID, Told: q.MailID})
		b.next++
	}
	return nil
}

func mailID(game string, seq uint64, domain string) string {
	return token.MailID(game, seq, domain)
}

// Subject is the subject of every mail of a game: its tag and the
// scenario's name ("[pbem g1] Harrow Creek"). It never changes, so that
// clients that thread by subject (Gmail among them) keep a game in one
// thread; what a mail is stands on its first line.
func Subject(game, scenario string) string {
	return token.SubjectTag(game) + " " + Title(scenario)
}

// Title is a scenario's name as a title: "harrow-creek" (or a file
// "scenarios/harrow-creek.txt") is "Harrow Creek".
func Title(scenario string) string {
	name := path.Base(strings.ReplaceAll(scenario, "\\", "/"))
	name = strings.TrimSuffix(name, path.Ext(name))
	words := strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' || unicode.IsSpace(r) })
	for i, w := range words {
		r, n := utf8.DecodeRuneInString(w)
		words[i] = string(unicode.ToUpper(r)) + w[n:]
	}
	if len(words) == 0 {
		return "game"
	}
	return strings.Join(words, " ")
}

// kindLine is the first line of a mail: what it is ("Your move").
func kindLine(kind string) string {
	r, n := utf8.DecodeRuneInString(kind)
	return string(unicode.ToUpper(r)) + kind[n:]
}

// rootOf is the Message-ID that roots r's thread of game g: r's welcome
// mail, the first mail of the game to r (RFC 5322 §3.6.4). The welcome
// mails were stored right after game.created, one per reader in the order
// of readers, so the id is known without reading the log. An observer,
// who got no welcome, has no root.
func rootOf(g *play.Game, r recipient, domain string) string {
	if r.observer {
		return ""
	}
	i := 0
	for _, ps := range [][]events.Player{g.Created.Players, g.Created.Referees} {
		for _, p := range ps {
			if len(p.Addresses) == 0 {
				continue
			}
			if p.ID == r.ID {
				return mailID(g.ID, 2+uint64(i), domain)
			}
			i++
		}
	}
	return ""
}

// maxReferences bounds a mail's References: the root and the newest.
const maxReferences = 20

// thread returns the In-Reply-To and References of a mail (id) in the
// thread rooted at root: a mail answering a player's mail (parent, whose
// References were parentRefs) carries the parent's chain and the parent,
// with the root first; any other mail answers the root; the root itself
// answers nothing.
func thread(root, id, parent string, parentRefs []string) (string, []string) {
	if root == id || root == "" && parent == "" {
		return "", nil
	}
	if parent == "" {
		return root, []string{root}
	}
	refs := make([]string, 0, len(parentRefs)+2)
	seen := map[string]bool{}
	for _, r := range append(append([]string{root}, parentRefs...), parent) {
		if r != "" && !seen[r] {
			seen[r] = true
			refs = append(refs, r)
		}
	}
	if len(refs) > maxReferences {
		refs = append(refs[:1:1], refs[len(refs)-maxReferences+1:]...)
	}
	return parent, refs
}

// game adds to play.Game how mails name people.
type game struct{ *play.Game }

// playerWho names a player or referee: "Anna (USA)", "Carol (referee)".
func (g game) playerWho(id string) string {
	p, ok := g.PlayerByID(id)
	switch {
	case id == play.OperatorID:
		return "the operator"
	case !ok:
		return id
	case p.Side == "":
		return name(p) + " (referee)"
	}
	return name(p) + " (" + p.Side + ")"
}

// sideWho names a side with its players: "USA (Anna)", "USA (Anna, Bob)".
func (g game) sideWho(side string) string {
	var names []string
	for _, p := range g.Players {
		if p.Side == side {
			names = append(names, name(p))
		}
	}
	if len(names) == 0 {
		return side
	}
	return side + " (" + strings.Join(names, ", ") + ")"
}

// refereeWho names the referees: "The referee (Carol)".
func (g game) refereeWho() string {
	var names []string
	for _, p := range g.Referees {
		names = append(names, name(p))
	}
	if len(names) == 0 {
		return "The referee"
	}
	return "The referee (" + strings.Join(names, ", ") + ")"
}

// action is the decided input as r may read it: only the facts, dice and
// echo lines r may see once d is applied (and the game ended, if it
// does), each fact told in plain words. before is the state the decision
// was made on.
func (b *batch) action(o source, d *events.OrderAccepted, r recipient) templates.Action {
	g := b.g
	cut := g.Sight(r.viewer()).After(d, b.ended).Decision(d)
	a := templates.Action{Kind: o.kind, By: g.playerWho(o.player), Yours: r.ID == o.player, Received: o.received,
		Reason: o.reason, Default: o.dflt, Echo: append([]string(nil), cut.Echo...),
		Override: o.kind == "ruling" && play.IsOverride(o.text, d)}
	if o.kind == "deadline" && !play.DefaultApplied(d) {
		a.Default = "" // the echo says why nothing was applied
	}
	if o.kind == "deadline" && o.due != 0 {
		a.Due = g.TimeFor(r.ID, o.due) // the time it was due, not the time pbem noticed
	}
	for _, f := range cut.Facts {
		if line := b.tell(b.before, f); line != "" {
			a.Facts = append(a.Facts, line)
		}
	}
	for _, x := range cut.Dice {
		a.Dice = append(a.Dice, templates.Die{Index: x.Index, Sides: x.Sides, Value: x.Value, Purpose: x.Purpose})
	}
	return a
}
