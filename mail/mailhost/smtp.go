package mailhost

import (
	"bufio"
	"bytes"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	gomessage "github.com/emersion/go-message"
	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// smtpSession is one SMTP connection. go-smtp calls its methods from the
// connection's goroutine only.
type smtpSession struct {
	h        *Host
	conn     *smtp.Conn
	authUser string // set by a successful AUTH

	from  string
	rcpts []recipient
}

// recipient is an accepted RCPT TO: the address as given and the account
// it delivers to.
type recipient struct {
	addr string
	acct *account
}

var _ smtp.AuthSession = (*smtpSession)(nil)

func (h *Host) newSMTPSession(c *smtp.Conn) (smtp.Session, error) {
	return &smtpSession{h: h, conn: c}, nil
}

// AuthMechanisms offers PLAIN, which every mail client speaks.
func (s *smtpSession) AuthMechanisms() []string { return []string{sasl.Plain} }

// Auth checks PLAIN credentials against the host's accounts.
func (s *smtpSession) Auth(mech string) (sasl.Server, error) {
	if mech != sasl.Plain {
		return nil, smtp.ErrAuthUnknownMechanism
	}
	return sasl.NewPlainServer(func(identity, username, password string) error {
		a := s.h.account(username)
		if a == nil || subtle.ConstantTimeCompare([]byte(password), []byte(a.password)) != 1 {
			s.h.log.Info("SMTP authentication failed", "user", username)
			return smtp.ErrAuthFailed
		}
		if identity != "" && !strings.EqualFold(identity, username) {
			return &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8},
				Message: "Authorization identity must be empty or equal the user name"}
		}
		s.authUser = a.name
		return nil
	}), nil
}

// Mail starts a transaction: only after AUTH, and only from the
// authenticated user's own address (unless the host is OpenDelivery); a
// SIZE parameter over the cap gets 552 now.
func (s *smtpSession) Mail(from string, opts *smtp.MailOptions) error {
	if !s.h.cfg.OpenDelivery {
		if s.authUser == "" {
			s.h.log.Info("mail refused: not authenticated", "from", from)
			return &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0},
				Message: "Authentication required: log in with your mailbox's user name and password"}
		}
		if !s.own(from) {
			s.h.log.Info("mail refused: sender is not the authenticated user", "from", from, "user", s.authUser)
			return &smtp.SMTPError{Code: 553, EnhancedCode: smtp.EnhancedCode{5, 7, 1},
				Message: fmt.Sprintf("<%s>: you may send only as %s", from, s.ownAddress())}
		}
	}
	if opts != nil && opts.Size > s.h.cfg.MaxBytes {
		return s.h.errTooLarge()
	}
	s.from = from
	s.rcpts = nil
	return nil
}

// ownAddress is the authenticated user's address.
func (s *smtpSession) ownAddress() string { return s.authUser + "@" + s.h.cfg.Domain }

// own reports whether addr is the authenticated user's address.
func (s *smtpSession) own(addr string) bool {
	return s.authUser != "" && strings.EqualFold(strings.TrimSuffix(addr, "."), s.ownAddress())
}

// Rcpt accepts addresses of known users in the host's domain, with any
// "+tag" after the user name; everything else gets 550.
func (s *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	a, err := s.h.resolve(to)
	if err != nil {
		s.h.log.Info("recipient rejected", "from", s.from, "to", to, "err", err.Message)
		return err
	}
	for _, r := range s.rcpts {
		if strings.EqualFold(r.addr, to) {
			return nil // the same address twice: deliver once
		}
	}
	s.rcpts = append(s.rcpts, recipient{addr: to, acct: a})
	return nil
}

