// Who takes part in a game and what the runtime knows of each: seats and
// their key epochs, referees, the operator, pending asks, absences and
// time zones; lookups by id or address and the facts that change them.

package play

import (
	"fmt"
	"sort"
	"strings"
	"time"
	_ "time/tzdata" // players' time zones read the same on every server

	"pbem/events"
)

// OperatorID is who gives a command on the server as the operator
// ('pbem referee GAME --as operator'): the operator may act on any game,
// with or without referees, and no seat may take the id.
const OperatorID = "operator"

// The kinds of Ask.
const (
	AskPause   = "pause"
	AskResume  = "resume"
	AskDraw    = "draw"
	AskReferee = "referee" // REFEREE ADD or REFEREE REPLACE; Text is the request
)

// Ask is one side's half of a request every side must make: a pause, a
// resume, a draw, or a referee added or replaced. It holds until every
// side made the same request (then it is granted), or the game moves on
// (then every ask expires).
type Ask struct {
	Kind string
	Side string
	Text string // a pause's reason, or the referee request as normalised
}

// SeatKey is a seat's key epoch: the number of times its reply key (and,
// for a referee, the secret) was replaced.
type SeatKey struct {
	ID    string
	Epoch uint64
}

// Absence is a player's declared absence: from From to To (unix ns) the
// player's deadlines stand still.
type Absence struct {
	Player   string
	From, To int64
}

// KeyEpoch returns the key epoch of the seat id (0 unless replaced).
func (g *Game) KeyEpoch(id string) uint64 {
	for _, k := range g.Keys {
		if k.ID == id {
			return k.Epoch
		}
	}
	return 0
}

func (g *Game) setKeyEpoch(id string, epoch uint64) {
	keys := make([]SeatKey, 0, len(g.Keys)+1)
	for _, k := range g.Keys {
		if k.ID != id {
			keys = append(keys, k)
		}
	}
	keys = append(keys, SeatKey{ID: id, Epoch: epoch})
	sort.Slice(keys, func(i, j int) bool { return keys[i].ID < keys[j].ID })
	g.Keys = keys
}

// AbsenceOf returns the player's declared absence, if any.
func (g *Game) AbsenceOf(player string) (Absence, bool) {
	for _, a := range g.Absences {
		if a.Player == player {
			return a, true
		}
	}
	return Absence{}, false
}

func (g *Game) setAbsence(a Absence) {
	out := make([]Absence, 0, len(g.Absences)+1)
	for _, x := range g.Absences {
		if x.Player != a.Player {
			out = append(out, x)
		}
	}
	if a.To > a.From {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Player < out[j].Player })
	if len(out) == 0 {
		out = nil
	}
	g.Absences = out
}

// addAsk records side's ask (replacing an earlier one of the same kind).
func (g *Game) addAsk(a Ask) {
	out := make([]Ask, 0, len(g.Asks)+1)
	for _, x := range g.Asks {
		if x.Kind != a.Kind || x.Side != a.Side {
			out = append(out, x)
		}
	}
	g.Asks = append(out, a)
}

// dropAsks removes the asks of the kinds given.
func (g *Game) dropAsks(kinds ...string) {
	var out []Ask
	for _, x := range g.Asks {
		if !contains(kinds, x.Kind) {
			out = append(out, x)
		}
	}
	g.Asks = out
}

// asked returns side's ask of kind, if it made one.
func (g *Game) asked(kind, side string) (Ask, bool) {
	for _, a := range g.Asks {
		if a.Kind == kind && a.Side == side {
			return a, true
		}
	}
	return Ask{}, false
}

// sides are the game's sides, in the order of its players.
func (g *Game) sides() []string {
	var out []string
	for _, p := range g.Players {
		if p.Side != "" && !contains(out, p.Side) {
			out = append(out, p.Side)
		}
	}
	return out
}

// notAsked are the sides other than side that have not made the ask of
// kind with text (for a pause or a resume the text does not matter).
func (g *Game) notAsked(kind, text, side string) []string {
	var out []string
	for _, s := range g.sides() {
		if s == side {
			continue
		}
		a, ok := g.asked(kind, s)
		if !ok || (kind == AskReferee || kind == AskDraw) && a.Text != text {
			out = append(out, s)
		}
	}
	return out
}

// TimeZone returns the player's time zone (SETTING tz, or the player's TZ
// line), or nil.
func (g *Game) TimeZone(player string) *time.Location {
	for _, s := range g.Settings {
		if s.Key == SettingTZPrefix+player {
			if loc, err := time.LoadLocation(s.Value); err == nil {
				return loc
			}
		}
	}
	return nil
}

