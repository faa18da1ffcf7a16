// Package compose decides which mails a game's events cause and renders
// them: the welcome mails when a game is created, and after each decision
// the report, "your move", referee notice, rejection, answer to a query
// word (HELP, BOARD, STATUS) or game-over mail, each for its reader's own
// view of the board. It is the engine's Notifier: the mails it returns are
// appended as mail.queued events in the same transaction as the decision
// (a transactional outbox), so they are rendered once, in full, and sent
// later by the outbox from the log alone.
//
// Composing is pure: no clock, no randomness, no map iteration reaches a
// mail. The same log gives the same mails, byte for byte, Message-IDs
// included (they are derived from the game and the seq each mail is
// stored at).
package compose

import (
	"cmp"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
	"pbem/mail/token"
	"pbem/templates"
)

// Config is what the composer needs of the server's mail setup.
type Config struct {
	Domain string // mail domain, "pbem.localhost"
	Local  string // local part of pbem's mailbox, "pbem"
	Secret []byte // the reply-token secret
	// PageBase is the address of the players' live pages (package web),
	// "https://pbem.example.org"; with it, the welcome mails and the
	// answers to HELP carry the reader's secret page link. Empty: none.
	PageBase string
	// Log, if set, gives the answer to LOG: the last n actions of game's
	// log up to seq upTo (the last event before the query's decision, so
	// the same log gives the same answer), as v may see them
	// (play.RecentActions over the server's store).
	Log func(game string, v engine.Viewer, upTo uint64, n int) ([]string, error)
	// Desk, if set, lists the games a referee (by any of their addresses)
	// referees, as they stand at the time now (the decision's intake
	// time), for the answer to GAMES. It is the one mail whose body
	// depends on other games' logs: it is rendered once, when GAMES is
	// decided, and kept in the log like every mail.
	Desk func(addresses []string, now int64) ([]templates.DeskGame, error)
	// Mailhost is pbem's own mail host, when it runs one: the welcome to a
	// reader with a mailbox there says how to log in, with PasswordMark
	// where the password goes.
	Mailhost *Mailhost
	// Logger receives what the rules panicked with while a mail was
	// composed (the mail goes out without that part); nil: slog.Default().
	Logger *slog.Logger
}

// Mailhost is where pbem's own mail host listens.
type Mailhost struct{ IMAP, SMTP string }

// PasswordMark stands for the reader's mailbox password in a welcome
// mail. The outbox puts the password in its place as it sends the mail
// (see FillPassword): the game's log, and anything exported from it,
// never holds a password.
const PasswordMark = "{pbem:mailbox-password}"

// Composer renders a game's mails with a template set.
type Composer struct {
	cfg   Config
	t     *templates.Set
	drawn drawings // the states the latest mails' boards are drawn from
}

// New returns a composer.
func New(cfg Config, t *templates.Set) *Composer { return &Composer{cfg: cfg, t: t} }

var (
	_ play.Notifier = (*Composer)(nil)
	_ play.Reminder = (*Composer)(nil)
)

// timeLayout is how mails print an intake time (always UTC).
const timeLayout = "Mon 2 Jan 2006 15:04 MST"

// Welcome returns the welcome mails of a game just created (g has folded
// only game.created): one to each player, with their side's view, and one
// to each referee, with the referee's view. It fits play.NewGame.Welcome.
func (c *Composer) Welcome(g *play.Game) ([]events.Payload, error) {
	if g.Created == nil {
		return nil, errors.New("compose welcome: the game is not created")
	}
	b := c.batch(g, g.State, g.Seq+1)
	for _, r := range readers(g) {
		if err := c.welcome(b, r, "", false); err != nil {
			return nil, err
		}
	}
	return b.out, nil
}

