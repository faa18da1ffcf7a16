package intake

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode"

	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
	"pbem/mail/parse"
	"pbem/mail/token"
	"pbem/store"
)

// outcome is what a mail comes to: a record in the quarantine for the
// operator, events in a game's log (an order, a held order, a refusal),
// and a notice to the player; or nothing new (a copy already taken).
type outcome struct {
	msg *parse.Message
	// quarantine, when set, is why the mail is set aside for the operator.
	quarantine string
	// game and player the mail is from, once known.
	game, player string
	// evs are written to the game's log, the first under key (the mail's
	// Message-ID) and keys (fingerprints of its content).
	evs  []events.Payload
	key  string
	keys []string
	// notice is mailed to the player after evs; noticeKey is the budget
	// it counts against ("": none, the player's own mail's answer).
	notice    *Notice
	noticeKey string
	// evidence: keep the raw mail beside the first event.
	evidence bool
	// already: the mail was taken before (the same Message-ID and
	// content); only the checkpoint moves.
	already bool
	// what the intake log says.
	what string
	// notReady: the mail is for a game the cluster knows (Config.Known)
	// that this node cannot judge yet; nothing is committed, the mail waits.
	notReady bool
}

// notReadyWhy begins whose's answer for a game the cluster knows that
// this node does not have yet; the game's name follows.
const notReadyWhy = "\x00not ready: "

func quarantined(msg *parse.Message, format string, a ...any) outcome {
	return outcome{msg: msg, quarantine: fmt.Sprintf(format, a...)}
}

// seat is a game's participant a mail is from, and the game's current
// seats and settings.
type seat struct {
	game      string
	player    events.Player
	referee   bool
	epoch     uint64 // the seat's key epoch (it changed hands epoch times)
	settings  []events.Setting
	created   *events.GameCreated
	viaKey    int  // index of the Key line in the orders' lines, or -1
	validFrom bool // the From address is one of the player's
}

// mode returns the game's sender-auth mode.
func (s *seat) mode(def string) string {
	for i := len(s.settings) - 1; i >= 0; i-- {
		if strings.EqualFold(s.settings[i].Key, SettingSenderAuth) {
			if m := strings.ToLower(strings.TrimSpace(s.settings[i].Value)); ValidMode(m) {
				return m
			}
		}
	}
	return def
}

