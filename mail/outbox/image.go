package outbox

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"strings"

	"pbem/engine"
	"pbem/engine/draw"
	"pbem/events"
	"pbem/templates"
)

// A mail.queued event names a drawn board by an attachment whose name
// ends in .png (compose writes only whose view it shows: the log keeps no
// picture). Render has it drawn (Headers.Draw) and sends it inline: the
// mail's body becomes
//
//	multipart/related
//	  multipart/alternative
//	    text/plain  the body as it is, ASCII board and all, and a line
//	                naming the picture
//	    text/html   the same text laid out for a phone: what happened
//	                and what to do, <img src="cid:…">, the board as
//	                text, the footer (see phoneHTML)
//	  image/png     Content-ID, Content-Disposition: inline
//
// so a client that shows HTML (Gmail, Outlook, Apple Mail, Thunderbird)
// shows the map above the board's text, and a text client (mutt) shows the text
// part alone, the PNG listed as a part. An attachment with
// Content-Disposition: inline alone would do for Thunderbird and Apple
// Mail, but Gmail and Outlook show only a referenced cid image inline.

// ImageBudget is the most bytes a mail with a drawn board may take: the
// PNG is drawn at full size (zlib's fastest level, else its default
// one), else at three quarters, else at half; when even that would take
// the mail over, the picture is left out and the text says so.
const ImageBudget = 200 << 10

// PictureBudget is the most bytes the picture may take in the mails a
// game sends most (your move, report, a referee's notice), so that weeks
// of them stay light: drawn smaller, it still shows the whole map on a
// phone, or, where that would leave its type unreadable and the rules
// drew a detail (draw.Scene.Detail), the part of the map the mail is
// about at a legible scale (drawTries). The welcome, the answer to BOARD
// and the game-over mail draw the whole map as large as ImageBudget
// allows.
const PictureBudget = 24 << 10

// pictureBudget is the most bytes the PNG of mail q may take; 0: only
// ImageBudget bounds it.
func pictureBudget(q *events.MailQueued) int {
	switch q.Template {
	case templates.NameYourMove, templates.NameReport, templates.NameReferee:
		return PictureBudget
	}
	return 0
}

var imageScales = []float64{1, 0.75, 0.5, 0.375}

// LegibleType is the least height, in pixels, of a drawn map's type
// (draw.Scene.TypeSize) that a reader can read at 100% zoom.
const LegibleType = 6

// drawTry is a scene to draw and the scale to draw it at.
type drawTry struct {
	sc *draw.Scene
	k  float64
}

// drawTries are the drawings drawImage tries, in turn, until one fits.
// The whole scene at each scale; but in a mail with a picture budget
// (picture > 0) whose scene has a Detail, the whole scene first only at
// the scales where its type stays legible, then the details (Detail, its
// Detail, ...: each smaller than the one before) at those, largest scale
// first, then the whole scene at the rest (its type too small to read,
// but better than no map).
func drawTries(sc *draw.Scene, picture int) []drawTry {
	var tries, small []drawTry
	for _, k := range imageScales {
		t := drawTry{sc, k}
		if picture > 0 && sc.Detail != nil && sc.TypeSize*k < LegibleType {
			small = append(small, t)
			continue
		}
		tries = append(tries, t)
	}
	if len(small) == 0 {
		return tries
	}
	for _, k := range imageScales {
		for d := sc.Detail; d != nil; d = d.Detail {
			if d.TypeSize*k >= LegibleType {
				tries = append(tries, drawTry{d, k})
			}
		}
	}
	return append(tries, small...)
}

// IsImage reports whether a queued attachment is a drawn board, which
// Render sends as a PNG drawn by Headers.Draw.
func IsImage(a events.Attachment) bool { return strings.HasSuffix(a.Name, ".png") }

// Drawer draws the board a mail's attachment names (IsImage).
type Drawer func(a events.Attachment) (*draw.Scene, error)

// image is a drawn board ready to send, or why it is left out.
type image struct {
	name string // "map-g1-7.png"
	cid  string // without angle brackets
	png  []byte
	note string // the line the text part gets
}