// welcome queues the welcome mail of r: to a new game, or (takesOver
// names the former holder) to a seat that changed hands or a referee
// added later, with the game as it stands.
func (c *Composer) welcome(b *batch, r recipient, takesOver string, joins bool) error {
	g := b.g.Game
	first := c.prompts(g, b.promptsOf(b.state, nil), r)
	if g.Paused != nil && takesOver == "" && !joins {
		// Created paused (a battle whose referee sets its forces up):
		// no one moves until the referee has done what the pause says.
		first = []templates.Prompt{{Who: game{g}.refereeWho(), Referee: true, Yours: r.referee,
			What: "first, while the game is paused, " + g.Paused.Reason}}
	}
	kind := "welcome: you play " + r.Side
	switch {
	case r.referee:
		kind = "welcome: you referee"
	case r.observer:
		kind = "welcome: you observe"
	}
	return b.add(mail{to: r, tmpl: templates.NameWelcome, kind: kind, board: true, drawn: true,
		data: func(cm templates.Common, bd templates.Board) any {
			return templates.Welcome{Common: cm, Players: participants(g.Players), Referees: refereeContacts(g.Referees),
				Commitment: g.Created.SeedCommitment.Hex(), First: first, Move: own(first), Board: bd, Secret: c.refereeSecret(g, r),
				Deadline: b.g.deadlineOf(r.ID), TakesOver: takesOver, Joins: joins, Settings: b.g.settingLines(),
				Rules: b.explain(b.state, r, engine.ExplainWelcome), Login: c.login(r, takesOver != "" || joins),
				Volume: g.Volume(r.ID), Change: volumeChange(r), Page: c.pageLink(b.g.Game, r)}
		}})
}

// Mails implements play.Notifier: the mails decision causes. g is the
// game before the decision, which will be stored at g.Seq+1 and its mails
// at g.Seq+2, g.Seq+3 … in the order returned; after is the state once
// the decision's facts are applied; ended is set when they end the game.
//
// The policy:
//   - rejected: only to the sender, quoting each bad line;
//   - a query word (HELP, BOARD, BOARD FULL, STATUS): answered only to the
//     sender;
//   - the game ended: "game over" to every player and referee, instead of
//     the report (it carries the report of the last action, so each reader
//     gets one mail, not two at once);
//   - otherwise a report to every player and referee with the board from
//     their own view; a player who must act now gets it as "your move",
//     with what they may send; a referee gets it as a referee notice when
//     the rules hand them a step, or the action was a referee's ruling or
//     a passed deadline.
func (c *Composer) Mails(g *play.Game, after engine.State, input *events.Envelope, decision events.Payload, ended *events.GameEnded) ([]events.Payload, error) {
	if g.Created == nil {
		return nil, errors.New("compose: the game is not created")
	}
	o, err := origin(input)
	if err != nil {
		return nil, fmt.Errorf("compose game %s seq %d: %w", g.ID, g.Seq+1, err)
	}
	b := c.batch(g, after, g.Seq+2)
	b.ended = ended != nil
	b.silent = g.Policy().Silent // as it was when the decision was taken
	b.in = input
	switch d := decision.(type) {
	case *events.OrderRejected:
		if o.player == "" {
			o.player = d.Player
		}
		err = c.rejected(b, o, d)
	case *events.OrderAccepted:
		if o.player == "" {
			o.player = d.Player
		}
		b.g = game{g.RosterAfter(d)}
		switch word, isQuery := queryWord(d); {
		case isQuery:
			err = c.query(b, o, word)
		case ended != nil:
			err = c.gameOver(b, o, d, ended)
		case private(d):
			err = c.private(b, o, d)
		default:
			b.welcomed = welcomed(d)
			if err = c.turn(b, o, d); err == nil {
				err = c.seats(b, o, d)
			}
		}
	default:
		return nil, fmt.Errorf("compose game %s seq %d: %T is not a decision", g.ID, g.Seq+1, decision)
	}
	if err != nil {
		return nil, err
	}
	return b.out, nil
}

