package compose_test

import (
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
	"pbem/mail/compose"
	"pbem/mail/token"
	"pbem/store"
	"pbem/templates"
)

// The mails of referee and player commands, by the composer: deadlines in
// people's time, seats that change hands, an answer to every mail,
// messages, LOG and GAMES.

// deskServer is a game with deadlines, whose composer reads the game's
// own log for LOG and lists a desk for GAMES.
func deskServer(t *testing.T, settings ...events.Setting) (*server, *compose.Composer) {
	t.Helper()
	return deskServerWith(t, cfg, settings...)
}

// deskServerWith is deskServer with the composer configured by cc.
func deskServerWith(t *testing.T, cc compose.Config, settings ...events.Setting) (*server, *compose.Composer) {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "pbem.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	set, err := templates.Load("")
	if err != nil {
		t.Fatal(err)
	}
	cc.Log = func(game string, v engine.Viewer, upTo uint64, n int) ([]string, error) {
		return play.RecentActions(st, raceRegistry(), game, v, upTo, n)
	}
	cc.Desk = func(addrs []string, now int64) ([]templates.DeskGame, error) {
		return []templates.DeskGame{{Game: "g1", What: strings.Join(addrs, ","), State: time.Unix(0, now).UTC().Format(time.RFC3339)}}, nil
	}
	c := compose.New(cc, set)
	reg := raceRegistry()
	r := play.NewRunner(st, reg, play.RunnerOptions{Notifier: c, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	t.Cleanup(r.Close)
	ng := newGame(c)
	ng.Settings = append(ng.Settings, settings...)
	created, err := play.Create(st, reg, ng)
	if err != nil {
		t.Fatal(err)
	}
	s := &server{t: t, st: st, reg: reg, r: r, at: start}
	r.Deliver(&created)
	s.waitIdle()
	return s, c
}

// input takes in any input and returns the mails its decision queued.
func (s *server) input(p events.Payload) []sent {
	s.t.Helper()
	s.n++
	s.at = s.at.Add(time.Hour)
	h, _ := s.st.Head(game)
	res, err := s.st.Append(game, h.Seq, events.New(game, s.at, fmt.Sprintf("in-%d", s.n), p))
	if err != nil {
		s.t.Fatal(err)
	}
	s.r.Deliver(&res.Events[0])
	s.waitIdle()
	return mailsIn(s.t, mustEvents(s.t, s.st, res.Last+1))
}

// to lists each mail's first address and template.
func to(ms []sent) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.m.To[0]+" "+m.m.Template)
	}
	return out
}

func bodyTo(t *testing.T, ms []sent, addr string) *events.MailQueued {
	t.Helper()
	for _, m := range ms {
		if m.m.To[0] == addr {
			return m.m
		}
	}
	t.Fatalf("no mail to %s among %v", addr, to(ms))
	return nil
}

func wantIn(t *testing.T, body string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(squeeze(body), w) {
			t.Errorf("lacks %q:\n%s", w, body)
		}
	}
}

func TestYourMoveAndWelcomeStateTheDeadlineInThePlayersTime(t *testing.T) {
	s, _ := deskServer(t, events.Setting{Key: "deadline", Value: "2d"}, events.Setting{Key: "at-deadline", Value: "ADD 1"})
	welcome := mailsIn(t, mustEvents(t, s.st, 1))
	// Anna acts first: her welcome states her deadline (2 days from the creation).
	wantIn(t, bodyTo(t, welcome, "anna@example.org").Body, "Your orders are due Fri 3 Jul 1863 08:00 UTC; if none come: ADD 1.")
	s.input(&events.OrderReceived{Player: "south", Text: "TZ Asia/Tokyo"}) // in 1863, Tokyo kept local mean time
	ms := s.input(&events.OrderReceived{Player: "north", Text: "ADD 2"})
	wantIn(t, bodyTo(t, ms, "taro@example.jp").Body, "It is your move", "Answer by Fri 3 Jul 1863 10:00 UTC (19:18 LMT). If no orders come from you by then, this order is applied for you: ADD 1.")
	if strings.Contains(bodyTo(t, ms, "anna@example.org").Body, "Answer by") {
		t.Error("a player not to move is told of a deadline")
	}
}

