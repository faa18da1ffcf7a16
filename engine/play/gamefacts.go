// The engine's own game facts ("pbem.*": roster, pauses, deadlines,
// rollbacks, settings, absences, messages, the end) and what they carry:
// their kinds, the settings keys and the Policy read from them, the
// deadline and branch records, and how the fold applies them to a Game.

package play

import (
	"encoding/base64"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"pbem/engine"
	"pbem/events"
)

// Game-level facts. A decision's facts whose kind starts with "pbem." are
// the engine's own (the roster, pauses, deadlines, rollbacks, settings),
// applied by the fold and never passed to the ruleset; rulesets must not
// use the prefix. They are explicit facts of the decision like any other,
// so the audit re-decides and compares them, and the log says who did
// what and why.
const (
	FactRollback   = "pbem.rollback"    // to, state (the ruleset state at seq to, encoded, base64), by
	FactPause      = "pbem.paused"      // by, reason, at
	FactResume     = "pbem.resumed"     // by, at, paused (nanoseconds the pause lasted)
	FactPauseAsk   = "pbem.pause.asked" // side, resume (a player's half of a pause or resume; logs before pbem.asked)
	FactAsk        = "pbem.asked"       // kind, side, text: a side's half of a request every side must make
	FactDeadline   = "pbem.deadline"    // player, due (unix ns; 0 clears), default
	FactPlayer     = "pbem.player"      // id, name, addresses, was (the old addresses), epoch (the seat's new key epoch)
	FactReferee    = "pbem.referee"     // id, name, addresses, added (false: removed)
	FactAbsence    = "pbem.absence"     // player, from, to (unix ns; both 0: cancelled)
	FactMessage    = "pbem.message"     // from, to (a player id, or "referees"), text
	FactOrdered    = "pbem.ordered"     // by, player: a referee entered the player's orders
	FactObserver   = "pbem.observer"    // address, added
	FactAnnounce   = "pbem.announced"   // by, text
	FactEnd        = "pbem.ended"       // by, winner, reason
	FactSetting    = "pbem.setting"     // key, value, was
	recentCapacity = 32
)

// Pause is a pause in force: who paused the game, when and why.
type Pause struct {
	By     string // a referee's id, or "players"
	At     int64  // unix ns, the intake time of the command
	Reason string
}

// Deadline is when a player's orders are due, what is applied if none
// come, and whether the server's clock has already said it passed.
type Deadline struct {
	Player  string
	Due     int64 // unix nanoseconds
	Default string
	Passed  bool
	// Reminded: the reminder mail for this deadline is queued.
	Reminded bool
}

// Branch is a stretch of the log a rollback closed: its events stay, and
// replaying to a seq inside it shows the game as it was then, but the game
// went on from the state at From-1.
type Branch struct {
	From, To uint64 // first and last seq of the closed stretch
	By       uint64 // the seq of the decision that rolled back
	// Withdraws is the battle whose result the rollback withdrew (a
	// campaign rolled back to before it took the result of a battle
	// whose end was itself rolled back, link.go Withdraw); "" for any
	// other rollback.
	Withdraws string
}