// resolve maps a RCPT TO address to an account, or to the 550 reply.
func (h *Host) resolve(addr string) (*account, *smtp.SMTPError) {
	at := strings.LastIndexByte(addr, '@')
	if at <= 0 {
		return nil, &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 3},
			Message: fmt.Sprintf("<%s>: recipient must be user@%s", addr, h.cfg.Domain)}
	}
	local, domain := addr[:at], strings.TrimSuffix(addr[at+1:], ".")
	if !strings.EqualFold(domain, h.cfg.Domain) {
		return nil, &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1},
			Message: fmt.Sprintf("<%s>: relay access denied: this host only accepts mail for @%s", addr, h.cfg.Domain)}
	}
	user, _, _ := strings.Cut(local, "+")
	a := h.account(user)
	if a == nil {
		return nil, &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1},
			Message: fmt.Sprintf("<%s>: no such user here", addr)}
	}
	return a, nil
}

func (h *Host) errTooLarge() *smtp.SMTPError {
	return &smtp.SMTPError{Code: 552, EnhancedCode: smtp.EnhancedCode{5, 3, 4},
		Message: fmt.Sprintf("Message exceeds the maximum size of %d bytes", h.cfg.MaxBytes)}
}

// Data reads the message and appends it, with Return-Path and Received
// headers, to the INBOX of each recipient.
func (s *smtpSession) Data(r io.Reader) error {
	max := s.h.cfg.MaxBytes
	body, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		var smtpErr *smtp.SMTPError
		if errors.As(err, &smtpErr) {
			return smtpErr // go-smtp only maps an unwrapped *SMTPError to its reply
		}
		return fmt.Errorf("read message: %w", err)
	}
	if int64(len(body)) > max {
		s.h.log.Info("message rejected: too large", "from", s.from, "max_bytes", max)
		return s.h.errTooLarge()
	}
	if body, err = s.checkHeader(body); err != nil {
		return err
	}
	now := s.h.cfg.Now()
	var ms []*newMail
	for _, rc := range s.rcpts {
		// Return-Path records the envelope sender, as delivery agents do: it
		// is how a reader of the mailbox sees a null sender (a bounce).
		msg := append(fmt.Appendf(nil, "Return-Path: <%s>\r\n", clean(s.from)), s.received(rc.addr, now)...)
		msg = append(msg, s.authResults()...)
		msg = append(msg, body...)
		mb, err := rc.acct.mailbox(inboxName)
		if err != nil {
			return errDeliveryFailed
		}
		ms = append(ms, &newMail{box: mb, body: msg, t: now})
	}
	// Every copy on disk, or none: only then 250.
	if err := s.h.appendMail(ms); err != nil {
		s.h.log.Error("delivery failed", "from", s.from, "err", err)
		return errDeliveryFailed
	}
	for _, rc := range s.rcpts {
		s.h.log.Info("mail delivered", "from", s.from, "to", rc.addr, "user", rc.acct.name, "bytes", len(body))
	}
	return nil
}

var errDeliveryFailed = &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0},
	Message: "Local delivery failed, try again later"}

// headerReaders are the readers of the mails' headers: a mail took two
// new ones of 4 KB each, a seventh of what pbem bench throughput
// allocated.
var headerReaders = sync.Pool{New: func() any { return bufio.NewReader(nil) }}

// checkHeader reads body's header once, with a reader of the pool, for
// both checks: the From (unless the host takes mail from anyone) and the
// Authentication-Results a sender forged. It returns the body to store.
func (s *smtpSession) checkHeader(body []byte) ([]byte, error) {
	br := headerReaders.Get().(*bufio.Reader)
	defer func() {
		br.Reset(nil) // keeps nothing of the mail
		headerReaders.Put(br)
	}()
	br.Reset(bytes.NewReader(body))
	hdr, err := textproto.ReadHeader(br)
	if !s.h.cfg.OpenDelivery {
		if err := s.checkFrom(hdr, err); err != nil {
			return nil, err
		}
	}
	return s.h.stripAuthResults(body, hdr, err, br), nil
}

// checkFrom refuses a message whose From is not exactly the
// authenticated user, given its header h as read (err: it could not be).
func (s *smtpSession) checkFrom(h textproto.Header, err error) error {
	if err == nil {
		var list []*mail.Address
		mh := mail.Header{Header: gomessage.Header{Header: h}}
		if list, err = mh.AddressList("From"); err == nil && len(list) == 1 && s.own(list[0].Address) {
			return nil
		}
	}
	s.h.log.Info("mail refused: From is not the authenticated user", "user", s.authUser)
	return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1},
		Message: fmt.Sprintf("The From: header must be your own address, %s, and no other", s.ownAddress())}
}

