package bench

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"

	"pbem/engine/play"
	"pbem/events"
	"pbem/internal/logx"
	"pbem/mail/mailhost"
	"pbem/mail/token"
	"pbem/server"
)

// benchMail measures mail → reply latency on loopback with the built-in
// mail host: an order mail APPENDed to the game mailbox over IMAP, until
// the reply's mail.sent is committed (written once the SMTP server has
// accepted the reply, so every order is durably committed before). The
// floor, measured in the same run, is the IDLE notification alone: a
// second IMAP client idling on the same mailbox, timing the same APPEND.
// mailTarget is an external game mailbox to measure against (Addr empty:
// the built-in host).
type mailTarget struct{ Addr, User, Password string }

func benchMail(a *app, orders int, word string, ext mailTarget) error {
	if word != "STATUS" && word != "BOARD" {
		return fmt.Errorf("--mail-word %q: want STATUS or BOARD", word)
	}
	where := "built-in host"
	if ext.Addr != "" {
		where = "game mailbox on " + ext.Addr
	}
	fmt.Fprintf(a.out, "mail: %d orders (%s), each APPENDed to the game mailbox, until its reply is accepted by SMTP (%s)\n", orders, word, where)
	playerDomain := a.cfg.Mail.Domain
	var players *mailhost.Host
	var external func(*app)
	if ext.Addr != "" {
		// The game mailbox is external; replies go over SMTP to a players'
		// host of our own.
		playerDomain = "players.invalid"
		var err error
		if players, err = mailhost.Start(mailhost.Config{Domain: playerDomain, OpenDelivery: true}); err != nil {
			return err
		}
		defer players.Close()
		for _, u := range []string{"anna", "taro"} {
			if err := players.AddUser(u, "bench"); err != nil {
				return err
			}
		}
		external = func(b *app) {
			b.cfg.Mail.IMAP.Addr, b.cfg.Mail.IMAP.Username, b.cfg.Mail.IMAP.Password = ext.Addr, ext.User, ext.Password
			b.cfg.Mail.SMTP.Addr = players.SMTPAddr()
		}
	}
	// The bench appends its orders straight into the game mailbox, where
	// no host writes who sent them: its game takes them as they are
	// (lenient), since the round trip is what it measures.
	lenient := func(b *app) {
		b.cfg.Mail.SenderAuth = "lenient"
		if external != nil {
			external(b)
		}
	}
	srv, b, stop, err := benchServer(a, "pbem-bench-mail-", orders*10, lenient)
	if err != nil {
		return err
	}
	defer stop()
	script, err := a.script("gcacw")
	if err != nil {
		return err
	}
	dom := b.cfg.Mail.Domain
	script.Players[0].Addresses = []string{"anna@" + playerDomain}
	script.Players[1].Addresses = []string{"taro@" + playerDomain}
	if _, err := play.Create(srv.Log(), b.reg, play.NewGame{ID: "bench", Ruleset: script.Ruleset, ScenarioName: script.ScenarioName,
		Scenario: script.Scenario, Players: script.Players, At: time.Now().UTC(), Welcome: srv.Composer().Welcome}); err != nil {
		return err
	}
	sent, unsubscribe, err := sentMails(srv, 64)
	if err != nil {
		return err
	}
	defer unsubscribe()
	// The trace: when each stage's work becomes visible in the log.
	seen, untrace, err := traceEvents(srv, "bench", 256)
	if err != nil {
		return err
	}
	defer untrace()
	addr, user, pass := ext.Addr, ext.User, ext.Password
	if addr == "" {
		addr, user = srv.Mailhost().IMAPAddr(), b.cfg.Mail.Local
		if pass, err = server.MailboxPassword(srv.Log(), user); err != nil {
			return err
		}
	}
	login := func(opts *imapclient.Options) (*imapclient.Client, error) {
		c, err := imapclient.DialInsecure(addr, opts)
		if err != nil {
			return nil, err
		}
		if err := c.Login(user, pass).Wait(); err != nil {
			return nil, err
		}
		if _, err := c.Select("INBOX", nil).Wait(); err != nil {
			return nil, err
		}
		return c, nil
	}
	appender, err := login(nil)
	if err != nil {
		return err
	}
	defer appender.Close()
	exists := make(chan time.Time, 64)
	watcher, err := login(&imapclient.Options{UnilateralDataHandler: &imapclient.UnilateralDataHandler{
		Mailbox: func(d *imapclient.UnilateralDataMailbox) {
			if d.NumMessages != nil {
				exists <- time.Now()
			}
		}}})
	if err != nil {
		return err
	}
	defer watcher.Close()
	idle, err := watcher.Idle()
	if err != nil {
		return err
	}
	defer idle.Close()
	// The player's mailbox, idling too: when the reply is stored there
	// (the host answered 250 to its DATA) splits the outbox's stage.
	stored := make(chan time.Time, 64)
	playerAddr, playerPass := "", "bench"
	if players != nil {
		playerAddr = players.IMAPAddr()
	} else {
		playerAddr = srv.Mailhost().IMAPAddr()
		if playerPass, err = server.MailboxPassword(srv.Log(), "anna"); err != nil {
			return err
		}
	}
	player, err := imapclient.DialInsecure(playerAddr, &imapclient.Options{UnilateralDataHandler: &imapclient.UnilateralDataHandler{
		Mailbox: func(d *imapclient.UnilateralDataMailbox) {
			if d.NumMessages != nil {
				stored <- time.Now()
			}
		}}})
	if err != nil {
		return err
	}
	defer player.Close()
	if err := player.Login("anna", playerPass).Wait(); err != nil {
		return fmt.Errorf("the player's mailbox: %w", err)
	}
	if _, err := player.Select("INBOX", nil).Wait(); err != nil {
		return err
	}
	playerIdle, err := player.Idle()
	if err != nil {
		return err
	}
	defer playerIdle.Close()
	reply := token.Address(srv.Secret(), b.cfg.Mail.Local, dom, "bench", "anna")
	var lat, floor []time.Duration
	var stages [len(mailStages)][]time.Duration
	drain := func() {
		for {
			select {
			case <-sent:
			case <-exists:
			case <-seen:
			case <-stored:
			default:
				return
			}
		}
	}
	time.Sleep(200 * time.Millisecond) // the welcome mails go out first
	for i := 0; i < orders; i++ {
		drain()
		msg := fmt.Sprintf("From: anna@%s\r\nTo: %s\r\nSubject: Re: [pbem bench] your move\r\nMessage-ID: <bench-%d@players.example>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n", playerDomain, reply, i, word)
		start := time.Now()
		cmd := appender.Append("INBOX", int64(len(msg)), nil)
		cmd.Write([]byte(msg))
		cmd.Close()
		if _, err := cmd.Wait(); err != nil {
			return fmt.Errorf("append: %w", err)
		}
		appended := time.Now()
		var at [len(mailStages)]time.Time
		at[0] = appended
		// Wait for both the reply and the watcher's notification: on a
		// loaded machine the notification can come after the reply, and
		// the next order must not take it for its own.
		timeout := time.After(30 * time.Second)
		gotFloor, gotReply := false, false
		for !gotFloor || !gotReply {
			select {
			case t := <-stored:
				if at[storedStage].IsZero() {
					at[storedStage] = t
				}
			case t := <-exists:
				if !gotFloor {
					floor = append(floor, t.Sub(start))
					gotFloor = true
				}
			case ev := <-seen:
				at = ev.mark(at)
			case id := <-sent:
				// The reply to this order is the mail answering it.
				if !gotReply && strings.HasPrefix(id, "<bench.") {
					lat = append(lat, time.Since(start))
					gotReply = true
				}
			case <-timeout:
				return fmt.Errorf("order %d: within 30s, reply seen %v, IDLE notification seen %v", i, gotReply, gotFloor)
			}
		}
		// The stages the subscriber has not told of yet come soon after
		// the reply's mail.sent (the same doorbells, read in turn).
		for wait := time.After(time.Second); at[len(at)-1].IsZero() || at[storedStage].IsZero(); {
			select {
			case t := <-stored:
				if at[storedStage].IsZero() {
					at[storedStage] = t
				}
			case ev := <-seen:
				at = ev.mark(at)
			case <-wait:
				return fmt.Errorf("order %d: the log's events were not all seen within 1s of the reply", i)
			}
		}
		// Each stage from the end of the one before; the bus and the
		// player's mailbox tell on their own paths, so a stage seen
		// before the one before it counts as none.
		prev := start
		for k, t := range at {
			stages[k] = append(stages[k], max(t.Sub(prev), 0))
			if t.After(prev) {
				prev = t
			}
		}
	}
	q := func(ds []time.Duration, p float64) time.Duration {
		s := append([]time.Duration(nil), ds...)
		sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
		if len(s) == 0 {
			return 0
		}
		return s[int(p*float64(len(s)-1))]
	}
	fmt.Fprintf(a.out, "  %-34s p50 %9s  p99 %9s\n  %-34s p50 %9s  p99 %9s  (%d of %d notifications seen)\n  above the floor: p50 %s, p99 %s (goal: p50 ≤ 5ms, p99 ≤ 20ms)\n",
		"mail → reply accepted by SMTP", q(lat, .5).Round(time.Microsecond), q(lat, .99).Round(time.Microsecond),
		"floor: IDLE notification alone", q(floor, .5).Round(time.Microsecond), q(floor, .99).Round(time.Microsecond), len(floor), orders,
		(q(lat, .5) - q(floor, .5)).Round(time.Microsecond), (q(lat, .99) - q(floor, .99)).Round(time.Microsecond))
	above50, above99 := q(lat, .5)-q(floor, .5), q(lat, .99)-q(floor, .99)
	a.sum.add(summaryRow{measure: "mail → reply above the IDLE floor",
		figure:   fmt.Sprintf("%s / %s", above50.Round(100*time.Microsecond), above99.Round(100*time.Microsecond)),
		baseline: fmt.Sprintf("%s / %s", q(floor, .5).Round(100*time.Microsecond), q(floor, .99).Round(100*time.Microsecond)),
		goal:     "p50 ≤ 5ms / p99 ≤ 20ms", met: above50 <= 5*time.Millisecond && above99 <= 20*time.Millisecond})
	fmt.Fprintf(a.out, "  trace of a mail, stage by stage (each stage from the end of the one before, as the log shows it):\n")
	for k, st := range mailStages {
		fmt.Fprintf(a.out, "    %-60s p50 %9s  p99 %9s\n", st, q(stages[k], .5).Round(time.Microsecond), q(stages[k], .99).Round(time.Microsecond))
	}
	// What the disk alone allows: the reply waits for four durable
	// writes in turn (the order, the decision, the SMTP server's copy of
	// the reply, mail.sent), each at least one fsync.
	syncs, err := syncTimes(b.cfg.DataDir, 100)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.out, "  %-34s p50 %9s  p99 %9s  (4 in turn: p50 %s above the floor at the least)\n\n",
		"one fsync of 4 KiB here", q(syncs, .5).Round(time.Microsecond), q(syncs, .99).Round(time.Microsecond), (4 * q(syncs, .5)).Round(time.Microsecond))
	return nil
}