func TestReplaceWelcomesTheNewPlayerWithANewKeyAndTellsTheOldOne(t *testing.T) {
	s, _ := deskServer(t)
	ms := s.input(&events.RefereeCommand{Referee: "umpire", Text: "REPLACE north WITH bob@example.org NAME Bob", Source: "mail"})
	bob := bodyTo(t, ms, "bob@example.org")
	anna := bodyTo(t, ms, "anna@example.org")
	wantIn(t, bob.Body, "You take over a seat in game g1 from Anna", "You do: your turn.")
	if bob.Template != "welcome" || anna.Template != "replaced" {
		t.Fatalf("templates: %v", to(ms))
	}
	p, ok := token.ParseAddress(bob.ReplyTo, cfg.Local, cfg.Domain)
	if !ok || p.Player != "north" || token.Valid(cfg.Secret, game, "north", p.Token) || !token.ValidAt(cfg.Secret, game, "north", 1, p.Token) {
		t.Fatalf("Bob's Reply-To %s carries the old key", bob.ReplyTo)
	}
	if !strings.Contains(bob.Body, "Key: "+token.MakeAt(cfg.Secret, game, "north", 1)) {
		t.Fatal("Bob's welcome lacks the seat's new key")
	}
	wantIn(t, anna.Body, "Your seat in game g1 (USA) has changed hands: Carol (referee) gave it", "This mail needs no answer.")
	if strings.Contains(anna.Body, "Key:") || anna.ReplyTo != cfg.Local+"@"+cfg.Domain {
		t.Fatalf("the former holder got a key: %s\n%s", anna.ReplyTo, anna.Body)
	}
	// Taro and the referee get the report, Bob no second mail.
	if got := to(ms); !reflect.DeepEqual(got, []string{"taro@example.jp report", "carol@example.net referee", "bob@example.org welcome", "anna@example.org replaced"}) {
		t.Fatalf("mails %v", got)
	}
}

func TestARefereeAddedByThePlayersGetsAWelcomeWithTheSecret(t *testing.T) {
	s, _ := deskServer(t)
	ms := s.input(&events.OrderReceived{Player: "north", Text: "REFEREE ADD dana@example.org NAME Dana"})
	wantIn(t, bodyTo(t, ms, "taro@example.jp").Body, "REFEREE ADD dana@example.org NAME Dana: USA asks")
	ms = s.input(&events.OrderReceived{Player: "south", Text: "REFEREE ADD dana@example.org NAME Dana"})
	dana := bodyTo(t, ms, "dana@example.org")
	wantIn(t, dana.Body, "You join game g1, under way, as its referee", "Secret: "+token.RefereeSecret(cfg.Secret, game, "dana"))
	wantIn(t, bodyTo(t, ms, "anna@example.org").Body, "Dana <dana@example.org> now referees the game.")
	if strings.Contains(bodyTo(t, ms, "anna@example.org").Body, token.RefereeSecret(cfg.Secret, game, "dana")) {
		t.Fatal("a player's mail shows the new referee's secret")
	}
}

func TestMessagesGoOnlyToWhomTheyAreFor(t *testing.T) {
	s, _ := deskServer(t)
	ms := s.input(&events.OrderReceived{Player: "south", Text: "REFEREE Can I cross the ford?\nIt is flooded."})
	if got := to(ms); !reflect.DeepEqual(got, []string{"carol@example.net message", "taro@example.jp report"}) {
		t.Fatalf("mails %v", got)
	}
	wantIn(t, bodyTo(t, ms, "carol@example.net").Body, "Taro (CSA) writes to the referees of game g1:", "Can I cross the ford?", "It is flooded.")
	ms = s.input(&events.RefereeCommand{Referee: "umpire", Text: "MESSAGE south Yes, at half speed.", Source: "mail"})
	if got := to(ms); !reflect.DeepEqual(got, []string{"taro@example.jp message", "carol@example.net report"}) {
		t.Fatalf("mails %v", got)
	}
	wantIn(t, bodyTo(t, ms, "taro@example.jp").Body, "Carol (referee) writes to you", "Yes, at half speed.", "REFEREE <your message>")
}

func TestEveryMailIsAnswered(t *testing.T) {
	s, _ := deskServer(t, events.Setting{Key: "deadline", Value: "1d"})
	// A referee's mail the intake refused: answered to the referee's
	// registered address, nothing applied.
	ms := s.input(&events.RefereeCommand{Referee: "umpire", Text: "ROLLBACK 1 ACTION", Source: "mail", Refused: "it has no Secret line"})
	if got := to(ms); !reflect.DeepEqual(got, []string{"carol@example.net rejected"}) || !strings.HasPrefix(ms[0].m.Body, "Your mail was not applied: it has no Secret line\n") {
		t.Fatalf("mails %v %q", got, ms[0].m.Body)
	}
	wantIn(t, ms[0].m.Body, "was not applied", `Secret: …`)
	// An observer's reply gets a short answer.
	s.input(&events.RefereeCommand{Referee: "umpire", Text: "OBSERVER ADD kim@example.org", Source: "mail"})
	ms = s.input(&events.OrderReceived{Player: play.ObserverPrefix + "kim@example.org", Text: "Go Anna!"})
	if got := to(ms); !reflect.DeepEqual(got, []string{"kim@example.org rejected"}) {
		t.Fatalf("mails %v", got)
	}
	wantIn(t, ms[0].m.Body, "You observe game g1", "carol@example.net")
	// A default order the rules refuse at the deadline: the player and the
	// referee hear that the game waits.
	g, _ := play.Load(s.st, s.reg, game, 0)
	d := g.Deadlines[0]
	ms = s.input(&events.DeadlinePassed{Player: d.Player, Due: d.Due, Default: "ADD 9"})
	if got := to(ms); !reflect.DeepEqual(got, []string{"anna@example.org rejected", "carol@example.net rejected"}) {
		t.Fatalf("mails %v", got)
	}
	wantIn(t, bodyTo(t, ms, "carol@example.net").Body, "The default order for Anna (USA)", "ORDER north <orders>", "ADD takes 1, 2 or 3")
	wantIn(t, bodyTo(t, ms, "anna@example.org").Body, "The game waits for your orders")
}

