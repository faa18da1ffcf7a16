package main

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// chromiumPath finds Debian's chromium (scripts/test installs it), or the
// browser PBEM_CHROMIUM names.
func chromiumPath(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("PBEM_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("no chromium: install Debian's chromium package (scripts/test does) or set PBEM_CHROMIUM")
	return ""
}

// The campaign report of a finished demo game, opened from
// disk in headless Chromium as a person would open it: the page renders
// the drawn map (a screenshot of it is not blank), the keyboard and the
// slider move through the game and the map changes, each step is told in
// sentences with its dice, the page fits a phone's width, and nothing is
// logged to the console as an error.
func TestReportInChromium(t *testing.T) {
	t.Parallel()
	browser := chromiumPath(t)
	dir, _ := playedDataDir(t)
	holdCPU(t) // after the game is played: playedDataDir takes a slot to play it
	out, errOut, code := pbem(t, nil, "--data-dir", dir, "export", "--format", "html", "audited")
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, errOut)
	}
	page := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(page, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.WindowSize(1200, 900), chromedp.Flag("user-data-dir", t.TempDir()))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	var mu sync.Mutex
	var problems []string
	err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				problems = append(problems, fmt.Sprintf("console %s: %s", ev.Type, strings.Join(args, " ")))
			}
		case *runtime.EventExceptionThrown:
			problems = append(problems, fmt.Sprintf("exception: %s line %d", ev.ExceptionDetails.Text, ev.ExceptionDetails.LineNumber))
		}
	})
	if err != nil {
		t.Fatal(err)
	}

	do := func(steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatal(err)
		}
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	outer := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.OuterHTML(chromedp.CSS(sel)))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	eval := func(js string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}

	do(chromedp.Navigate("file://"+page), chromedp.WaitVisible(chromedp.CSS("#map svg #units")))
	where0, map0, units0, steps := text("#where"), outer("#map"), outer("#map #units"), eval(`String(D.steps.length)`)
	shot, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("#map")))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(where0, "step 1 of ") {
		t.Fatalf("the report does not open at its first step: %q", where0)
	}
	checkMapShot(t, shot)

	// → moves one step; End goes to the end, where the game is over and
	// the units do not stand as they began.
	do(chromedp.KeyEvent(kb.ArrowRight))
	where1 := text("#where")
	do(chromedp.KeyEvent(kb.End))
	whereEnd, unitsEnd, stepEnd := text("#where"), outer("#map #units"), text("#step")
	if !strings.HasPrefix(where1, "step 2 of ") || !strings.HasPrefix(whereEnd, "step "+steps+" of "+steps) {
		t.Fatalf("→ then End: %q, %q (of %s steps)", where1, whereEnd, steps)
	}
	if unitsEnd == units0 {
		t.Fatal("the units stand as they began at the game's end")
	}
	if !strings.Contains(stepEnd, "game over") {
		t.Fatalf("the last step is not the game's end: %q", stepEnd)
	}

	// The slider: a click at its middle goes to a step in the middle of
	// the game, and the map changes.
	do(chromedp.KeyEvent(kb.Home), chromedp.Click(chromedp.CSS("#slider")))
	whereMid, mapMid := text("#where"), outer("#map")
	if whereMid == where0 || strings.HasPrefix(whereMid, "step 1 of ") || mapMid == map0 {
		t.Fatalf("a click on the slider's middle: %q (from %q), map changed: %v", whereMid, where0, mapMid != map0)
	}
	// Steps are told in sentences; a step with dice lists them and says
	// how to verify them.
	told, dice := eval(`String(D.steps.filter((s) => s.told && s.told.length).length)`), eval(`String(D.steps.filter((s) => s.dice && s.dice.length).length)`)
	if told == "0" || dice == "0" {
		t.Fatalf("%s steps told in sentences, %s with dice", told, dice)
	}
	sentence := eval(`show(D.steps.findIndex((s) => s.dice && s.dice.length && s.told && s.told.length)); document.querySelector("#step").innerText`)
	if !strings.Contains(sentence, "die #") || !strings.Contains(sentence, "how to verify") {
		t.Fatalf("a step with dice reads:\n%s", sentence)
	}

	if f := os.Getenv("PBEM_WRITE_PNG"); f != "" { // to look at it
		if b, err := chromedp.Run(ctx, chromedp.FullScreenshot(90)); err == nil {
			os.WriteFile(f, b, 0o644)
		}
	}

	// On a phone's screen the page fits its width.
	do(chromedp.EmulateViewport(390, 844))
	if w := eval(`String(document.documentElement.scrollWidth > window.innerWidth + 1)`); w != "false" {
		t.Error("the report is wider than a phone's screen")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(problems) > 0 {
		t.Fatalf("the console says:\n%s", strings.Join(problems, "\n"))
	}
}

// checkMapShot holds a screenshot of the map to a drawn board: large,
// and of many colours (terrain, counters), not a blank page.
func checkMapShot(t *testing.T, shot []byte) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	if b.Dx() < 300 || b.Dy() < 300 {
		t.Fatalf("the map shows at %v", b)
	}
	colours := map[[3]uint32]int{}
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colours[[3]uint32{r >> 12, g >> 12, bl >> 12}]++
		}
	}
	if len(colours) < 12 {
		t.Fatalf("the map's screenshot has %d colours: blank, or not drawn", len(colours))
	}
	blue := 0 // the Union's counters
	for c, n := range colours {
		if c[2] > c[0]+4 && c[2] > 6 {
			blue += n
		}
	}
	if blue == 0 {
		t.Fatal("no Union counter shows on the map")
	}
}
