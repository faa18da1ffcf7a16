package compose

import (
	"slices"
	"strings"

	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
	"pbem/templates"
)

// A reader's mail volume (play.Game.Volume) decides whether a report goes
// out at once or is held (an events.MailHeld with the part of the report
// that reader may see, rendered for them) until the next mail to them,
// which tells everything held, in order, under "Since your last mail":
//
//   - EVERY: every report goes out, as it always did;
//   - MOVE: a report goes out only when it answers the reader's own mail
//     (their orders, a ruling, a word such as MAIL or PAUSE; when the move
//     passed to another side, a short confirmation without the board),
//     tells them their own deadline passed, or when the reader must act
//     and that is news (their step is new or changed, the game paused or
//     resumed or rolled back, their deadline moved), or their step was
//     taken from them;
//   - TURN: as MOVE, and a digest whenever a game turn ends.
//
// Rejections, answers to HELP, BOARD, STATUS and LOG, reminders,
// announcements, welcomes and the game-over mail always go out; the
// game-over mail tells what was held too. Settings, pauses and rulings
// that leave a reader's step as it was are therefore held: folded into
// their next mail. What is held is what the report would have said, so a
// digest tells a reader no more (and no less) than the reports would
// have, and the log alone decides it: the same log gives the same mails.

// holds reports whether r's report of decision d is held rather than sent.
func (b *batch) holds(r recipient, o source, d *events.OrderAccepted, move *templates.Prompt) bool {
	vol := b.g.Volume(r.ID)
	if vol == play.VolumeEvery {
		return false
	}
	if r.ID == o.player {
		return false // it answers their own mail (or says their deadline passed)
	}
	if r.observer && observerAdded(d, r) {
		// Their first mail: they follow the game from now; unless they
		// were added with the game's creation, and welcomed with it.
		return o.create
	}
	before := own(b.c.prompts(b.orig, b.promptsBefore(), r))
	if r.ID != o.player && (move != nil || before != nil) && changesStep(d, r.ID) {
		return false // paused, resumed, rolled back, or their deadline moved
	}
	if move != nil {
		// Told already that they must act, and what: what happened since
		// waits for their next mail, as long as the step is the same.
		return before != nil && before.What == move.What && r.ID != o.player
	}
	if before != nil && r.ID != o.player {
		return false // someone else took their step from them
	}
	if vol == play.VolumeTurn && b.turnEnded() {
		return false
	}
	return true
}

// turnDigest reports whether r's mail is the digest of a turn that ended
// (MAIL TURN): it carries the whole map too.
func (b *batch) turnDigest(r recipient) bool {
	return b.g.Volume(r.ID) == play.VolumeTurn && b.turnEnded()
}

// hold queues the held part of r's report: the action as r may see it.
func (b *batch) hold(r recipient, kind string, act templates.Action, changed bool) error {
	text, err := b.c.t.Render("action", act)
	if err != nil {
		return err
	}
	b.out = append(b.out, &events.MailHeld{Reader: r.ID, Kind: kind, Text: text, Board: changed})
	b.next++
	return nil
}

// since is what was held for r, in order, for the mail m: if the board
// changed in any of them, m carries the drawn board.
func (b *batch) since(r recipient, m *mail) ([]string, error) {
	held := b.orig.HeldFor(r.ID)
	if len(held) == 0 {
		return nil, nil
	}
	out := make([]string, len(held))
	for i, h := range held {
		text, err := h.Text()
		if err != nil {
			return nil, err
		}
		out[i] = strings.TrimRight(text, "\n")
		m.drawn = m.drawn || h.Board
	}
	m.told = true
	return out, nil
}

// confirms reports whether r's mail only confirms r's own orders: under
// MAIL TURN or MOVE, once the move passed to another side, the answer
// says what the orders did, without the board (the next mail that asks
// something of r carries it).
func (b *batch) confirms(r recipient, o source, move *templates.Prompt) bool {
	return r.ID == o.player && o.kind == "order" && move == nil && !r.referee && b.g.Volume(r.ID) != play.VolumeEvery
}

// promptsBefore are the prompts of the state the decision was made on.
func (b *batch) promptsBefore() []engine.Prompt {
	var ps []engine.Prompt
	b.c.contain(b.orig, b.next, "prompting", func() { ps = b.orig.Prompts(b.before, nil) })
	return ps
}

// turnEnded reports whether the decision began a new game turn (rules
// that number no turns: whether it changed who must act).
func (b *batch) turnEnded() bool {
	if b.turn == 0 {
		b.turn = 1
		if b.newTurn() {
			b.turn = 2
		}
	}
	return b.turn == 2
}

func (b *batch) newTurn() bool {
	if t, ok := b.g.Rules.(engine.Turner); ok {
		var before, after int
		b.c.contain(b.orig, b.next, "numbering the turn", func() { before, after = t.Turn(b.before), t.Turn(b.state) })
		return before != after
	}
	sides := func(ps []engine.Prompt) string {
		s := ""
		for _, p := range ps {
			s += p.Side + "\x00"
		}
		return s
	}
	return sides(b.promptsBefore()) != sides(b.promptsOf(b.state, nil))
}

// boardChanged reports whether r's board differs after the decision from
// before it: only then does a mail carry it drawn.
func (b *batch) boardChanged(r recipient) bool {
	changed := true
	b.c.contain(b.orig, b.next, "rendering the board", func() {
		v := r.viewer()
		was, now := b.board(v, true), b.board(v, false)
		changed = was.Window != now.Window || was.Full != now.Full
	})
	return changed
}

// volumeChange is what r sends to change their mail volume: a player's
// MAIL, a referee's SETTING mail <id> (with their secret).
func volumeChange(r recipient) string {
	if r.referee {
		return "SETTING mail " + r.ID
	}
	return play.WordMail
}

// changesStep reports whether decision d changes what reader must do now
// though their step stays: a pause, its end, a rollback, their deadline.
func changesStep(d *events.OrderAccepted, reader string) bool {
	for _, f := range d.Facts {
		switch {
		case f.Kind == play.FactPause, f.Kind == play.FactResume, f.Kind == play.FactRollback:
			return true
		case f.Kind == play.FactDeadline && f.Str("player") == reader:
			return true
		}
	}
	return false
}

// observerAdded reports whether decision d made r an observer.
func observerAdded(d *events.OrderAccepted, r recipient) bool {
	for _, f := range d.Facts {
		if f.Kind == play.FactObserver && f.Bool("added") && slices.Contains(r.Addresses, f.Str("address")) {
			return true
		}
	}
	return false
}