// AuthServID is the authserv-id of the host's Authentication-Results
// (RFC 8601): its domain.
func (h *Host) AuthServID() string { return h.cfg.Domain }

// authResults is the host's own Authentication-Results field, on every
// mail it delivers: the user who logged in to send it (smtp.auth, the
// full address), or none for mail taken without a login (OpenDelivery).
func (s *smtpSession) authResults() []byte {
	if s.authUser == "" {
		return fmt.Appendf(nil, "Authentication-Results: %s; none\r\n", s.h.AuthServID())
	}
	return fmt.Appendf(nil, "Authentication-Results: %s;\r\n\tauth=pass smtp.auth=%s\r\n", s.h.AuthServID(), clean(s.ownAddress()))
}

// stripAuthResults removes from body's header every
// Authentication-Results field that carries the host's authserv-id: a
// sender wrote it, to pass for the host (RFC 8601 §5). A body without
// one is returned as it is. hdr is body's header as read from br (err:
// it could not be), and br is at the end of the header.
func (h *Host) stripAuthResults(body []byte, hdr textproto.Header, err error, br *bufio.Reader) []byte {
	if err != nil {
		return body
	}
	stripped := false
	for f := hdr.FieldsByKey("Authentication-Results"); f.Next(); {
		id, _, _ := strings.Cut(f.Value(), ";")
		if strings.EqualFold(strings.TrimSpace(stripARComments(id)), h.AuthServID()) {
			f.Del()
			stripped = true
		}
	}
	if !stripped {
		return body
	}
	h.log.Info("removed an Authentication-Results field carrying this host's id, written by the sender")
	var b bytes.Buffer
	if err := textproto.WriteHeader(&b, hdr); err != nil {
		return body
	}
	if _, err := io.Copy(&b, br); err != nil {
		return body
	}
	return b.Bytes()
}

// stripARComments drops "(…)" comments (no nesting) from an authserv-id.
func stripARComments(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	if f := strings.Fields(b.String()); len(f) > 0 {
		return f[0] // an id may be followed by a version
	}
	return ""
}

// received returns the trace header (RFC 5321 §4.4) for one recipient:
//
//	Received: from HELO ([IP])
//		by DOMAIN (pbem mailhost) with ESMTP
//		for <RCPT>; DATE
//
// with ESMTPA when the client authenticated (RFC 3848) and DATE in
// RFC 5322 form.
func (s *smtpSession) received(rcpt string, now time.Time) []byte {
	helo := clean(s.conn.Hostname())
	if helo == "" {
		helo = "unknown"
	}
	with := "ESMTP"
	if s.authUser != "" {
		with = "ESMTPA"
	}
	return fmt.Appendf(nil, "Received: from %s (%s)\r\n\tby %s (pbem mailhost) with %s\r\n\tfor <%s>; %s\r\n",
		helo, addressLiteral(s.conn.Conn().RemoteAddr()), s.h.cfg.Domain, with, clean(rcpt), now.Format(time.RFC1123Z))
}

// addressLiteral formats a peer's IP as an RFC 5321 address literal.
func addressLiteral(a net.Addr) string {
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return "[unknown]"
	}
	ip := net.ParseIP(host)
	switch {
	case ip == nil:
		return "[unknown]"
	case ip.To4() != nil:
		return "[" + ip.String() + "]"
	default:
		return "[IPv6:" + ip.String() + "]"
	}
}

// clean keeps s to printable ASCII without spaces or parentheses, so it
// cannot break the header.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		if r <= ' ' || r >= 0x7f || r == '(' || r == ')' || r == '<' || r == '>' || r == ';' {
			return '?'
		}
		return r
	}, s)
}

// Reset drops the current transaction.
func (s *smtpSession) Reset() {
	s.from = ""
	s.rcpts = nil
}

// Logout ends the session.
func (s *smtpSession) Logout() error { return nil }
