package compose_test

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"image/png"
	"strings"
	"testing"
	"time"

	"pbem/engine/draw"
	"pbem/engine/play"
	"pbem/events"
	"pbem/mail/compose"
	"pbem/mail/outbox"
)

// logSource is a log in memory as play.Load reads it (no snapshots).
type logSource []events.Envelope

func (l logSource) Read(game string, from uint64, fn func(*events.Envelope) error) error {
	for i := range l {
		if l[i].Seq >= from {
			if err := fn(&l[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

func (logSource) Snapshot(string, uint64) (uint64, []byte, bool, error) { return 0, nil, false, nil }

// loadedDrawing draws a, an attachment of the mail at seq, as a server
// that kept nothing would: from the game loaded at the decision the mail
// follows.
func loadedDrawing(log []events.Envelope, seq uint64, a events.Attachment) (*draw.Scene, error) {
	d := seq - 1
	for d > 1 && log[d-1].Type == events.TypeMailQueued {
		d--
	}
	g, err := play.Load(logSource(log), raceRegistry(), game, d)
	if err != nil {
		return nil, err
	}
	return compose.DrawBoard(g, a)
}

func loadedPNG(log []events.Envelope, seq uint64, a events.Attachment) ([]byte, error) {
	sc, err := loadedDrawing(log, seq, a)
	if err != nil {
		return nil, err
	}
	return sc.PNG(1)
}

// pngSummary is a PNG as a golden file shows it: its size and hash.
func pngSummary(p []byte) string {
	img, err := png.Decode(bytes.NewReader(p))
	if err != nil {
		return "not a PNG: " + err.Error()
	}
	return fmt.Sprintf("PNG %dx%d, %d bytes, sha256 %x", img.Bounds().Dx(), img.Bounds().Dy(), len(p), sha256.Sum256(p))
}

// The log keeps no picture, and a mail is the same bytes
// whether the outbox draws its board from the state the composer kept
// or, after a restart, from the game loaded from the log: every mail of
// the short game, rendered both ways, is byte for byte the same, and
// carries its board drawn.
func TestDrawnBoardSameAfterRestart(t *testing.T) {
	c := newComposer(t)
	m := newInMemory(t, c)
	m.send("north", false, "ROLL")
	m.send("south", false, "ADD 2")
	m.send("north", false, "BOARD")
	h := outbox.Headers{From: `"pbem" <pbem@example.org>`, ListDomain: "example.org"}
	at := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	drawn := 0
	for _, s := range mailsIn(t, m.log) {
		for _, a := range s.m.Attachments {
			if strings.HasSuffix(a.Name, ".png") && len(a.Body) > 100 {
				t.Fatalf("mail %d keeps a picture in the log: %d bytes", s.seq, len(a.Body))
			}
		}
		kept, restarted := h, h
		kept.Draw = func(a events.Attachment) (*draw.Scene, error) {
			sc, ok := c.Drawn(s.m, a)
			if !ok {
				return nil, fmt.Errorf("the composer did not keep mail %s", s.m.MailID)
			}
			if sc == nil {
				return nil, draw.ErrNothing
			}
			return sc, nil
		}
		restarted.Draw = func(a events.Attachment) (*draw.Scene, error) { return loadedDrawing(m.log, s.seq, a) }
		one, err := outbox.Render(game, s.seq, at, s.m, kept)
		if err != nil {
			t.Fatal(err)
		}
		two, err := outbox.Render(game, s.seq, at, s.m, restarted)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(one, two) {
			t.Fatalf("mail %d: drawn from the kept state and from the log, two different mails", s.seq)
		}
		if bytes.Contains(one, []byte("Content-Type: image/png")) {
			drawn++
		}
		if bytes.Contains(one, []byte("could not be drawn")) {
			t.Fatalf("mail %d: its board could not be drawn", s.seq)
		}
	}
	if drawn < 4 {
		t.Fatalf("%d mails carried a drawn board", drawn)
	}
}
