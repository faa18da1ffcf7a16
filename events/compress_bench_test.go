package events

import (
	"bytes"
	"compress/flate"
	"io"
	"strings"
	"testing"
)

// mailText is a reply's text of the size pbem mails most: a few
// paragraphs, deflated to about a kilobyte.
var mailText = strings.Repeat("Your order MARCH Newton 2314 2315 was accepted; the board follows, with the moves of this turn.\n", 40)

// BenchmarkMailText measures what a queued mail's text costs to store
// and to read back: deflating it, and inflating it with the check that
// it is canonical, for a text this process deflated (remembered) and
// for one it did not (checked by deflating it again), beside inflating
// it alone, with no check (the baseline).
func BenchmarkMailText(b *testing.B) {
	b.Run("deflate", func(b *testing.B) {
		for b.Loop() {
			deflate(mailText)
		}
	})
	d := deflate(mailText)
	b.Run("inflate/remembered", func(b *testing.B) {
		for b.Loop() {
			if _, err := inflate(d); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("inflate/checked", func(b *testing.B) {
		for b.Loop() {
			canon = canonTexts{seed: canon.seed} // as another process reads it
			if _, err := inflate(d); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("inflate/baseline-unchecked", func(b *testing.B) {
		r := flate.NewReader(bytes.NewReader(d))
		for b.Loop() {
			r.(flate.Resetter).Reset(bytes.NewReader(d), nil)
			if _, err := io.ReadAll(r); err != nil {
				b.Fatal(err)
			}
		}
	})
}