// TimeFor prints a time (unix ns) for a player: in UTC, and in the
// player's own time zone when one is set ("Mon 7 Dec 2026 09:00 UTC
// (18:00 JST)").
func (g *Game) TimeFor(player string, ns int64) string {
	s := timeText(ns)
	if loc := g.TimeZone(player); loc != nil && loc != time.UTC {
		t := time.Unix(0, ns).In(loc)
		u := time.Unix(0, ns).UTC()
		layout := "15:04 MST"
		if t.YearDay() != u.YearDay() {
			layout = "Mon 2 Jan 15:04 MST"
		}
		s += " (" + t.Format(layout) + ")"
	}
	return s
}

// who names a seat for the game's echoes: "anna (USA)", "carol (referee)",
// "the operator".
func (g *Game) seatName(id string) string {
	if id == OperatorID {
		return "the operator"
	}
	p, ok := g.PlayerByID(id)
	switch {
	case !ok:
		return id
	case p.Side == "":
		return id + " (referee)"
	}
	return id + " (" + p.Side + ")"
}

// RefereeContact is how a player reaches the referees: their names and
// addresses, and the REFEREE command.
func (g *Game) RefereeContact() string {
	if len(g.Referees) == 0 {
		return "this game has no referee; REFEREE ADD <address>, sent by every side, adds one"
	}
	var rs []string
	for _, r := range g.Referees {
		n := r.Name
		if n == "" {
			n = r.ID
		}
		rs = append(rs, fmt.Sprintf("%s <%s>", n, strings.Join(r.Addresses, ", ")))
	}
	return "send REFEREE <your message>, or write to " + strings.Join(rs, " or ")
}

// newRefereeID is an id for a referee added later, made from the address:
// its local part, cut to the form ids take, numbered if taken.
func (g *Game) newRefereeID(addr string) string {
	local, _, _ := strings.Cut(addr, "@")
	var b strings.Builder
	for _, r := range strings.ToLower(local) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0:
			b.WriteByte('-')
		}
	}
	base := strings.Trim(b.String(), "-")
	if len(base) > 16 {
		base = strings.Trim(base[:16], "-")
	}
	if base == "" || base == OperatorID || base == "referee" {
		base = "ref"
	}
	id := base
	for n := 2; ; n++ {
		if !g.hasSeat(id) {
			return id
		}
		id = fmt.Sprintf("%s-%d", base, n)
	}
}

func (g *Game) hasSeat(id string) bool {
	p, _ := g.seat(id)
	return p != nil
}

// applyReferee folds a referee added or removed.
func (g *Game) applyReferee(f events.Fact) {
	id := f.Str("id")
	var keep []events.Player
	for _, r := range g.Referees {
		if r.ID != id {
			keep = append(keep, r)
		}
	}
	if f.Bool("added") {
		keep = append(keep, events.Player{ID: id, Name: f.Str("name"), Addresses: append([]string(nil), f.Strs("addresses")...)})
	} else {
		// Should the id be given again, the secret the removed referee
		// held must not work for it.
		g.setKeyEpoch(id, g.KeyEpoch(id)+1)
	}
	g.Referees = keep
}

// loadZone reads a time zone name as players write it ("Europe/Berlin",
// "UTC"); abbreviations such as "CET" are refused, as they name no rules.
func loadZone(name string) (*time.Location, error) {
	if name == "" || strings.ContainsAny(name, " \t") {
		return nil, fmt.Errorf("%q is not a time zone (write one such as Europe/Berlin or Asia/Tokyo)", name)
	}
	loc, err := time.LoadLocation(name)
	if err != nil || name == "Local" {
		return nil, fmt.Errorf("%q is not a time zone (write one such as Europe/Berlin or Asia/Tokyo)", name)
	}
	return loc, nil
}

// tellPeopleFact tells the facts of seats, asks, absences and messages in
// plain words (and any other fact in its log form).
func (g *Game) tellPeopleFact(f events.Fact) string {
	switch f.Kind {
	case FactAsk:
		switch f.Str("kind") {
		case AskPause:
			return fmt.Sprintf("%s asks to pause the game%s; it pauses when every side has sent PAUSE.", f.Str("side"), suffix(" (", f.Str("text"))+closeIf(f.Str("text")))
		case AskResume:
			return fmt.Sprintf("%s asks to resume the game; it resumes when every side has sent RESUME.", f.Str("side"))
		case AskDraw:
			return fmt.Sprintf("%s offers a draw; the game ends in a draw when every side has sent DRAW.", f.Str("side"))
		case AskReferee:
			return fmt.Sprintf("%s asks: REFEREE %s; done when every side has sent the same line.", f.Str("side"), f.Str("text"))
		}
	case FactReferee:
		if f.Bool("added") {
			return fmt.Sprintf("%s <%s> now referees the game.", f.Str("name"), strings.Join(f.Strs("addresses"), ", "))
		}
		return fmt.Sprintf("%s no longer referees the game.", f.Str("id"))
	case FactAbsence:
		if f.Int("to") == 0 {
			return fmt.Sprintf("%s is no longer away: their deadlines run as before.", g.nameOf(f.Str("player")))
		}
		return fmt.Sprintf("%s is away from %s to %s; their deadlines do not run meanwhile, but one that has passed keeps its default.", g.nameOf(f.Str("player")),
			g.TimeFor(f.Str("player"), f.Int("from")), g.TimeFor(f.Str("player"), f.Int("to")))
	case FactMessage:
		to := "the referees"
		if t := f.Str("to"); t != "referees" {
			to = g.nameOf(t)
		}
		return fmt.Sprintf("%s writes to %s: %s", g.nameOf(f.Str("from")), to, f.Str("text"))
	case FactPress:
		return g.tellPress(f)
	case FactOrdered:
		return fmt.Sprintf("%s entered %s's orders.", g.nameOf(f.Str("by")), g.nameOf(f.Str("player")))
	}
	return FactLine(f)
}

