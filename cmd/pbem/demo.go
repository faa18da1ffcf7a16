package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"pbem/autoplay"
	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
	"pbem/server"
)

// cmdDemo plays a short GCACW game end to end over real protocols: pbem
// serves on the embedded defaults (its own NATS, its own IMAP and SMTP
// servers, a bbolt file), scripted players and a referee read their mail
// over IMAP and answer over SMTP as a mail client would (quoting the mail
// they answer), and every mail is printed as its recipient receives it.
// With --no-referee the two players play alone, the scenario's house
// rules playing what the seed leaves out.
func cmdDemo(a *app, fs *flag.FlagSet, args []string) error {
	maxOrders := fs.Int("max-orders", 200, "stop after the participants have sent this many mails (a whole game takes about 60-90)")
	timeout := fs.Duration("timeout", 3*time.Minute, "give up after this long")
	quiet := fs.Bool("quiet", false, "print only subjects and replies, not whole mails")
	ruleset := fs.String("ruleset", "gcacw", "the rule system to play: gcacw, hra, gbacw or gmb")
	images := fs.String("images", "on", "on: the mails carry the boards drawn too, as inline pictures; off: the ASCII boards alone (the game's images setting)")
	campaign := fs.Bool("campaign", false, "a GCACW campaign whose assault is fought out as a battle in GBACW, Hair Roller Armies and GM Board Games in turn")
	noReferee := fs.Bool("no-referee", false, "two players alone, no referee (GCACW: the scenario's house rules play what the rules leave out)")
	volume := fs.String("mail", "", "how much mail each participant gets: every (a mail for every action), turn (a digest each turn) or move (a mail only when they must act; the default)")
	if _, err := parseArgs(fs, args, 0); err != nil {
		return err
	}
	if *campaign {
		return playCampaignDemo(a, *timeout)
	}
	if *volume != "" {
		v, err := play.ParseVolume(*volume)
		if err != nil {
			return fmt.Errorf("--mail: %w", err)
		}
		*volume = v
	}
	dir, err := os.MkdirTemp("", "pbem-demo-")
	if err != nil {
		return err
	}
	a.cfg.DataDir = dir
	a.cfg.Mail.Builtin.IMAP, a.cfg.Mail.Builtin.SMTP = "127.0.0.1:0", "127.0.0.1:0"
	a.cfg.Mail.IMAP.Poll = "1s"
	a.cfg.Mail.RatePerHour = 100000 // scripted players write far faster than people
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	ready := make(chan *server.Server, 1)
	done := make(chan error, 1)
	go func() { done <- serve(ctx, a, func(s *server.Server) { ready <- s }) }()
	var srv *server.Server
	select {
	case srv = <-ready:
	case err := <-done:
		return fmt.Errorf("starting pbem: %w", err)
	}
	fmt.Fprintf(a.out, "pbem demo: serving from %s\n  built-in mail host: IMAP %s, SMTP %s, domain %s\n\n",
		dir, srv.Mailhost().IMAPAddr(), srv.Mailhost().SMTPAddr(), a.cfg.Mail.Domain)
	err = playDemo(ctx, a, srv, *ruleset, *noReferee, *images, *volume, *maxOrders, *timeout, *quiet)
	stop()
	if serr := <-done; err == nil {
		err = serr
	}
	me := invokedAs()
	fmt.Fprintf(a.out, "\nThe game's log stays in %s: try\n  %s --data-dir %s log demo\n  %s --data-dir %s verify demo\n", dir, me, dir, me, dir)
	return err
}

// invokedAs is how to run this pbem again from where it was started:
// "pbem" when that is this binary on the PATH; "go run ./cmd/pbem" (or
// the module's import path away from the checkout's root) for a binary
// 'go run' built and deletes on exit; else the binary's own path.
func invokedAs() string {
	exe, err := os.Executable()
	if err != nil {
		return "pbem"
	}
	if onPath, err := exec.LookPath("pbem"); err == nil && sameFile(onPath, exe) {
		return "pbem"
	}
	if strings.Contains(exe, string(filepath.Separator)+"go-build") {
		if _, err := os.Stat(filepath.Join("cmd", "pbem", "main.go")); err == nil {
			return "go run ./cmd/pbem"
		}
		return "go run pbem/cmd/pbem"
	}
	return exe
}