// source is what the decided input says of itself.
type source struct {
	player    string   // who sent it, or whose deadline passed
	kind      string   // "order", "ruling", "deadline", "expired" or "observer"
	messageID string   // the Message-ID of the mail that carried it, or ""
	refs      []string // that mail's References
	reason    string   // a referee's reason
	dflt      string   // a deadline's default order
	due       int64    // when the deadline that passed was due
	received  string   // the intake time
	at        int64    // the intake time, unix ns
	text      string   // a referee's command text
	refused   string   // why the intake did not trust a referee's mail
	mail      bool     // it came by mail (not from pbem's command line)
	create    bool     // it came with the game's creation (a battle's observers, its setup pause)
	cli       bool     // it was typed on pbem's command line (pbem order, pbem referee)
}

func origin(in *events.Envelope) (source, error) {
	if in == nil {
		return source{kind: "order"}, nil
	}
	o := source{received: in.Time().Format(timeLayout), at: in.At}
	p, err := events.Decode(in)
	if err != nil {
		return o, fmt.Errorf("input: %w", err)
	}
	switch p := p.(type) {
	case *events.OrderReceived:
		o.player, o.kind, o.messageID, o.refs = p.Player, "order", msgID(p.MessageID), p.References
		o.cli = p.Source == "cli"
		if strings.HasPrefix(p.Player, play.ObserverPrefix) {
			o.kind = "observer"
		}
	case *events.RefereeCommand:
		o.player, o.kind, o.messageID, o.reason, o.text, o.refused = p.Referee, "ruling", msgID(p.MessageID), p.Reason, p.Text, p.Refused
		o.mail, o.cli, o.create = p.Source == "mail", p.Source == "cli", p.Source == "create"
	case *events.DeadlinePassed:
		o.player, o.kind, o.dflt, o.due = p.Player, "deadline", p.Default, p.Due
		if strings.EqualFold(o.dflt, "referee") {
			o.dflt = ""
		}
	case *events.PauseExpired:
		o.kind = "expired"
	default:
		return o, fmt.Errorf("input seq %d: %s is not an input", in.Seq, in.Type)
	}
	return o, nil
}

// msgID puts a Message-ID in angle brackets, as headers carry it.
func msgID(id string) string {
	id = strings.TrimSpace(id)
	if id == "" || strings.HasPrefix(id, "<") {
		return id
	}
	return "<" + id + ">"
}

func queryWord(d *events.OrderAccepted) (string, bool) {
	if len(d.Facts) != 0 || len(d.Echo) == 0 {
		return "", false
	}
	switch d.Echo[0] {
	case play.QueryHelp, play.QueryBoard, play.QueryBoardFull, play.QueryStatus, play.QueryGames, play.QueryLog:
		return d.Echo[0], true
	}
	if play.LogCount(d.Echo[0]) > 0 {
		return d.Echo[0], true
	}
	return "", false
}

func (c *Composer) rejected(b *batch, o source, d *events.OrderRejected) error {
	r, ok := reader(b.g.Game, o.player)
	if !ok || o.cli {
		// No one registered to tell, but the referees; or the input was
		// typed on pbem's command line, which printed the rejection to
		// whoever typed it: the player sent no mail to be told about.
		return c.undecided(b, o, d)
	}
	probs, more := problems(d.Problems)
	var next []templates.Prompt
	if b.g.Ended == nil { // once the game is over, no one has a move
		next = c.prompts(b.g.Game, b.promptsOf(b.state, nil), r)
	}
	kind := "order rejected"
	switch {
	case o.refused != "":
		kind = "your mail was not applied: " + o.refused
	case o.kind == "ruling":
		kind = "ruling rejected"
	case o.kind == "deadline":
		kind = "default order rejected; the game waits for your orders"
	case o.kind == "observer":
		kind = "pbem takes no orders from observers"
	}
	err := b.add(mail{to: r, tmpl: templates.NameRejected, kind: kind, inReplyTo: o.messageID, refs: o.refs,
		data: func(cm templates.Common, _ templates.Board) any {
			rej := templates.Rejected{Common: cm, Kind: o.kind, Received: o.received, Problems: probs, More: more, Move: own(next), Refused: o.refused != ""}
			if o.kind == "deadline" && b.g.Ended == nil {
				rej.Waits = "The game waits for your orders: send them now."
			}
			if b.g.Ended != nil {
				rej.Over = outcome(b.g.Game, b.g.Ended)
			}
			return rej
		}})
	if err == nil && o.kind == "deadline" {
		err = c.defaultRejected(b, o, probs)
	}
	if err != nil {
		return err
	}
	return c.undecided(b, o, d)
}

