//go:build linux

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"io"
	"maps"
	"os"
	"path/filepath"
	"pbem/demo"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/emersion/go-message/mail"
)

// htmlMail is the HTML part of a real mail and the pictures it shows by
// Content-ID, written to a directory as a browser opens them.
type htmlMail struct {
	kind string
	page string // the HTML part's file, cid: links pointing at the files beside it
}

// writeHTMLPart writes m's HTML part to dir/index.html, its inline
// pictures beside it (cid:X becomes X.png); ok is false for a mail with
// no HTML part (one without a drawn board).
func writeHTMLPart(t *testing.T, m demo.Mail, dir string) (htmlMail, bool) {
	t.Helper()
	r, err := mail.CreateReader(bytes.NewReader(m.Raw))
	if err != nil {
		t.Fatal(err)
	}
	var doc string
	pics := map[string][]byte{}
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(p.Body)
		ct := p.Header.Get("Content-Type")
		switch {
		case strings.HasPrefix(ct, "text/html"):
			doc = string(b)
		case strings.HasPrefix(ct, "image/png"):
			pics[strings.Trim(p.Header.Get("Content-ID"), "<>")] = b
		}
	}
	if doc == "" {
		return htmlMail{}, false
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, cid := range slices.Sorted(maps.Keys(pics)) {
		name := "picture" + string(rune('a'+i)) + ".png"
		doc = strings.ReplaceAll(doc, "cid:"+cid, name)
		if err := os.WriteFile(filepath.Join(dir, name), pics[cid], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if strings.Contains(doc, "cid:") {
		t.Fatalf("the HTML part of %q shows a picture the mail does not carry", m.Kind)
	}
	f := filepath.Join(dir, "index.html")
	if err := os.WriteFile(f, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return htmlMail{kind: m.Kind, page: f}, true
}

// fetchAll reads every mail in mailbox b again, from the first.
func fetchAll(b *demo.Mailbox) ([]demo.Mail, error) {
	b.LastUID = 0
	return b.FetchNew()
}

// layout is where things are on a mail's page, as the browser lays it
// out (measured by layoutJS).
type layout struct {
	ViewportW, PageW   float64
	PictureLoaded      bool
	PictureRight       float64
	BoardRight         float64
	BoardScrolls       bool
	Top, Picture       float64 // the tops, in page coordinates (-1: absent)
	Board, Footer      float64
	TopText, FooterKey string
	CutOff             []string // text blocks (not the board) wider than the page shows
}

const layoutJS = `(() => {
	const d = document, vw = d.documentElement.clientWidth;
	const img = d.querySelector("img");
	const box = [...d.querySelectorAll("div")].find((x) => x.querySelector("pre"));
	const pres = [...d.querySelectorAll("pre")].filter((p) => !box || !box.contains(p));
	const top = pres[0], foot = pres[pres.length - 1];
	const y = (e) => e ? e.getBoundingClientRect().top + window.scrollY : -1;
	return JSON.stringify({
		ViewportW: vw, PageW: d.documentElement.scrollWidth,
		PictureLoaded: !!img && img.complete && img.naturalWidth > 0,
		PictureRight: img ? img.getBoundingClientRect().right : 0,
		BoardRight: box ? box.getBoundingClientRect().right : 0,
		BoardScrolls: box ? box.scrollWidth > box.clientWidth : false,
		Top: y(top), Picture: y(img), Board: y(box), Footer: pres.length > 1 ? y(foot) : -1,
		TopText: top ? top.innerText.slice(0, 200) : "", FooterKey: foot ? foot.innerText : "",
		CutOff: pres.filter((p) => p.scrollWidth > p.clientWidth + 1).map((p) => p.innerText.slice(0, 60)),
	});
})()`

// The HTML part of real mails from a game played through 'pbem serve',
// opened in headless Chromium at a phone's width (400 px) and a desktop's
// (1280 px), reads as a player needs it: what happened and what to do
// first, then the picture, then the board as text, then the Key line and
// the signature; no text is cut off on the right, and the page is never
// wider than the screen (the ASCII board scrolls in its own box). The
// screenshots' right-hand edge is empty at 400 px: nothing runs off it.
// PBEM_SCREENSHOTS=dir keeps the pages and screenshots to look at.
func TestMailHTMLReadsOnAPhoneInChromium(t *testing.T) {
	browser := chromiumPath(t)
	cpuBound(t)
	g := newMailGame(t)
	// What is tested is the mails' HTML (content): served on contentBin.
	srv := startServeContent(t, g.dir, g.env...)
	defer stopServe(t, srv)
	g.welcomesOnly()
	g.actions(2)
	out := t.TempDir()
	if d := os.Getenv("PBEM_SCREENSHOTS"); d != "" {
		out = d
	}
	var pages []htmlMail
	for _, who := range []string{"anna", "taro", "carol"} {
		ms, err := fetchAll(g.people[who])
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range ms {
			if p, ok := writeHTMLPart(t, m, filepath.Join(out, who+"-"+string(rune('a'+i)))); ok {
				pages = append(pages, p)
			}
		}
	}
	if len(pages) < 3 {
		t.Fatalf("only %d mails with an HTML part: the played game's mails carry no drawn boards", len(pages))
	}

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.Flag("hide-scrollbars", true), chromedp.Flag("user-data-dir", t.TempDir()))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	for _, p := range pages {
		for _, width := range []int64{400, 1280} {
			err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 2000), chromedp.Navigate("file://"+p.page))
			if err == nil {
				_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`new Promise((ok) => { const i = document.querySelector("img");
					if (!i || i.complete) ok(true); else i.onload = i.onerror = () => ok(true); })`, chromedp.EvalAwaitPromise))
			}
			var js string
			if err == nil {
				js, err = chromedp.Run(ctx, chromedp.Evaluate[string](layoutJS))
			}
			var shot []byte
			if err == nil {
				shot, err = chromedp.Run(ctx, chromedp.CaptureScreenshot())
			}
			if err != nil {
				t.Fatalf("%s at %d px: %v", p.kind, width, err)
			}
			name := strings.TrimSuffix(p.page, "index.html") + "shot-" + map[int64]string{400: "400", 1280: "1280"}[width] + ".png"
			if err := os.WriteFile(name, shot, 0o644); err != nil {
				t.Fatal(err)
			}
			var l layout
			if err := json.Unmarshal([]byte(js), &l); err != nil {
				t.Fatalf("%s: %v: %s", p.kind, err, js)
			}
			checkLayout(t, p.kind, width, l, shot)
		}
	}
}