// askMailboxProblem says why the players cannot ask for a seat at one of
// addrs, or "": an address at the game's built-in mail host that none of
// its seats had when it was created may need a new mailbox there, and a
// new mailbox's password goes to whoever adds the seat. A referee or the
// operator can be given it; a request every side makes has no one to
// give it to (not the players: the mailbox would be a referee's).
func (g *Game) askMailboxProblem(addrs []string) string {
	dom := g.setting(SettingBuiltinDomain)
	if dom == "" {
		return ""
	}
	for _, a := range addrs {
		_, d, _ := strings.Cut(a, "@")
		if !strings.EqualFold(d, dom) || g.createdWith(a) {
			continue
		}
		return fmt.Sprintf("%s is at pbem's built-in mail host (%s), where a new mailbox's password goes to whoever adds the seat, and a request of every side has no one to give it to: ask a referee, or the server's operator, to add it",
			a, dom)
	}
	return ""
}

// createdWith reports whether addr was a seat's address when g was created.
func (g *Game) createdWith(addr string) bool {
	if g.Created == nil {
		return false
	}
	for _, p := range append(append([]events.Player(nil), g.Created.Players...), g.Created.Referees...) {
		for _, a := range p.Addresses {
			if strings.EqualFold(a, addr) {
				return true
			}
		}
	}
	return false
}

// FoldSeat applies a fact to g's seats, observers and key epochs if it is
// one that changes them (REPLACE, REFEREE, OBSERVER), and ignores any
// other: who holds which seat, with which key, can be read from a log
// without the rules (a rollback never undoes it).
func (g *Game) FoldSeat(f events.Fact) error {
	switch f.Kind {
	case FactPlayer, FactReferee, FactObserver:
		return g.applyGameFact(nil, 0, 0, f)
	}
	return nil
}

// sharedAddress finds an address held both by a player and by a referee
// among the given seats: the player, the referee and the address.
func sharedAddress(players, referees []events.Player) (events.Player, events.Player, string, bool) {
	for _, r := range referees {
		for _, ra := range r.Addresses {
			for _, p := range players {
				for _, pa := range p.Addresses {
					if strings.EqualFold(ra, pa) {
						return p, r, ra, true
					}
				}
			}
		}
	}
	return events.Player{}, events.Player{}, "", false
}

// refereePlaysProblem says why a referee who also plays is refused, in
// words for whoever asked; referee names the referee's seat or address.
func refereePlaysProblem(addr string, p events.Player) string {
	return fmt.Sprintf("%s plays %s in this game, and a referee who plays would rule on his own disputes: ask someone else to referee (a game created with referee-plays=yes allows it, and tells every player)",
		addr, p.Side)
}

// seatConflict is the problem with giving addrs to a seat, or "": to a
// referee's seat (seat is nil for a referee being added, or a referee's
// seat) an address that plays a side, or to a player's seat an address
// that referees the game — unless the game was created with
// referee-plays=yes.
func (g *Game) seatConflict(seat *events.Player, referee bool, addrs []string) string {
	if g.Policy().RefereePlays {
		return ""
	}
	held := []events.Player{{Addresses: addrs}}
	if seat != nil {
		held[0].ID, held[0].Side = seat.ID, seat.Side
	}
	var players, referees []events.Player
	if referee {
		players, referees = g.Players, held
	} else {
		players, referees = held, g.Referees
	}
	p, r, a, ok := sharedAddress(players, referees)
	if !ok {
		return ""
	}
	if referee {
		return refereePlaysProblem(a, p)
	}
	return fmt.Sprintf("%s referees this game (as %s): a player who referees would rule on his own disputes; give the seat to another address (a game created with referee-plays=yes allows it, and tells every player)", a, r.ID)
}

// PlayingReferee reports whether referee id also holds a player's seat
// (a game created with referee-plays=yes), and which side it plays.
func (g *Game) PlayingReferee(id string) (string, bool) {
	r, isRef := g.seat(id)
	if r == nil || !isRef {
		return "", false
	}
	p, _, _, ok := sharedAddress(g.Players, []events.Player{*r})
	return p.Side, ok
}