// undecided tells each referee (but the sender) that pbem could not
// decide an input (play.IsUndecided): a bug in the rules, which the
// operator has in the server's log. Nothing else of the error is said.
func (c *Composer) undecided(b *batch, o source, d *events.OrderRejected) error {
	if !play.IsUndecided(d) {
		return nil
	}
	what := "order"
	switch o.kind {
	case "ruling":
		what = "ruling"
	case "deadline":
		what = "default order at the deadline"
	}
	var quote []string
	if b.in != nil {
		if p, err := events.Decode(b.in); err == nil {
			if rc, ok := p.(*events.OrderReceived); ok {
				quote = strings.Split(strings.TrimRight(rc.Text, "\n"), "\n")
				if len(quote) > 20 {
					quote = append(quote[:20:20], fmt.Sprintf("… and %d more lines", len(quote)-20))
				}
			}
		}
	}
	for _, r := range readers(b.g.Game) {
		if !r.referee || r.ID == o.player {
			continue
		}
		err := b.add(mail{to: r, tmpl: templates.NameNotice, kind: "an order could not be decided",
			data: func(cm templates.Common, _ templates.Board) any {
				return templates.Notice{Common: cm,
					What: fmt.Sprintf("pbem could not decide the %s of %s received %s (input %d): an internal error in the rules. It was rejected, nothing was applied, and %s was told so. The operator has been told, with the details, in the server's log.",
						what, b.g.playerWho(o.player), o.received, d.Input, b.g.playerWho(o.player)),
					Quote: quote,
					Do:    "Nothing of the game changed. Ask the operator whether the error is mended; meanwhile you may rule on the step or enter the player's orders for them (ORDER <player> …)."}
			}})
		if err != nil {
			return err
		}
	}
	return nil
}

// MaxProblems is how many problems a rejection lists; the rest are
// counted ("and 12 more").
const MaxProblems = 10

