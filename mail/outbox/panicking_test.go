package outbox

import (
	"strings"
	"testing"

	"pbem/engine/draw"
	"pbem/events"
)

// counters is never made: writing to it panics.
var counters map[string]int

// A drawer that panics (a rule system's Draw) costs the mail its picture, not the mail: it goes out with
// its text, a line saying the map could not be drawn, and nothing of the
// panic.
func TestPanickingDrawerStillSendsTheMail(t *testing.T) {
	body := "Your move.\n\n  /2314 \\\n  \\ ORNE /\n"
	for _, tc := range []struct {
		name string
		draw Drawer
	}{
		{"the rules' Draw panics", func(events.Attachment) (*draw.Scene, error) {
			counters["ORNE"]++ // a nil map, as a real bug would
			return nil, nil
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := Headers{From: testHeaders.From, ListDomain: testHeaders.ListDomain, Draw: tc.draw}
			raw, err := Render("g1", 7, testAt, imageMail(body), h)
			if err != nil {
				t.Fatal(err)
			}
			ps := leaves(t, raw)
			if len(ps) == 0 || !strings.HasPrefix(string(ps[0].body), body) {
				t.Fatalf("the mail lost its text:\n%s", raw)
			}
			text := strings.Join(strings.Fields(string(ps[0].body)), " ")
			if !strings.Contains(text, "The drawn map could not be drawn: an internal error (the operator has been told).") {
				t.Errorf("the text does not say the map could not be drawn:\n%s", ps[0].body)
			}
			for _, p := range ps {
				if p.typ == "image/png" {
					t.Errorf("a picture went out: %v", p.typ)
				}
				if s := string(p.body); strings.Contains(s, "goroutine") || strings.Contains(s, "nil map") || strings.Contains(s, "panic") {
					t.Errorf("the mail shows the panic:\n%s", s)
				}
			}
		})
	}
}
