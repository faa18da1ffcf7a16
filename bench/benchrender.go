package bench

import (
	"bytes"
	"fmt"
	"image/png"
	"slices"
	"time"

	"pbem/engine"
	"pbem/engine/play"
)

// renderStates is how many states of each demo game benchRender draws.
const renderStates = 12

// benchRender measures, for each rule system that draws its board
// (engine.Drawer), drawing a board to the PNG a mail carries, beside its
// baseline: the ASCII Render of the same view, in the same run. The
// boards are those of the system's demo game, at states spread over it,
// from each side's view and the referee's. The first board of a map
// paints its static layer (terrain, hexsides, labels) once; the rest
// draw over it, as the mails of a running server do.
// With only set, only that rule system is drawn.
func benchRender(a *app, dir, only string) error {
	names := a.reg.Names()
	if only != "" {
		names = []string{only}
	}
	for _, name := range names {
		rs, err := a.reg.Get(name)
		if err != nil {
			return err
		}
		d, ok := rs.(engine.Drawer)
		if !ok {
			fmt.Fprintf(a.out, "render: %s draws no board (no engine.Drawer)\n\n", name)
			continue
		}
		if _, err := a.script(name); err != nil {
			fmt.Fprintf(a.out, "render: %s has no demo game to draw: %v\n\n", name, err)
			continue
		}
		model, err := playModel(a, dir, name, demoOrders)
		if err != nil {
			return err
		}
		var first time.Duration
		var ascii, drawn, pngs []time.Duration
		var sizes []int
		var w, h int
		src := &memLog{evs: model}
		for i := 1; i <= renderStates; i++ {
			at := uint64(len(model) * i / renderStates)
			g, err := play.Replay(src, a.reg, model[0].Game, at)
			if err != nil {
				return err
			}
			viewers := []engine.Viewer{{Referee: true}}
			for _, p := range g.Players {
				viewers = append(viewers, engine.Viewer{Player: p.ID, Side: p.Side})
			}
			for _, v := range viewers {
				view := g.Rules.View(g.State, v)
				start := time.Now()
				g.Rules.Render(view)
				ascii = append(ascii, time.Since(start))
				start = time.Now()
				sc := d.Draw(view)
				if sc == nil {
					continue
				}
				scene := time.Since(start)
				b, err := sc.PNG(1)
				if err != nil {
					return fmt.Errorf("%s: drawing a board: %w", name, err)
				}
				took := time.Since(start)
				if first == 0 {
					first = took
					img, err := png.Decode(bytes.NewReader(b))
					if err != nil {
						return fmt.Errorf("%s: the PNG drawn does not decode: %w", name, err)
					}
					w, h = img.Bounds().Dx(), img.Bounds().Dy()
					continue
				}
				drawn = append(drawn, took)
				pngs = append(pngs, took-scene)
				sizes = append(sizes, len(b))
			}
		}
		if len(drawn) == 0 {
			fmt.Fprintf(a.out, "render: %s drew no board of its demo game\n\n", name)
			continue
		}
		q := func(ds []time.Duration, p float64) time.Duration {
			ds = slices.Clone(ds)
			slices.Sort(ds)
			return ds[int(p*float64(len(ds)-1))]
		}
		slices.Sort(sizes)
		fmt.Fprintf(a.out, "render: %s, its demo game's board drawn to PNG (%dx%d px), %d views at %d states\n", name, w, h, len(drawn), renderStates)
		fmt.Fprintf(a.out, "  %-34s p50 %9s  p99 %9s  max %9s\n", "drawn: scene + PNG", q(drawn, .5), q(drawn, .99), q(drawn, 1))
		fmt.Fprintf(a.out, "  %-34s p50 %9s  p99 %9s  max %9s\n", "  of which PNG", q(pngs, .5), q(pngs, .99), q(pngs, 1))
		fmt.Fprintf(a.out, "  %-34s p50 %9s  p99 %9s  max %9s\n", "baseline (ASCII Render, same view)", q(ascii, .5), q(ascii, .99), q(ascii, 1))
		fmt.Fprintf(a.out, "  %-34s %9.1f\n", "ratio (p50)", float64(q(drawn, .5))/float64(q(ascii, .5)))
		fmt.Fprintf(a.out, "  %-34s %9s (its static layer painted)\n", "first board", first.Round(time.Microsecond))
		fmt.Fprintf(a.out, "  %-34s p50 %6d KB  max %6d KB (mail budget 200 KB with base64)\n\n", "PNG size", (sizes[len(sizes)/2]+1023)>>10, (sizes[len(sizes)-1]+1023)>>10)
	}
	return nil
}