// Settings keys a game may carry (events.GameCreated.Settings, or changed
// later by the referee's SETTING command).
const (
	// SettingDeadline is the time allowed per decision: "72h", "3d",
	// "1d12h"; "none" (the default) for no deadlines.
	SettingDeadline = "deadline"
	// SettingReminder is how long before a deadline a reminder is mailed
	// ("none": no reminder).
	SettingReminder = "reminder"
	// SettingAtDeadline is what happens when a deadline passes: an order
	// applied in the player's name ("PASS"), or "referee" (the default):
	// nothing is applied and the referee is told.
	SettingAtDeadline = "at-deadline"
	// SettingGrace is how long after a deadline the server waits before
	// applying the default (the deadline shown is the one without grace).
	SettingGrace = "grace"
	// SettingOverrides is "announced" (the default: every referee change is
	// mailed to the players, saying what changed and who changed it) or
	// "silent" (it is only logged).
	SettingOverrides = "overrides"
	// SettingImages is "on" (the default: a mail with a board also
	// carries it drawn, as a picture) or "off" (the ASCII board alone).
	SettingImages = "images"
	// SettingPauseMax is how long a pause the players asked for lasts at
	// most (default 14d; "none": until they resume). A referee's pause,
	// or one a referee took over, never runs out.
	SettingPauseMax = "pause-max"
	// SettingAbsenceMax is how long one ABSENCE a player declares may be
	// (default 14d; "none": players cannot declare absences).
	SettingAbsenceMax = "absence-max"
	// SettingTZPrefix starts a player's time zone setting, "tz.anna" =
	// "Europe/Berlin" (SETTING tz anna Europe/Berlin, or the player's own
	// TZ line): mails then give that player's times in their zone too.
	SettingTZPrefix = "tz."
	// SettingBuiltinDomain is set by the server, not the referee, when a
	// game is created on pbem's built-in mail host: the domain of its
	// mailboxes. A seat or observer a referee (or the operator) adds
	// later at that domain gets a mailbox there if it has none, whose
	// password the server gives to that referee alone (outside the log);
	// the players' own requests for a referee at that domain are refused
	// with the reason, since they have no one to give it to.
	SettingBuiltinDomain = "builtin-domain"
	// SettingSenderAuth is how the mail intake treats a mail whose sender
	// it cannot authenticate: "strict" (refused), "confirm" (the default:
	// held until the player confirms it from the registered address when
	// its envelope or Sender differs from From) or "lenient" (applied).
	SettingSenderAuth = "sender-auth"
	// SettingRefereePlays is "no" (the default: an address that plays a
	// side cannot be the game's referee, nor become a co-referee) or
	// "yes", set when the game is created and never after: a club that
	// has no one else to referee says so, every player is told in the
	// welcome mail, and that referee's pauses end by themselves after
	// the game's pause-max like the players' own.
	SettingRefereePlays = "referee-plays"
)

// defaultPauseMax and defaultAbsenceMax are the limits of a game that
// does not set them.
const (
	defaultPauseMax   = 14 * 24 * time.Hour
	defaultAbsenceMax = 14 * 24 * time.Hour
)

// Policy is a game's deadline and override policy, read from its settings.
type Policy struct {
	Deadline   time.Duration // 0: no deadlines
	Reminder   time.Duration // 0: no reminder
	Grace      time.Duration
	AtDeadline string        // an order, or "referee"
	Silent     bool          // overrides are not announced
	PauseMax   time.Duration // 0: a players' pause lasts until they resume
	AbsenceMax time.Duration // 0: no absences
	NoImages   bool          // mails carry the ASCII board alone, not drawn
	SenderAuth string        // strict, confirm or lenient; "" for the server's default
	// RefereePlays: a referee may also play a side (set at creation).
	RefereePlays bool
}

// ParsePolicy reads a policy from settings; unknown keys and bad values
// are errors, so a typing mistake is not silently a different game.
func ParsePolicy(settings []events.Setting) (Policy, error) {
	p := Policy{AtDeadline: "referee", PauseMax: defaultPauseMax, AbsenceMax: defaultAbsenceMax}
	for _, s := range settings {
		if err := p.set(s.Key, s.Value); err != nil {
			return p, err
		}
	}
	return p, nil
}