// syncTimes times n writes of 4 KiB to a file in dir, each made durable
// (fsync), as a commit of the store or the mail host ends.
func syncTimes(dir string, n int) ([]time.Duration, error) {
	f, err := os.CreateTemp(dir, "sync-")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	page := make([]byte, 4096)
	ds := make([]time.Duration, 0, n)
	for i := 0; i < n; i++ {
		start := time.Now()
		if _, err := f.WriteAt(page, int64(i%16)*4096); err != nil {
			return nil, err
		}
		if err := f.Sync(); err != nil {
			return nil, err
		}
		ds = append(ds, time.Since(start))
	}
	return ds, nil
}

// mailStages are the stages of the trace of one mail: each ends when the
// bench sees it done (the IMAP server's answer to APPEND, then each
// event as a subscriber of the bus reads it from the log, the doorbell's
// delay included).
var mailStages = [...]string{
	"IMAP APPEND (the mailbox stores the mail durably)",
	"intake: IDLE wake, fetch, judge, order committed",
	"engine: decision and its mails composed, committed",
	"outbox: reply rendered, sent, stored by the host (SMTP 250)",
	"outbox: its mail.sent committed",
}

// storedStage is the stage that ends when the player's mailbox has the
// reply (its IDLE notification).
const storedStage = 3

