package compose

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"pbem/engine/play"
	"pbem/events"
	"pbem/templates"
)

// Passwords of pbem's own mail host never enter a game's log: a mail that
// shows one holds a mark in its place, and the outbox fills it in as the
// mail is sent (FillPassword). Two marks:
//
//   - PasswordMark, in the welcome of a seat the game was created with:
//     the reader's own password, to the reader's own mailbox;
//   - NewMailboxMark, in the answer to the referee's mail whose command
//     gave a seat (REPLACE, REFEREE ADD, OBSERVER ADD) at the host: the
//     password of a mailbox the command made, to that referee alone. A
//     mailbox that existed before keeps its password to its holder.

// login says how r logs in to their mailbox on pbem's own mail host (nil
// when pbem runs none, or r's addresses are elsewhere). later: r was given
// the seat after the game began, and the mail holds no password (a new
// mailbox's went to whoever gave the seat).
func (c *Composer) login(r recipient, later bool) *templates.Login {
	if c.cfg.Mailhost == nil {
		return nil
	}
	for _, a := range r.Addresses {
		if user, ok := c.MailhostUser(a); ok {
			l := &templates.Login{Address: a, User: user, IMAP: c.cfg.Mailhost.IMAP, SMTP: c.cfg.Mailhost.SMTP, Password: PasswordMark, Later: later}
			if later {
				l.Password = ""
			}
			return l
		}
	}
	return nil
}

// MailhostUser returns the user of pbem's own mail host that address
// belongs to (false when pbem runs no host, or the address is elsewhere
// or is pbem's own mailbox).
func (c *Composer) MailhostUser(address string) (string, bool) {
	local, domain, ok := strings.Cut(address, "@")
	if c.cfg.Mailhost == nil || !ok || !strings.EqualFold(domain, c.cfg.Domain) {
		return "", false
	}
	local = strings.ToLower(local)
	if user, _, _ := strings.Cut(local, "+"); user == strings.ToLower(c.cfg.Local) {
		return "", false
	}
	return local, true
}

// Domain is the mail domain of pbem's addresses (and of its own mail
// host's mailboxes), in lower case.
func (c *Composer) Domain() string { return strings.ToLower(c.cfg.Domain) }

// MailboxesAdded returns the users of pbem's own mail host whose addresses
// facts give a seat or make an observer (in the order given, once each):
// the mailboxes a decision may need made.
func (c *Composer) MailboxesAdded(facts []events.Fact) []string {
	var users []string
	for _, f := range facts {
		var addrs []string
		switch {
		case f.Kind == play.FactPlayer, f.Kind == play.FactReferee && f.Bool("added"):
			addrs = f.Strs("addresses")
		case f.Kind == play.FactObserver && f.Bool("added"):
			addrs = []string{f.Str("address")}
		}
		for _, a := range addrs {
			if u, ok := c.MailhostUser(a); ok && !slices.Contains(users, u) {
				users = append(users, u)
			}
		}
	}
	return users
}

// newMailboxes is what the answer to a referee's mail shows of the
// mailboxes its decision may have made.
func (c *Composer) newMailboxes(facts []events.Fact) []templates.Login {
	var out []templates.Login
	for _, u := range c.MailboxesAdded(facts) {
		out = append(out, templates.Login{Address: u + "@" + c.Domain(), User: u,
			IMAP: c.cfg.Mailhost.IMAP, SMTP: c.cfg.Mailhost.SMTP, Password: NewMailboxMark(u)})
	}
	return out
}

// NewMailboxMark stands for the password of user's mailbox, made by the
// decision the mail follows, in the answer to the referee who made it.
//
// The mark names no seq. The log may store a decision after events that
// landed while it was decided (a mail sent, an order held: see
// store.Request.Past), so the seq its mails were composed for is not
// always the seq it is stored at; the server finds the decision from the
// mail's own place in the log, and fills in only the password of a
// mailbox made for that decision.
func NewMailboxMark(user string) string {
	return "{pbem:new-mailbox:" + user + "}"
}

// newMailboxRE matches NewMailboxMark, and the older form that also named
// the seq the decision was composed for (mails queued by an older pbem and
// not sent yet): that seq is not read, for the reason above.
var newMailboxRE = regexp.MustCompile(`\{pbem:new-mailbox:([^:{}\s]+)(?::[0-9]+)?\}`)

// NoPasswordGiven is what the answer to a referee shows in place of the
// password of a mailbox that existed before the referee's command.
const NoPasswordGiven = "none given: the mailbox existed before, and its holder has its password"

// Passwords are what FillPassword asks for.
type Passwords struct {
	// Own returns user's password (the welcome of a seat the game was
	// created with).
	Own func(user string) (string, error)
	// Made returns the password of user's mailbox if the decision the
	// mail follows made it, and "" if it existed before.
	Made func(user string) (string, error)
}

// FillPassword returns the body of q as it is sent. A welcome to one
// mailbox on pbem's own mail host gets that mailbox's password in place of
// PasswordMark; a referee's notice gets, in place of each NewMailboxMark,
// the password of a mailbox its decision made (or NoPasswordGiven). Every
// other mail goes as it is, so no text a player wrote can draw a password
// into a mail (and a referee's notice goes only to referees: the server
// gives only the passwords of mailboxes made for the decision the mail
// follows).
func (c *Composer) FillPassword(q *events.MailQueued, pw Passwords) (string, error) {
	body := q.Body
	switch q.Template {
	case templates.NameWelcome:
		if !strings.Contains(body, PasswordMark) {
			return body, nil
		}
		var users []string
		for _, a := range q.To {
			if u, ok := c.MailhostUser(a); ok && !slices.Contains(users, u) {
				users = append(users, u)
			}
		}
		if len(users) != 1 {
			return body, nil
		}
		p, err := pw.Own(users[0])
		if err != nil {
			return "", fmt.Errorf("mailbox password of %s: %w", users[0], err)
		}
		return strings.ReplaceAll(body, PasswordMark, p), nil
	case templates.NameReferee:
		var err error
		body = newMailboxRE.ReplaceAllStringFunc(body, func(mark string) string {
			if err != nil {
				return mark
			}
			user := newMailboxRE.FindStringSubmatch(mark)[1]
			p, perr := pw.Made(user)
			switch {
			case perr != nil:
				err = fmt.Errorf("password of new mailbox %s: %w", user, perr)
				return mark
			case p == "":
				return NoPasswordGiven
			}
			return p
		})
		return body, err
	}
	return body, nil
}
