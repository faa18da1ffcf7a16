package compose_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"pbem/engine/play"
	"pbem/internal/golden"
	"pbem/internal/waitfor"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"pbem/engine"
	"pbem/events"
	"pbem/mail/compose"
	"pbem/mail/token"
	"pbem/store"
	"pbem/templates"
)

const game = "g1"

var cfg = compose.Config{Domain: "pbem.localhost", Local: "pbem", Secret: []byte("test reply-token secret")}

func newComposer(t testing.TB) *compose.Composer {
	t.Helper()
	set, err := templates.Load("")
	if err != nil {
		t.Fatal(err)
	}
	return compose.New(cfg, set)
}

var start = time.Date(1863, 7, 1, 8, 0, 0, 0, time.UTC)

func newGame(c *compose.Composer) play.NewGame {
	return play.NewGame{ID: game, Ruleset: "race", ScenarioName: "twelve", Scenario: []byte("target 12"),
		Players: racePlayers, Referees: raceReferees, At: start, Welcome: c.Welcome,
		// The mail for every action: these tests check which mails each
		// decision causes (volume_test.go checks the other volumes).
		Settings: []events.Setting{{Key: play.SettingMail, Value: play.VolumeEvery}}}
}

// server is a game on a real bbolt store, decided by a real runner with
// the composer as its notifier.
type server struct {
	t   *testing.T
	st  *store.Store
	reg *engine.Registry
	r   *play.Runner
	n   int
	at  time.Time
}

