package outbox

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"pbem/internal/golden"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-message/mail"

	"pbem/events"
)

var testHeaders = Headers{From: `"pbem" <pbem@pbem.example.org>`, ListDomain: "lists.pbem.example.org"}

var testAt = time.Date(2026, 3, 14, 9, 26, 53, 589793238, time.UTC)

const board = `Turn 5, USA to move.

   _____         _____
  /2314 \       /2514 \
 /  . .  \_____/  ^ ^  \     . clear   ^ hill
 \ NEWT* /2414 \ 1CAV  /     ~ river   = pike
  \_____/ ~ ~ ~ \_____/
        \ JACK  /
         \_____/

Reply to this mail with your orders, one per line.
.a line that starts with a dot
`

func plainMail() *events.MailQueued {
	return &events.MailQueued{
		MailID:    "<g1.5.usa@pbem.example.org>",
		To:        []string{"Anna Nowak <anna@example.org>"},
		Subject:   "[g1] Turn 5: your move",
		Template:  "yourmove",
		ReplyTo:   "pbem+g1.usa.3f9a2c@pbem.example.org",
		InReplyTo: "<g1.4.usa@pbem.example.org>",
		References: []string{"<g1.0@pbem.example.org>", "<g1.1.usa@pbem.example.org>",
			"<g1.2.usa@pbem.example.org>", "<g1.3.usa@pbem.example.org>", "<g1.4.usa@pbem.example.org>"},
		Body: board,
	}
}

func intlMail() *events.MailQueued {
	return &events.MailQueued{
		MailID:     "g1.6.csa@pbem.example.org", // without brackets: Render adds them
		To:         []string{"Łukasz Żółtowski <lukasz@example.pl>", "山田太郎 <taro@example.jp>"},
		Subject:    "[g1] Tura 6: zażółć gęślą jaźń — 第6ターン、あなたの番です",
		ReplyTo:    "pbem+g1.csa.77e0b1@pbem.example.org",
		InReplyTo:  "<g1.5.csa@pbem.example.org>",
		References: []string{"<g1.0@pbem.example.org>", "<g1.5.csa@pbem.example.org>"},
		Body: "Cześć Łukasz,\n\nTwoja kolej. Jednostki: JACK w 2414, zmęczenie ≥ 3.\n" +
			"山田さん、第6ターンです。命令を返信してください。\n" +
			"A line with trailing spaces   \n= an equals sign at the start\n",
	}
}

func attachmentMail() *events.MailQueued {
	q := plainMail()
	q.MailID = "<g1.7.usa@pbem.example.org>"
	q.Subject = "[g1] Turn 7: the whole map"
	q.Body = "The whole map is attached.\n"
	q.Attachments = []events.Attachment{
		{Name: "map.txt", Body: board},
		{Name: "mapa — tura 7.txt", Body: "Mapa całości: Łódź, Kraków.\n"},
	}
	return q
}

// normalize is what a body should read as after a round trip: LF line
// endings and a final line break.
func normalize(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s
}

func TestRenderGolden(t *testing.T) {
	tests := []struct {
		file string
		seq  uint64
		q    *events.MailQueued
	}{
		{"plain.eml", 5, plainMail()},
		{"intl.eml", 6, intlMail()},
		{"attachment.eml", 7, attachmentMail()},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got, err := Render("g1", tt.seq, testAt, tt.q, testHeaders)
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, tt.file, got)

			again, err := Render("g1", tt.seq, testAt, tt.q, testHeaders)
			if err != nil || !bytes.Equal(got, again) {
				t.Fatalf("a second Render differs (err %v)", err)
			}
			checkWellFormed(t, got)
			checkRoundTrip(t, got, tt.q)
		})
	}
}

// checkWellFormed checks CRLF line endings and line lengths.
func checkWellFormed(t *testing.T, b []byte) {
	t.Helper()
	if !bytes.HasSuffix(b, []byte("\r\n")) {
		t.Error("mail does not end with CRLF")
	}
	hdrEnd := bytes.Index(b, []byte("\r\n\r\n"))
	for i, l := range bytes.Split(bytes.TrimSuffix(b, []byte("\r\n")), []byte("\r\n")) {
		if bytes.ContainsAny(l, "\r\n") {
			t.Errorf("line %d has a bare CR or LF: %q", i+1, l)
		}
		if len(l) > maxLine {
			t.Errorf("line %d is %d bytes long", i+1, len(l))
		}
	}
	for i, l := range strings.Split(string(b[:hdrEnd]), "\r\n") {
		// Encoded words are up to 75 bytes and are never split.
		if len(l) > softLine && !strings.Contains(l, "=?utf-8?") {
			t.Errorf("header line %d is %d bytes long: %q", i+1, len(l), l)
		}
		if strings.TrimSpace(l) == "" {
			t.Errorf("header line %d is blank", i+1)
		}
	}
}