func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

type demoPlayer struct {
	id, side, name, addr string
	password             string // of the player's mailbox on the built-in host
	referee              bool
	secret               string // a referee's command secret, from the welcome mail
	c                    *imapclient.Client
	lastUID              imap.UID
	mails, bytes         int // received so far, as the mail host delivered them
	// awaiting is the Message-ID of the participant's last answer until
	// pbem's answer to it arrives (a mail in reply to it): the mails
	// before that one were written before the answer was decided, so
	// what they ask is already answered, or no longer asked.
	awaiting string
	since    time.Time // when awaiting was set
}

func playDemo(ctx context.Context, a *app, srv *server.Server, ruleset string, noReferee bool, images, volume string, maxOrders int, timeout time.Duration, quiet bool) error {
	script, err := demoScript(ruleset)
	if noReferee {
		script, err = demoScriptAlone(ruleset)
	}
	if err != nil {
		return err
	}
	dom := a.cfg.Mail.Domain
	for i := range script.Players {
		script.Players[i].Addresses = []string{script.Players[i].ID + "@" + dom}
	}
	for i := range script.Referees {
		script.Referees[i].Addresses = []string{script.Referees[i].ID + "@" + dom}
	}
	ng := play.NewGame{ID: "demo", Ruleset: script.Ruleset, ScenarioName: script.ScenarioName,
		Scenario: script.Scenario, Players: script.Players, Referees: script.Referees, At: time.Now().UTC(), Welcome: srv.Composer().Welcome,
		Settings: append(a.cfg.Mail.BuiltinDomain(), events.Setting{Key: play.SettingImages, Value: images})}
	if volume != "" {
		ng.Settings = append(ng.Settings, events.Setting{Key: play.SettingMail, Value: volume})
	}
	// As pbem new would: a game without a referee must not wait for one.
	if err := play.NeedsReferee(a.reg, ng); err != nil {
		return err
	}
	created, err := play.Create(srv.Log(), a.reg, ng)
	if err != nil {
		return err
	}
	who := "and a referee rules where the rules hand over"
	if len(script.Referees) == 0 {
		who = "alone: no referee"
	}
	fmt.Fprintf(a.out, "created game %s (%s, %s); %s plays %s, %s %s, %s\n", created.Game,
		script.Ruleset, script.ScenarioName, script.Players[0].Name, script.Players[0].Side, script.Players[1].Name, script.Players[1].Side, who)
	var ps []*demoPlayer
	for _, p := range script.Players {
		ps = append(ps, &demoPlayer{id: p.ID, side: p.Side, name: p.Name, addr: p.Addresses[0]})
	}
	for _, ref := range script.Referees {
		ps = append(ps, &demoPlayer{id: ref.ID, name: ref.Name, addr: ref.Addresses[0], referee: true})
	}
	for _, p := range ps {
		// Each mailbox has its own password, as the welcome mail tells.
		if p.password, err = server.MailboxPassword(srv.Log(), p.id); err != nil {
			return err
		}
		// The mailbox is made when the game's creation reaches the mail system.
		deadline := time.Now().Add(10 * time.Second)
		for {
			c, err := imapclient.DialInsecure(srv.Mailhost().IMAPAddr(), nil)
			if err == nil {
				if err = c.Login(p.id, p.password).Wait(); err == nil {
					if _, err = c.Select("INBOX", nil).Wait(); err == nil {
						p.c = c
						break
					}
				}
				c.Close()
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("%s's mailbox: %w", p.id, err)
			}
			time.Sleep(50 * time.Millisecond)
		}
		defer p.c.Close()
	}
	ap := autoplay.NewPlayer(script.Orders).Answering(script.Answers)
	ap.Playable = func(id, order string) bool { return scriptedPlayable(srv, a, created.Game, id, order) }
	sent, overSeen := 0, 0
	end := time.Now().Add(timeout)
	for sent < maxOrders && overSeen < len(ps) {
		if time.Now().After(end) {
			return fmt.Errorf("the demo game did not finish within %v", timeout)
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		got := false
		for _, p := range ps {
			msgs, err := p.fetchNew()
			if err != nil {
				return err
			}
			for _, m := range msgs {
				got = true
				printMail(a.out, p, m, quiet)
				p.readSecret(m)
				if strings.HasPrefix(strings.ToLower(m.kind), "game over") {
					overSeen++
				}
			}
			// A participant answers only the newest mail, and only once
			// pbem has answered its last mail: as a person reads the
			// latest mail of the thread, not each one in turn.
			m, ok := p.toAnswer(msgs)
			if !ok || sent >= maxOrders {
				continue
			}
			if order, ok := p.answer(ap, m); ok {
				if err := p.reply(srv, m, order); err != nil {
					return err
				}
				sent++
				fmt.Fprintf(a.out, "\n>>> %s answers (mail %d):\n", p.name, sent)
				for _, l := range strings.Split(order, "\n") {
					fmt.Fprintf(a.out, ">>>   %s\n", l)
				}
				fmt.Fprintln(a.out)
			}
		}
		if !got {
			time.Sleep(20 * time.Millisecond)
		}
	}
	if overSeen >= len(ps) {
		fmt.Fprintln(a.out, "\nThe game is over and every participant has the mail saying so.")
	} else {
		fmt.Fprintf(a.out, "\nStopped after %d mails from the participants (--max-orders).\n", sent)
	}
	if volume == "" {
		volume = play.DefaultVolume
	}
	fmt.Fprintf(a.out, "\nMail received (MAIL %s):\n", strings.ToUpper(volume))
	for _, p := range ps {
		fmt.Fprintf(a.out, "  %-10s %4d mails  %9d bytes\n", p.name, p.mails, p.bytes)
	}
	return nil
}

type demoMail struct {
	uid                           imap.UID
	from, subject, msgID, replyTo string
	inReplyTo                     string // the Message-ID of the mail it answers, if any
	kind                          string // the body's first line: what the mail is
	body                          string
	attachments                   []string
	date                          time.Time
	raw                           []byte // the whole mail as fetched
}

func (p *demoPlayer) fetchNew() ([]demoMail, error) {
	if err := p.c.Noop().Wait(); err != nil {
		return nil, err
	}
	search, err := p.c.UIDSearch(&imap.SearchCriteria{UID: []imap.UIDSet{{imap.UIDRange{Start: p.lastUID + 1, Stop: 0}}}}, nil).Wait()
	if err != nil {
		return nil, err
	}
	var uids []imap.UID
	for _, u := range search.AllUIDs() {
		if u > p.lastUID {
			uids = append(uids, u)
		}
	}
	if len(uids) == 0 {
		return nil, nil
	}
	section := &imap.FetchItemBodySection{}
	bufs, err := p.c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		return nil, err
	}
	sort.Slice(bufs, func(i, j int) bool { return bufs[i].UID < bufs[j].UID })
	var out []demoMail
	for _, b := range bufs {
		raw := b.FindBodySection(section)
		p.mails, p.bytes = p.mails+1, p.bytes+len(raw)
		m, err := readDemoMail(raw)
		if err != nil {
			return nil, fmt.Errorf("%s's mail %d: %w", p.id, b.UID, err)
		}
		m.uid, m.raw = b.UID, raw
		p.lastUID = max(p.lastUID, b.UID)
		out = append(out, m)
	}
	return out, nil
}

