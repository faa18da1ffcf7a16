// Package demo plays a scripted game by mail against a running server:
// each participant reads their mailbox over IMAP and answers over SMTP as
// a mail client would (quoting the mail it answers), sending what the
// script and the mails' examples say, and every mail is printed as its
// recipient receives it. 'pbem demo' runs it; the end-to-end tests read
// their people's mailboxes with its Mailbox and Mail.
package demo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
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

// Options are the game Play plays and how.
type Options struct {
	Out      io.Writer        // where the mails are printed
	Server   *server.Server   // running, with its built-in mail host
	Registry *engine.Registry // the rule systems
	Script   autoplay.Script  // the game, its participants and their orders
	// Domain is the participants' mail domain (the built-in host's);
	// Settings are the game's mail settings for it.
	Domain   string
	Settings []events.Setting
	Images   string // the game's images setting: on or off
	Volume   string // the game's mail volume; "" for the default
	// MaxOrders stops the game after the participants have sent this many
	// mails; Timeout gives up after this long.
	MaxOrders int
	Timeout   time.Duration
	Quiet     bool // print only subjects and replies, not whole mails
}

// Mailbox is one person's INBOX on an IMAP server, read as their mail
// client reads it: FetchNew returns what arrived since the last look.
type Mailbox struct {
	ID      string             // whose it is, as errors name it
	Client  *imapclient.Client // logged in, INBOX selected
	LastUID imap.UID           // the newest mail read so far
	// Mails and Bytes count the mails read so far, and their size as the
	// mail host delivered them.
	Mails, Bytes int
}

// participant is a scripted player or referee of the demo game.
type participant struct {
	Mailbox
	side, name, addr string
	password         string // of the player's mailbox on the built-in host
	referee          bool
	secret           string // a referee's command secret, from the welcome mail
	// awaiting is the Message-ID of the participant's last answer until
	// pbem's answer to it arrives (a mail in reply to it): the mails
	// before that one were written before the answer was decided, so
	// what they ask is already answered, or no longer asked.
	awaiting string
	since    time.Time // when awaiting was set
}

// Play creates game "demo" of o.Script on o.Server and plays it by mail
// to its end (every participant has the game-over mail), or to
// o.MaxOrders mails sent, printing each mail as its recipient receives it
// and, last, how much mail each received.
func Play(ctx context.Context, o Options) error {
	srv, reg, script, dom := o.Server, o.Registry, o.Script, o.Domain
	images, volume, maxOrders, timeout, quiet := o.Images, o.Volume, o.MaxOrders, o.Timeout, o.Quiet
	for i := range script.Players {
		script.Players[i].Addresses = []string{script.Players[i].ID + "@" + dom}
	}
	for i := range script.Referees {
		script.Referees[i].Addresses = []string{script.Referees[i].ID + "@" + dom}
	}
	ng := play.NewGame{ID: "demo", Ruleset: script.Ruleset, ScenarioName: script.ScenarioName,
		Scenario: script.Scenario, Players: script.Players, Referees: script.Referees, At: time.Now().UTC(), Welcome: srv.Composer().Welcome,
		Settings: append(slices.Clip(o.Settings), events.Setting{Key: play.SettingImages, Value: images})}
	if volume != "" {
		ng.Settings = append(ng.Settings, events.Setting{Key: play.SettingMail, Value: volume})
	}
	// As pbem new would: a game without a referee must not wait for one.
	if err := play.NeedsReferee(reg, ng); err != nil {
		return err
	}
	created, err := play.Create(srv.Log(), reg, ng)
	if err != nil {
		return err
	}
	who := "and a referee rules where the rules hand over"
	if len(script.Referees) == 0 {
		who = "alone: no referee"
	}
	fmt.Fprintf(o.Out, "created game %s (%s, %s); %s plays %s, %s %s, %s\n", created.Game,
		script.Ruleset, script.ScenarioName, script.Players[0].Name, script.Players[0].Side, script.Players[1].Name, script.Players[1].Side, who)
	var ps []*participant
	for _, p := range script.Players {
		ps = append(ps, &participant{Mailbox: Mailbox{ID: p.ID}, side: p.Side, name: p.Name, addr: p.Addresses[0]})
	}
	for _, ref := range script.Referees {
		ps = append(ps, &participant{Mailbox: Mailbox{ID: ref.ID}, name: ref.Name, addr: ref.Addresses[0], referee: true})
	}
	for _, p := range ps {
		if err := p.login(srv); err != nil {
			return err
		}
		defer p.Client.Close()
	}
	ap := script.Player()
	ap.Playable = func(id, order string) bool { return scriptedPlayable(srv, reg, created.Game, id, order) }
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
			msgs, err := p.FetchNew()
			if err != nil {
				return err
			}
			for _, m := range msgs {
				got = true
				printMail(o.Out, p, m, quiet)
				p.readSecret(m)
				if strings.HasPrefix(strings.ToLower(m.Kind), "game over") {
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
				fmt.Fprintf(o.Out, "\n>>> %s answers (mail %d):\n", p.name, sent)
				for _, l := range strings.Split(order, "\n") {
					fmt.Fprintf(o.Out, ">>>   %s\n", l)
				}
				fmt.Fprintln(o.Out)
			}
		}
		if !got {
			time.Sleep(20 * time.Millisecond)
		}
	}
	if overSeen >= len(ps) {
		fmt.Fprintln(o.Out, "\nThe game is over and every participant has the mail saying so.")
	} else {
		fmt.Fprintf(o.Out, "\nStopped after %d mails from the participants (--max-orders).\n", sent)
	}
	if volume == "" {
		volume = play.DefaultVolume
	}
	fmt.Fprintf(o.Out, "\nMail received (MAIL %s):\n", strings.ToUpper(volume))
	for _, p := range ps {
		fmt.Fprintf(o.Out, "  %-10s %4d mails  %9d bytes\n", p.name, p.Mails, p.Bytes)
	}
	return nil
}

