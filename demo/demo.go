// Package demo plays a scripted game by mail against a running server:
// each participant reads their mailbox over IMAP and answers over SMTP as
// a mail client would (quoting the mail it answers), sending what the
// script and the mails' examples say, and every mail is printed as its
// recipient receives it. 'pbem demo' runs it; the end-to-end tests read
// mailboxes with its Mail reader.
package demo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
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

// Options are what Play plays.
type Options struct {
	Out      io.Writer        // where the mails are printed
	Server   *server.Server   // running, with its built-in mail host
	Registry *engine.Registry // the rule systems
	Script   autoplay.Script  // the game and its participants' orders
	// Domain is the participants' mail domain (the built-in host's);
	// Settings are the game's.
	Domain   string
	Settings []events.Setting
	// MaxOrders stops the game after the participants have sent this many
	// mails; Timeout gives up after this long.
	MaxOrders int
	Timeout   time.Duration
	Quiet     bool // print only subjects and replies, not whole mails
}

// participant is one player or referee reading their mailbox.
type participant struct {
	id, side, name, addr string
	password             string // of the player's mailbox on the built-in host
	referee              bool
	secret               string // a referee's command secret, from the welcome mail
	c                    *imapclient.Client
	lastUID              imap.UID
}

// Play creates game "demo" of o.Script on o.Server and plays it by mail
// to its end (every participant has the game-over mail), or to
// o.MaxOrders mails sent, printing each mail as its recipient receives it.
func Play(ctx context.Context, o Options) error {
	script := o.Script
	dom := o.Domain
	for i := range script.Players {
		script.Players[i].Addresses = []string{script.Players[i].ID + "@" + dom}
	}
	for i := range script.Referees {
		script.Referees[i].Addresses = []string{script.Referees[i].ID + "@" + dom}
	}
	ng := play.NewGame{ID: "demo", Ruleset: script.Ruleset, ScenarioName: script.ScenarioName,
		Scenario: script.Scenario, Players: script.Players, Referees: script.Referees, At: time.Now().UTC(), Welcome: o.Server.Composer().Welcome,
		Settings: o.Settings}
	// As pbem new would: a game without a referee must not wait for one.
	if err := play.NeedsReferee(o.Registry, ng); err != nil {
		return err
	}
	created, err := play.Create(o.Server.Log(), o.Registry, ng)
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
		ps = append(ps, &participant{id: p.ID, side: p.Side, name: p.Name, addr: p.Addresses[0]})
	}
	for _, ref := range script.Referees {
		ps = append(ps, &participant{id: ref.ID, name: ref.Name, addr: ref.Addresses[0], referee: true})
	}
	for _, p := range ps {
		// Each mailbox has its own password, as the welcome mail tells.
		if p.password, err = server.MailboxPassword(o.Server.Log(), p.id); err != nil {
			return err
		}
		// The mailbox is made when the game's creation reaches the mail system.
		deadline := time.Now().Add(10 * time.Second)
		for {
			c, err := imapclient.DialInsecure(o.Server.Mailhost().IMAPAddr(), nil)
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
	ap := autoplay.NewPlayer(script.Orders)
	sent, overSeen := 0, 0
	end := time.Now().Add(o.Timeout)
	for sent < o.MaxOrders && overSeen < len(ps) {
		if time.Now().After(end) {
			return fmt.Errorf("the demo game did not finish within %v", o.Timeout)
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
				printMail(o.Out, p, m, o.Quiet)
				if strings.HasPrefix(strings.ToLower(m.Kind), "game over") {
					overSeen++
					continue
				}
				order, ok := p.answer(ap, m)
				if !ok || sent >= o.MaxOrders {
					continue
				}
				if err := p.reply(o.Server, m, order); err != nil {
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
	return nil
}

// Mail is a mail as a participant's mail client shows it.
type Mail struct {
	UID                               imap.UID
	From, Subject, MessageID, ReplyTo string
	Kind                              string   // the body's first line: what the mail is
	Body                              string   // the text part
	Attachments                       []string // each attachment, and the text part's inline pictures, described
	Date                              time.Time
}

func (p *participant) fetchNew() ([]Mail, error) {
	ms, err := FetchNew(p.c, &p.lastUID)
	if err != nil {
		return nil, fmt.Errorf("%s's mail: %w", p.id, err)
	}
	return ms, nil
}

// FetchNew returns the mails of c's selected mailbox whose UID is above
// *last, oldest first, and moves *last on past them.
func FetchNew(c *imapclient.Client, last *imap.UID) ([]Mail, error) {
	if err := c.Noop().Wait(); err != nil {
		return nil, err
	}
	search, err := c.UIDSearch(&imap.SearchCriteria{UID: []imap.UIDSet{{imap.UIDRange{Start: *last + 1, Stop: 0}}}}, nil).Wait()
	if err != nil {
		return nil, err
	}
	var uids []imap.UID
	for _, u := range search.AllUIDs() {
		if u > *last {
			uids = append(uids, u)
		}
	}
	if len(uids) == 0 {
		return nil, nil
	}
	section := &imap.FetchItemBodySection{}
	bufs, err := c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		return nil, err
	}
	sort.Slice(bufs, func(i, j int) bool { return bufs[i].UID < bufs[j].UID })
	var out []Mail
	for _, b := range bufs {
		m, err := ReadMail(b.FindBodySection(section))
		if err != nil {
			return nil, fmt.Errorf("mail %d: %w", b.UID, err)
		}
		m.UID = b.UID
		*last = max(*last, b.UID)
		out = append(out, m)
	}
	return out, nil
}

// ReadMail reads a raw mail as a text mail client shows it.
func ReadMail(raw []byte) (Mail, error) {
	r, err := mail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		return Mail{}, err
	}
	var m Mail
	m.Subject, _ = r.Header.Subject()
	m.MessageID, _ = r.Header.MessageID()
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

// answer says what the participant sends in reply to m, if anything: the
// examples offered in the mail tell what may be sent now.
func (p *participant) answer(ap *autoplay.Player, m Mail) (string, bool) {
	if p.referee && p.secret == "" {
		// The welcome carries the secret a referee's commands need.
		for _, l := range strings.Split(m.Body, "\n") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(l), "Secret: "); ok {
				p.secret = v
			}
		}
	}
	examples := Offered(m.Body)
	if len(examples) == 0 {
		return "", false
	}
	if p.referee {
		return autoplay.RefereeChoice(examples) + "\nSecret: " + p.secret, true
	}
	return ap.Choose(p.id, examples)
}

// Offered reads the example orders a mail offers ("For example, you could
// send:" followed by indented lines), as the move template writes them:
// one example a line, or, when any example has several lines, each
// example a block of indented lines with a blank line between two. An
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
func (p *participant) reply(srv *server.Server, m Mail, order string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s <%s>\r\nTo: %s\r\nSubject: Re: %s\r\nIn-Reply-To: <%s>\r\nReferences: <%s>\r\n", p.name, p.addr, m.ReplyTo, m.Subject, m.MessageID, m.MessageID)
	fmt.Fprintf(&b, "Message-ID: <%s.%d.%d@players.example>\r\nDate: %s\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n", p.id, m.UID, time.Now().UnixNano(), time.Now().UTC().Format(time.RFC1123Z))
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
	if err := c.Auth(sasl.NewPlainClient("", p.id, p.password)); err != nil {
		return fmt.Errorf("%s's login to send: %w", p.id, err)
	}
	if err := c.SendMail(p.addr, []string{m.ReplyTo}, strings.NewReader(b.String())); err != nil {
		return fmt.Errorf("%s's reply: %w", p.id, err)
	}
	srv.WakeIntake()
	return c.Quit()
}