// checkRoundTrip parses b with go-message and compares it with q.
func checkRoundTrip(t *testing.T, b []byte, q *events.MailQueued) {
	t.Helper()
	r, err := mail.CreateReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("go-message cannot read the mail: %v", err)
	}
	defer r.Close()
	h := r.Header
	strip := func(id string) string { return strings.Trim(id, "<>") }

	if id, err := h.MessageID(); err != nil || id != strip(q.MailID) {
		t.Errorf("Message-ID = %q, %v; want %q", id, err, strip(q.MailID))
	}
	if d, err := h.Date(); err != nil || !d.Equal(testAt.Truncate(time.Second)) {
		t.Errorf("Date = %v, %v; want %v", d, err, testAt.Truncate(time.Second))
	}
	if s, err := h.Subject(); err != nil || s != q.Subject {
		t.Errorf("Subject = %q, %v; want %q", s, err, q.Subject)
	}
	from, err := h.AddressList("From")
	if err != nil || len(from) != 1 || from[0].Name != FromName("pbem", q) || from[0].Address != "pbem@pbem.example.org" {
		t.Errorf("From = %v, %v", from, err)
	}
	to, err := h.AddressList("To")
	if err != nil || len(to) != len(q.To) {
		t.Fatalf("To = %v, %v; want %v", to, err, q.To)
	}
	for i, a := range to {
		if a.String() != mustParse(t, q.To[i]).String() {
			t.Errorf("To[%d] = %q; want %q", i, a, q.To[i])
		}
	}
	if rt, err := h.AddressList("Reply-To"); err != nil || len(rt) != 1 || rt[0].Address != q.ReplyTo {
		t.Errorf("Reply-To = %v, %v; want %q", rt, err, q.ReplyTo)
	}
	if ids, err := h.MsgIDList("In-Reply-To"); err != nil || len(ids) != 1 || ids[0] != strip(q.InReplyTo) {
		t.Errorf("In-Reply-To = %v, %v; want %q", ids, err, q.InReplyTo)
	}
	refs, err := h.MsgIDList("References")
	if err != nil || len(refs) != len(q.References) {
		t.Errorf("References = %v, %v; want %v", refs, err, q.References)
	}
	for i := range refs {
		if refs[i] != strip(q.References[i]) {
			t.Errorf("References[%d] = %q; want %q", i, refs[i], q.References[i])
		}
	}
	for k, want := range map[string]string{
		"List-Id":        "<g1.lists.pbem.example.org>",
		"Auto-Submitted": "auto-generated",
		"MIME-Version":   "1.0",
		"Precedence":     "",
	} {
		if got := h.Get(k); got != want {
			t.Errorf("%s = %q; want %q", k, got, want)
		}
	}

	var bodies, names []string
	for {
		p, err := r.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("next part: %v", err)
		}
		data, err := io.ReadAll(p.Body)
		if err != nil {
			t.Fatalf("read part: %v", err)
		}
		switch ph := p.Header.(type) {
		case *mail.InlineHeader:
			ct, params, err := ph.ContentType()
			if err != nil || ct != "text/plain" || params["charset"] != "utf-8" || params["format"] != "fixed" {
				t.Errorf("body Content-Type = %q %v, %v", ct, params, err)
			}
			bodies = append(bodies, string(data))
		case *mail.AttachmentHeader:
			name, err := ph.Filename()
			if err != nil {
				t.Errorf("attachment file name: %v", err)
			}
			ct, params, _ := ph.ContentType()
			if ct != "text/plain" || params["charset"] != "utf-8" {
				t.Errorf("attachment %q Content-Type = %q %v", name, ct, params)
			}
			names = append(names, name)
			bodies = append(bodies, string(data))
		}
	}
	want := []string{q.Body}
	var wantNames []string
	for _, a := range q.Attachments {
		want = append(want, a.Body)
		wantNames = append(wantNames, a.Name)
	}
	if len(bodies) != len(want) {
		t.Fatalf("%d parts; want %d", len(bodies), len(want))
	}
	for i := range want {
		if normalize(bodies[i]) != normalize(want[i]) {
			t.Errorf("part %d reads back as\n%q\nwant\n%q", i, bodies[i], normalize(want[i]))
		}
	}
	if strings.Join(names, "|") != strings.Join(wantNames, "|") {
		t.Errorf("attachment names %q; want %q", names, wantNames)
	}
}