// checkLayout holds a mail's page at one width to what a reader needs.
func checkLayout(t *testing.T, kind string, width int64, l layout, shot []byte) {
	t.Helper()
	at := func(f string, a ...any) {
		t.Helper()
		t.Errorf("%q at %d px: "+f, append([]any{kind, width}, a...)...)
	}
	if l.ViewportW != float64(width) {
		at("the viewport is %v px wide", l.ViewportW)
	}
	if l.PageW > l.ViewportW {
		at("the page is %v px wide, wider than the screen (%v px): the reader must scroll sideways", l.PageW, l.ViewportW)
	}
	if len(l.CutOff) > 0 {
		at("text is cut off on the right: %q", l.CutOff)
	}
	if !l.PictureLoaded || l.PictureRight > l.ViewportW {
		at("the picture does not show within the screen (loaded %v, right edge %v)", l.PictureLoaded, l.PictureRight)
	}
	if l.Board >= 0 && l.BoardRight > l.ViewportW {
		at("the board's box runs off the screen (right edge %v)", l.BoardRight)
	}
	if width == 400 && l.Board >= 0 && !l.BoardScrolls {
		at("the 78-column board fits 400 px without scrolling: it is shrunk or wrapped")
	}
	if !(l.Top >= 0 && l.Top < l.Picture && (l.Board < 0 || l.Picture < l.Board) && l.Footer > max(l.Picture, l.Board)) {
		at("the order is not what happened, the picture, the board, the footer: tops %v, %v, %v, %v", l.Top, l.Picture, l.Board, l.Footer)
	}
	if !strings.Contains(l.FooterKey, "Key: ") && !strings.Contains(l.FooterKey, "needs no answer") || !strings.HasSuffix(strings.TrimSpace(l.FooterKey), "pbem") {
		at("the footer is not last with the Key line and the signature:\n%s", l.FooterKey)
	}
	if strings.Contains(l.TopText, "Key: ") || !strings.Contains(l.TopText, ",") {
		at("the page does not open with the mail's greeting and what happened:\n%s", l.TopText)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	if b.Dx() != int(width) {
		at("the screenshot is %d px wide", b.Dx())
		return
	}
	// Nothing runs off the right-hand edge: its last columns are the
	// page's white margin, top to bottom; and the screenshot is not blank.
	if x, y, ok := inkAt(img, image.Rect(b.Max.X-4, b.Min.Y, b.Max.X, b.Max.Y)); ok {
		at("the screenshot has ink at its right-hand edge (%d,%d): something runs off the screen", x, y)
	}
	if _, _, ok := inkAt(img, image.Rect(b.Min.X, b.Min.Y, b.Min.X+b.Dx()/2, b.Min.Y+300)); !ok {
		at("the screenshot's top is blank")
	}
}

// inkAt finds a pixel in r of img that is not white.
func inkAt(img image.Image, r image.Rectangle) (int, int, bool) {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if cr < 0xf000 || cg < 0xf000 || cb < 0xf000 {
				return x, y, true
			}
		}
	}
	return 0, 0, false
}