func TestLogAndGamesByMail(t *testing.T) {
	s, _ := deskServer(t)
	s.input(&events.OrderReceived{Player: "north", Text: "ADD 2"})
	s.input(&events.OrderReceived{Player: "north", Text: "ADD 3"}) // rejected: not north's turn
	s.input(&events.OrderReceived{Player: "south", Text: "ADD 1"})
	ms := s.input(&events.OrderReceived{Player: "south", Text: "LOG 5"})
	taro := ms[0].m.Body
	wantIn(t, taro, "The last 5 actions of game g1", "north: (orders: their words are the sender's; what came of them follows) → accepted: USA adds 2.", "south: ADD 1 → accepted")
	// Told in sentences, as the mails tell facts, never as raw facts.
	if strings.Contains(taro, "score.added") || strings.Contains(taro, "side=") {
		t.Errorf("LOG answers a player with raw facts:\n%s", taro)
	}
	if strings.Contains(taro, "ADD 3") {
		t.Fatalf("Taro's LOG shows Anna's rejected mail:\n%s", taro)
	}
	ms = s.input(&events.RefereeCommand{Referee: "umpire", Text: "LOG", Source: "mail"})
	wantIn(t, ms[0].m.Body, "north: ADD 3 → rejected", "ROLLBACK TO <seq>")
	ms = s.input(&events.RefereeCommand{Referee: "umpire", Text: "GAMES", Source: "mail"})
	wantIn(t, ms[0].m.Body, "The games you referee", "g1 carol@example.net", s.at.Format(time.RFC3339))
}

// A game created with a referee who also plays (referee-plays=yes) says
// so in every welcome mail, with what bounds that referee's pauses.
func TestTheWelcomeSaysWhichSideTheRefereePlays(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "pbem.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	c := newComposer(t)
	ng := newGame(c)
	ng.Referees = []events.Player{{ID: "umpire", Name: "Carol", Addresses: []string{"taro@example.jp"}}}
	ng.Settings = []events.Setting{{Key: play.SettingRefereePlays, Value: "yes"}, {Key: play.SettingPauseMax, Value: "2d"}}
	if _, err := play.Create(st, raceRegistry(), ng); err != nil {
		t.Fatal(err)
	}
	welcome := mailsIn(t, mustEvents(t, st, 1))
	for _, addr := range []string{"anna@example.org", "taro@example.jp"} {
		wantIn(t, bodyTo(t, welcome, addr).Body, "the referee Carol also plays CSA", "that referee's pauses end by themselves after 2d")
	}
}

// Press goes to the players it names, one mail each saying who wrote it
// and to whom, and its writer gets the receipt; the referees get a copy
// only when the game's press-referee setting is all, and no one else a
// word of it.
func TestPressGoesOnlyToWhomItNames(t *testing.T) {
	for _, tc := range []struct {
		name     string
		settings []events.Setting
		want     []string
	}{
		{"the referees read none", nil, []string{"taro@example.jp message", "anna@example.org report"}},
		{"the referees read all", []events.Setting{{Key: play.SettingPressReferee, Value: "all"}},
			[]string{"taro@example.jp message", "carol@example.net message", "anna@example.org report"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := deskServer(t, tc.settings...)
			ms := s.input(&events.OrderReceived{Player: "north", Text: "PRESS TO CSA: Meet me at the mill.\n\nBring cider."})
			if got := to(ms); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("mails %v, want %v", got, tc.want)
			}
			wantIn(t, bodyTo(t, ms, "taro@example.jp").Body, "Press from Anna (USA)", "Anna (USA) writes to you (press to CSA), in game g1:",
				"Meet me at the mill.", "Bring cider.", "PRESS TO north: <your answer>")
			wantIn(t, bodyTo(t, ms, "anna@example.org").Body, "PRESS to CSA (south): Meet me at the mill.")
			if len(tc.settings) > 0 {
				wantIn(t, bodyTo(t, ms, "carol@example.net").Body, "Anna (USA) writes to Taro (CSA) (press to CSA)", "Bring cider.", "This mail needs no answer.")
			}
		})
	}
}