// problems are a rejection's problems as the mail lists them: in the order
// of the lines they are about (a mail's problems first, then line by line,
// column by column), the first MaxProblems, and how many more there are.
func problems(ps []events.Problem) ([]templates.Problem, int) {
	sorted := slices.Clone(ps)
	slices.SortStableFunc(sorted, func(a, b events.Problem) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
	n := min(len(sorted), MaxProblems)
	out := make([]templates.Problem, n)
	for i, p := range sorted[:n] {
		out[i] = templates.Problem{Line: p.Line, Col: p.Col, Text: p.Text, Msg: p.Msg, Hint: p.Hint}
	}
	return out, len(sorted) - n
}

func (c *Composer) query(b *batch, o source, word string) error {
	r, ok := reader(b.g.Game, o.player)
	if !ok {
		return nil
	}
	q := templates.Query{Word: word, Players: participants(b.g.Players), Referees: refereeContacts(b.g.Referees)}
	if b.g.Paused != nil {
		q.Paused = b.g.PausedText()
	}
	if r.referee {
		q.Commands = play.GameCommandForms
	} else {
		q.Words, q.Contact = play.PlayerWordForms, b.g.RefereeContact()
	}
	for _, a := range b.g.Absences {
		q.Absences = append(q.Absences, fmt.Sprintf("%s: away from %s to %s", b.g.playerWho(a.Player), b.g.TimeFor(r.ID, a.From), b.g.TimeFor(r.ID, a.To)))
	}
	if b.g.Ended != nil {
		q.Over = outcome(b.g.Game, b.g.Ended)
	} else {
		q.Next = c.prompts(b.g.Game, b.promptsOf(b.state, nil), r)
		q.Move = own(q.Next)
	}
	switch word {
	case play.QueryHelp:
		q.Rules = b.explain(b.state, r, engine.ExplainHelp)
		q.Page = c.pageLink(b.g.Game, r)
	case play.QueryStatus:
		q.Rules = b.explain(b.state, r, engine.ExplainStatus)
	}
	for _, d := range b.g.Deadlines {
		dl := templates.Deadline{Who: b.g.playerWho(d.Player), Due: b.g.TimeFor(r.ID, d.Due), Default: d.Default}
		if strings.EqualFold(dl.Default, "referee") {
			dl.Default = "" // the template says the referee decides
		}
		q.Deadlines = append(q.Deadlines, dl)
	}
	m := mail{to: r, inReplyTo: o.messageID, refs: o.refs}
	switch word {
	case play.QueryGames:
		m.tmpl, m.kind = templates.NameGames, "your games"
		if err := c.desk(b, o, r, &q); err != nil {
			return err
		}
	case play.QueryHelp:
		m.tmpl, m.kind = templates.NameHelp, "help"
	case play.QueryBoard:
		m.tmpl, m.kind, m.board, m.drawn = templates.NameBoard, "board", true, true
	case play.QueryBoardFull:
		m.tmpl, m.kind, m.board, m.drawn, m.full, q.Full = templates.NameBoard, "board (whole map)", true, true, true, true
	case play.QueryStatus:
		m.tmpl, m.kind = templates.NameStatus, "status"
	default:
		m.tmpl, m.kind = templates.NameLog, "log"
		if err := c.log(b, r, &q, play.LogCount(word)); err != nil {
			return err
		}
	}
	m.data = func(cm templates.Common, bd templates.Board) any {
		q.Common, q.Board = cm, bd
		return q
	}
	return b.add(m)
}

func (c *Composer) turn(b *batch, o source, d *events.OrderAccepted) error {
	prompts := b.promptsOf(b.state, d)
	announcement := announced(d)
	// A referee's change is announced to everyone, saying what changed and
	// who changed it, unless the game's overrides are silent: then a
	// player hears of it only if it is now their move, and not what it was.
	override := o.kind == "ruling" && play.IsOverride(o.text, d)
	silent := override && announcement == nil && b.silent
	for _, r := range readers(b.g.Game) {
		if contains(b.welcomed, r.ID) {
			continue // a welcome, with the game as it stands, follows
		}
		next := c.prompts(b.g.Game, prompts, r)
		move := own(next)
		if silent && !r.referee {
			if move == nil {
				continue
			}
			m := mail{to: r, tmpl: templates.NameYourMove, kind: "your move", board: true, drawn: true}
			since, err := b.since(r, &m)
			if err != nil {
				return err
			}
			m.data = func(cm templates.Common, bd templates.Board) any {
				return templates.Turn{Common: cm, Action: templates.Action{Kind: "silent"}, Since: since, Next: next, Move: move, Board: bd}
			}
			if err := b.add(m); err != nil {
				return err
			}
			continue
		}
		if announcement != nil {
			act := b.action(o, d, r)
			m := mail{to: r, tmpl: templates.NameAnnounce, kind: "announcement from the referee", board: false}
			if r.ID == o.player {
				m.inReplyTo, m.refs = o.messageID, o.refs
			}
			m.data = func(cm templates.Common, _ templates.Board) any {
				return templates.Announce{Common: cm, By: b.g.playerWho(announcement.Str("by")), Text: announcement.Str("text"),
					Action: act, Others: len(d.Facts) > 1, Next: next, Move: move}
			}
			if err := b.add(m); err != nil {
				return err
			}
			continue
		}
		m := mail{to: r, tmpl: templates.NameReport, kind: "report", board: true}
		// Who overrode the game: its referee, or in a game without one
		// the operator (pbem referee on the command line).
		changer := "the referee"
		if o.player == play.OperatorID || len(b.g.Referees) == 0 {
			changer = "the operator"
		}
		switch {
		case move != nil && !r.referee && !r.observer && override:
			m.tmpl, m.kind = templates.NameYourMove, changer+" changed the game; your move"
		case move != nil && !r.referee && !r.observer:
			m.tmpl, m.kind = templates.NameYourMove, "your move"
		case override && !r.referee:
			m.kind = changer + " changed the game"
		case move != nil && r.referee:
			m.tmpl, m.kind = templates.NameReferee, "referee: ruling needed"
		case r.referee && o.kind == "ruling":
			m.tmpl, m.kind = templates.NameReferee, "referee: ruling applied"
		case r.referee && o.kind == "deadline":
			m.tmpl, m.kind = templates.NameReferee, "referee: deadline passed"
		case o.kind == "expired":
			m.kind = "the pause ran out; the game goes on"
		}
		var boxes []templates.Login
		if r.ID == o.player {
			m.inReplyTo, m.refs = o.messageID, o.refs
			// The referee whose mail gave a seat at pbem's own mail host
			// gets the password of each mailbox it made (the command line
			// prints it instead: no mail carries it then).
			if o.mail && m.tmpl == templates.NameReferee && c.cfg.Mailhost != nil {
				boxes = c.newMailboxes(d.Facts)
			}
		}
		act := b.action(o, d, r)
		act.Override = override
		changed := b.boardChanged(r)
		if b.holds(r, o, d, move) {
			if err := b.hold(r, m.kind, act, changed); err != nil {
				return err
			}
			continue
		}
		m.drawn, m.full = changed, b.turnDigest(r)
		if b.confirms(r, o, move) && !m.full {
			m.kind, m.board, m.drawn = "your orders were accepted", false, false
		}
		since, err := b.since(r, &m)
		if err != nil {
			return err
		}
		var due *templates.Deadline
		if m.tmpl == templates.NameYourMove {
			due = deadlineAfter(b.g.Game, d, r.ID)
		}
		m.data = func(cm templates.Common, bd templates.Board) any {
			return templates.Turn{Common: cm, Action: act, Since: since, Next: next, Move: move, Board: bd, Deadline: due, Mailboxes: boxes}
		}
		if err := b.add(m); err != nil {
			return err
		}
	}
	return nil
}

func (c *Composer) gameOver(b *batch, o source, d *events.OrderAccepted, ended *events.GameEnded) error {
	rolls := b.g.Rolls + uint64(len(d.Dice))
	kind := "game over: a draw"
	if ended.Winner != "" {
		kind = "game over: " + ended.Winner + " wins"
	}
	for _, r := range readers(b.g.Game) {
		m := mail{to: r, tmpl: templates.NameGameOver, kind: kind, board: true, drawn: true}
		if r.ID == o.player {
			m.inReplyTo, m.refs = o.messageID, o.refs
		}
		act := b.action(o, d, r)
		since, err := b.since(r, &m)
		if err != nil {
			return err
		}
		m.data = func(cm templates.Common, bd templates.Board) any {
			return templates.GameOver{Common: cm, Winner: ended.Winner, WinnerWho: b.g.sideWho(ended.Winner),
				Won: ended.Winner != "" && r.Side == ended.Winner, Reason: ended.Reason,
				Seed: hex.EncodeToString(ended.Seed), Commitment: b.g.Created.SeedCommitment.Hex(),
				Rolls: rolls, Action: act, Since: since, Board: bd}
		}
		if err := b.add(m); err != nil {
			return err
		}
	}
	return nil
}

// announced returns the announcement a decision makes, if any.
func announced(d *events.OrderAccepted) *events.Fact {
	for i := range d.Facts {
		if d.Facts[i].Kind == play.FactAnnounce {
			return &d.Facts[i]
		}
	}
	return nil
}

// refereeSecret is the command secret a referee's welcome carries.
func (c *Composer) refereeSecret(g *play.Game, r recipient) string {
	if !r.referee {
		return ""
	}
	return token.RefereeSecretAt(c.cfg.Secret, g.ID, r.ID, g.KeyEpoch(r.ID))
}

// Reminder implements play.Reminder: the mail telling a player their
// orders are due soon, with what they may send now.
func (c *Composer) Reminder(g *play.Game, d play.Deadline) ([]events.Payload, error) {
	r, ok := reader(g, d.Player)
	if !ok {
		return nil, nil
	}
	b := c.batch(g, g.State, g.Seq+1)
	next := c.prompts(g, b.promptsOf(g.State, nil), r)
	dflt := d.Default
	if strings.EqualFold(dflt, "referee") {
		dflt = ""
	}
	err := b.add(mail{to: r, tmpl: templates.NameReminder, kind: "reminder: your orders are due " + timeOf(d.Due),
		data: func(cm templates.Common, _ templates.Board) any {
			return templates.Reminder{Common: cm, Due: g.TimeFor(r.ID, d.Due), Default: dflt, Next: next, Move: own(next)}
		}})
	if err != nil {
		return nil, err
	}
	return b.out, nil
}

// prompts turns the ruleset's prompts into what r may read: who must act,
// and the examples only of r's own step (another side's examples could
// name what r may not see).
func (c *Composer) prompts(g *play.Game, ps []engine.Prompt, r recipient) []templates.Prompt {
	out := make([]templates.Prompt, 0, len(ps))
	for _, p := range ps {
		tp := templates.Prompt{Who: game{g}.sideWho(p.Side), Side: p.Side, Referee: p.Referee, What: p.What}
		if p.Referee {
			tp.Who = game{g}.refereeWho()
		}
		tp.Yours = (p.Referee && r.referee) || (!p.Referee && !r.referee && !r.observer && p.Side != "" && p.Side == r.Side)
		if tp.Yours {
			tp.Examples = append([]string(nil), p.Examples...)
		}
		out = append(out, tp)
	}
	return out
}

// explain is the rule system's own sections for r (engine.Explainer), or
// none (also if the rules panicked).
func (b *batch) explain(st engine.State, r recipient, word string) []templates.Section {
	ex, ok := b.g.Rules.(engine.Explainer)
	if !ok {
		return nil
	}
	var out []templates.Section
	b.c.contain(b.orig, b.next, "explaining", func() {
		for _, e := range ex.Explain(st, r.viewer(), word) {
			out = append(out, templates.Section{Heading: e.Heading, Lines: append([]string(nil), e.Lines...)})
		}
	})
	return out
}

// deadlineAfter is player's deadline once decision d is applied: the one
// it sets, else the one running; nil if none.
func deadlineAfter(g *play.Game, d *events.OrderAccepted, player string) *templates.Deadline {
	cur, has := g.Deadline(player)
	due, dflt := cur.Due, cur.Default
	if has && cur.Passed {
		due = 0
	}
	for _, f := range d.Facts {
		if f.Kind == play.FactDeadline && f.Str("player") == player {
			due, dflt = f.Int("due"), f.Str("default")
		}
	}
	if due == 0 {
		return nil
	}
	if strings.EqualFold(dflt, "referee") {
		dflt = "" // the template says the referee decides
	}
	return &templates.Deadline{Who: game{g}.playerWho(player), Due: g.TimeFor(player, due), Default: dflt}
}

// own is the reader's first step among prompts, or nil.
func own(ps []templates.Prompt) *templates.Prompt {
	for i := range ps {
		if ps[i].Yours {
			p := ps[i]
			return &p
		}
	}
	return nil
}

func participants(ps []events.Player) []templates.Participant {
	out := make([]templates.Participant, len(ps))
	for i, p := range ps {
		out[i] = templates.Participant{Name: name(p), Side: p.Side}
	}
	return out
}

func name(p events.Player) string {
	if p.Name != "" {
		return p.Name
	}
	return p.ID
}

func outcome(g *play.Game, e *events.GameEnded) string {
	if e.Winner == "" {
		return "a draw: " + e.Reason
	}
	return game{g}.sideWho(e.Winner) + " won: " + e.Reason
}

// timeOf prints a deadline (unix nanoseconds) in UTC.
func timeOf(ns int64) string {
	return time.Unix(0, ns).UTC().Format(timeLayout)
}

// Credentials are the secrets g's mails carry, as they appear in them:
// each participant's reply key and reply address and each referee's
// command secret, for every seat the game has had. An export leaves them
// out (pbem export without --with-secrets).
func (c *Composer) Credentials(g *play.Game) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	var ids []string
	for _, ps := range [][]events.Player{g.Created.Players, g.Created.Referees, g.Players, g.Referees} {
		for _, p := range ps {
			ids = append(ids, p.ID)
		}
	}
	for _, id := range ids {
		add(token.Address(c.cfg.Secret, c.cfg.Local, c.cfg.Domain, g.ID, id))
		add(token.Make(c.cfg.Secret, g.ID, id))
		add(token.RefereeSecret(c.cfg.Secret, g.ID, id))
		if c.cfg.PageBase != "" {
			for e := uint64(0); e <= g.KeyEpoch(id); e++ {
				add(token.Page(c.cfg.Secret, g.ID, id, e))
			}
		}
	}
	return out
}

