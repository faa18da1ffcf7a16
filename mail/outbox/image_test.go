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
	"pbem/templates"
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

// A mail with a drawn board carries it as an inline PNG that
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
	if len(ps) != 2 || ps[0].typ != "text/plain" || !strings.Contains(oneLine(ps[0].body), "budget, so it is left out") {
		t.Fatalf("over the budget: %d parts, first %q ending %q", len(ps), ps[0].typ, ps[0].body[max(0, len(ps[0].body)-200):])
	}
	q := imageMail("Your move.\n")
	q.Attachments[1].Body = "another board"
	for _, h := range []Headers{drawing, testHeaders} {
		raw, err = Render("g1", 7, testAt, q, h)
		if err != nil {
			t.Fatal(err)
		}
		if ps := leaves(t, raw); len(ps) != 2 || !strings.Contains(oneLine(ps[0].body), "could not be drawn") {
			t.Fatalf("a board not drawn: %+v", ps)
		}
	}
	for _, p := range ps {
		for _, l := range strings.Split(string(p.body), "\n") {
			if len([]rune(l)) > 78 {
				t.Errorf("a line of %d columns: %q", len([]rune(l)), l)
			}
		}
	}
}

// A rule system that draws nothing for a view (GM Board Games before its
// table exists) gets a plain mail: its text alone, no picture and no
// line about one.
func TestRenderNothingDrawnIsThePlainMail(t *testing.T) {
	nothing := drawing
	nothing.Draw = func(events.Attachment) (*draw.Scene, error) { return nil, draw.ErrNothing }
	q := imageMail("Your move.\n")
	raw, err := Render("g1", 7, testAt, q, nothing)
	if err != nil {
		t.Fatal(err)
	}
	ps := leaves(t, raw)
	if len(ps) != 2 || ps[0].typ != "text/plain" || oneLine(ps[0].body) != "Your move." {
		t.Fatalf("nothing drawn: %d parts, first %q %q", len(ps), ps[0].typ, ps[0].body)
	}
	if strings.Contains(string(raw), "multipart/related") || strings.Contains(string(raw), "drawn map") {
		t.Fatalf("nothing drawn, yet the mail speaks of a picture:\n%s", raw)
	}
}

func oneLine(b []byte) string { return strings.Join(strings.Fields(string(b)), " ") }

// busyMap is a drawn map whose PNG keeps within the frequent mails'
// PictureBudget only at a scale where its 8-unit hex numbers are under
// LegibleType pixels high, and, as detail, a part of it whose PNG fits
// at full size.
func busyMap(detail bool) *draw.Scene {
	part := func(cols, rows int) *draw.Scene {
		s := &draw.Scene{W: float64(16 + 30*cols), H: float64(16 + 30*rows), Background: draw.RGB(250, 248, 240), TypeSize: 8}
		for c := range cols {
			for r := range rows {
				x, y := float64(8+30*c), float64(8+30*r)
				s.Add(&draw.Rect{Style: draw.Style{Fill: draw.RGB(uint8(150+c*7%100), uint8(150+r*11%100), 160), Stroke: draw.RGB(90, 90, 80), Width: 0.6}, X: x, Y: y, W: 30, H: 30})
				s.Add(draw.Label(draw.Pt(x+15, y+10), fmt.Sprintf("%02d%02d", c+1, r+1), 8, draw.RGB(60, 60, 50), draw.Middle))
			}
		}
		return s
	}
	s := part(26, 26)
	if detail {
		s.Detail = part(10, 8)
	}
	return s
}

// The mails a game sends most (your move, report, referee's notice) keep
// their picture within PictureBudget. Where that would shrink the whole
// map until its hex numbers cannot be read, and the rules drew a detail
// (draw.Scene.Detail), the mail carries the detail at full size and says
// so; without a detail it carries the whole map shrunk, as before; a
// welcome (no picture budget) carries the whole map at full size.
func TestFrequentMailCarriesTheLegibleDetail(t *testing.T) {
	for _, tc := range []struct {
		name, template string
		detail         bool
		wantW          int
		wantNote       string
	}{
		{"your move, a detail", templates.NameYourMove, true, 316, "The part of the map this mail is about is drawn in map-g1-7.png (send BOARD for the whole map)."},
		{"report, a detail", templates.NameReport, true, 316, "The part of the map this mail is about is drawn in"},
		{"your move, no detail", templates.NameYourMove, false, -1, "The map is drawn in map-g1-7.png."},
		{"welcome, a detail", templates.NameWelcome, true, 796, "The map is drawn in map-g1-7.png."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := drawing
			h.Draw = func(events.Attachment) (*draw.Scene, error) { return busyMap(tc.detail), nil }
			q := imageMail("Your move.\n")
			q.Template = tc.template
			raw, err := Render("g1", 7, testAt, q, h)
			if err != nil {
				t.Fatal(err)
			}
			ps := leaves(t, raw)
			if len(ps) < 3 || ps[2].typ != "image/png" {
				t.Fatalf("no picture: %d parts", len(ps))
			}
			if !strings.Contains(oneLine(ps[0].body), tc.wantNote) {
				t.Errorf("text part, want %q:\n%s", tc.wantNote, ps[0].body)
			}
			pic, err := png.Decode(bytes.NewReader(ps[2].body))
			if err != nil {
				t.Fatal(err)
			}
			w := pic.Bounds().Dx()
			if tc.template != templates.NameWelcome && len(ps[2].body) > PictureBudget {
				t.Errorf("a picture of %d bytes, over the budget of %d", len(ps[2].body), PictureBudget)
			}
			switch {
			case tc.wantW > 0 && w != tc.wantW:
				t.Errorf("picture %d pixels wide, want %d", w, tc.wantW)
			case tc.wantW < 0 && float64(w)/796*8 >= LegibleType:
				t.Errorf("picture %d pixels wide: the whole map at a legible scale cannot fit the budget, so this test tests nothing", w)
			}
		})
	}
}