func newServer(t *testing.T, c *compose.Composer) *server {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "pbem.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	reg := raceRegistry()
	r := play.NewRunner(st, reg, play.RunnerOptions{Notifier: c, SnapshotEvery: 4,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	t.Cleanup(r.Close)
	created, err := play.Create(st, reg, newGame(c))
	if err != nil {
		t.Fatal(err)
	}
	s := &server{t: t, st: st, reg: reg, r: r, at: start}
	r.Deliver(&created)
	s.waitIdle()
	return s
}

// send takes in an order (or a referee's command) the way the mail intake
// does, waits for the runner to decide it, and returns the events the
// decision appended: the decision, its mails, and game.ended if any.
func (s *server) send(who string, referee bool, text string) (events.Envelope, []events.Envelope) {
	s.t.Helper()
	s.n++
	s.at = s.at.Add(7 * time.Hour)
	id := fmt.Sprintf("order-%d@mail.example.org", s.n) // as the parser gives it: no brackets
	var p events.Payload = &events.OrderReceived{Player: who, Text: text, MessageID: id, Source: "mail"}
	if referee {
		p = &events.RefereeCommand{Referee: who, Text: text, MessageID: id, Source: "mail"}
	}
	h, _ := s.st.Head(game)
	res, err := s.st.Append(game, h.Seq, events.New(game, s.at, id, p))
	if err != nil {
		s.t.Fatal(err)
	}
	s.r.Deliver(&res.Events[0])
	s.waitIdle()
	evs, err := s.st.Events(game, res.Last+1)
	if err != nil {
		s.t.Fatal(err)
	}
	return res.Events[0], evs
}

func (s *server) waitIdle() {
	s.t.Helper()
	if waitfor.True(30*time.Second, func() bool {
		h, err := s.st.Head(game)
		if err != nil {
			s.t.Fatal(err)
		}
		var seq uint64
		var pending int
		if err := s.r.Query(context.Background(), game, func(g *play.Game) { seq, pending = g.Seq, len(g.Pending) }); err != nil {
			s.t.Fatal(err)
		}
		return seq == h.Seq && pending == 0
	}) {
		return
	}
	s.t.Fatal("runner did not decide within 30s")
}

// sent is a mail as stored, with the seq it was stored at.
type sent struct {
	seq uint64
	m   *events.MailQueued
}

func mailsIn(t testing.TB, evs []events.Envelope) []sent {
	t.Helper()
	var out []sent
	for i := range evs {
		if evs[i].Type != events.TypeMailQueued {
			continue
		}
		p, err := events.Decode(&evs[i])
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, sent{evs[i].Seq, p.(*events.MailQueued)})
	}
	return out
}

var everyone = append(append([]events.Player(nil), racePlayers...), raceReferees...)

// welcomeID is the Message-ID of id's welcome mail: the welcomes follow
// game.created, one per participant in the order of everyone.
func welcomeID(id string) string {
	for i, p := range everyone {
		if p.ID == id {
			return fmt.Sprintf("<%s.%d@%s>", game, 2+i, cfg.Domain)
		}
	}
	return ""
}

func participant(id string) events.Player {
	for _, p := range everyone {
		if p.ID == id {
			return p
		}
	}
	panic("no participant " + id)
}

// checkMail checks what every mail must be, for its reader `to`.
func checkMail(t *testing.T, s sent, to string, inReplyTo string) {
	t.Helper()
	m := s.m
	if addr, ok := strings.CutPrefix(to, "observer:"); ok {
		// An observer's mail: to their address, no reply token, no key.
		if !reflect.DeepEqual(m.To, []string{addr}) || m.ReplyTo != cfg.Local+"@"+cfg.Domain || strings.Contains(m.Body, "Key:") {
			t.Errorf("observer's mail: To %v Reply-To %s key in body %v", m.To, m.ReplyTo, strings.Contains(m.Body, "Key:"))
		}
		return
	}
	p := participant(to)
	if want := fmt.Sprintf("<%s.%d@%s>", game, s.seq, cfg.Domain); m.MailID != want {
		t.Errorf("MailID %s, want %s (the seq it is stored at)", m.MailID, want)
	}
	if !reflect.DeepEqual(m.To, p.Addresses) {
		t.Errorf("To %v, want %s's addresses %v", m.To, to, p.Addresses)
	}
	if !strings.HasPrefix(m.Subject, token.SubjectTag(game)+" ") {
		t.Errorf("subject %q lacks the tag", m.Subject)
	}
	if g, ok := token.SubjectGame(m.Subject); !ok || g != game {
		t.Errorf("subject %q does not name the game", m.Subject)
	}
	parsed, ok := token.ParseAddress(m.ReplyTo, cfg.Local, cfg.Domain)
	if !ok || parsed.Game != game || parsed.Player != to {
		t.Errorf("Reply-To %q is not %s's reply address", m.ReplyTo, to)
	}
	for _, other := range everyone {
		if valid := token.Valid(cfg.Secret, game, other.ID, parsed.Token); valid != (other.ID == to) {
			t.Errorf("Reply-To token valid for %s: %v (mail to %s)", other.ID, valid, to)
		}
	}
	// One thread per player and game, rooted at the welcome.
	root := welcomeID(to)
	var wantRefs []string
	wantIRT := ""
	switch {
	case m.MailID == root: // the welcome roots the thread
	case inReplyTo != "":
		wantRefs, wantIRT = []string{root, inReplyTo}, inReplyTo
	default:
		wantRefs, wantIRT = []string{root}, root
	}
	if inReplyTo != "" && len(m.References) > 2 {
		// A reply to a player's mail carries that mail's chain between
		// the root and the mail itself.
		wantRefs = append(append(wantRefs[:1:1], m.References[1:len(m.References)-1]...), inReplyTo)
	}
	if m.InReplyTo != wantIRT || !reflect.DeepEqual(m.References, wantRefs) {
		t.Errorf("In-Reply-To %s References %v, want %s %v", m.InReplyTo, m.References, wantIRT, wantRefs)
	}
	if want := token.SubjectTag(game) + " Twelve"; m.Subject != want {
		t.Errorf("subject %q, want the game's one subject %q", m.Subject, want)
	}
	tok := token.Make(cfg.Secret, game, to)
	if !strings.HasSuffix(m.Body, "\nKey: "+tok+"\n-- \npbem\n") {
		t.Errorf("body does not end with %s's Key line and the signature:\n%s", to, m.Body)
	}
	if k, ok := token.KeyLine("Key: " + tok); !ok || !token.Valid(cfg.Secret, game, to, k) {
		t.Errorf("the Key line does not validate")
	}
	boardLines := map[string]bool{}
	for _, a := range m.Attachments {
		// The whole map goes as text only with BOARD FULL or a digest;
		// the drawn board only when the board changed for the reader.
		ext := "txt"
		if strings.HasSuffix(a.Name, ".png") {
			ext = "png"
		}
		if want := fmt.Sprintf("map-%s-%d.%s", game, s.seq, ext); a.Name != want {
			t.Errorf("attachment %s, want %s", a.Name, want)
		}
		if ext == "png" {
			if v, ok := compose.DrawnViewer(a); !ok || len(a.Body) > 100 {
				t.Errorf("the drawn board's attachment is not a short placeholder naming a view (%v %v): %q", v, ok, a.Body)
			}
			continue
		}
		for _, l := range strings.Split(a.Body, "\n") {
			boardLines[strings.TrimRight(l, " ")] = true
		}
	}
	for i, l := range strings.Split(strings.TrimSuffix(m.Body, "\n"), "\n") {
		if n := utf8.RuneCountInString(l); n > templates.Width && !boardLines[l] {
			t.Errorf("%s line %d is %d columns: %q", m.Template, i+1, n, l)
		}
		if l != "-- " && strings.TrimRight(l, " \t") != l {
			t.Errorf("%s line %d has trailing space: %q", m.Template, i+1, l)
		}
	}
}

type wantMail struct {
	to      string
	tmpl    string
	subject string
	answers bool     // In-Reply-To is the order's Message-ID
	board   bool     // carries a board (and its attachment)
	has     []string // in the body
	hasNot  []string
}

func TestMailsThroughTheRunner(t *testing.T) {
	c := newComposer(t)
	s := newServer(t, c)

	welcome := mailsIn(t, mustEvents(t, s.st, 1))
	t.Run("welcome to both players and the referee", func(t *testing.T) {
		checkMails(t, welcome, "", []wantMail{
			{to: "north", tmpl: "welcome", subject: "[pbem g1] welcome: you play USA", board: true,
				has: []string{"  You play    USA", "You do: your turn.", "What you may send now", "    ROLL\n    ADD 2",
					"USA    |            |  0  <- you", "pbem verify g1"}},
			{to: "south", tmpl: "welcome", subject: "[pbem g1] welcome: you play CSA", board: true,
				has:    []string{"  You play    CSA", "USA (Anna): your turn.", `You will get a "your move" mail`, "CSA    |            |  0  <- you"},
				hasNot: []string{"What you may send now", "    ROLL"}},
			{to: "umpire", tmpl: "welcome", subject: "[pbem g1] welcome: you referee", board: true,
				has: []string{"  You         referee", "(referee's view)", "  Referees    Carol"}},
		})
		g, err := play.Load(s.st, s.reg, game, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range welcome {
			if !strings.Contains(m.m.Body, g.Created.SeedCommitment.Hex()) {
				t.Errorf("welcome to %v lacks the seed commitment", m.m.To)
			}
		}
	})

	steps := []struct {
		name    string
		who     string
		referee bool
		text    string
		want    []wantMail
	}{
		{"accepted order: a report to all, your move to who acts next", "north", false, "ROLL", []wantMail{
			{to: "north", tmpl: "report", subject: "[pbem g1] report", answers: true, board: true,
				has: []string{"Your orders, received Wed 1 Jul 1863 15:00 UTC, were accepted.", "    ROLL", "USA adds ",
					"  roll  die  result  for\n  #0    d6 ", "race step", "CSA (Taro): your turn.", "<- you"}},
			{to: "south", tmpl: "yourmove", subject: "[pbem g1] your move", board: true,
				has: []string{"It is your move in game g1 (you play CSA): your turn.", "Anna (USA) sent orders", "USA adds",
					"    ROLL\n    ADD 2", "CSA    |            |  0  <- you"}},
			{to: "umpire", tmpl: "report", subject: "[pbem g1] report", board: true, has: []string{"(referee's view)", "Anna (USA) sent orders"}},
		}},
		{"rejected: only to the sender, caret under the column", "south", false, "\nADD 9", []wantMail{
			{to: "south", tmpl: "rejected", subject: "[pbem g1] order rejected", answers: true,
				has: []string{"Nothing of it was applied", "Line 2, column 5:\n\n    ADD 9\n        ^\n    ADD takes 1, 2 or 3\n    try: ADD 2",
					"It is still your move: your turn.", "    ROLL\n    ADD 2"}},
		}},
		{"out of turn: rejected to the sender alone", "north", false, "ADD 1", []wantMail{
			{to: "north", tmpl: "rejected", subject: "[pbem g1] order rejected", answers: true,
				has: []string{"    it is CSA's turn"}, hasNot: []string{"What you may send now"}},
		}},
		{"HELP is answered only to the sender", "north", false, "help", []wantMail{
			{to: "north", tmpl: "help", subject: "[pbem g1] help", answers: true,
				has: []string{"CSA (Taro): your turn.", "How to write orders"}},
		}},
		{"BOARD FULL: the whole map attached", "south", false, "board full", []wantMail{
			{to: "south", tmpl: "board", subject: "[pbem g1] board (whole map)", answers: true, board: true,
				has: []string{"The whole map of game g1, as CSA sees it", "<- you"}},
		}},
		{"BOARD from a referee", "umpire", true, "BOARD", []wantMail{
			{to: "umpire", tmpl: "board", subject: "[pbem g1] board", answers: true, board: true, has: []string{"as the referee sees it", "(referee's view)"}},
		}},
		{"a step for the referee: a referee notice", "south", false, "DISPUTE", []wantMail{
			{to: "north", tmpl: "report", subject: "[pbem g1] report", board: true, has: []string{"The referee (Carol): rule on CSA's dispute."}},
			{to: "south", tmpl: "report", subject: "[pbem g1] report", answers: true, board: true, has: []string{"CSA disputes the last move; the referee will rule."}},
			{to: "umpire", tmpl: "referee", subject: "[pbem g1] referee: ruling needed", board: true,
				has: []string{"The rules hand a step of game g1 to you, the referee: rule on CSA's\ndispute.", "Your ruling", "    RULE CSA 1"}},
		}},
		{"STATUS from the referee", "umpire", true, "status", []wantMail{
			{to: "umpire", tmpl: "status", subject: "[pbem g1] status", answers: true,
				has: []string{"  You (referee): rule on CSA's dispute.", "  CSA       Taro", "  referee   Carol"}},
		}},
		{"a referee's ruling", "umpire", true, "RULE CSA 3", []wantMail{
			{to: "north", tmpl: "report", subject: "[pbem g1] report", board: true, has: []string{"Carol (referee) ruled", "The referee rules: CSA gets 3."}},
			{to: "south", tmpl: "yourmove", subject: "[pbem g1] your move", board: true, has: []string{"Carol (referee) ruled", "CSA    |###         |  3  <- you"}},
			{to: "umpire", tmpl: "referee", subject: "[pbem g1] referee: ruling applied", answers: true, board: true,
				has: []string{"A referee's ruling was applied", "Your ruling, received", "pbem read it as:\n\n    RULE: CSA gets 3"}},
		}},
		{"a referee's bad ruling is rejected to the referee", "umpire", true, "RULE CSA 7", []wantMail{
			{to: "umpire", tmpl: "rejected", subject: "[pbem g1] ruling rejected", answers: true,
				has: []string{"Your ruling, received", "    RULE CSA 7\n             ^\n    a ruling adds 0 to 3\n    try: RULE CSA 1"}},
		}},
		{"an override is announced to everyone, with what changed and who changed it", "umpire", true, "OBSERVER ADD kim@example.org", []wantMail{
			{to: "north", tmpl: "report", subject: "[pbem g1] the referee changed the game", board: true,
				has: []string{"Carol (referee) changed the game", "OBSERVER added kim@example.org", "kim@example.org now follows the game as an observer."}},
			{to: "south", tmpl: "yourmove", subject: "[pbem g1] the referee changed the game; your move", board: true,
				has: []string{"Carol (referee) changed the game", "OBSERVER added kim@example.org", "    ROLL"}},
			{to: "umpire", tmpl: "referee", subject: "[pbem g1] referee: ruling applied", answers: true, board: true, has: []string{"Your ruling"}},
			{to: "observer:kim@example.org", tmpl: "report", subject: "[pbem g1] the referee changed the game", board: true,
				has: []string{"Observer,", "You observe game g1", "OBSERVER added kim@example.org"}},
		}},
		{"an announcement goes to everyone as it was written", "umpire", true, "ANNOUNCE The next turn starts Monday.\nBring your maps.", []wantMail{
			{to: "north", tmpl: "announce", subject: "[pbem g1] announcement from the referee", has: []string{"Carol (referee) announces, in game g1:", "    The next turn starts Monday.\n    Bring your maps."}},
			{to: "south", tmpl: "announce", subject: "[pbem g1] announcement from the referee", has: []string{"    Bring your maps.", "Your move", "    ROLL"}},
			{to: "umpire", tmpl: "announce", subject: "[pbem g1] announcement from the referee", answers: true, has: []string{"Bring your maps."}},
			{to: "observer:kim@example.org", tmpl: "announce", subject: "[pbem g1] announcement from the referee", has: []string{"Bring your maps."}},
		}},
		{"overrides made silent: the setting itself is still announced", "umpire", true, "SETTING overrides silent", []wantMail{
			{to: "north", tmpl: "report", subject: "[pbem g1] the referee changed the game", board: true, has: []string{"SETTING overrides silent (was not set)"}},
			{to: "south", tmpl: "yourmove", subject: "[pbem g1] the referee changed the game; your move", board: true},
			{to: "umpire", tmpl: "referee", subject: "[pbem g1] referee: ruling applied", answers: true, board: true},
			{to: "observer:kim@example.org", tmpl: "report", subject: "[pbem g1] the referee changed the game", board: true},
		}},
		{"a silent override: only who must move hears, and not what changed", "umpire", true, "OBSERVER REMOVE kim@example.org", []wantMail{
			{to: "south", tmpl: "yourmove", subject: "[pbem g1] your move", board: true,
				has: []string{"The game has changed since your last mail"}, hasNot: []string{"OBSERVER", "Carol"}},
			{to: "umpire", tmpl: "referee", subject: "[pbem g1] referee: ruling applied", answers: true, board: true, has: []string{"OBSERVER removed kim@example.org"}},
		}},
	}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			in, evs := s.send(step.who, step.referee, step.text)
			checkMails(t, mailsIn(t, evs), "<"+in.Key+">", step.want)
		})
	}

	// Play on to the end: CSA reaches 12 first.
	for _, o := range []struct{ who, text string }{{"south", "ADD 3"}, {"north", "ADD 2"}, {"south", "ADD 3"}, {"north", "ADD 2"}} {
		if _, evs := s.send(o.who, false, o.text); len(mailsIn(t, evs)) != 3 {
			t.Fatalf("%s %s: %d mails", o.who, o.text, len(mailsIn(t, evs)))
		}
	}
	t.Run("game over to everyone, with the seed, instead of the report", func(t *testing.T) {
		in, evs := s.send("south", false, "ADD 3")
		seed, err := s.st.Secret(game)
		if err != nil {
			t.Fatal(err)
		}
		h := hex.EncodeToString(seed)
		common := []string{"Game g1 is over", "CSA reached the target.", "    " + h, "    pbem verify g1", "rolled in this game", "The final board", "CSA adds 3."}
		checkMails(t, mailsIn(t, evs), "<"+in.Key+">", []wantMail{
			{to: "north", tmpl: "gameover", subject: "[pbem g1] game over: CSA wins", board: true, has: append([]string{"CSA (Taro) won."}, common...)},
			{to: "south", tmpl: "gameover", subject: "[pbem g1] game over: CSA wins", answers: true, board: true, has: append([]string{"you won.", "Your orders"}, common...)},
			{to: "umpire", tmpl: "gameover", subject: "[pbem g1] game over: CSA wins", board: true, has: append([]string{"(referee's view)"}, common...)},
		})
		if last := evs[len(evs)-1]; last.Type != events.TypeGameEnded {
			t.Fatalf("the log should end with game.ended after the mails, not %s", last.Type)
		}
	})
	t.Run("after the end: STATUS says so, orders are rejected", func(t *testing.T) {
		in, evs := s.send("north", false, "STATUS")
		checkMails(t, mailsIn(t, evs), "<"+in.Key+">", []wantMail{{to: "north", tmpl: "status", subject: "[pbem g1] status", answers: true,
			has: []string{"The game is over: CSA (Taro) won: CSA reached the target."}, hasNot: []string{"Who acts now"}}})
		in, evs = s.send("north", false, "ADD 1")
		checkMails(t, mailsIn(t, evs), "<"+in.Key+">", []wantMail{{to: "north", tmpl: "rejected", subject: "[pbem g1] order rejected", answers: true,
			has: []string{"the game is over: CSA reached the target"}, hasNot: []string{"still your move"}}})
	})

	t.Run("mail ids are unique, and replaying the log renders every mail again byte for byte", func(t *testing.T) {
		log := mustEvents(t, s.st, 1)
		seen := map[string]uint64{}
		for _, m := range mailsIn(t, log) {
			if prev, dup := seen[m.m.MailID]; dup {
				t.Errorf("MailID %s at seq %d and %d", m.m.MailID, prev, m.seq)
			}
			seen[m.m.MailID] = m.seq
		}
		for round := 0; round < 2; round++ {
			again := rerender(t, newComposer(t), s.st, s.reg, log)
			if !bytes.Equal(again, storedMails(log)) {
				t.Fatalf("round %d: re-rendered mails differ from the stored ones", round)
			}
		}
	})
}

