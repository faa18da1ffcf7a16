// Package parse turns the raw bytes of one received mail into what the order
// engine needs: the sender, the recipient addresses (where the per-player
// reply token pbem+<game>.<player>.<hmac>@host is found), the threading
// headers, whether the mail was sent by a machine (auto-replies, bounces,
// mailing lists, which must never be answered), and the player's new text
// as numbered lines, so that an error reply can quote "line 3".
//
// Mail comes from ordinary clients, so Parse is lenient: it prefers
// text/plain in multipart/alternative and converts HTML-only mail to text;
// it decodes quoted-printable and base64, RFC 2047 headers, format=flowed
// (RFC 3676), and the charsets players use (UTF-8, ISO-8859-2,
// windows-1250, ISO-2022-JP, Shift_JIS, EUC-JP and every other one
// golang.org/x/text knows), invalid bytes becoming U+FFFD; it drops HTML
// text a reader does not see (display:none, a preheader of size 0); and it
// drops what is not new text, in the shapes the mail clients of some
// twenty-five languages write (lang.go): quoted lines, the client's
// attribution ("On … wrote:", "Am … schrieb:", "W dniu … pisze:", "…
// さんは書きました:", wrapped over up to four lines), the original message
// below "-----Original Message-----" and its translations or Outlook's
// "From: … Sent: …" block, a mailing list's footer, phone trailers in their
// known shapes ("Sent from my iPhone"), a greeting on the first line, and
// the signature: after "-- ", or a sign-off under the orders ("Thanks,
// Anna", a closing line and a few lines under it, the sender's name on a
// line of its own). Damage in the body (bad base64, an unknown charset) is
// recorded in Message.Defects rather than failing the mail.
//
// A text attachment (orders.txt, or an octet-stream file that is text) is
// returned too. Message.Orders chooses where the orders are: the body,
// unless the body's new text holds nothing but '#' comments and lines
// saying the orders are attached ("Orders attached.", "Befehle im
// Anhang"), in which case the first text attachment that has more.
//
// The package imports github.com/emersion/go-message/charset, which sets
// message.CharsetReader for the whole program, so go-message converts the
// text parts whose charset it knows; charset.go converts the rest with
// golang.org/x/text.
package parse

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	netmail "net/mail"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	message "github.com/emersion/go-message"
	"github.com/emersion/go-message/textproto"
)

// Limits caps what Parse accepts. A zero field takes its value from
// DefaultLimits.
type Limits struct {
	// MaxBytes caps the size of the raw mail.
	MaxBytes int
	// MaxParts caps the number of MIME entities, the mail itself included.
	MaxParts int
	// MaxTextBytes caps the text Parse returns: the bytes of the lines of
	// the body's new text and of all text attachments together.
	MaxTextBytes int
}

// DefaultLimits are the limits a zero Limits field means.
var DefaultLimits = Limits{
	MaxBytes:     2 << 20,
	MaxParts:     100,
	MaxTextBytes: 64 << 10,
}

func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultLimits.MaxBytes
	}
	if l.MaxParts <= 0 {
		l.MaxParts = DefaultLimits.MaxParts
	}
	if l.MaxTextBytes <= 0 {
		l.MaxTextBytes = DefaultLimits.MaxTextBytes
	}
	return l
}

// What a LimitError reports as exceeded.
const (
	LimitBytes = "bytes"
	LimitParts = "parts"
	LimitText  = "text"
)

// LimitError reports a mail over one of the Limits. Its message is meant to
// be quoted to the sender.
type LimitError struct {
	Limit string // LimitBytes, LimitParts or LimitText
	Max   int    // the limit
	Got   int    // the size found; for LimitParts, where counting stopped
}

func (e *LimitError) Error() string {
	switch e.Limit {
	case LimitBytes:
		return fmt.Sprintf("the mail is %d bytes long, more than the %d accepted", e.Got, e.Max)
	case LimitParts:
		return fmt.Sprintf("the mail has more than %d MIME parts", e.Max)
	default:
		return fmt.Sprintf("the mail has %d bytes of new text, more than the %d accepted", e.Got, e.Max)
	}
}