func readDemoMail(raw []byte) (demoMail, error) {
	r, err := mail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		return demoMail{}, err
	}
	var m demoMail
	m.subject, _ = r.Header.Subject()
	m.msgID, _ = r.Header.MessageID()
	if ids, err := r.Header.MsgIDList("In-Reply-To"); err == nil && len(ids) > 0 {
		m.inReplyTo = ids[0]
	}
	m.date, _ = r.Header.Date()
	if from, err := r.Header.AddressList("From"); err == nil && len(from) > 0 {
		m.from = from[0].String()
	}
	if rt, err := r.Header.AddressList("Reply-To"); err == nil && len(rt) > 0 {
		m.replyTo = rt[0].Address
	}
	for {
		part, err := r.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return m, err
		}
		b, _ := io.ReadAll(part.Body)
		switch h := part.Header.(type) {
		case *mail.InlineHeader:
			// The text part is the mail as a text client shows it; its
			// HTML twin and the drawn board (an inline PNG) are listed.
			switch ct, _, _ := h.ContentType(); ct {
			case "text/plain":
				m.body += strings.ReplaceAll(string(b), "\r\n", "\n")
			case "text/html":
			default:
				_, params, _ := h.ContentType()
				name := params["name"]
				m.attachments = append(m.attachments, fmt.Sprintf("%s, shown in the mail (%s, %d KB)", name, ct, (len(b)+1023)/1024))
			}
		case *mail.AttachmentHeader:
			name, _ := h.Filename()
			m.attachments = append(m.attachments, fmt.Sprintf("%s (%d lines)", name, strings.Count(string(b), "\n")))
		}
	}
	m.kind, _, _ = strings.Cut(m.body, "\n")
	return m, nil
}