// judge decides what one raw mail comes to. Mail from anyone but a
// registered player (no valid token, an unknown sender, an automatic
// mail) goes to the quarantine and gets no answer; a registered player's
// mail is never dropped without one.
func (in *Intake) judge(raw []byte, at time.Time) outcome {
	msg, err := parse.Parse(raw, in.cfg.Limits)
	var lim *parse.LimitError
	tooLarge := errors.As(err, &lim) && msg != nil
	if err != nil && !tooLarge || msg == nil {
		return quarantined(msg, "unreadable mail: %v", err)
	}
	if msg.Auto != "" {
		return quarantined(msg, "automatic mail, never answered: %s", msg.Auto)
	}
	from := strings.ToLower(msg.From.Addr)
	if from == "" {
		return quarantined(msg, "no sender address")
	}
	if id := strings.TrimSpace(msg.MessageID); id != "" && !strings.HasPrefix(id, "<") {
		msg.MessageID = "<" + id + ">" // the RFC 5322 form, as it is quoted in replies
	}
	s, why := in.whose(msg, tooLarge)
	if s == nil && strings.HasPrefix(why, notReadyWhy) {
		return outcome{msg: msg, game: strings.TrimPrefix(why, notReadyWhy), notReady: true}
	}
	if s == nil {
		if o, ok := in.observer(msg, raw, at); ok {
			return o
		}
		return quarantined(msg, "%s", why)
	}
	if !s.validFrom {
		return quarantined(msg, "sender %s is not registered for %s in game %s (token valid: a forwarded or spoofed mail)", from, s.player.ID, s.game)
	}
	// From here on the mail is from a registered address: whatever comes
	// of it, the player hears of it (at that address, never the sender).
	o := outcome{msg: msg, game: s.game, player: s.player.ID}
	o.key = messageKey(msg, raw)
	refs := references(msg)
	in.seed(s.game, at)
	// a is who sent the mail, as far as pbem can tell yet (the receiving
	// host's results, and whether the envelope is From; signatures are
	// looked up later): a notice a mail causes counts against the budget
	// of whoever sent it (noticeKeyFor), so forged mail cannot spend the
	// player's.
	a, hostTrusted := in.hostAuth(msg)
	var refuse refuser = func(kind, reason, title, what, do string) outcome {
		o.keys = nil // a refusal is keyed by what it refuses, not by its content
		o.evs = []events.Payload{&events.MailRefused{Player: s.player.ID, MessageID: o.key, Kind: kind, Reason: reason, Sender: a.sender}}
		o.notice = &Notice{Player: s.player.ID, To: s.player.Addresses, Kind: kind, Title: title, What: what, Do: do, InReplyTo: msg.MessageID, References: refs}
		o.noticeKey = noticeKeyFor(s.game, s.player.ID, a)
		o.what = "mail refused: " + reason
		return o
	}
	switch {
	case tooLarge:
		// Signed by the player, it is answered whatever forgers spent.
		a = in.authenticate(raw, msg, a, hostTrusted)
		return refuse(events.RefusedTooLarge, lim.Error(), "Your mail was too large",
			fmt.Sprintf("%s is too large for pbem: %s. Nothing of it was read.", mailName(msg.Subject, at), limitText(lim)),
			"Send your orders again in a new mail without attachments (a photo, or a long quoted or forwarded mail, makes a mail large).")
	case s.viaKey == noKey:
		r := refuse(events.RefusedNoKey, "no reply address and no Key line", "Your mail had no key",
			fmt.Sprintf("%s came from your address to pbem's, but without the key that says which player of game %s it is from: it had no reply address with your key, and no Key line. Nothing of it was applied.", mailName(msg.Subject, at), s.game),
			"Reply to this mail, or to any mail of the game (its reply address carries your key), and send your orders again. Or copy the Key line below into your mail, unquoted.")
		// To the address it came from alone: it is one of the player's,
		// and the player's other addresses sent nothing.
		r.notice.To = []string{msg.From.Addr}
		return r
	case s.viaKey == -2:
		return refuse(events.RefusedKeyQuoted, "the Key line is only quoted", "Your mail had no Key line of its own",
			fmt.Sprintf("%s reached pbem's address without a reply address, and its Key line is quoted (it begins with '>'). pbem reads no quoted line, so nothing of the mail was applied.", mailName(msg.Subject, at)),
			"Reply to this mail (its reply address carries your key), or copy the Key line below into your mail without the '>' and send it again.")
	}

	body := msg.Orders()
	code, isConfirm := confirmLine(body)
	isConfirm = isConfirm && !s.referee
	if !isConfirm {
		o.keys = fingerprints(msg)
		if dup, ok := in.duplicate(o, refuse); ok {
			return dup
		}
	}
	// The rate limit before anything costly: a mail whose sender is
	// known without looking up a key (the receiving host's results, or
	// an envelope that is not From) is counted before any DKIM lookup.
	early := a.how != "" || a.sender != ""
	if early {
		if r, limited := in.rateLimited(msg, s, a, at, refuse); limited {
			return r
		}
	}
	a = in.authenticate(raw, msg, a, hostTrusted)
	if !early {
		if r, limited := in.rateLimited(msg, s, a, at, refuse); limited {
			return r
		}
	}
	if isConfirm {
		// A CONFIRM line is a mail like any other, under the same limit.
		return in.confirm(o, s, code, at, refuse)
	}

	skip := map[int]bool{s.viaKey: true}
	text := orderText(body, skip)
	mode := s.mode(in.cfg.Senders.Mode)
	if s.referee {
		// A referee's command that changes the game must carry the
		// referee's secret (it authenticates the mail whatever its
		// sender); a Reason line says why (both are left out of the
		// command text, and the secret out of the log).
		var secret, reason string
		hasSecret := false
		for i, l := range body.Lines {
			if sec, ok := token.SecretLine(l.Text); ok && !hasSecret {
				secret, hasSecret, skip[i] = sec, true, true
			} else if r, ok := token.ReasonLine(l.Text); ok && reason == "" {
				reason, skip[i] = r, true
			}
		}
		text = orderText(body, skip)
		cmd := &events.RefereeCommand{Referee: s.player.ID, Text: text, Reason: reason, MessageID: msg.MessageID, Source: "mail",
			Seen: in.seenSeq(s.game, msg)}
		o.what = "referee command taken"
		if !changesNothing(text) && !token.ValidRefereeSecretAt(in.cfg.Secret, s.game, s.player.ID, s.epoch, secret) {
			// Logged, so that the referee is answered at the registered
			// address (never the sender's), and marked refused: the
			// engine applies nothing of it. The secret given, right or
			// wrong, never reaches the log.
			cmd.Refused = "it has no Secret line"
			if hasSecret {
				cmd.Refused = "its Secret line is wrong"
			}
			o.what = "referee command refused: " + cmd.Refused
			in.lg.Warn("referee mail without a valid secret: answered, not applied", "game", s.game, "referee", s.player.ID, "secret_line", hasSecret)
		}
		o.evs = []events.Payload{cmd}
		o.evidence = true
		return o
	}
	switch {
	case a.how != "" || mode == ModeLenient:
		// Applied as it is only when a result names the player's own
		// address (see the README's table "Who sent it"), or in lenient
		// mode.
		auth := a.how
		if auth == "" {
			auth = "none (lenient: " + a.suspect() + ")"
		}
		o.evs = []events.Payload{&events.OrderReceived{Player: s.player.ID, Text: text, MessageID: msg.MessageID, Source: "mail", References: refs, Auth: auth}}
		o.evidence, o.what = true, "order mail taken"
		return o
	case mode == ModeStrict:
		why := a.why
		if a.mismatch != "" {
			why += "; and " + a.mismatch
		}
		r := refuse(events.RefusedUnauthorised, "not authenticated: "+why, "Your mail could not be authenticated",
			fmt.Sprintf("This game takes only mail whose sender can be authenticated as your own address (your mail provider's login, or its DKIM signature if it lets no user send as another). %s could not be: %s. Nothing of it was applied.", mailName(msg.Subject, at), why),
			"Send your orders from a mail provider that signs its mail, or ask the referee to change the game's sender-auth setting. "+elseSomeone)
		r.evs[0].(*events.MailRefused).Sender = a.sender
		r.evidence = true
		return r
	}
	return in.hold(o, s, text, refs, a, at)
}