func mustParse(t *testing.T, s string) *mail.Address {
	t.Helper()
	a, err := mail.ParseAddress(s)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestRenderDependsOnlyOnTheEvent(t *testing.T) {
	a, _ := Render("g1", 7, testAt, attachmentMail(), testHeaders)
	// Another process, another day, the same event: the same bytes.
	at := time.Unix(0, testAt.UnixNano()).In(time.FixedZone("CET", 3600))
	b, _ := Render("g1", 7, at, attachmentMail(), testHeaders)
	if !bytes.Equal(a, b) {
		t.Fatal("the same event renders differently in another time zone")
	}
	other := attachmentMail()
	other.MailID = "<g1.8.usa@pbem.example.org>"
	c, _ := Render("g1", 7, testAt, other, testHeaders)
	ba, bc := boundaryOf(t, a), boundaryOf(t, c)
	if ba == bc {
		t.Errorf("two mails share the boundary %q", ba)
	}
	changed := attachmentMail()
	changed.Body = "Something else entirely.\n"
	d, _ := Render("g1", 7, testAt, changed, testHeaders)
	if boundaryOf(t, d) != ba {
		t.Errorf("the boundary changed with the body, not only with the MailID")
	}
}

func boundaryOf(t *testing.T, b []byte) string {
	t.Helper()
	r, err := mail.CreateReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	_, params, err := r.Header.ContentType()
	if err != nil || params["boundary"] == "" {
		t.Fatalf("no boundary: %v", err)
	}
	return params["boundary"]
}

func TestRenderAvoidsABoundaryInTheBody(t *testing.T) {
	q := attachmentMail()
	first, _ := Render("g1", 7, testAt, q, testHeaders)
	taken := boundaryOf(t, first)
	q.Attachments[0].Body = "--" + taken + "\n--" + taken + "--\n"
	b, err := Render("g1", 7, testAt, q, testHeaders)
	if err != nil {
		t.Fatal(err)
	}
	if got := boundaryOf(t, b); got == taken {
		t.Fatalf("boundary %q used although the body contains it", got)
	}
	checkRoundTrip(t, b, q)
}

func TestRenderErrors(t *testing.T) {
	tests := []struct {
		name   string
		game   string
		h      Headers
		change func(q *events.MailQueued)
		want   string
	}{
		{"no mail id", "g1", testHeaders, func(q *events.MailQueued) { q.MailID = "" }, "empty message id"},
		{"space in mail id", "g1", testHeaders, func(q *events.MailQueued) { q.MailID = "<a b@c>" }, "not allowed"},
		{"no recipients", "g1", testHeaders, func(q *events.MailQueued) { q.To = nil }, "no recipients"},
		{"bad recipient", "g1", testHeaders, func(q *events.MailQueued) { q.To = []string{"not an address"} }, "the To header"},
		{"header injection", "g1", testHeaders, func(q *events.MailQueued) { q.To = []string{"a@b.org\r\nBcc: c@d.org"} }, "the To header"},
		{"non-ASCII mailbox", "g1", testHeaders, func(q *events.MailQueued) { q.To = []string{"łukasz@example.pl"} }, "SMTPUTF8"},
		{"bad reply-to", "g1", testHeaders, func(q *events.MailQueued) { q.ReplyTo = "pbem+" }, "Reply-To:"},
		{"bad from", "g1", Headers{From: "pbem", ListDomain: "x.org"}, func(*events.MailQueued) {}, "the From header"},
		{"no list domain", "g1", Headers{From: testHeaders.From}, func(*events.MailQueued) {}, "list domain"},
		{"game id not a label", "g 1", testHeaders, func(*events.MailQueued) {}, "List-Id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := plainMail()
			tt.change(q)
			_, err := Render(tt.game, 5, testAt, q, tt.h)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v; want one containing %q", err, tt.want)
			}
		})
	}
	if _, err := Render("g1", 1, testAt, nil, testHeaders); err == nil {
		t.Error("nil mail rendered")
	}
}

func TestRenderLeavesOutUnwritableThreadingIDs(t *testing.T) {
	q := plainMail()
	q.InReplyTo = "<a b@c>"
	q.References = []string{"<g1.0@pbem.example.org>", "<a\nb>", "<zażółć@x>", "", "g1.4.usa@pbem.example.org"}
	b, err := Render("g1", 5, testAt, q, testHeaders)
	if err != nil {
		t.Fatal(err)
	}
	r, err := mail.CreateReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if v := r.Header.Get("In-Reply-To"); v != "" {
		t.Errorf("In-Reply-To: %q; want it left out", v)
	}
	if v := r.Header.Get("References"); v != "<g1.0@pbem.example.org> <g1.4.usa@pbem.example.org>" {
		t.Errorf("References: %q", v)
	}
}