// Message is what Parse finds in a mail. Header values are decoded to
// valid UTF-8.
type Message struct {
	From        Address
	To          []Address
	Cc          []Address
	DeliveredTo []Address // every Delivered-To, topmost (last hop) first
	OriginalTo  []Address // X-Original-To
	// ReturnPath is the address of the first Return-Path, without the
	// angle brackets; "" when there is none or it is the null sender.
	ReturnPath string
	// Sender is the Sender field, when there is one.
	Sender Address
	// AuthResults are the Authentication-Results fields, topmost (the
	// last hop's) first, as written; DKIMSignatures the DKIM-Signature
	// fields. The intake decides whom to trust.
	AuthResults    []string
	DKIMSignatures []string
	Subject        string
	MessageID      string   // without angle brackets
	InReplyTo      []string // message IDs, without angle brackets
	References     []string // message IDs, oldest first, without angle brackets
	Date           time.Time
	// Auto says why the mail was sent by a machine, such as
	// "Auto-Submitted: auto-replied" or "Content-Type: multipart/report";
	// "" for a person's mail. Such a mail must not be answered.
	Auto string
	// Body is the new text of the mail's body.
	Body Text
	// Attachments are the text/plain attachments, in the mail's order.
	Attachments []Text
	// Defects lists damage Parse worked around, for the log.
	Defects []string
}

// Address is a mailbox.
type Address struct {
	Name string // display name, may be ""
	Addr string // addr-spec, local@domain
}

// Text is a body or a text attachment.
type Text struct {
	// Name is the attachment's file name; "" for the body.
	Name string
	// HTML reports that the text was converted from text/html.
	HTML bool
	// Lines are the non-blank lines kept, trailing white space removed;
	// No counts from 1 over all lines of the decoded text (after
	// format=flowed lines are joined or HTML is converted). A body keeps
	// only the sender's new text; an attachment keeps every line.
	Lines []Line
	// Quoted are a body's quoted lines, their '>' marks removed (a Key
	// line the sender quoted instead of writing is found here).
	Quoted []Line
}

// Line is one line of text and its number in the text it comes from.
type Line struct {
	No   int
	Text string
}

// Orders returns the text the orders are in: the body, unless its new text
// holds nothing but '#' comments and lines saying the orders are attached
// ("Orders attached.", "Befehle im Anhang", "Rozkazy w załączniku"), in
// which case the first attachment that holds more than comments. With
// neither, it returns the body.
func (m *Message) Orders() Text {
	if hasContent(m.Body.Lines, true) {
		return m.Body
	}
	for _, a := range m.Attachments {
		if hasContent(a.Lines, false) {
			return a
		}
	}
	return m.Body
}

// hasContent reports whether lines hold a line other than a '#' comment
// and, if notes, other than a note pointing at an attachment.
func hasContent(lines []Line, notes bool) bool {
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l.Text), "#") || notes && isAttachmentNote(l.Text) {
			continue
		}
		return true
	}
	return false
}