// drawImage draws a at the largest scale whose PNG keeps the mail within
// the budget: rest bytes without the picture, and the HTML part's copy
// of the body's text.
//
// A panic while drawing (the rule system's Draw, or the rasteriser) costs
// the picture, not the mail: its text says the map could not be drawn,
// and the panic goes to the log with its stack.
func drawImage(a events.Attachment, mailID string, rest, text, picture int, d Drawer) (im image) {
	name := attachmentName(a.Name, 0)
	im = image{name: name, cid: strings.Trim(mailID, "<>") + "." + name}
	failed := func(err error) image {
		im.note = fmt.Sprintf("(The drawn map could not be drawn: %v. The board above shows the same.)", err)
		return im
	}
	var panicked error
	defer func() {
		if panicked != nil {
			slog.Error("drawing a mail's map panicked; the mail goes out without it", "component", "outbox", "mail_id", mailID,
				"err", panicked, "stack", engine.PanicStack(panicked))
			im = image{name: name, cid: im.cid}
			im = failed(errors.New("an internal error (the operator has been told)"))
		}
	}()
	defer engine.Recover(&panicked, "drawing the map")
	if d == nil {
		return failed(errors.New("this server draws no maps"))
	}
	sc, err := d(a)
	if errors.Is(err, draw.ErrNothing) {
		return image{} // no picture, and nothing to say about one
	}
	if err != nil {
		return failed(err)
	}
	fits := func(b []byte) bool {
		// base64 takes 4 bytes for 3, and a line break each 76; two
		// kilobytes for the parts' headers and the HTML around the text
		// (its inline styles: see phoneHTML).
		return rest+text+base64.StdEncoding.EncodedLen(len(b))*78/76+2048 <= ImageBudget && (picture == 0 || len(b) <= picture)
	}
	size := 0
	for _, t := range drawTries(sc, picture) {
		p, err := t.sc.Paletted(t.k)
		if err != nil {
			return failed(err)
		}
		for _, small := range []bool{false, true} {
			b, err := draw.EncodePNG(p, small)
			if err != nil {
				return failed(err)
			}
			if size = len(b); fits(b) {
				im.png = b
				im.note = "The map is drawn in " + name + "."
				if t.sc != sc {
					im.note = "The part of the map this mail is about is drawn in " + name + " (send BOARD for the whole map)."
				}
				return im
			}
		}
	}
	im.note = fmt.Sprintf("(The drawn map, %d KB, would take this mail over its %d KB budget, so it is left out. The board above shows the same.)", (size+1023)>>10, ImageBudget>>10)
	return im
}

// relatedParts writes the body of a mail with a drawn board: a
// multipart/related of the text and HTML alternatives and the PNG (or,
// with the picture left out, the text alone with a line saying so). It
// returns the part's header fields and body.
func relatedParts(body string, im image, mailID string) (hdrWriter, []byte) {
	var h hdrWriter
	text := strings.TrimRight(body, "\n") + "\n\n" + wrapNote(im.note, 72) + "\n"
	tb, tcte := encodeBody(text)
	if im.png == nil {
		h.field("Content-Type", mime.FormatMediaType("text/plain", map[string]string{"charset": "utf-8", "format": "fixed"}), true)
		h.field("Content-Transfer-Encoding", tcte, true)
		return h, tb
	}
	htmlBody := phoneHTML(body, im.cid)
	hb, hcte := encodeBody(htmlBody)
	pb := base64Lines(im.png)

	var text1, html1, img hdrWriter
	text1.field("Content-Type", mime.FormatMediaType("text/plain", map[string]string{"charset": "utf-8", "format": "fixed"}), true)
	text1.field("Content-Transfer-Encoding", tcte, true)
	html1.field("Content-Type", mime.FormatMediaType("text/html", map[string]string{"charset": "utf-8"}), true)
	html1.field("Content-Transfer-Encoding", hcte, true)
	img.field("Content-Type", mime.FormatMediaType("image/png", map[string]string{"name": im.name}), true)
	img.field("Content-Disposition", mime.FormatMediaType("inline", map[string]string{"filename": im.name}), true)
	img.field("Content-ID", "<"+im.cid+">", true)
	img.field("Content-Transfer-Encoding", "base64", true)

	alt, altBoundary := multipart(mailID+"/alternative", []mimePart{{text1, tb}, {html1, hb}})
	var altHdr hdrWriter
	altHdr.field("Content-Type", mime.FormatMediaType("multipart/alternative", map[string]string{"boundary": altBoundary}), true)
	rel, relBoundary := multipart(mailID+"/related", []mimePart{{altHdr, alt}, {img, pb}})
	h.field("Content-Type", mime.FormatMediaType("multipart/related", map[string]string{"boundary": relBoundary, "type": "multipart/alternative"}), true)
	for _, w := range []*hdrWriter{&text1, &html1, &img, &altHdr} {
		if w.err != nil {
			h.err = w.err
		}
	}
	return h, rel
}

type mimePart struct {
	hdr  hdrWriter
	body []byte
}

// multipart joins parts under a boundary derived from seed (as the
// mail's own, so the same event gives the same bytes).
func multipart(seed string, parts []mimePart) ([]byte, string) {
	boundary := chooseBoundary(seed, func(delim []byte) bool {
		for _, p := range parts {
			if bytes.Contains(p.body, delim) {
				return true
			}
		}
		return false
	})
	var b bytes.Buffer
	for _, p := range parts {
		b.WriteString("--" + boundary + "\r\n")
		b.Write(p.hdr.buf.Bytes())
		b.WriteString("\r\n")
		b.Write(p.body)
		b.WriteString("\r\n")
	}
	b.WriteString("--" + boundary + "--\r\n")
	return b.Bytes(), boundary
}

// base64Lines is b in base64, in lines of 76 characters ending in CRLF.
func base64Lines(b []byte) []byte {
	enc := base64.StdEncoding.EncodeToString(b)
	var out bytes.Buffer
	for len(enc) > 76 {
		out.WriteString(enc[:76] + "\r\n")
		enc = enc[76:]
	}
	out.WriteString(enc + "\r\n")
	return out.Bytes()
}

// wrapNote breaks a note about the picture at spaces into lines of at
// most width runes (a word longer than that stays whole), so that it
// keeps within a mail's 78 columns as the board does.
func wrapNote(note string, width int) string {
	var b strings.Builder
	n := 0
	for _, w := range strings.Fields(note) {
		l := len([]rune(w))
		switch {
		case n == 0:
		case n+1+l > width:
			b.WriteByte('\n')
			n = 0
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += l
	}
	return b.String()
}