func printMail(w io.Writer, p *demoPlayer, m demoMail, quiet bool) {
	fmt.Fprintf(w, "%s\n=== mail to %s <%s>\n=== Subject: %s\n=== %s\n", strings.Repeat("=", 78), p.name, p.addr, m.subject, m.kind)
	if quiet {
		return
	}
	fmt.Fprintf(w, "=== From: %s   Reply-To: %s\n\n%s", m.from, m.replyTo, m.body)
	for _, at := range m.attachments {
		fmt.Fprintf(w, "[attachment: %s]\n", at)
	}
}

// scriptedPlayable says whether participant id's scripted order may be
// sent now: one that reads well but that the rules refuse in the game as
// the dice have made it (a march into a hex an enemy unit has since
// entered) is not what the script means to show; one that does not read
// (the script's deliberate typos) is sent, for its answer.
func scriptedPlayable(srv *server.Server, a *app, game, id, order string) bool {
	g, err := play.Load(srv.Log(), a.reg, game, 0)
	if err != nil {
		return true
	}
	p, ok := g.PlayerByID(id)
	if !ok || g.IsReferee(id) {
		return true
	}
	orders, probs := g.Rules.Parse(g.State, p.Side, order)
	if len(probs) > 0 {
		return true
	}
	trial, err := g.Rules.Decide(g.State, p.Side, orders, engine.FixedDice(1))
	return err != nil || len(trial.Problems) == 0
}

// demoAnswerWait is how long a scripted participant waits for pbem's
// answer to its last mail before it reads its newer mails anyway (pbem
// answers every order; this only keeps a lost answer from stopping the
// demo).
const demoAnswerWait = 90 * time.Second

// toAnswer picks the mail of msgs (just fetched, oldest first) the
// participant answers: none while pbem has yet to answer its last mail;
// else the newest mail, if it is not the game's end. Older mails were
// overtaken by it: what they ask has been answered by someone, or is
// asked again in it.
func (p *demoPlayer) toAnswer(msgs []demoMail) (demoMail, bool) {
	if p.awaiting != "" {
		i := slices.IndexFunc(msgs, func(m demoMail) bool { return m.inReplyTo == p.awaiting })
		switch {
		case i >= 0:
			p.awaiting, msgs = "", msgs[i:]
		case time.Since(p.since) > demoAnswerWait:
			p.awaiting = ""
		default:
			return demoMail{}, false
		}
	}
	if len(msgs) == 0 {
		return demoMail{}, false
	}
	m := msgs[len(msgs)-1]
	if strings.HasPrefix(strings.ToLower(m.kind), "game over") {
		return demoMail{}, false
	}
	return m, true
}