// whose finds the game and seat a mail is for: a reply address among its
// recipients, else the subject tag and a Key line in its text. It returns
// nil and why for a mail that is no registered participant's. A seat with
// viaKey -2 is a player whose Key line was only quoted.
func (in *Intake) whose(msg *parse.Message, tooLarge bool) (*seat, string) {
	var who token.Parsed
	found := false
	for _, r := range msg.Recipients() {
		if who, found = token.ParseAddress(r, in.cfg.Local, in.cfg.Domain); found {
			break
		}
	}
	viaKey := -1
	if !found && !tooLarge {
		game, ok := token.SubjectGame(msg.Subject)
		for i, l := range msg.Orders().Lines {
			if tok, isKey := token.KeyLine(l.Text); isKey && ok {
				who, found, viaKey = token.Parsed{Game: game, Token: tok}, true, i
				break
			}
		}
		if !found && ok {
			for _, l := range msg.Body.Quoted {
				if tok, isKey := token.KeyLine(l.Text); isKey {
					who, found, viaKey = token.Parsed{Game: game, Token: tok}, true, -2
					break
				}
			}
		}
		if !found && ok {
			// No key at all, but the game in the subject: a participant
			// writing from a registered address is told how to reply.
			if s := in.seatByAddress(game, msg.From.Addr); s != nil {
				return s, ""
			}
		}
		if !found && !ok && in.cfg.Games != nil {
			// Nor the game: the first game that knows the address
			// answers, so that its player is not left without a word.
			if games, err := in.cfg.Games(); err == nil {
				for _, g := range games {
					if s := in.seatByAddress(g, msg.From.Addr); s != nil {
						return s, ""
					}
				}
			}
		}
	}
	if !found {
		return nil, "no reply token: neither a reply address nor a subject tag with a Key line"
	}
	created, err := in.game(who.Game)
	if err != nil {
		if in.cfg.Known != nil && in.cfg.Known(who.Game) {
			// A game of the cluster's that this node does not have yet
			// (being taken over, or created a moment ago): not unknown.
			return nil, notReadyWhy + who.Game
		}
		return nil, fmt.Sprintf("unknown game %q", who.Game)
	}
	seats, err := in.seats(who.Game)
	if err != nil {
		if in.cfg.Known != nil && in.cfg.Known(who.Game) {
			return nil, notReadyWhy + who.Game // not loaded yet, or busy: asked again
		}
		return nil, err.Error()
	}
	// With a Key line, the player is whoever the token belongs to; a seat
	// that changed hands takes only the key of its new holder.
	candidates := append(append([]events.Player(nil), seats.Players...), seats.Referees...)
	for i, p := range candidates {
		if (who.Player == "" || p.ID == who.Player) && token.ValidAt(in.cfg.Secret, who.Game, p.ID, seats.Epochs[p.ID], who.Token) {
			s := &seat{game: who.Game, player: p, referee: i >= len(seats.Players), epoch: seats.Epochs[p.ID],
				settings: seats.Settings, created: created, viaKey: viaKey}
			for _, a := range p.Addresses {
				s.validFrom = s.validFrom || strings.EqualFold(a, msg.From.Addr)
			}
			return s, ""
		}
	}
	return nil, fmt.Sprintf("reply token does not match game %s player %q", who.Game, who.Player)
}

