package outbox

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"mime/quotedprintable"
	netmail "net/mail"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"pbem/events"
)

// Headers are the parts of a mail's header that come from the server's
// configuration rather than from the mail.queued event.
type Headers struct {
	// From is the author, e.g. `"pbem" <pbem@example.org>`. Its address is
	// also the SMTP envelope sender, so bounces come back to pbem.
	From string
	// ListDomain names the per-game List-Id: <GAME.ListDomain>.
	ListDomain string
	// Draw draws the boards the mail names (image.go); nil: a mail's
	// drawn board is left out, and its text says so.
	Draw Drawer
}

// Line lengths from RFC 5322 §2.1.1: a line MUST NOT exceed 998 bytes and
// SHOULD NOT exceed 78.
const (
	maxLine  = 998
	softLine = 78
)

// message is a rendered mail and its SMTP envelope.
type message struct {
	from  string   // envelope sender (MAIL FROM)
	rcpts []string // envelope recipients (RCPT TO), one per To address
	data  []byte   // RFC 5322 bytes, CRLF line endings
}

// Render returns the RFC 5322 bytes of the mail q, queued as event seq of
// game at time at (the event's recorded time: Render never reads the
// clock, so the same log always gives the same bytes, and a resend is
// byte-identical to the first send).
//
// The header fields always come in this order: Date, From, To, Reply-To
// (when q has one), Subject, Message-ID (q.MailID), In-Reply-To and
// References (when q has them; an id that cannot be written in a header
// is left out rather than failing the mail), List-Id, Auto-Submitted,
// X-Pbem-Event (game/seq of the mail.queued event), MIME-Version, then the
// content fields. The body is text/plain;
// charset=utf-8; format=fixed: 7bit when it is ASCII with lines of at most
// 998 bytes, quoted-printable otherwise. A drawn board (an attachment
// named *.png, see image.go) is drawn and sent as an inline PNG in a
// multipart/related with an HTML twin of the text, within ImageBudget.
// With text attachments the mail is a multipart/mixed. Every boundary is
// derived from the MailID. Lines end in CRLF.
func Render(game string, seq uint64, at time.Time, q *events.MailQueued, h Headers) ([]byte, error) {
	m, err := build(game, seq, at, q, h)
	if err != nil {
		return nil, err
	}
	return m.data, nil
}

func build(game string, seq uint64, at time.Time, q *events.MailQueued, h Headers) (*message, error) {
	if q == nil {
		return nil, errors.New("render: no mail")
	}
	m, err := buildMail(game, seq, at, q, h)
	if err != nil {
		return nil, fmt.Errorf("render mail %s of game %s: %w", q.MailID, game, err)
	}
	return m, nil
}