func (p *Policy) set(key, value string) error {
	value = strings.TrimSpace(value)
	var err error
	if id, ok := strings.CutPrefix(strings.ToLower(key), SettingTZPrefix); ok {
		if !playerIDRe.MatchString(id) {
			return fmt.Errorf("setting %s: %q is not a player id", key, id)
		}
		if _, err := loadZone(value); err != nil {
			return fmt.Errorf("setting %s: %w", key, err)
		}
		return nil
	}
	if id, ok := strings.CutPrefix(strings.ToLower(key), SettingMailPrefix); ok {
		if !playerIDRe.MatchString(id) {
			return fmt.Errorf("setting %s: %q is not a player id", key, id)
		}
		if _, err := ParseVolume(value); err != nil {
			return fmt.Errorf("setting %s: %w", key, err)
		}
		return nil
	}
	switch strings.ToLower(key) {
	case SettingParentWhat:
	case SettingParent:
		if c, k, ok := strings.Cut(value, " "); !ok || ValidGameID(c) != nil || k == "" {
			return fmt.Errorf("setting %s: %q (want the campaign's game id and the battle's key)", key, value)
		}
	case SettingMail:
		_, err = ParseVolume(value)
	case SettingDeadline:
		p.Deadline, err = ParseSpan(value)
	case SettingReminder:
		p.Reminder, err = ParseSpan(value)
	case SettingGrace:
		p.Grace, err = ParseSpan(value)
	case SettingPauseMax:
		p.PauseMax, err = ParseSpan(value)
	case SettingAbsenceMax:
		p.AbsenceMax, err = ParseSpan(value)
	case SettingBuiltinDomain:
		if value == "" || strings.ContainsAny(value, "@ \t") {
			return fmt.Errorf("setting %s: %q is not a mail domain", key, value)
		}
	case SettingAtDeadline:
		if value == "" {
			return fmt.Errorf("setting %s: empty (want an order such as PASS, or referee)", key)
		}
		p.AtDeadline = value
	case SettingImages:
		switch strings.ToLower(value) {
		case "on":
			p.NoImages = false
		case "off":
			p.NoImages = true
		default:
			return fmt.Errorf("setting %s: %q (want on or off)", key, value)
		}
	case SettingOverrides:
		switch strings.ToLower(value) {
		case "announced", "announce":
			p.Silent = false
		case "silent":
			p.Silent = true
		default:
			return fmt.Errorf("setting %s: %q (want announced or silent)", key, value)
		}
	case SettingRefereePlays:
		switch strings.ToLower(value) {
		case "yes":
			p.RefereePlays = true
		case "no":
			p.RefereePlays = false
		default:
			return fmt.Errorf("setting %s: %q (want yes or no)", key, value)
		}
	case SettingPressReferee:
		switch strings.ToLower(value) {
		case "none", "all":
		default:
			return fmt.Errorf("setting %s: %q (want none or all)", key, value)
		}
	case SettingSenderAuth:
		switch v := strings.ToLower(value); v {
		case "strict", "confirm", "lenient":
			p.SenderAuth = v
		default:
			return fmt.Errorf("setting %s: %q (want strict, confirm or lenient)", key, value)
		}
	default:
		return fmt.Errorf("unknown setting %q (known: %s)", key, strings.Join(SettingKeys(), ", "))
	}
	if err != nil {
		return fmt.Errorf("setting %s: %w", key, err)
	}
	return nil
}

// SettingKeys lists the settings a game understands.
func SettingKeys() []string {
	return []string{SettingDeadline, SettingReminder, SettingAtDeadline, SettingGrace, SettingOverrides,
		SettingImages, SettingPauseMax, SettingAbsenceMax, "tz", SettingSenderAuth, SettingRefereePlays, SettingPressReferee, SettingMail}
}

// ParseSpan reads a span of time as players write it: "72h", "3d",
// "1d12h", "90m"; "none", "off" or "0" is no span.
func ParseSpan(s string) (time.Duration, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	switch s {
	case "", "none", "off", "0":
		return 0, nil
	}
	var days int64
	if i := strings.IndexByte(s, 'd'); i > 0 {
		n, err := strconv.ParseInt(s[:i], 10, 32)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("%q is not a span of time (write 72h, 3d or 1d12h)", s)
		}
		days, s = n, s[i+1:]
	}
	var rest time.Duration
	if s != "" {
		var err error
		if rest, err = time.ParseDuration(s); err != nil || rest < 0 {
			return 0, fmt.Errorf("%q is not a span of time (write 72h, 3d or 1d12h)", s)
		}
	}
	return time.Duration(days)*24*time.Hour + rest, nil
}

// Policy returns g's current policy (settings that do not parse were
// refused when they were given, so none fail here).
func (g *Game) Policy() Policy {
	p, _ := ParsePolicy(g.Settings)
	return p
}

// Deadline returns the player's current deadline, if any.
func (g *Game) Deadline(player string) (Deadline, bool) {
	for _, d := range g.Deadlines {
		if d.Player == player {
			return d, true
		}
	}
	return Deadline{}, false
}

func (g *Game) setDeadline(d Deadline) {
	i := sort.Search(len(g.Deadlines), func(i int) bool { return g.Deadlines[i].Player >= d.Player })
	switch {
	case i < len(g.Deadlines) && g.Deadlines[i].Player == d.Player && d.Due == 0:
		g.Deadlines = append(g.Deadlines[:i:i], g.Deadlines[i+1:]...)
	case i < len(g.Deadlines) && g.Deadlines[i].Player == d.Player:
		if old := g.Deadlines[i]; old.Due == d.Due {
			// The same deadline with another default: what the clock
			// already did for it (the reminder, the deadline passing)
			// stays done.
			d.Passed, d.Reminded = old.Passed, old.Reminded
		}
		g.Deadlines[i] = d
	case d.Due == 0:
	default:
		g.Deadlines = append(g.Deadlines, Deadline{})
		copy(g.Deadlines[i+1:], g.Deadlines[i:])
		g.Deadlines[i] = d
	}
	if len(g.Deadlines) == 0 {
		g.Deadlines = nil
	}
}