func TestEncodeBody(t *testing.T) {
	long := strings.Repeat("x", maxLine+1)
	tests := []struct {
		name, in, cte, out string
	}{
		{"empty", "", "7bit", ""},
		{"ascii", "a\nb\n", "7bit", "a\r\nb\r\n"},
		{"final line break added", "a\nb", "7bit", "a\r\nb\r\n"},
		{"CRLF and CR normalised", "a\r\nb\rc\n", "7bit", "a\r\nb\r\nc\r\n"},
		{"tab kept", "a\tb\n", "7bit", "a\tb\r\n"},
		{"998 bytes is 7bit", strings.Repeat("x", maxLine) + "\n", "7bit", strings.Repeat("x", maxLine) + "\r\n"},
		{"999 bytes is quoted-printable", long + "\n", "quoted-printable", ""},
		{"polish", "zażółć\n", "quoted-printable", "za=C5=BC=C3=B3=C5=82=C4=87\r\n"},
		{"control byte", "a\x00b\n", "quoted-printable", "a=00b\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, cte := encodeBody(tt.in)
			if cte != tt.cte {
				t.Fatalf("encoding %s; want %s", cte, tt.cte)
			}
			if tt.out != "" && string(out) != tt.out {
				t.Errorf("got %q; want %q", out, tt.out)
			}
			for _, l := range strings.Split(string(out), "\r\n") {
				if len(l) > maxLine {
					t.Errorf("line of %d bytes", len(l))
				}
			}
		})
	}
}

func TestEncodeText(t *testing.T) {
	tests := []struct{ in, want, decoded string }{
		{"[g1] Turn 5", "[g1] Turn 5", ""},
		{"two\nlines\ttab", "two lines tab", ""},
		{"Tura 5, zbiórka", "=?utf-8?q?Tura_5,_zbi=C3=B3rka?=", ""},
		{"第6ターン", "=?utf-8?b?56ysNuOCv+ODvOODsw==?=", ""},
		{"zażółć", "=?utf-8?b?emHFvMOzxYLEhw==?=", ""}, // B is shorter here
		{"bad \xff byte", "=?utf-8?b?YmFkIO+/vSBieXRl?=", "bad \uFFFD byte"},
	}
	var dec mime.WordDecoder
	for _, tt := range tests {
		got := encodeText(tt.in)
		if got != tt.want {
			t.Errorf("encodeText(%q) = %q; want %q", tt.in, got, tt.want)
		}
		want := tt.decoded
		if want == "" {
			want = strings.NewReplacer("\n", " ", "\t", " ").Replace(tt.in)
		}
		if back, err := dec.DecodeHeader(got); err != nil || back != want {
			t.Errorf("%q decodes to %q, %v; want %q", got, back, err, want)
		}
	}
}

func TestHeaderFolding(t *testing.T) {
	ids := make([]string, 40)
	for i := range ids {
		ids[i] = "<g1." + strings.Repeat("7", i%5+1) + "@pbem.example.org>"
	}
	tests := []struct {
		name, field, value string
		structured         bool
	}{
		{"references", "References", strings.Join(ids, " "), true},
		{"short", "Subject", "hello", false},
		{"quoted name not split", "To", `"A very long display name with many words in it, really" <a@b.org>, c@d.org`, true},
		{"one long word", "Subject", strings.Repeat("w", 120), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var w hdrWriter
			w.field(tt.field, tt.value, tt.structured)
			if w.err != nil {
				t.Fatal(w.err)
			}
			out := w.buf.String()
			if got := strings.ReplaceAll(strings.TrimSuffix(out, "\r\n"), "\r\n", ""); got != tt.field+": "+tt.value {
				t.Errorf("unfolds to %q", got)
			}
			for i, l := range strings.Split(strings.TrimSuffix(out, "\r\n"), "\r\n") {
				rest := l
				if i == 0 {
					rest = strings.TrimPrefix(l, tt.field+": ")
				}
				if len(l) > softLine && strings.Contains(strings.TrimSpace(rest), " ") && !strings.Contains(l, `"`) {
					t.Errorf("line of %d bytes could have been folded: %q", len(l), l)
				}
			}
			if tt.structured && strings.Contains(tt.value, `"`) {
				q := tt.value[strings.Index(tt.value, `"`) : strings.LastIndex(tt.value, `"`)+1]
				if !strings.Contains(out, q) {
					t.Errorf("quoted string folded:\n%s", out)
				}
			}
		})
	}
	var w hdrWriter
	w.field("Subject", strings.Repeat("w", maxLine), false)
	if w.err == nil {
		t.Error("an unfoldable line over 998 bytes was written")
	}
	w = hdrWriter{}
	w.field("Subject", "a\r\nBcc: x@y.org", false)
	if w.err == nil {
		t.Error("a line break in a header value was written")
	}
}