// noKey marks a seat found by its registered From address alone, for a
// mail with the game in its subject and no key (seat.viaKey).
const noKey = -3

// seatByAddress is the participant of game registered at addr, for a
// mail that names the game in its subject but carries no key; nil when
// there is none (or the game is not here).
func (in *Intake) seatByAddress(game, addr string) *seat {
	created, err := in.game(game)
	if err != nil {
		return nil
	}
	seats, err := in.seats(game)
	if err != nil {
		return nil
	}
	candidates := append(append([]events.Player(nil), seats.Players...), seats.Referees...)
	for i, p := range candidates {
		for _, a := range p.Addresses {
			if strings.EqualFold(a, addr) {
				return &seat{game: game, player: p, referee: i >= len(seats.Players), epoch: seats.Epochs[p.ID],
					settings: seats.Settings, created: created, viaKey: noKey, validFrom: true}
			}
		}
	}
	return nil
}

// messageKey is the idempotency key of a mail: its Message-ID in angle
// brackets (the form replies quote), or a hash of its bytes without one.
// It also normalises msg.MessageID to that form.
func messageKey(msg *parse.Message, raw []byte) string {
	if id := strings.TrimSpace(msg.MessageID); id != "" && !strings.HasPrefix(id, "<") {
		msg.MessageID = "<" + id + ">"
	}
	return mailKey(msg.MessageID, raw)
}