func buildMail(game string, seq uint64, at time.Time, q *events.MailQueued, h Headers) (*message, error) {
	if !isLabel(game) {
		return nil, fmt.Errorf("game id %q cannot name a List-Id (want letters, digits and '-')", game)
	}
	if h.ListDomain == "" || !isDotAtom(h.ListDomain) {
		return nil, fmt.Errorf("list domain %q is not a domain name", h.ListDomain)
	}
	mid, err := msgID(q.MailID)
	if err != nil {
		return nil, fmt.Errorf("the Message-ID header: %w", err)
	}
	from, err := parseAddress(h.From)
	if err != nil {
		return nil, fmt.Errorf("the From header: %w", err)
	}
	from.Name = FromName(from.Name, q)
	if len(q.To) == 0 {
		return nil, errors.New("no recipients")
	}
	to := make([]string, len(q.To))
	rcpts := make([]string, len(q.To))
	for i, s := range q.To {
		a, err := parseAddress(s)
		if err != nil {
			return nil, fmt.Errorf("the To header: %w", err)
		}
		to[i], rcpts[i] = formatAddress(a), a.Address
	}
	var replyTo string
	if q.ReplyTo != "" {
		a, err := parseAddress(q.ReplyTo)
		if err != nil {
			return nil, fmt.Errorf("Reply-To: %w", err)
		}
		replyTo = formatAddress(a)
	}
	// Threading ids may come from players' mail clients (the Message-ID of
	// the order answered). One that cannot be written in a header is left
	// out: a mail that threads less well beats a mail never sent.
	inReplyTo, _ := msgID(q.InReplyTo)
	refs := make([]string, 0, len(q.References))
	for _, r := range q.References {
		if id, err := msgID(r); err == nil {
			refs = append(refs, id)
		}
	}

	var b hdrWriter
	b.field("Date", at.UTC().Format(time.RFC1123Z), false)
	b.field("From", formatAddress(from), true)
	b.field("To", strings.Join(to, ", "), true)
	if replyTo != "" {
		b.field("Reply-To", replyTo, true)
	}
	b.field("Subject", encodeText(q.Subject), false)
	b.field("Message-ID", mid, true)
	if inReplyTo != "" {
		b.field("In-Reply-To", inReplyTo, true)
	}
	if len(refs) > 0 {
		b.field("References", strings.Join(refs, " "), true)
	}
	b.field("List-Id", "<"+game+"."+h.ListDomain+">", true)
	// RFC 3834: a mail sent by a program, not in answer to another. It is
	// deliberately not marked "Precedence: bulk", which makes some clients
	// and filters treat it as list traffic.
	b.field("Auto-Submitted", "auto-generated", true)
	// Ties a bounce or a complaint back to the event without a lookup.
	b.field("X-Pbem-Event", game+"/"+strconv.FormatUint(seq, 10), true)
	b.field("MIME-Version", "1.0", true)

	bodyType := mime.FormatMediaType("text/plain", map[string]string{"charset": "utf-8", "format": "fixed"})
	body, bodyCTE := encodeBody(q.Body)
	var texts, images []events.Attachment
	for _, a := range q.Attachments {
		if IsImage(a) {
			images = append(images, a)
		} else {
			texts = append(texts, a)
		}
	}
	// The body part: the text alone, or with a drawn board (image.go)
	// the text, its HTML twin and the picture.
	type part struct {
		hdr  hdrWriter
		body []byte
	}
	var first part
	first.hdr.field("Content-Type", bodyType, true)
	first.hdr.field("Content-Transfer-Encoding", bodyCTE, true)
	first.body = body
	if len(images) > 0 {
		rest := b.buf.Len() + len(body) + 512
		for _, a := range texts {
			rest += len(a.Body)*105/100 + 256
		}
		if im := drawImage(images[0], q.MailID, rest, len(q.Body), pictureBudget(q), h.Draw); im.png != nil || im.note != "" {
			first.hdr, first.body = relatedParts(q.Body, im, q.MailID)
		}
	}
	if len(texts) == 0 {
		b.buf.Write(first.hdr.buf.Bytes())
		if first.hdr.err != nil {
			return nil, first.hdr.err
		}
		if b.err != nil {
			return nil, b.err
		}
		b.buf.WriteString("\r\n")
		b.buf.Write(first.body)
		return &message{from: from.Address, rcpts: rcpts, data: b.buf.Bytes()}, nil
	}

	// multipart/mixed: the body, then each attachment.
	parts := make([]part, 0, 1+len(texts))
	parts = append(parts, first)
	for i, a := range texts {
		var p part
		name := attachmentName(a.Name, i)
		disp := mime.FormatMediaType("attachment", map[string]string{"filename": name})
		if disp == "" {
			return nil, fmt.Errorf("attachment %d: cannot encode file name %q", i+1, a.Name)
		}
		var cte string
		p.body, cte = encodeBody(a.Body)
		p.hdr.field("Content-Type", mime.FormatMediaType("text/plain", map[string]string{"charset": "utf-8"}), true)
		p.hdr.field("Content-Disposition", disp, true)
		p.hdr.field("Content-Transfer-Encoding", cte, true)
		parts = append(parts, p)
	}
	for i := range parts {
		if parts[i].hdr.err != nil {
			return nil, parts[i].hdr.err
		}
	}
	boundary := chooseBoundary(q.MailID, func(delim []byte) bool {
		for _, p := range parts {
			if bytes.Contains(p.body, delim) {
				return true
			}
		}
		return false
	})
	b.field("Content-Type", mime.FormatMediaType("multipart/mixed", map[string]string{"boundary": boundary}), true)
	if b.err != nil {
		return nil, b.err
	}
	b.buf.WriteString("\r\n")
	for _, p := range parts {
		// The CRLF before a delimiter belongs to the delimiter (RFC 2046
		// §5.1.1), so each part's own final line break survives.
		b.buf.WriteString("--" + boundary + "\r\n")
		b.buf.Write(p.hdr.buf.Bytes())
		b.buf.WriteString("\r\n")
		b.buf.Write(p.body)
		b.buf.WriteString("\r\n")
	}
	b.buf.WriteString("--" + boundary + "--\r\n")
	return &message{from: from.Address, rcpts: rcpts, data: b.buf.Bytes()}, nil
}

// chooseBoundary derives a MIME boundary from the mail id, so the same mail
// always renders to the same bytes. In the unlikely case that a part
// contains the delimiter, it derives the next one, still deterministically.
func chooseBoundary(mailID string, inUse func(delim []byte) bool) string {
	for n := 0; ; n++ {
		sum := sha256.Sum256([]byte("pbem boundary\x00" + mailID + "\x00" + strconv.Itoa(n)))
		b := "pbem-" + hex.EncodeToString(sum[:16])
		if !inUse([]byte("--" + b)) {
			return b
		}
	}
}

// attachmentName makes a file name safe for a header: no control
// characters and no path, falling back to attachment-N.txt.
func attachmentName(name string, i int) string {
	name = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f || r == '/' || r == '\\' {
			return '_'
		}
		return r
	}, strings.TrimSpace(name))
	if name == "" || !utf8.ValidString(name) {
		return fmt.Sprintf("attachment-%d.txt", i+1)
	}
	return name
}