// readSecret keeps the secret a referee's commands need, which the
// welcome carries.
func (p *demoPlayer) readSecret(m demoMail) {
	if !p.referee || p.secret != "" {
		return
	}
	for _, l := range strings.Split(m.body, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "Secret: "); ok {
			p.secret = v
		}
	}
}

// answer says what the participant sends in reply to m, if anything: the
// examples offered in the mail tell what may be sent now.
func (p *demoPlayer) answer(ap *autoplay.Player, m demoMail) (string, bool) {
	examples := offered(m.body)
	if len(examples) == 0 {
		return "", false
	}
	if p.referee {
		return ap.ChooseReferee(p.id, examples) + "\nSecret: " + p.secret, true
	}
	return ap.Choose(p.id, examples)
}

// offered reads the example orders a mail offers ("For example, you could
// send:" followed by indented lines), as the move template writes them:
// one example a line, or, when any example has several lines, each
// example a block of indented lines with a blank line between two. An
// example of several lines is one order to send whole: its first line
// alone may be one the rules refuse (a move next to the enemy on Attack
// orders without the shock that must follow it, 14.2a), and the mail
// answering that refusal offers the same example again.
func offered(body string) []string {
	_, rest, ok := strings.Cut(body, "For example, you could send:")
	if !ok {
		return nil
	}
	var blocks [][]string
	var cur []string
	for _, l := range strings.Split(strings.TrimLeft(rest, "\n"), "\n") {
		if strings.TrimSpace(l) == "" {
			if cur != nil {
				blocks, cur = append(blocks, cur), nil
			}
			continue
		}
		if !strings.HasPrefix(l, "    ") {
			break
		}
		cur = append(cur, strings.TrimSpace(l))
	}
	if cur != nil {
		blocks = append(blocks, cur)
	}
	var out []string
	if len(blocks) == 1 {
		// No blank line parts them: one example a line.
		return blocks[0]
	}
	for _, b := range blocks {
		out = append(out, strings.Join(b, "\n"))
	}
	return out
}

// reply sends order as a mail client would: to the Reply-To, threaded,
// quoting the mail it answers below an attribution line.
func (p *demoPlayer) reply(srv *server.Server, m demoMail, order string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s <%s>\r\nTo: %s\r\nSubject: Re: %s\r\nIn-Reply-To: <%s>\r\nReferences: <%s>\r\n", p.name, p.addr, m.replyTo, m.subject, m.msgID, m.msgID)
	id := fmt.Sprintf("%s.%d.%d@players.example", p.id, m.uid, time.Now().UnixNano())
	p.awaiting, p.since = id, time.Now()
	fmt.Fprintf(&b, "Message-ID: <%s>\r\nDate: %s\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n", id, time.Now().UTC().Format(time.RFC1123Z))
	b.WriteString(strings.ReplaceAll(order, "\n", "\r\n"))
	fmt.Fprintf(&b, "\r\n\r\nOn %s, pbem wrote:\r\n", m.date.Format("Mon, 2 Jan 2006 at 15:04"))
	for _, l := range strings.Split(strings.TrimRight(m.body, "\n"), "\n") {
		b.WriteString("> " + l + "\r\n")
	}
	c, err := smtp.Dial(srv.Mailhost().SMTPAddr())
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Hello("players.example"); err != nil {
		return err
	}
	// The host takes mail only from a logged-in user, as that user.
	if err := c.Auth(sasl.NewPlainClient("", p.id, p.password)); err != nil {
		return fmt.Errorf("%s's login to send: %w", p.id, err)
	}
	if err := c.SendMail(p.addr, []string{m.replyTo}, strings.NewReader(b.String())); err != nil {
		return fmt.Errorf("%s's reply: %w", p.id, err)
	}
	srv.WakeIntake()
	return c.Quit()
}