// seenSeq returns the seq of the game's mail msg answers (0: none), for a
// relative ruling: what the referee saw. The number in a mail's
// Message-ID is the seq it was composed for; the log may have stored it a
// few seqs later, behind events that landed while it was decided (a mail
// sent, an order held: store.Request.Past), so it is looked for by its id
// from that seq on, as far as a decision may land late (store.MaxPast).
// A mail not found there (another pbem's id, a log that cannot be read)
// keeps the number.
func (in *Intake) seenSeq(game string, msg *parse.Message) uint64 {
	n, id := token.SeenMail(game, msg.InReplyTo, msg.References)
	if n == 0 {
		return 0
	}
	seen := n
	errStop := errors.New("stop")
	err := in.log.Read(game, n, func(e *events.Envelope) error {
		if e.Seq > n+store.MaxPast {
			return errStop
		}
		if e.Type != events.TypeMailQueued {
			return nil
		}
		got, err := events.PeekMailIDView(e)
		if err != nil {
			return err
		}
		if strings.Trim(string(got), "<>") == id {
			seen = e.Seq
			return errStop
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		in.lg.Warn("reading the mail a referee answered", "game", game, "seq", n, "err", err)
	}
	return seen
}

// maxReferences bounds the References an order keeps: the thread's root
// and the newest.
const maxReferences = 12

// references returns the mail's References in angle brackets, bounded: the
// first (the thread's root) and the newest.
func references(msg *parse.Message) []string {
	refs := msg.References
	if len(refs) == 0 && len(msg.InReplyTo) > 0 {
		refs = msg.InReplyTo[:1]
	}
	if len(refs) > maxReferences {
		refs = append(refs[:1:1], refs[len(refs)-maxReferences+1:]...)
	}
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = "<" + r + ">"
	}
	return out
}

func limitText(e *parse.LimitError) string {
	switch e.Limit {
	case parse.LimitBytes:
		return fmt.Sprintf("it is %s, and pbem reads mails of up to %s", sizeText(e.Got), sizeText(e.Max))
	case parse.LimitParts:
		return fmt.Sprintf("it has more than %d parts (attachments and alternatives)", e.Max)
	}
	return fmt.Sprintf("it holds %s of text, and pbem reads up to %s", sizeText(e.Got), sizeText(e.Max))
}

func rateText(a senderAuth) string {
	switch {
	case a.how != "":
		return "authenticated: " + a.how
	case a.sender != "":
		return "unauthenticated, envelope sender " + a.sender
	}
	return "unauthenticated"
}

func rateWhose(a senderAuth) string {
	switch {
	case a.how != "":
		return "carry your authenticated address"
	case a.sender != "":
		return "come from the envelope sender " + a.sender
	}
	return "carry your address without authentication (mails your provider signs are counted apart)"
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
// comment, not orders). A line indented more than the line above it
// continues that line (the welcome mail says so): it is joined to it, and
// its own line is left blank, so the lines after keep their numbers.
func orderText(t parse.Text, skip map[int]bool) string {
	var lines []string // by line number - 1
	order, orderIndent := -1, 0
	prevNo := -1
	for i, l := range t.Lines {
		for len(lines) < l.No-1 {
			lines = append(lines, "")
		}
		trimmed := strings.TrimSpace(l.Text)
		indent := engine.IndentWidth(l.Text) // as the rule systems read it
		switch {
		case skip[i]:
			lines = append(lines, "")
			order = -1
		case order >= 0 && l.No == prevNo+1 && indent > orderIndent && !strings.HasPrefix(trimmed, "#"):
			lines[order] += " " + trimmed
			lines = append(lines, "")
		default:
			lines = append(lines, l.Text)
			order, orderIndent = len(lines)-1, indent
			if strings.HasPrefix(trimmed, "#") {
				order = -1
			}
		}
		prevNo = l.No
	}
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

var confirmRE = regexp.MustCompile(`(?i)^\s*confirm\s*:?\s+([a-z2-7]{4})[\s-]?([a-z2-7]{4})\s*$`)

// rateLimited counts the mail from s's seat against its rate key and,
// past the limit, refuses it: the player is told once per window, and
// later mails are quarantined.
func (in *Intake) rateLimited(msg *parse.Message, s *seat, a senderAuth, at time.Time, refuse refuser) (outcome, bool) {
	key := rateKey(s.game, s.player.ID, a)
	if in.limit.allow(key, at) {
		return outcome{}, false
	}
	until := timeText(in.limit.until(key, at))
	if !in.limit.tell(key, at) {
		o := quarantined(msg, "rate limited: more than %d mails within %v (%s); the player was told", in.cfg.RateBurst, in.cfg.RateWindow, rateText(a))
		return o, true
	}
	r := refuse(events.RefusedRateLimited, fmt.Sprintf("more than %d mails within %v (%s)", in.cfg.RateBurst, in.cfg.RateWindow, rateText(a)),
		"Too many mails",
		fmt.Sprintf("pbem takes at most %d mails within %v that %s. %s is one more: it was not read, nor will be any more until %s. (You are told this once.)",
			in.cfg.RateBurst, in.cfg.RateWindow, rateWhose(a), mailName(msg.Subject, at), until),
		"Send your orders again after "+until+". "+elseSomeone)
	return r, true
}

// confirmLine returns the code of a "CONFIRM abcd-efgh" line, if the text
// has one.
func confirmLine(t parse.Text) (string, bool) {
	for _, l := range t.Lines {
		if m := confirmRE.FindStringSubmatch(l.Text); m != nil {
			return strings.ToLower(m[1] + m[2]), true
		}
	}
	// A reply to the confirmation mail that quotes its CONFIRM line, as
	// mail programs do, and says no more than "Yes, that was me": the
	// quoted line confirms (the code is in the mail only the player got;
	// quoted or not, it proves the same). A reply that says more, or
	// says no, confirms nothing.
	if !onlyAgreement(t.Lines) {
		return "", false
	}
	for _, l := range t.Quoted {
		if m := confirmRE.FindStringSubmatch(l.Text); m != nil {
			return strings.ToLower(m[1] + m[2]), true
		}
	}
	return "", false
}

// maxAgreementWords bounds the words of a reply that only agrees.
const maxAgreementWords = 12

// negations are words that turn a short reply into a refusal.
var negations = map[string]bool{"no": true, "not": true, "nope": true, "never": true, "don't": true, "didn't": true, "dont": true,
	"didnt": true, "nein": true, "nicht": true, "non": true, "nie": true, "nee": true, "niet": true, "ne": true, "nej": true}

// onlyAgreement reports whether lines say no more than a short yes: at
// most maxAgreementWords words and no negation.
func onlyAgreement(lines []parse.Line) bool {
	n := 0
	for _, l := range lines {
		for _, w := range strings.FieldsFunc(strings.ToLower(l.Text), func(r rune) bool {
			return !unicode.IsLetter(r) && r != '\'' && r != '’'
		}) {
			n++
			if negations[strings.ReplaceAll(w, "’", "'")] {
				return false
			}
		}
	}
	return n <= maxAgreementWords
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

// seats are the game's seats as they are now (from the runner's folded
// game), or as the log holds them.
func (in *Intake) seats(game string) (Seats, error) {
	created, err := in.game(game)
	if err != nil {
		return Seats{}, fmt.Errorf("unknown game %q", game)
	}
	if in.cfg.Roster == nil {
		return Seats{Players: created.Players, Referees: created.Referees, Settings: created.Settings}, nil
	}
	s, err := in.cfg.Roster(game)
	if err != nil {
		// The game cannot be read now (busy, or damaged): judge by the
		// seats as the log holds them, and take the mail in; the game
		// decides it when it loads again.
		in.lg.Warn("roster unavailable; judging by the seats as the log holds them", "game", game, "err", err)
		return in.seatsFromLog(game, created)
	}
	return s, nil
}

// observer is the outcome of a mail with no key, under a game's subject
// tag, from one of the game's observers: an input that the engine
// answers (pbem takes no orders from observers). Observers' mails are
// rate-limited per address, as they are not authenticated.
func (in *Intake) observer(msg *parse.Message, raw []byte, at time.Time) (outcome, bool) {
	game, ok := token.SubjectGame(msg.Subject)
	if !ok {
		return outcome{}, false
	}
	s, err := in.seats(game)
	if err != nil {
		return outcome{}, false
	}
	from := strings.ToLower(msg.From.Addr)
	for _, addr := range s.Observers {
		if !strings.EqualFold(addr, from) {
			continue
		}
		if !in.limit.allow(observerRateKey(game, from), at) {
			return quarantined(msg, "rate limited: more than %d mails within %v from observer %s of game %s", in.cfg.RateBurst, in.cfg.RateWindow, from, game), true
		}
		id := play.ObserverPrefix + addr
		o := outcome{msg: msg, game: game, player: id, key: messageKey(msg, raw), evidence: true, what: "observer's mail taken"}
		o.evs = []events.Payload{&events.OrderReceived{Player: id, Text: orderText(msg.Orders(), nil), MessageID: msg.MessageID, Source: "mail"}}
		return o, true
	}
	return outcome{}, false
}

// seatsFromLog reads the seats as they are now from the log itself (when
// the running game cannot say): the seats the game was created with, and
// every change of seat, key or observer after, which no rollback undoes.
// (The settings are those the game was created with.)
func (in *Intake) seatsFromLog(game string, created *events.GameCreated) (Seats, error) {
	g := &play.Game{ID: game, Settings: created.Settings}
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

// SeatsOf copies g's seats and settings as they are now, for the intake.
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
	s.Settings = append([]events.Setting(nil), g.Settings...)
	return s
}