// isAttachmentNote reports whether line is a short sentence pointing at
// an attachment: it names one (attachmentWords) and has no more than a
// dozen words.
func isAttachmentNote(line string) bool {
	t := lower(line)
	if len(strings.Fields(t)) > 12 {
		return false
	}
	for _, w := range attachmentWords {
		if len(w) <= 3 {
			if in(w, words(t)) {
				return true
			}
			continue
		}
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// Recipients returns the addresses the mail was sent to, as the To, Cc,
// Delivered-To and X-Original-To headers give them, each once (compared
// without case), in that order: the places to look for a reply token.
func (m *Message) Recipients() []string {
	var out []string
	seen := make(map[string]bool)
	for _, list := range [][]Address{m.To, m.Cc, m.DeliveredTo, m.OriginalTo} {
		for _, a := range list {
			k := strings.ToLower(a.Addr)
			if a.Addr == "" || seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, a.Addr)
		}
	}
	return out
}

var errNoHeader = errors.New("the mail has no header fields")

// maxHeaderBytes bounds the header read from a mail over MaxBytes, which is
// read only to classify it.
const maxHeaderBytes = 256 << 10

// maxDefects bounds Message.Defects.
const maxDefects = 20

// maxDepth bounds the nesting of multiparts; each level reads its bytes
// again. Clients nest three or four deep.
const maxDepth = 12

// Parse reads one mail. It fails when the header cannot be read, and with
// a *LimitError when the mail is over a limit; with a LimitError it still
// returns the Message with the header fields and Auto set (but no text), so
// the caller can tell whether the mail may be answered at all.
func Parse(raw []byte, lim Limits) (*Message, error) {
	lim = lim.withDefaults()
	raw = skipMboxFrom(raw)
	src := raw
	tooBig := len(raw) > lim.MaxBytes
	if tooBig {
		src = raw[:min(len(raw), maxHeaderBytes)]
	}
	br := bufio.NewReader(bytes.NewReader(src))
	h, err := textproto.ReadHeader(br)
	if err != nil && !(h.Len() > 0 && (err == io.EOF || tooBig)) {
		return nil, fmt.Errorf("parse: reading header: %w", err)
	}
	if h.Len() == 0 {
		return nil, fmt.Errorf("parse: reading header: %w", errNoHeader)
	}
	m := &Message{}
	m.readHeader(h)
	if tooBig {
		return m, fmt.Errorf("parse: %w", &LimitError{Limit: LimitBytes, Max: lim.MaxBytes, Got: len(raw)})
	}

	w := walker{lim: lim, m: m}
	top, newErr := message.New(message.Header{Header: h}, br)
	body, err := w.entity(top, newErr, 0)
	if err != nil {
		return m, fmt.Errorf("parse: %w", err)
	}
	if body != nil {
		lines, quoted := newText(body.text, m.From)
		m.Body = Text{HTML: body.html, Lines: lines, Quoted: quoted}
	}
	total := textBytes(m.Body.Lines)
	for _, a := range m.Attachments {
		total += textBytes(a.Lines)
	}
	if total > lim.MaxTextBytes {
		m.Body, m.Attachments = Text{}, nil
		return m, fmt.Errorf("parse: %w", &LimitError{Limit: LimitText, Max: lim.MaxTextBytes, Got: total})
	}
	return m, nil
}

func textBytes(lines []Line) int {
	n := 0
	for _, l := range lines {
		n += len(l.Text)
	}
	return n
}

// skipMboxFrom drops the "From sender date" line that starts a mail stored
// in an mbox file.
func skipMboxFrom(raw []byte) []byte {
	if !bytes.HasPrefix(raw, []byte("From ")) {
		return raw
	}
	if i := bytes.IndexByte(raw, '\n'); i >= 0 {
		return raw[i+1:]
	}
	return nil
}

func (m *Message) defect(format string, args ...any) {
	if len(m.Defects) < maxDefects {
		m.Defects = append(m.Defects, fmt.Sprintf(format, args...))
	}
}

// wordDecoder decodes RFC 2047 encoded words.
var wordDecoder = &mime.WordDecoder{CharsetReader: wordCharsetReader}

// headerText decodes an unstructured header value: encoded words, unfolded,
// white space collapsed, valid UTF-8.
func headerText(v string) string {
	dec, err := wordDecoder.DecodeHeader(v)
	if err != nil {
		dec = v
	}
	return oneLine(dec)
}

// oneLine returns s as valid UTF-8 on one line, white space collapsed.
func oneLine(s string) string {
	return strings.Join(strings.FieldsFunc(validUTF8([]byte(s)), func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r)
	}), " ")
}

func (m *Message) readHeader(h textproto.Header) {
	if from := addressList(h.Get("From")); len(from) > 0 {
		m.From = from[0]
	}
	m.To = addressList(strings.Join(h.Values("To"), ", "))
	m.Cc = addressList(strings.Join(h.Values("Cc"), ", "))
	for _, v := range h.Values("Delivered-To") {
		m.DeliveredTo = append(m.DeliveredTo, addressList(v)...)
	}
	for _, v := range h.Values("X-Original-To") {
		m.OriginalTo = append(m.OriginalTo, addressList(v)...)
	}
	if rp := h.Values("Return-Path"); len(rp) > 0 {
		if a := addressList(rp[0]); len(a) > 0 {
			m.ReturnPath = a[0].Addr
		}
	}
	if sender := addressList(h.Get("Sender")); len(sender) > 0 {
		m.Sender = sender[0]
	}
	m.AuthResults = h.Values("Authentication-Results")
	m.DKIMSignatures = h.Values("DKIM-Signature")
	m.Subject = headerText(h.Get("Subject"))
	if ids := msgIDs(h.Get("Message-Id")); len(ids) > 0 {
		m.MessageID = ids[0]
	}
	m.InReplyTo = msgIDs(h.Get("In-Reply-To"))
	m.References = msgIDs(strings.Join(h.Values("References"), " "))
	if d := strings.TrimSpace(h.Get("Date")); d != "" {
		t, err := netmail.ParseDate(d)
		if err != nil {
			m.defect("Date %q: %v", clip(d), err)
		} else {
			m.Date = t
		}
	}
	m.Auto = classify(h, m.From)
}