// traced is an event of the traced game, and when the bench saw it.
type traced struct {
	typ string
	id  string // a mail.sent's mail id
	at  time.Time
}

// mark records ev at the stage it ends in at, if that stage is not yet
// marked and the one before is.
func (ev traced) mark(at [len(mailStages)]time.Time) [len(mailStages)]time.Time {
	k := 0
	switch {
	case ev.typ == events.TypeOrderReceived:
		k = 1
	case ev.typ == events.TypeMailQueued:
		k = 2
	case ev.typ == events.TypeMailSent && strings.HasPrefix(ev.id, "<bench."):
		k = 4
	default:
		return at
	}
	if before := k - 1 - b2i(k-1 == storedStage); at[k].IsZero() && !at[before].IsZero() {
		at[k] = ev.at
	}
	return at
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// traceEvents returns a channel of game's events as the bus delivers them
// (buffered for n), from its head on.
func traceEvents(srv *server.Server, game string, n int) (<-chan traced, func(), error) {
	h, err := srv.Log().Head(game)
	if err != nil {
		return nil, nil, err
	}
	ch := make(chan traced, n)
	sub, err := srv.Bus().Subscribe(func(g string) uint64 {
		if g == game {
			return h.Seq
		}
		return 0
	}, func(e *events.Envelope) {
		if e.Game != game {
			return
		}
		t := traced{typ: e.Type, at: time.Now()}
		if e.Type == events.TypeMailSent {
			t.id, _ = events.PeekMailID(e)
		}
		ch <- t
	})
	if err != nil {
		return nil, nil, err
	}
	return ch, sub.Close, nil
}

// benchServer runs 'pbem serve' in-process for a mail bench: a temporary
// data directory, the built-in host on free ports, rate limits out of the
// way, the intake on IDLE (as against a real server), and only warnings
// logged (the bench prints figures). tweak, if set, changes the
// configuration first. It returns the server, the app it runs with, and a
// function that stops it and removes the directory.
func benchServer(a *app, prefix string, ratePerHour int, tweak func(*app)) (*server.Server, *app, func(), error) {
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return nil, nil, nil, err
	}
	b := *a
	b.cfg.DataDir = dir
	b.cfg.Mail.Builtin.IMAP, b.cfg.Mail.Builtin.SMTP = "127.0.0.1:0", "127.0.0.1:0"
	b.cfg.Mail.RatePerHour = ratePerHour
	b.cfg.Mail.IMAP.Poll = "30s"
	if tweak != nil {
		tweak(&b)
	}
	if lg, err := logx.New(a.errOut, a.cfg.Log.Format, "warn"); err == nil {
		b.lg = lg
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan *server.Server, 1)
	done := make(chan error, 1)
	go func() { done <- serve(ctx, &b, func(s *server.Server) { ready <- s }) }()
	stop := func() {
		cancel()
		<-done
		os.RemoveAll(dir)
	}
	select {
	case srv := <-ready:
		return srv, &b, stop, nil
	case err := <-done:
		cancel()
		os.RemoveAll(dir)
		return nil, nil, nil, err
	}
}

// serve runs a server of a's configuration until ctx is done; ready, if
// not nil, is called once everything runs.
func serve(ctx context.Context, a *app, ready func(*server.Server)) error {
	cfg := a.cfg.Config
	cfg.Logger, cfg.Registry, cfg.Ready = a.lg, a.reg, ready
	return server.New(cfg).Run(ctx)
}

// sentMails returns a channel of the Message-IDs of the mails the server
// records as sent (buffered for n), from the first game's start on.
func sentMails(srv *server.Server, n int) (<-chan string, func(), error) {
	ch := make(chan string, n)
	sub, err := srv.Bus().Subscribe(func(string) uint64 { return 0 }, func(e *events.Envelope) {
		if e.Type == events.TypeMailSent {
			if id, err := events.PeekMailID(e); err == nil {
				ch <- id
			}
		}
	})
	if err != nil {
		return nil, nil, err
	}
	return ch, sub.Close, nil
}