// seat returns the player holding id's seat, or a referee.
func (g *Game) seat(id string) (*events.Player, bool) {
	for i := range g.Players {
		if g.Players[i].ID == id {
			return &g.Players[i], false
		}
	}
	for i := range g.Referees {
		if g.Referees[i].ID == id {
			return &g.Referees[i], true
		}
	}
	return nil, false
}

// applyGameFact folds one of the engine's own facts, of the decision at
// seq about the input at seq input.
func (g *Game) applyGameFact(reg *engine.Registry, seq, input uint64, f events.Fact) error {
	switch f.Kind {
	case FactRollback:
		to := uint64(f.Int("to"))
		if to == 0 || to >= input {
			return fmt.Errorf("%w: rollback at seq %d to seq %d", ErrFold, seq, to)
		}
		initial, err := reg.Setup(g.Rules, g.Created.Scenario, g.Created.Players)
		if err != nil {
			return fmt.Errorf("rollback: setup: %w", err)
		}
		enc, err := base64.StdEncoding.Strict().DecodeString(f.Str("state"))
		if err != nil {
			return fmt.Errorf("%w: rollback to %d: state: %v", ErrFold, to, err)
		}
		st, err := g.Rules.DecodeState(enc, initial)
		if err != nil {
			return fmt.Errorf("rollback to %d: decode state: %w", to, err)
		}
		g.State = st
		g.Branches = append(g.Branches, Branch{From: to + 1, To: input - 1, By: seq, Withdraws: f.Str("withdraws")})
		// A rollback of an ended game (a battle's, link.go) goes to
		// before its end: the game goes on.
		g.Ended = nil
		keep := g.Recent[:0:0]
		for _, r := range g.Recent {
			if r <= to {
				keep = append(keep, r)
			}
		}
		g.Recent = keep
		g.Asks = nil
		// The orders sealed then come back with the rollback (as
		// pbem.sealed facts after this one); reveals are not undone.
		g.Sealed = nil
	case FactPause:
		g.Paused = &Pause{By: f.Str("by"), At: f.Int("at"), Reason: f.Str("reason")}
		g.dropAsks(AskPause, AskResume)
	case FactResume:
		g.Paused = nil
		g.dropAsks(AskPause, AskResume)
	case FactPauseAsk:
		kind := AskPause
		if f.Bool("resume") {
			kind = AskResume
		}
		g.addAsk(Ask{Kind: kind, Side: f.Str("side")})
	case FactAsk:
		g.addAsk(Ask{Kind: f.Str("kind"), Side: f.Str("side"), Text: f.Str("text")})
	case FactReferee:
		g.applyReferee(f)
	case FactAbsence:
		g.setAbsence(Absence{Player: f.Str("player"), From: f.Int("from"), To: f.Int("to")})
	case FactMessage, FactOrdered, FactPress:
		// Said in the mails; the state does not change.
	case FactDeadline:
		g.setDeadline(Deadline{Player: f.Str("player"), Due: f.Int("due"), Default: f.Str("default")})
	case FactPlayer:
		p, _ := g.seat(f.Str("id"))
		if p == nil {
			return fmt.Errorf("%w: %s for unknown player %q", ErrFold, f.Kind, f.Str("id"))
		}
		if f.Has("name") {
			p.Name = f.Str("name")
		}
		p.Addresses = append([]string(nil), f.Strs("addresses")...)
		if f.Has("epoch") {
			g.setKeyEpoch(p.ID, uint64(f.Int("epoch")))
		}
	case FactObserver:
		a := f.Str("address")
		if f.Bool("added") {
			g.Observers = addSorted(g.Observers, a)
		} else {
			g.Observers = removeString(g.Observers, a)
		}
	case FactSealed, FactReveal:
		g.applySealed(seq, f)
	case FactArrived, FactRefused:
		// Said in the mails; the sealed orders are in pbem.sealed.
	case FactAnnounce, FactEnd:
		// Mails (and the runner's game.ended event) carry these; the state
		// does not change.
	case FactSetting:
		set := events.Setting{Key: f.Str("key"), Value: f.Str("value")}
		replaced := false
		for i := range g.Settings {
			if g.Settings[i].Key == set.Key {
				g.Settings[i], replaced = set, true
			}
		}
		if !replaced {
			g.Settings = append(g.Settings, set)
		}
	default:
		return fmt.Errorf("%w: unknown game fact %q", ErrFold, f.Kind)
	}
	return nil
}

