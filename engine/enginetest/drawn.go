package enginetest

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"testing"

	"pbem/engine"
	"pbem/engine/draw"
)

// DrawnPNG checks a drawn board as a mail reader gets it: its SVG reads
// back, rasterises to a PNG that decodes, at least minW by minH pixels
// and at most maxBytes long; it returns the image. With PBEM_WRITE_PNG
// set the PNG is written to that file, to look at.
func DrawnPNG(t testing.TB, svg []byte, minW, minH, maxBytes int) image.Image {
	t.Helper()
	sc, err := draw.ParseSVG(svg)
	if err != nil {
		t.Fatalf("the drawn board's SVG does not read back: %v", err)
	}
	pic, err := sc.PNG(1)
	if err != nil {
		t.Fatalf("the drawn board does not rasterise: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(pic))
	if err != nil {
		t.Fatalf("the drawn board's PNG does not decode: %v", err)
	}
	if b := img.Bounds(); b.Dx() < minW || b.Dy() < minH || len(pic) > maxBytes {
		t.Errorf("the drawn board's PNG is %v, %d bytes; want at least %dx%d, at most %d bytes", b, len(pic), minW, minH, maxBytes)
	}
	if f := os.Getenv("PBEM_WRITE_PNG"); f != "" {
		if err := os.WriteFile(f, pic, 0o644); err != nil {
			t.Log(err)
		}
	}
	return img
}

// BenchBoard measures drawing v's board beside its baseline, the ASCII
// board of the same view: drawn and written as SVG, and drawn and
// rasterised to the PNG a mail carries (its size reported too).
func BenchBoard(b *testing.B, rs engine.Ruleset, v engine.View) {
	dr, ok := rs.(engine.Drawer)
	if !ok || dr.Draw(v) == nil {
		b.Fatal("the rule system draws no board of this view")
	}
	b.Run("ascii-render(baseline)", func(b *testing.B) {
		for b.Loop() {
			rs.Render(v)
		}
	})
	b.Run("draw-svg", func(b *testing.B) {
		for b.Loop() {
			dr.Draw(v).SVG()
		}
	})
	b.Run("draw-png", func(b *testing.B) {
		n := 0
		for b.Loop() {
			p, err := dr.Draw(v).PNG(1)
			if err != nil {
				b.Fatal(err)
			}
			n = len(p)
		}
		b.ReportMetric(float64(n), "png-bytes")
	})
}