// pageLink is r's live page link (a seat's, at its key epoch), or "" when
// the pages are not served or r holds no seat.
func (c *Composer) pageLink(g *play.Game, r recipient) string {
	if c.cfg.PageBase == "" || r.observer || r.ID == "" {
		return ""
	}
	if _, ok := g.PlayerByID(r.ID); !ok {
		return ""
	}
	return strings.TrimRight(c.cfg.PageBase, "/") + token.PagePath(c.cfg.Secret, g.ID, r.ID, g.KeyEpoch(r.ID))
}

// Notice is what the mail intake tells a player about a mail of theirs
// that was not applied as it came, or whose orders wait for their
// confirmation (see mail/intake.Notice, whose fields these are).
type Notice struct {
	Player string
	// To are the player's registered addresses: the notice goes there,
	// never to the sender of the mail it is about.
	To         []string
	Title      string // what the mail is: its first line
	What, Do   string
	Quote      []string
	Code       string
	InReplyTo  string
	References []string
}

// Notice renders a notice to a player of g as the mail to be stored at seq.
func (c *Composer) Notice(g *play.Game, n Notice, seq uint64) (*events.MailQueued, error) {
	if g.Created == nil {
		return nil, errors.New("compose notice: the game is not created")
	}
	r, ok := reader(g, n.Player)
	if !ok {
		return nil, fmt.Errorf("compose notice: game %s has no player %q", g.ID, n.Player)
	}
	if len(n.To) > 0 {
		r.Addresses = n.To
	}
	b := c.batch(g, g.State, seq)
	err := b.add(mail{to: r, tmpl: templates.NameNotice, kind: n.Title, inReplyTo: msgID(n.InReplyTo), refs: n.References,
		data: func(cm templates.Common, _ templates.Board) any {
			return templates.Notice{Common: cm, What: n.What, Quote: n.Quote, Code: n.Code, Do: n.Do}
		}})
	if err != nil {
		return nil, err
	}
	return b.out[0].(*events.MailQueued), nil
}