func addSorted(list []string, s string) []string {
	i := sort.SearchStrings(list, s)
	if i < len(list) && list[i] == s {
		return list
	}
	out := make([]string, 0, len(list)+1)
	out = append(append(append(out, list[:i]...), s), list[i:]...)
	return out
}

func removeString(list []string, s string) []string {
	var out []string
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

// waitingSides are the sides the prompts of st ask to act, sorted, but
// for those whose sealed orders are in once facts are applied.
func (g *Game) waitingSides(st engine.State, facts []events.Fact) []string {
	done := g.sealedSides(facts)
	var sides []string
	for _, p := range g.rulePrompts(st) {
		if !p.Referee && p.Side != "" && !(p.Sealed != "" && contains(done, p.Side)) {
			sides = addSorted(sides, p.Side)
		}
	}
	return sides
}

// deadlineFacts are the deadline changes after a decision by actor taken
// in at: every player whose side must act now and has no running deadline
// (or has just acted, or whose deadline passed) gets one; a player whose
// side no longer must act loses theirs.
func (g *Game) deadlineFacts(st engine.State, facts []events.Fact, actor string, at int64, pol Policy) []events.Fact {
	if g.Ended != nil {
		return nil
	}
	waiting := g.waitingSides(st, facts)
	var out []events.Fact
	for _, p := range g.Players {
		must := contains(waiting, p.Side)
		cur, has := g.Deadline(p.ID)
		switch {
		case has && p.ID != actor && g.passing(cur):
			// The clock's word that this deadline passed waits in the
			// log: its own decision applies the default (or says why
			// not). Another player's decision neither renews it nor
			// takes it.
		case must && pol.Deadline > 0 && (!has || cur.Passed || p.ID == actor):
			out = append(out, deadlineFact(p.ID, g.dueFor(p.ID, at, pol.Deadline), pol.AtDeadline))
		case has && (!must || p.ID == actor):
			// Not to act now, or acted (a referee's one-off deadline in a
			// game with none): no deadline runs.
			out = append(out, deadlineFact(p.ID, 0, ""))
		}
	}
	return out
}

func deadlineFact(player string, due int64, dflt string) events.Fact {
	return events.NewFact(FactDeadline, events.S("player", player), events.I("due", due), events.S("default", dflt))
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// FactLine prints a fact for people: like Fact.String, but a rollback's
// encoded state is shown by its SHA-256, not its bytes, and the times of
// the runtime's own facts in RFC 3339 (UTC), their spans as 2h 30m.
func FactLine(f events.Fact) string {
	times, spans := factTimes[f.Kind], factSpans[f.Kind]
	if f.Kind != FactRollback && times == nil && spans == nil {
		return f.String()
	}
	c := events.Fact{Kind: f.Kind, Vis: f.Vis}
	for _, a := range f.Args {
		switch {
		case a.Key == "state" && f.Kind == FactRollback:
			a = events.S("state", fmt.Sprintf("(%d characters, sha256 %s…)", len(a.Str), Commit([]byte(a.Str)).Hex()[:16]))
		case a.Kind == events.ArgInt && contains(times, a.Key):
			if a.Int == 0 {
				a = events.S(a.Key, "none")
			} else {
				a = events.S(a.Key, time.Unix(0, a.Int).UTC().Format(time.RFC3339))
			}
		case a.Kind == events.ArgInt && contains(spans, a.Key):
			a = events.S(a.Key, Span(time.Duration(a.Int)))
		}
		c.Args = append(c.Args, a)
	}
	return c.String()
}

// factTimes and factSpans are the arguments of the runtime's facts that
// hold a time (unix ns) or a span (ns).
var (
	factTimes = map[string][]string{FactDeadline: {"due"}, FactPause: {"at"}, FactResume: {"at"}, FactAbsence: {"from", "to"}}
	factSpans = map[string][]string{FactResume: {"paused"}}
)

// InBranch reports whether seq lies in a stretch of the log a rollback
// closed, and which.
func InBranch(branches []Branch, seq uint64) (Branch, bool) {
	for _, b := range branches {
		if seq >= b.From && seq <= b.To {
			return b, true
		}
	}
	return Branch{}, false
}

// applyFacts folds a decision's facts: runs of the ruleset's facts through
// the ruleset, the engine's own here. Within a fold (f not nil), a state
// the fold made is the fold's own, and the ruleset may change it in place.
func (g *Game) applyFacts(reg *engine.Registry, seq, input uint64, facts []events.Fact, f *folding) error {
	changed := false
	for len(facts) > 0 {
		n := 0
		for n < len(facts) && !engine.IsGameFact(facts[n]) {
			n++
		}
		if n > 0 {
			evolve := EvolveAll
			if f != nil && f.owns {
				// It changes g.State in place: what was asked of it
				// is forgotten. (A fold that only copies, as one that
				// folds the inputs arriving does, leaves the states
				// asked about as they were, and their prompts hold.)
				evolve = EvolveOwned
				g.prompted = [2]promptMemo{}
			}
			st, err := evolve(g.Rules, g.State, facts[:n])
			if err != nil {
				return err
			}
			g.State, facts, changed = st, facts[n:], true
			if f != nil {
				f.owns = true // EvolveAll's copy, or what EvolveOwned changed
			}
			continue
		}
		if f != nil && facts[0].Kind == FactRollback {
			f.owns = false // the one game fact that sets the state
		}
		if facts[0].Kind == FactRollback {
			changed = false
		}
		if err := g.applyGameFact(reg, seq, input, facts[0]); err != nil {
			return err
		}
		facts = facts[1:]
	}
	if changed {
		// The game moved on: what some sides asked for and the others
		// did not (yet) expires.
		g.Asks = nil
		// Cut from the front, so that append reallocates once per
		// recentCapacity decisions rather than every time; it writes only
		// past the end, never over what another copy of g sees.
		g.Recent = append(g.Recent, seq)
		if len(g.Recent) > recentCapacity {
			g.Recent = g.Recent[len(g.Recent)-recentCapacity:]
		}
	}
	return nil
}

func clonePlayers(ps []events.Player) []events.Player {
	out := make([]events.Player, len(ps))
	for i, p := range ps {
		p.Addresses = append([]string(nil), p.Addresses...)
		out[i] = p
	}
	return out
}

// DeadlineKey is the idempotency key of the deadline.passed input the
// server's clock writes for a player's deadline: one per deadline, however
// many servers or ticks see it pass.
func DeadlineKey(player string, due int64) string {
	return fmt.Sprintf("deadline/%s/%d", player, due)
}

// ReminderKey is the idempotency key of the reminder mail for a deadline.
func ReminderKey(player string, due int64) string {
	return fmt.Sprintf("reminder/%s/%d", player, due)
}

// ParseReminderKey reads a ReminderKey.
func ParseReminderKey(key string) (player string, due int64, ok bool) {
	rest, found := strings.CutPrefix(key, "reminder/")
	if !found {
		return "", 0, false
	}
	i := strings.LastIndexByte(rest, '/')
	if i < 0 {
		return "", 0, false
	}
	n, err := strconv.ParseInt(rest[i+1:], 10, 64)
	if err != nil {
		return "", 0, false
	}
	return rest[:i], n, true
}

// RosterAfter returns a copy of g whose seats, observers, settings,
// deadlines, pause and absences are as the decision d leaves them (a
// REPLACE, OBSERVER, SETTING, PAUSE or deadline in d applied), for the
// mails that announce d: a new observer or referee gets the mail that
// adds them, a replaced player's mail goes to the new address with the
// seat's new key, a "your move" states the deadline d set. Nothing else
// of g is changed; g itself is untouched.
func (g *Game) RosterAfter(d *events.OrderAccepted) *Game {
	c := *g
	changed := false
	for _, f := range d.Facts {
		switch f.Kind {
		case FactPlayer, FactObserver, FactReferee, FactSetting, FactDeadline, FactPause, FactResume, FactAbsence:
			if !changed {
				c.Players, c.Referees = clonePlayers(g.Players), clonePlayers(g.Referees)
				c.Observers = append([]string(nil), g.Observers...)
				c.Settings = append([]events.Setting(nil), g.Settings...)
				c.Deadlines = append([]Deadline(nil), g.Deadlines...)
				c.Asks = append([]Ask(nil), g.Asks...)
				changed = true
			}
			if err := c.applyGameFact(nil, 0, 0, f); err != nil {
				return g
			}
		}
	}
	if !changed {
		return g
	}
	return &c
}
