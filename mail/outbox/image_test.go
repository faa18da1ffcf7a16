package outbox

import (
	"bytes"
	"fmt"
	"image/png"
	"io"
	"strings"
	"testing"

	gomessage "github.com/emersion/go-message"

	"pbem/engine/draw"
	"pbem/events"
)

// testBoard is a small drawn board: a map (its static layer) and a counter.
func testBoard() *draw.Scene {
	s := &draw.Scene{W: 300, H: 200, Background: draw.RGB(240, 240, 220)}
	s.Add(draw.Polygon(draw.Style{Fill: draw.RGB(150, 190, 120), Stroke: draw.RGB(90, 90, 80)}, draw.Pt(20, 20), draw.Pt(280, 30), draw.Pt(150, 190)))
	s.Base = 1
	s.Add(&draw.Rect{Style: draw.Style{Fill: draw.RGB(40, 70, 150)}, X: 100, Y: 80, W: 40, H: 40})
	s.Add(draw.Label(draw.Pt(120, 105), "ORNE", 10, draw.RGB(255, 255, 255), draw.Middle))
	return s
}

// drawBoard draws the board a test mail names.
func drawBoard(a events.Attachment) (*draw.Scene, error) {
	if a.Body != "the board" {
		return nil, fmt.Errorf("no board %q", a.Body)
	}
	return testBoard(), nil
}

func imageMail(body string) *events.MailQueued {
	q := attachmentMail()
	q.Body = body
	q.Attachments = []events.Attachment{{Name: "map-g1-7.txt", Body: "the whole map, as text\n"}, {Name: "map-g1-7.png", Body: "the board"}}
	return q
}

// drawing are the headers a mail with a drawn board is rendered with.
var drawing = Headers{From: testHeaders.From, ListDomain: testHeaders.ListDomain, Draw: drawBoard}

// part is one leaf of a parsed mail.
type part struct {
	typ, cid, disp string
	body           []byte
}

func leaves(t *testing.T, raw []byte) []part {
	t.Helper()
	e, err := gomessage.Read(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var out []part
	var walk func(e *gomessage.Entity)
	walk = func(e *gomessage.Entity) {
		if mr := e.MultipartReader(); mr != nil {
			for {
				p, err := mr.NextPart()
				if err == io.EOF {
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				walk(p)
			}
		}
		typ, _, _ := e.Header.ContentType()
		disp, _, _ := e.Header.ContentDisposition()
		b, err := io.ReadAll(e.Body)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(typ, "text/") {
			b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
		}
		out = append(out, part{typ, strings.Trim(e.Header.Get("Content-ID"), "<>"), disp, b})
	}
	walk(e)
	return out
}

// Issue 15: a mail with a drawn board carries it as an inline PNG that
// the HTML part shows by its Content-ID; the text part keeps the body,
// ASCII board and all, and names the picture; the text attachment stays;
// the mail is within its budget and the same bytes every time.
func TestRenderDrawnBoardInline(t *testing.T) {
	body := "Your move.\n\n  /2314 \\\n  \\ ORNE /\n"
	raw, err := Render("g1", 7, testAt, imageMail(body), drawing)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := Render("g1", 7, testAt, imageMail(body), drawing)
	if !bytes.Equal(raw, again) {
		t.Fatal("the same event rendered twice gave two mails")
	}
	if len(raw) > ImageBudget {
		t.Fatalf("mail of %d bytes, over the budget", len(raw))
	}
	ps := leaves(t, raw)
	var types []string
	for _, p := range ps {
		types = append(types, p.typ)
	}
	if strings.Join(types, " ") != "text/plain text/html image/png text/plain" {
		t.Fatalf("parts %v", types)
	}
	text, html, img, att := ps[0], ps[1], ps[2], ps[3]
	if !strings.HasPrefix(string(text.body), body) || !strings.Contains(string(text.body), "The map is drawn in map-g1-7.png.") {
		t.Errorf("text part:\n%s", text.body)
	}
	if !strings.Contains(string(html.body), `<img src="cid:`+img.cid+`"`) || !strings.Contains(string(html.body), "\\ ORNE /") {
		t.Errorf("html part does not show the picture %q or the text:\n%s", img.cid, html.body)
	}
	if img.cid == "" || img.disp != "inline" {
		t.Errorf("image part: cid %q, disposition %q", img.cid, img.disp)
	}
	pic, err := png.Decode(bytes.NewReader(img.body))
	if err != nil {
		t.Fatal(err)
	}
	if pic.Bounds().Dx() != 300 || pic.Bounds().Dy() != 200 {
		t.Errorf("picture %v, want the board's 300x200", pic.Bounds())
	}
	if r, g, b, _ := pic.At(120, 85).RGBA(); r>>8 != 40 || g>>8 != 70 || b>>8 != 150 {
		t.Errorf("the counter is not drawn where it stands: %d %d %d", r>>8, g>>8, b>>8)
	}
	if att.disp != "attachment" || string(att.body) != "the whole map, as text\n" {
		t.Errorf("text attachment %q: %q", att.disp, att.body)
	}
}

// A mail whose text alone takes most of the budget leaves the picture
// out and says so; one whose board cannot be drawn (or by a server that
// draws none) says that, and is still sent.
func TestRenderDrawnBoardOverBudgetOrDamaged(t *testing.T) {
	long := strings.Repeat("a long report line, the same again and again, to fill the mail\n", ImageBudget/64)
	raw, err := Render("g1", 7, testAt, imageMail(long), drawing)
	if err != nil {
		t.Fatal(err)
	}
	ps := leaves(t, raw)
	if len(ps) != 2 || ps[0].typ != "text/plain" || !strings.Contains(string(ps[0].body), "budget, so it is left out") {
		t.Fatalf("over the budget: %d parts, first %q ending %q", len(ps), ps[0].typ, ps[0].body[max(0, len(ps[0].body)-200):])
	}
	q := imageMail("Your move.\n")
	q.Attachments[1].Body = "another board"
	for _, h := range []Headers{drawing, testHeaders} {
		raw, err = Render("g1", 7, testAt, q, h)
		if err != nil {
			t.Fatal(err)
		}
		if ps := leaves(t, raw); len(ps) != 2 || !strings.Contains(string(ps[0].body), "could not be drawn") {
			t.Fatalf("a board not drawn: %+v", ps)
		}
	}
}