// addressList parses an address list leniently: when the list is not
// RFC 5322, the addresses are picked out of it.
func addressList(v string) []Address {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil
	}
	p := netmail.AddressParser{WordDecoder: wordDecoder}
	if list, err := p.ParseList(v); err == nil {
		out := make([]Address, 0, len(list))
		for _, a := range list {
			out = append(out, Address{Name: oneLine(a.Name), Addr: oneLine(a.Address)})
		}
		return out
	}
	var out []Address
	for _, part := range splitAddresses(v) {
		if a, ok := looseAddress(part); ok {
			out = append(out, a)
		}
	}
	return out
}

// splitAddresses splits a list at commas outside quotes and angle brackets.
func splitAddresses(v string) []string {
	var parts []string
	inQuote, angle, start := false, 0, 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '\\' && inQuote:
			i++
		case c == '"':
			inQuote = !inQuote
		case c == '<' && !inQuote:
			angle++
		case c == '>' && !inQuote && angle > 0:
			angle--
		case c == ',' && !inQuote && angle == 0:
			parts = append(parts, v[start:i])
			start = i + 1
		}
	}
	return append(parts, v[start:])
}

// looseAddress finds the address in a malformed mailbox: the last <…>
// holding an '@', or a word holding one.
func looseAddress(s string) (Address, bool) {
	if i := strings.LastIndexByte(s, '<'); i >= 0 {
		if j := strings.IndexByte(s[i:], '>'); j > 0 {
			addr := strings.TrimSpace(s[i+1 : i+j])
			if strings.Contains(addr, "@") && !strings.ContainsAny(addr, " \t<>") {
				name := strings.Trim(strings.TrimSpace(s[:i]), `"`)
				return Address{Name: headerText(name), Addr: validUTF8([]byte(addr))}, true
			}
		}
	}
	for _, w := range strings.Fields(s) {
		w = strings.Trim(w, `<>"'(),;`)
		if strings.Contains(w, "@") {
			return Address{Addr: validUTF8([]byte(w))}, true
		}
	}
	return Address{}, false
}

// msgIDs returns the message IDs in v without angle brackets; when v has
// none in brackets, its words.
func msgIDs(v string) []string {
	var ids []string
	rest := v
	for {
		i := strings.IndexByte(rest, '<')
		if i < 0 {
			break
		}
		j := strings.IndexByte(rest[i:], '>')
		if j < 0 {
			break
		}
		if id := strings.TrimSpace(rest[i+1 : i+j]); id != "" && !strings.ContainsAny(id, " \t\r\n") {
			ids = append(ids, validUTF8([]byte(id)))
		}
		rest = rest[i+j+1:]
	}
	if len(ids) == 0 && !strings.ContainsAny(v, "<>") {
		for _, w := range strings.Fields(v) {
			ids = append(ids, validUTF8([]byte(w)))
		}
	}
	return ids
}