// encodeBody normalises line breaks to CRLF, ends the text with one, and
// picks the transfer encoding: 7bit when every byte is printable ASCII (or
// a tab) and no line exceeds 998 bytes, so the mail reads as itself in any
// client and relay; quoted-printable otherwise. Non-ASCII UTF-8 is not sent
// as 8bit: that needs 8BITMIME at every hop (RFC 6152), and deciding per
// server would make the bytes depend on the server rather than the log.
func encodeBody(s string) ([]byte, string) {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	if is7bit(s) {
		return []byte(strings.ReplaceAll(s, "\n", "\r\n")), "7bit"
	}
	var buf bytes.Buffer
	w := quotedprintable.NewWriter(&buf) // writes line breaks as CRLF
	w.Write([]byte(s))                   // a bytes.Buffer does not fail
	w.Close()
	return buf.Bytes(), "quoted-printable"
}

func is7bit(s string) bool {
	line := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\n':
			line = 0
			continue
		case c == '\t', c >= ' ' && c < 0x7f:
		default:
			return false
		}
		line++
		if line > maxLine {
			return false
		}
	}
	return true
}

// encodeText renders an unstructured header value (a Subject): line breaks
// and tabs become spaces, and text that is not printable ASCII is written
// as RFC 2047 encoded-words, Q or B, whichever is shorter (Q for mostly
// Latin text, B for Japanese).
func encodeText(s string) string {
	s = strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ", "\t", " ").Replace(s)
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	qe := mime.QEncoding.Encode("utf-8", s)
	if qe == s {
		return s // printable ASCII: no encoding needed
	}
	if be := mime.BEncoding.Encode("utf-8", s); len(be) < len(qe) {
		return be
	}
	return qe
}

// parseAddress parses one RFC 5322 address ("Name <a@b>" or "a@b").
// Addresses with non-ASCII in the addr-spec would need SMTPUTF8 and are
// refused; display names may be in any script.
func parseAddress(s string) (*netmail.Address, error) {
	a, err := netmail.ParseAddress(s)
	if err != nil {
		return nil, fmt.Errorf("address %q: %w", s, err)
	}
	for i := 0; i < len(a.Address); i++ {
		if a.Address[i] >= 0x80 {
			return nil, fmt.Errorf("address %q: non-ASCII mailbox needs SMTPUTF8, which pbem does not send", s)
		}
	}
	return a, nil
}

// formatAddress writes a as a header address: the bare addr-spec when it
// has no display name, else the name (quoted or RFC 2047 encoded) and
// <addr-spec>.
func formatAddress(a *netmail.Address) string {
	s := a.String()
	if a.Name == "" {
		s = strings.TrimSuffix(strings.TrimPrefix(s, "<"), ">")
	}
	return s
}

// msgID returns id as a msg-id in angle brackets, accepting it with or
// without them.
func msgID(id string) (string, error) {
	id = strings.TrimSpace(id)
	id = strings.TrimSuffix(strings.TrimPrefix(id, "<"), ">")
	if id == "" {
		return "", errors.New("empty message id")
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; c <= ' ' || c >= 0x7f || c == '<' || c == '>' {
			return "", fmt.Errorf("message id %q: byte %q not allowed", id, c)
		}
	}
	return "<" + id + ">", nil
}

func isLabel(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

func isDotAtom(s string) bool {
	for _, l := range strings.Split(s, ".") {
		if !isLabel(l) {
			return false
		}
	}
	return true
}

// hdrWriter writes header fields, folding long ones at spaces.
type hdrWriter struct {
	buf bytes.Buffer
	err error
}

// field writes "name: value" CRLF, folded before a space so that lines stay
// within 78 bytes where a fold point allows it. In structured fields
// (addresses, ids) it never folds inside a quoted string. A line that
// cannot be brought under 998 bytes is an error.
func (w *hdrWriter) field(name, value string, structured bool) {
	if w.err != nil {
		return
	}
	if strings.ContainsAny(value, "\r\n") {
		w.err = fmt.Errorf("header %s: line break in value", name)
		return
	}
	line := name + ": " + value
	var out []string
	start := 0    // start of the current output line in line
	lastFold := 0 // last fold point (index of a space) after start, or 0
	inQuote, esc := false, false
	for i := len(name) + 2; i < len(line); i++ {
		c := line[i]
		if structured {
			switch {
			case esc:
				esc = false
			case inQuote && c == '\\':
				esc = true
			case c == '"':
				inQuote = !inQuote
			}
		}
		if c == ' ' && !inQuote && line[i-1] != ' ' && i+1 < len(line) && line[i+1] != ' ' {
			if i-start > softLine && lastFold > start {
				out = append(out, line[start:lastFold])
				start = lastFold
			}
			lastFold = i
		}
	}
	if len(line)-start > softLine && lastFold > start {
		out = append(out, line[start:lastFold])
		start = lastFold
	}
	out = append(out, line[start:])
	for _, l := range out {
		if len(l) > maxLine {
			w.err = fmt.Errorf("header %s: a line of %d bytes cannot be folded under %d", name, len(l), maxLine)
			return
		}
	}
	for _, l := range out {
		w.buf.WriteString(l)
		w.buf.WriteString("\r\n")
	}
}