// login opens the participant's INBOX on the built-in mail host, with
// the mailbox's own password, as the welcome mail tells; the mailbox is
// made when the game's creation reaches the mail system.
func (p *participant) login(srv *server.Server) error {
	var err error
	if p.password, err = server.MailboxPassword(srv.Log(), p.ID); err != nil {
		return err
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := imapclient.DialInsecure(srv.Mailhost().IMAPAddr(), nil)
		if err == nil {
			if err = c.Login(p.ID, p.password).Wait(); err == nil {
				if _, err = c.Select("INBOX", nil).Wait(); err == nil {
					p.Client = c
					return nil
				}
			}
			c.Close()
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s's mailbox: %w", p.ID, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Mail is a mail as a participant's text mail client shows it.
type Mail struct {
	UID                               imap.UID
	From, Subject, MessageID, ReplyTo string
	InReplyTo                         string // the Message-ID of the mail it answers, if any
	Kind                              string // the body's first line: what the mail is
	Body                              string
	Attachments                       []string
	Date                              time.Time
	Raw                               []byte // the whole mail as fetched
}

// FetchNew returns the mails that arrived in the mailbox since the last
// look, oldest first, and counts them.
func (p *Mailbox) FetchNew() ([]Mail, error) {
	if err := p.Client.Noop().Wait(); err != nil {
		return nil, err
	}
	search, err := p.Client.UIDSearch(&imap.SearchCriteria{UID: []imap.UIDSet{{imap.UIDRange{Start: p.LastUID + 1, Stop: 0}}}}, nil).Wait()
	if err != nil {
		return nil, err
	}
	var uids []imap.UID
	for _, u := range search.AllUIDs() {
		if u > p.LastUID {
			uids = append(uids, u)
		}
	}
	if len(uids) == 0 {
		return nil, nil
	}
	section := &imap.FetchItemBodySection{}
	bufs, err := p.Client.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		return nil, err
	}
	sort.Slice(bufs, func(i, j int) bool { return bufs[i].UID < bufs[j].UID })
	var out []Mail
	for _, b := range bufs {
		raw := b.FindBodySection(section)
		p.Mails, p.Bytes = p.Mails+1, p.Bytes+len(raw)
		m, err := ReadMail(raw)
		if err != nil {
			return nil, fmt.Errorf("%s's mail %d: %w", p.ID, b.UID, err)
		}
		m.UID, m.Raw = b.UID, raw
		p.LastUID = max(p.LastUID, b.UID)
		out = append(out, m)
	}
	return out, nil
}

// ReadMail reads a mail as a text client shows it: its headers, its text
// part, and a line for each picture or attachment it carries.
func ReadMail(raw []byte) (Mail, error) {
	r, err := mail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		return Mail{}, err
	}
	var m Mail
	m.Subject, _ = r.Header.Subject()
	m.MessageID, _ = r.Header.MessageID()
	if ids, err := r.Header.MsgIDList("In-Reply-To"); err == nil && len(ids) > 0 {
		m.InReplyTo = ids[0]
	}
	m.Date, _ = r.Header.Date()
	if from, err := r.Header.AddressList("From"); err == nil && len(from) > 0 {
		m.From = from[0].String()
	}
	if rt, err := r.Header.AddressList("Reply-To"); err == nil && len(rt) > 0 {
		m.ReplyTo = rt[0].Address
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
				m.Body += strings.ReplaceAll(string(b), "\r\n", "\n")
			case "text/html":
			default:
				_, params, _ := h.ContentType()
				name := params["name"]
				m.Attachments = append(m.Attachments, fmt.Sprintf("%s, shown in the mail (%s, %d KB)", name, ct, (len(b)+1023)/1024))
			}
		case *mail.AttachmentHeader:
			name, _ := h.Filename()
			m.Attachments = append(m.Attachments, fmt.Sprintf("%s (%d lines)", name, strings.Count(string(b), "\n")))
		}
	}
	m.Kind, _, _ = strings.Cut(m.Body, "\n")
	return m, nil
}