// clip shortens a header value for a reason or a defect.
func clip(s string) string {
	s = oneLine(s)
	const n = 80
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// headerToken returns the first word of a header value in lower case,
// without parameters or comments.
func headerToken(v string) string {
	v, _, _ = strings.Cut(v, ";")
	v, _, _ = strings.Cut(v, "(")
	return strings.ToLower(strings.TrimSpace(v))
}

// classify says why the mail was sent by a machine, or "" (RFC 3834 and
// common practice).
func classify(h textproto.Header, from Address) string {
	if t, params := mediaType(h.Get("Content-Type")); t == "multipart/report" {
		reason := "Content-Type: multipart/report"
		if rt := params["report-type"]; rt != "" {
			reason += "; report-type=" + clip(rt)
		}
		return reason
	}
	if rp := h.Values("Return-Path"); len(rp) > 0 {
		v := strings.TrimSpace(rp[0])
		if v == "" || strings.Trim(v, "<> \t") == "" {
			return "Return-Path: <> (null sender)"
		}
	}
	local, _, _ := strings.Cut(strings.ToLower(from.Addr), "@")
	switch local {
	case "mailer-daemon", "mailer_daemon", "mailerdaemon", "postmaster":
		return "From: " + clip(from.Addr)
	}
	for _, v := range h.Values("Auto-Submitted") {
		if t := headerToken(v); t != "" && t != "no" {
			return "Auto-Submitted: " + clip(v)
		}
	}
	for _, k := range []string{"X-Autoreply", "X-Autorespond"} {
		if h.Has(k) && headerToken(h.Get(k)) != "no" {
			return k + ": " + clip(h.Get(k))
		}
	}
	for _, k := range []string{"List-Id", "List-Unsubscribe"} {
		if h.Has(k) {
			return k + ": " + clip(h.Get(k))
		}
	}
	for _, v := range h.Values("Precedence") {
		switch headerToken(v) {
		case "bulk", "junk", "list", "auto_reply":
			return "Precedence: " + clip(v)
		}
	}
	return ""
}

// mediaType parses a Content-Type or Content-Disposition value leniently:
// when mime.ParseMediaType rejects it (duplicate or malformed parameters
// are common), the value and parameters are split by hand. The value is in
// lower case, parameter names too.
func mediaType(v string) (string, map[string]string) {
	if strings.TrimSpace(v) == "" {
		return "", map[string]string{}
	}
	if t, params, err := mime.ParseMediaType(v); err == nil {
		for k, p := range params {
			params[k] = headerText(p)
		}
		return t, params
	}
	fields := strings.Split(v, ";")
	t := strings.ToLower(strings.TrimSpace(fields[0]))
	params := make(map[string]string)
	for _, f := range fields[1:] {
		k, val, ok := strings.Cut(f, "=")
		if !ok {
			continue
		}
		k = strings.ToLower(strings.TrimSpace(k))
		val = strings.Trim(strings.TrimSpace(val), `"`)
		if _, dup := params[k]; !dup && k != "" {
			params[k] = headerText(val)
		}
	}
	return t, params
}

// candidate is a text that may be the mail's body.
type candidate struct {
	text string // normalised, format=flowed undone, HTML converted
	html bool
}

// walker walks a mail's MIME tree.
type walker struct {
	lim   Limits
	m     *Message
	parts int
}

// partName names a part in Defects.
func partName(t, name string) string {
	if name != "" {
		return fmt.Sprintf("%s part %q", t, clip(name))
	}
	return t + " part"
}

// entity reads e (whose construction returned newErr) and what it holds.
// It returns the entity's body candidate, or nil, and appends text
// attachments to the Message. Its only errors are LimitErrors.
func (w *walker) entity(e *message.Entity, newErr error, depth int) (*candidate, error) {
	w.parts++
	if w.parts > w.lim.MaxParts {
		return nil, &LimitError{Limit: LimitParts, Max: w.lim.MaxParts, Got: w.parts}
	}
	ctHeader := e.Header.Get("Content-Type")
	t, params := mediaType(ctHeader)
	if t == "" || !strings.Contains(t, "/") {
		t = "text/plain" // RFC 2045 5.2
	}
	disp, dparams := mediaType(e.Header.Get("Content-Disposition"))
	name := dparams["filename"]
	if name == "" {
		name = params["name"]
	}
	attached := disp == "attachment" || name != ""
	if message.IsUnknownEncoding(newErr) {
		w.m.defect("%s: unknown Content-Transfer-Encoding %q, read as is",
			partName(t, name), clip(e.Header.Get("Content-Transfer-Encoding")))
	}

	switch {
	case strings.HasPrefix(t, "multipart/"):
		if depth >= maxDepth {
			w.m.defect("%s nested more than %d deep: its content is ignored", t, maxDepth)
			return nil, nil
		}
		return w.multipart(e, t, params, depth)
	case t == "text/plain" || t == "text/html":
		if attached && t == "text/html" {
			return nil, nil
		}
	case t == "application/octet-stream" && attached:
		// Some clients send a text file as octet-stream (orders.txt, or a
		// file with no extension): it is read if it is text.
	default:
		return nil, nil
	}

	data, err := io.ReadAll(e.Body)
	if err != nil {
		w.m.defect("%s: %v; kept the %d bytes read before", partName(t, name), err, len(data))
	}
	if t == "application/octet-stream" && params["charset"] == "" && !utf8.Valid(data) {
		return nil, nil // a binary file
	}
	s := w.decodeText(e, newErr, data, t, params, name)
	if t == "application/octet-stream" && !looksText(s) {
		return nil, nil
	}
	if t == "text/html" {
		s = htmlToText(s)
	}
	s = normalise(s)
	if t == "text/plain" && strings.EqualFold(params["format"], "flowed") {
		s = unflow(s, strings.EqualFold(params["delsp"], "yes"))
	}
	if attached {
		w.m.Attachments = append(w.m.Attachments, Text{Name: name, Lines: allLines(s)})
		return nil, nil
	}
	return &candidate{text: s, html: t == "text/html"}, nil
}

// multipart walks the parts of e, of type t. Of multipart/alternative it
// returns text/plain before text/html; of other multiparts the first body
// candidate found.
func (w *walker) multipart(e *message.Entity, t string, params map[string]string, depth int) (*candidate, error) {
	boundary := params["boundary"]
	if boundary == "" {
		w.m.defect("%s without a boundary: its content is ignored", t)
		return nil, nil
	}
	alternative := t == "multipart/alternative"
	var best *candidate
	mr := textproto.NewMultipartReader(e.Body, boundary)
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			w.m.defect("%s: %v; later parts are ignored", t, err)
			break
		}
		child, newErr := message.New(message.Header{Header: p.Header}, p)
		c, err := w.entity(child, newErr, depth+1)
		if err != nil {
			return nil, err
		}
		switch {
		case c == nil:
		case best == nil:
			best = c
		case alternative && best.html && !c.html:
			best = c
		}
	}
	if t == "multipart/encrypted" {
		w.m.defect("the mail is encrypted; it cannot be read")
	}
	return best, nil
}