func mustEvents(t testing.TB, st *store.Store, from uint64) []events.Envelope {
	t.Helper()
	evs, err := st.Events(game, from)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

func checkMails(t *testing.T, got []sent, orderID string, want []wantMail) {
	t.Helper()
	if len(got) != len(want) {
		var to []string
		for _, g := range got {
			to = append(to, fmt.Sprint(g.m.To, g.m.Template))
		}
		t.Fatalf("%d mails %v, want %d", len(got), to, len(want))
	}
	for i, w := range want {
		g := got[i]
		irt := ""
		if w.answers {
			irt = orderID
		}
		checkMail(t, g, w.to, irt)
		// What the mail is stands on its first line; the subject is the
		// game's (checkMail).
		kind, _, _ := strings.Cut(g.m.Body, "\n")
		wantKind := strings.TrimPrefix(w.subject, token.SubjectTag(game)+" ")
		wantKind = strings.ToUpper(wantKind[:1]) + wantKind[1:]
		if g.m.Template != w.tmpl || kind != wantKind {
			t.Errorf("mail %d to %s: template %s, first line %q, want %s %q", i, w.to, g.m.Template, kind, w.tmpl, wantKind)
		}
		if hasBoard := boardHeading.MatchString(g.m.Body) || g.m.Template == templates.NameBoard; hasBoard != w.board {
			t.Errorf("mail %d to %s: attachments %v, want board %v", i, w.to, g.m.Attachments, w.board)
		}
		for _, h := range w.has {
			if !strings.Contains(g.m.Body, h) && !strings.Contains(squeeze(g.m.Body), h) {
				t.Errorf("mail %d (%s to %s) lacks %q:\n%s", i, w.tmpl, w.to, h, g.m.Body)
			}
		}
		for _, h := range w.hasNot {
			if strings.Contains(g.m.Body, h) {
				t.Errorf("mail %d (%s to %s) has %q:\n%s", i, w.tmpl, w.to, h, g.m.Body)
			}
		}
	}
}

// squeeze joins a body's lines, so that a phrase wrapped across lines
// is still found.
func squeeze(s string) string { return strings.Join(strings.Fields(s), " ") }

// storedMails is the canonical bytes of every mail in the log, in order.
// boardHeading is the heading above the reader's board in a mail.
var boardHeading = regexp.MustCompile(`board\n-+\n`)

func storedMails(log []events.Envelope) []byte {
	var b []byte
	for i := range log {
		if log[i].Type == events.TypeMailQueued || log[i].Type == events.TypeMailHeld {
			b = append(b, log[i].Payload...)
		}
	}
	return b
}

// rerender derives every mail of the log again from the log alone: the
// welcome from the game as created, and each decision's mails from the
// game folded up to just before it.
func rerender(t *testing.T, c *compose.Composer, st *store.Store, reg *engine.Registry, log []events.Envelope) []byte {
	t.Helper()
	var b []byte
	add := func(ps []events.Payload) {
		for _, p := range ps {
			b = append(b, events.EncodePayload(p)...)
		}
	}
	g, err := play.Replay(st, reg, game, 1)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := c.Welcome(g)
	if err != nil {
		t.Fatal(err)
	}
	add(ps)
	for i := range log {
		e := &log[i]
		if e.Type != events.TypeOrderAccepted && e.Type != events.TypeOrderRejected {
			continue
		}
		g, err := play.Load(st, reg, game, e.Seq-1)
		if err != nil {
			t.Fatal(err)
		}
		dec, err := events.Decode(e)
		if err != nil {
			t.Fatal(err)
		}
		next, err := play.Load(st, reg, game, e.Seq) // the game once the decision is folded
		if err != nil {
			t.Fatal(err)
		}
		after := next.State
		var ended *events.GameEnded
		for j := i + 1; j < len(log) && log[j].Type != events.TypeOrderAccepted && log[j].Type != events.TypeOrderRejected; j++ {
			if log[j].Type == events.TypeGameEnded {
				p, _ := events.Decode(&log[j])
				ended = p.(*events.GameEnded)
			}
		}
		ps, err := c.Mails(g, after, &g.Pending[0], dec, ended)
		if err != nil {
			t.Fatal(err)
		}
		add(ps)
	}
	return b
}

// inMemory plays a script exactly as play.Runner decides, without a
// store and with a fixed seed and clock, so its mails can be golden.
type inMemory struct {
	t    *testing.T
	c    *compose.Composer
	reg  *engine.Registry
	g    *play.Game
	seed []byte
	log  []events.Envelope
	at   time.Time
	n    int
}

func newInMemory(t *testing.T, c *compose.Composer) *inMemory {
	return newInMemoryVolume(t, c, play.VolumeEvery)
}

// newInMemoryVolume is newInMemory with every reader's mail volume set to
// volume ("" for the default).
func newInMemoryVolume(t *testing.T, c *compose.Composer, volume string) *inMemory {
	return newInMemoryScenario(t, c, volume, "target 12")
}

// newInMemoryScenario is newInMemoryVolume on a race scenario of its own.
func newInMemoryScenario(t *testing.T, c *compose.Composer, volume, scenario string) *inMemory {
	seed := sha256.Sum256([]byte("a fixed seed for golden files"))
	m := &inMemory{t: t, c: c, reg: raceRegistry(), g: &play.Game{ID: game}, seed: seed[:], at: start}
	var settings []events.Setting
	if volume != "" {
		settings = []events.Setting{{Key: play.SettingMail, Value: volume}}
	}
	m.append(events.New(game, start, "create:"+game, &events.GameCreated{Ruleset: "race", RulesetVersion: "test-1",
		ScenarioName: "twelve", Scenario: []byte(scenario), Players: racePlayers, Referees: raceReferees,
		SeedCommitment: play.Commit(seed[:]), Settings: settings}))
	mails, err := c.Welcome(m.g)
	if err != nil {
		t.Fatal(err)
	}
	m.appendPayloads(start, mails...)
	return m
}

func (m *inMemory) append(evs ...events.Envelope) {
	for _, e := range evs {
		e.Chain(m.g.Seq+1, m.g.Hash)
		if err := m.g.Apply(m.reg, &e); err != nil {
			m.t.Fatal(err)
		}
		m.log = append(m.log, e)
	}
}

func (m *inMemory) appendPayloads(at time.Time, ps ...events.Payload) {
	for _, p := range ps {
		m.append(events.New(game, at, "", p))
	}
}

func (m *inMemory) send(who string, referee bool, text string) {
	m.n++
	m.at = m.at.Add(26 * time.Hour)
	id := fmt.Sprintf("order-%d@mail.example.org", m.n)
	// The player answers the latest mail, whose References start at the
	// player's welcome.
	var p events.Payload = &events.OrderReceived{Player: who, Text: text, MessageID: id, Source: "mail",
		References: m.lastMailTo(who).References}
	if last := m.lastMailTo(who); last.MailID != "" {
		p.(*events.OrderReceived).References = append(slices.Clone(last.References), last.MailID)
	}
	if referee {
		p = &events.RefereeCommand{Referee: who, Text: text, MessageID: id, Source: "mail"}
	}
	m.append(events.New(game, m.at, id, p))
	in := m.g.Pending[0]
	stream := play.NewStream(m.seed, game, m.g.Rolls)
	dec, after, out, err := m.g.DecideNext(m.reg, stream, func() []events.Die { return stream.Rolled })
	if err != nil {
		m.t.Fatal(err)
	}
	var ended *events.GameEnded
	if out.Over && m.g.Ended == nil {
		ended = &events.GameEnded{Reason: out.Reason, Winner: out.Winner, Seed: m.seed}
	}
	mails, err := m.c.Mails(m.g, after, &in, dec, ended)
	if err != nil {
		m.t.Fatal(err)
	}
	m.appendPayloads(m.at, dec)
	m.appendPayloads(m.at, mails...)
	if ended != nil {
		m.appendPayloads(m.at, ended)
	}
}

// lastMailTo is the newest mail to participant id in the log: the one a
// player answers.
func (m *inMemory) lastMailTo(id string) events.MailQueued {
	for i := len(m.log) - 1; i >= 0; i-- {
		if m.log[i].Type != events.TypeMailQueued {
			continue
		}
		p, err := events.Decode(&m.log[i])
		if err != nil {
			m.t.Fatal(err)
		}
		q := p.(*events.MailQueued)
		if tok, ok := token.ParseAddress(q.ReplyTo, cfg.Local, cfg.Domain); ok && tok.Player == id {
			return *q
		}
	}
	return events.MailQueued{}
}

// shortGame is the scripted game whose every mail is kept golden.
func shortGame(t *testing.T) *inMemory {
	return shortGameVolume(t, play.VolumeEvery)
}

// shortGameVolume is the short game with every reader's mail volume set
// to volume ("" for the default).
func shortGameVolume(t *testing.T, volume string) *inMemory {
	m := newInMemoryVolume(t, newComposer(t), volume)
	m.send("north", false, "ROLL")
	m.send("south", false, "ADD 9")
	m.send("south", false, "HELP")
	m.send("south", false, "DISPUTE")
	m.send("umpire", true, "RULE CSA 2")
	m.send("south", false, "ADD 3")
	m.send("north", false, "BOARD")
	m.send("north", false, "ADD 3")
	m.send("south", false, "STATUS")
	m.send("south", false, "ROLL")
	m.send("north", false, "ROLL") // USA reaches 12: game over
	if m.g.Ended == nil {
		t.Fatal("the short game should have ended; adjust the script")
	}
	m.send("south", false, "STATUS")
	m.send("south", false, "ROLL") // after the end: rejected
	return m
}

// transcript prints every mail of a log as a reader's mail client would
// show it, headers first; a drawn board (not in the log) as the size and
// hash of its PNG, drawn from the game loaded at the mail's decision.
func transcript(log []events.Envelope) (string, error) {
	var b strings.Builder
	for i := range log {
		e := &log[i]
		if e.Type == events.TypeMailHeld {
			p, err := events.Decode(e)
			if err != nil {
				return "", err
			}
			h := p.(*events.MailHeld)
			if h.Told != "" {
				fmt.Fprintf(&b, "######## seq %d: %s for %s: told in %s\n\n", e.Seq, e.Type, h.Reader, h.Told)
			} else {
				fmt.Fprintf(&b, "######## seq %d: %s for %s (%s, board changed %v)\n%s\n", e.Seq, e.Type, h.Reader, h.Kind, h.Board, h.Text)
			}
			continue
		}
		if e.Type != events.TypeMailQueued {
			fmt.Fprintf(&b, "######## seq %d: %s\n\n", e.Seq, e.Type)
			continue
		}
		p, err := events.Decode(e)
		if err != nil {
			return "", err
		}
		m := p.(*events.MailQueued)
		fmt.Fprintf(&b, "======== seq %d: mail.queued (%s)\n", e.Seq, m.Template)
		fmt.Fprintf(&b, "Message-ID: %s\nTo: %s\nReply-To: %s\nSubject: %s\nIn-Reply-To: %s\nReferences: %s\n\n",
			m.MailID, strings.Join(m.To, ", "), m.ReplyTo, m.Subject, m.InReplyTo, strings.Join(m.References, " "))
		b.WriteString(m.Body)
		for _, a := range m.Attachments {
			fmt.Fprintf(&b, "\n-------- attachment %s\n%s", a.Name, a.Body)
			if compose.IsDrawn(a) {
				p, err := loadedPNG(log, e.Seq, a)
				if err != nil {
					return "", err
				}
				fmt.Fprintf(&b, "\n(drawn when sent: %s)", pngSummary(p))
			}
		}
		b.WriteString("\n")
	}
	return b.String(), nil
}

func TestGoldenShortGame(t *testing.T) {
	m := shortGame(t)
	got, err := transcript(m.log)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := transcript(shortGame(t).log); again != got {
		t.Fatal("playing the same script twice gave different mails")
	}
	golden.CheckString(t, "short-game.golden", got)
	// The threading headers alone, one thread per reader.
	var threads strings.Builder
	for _, s := range mailsIn(t, m.log) {
		kind, _, _ := strings.Cut(s.m.Body, "\n")
		fmt.Fprintf(&threads, "seq %d to %s: %s | %s\n  Message-ID:  %s\n  In-Reply-To: %s\n  References:  %s\n",
			s.seq, strings.Join(s.m.To, ", "), s.m.Subject, kind, s.m.MailID, s.m.InReplyTo, strings.Join(s.m.References, " "))
	}
	golden.CheckString(t, "short-game-threads.golden", threads.String())
	// Every mail of the golden game meets the rules for every mail.
	for _, s := range mailsIn(t, m.log) {
		tok, _ := token.ParseAddress(s.m.ReplyTo, cfg.Local, cfg.Domain)
		irt := ""
		if strings.HasPrefix(s.m.InReplyTo, "<order-") {
			irt = s.m.InReplyTo
		}
		checkMail(t, s, tok.Player, irt)
	}
}

func TestMailsEdgeCases(t *testing.T) {
	c := newComposer(t)
	m := newInMemory(t, c)
	due := time.Date(1863, 7, 3, 9, 0, 0, 0, time.UTC).UnixNano()
	m.appendPayloads(start, &events.DeadlineSet{Player: "south", Due: due, Default: "referee"},
		&events.DeadlineSet{Player: "north", Due: due, Default: "PASS"})
	g := m.g
	input := func(p events.Payload) *events.Envelope {
		e := events.New(game, start.Add(time.Hour), "", p)
		e.Chain(g.Seq+1, g.Hash)
		return &e
	}
	tests := []struct {
		name     string
		input    *events.Envelope
		decision events.Payload
		wantTo   []string
		wantTmpl []string
		has      []string // in the first mail
		hasNot   []string // nowhere in the first mail
		refs     []string // the first mail's References
		wantErr  string
	}{
		{name: "an order from someone the game does not know: nobody to tell",
			input:    input(&events.OrderReceived{Player: "stranger", Text: "ROLL"}),
			decision: &events.OrderRejected{Player: "stranger", Problems: []events.Problem{{Line: 1, Col: 1, Msg: `"stranger" plays no side in this game`}}}},
		{name: "the runner's internal-error rejection names no player: the input does; the referee is told",
			input:    input(&events.OrderReceived{Player: "north", Text: "ROLL", MessageID: "<x@y>"}),
			decision: &events.OrderRejected{Problems: []events.Problem{{Line: 1, Col: 1, Msg: "pbem could not decide this order"}}},
			wantTo:   []string{"north", "umpire"}, wantTmpl: []string{"rejected", "notice"}},
		{name: "a deadline passed, waiting for the referee: reports, and a referee notice",
			input:    input(&events.DeadlinePassed{Player: "north", Default: "referee"}),
			decision: &events.OrderAccepted{Player: "north", Echo: []string{"deadline passed: waiting for the referee"}},
			wantTo:   []string{"north", "south", "umpire"}, wantTmpl: []string{"yourmove", "report", "referee"},
			has: []string{"Your deadline passed without orders from you: they were due Wed 1 Jul 1863 09:00 UTC."}},
		{name: "a deadline passed: the mail gives the time it was due, not the time pbem noticed",
			input:    input(&events.DeadlinePassed{Player: "north", Default: "referee", Due: time.Date(1863, 7, 1, 8, 30, 0, 0, time.UTC).UnixNano()}),
			decision: &events.OrderAccepted{Player: "north", Echo: []string{"deadline passed: waiting for the referee"}},
			wantTo:   []string{"north", "south", "umpire"}, wantTmpl: []string{"yourmove", "report", "referee"},
			has: []string{"Your deadline passed without orders from you: they were due Wed 1 Jul 1863 08:30 UTC."}},
		{name: "a deadline passed with a default order",
			input:    input(&events.DeadlinePassed{Player: "north", Default: "ADD 1"}),
			decision: &events.OrderAccepted{Player: "north", Echo: []string{"ADD 1"}, Facts: []events.Fact{events.NewFact("score.added", events.S("side", "USA"), events.I("n", 1))}},
			wantTo:   []string{"north", "south", "umpire"}, wantTmpl: []string{"report", "yourmove", "referee"},
			has: []string{"The default order was applied: ADD 1", "USA adds 1."}},
		{name: "a deadline passed whose default was not applied: the mail does not say it was",
			input: input(&events.DeadlinePassed{Player: "north", Default: "ADD 1"}),
			decision: &events.OrderAccepted{Player: "north", Echo: []string{"the deadline no longer applies (orders came, or the referee changed it): nothing applied"},
				Facts: []events.Fact{events.NewFact(play.FactDeadline, events.S("player", "north"), events.I("due", 0), events.S("default", ""))}},
			wantTo: []string{"north", "south", "umpire"}, wantTmpl: []string{"yourmove", "report", "referee"},
			has:    []string{"Your deadline passed without orders from you", "nothing applied"},
			hasNot: []string{"The default order was applied"}},
		{name: "STATUS lists the deadlines",
			input:    input(&events.OrderReceived{Player: "south", Text: "STATUS"}),
			decision: &events.OrderAccepted{Player: "south", Echo: []string{"STATUS"}},
			wantTo:   []string{"south"}, wantTmpl: []string{"status"},
			has: []string{"  Anna (USA): by Fri 3 Jul 1863 09:00 UTC; if missed: PASS\n",
				"Taro (CSA): by Fri 3 Jul 1863 09:00 UTC; if missed: the referee decides", "  USA (Anna): your turn."}},
		{name: "not a decision", input: input(&events.OrderReceived{Player: "north"}), decision: &events.MailSent{}, wantErr: "not a decision"},
		{name: "a reply carries the parent's References, the root first",
			input: input(&events.OrderReceived{Player: "south", Text: "STATUS", MessageID: "<c@x>",
				References: []string{"<a@x>", welcomeID("south"), "<b@x>"}}),
			decision: &events.OrderAccepted{Player: "south", Echo: []string{"STATUS"}},
			wantTo:   []string{"south"}, wantTmpl: []string{"status"},
			refs: []string{welcomeID("south"), "<a@x>", "<b@x>", "<c@x>"}},
		{name: "not an input", input: input(&events.MailSent{}), decision: &events.OrderAccepted{}, wantErr: "not an input"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			after := g.State
			if acc, ok := tc.decision.(*events.OrderAccepted); ok {
				for _, f := range acc.Facts {
					if f.Kind == play.FactDeadline {
						continue // the game's own, not the rules'
					}
					var err error
					if after, err = g.Rules.Evolve(after, f); err != nil {
						t.Fatal(err)
					}
				}
			}
			ps, err := c.Mails(g, after, tc.input, tc.decision, nil)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("want error %q, got %v", tc.wantErr, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var to, tmpl []string
			for i, p := range ps {
				q, ok := p.(*events.MailQueued)
				if !ok {
					continue
				}
				tok, _ := token.ParseAddress(q.ReplyTo, cfg.Local, cfg.Domain)
				to, tmpl = append(to, tok.Player), append(tmpl, q.Template)
				if want := fmt.Sprintf("<%s.%d@%s>", game, g.Seq+2+uint64(i), cfg.Domain); q.MailID != want {
					t.Errorf("MailID %s, want %s", q.MailID, want)
				}
			}
			if !reflect.DeepEqual(to, tc.wantTo) || !reflect.DeepEqual(tmpl, tc.wantTmpl) {
				t.Fatalf("mails to %v (%v), want %v (%v)", to, tmpl, tc.wantTo, tc.wantTmpl)
			}
			if tc.refs != nil && !reflect.DeepEqual(ps[0].(*events.MailQueued).References, tc.refs) {
				t.Errorf("References %v, want %v", ps[0].(*events.MailQueued).References, tc.refs)
			}
			for _, h := range tc.has {
				if body := ps[0].(*events.MailQueued).Body; !strings.Contains(body, h) && !strings.Contains(squeeze(body), h) {
					t.Errorf("first mail lacks %q:\n%s", h, body)
				}
			}
			for _, h := range tc.hasNot {
				if body := ps[0].(*events.MailQueued).Body; strings.Contains(squeeze(body), h) {
					t.Errorf("first mail has %q:\n%s", h, body)
				}
			}
		})
	}
}

// A "your move" mail says when the answer is due and what happens
// without it (a player asked mid-action, such as a cavalry's
// owner, learns the deadline and the game's default order): the deadline
// the decision sets, else the one running.
func TestYourMoveSaysTheDeadlineAndTheDefault(t *testing.T) {
	c := newComposer(t)
	m := newInMemory(t, c)
	g := m.g
	due := time.Date(1863, 7, 4, 9, 0, 0, 0, time.UTC).UnixNano()
	e := events.New(game, start.Add(time.Hour), "", &events.OrderReceived{Player: "north", Text: "ADD 1"})
	e.Chain(g.Seq+1, g.Hash)
	for _, tc := range []struct {
		name, dflt string
		want       string
	}{
		{"a default order", "PASS", "Answer by Sat 4 Jul 1863 09:00 UTC. If no orders come from you by then, this order is applied for you: PASS."},
		{"the referee decides", "referee", "Answer by Sat 4 Jul 1863 09:00 UTC. If no orders come from you by then, the referee decides."},
		{"no deadline", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &events.OrderAccepted{Player: "north", Echo: []string{"ADD 1"}, Facts: []events.Fact{events.NewFact("score.added", events.S("side", "USA"), events.I("n", 1))}}
			if tc.dflt != "" {
				d.Facts = append(d.Facts, events.NewFact(play.FactDeadline, events.S("player", "south"), events.I("due", due), events.S("default", tc.dflt)))
			}
			after, err := g.Rules.Evolve(g.State, d.Facts[0])
			if err != nil {
				t.Fatal(err)
			}
			ps, err := c.Mails(g, after, &e, d, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range ps {
				q := p.(*events.MailQueued)
				if q.Template != "yourmove" {
					continue
				}
				if tc.want == "" && strings.Contains(q.Body, "Answer by") || tc.want != "" && !strings.Contains(squeeze(q.Body), tc.want) {
					t.Errorf("your move mail, want %q:\n%s", tc.want, q.Body)
				}
				return
			}
			t.Fatal("no your move mail")
		})
	}
}

// A rejection lists its problems in line order, the
// first ten, then how many more (a whole quoted mail read as orders once
// gave a 472-line rejection out of order).
func TestRejectionListsProblemsInLineOrderAndCapped(t *testing.T) {
	c := newComposer(t)
	m := newInMemory(t, c)
	var probs []events.Problem
	for _, line := range []int{9, 3, 15, 1, 12, 7, 2, 14, 4, 11, 5, 13, 6, 10, 8} {
		probs = append(probs, events.Problem{Line: line, Col: 1, Text: fmt.Sprintf("word%d", line), Msg: fmt.Sprintf("line %d is not an order", line)})
	}
	in := events.New(game, start, "", &events.OrderReceived{Player: "north", Text: "x", MessageID: "<x@y>"})
	in.Chain(m.g.Seq+1, m.g.Hash)
	ps, err := c.Mails(m.g, m.g.State, &in, &events.OrderRejected{Player: "north", Problems: probs}, nil)
	if err != nil {
		t.Fatal(err)
	}
	body := ps[0].(*events.MailQueued).Body
	last := 0
	for line := 1; line <= 10; line++ {
		i := strings.Index(body, fmt.Sprintf("Line %d, column 1:", line))
		if i < last {
			t.Fatalf("line %d is missing or out of order:\n%s", line, body)
		}
		last = i
	}
	if strings.Contains(body, "Line 11,") || !strings.Contains(squeeze(body), "… and 5 more problems, not listed") {
		t.Fatalf("not capped at ten:\n%s", body)
	}
}

// A notice goes to the addresses the intake names, in the
// player's thread, under the game's one subject, its kind first.
func TestNoticeIsInThePlayersThread(t *testing.T) {
	c := newComposer(t)
	m := newInMemory(t, c)
	q, err := c.Notice(m.g, compose.Notice{Player: "south", To: []string{"taro@example.jp"}, Title: "A copy of an earlier mail",
		What: "pbem received a copy.", Do: "Write a new mail.", InReplyTo: "copy@x", References: []string{welcomeID("south"), "<g1.9@pbem.localhost>"}}, 42)
	if err != nil {
		t.Fatal(err)
	}
	wantRefs := []string{welcomeID("south"), "<g1.9@pbem.localhost>", "<copy@x>"}
	if q.MailID != "<g1.42@pbem.localhost>" || !reflect.DeepEqual(q.To, []string{"taro@example.jp"}) || q.Subject != "[pbem g1] Twelve" ||
		!strings.HasPrefix(q.Body, "A copy of an earlier mail\n\nTaro,\n") || q.InReplyTo != "<copy@x>" || !reflect.DeepEqual(q.References, wantRefs) {
		t.Fatalf("notice: %+v", q)
	}
	if _, err := c.Notice(m.g, compose.Notice{Player: "nobody"}, 43); err == nil {
		t.Fatal("a notice to no player")
	}
}