func printMail(w io.Writer, p *participant, m Mail, quiet bool) {
	fmt.Fprintf(w, "%s\n=== mail to %s <%s>\n=== Subject: %s\n=== %s\n", strings.Repeat("=", 78), p.name, p.addr, m.Subject, m.Kind)
	if quiet {
		return
	}
	fmt.Fprintf(w, "=== From: %s   Reply-To: %s\n\n%s", m.From, m.ReplyTo, m.Body)
	for _, at := range m.Attachments {
		fmt.Fprintf(w, "[attachment: %s]\n", at)
	}
}

// scriptedPlayable says whether participant id's scripted order may be
// sent now: one that reads well but that the rules refuse in the game as
// the dice have made it (a march into a hex an enemy unit has since
// entered) is not what the script means to show; one that does not read
// (the script's deliberate typos) is sent, for its answer.
func scriptedPlayable(srv *server.Server, reg *engine.Registry, game, id, order string) bool {
	g, err := play.Load(srv.Log(), reg, game, 0)
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

// answerWait is how long a scripted participant waits for pbem's
// answer to its last mail before it reads its newer mails anyway (pbem
// answers every order; this only keeps a lost answer from stopping the
// demo).
const answerWait = 90 * time.Second

// toAnswer picks the mail of msgs (just fetched, oldest first) the
// participant answers: none while pbem has yet to answer its last mail;
// else the newest mail, if it is not the game's end. Older mails were
// overtaken by it: what they ask has been answered by someone, or is
// asked again in it.
func (p *participant) toAnswer(msgs []Mail) (Mail, bool) {
	if p.awaiting != "" {
		i := slices.IndexFunc(msgs, func(m Mail) bool { return m.InReplyTo == p.awaiting })
		switch {
		case i >= 0:
			p.awaiting, msgs = "", msgs[i:]
		case time.Since(p.since) > answerWait:
			p.awaiting = ""
		default:
			return Mail{}, false
		}
	}
	if len(msgs) == 0 {
		return Mail{}, false
	}
	m := msgs[len(msgs)-1]
	if strings.HasPrefix(strings.ToLower(m.Kind), "game over") {
		return Mail{}, false
	}
	return m, true
}

// readSecret keeps the secret a referee's commands need, which the
// welcome carries.
func (p *participant) readSecret(m Mail) {
	if !p.referee || p.secret != "" {
		return
	}
	for _, l := range strings.Split(m.Body, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "Secret: "); ok {
			p.secret = v
		}
	}
}

// answer says what the participant sends in reply to m, if anything: the
// examples offered in the mail tell what may be sent now.
func (p *participant) answer(ap *autoplay.Player, m Mail) (string, bool) {
	examples := Offered(m.Body)
	if len(examples) == 0 {
		return "", false
	}
	if p.referee {
		return ap.ChooseReferee(p.ID, examples) + "\nSecret: " + p.secret, true
	}
	return ap.Choose(p.ID, examples)
}

// Offered reads the example orders a mail offers ("For example, you could
// send:" followed by indented lines), as the move template writes them:
// one example a line, or, when any example has several lines, each
// example a block of indented lines with a blank line between two; a line
// indented further continues the order above it. An
// example of several lines is one order to send whole: its first line
// alone may be one the rules refuse (a move next to the enemy on Attack
// orders without the shock that must follow it, 14.2a), and the mail
// answering that refusal offers the same example again.
func Offered(body string) []string {
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
		// The template's indent goes; a deeper one stays: it continues
		// the order above it (docs/ORDERS.md).
		cur = append(cur, strings.TrimRight(strings.TrimPrefix(l, "    "), " \t"))
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
func (p *participant) reply(srv *server.Server, m Mail, order string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s <%s>\r\nTo: %s\r\nSubject: Re: %s\r\nIn-Reply-To: <%s>\r\nReferences: <%s>\r\n", p.name, p.addr, m.ReplyTo, m.Subject, m.MessageID, m.MessageID)
	id := fmt.Sprintf("%s.%d.%d@players.example", p.ID, m.UID, time.Now().UnixNano())
	p.awaiting, p.since = id, time.Now()
	fmt.Fprintf(&b, "Message-ID: <%s>\r\nDate: %s\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n", id, time.Now().UTC().Format(time.RFC1123Z))
	b.WriteString(strings.ReplaceAll(order, "\n", "\r\n"))
	fmt.Fprintf(&b, "\r\n\r\nOn %s, pbem wrote:\r\n", m.Date.Format("Mon, 2 Jan 2006 at 15:04"))
	for _, l := range strings.Split(strings.TrimRight(m.Body, "\n"), "\n") {
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
	if err := c.Auth(sasl.NewPlainClient("", p.ID, p.password)); err != nil {
		return fmt.Errorf("%s's login to send: %w", p.ID, err)
	}
	if err := c.SendMail(p.addr, []string{m.ReplyTo}, strings.NewReader(b.String())); err != nil {
		return fmt.Errorf("%s's reply: %w", p.ID, err)
	}
	srv.WakeIntake()
	return c.Quit()
}
