package intake

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"pbem/engine/play"
	"pbem/events"
	"pbem/mail/parse"
	"pbem/mail/token"
)

// verdict is what a mail is: a payload for a game's log, or a reason to
// quarantine it.
type verdict struct {
	msg     *parse.Message
	reason  string
	game    string
	player  string
	payload events.Payload
}

func quarantine(msg *parse.Message, format string, a ...any) verdict {
	return verdict{msg: msg, reason: fmt.Sprintf(format, a...)}
}

// judge decides what one raw mail is. Every refusal is a quarantine reason
// for the operator; none of it goes back to the sender.
func (in *Intake) judge(raw []byte, at time.Time) verdict {
	msg, err := parse.Parse(raw, in.cfg.Limits)
	var lim *parse.LimitError
	switch {
	case errors.As(err, &lim):
		return quarantine(msg, "too large: %v", err)
	case err != nil || msg == nil:
		return quarantine(msg, "unreadable mail: %v", err)
	}
	if msg.Auto != "" {
		return quarantine(msg, "automatic mail, never answered: %s", msg.Auto)
	}
	from := strings.ToLower(msg.From.Addr)
	if from == "" {
		return quarantine(msg, "no sender address")
	}
	if id := strings.TrimSpace(msg.MessageID); id != "" && !strings.HasPrefix(id, "<") {
		msg.MessageID = "<" + id + ">" // the RFC 5322 form, as it is quoted in replies
	}
	if !in.allow(from, at) {
		return quarantine(msg, "rate limited: more than %d mails from %s within %v", in.cfg.RateBurst, from, in.cfg.RateWindow)
	}
	// Who is it for: a reply address on any recipient header, else the
	// subject tag and a Key line in the text.
	var who token.Parsed
	var found bool
	for _, r := range msg.Recipients() {
		if who, found = token.ParseAddress(r, in.cfg.Local, in.cfg.Domain); found {
			break
		}
	}
	body := msg.Orders()
	keyLine := -1
	if !found {
		game, ok := token.SubjectGame(msg.Subject)
		for i, l := range body.Lines {
			if tok, isKey := token.KeyLine(l.Text); isKey && ok {
				who, found, keyLine = token.Parsed{Game: game, Token: tok}, true, i
				break
			}
		}
		if !found && ok {
			// An observer's reply (their mails carry no key): answered,
			// never read as an order.
			if v, isObserver := in.observer(msg, game, from, body); isObserver {
				return v
			}
		}
		if !found {
			return quarantine(msg, "no reply token: neither a reply address nor a subject tag with a Key line")
		}
	}
	seats, err := in.seats(who.Game)
	if err != nil {
		return quarantine(msg, "%v", err)
	}
	// With a Key line, the player is whoever the token belongs to; a seat
	// that changed hands takes only the key of its new holder.
	candidates := append(append([]events.Player(nil), seats.Players...), seats.Referees...)
	nPlayers := len(seats.Players)
	var player *events.Player
	isReferee := false
	for i := range candidates {
		p := &candidates[i]
		if (who.Player == "" || p.ID == who.Player) && token.ValidAt(in.cfg.Secret, who.Game, p.ID, seats.Epochs[p.ID], who.Token) {
			player, isReferee = p, i >= nPlayers
			break
		}
	}
	if player == nil {
		return quarantine(msg, "reply token does not match game %s player %q", who.Game, who.Player)
	}
	registered := false
	for _, a := range player.Addresses {
		if strings.EqualFold(a, from) {
			registered = true
		}
	}
	if !registered {
		return quarantine(msg, "sender %s is not registered for %s in game %s (token valid: a forwarded or spoofed mail)", from, player.ID, who.Game)
	}
	skip := map[int]bool{keyLine: true}
	v := verdict{msg: msg, game: who.Game, player: player.ID}
	if isReferee {
		// A referee's command that changes the game must carry the
		// referee's secret; a Reason line says why (both are left out of
		// the command text, and the secret out of the log).
		var secret, reason string
		hasSecret := false
		for i, l := range body.Lines {
			if s, ok := token.SecretLine(l.Text); ok && !hasSecret {
				secret, hasSecret, skip[i] = s, true, true
			} else if r, ok := token.ReasonLine(l.Text); ok && reason == "" {
				reason, skip[i] = r, true
			}
		}
		text := orderText(body, skip)
		cmd := &events.RefereeCommand{Referee: player.ID, Text: text, Reason: reason, MessageID: msg.MessageID, Source: "mail"}
		if !changesNothing(text) && !token.ValidRefereeSecretAt(in.cfg.Secret, who.Game, player.ID, seats.Epochs[player.ID], secret) {
			// Logged, so that the referee is answered at the registered
			// address (never the sender's), and marked refused: the
			// engine applies nothing of it. The secret given, right or
			// wrong, never reaches the log.
			cmd.Refused = "it has no Secret line"
			if hasSecret {
				cmd.Refused = "its Secret line is wrong"
			}
			in.lg.Warn("referee mail without a valid secret: answered, not applied", "game", who.Game, "referee", player.ID, "secret_line", hasSecret)
		}
		v.payload = cmd
	} else {
		text := orderText(body, skip)
		v.payload = &events.OrderReceived{Player: player.ID, Text: text, MessageID: msg.MessageID, Source: "mail"}
	}
	return v
}