// decodeText converts a text part's content to valid UTF-8. go-message has
// converted it already (through go-message/charset) when its Content-Type
// is text/* and names a charset that package knows; what it did not convert
// is converted here.
func (w *walker) decodeText(e *message.Entity, newErr error, data []byte, t string, params map[string]string, name string) string {
	gt, gparams, perr := e.Header.ContentType()
	if perr == nil && strings.HasPrefix(gt, "text/") && !message.IsUnknownCharset(newErr) {
		switch cs := strings.ToLower(gparams["charset"]); cs {
		case "", "utf-8", "us-ascii":
		default:
			return strings.TrimPrefix(latin1AsWindows1252(cs, validUTF8(data)), "\uFEFF")
		}
	}
	cs := params["charset"]
	if cs == "" && t == "text/html" && !utf8.Valid(data) {
		cs = sniffHTMLCharset(data)
	}
	s, ok := decodeCharset(cs, data)
	if !ok {
		w.m.defect("%s: unknown charset %q, read as UTF-8", partName(t, name), clip(cs))
	}
	return strings.TrimPrefix(s, "\uFEFF")
}

// sniffHTMLCharset finds the charset an HTML document declares in a <meta>
// element, or "".
func sniffHTMLCharset(data []byte) string {
	head := strings.ToLower(string(data[:min(len(data), 4096)]))
	i := strings.Index(head, "charset=")
	if i < 0 {
		return ""
	}
	rest := strings.TrimLeft(head[i+len("charset="):], `"' `)
	end := strings.IndexFunc(rest, func(r rune) bool {
		return !(r < utf8.RuneSelf && (r == '-' || r == '_' || r == '.' || r == ':' || isASCIILetter(byte(r)) || isDigit(byte(r))))
	})
	if end < 0 {
		end = len(rest)
	}
	return rest[:end]
}

// looksText reports whether a decoded octet-stream attachment is a text
// file: no control characters but tab, CR, LF and form feed.
func looksText(data string) bool {
	for _, c := range []byte(data) {
		if c < 0x20 && c != '\t' && c != '\r' && c != '\n' && c != '\f' || c == 0x7f {
			return false
		}
	}
	return true
}