// seats are the game's seats as they are now (from the runner's folded
// game), or as it was created.
func (in *Intake) seats(game string) (Seats, error) {
	created, err := in.game(game)
	if err != nil {
		return Seats{}, fmt.Errorf("unknown game %q", game)
	}
	if in.cfg.Roster == nil {
		return Seats{Players: created.Players, Referees: created.Referees}, nil
	}
	s, err := in.cfg.Roster(game)
	if err != nil {
		// The game cannot be read now (busy, or damaged): judge by the
		// seats it was created with, and take the mail in; the game
		// decides it when it loads again.
		in.lg.Warn("roster unavailable; judging by the seats as the log holds them", "game", game, "err", err)
		return in.seatsFromLog(game, created)
	}
	return s, nil
}

// observer is the verdict on a mail with no key from an observer of game:
// an input that the engine answers (pbem takes no orders from observers).
func (in *Intake) observer(msg *parse.Message, game, from string, body parse.Text) (verdict, bool) {
	s, err := in.seats(game)
	if err != nil {
		return verdict{}, false
	}
	for _, o := range s.Observers {
		if strings.EqualFold(o, from) {
			return verdict{msg: msg, game: game, player: play.ObserverPrefix + o,
				payload: &events.OrderReceived{Player: play.ObserverPrefix + o, Text: orderText(body, nil), MessageID: msg.MessageID, Source: "mail"}}, true
		}
	}
	return verdict{}, false
}

// changesNothing reports whether a referee's text is only a query word
// (HELP, BOARD, STATUS, LOG, GAMES), which needs no secret.
func changesNothing(text string) bool {
	_, ok := play.QueryWord(text)
	return ok
}

// orderText puts the player's lines back at their line numbers, so that
// "line 3" in a reply is line 3 of what they wrote. The Key line, and a
// referee's Secret and Reason lines, are left out (credentials and
// comment, not orders).
func orderText(t parse.Text, skip map[int]bool) string {
	var b strings.Builder
	no := 1
	for i, l := range t.Lines {
		for ; no < l.No; no++ {
			b.WriteByte('\n')
		}
		if !skip[i] {
			b.WriteString(l.Text)
		}
		b.WriteByte('\n')
		no++
	}
	return b.String()
}

// game returns the creation event of a game (its players and addresses).
func (in *Intake) game(id string) (*events.GameCreated, error) {
	in.mu.Lock()
	gc, ok := in.games[id]
	in.mu.Unlock()
	if ok {
		return gc, nil
	}
	errStop := errors.New("stop")
	err := in.log.Read(id, 1, func(e *events.Envelope) error {
		p, err := events.Decode(e)
		if err != nil {
			return err
		}
		created, isCreated := p.(*events.GameCreated)
		if !isCreated {
			return fmt.Errorf("game %s does not start with its creation", id)
		}
		gc = created
		return errStop
	})
	if gc == nil {
		if err == nil || errors.Is(err, errStop) {
			err = fmt.Errorf("game %s: empty", id)
		}
		return nil, err
	}
	in.mu.Lock()
	in.games[id] = gc
	in.mu.Unlock()
	return gc, nil
}

// allow applies the per-sender rate limit: a sliding window.
func (in *Intake) allow(from string, at time.Time) bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	ts := in.rate[from]
	keep := ts[:0]
	for _, t := range ts {
		if at.Sub(t) < in.cfg.RateWindow {
			keep = append(keep, t)
		}
	}
	if len(keep) >= in.cfg.RateBurst {
		in.rate[from] = keep
		return false
	}
	in.rate[from] = append(keep, at)
	return true
}

// seatsFromLog reads the seats as they are now from the log itself (when
// the running game cannot say): the seats the game was created with, and
// every change of seat, key or observer after, which no rollback undoes.
func (in *Intake) seatsFromLog(game string, created *events.GameCreated) (Seats, error) {
	g := &play.Game{ID: game}
	for _, p := range created.Players {
		p.Addresses = append([]string(nil), p.Addresses...)
		g.Players = append(g.Players, p)
	}
	for _, p := range created.Referees {
		p.Addresses = append([]string(nil), p.Addresses...)
		g.Referees = append(g.Referees, p)
	}
	err := in.log.Read(game, 2, func(e *events.Envelope) error {
		if !events.IsAccepted(e.Type) {
			return nil
		}
		p, err := events.Decode(e)
		if err != nil {
			return err
		}
		for _, f := range p.(*events.OrderAccepted).Facts {
			if err := g.FoldSeat(f); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return Seats{}, fmt.Errorf("game %s: cannot read its seats: %v", game, err)
	}
	return SeatsOf(g), nil
}

// SeatsOf copies g's seats as they are now, for the intake.
func SeatsOf(g *play.Game) Seats {
	var s Seats
	for _, p := range g.Players {
		p.Addresses = append([]string(nil), p.Addresses...)
		s.Players = append(s.Players, p)
	}
	for _, p := range g.Referees {
		p.Addresses = append([]string(nil), p.Addresses...)
		s.Referees = append(s.Referees, p)
	}
	s.Observers = append([]string(nil), g.Observers...)
	for _, k := range g.Keys {
		if s.Epochs == nil {
			s.Epochs = map[string]uint64{}
		}
		s.Epochs[k.ID] = k.Epoch
	}
	return s
}
