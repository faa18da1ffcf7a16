package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// freePort is a loopback address nobody listens on now: the page links
// in the mails must name the port before the server starts.
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// pageData is the report's data (the `const D = …;` line) of a page.
func pageData(t *testing.T, page string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^const D = (.*);$`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no report data in the page:\n%s", tail(page, 20))
	}
	return m[1]
}

// sameReport compares two reports' data but for the header's count of
// events (the outbox records its sendings as events while the test
// reads): "" if alike, else the first part that differs.
func sameReport(t *testing.T, a, b string) string {
	t.Helper()
	var da, db map[string]any
	if err := json.Unmarshal([]byte(a), &da); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(b), &db); err != nil {
		t.Fatal(err)
	}
	for _, d := range []map[string]any{da, db} {
		if h, ok := d["head"].([]any); ok && len(h) > 0 {
			d["head"] = h[:len(h)-1]
		}
	}
	for k := range db {
		x, _ := json.Marshal(da[k])
		y, _ := json.Marshal(db[k])
		if string(x) != string(y) {
			return fmt.Sprintf("%s: %s … against %s …", k, string(x)[:min(len(x), 300)], string(y)[:min(len(y), 300)])
		}
	}
	if len(da) != len(db) {
		return fmt.Sprintf("%d parts against %d", len(da), len(db))
	}
	return ""
}

// pageStrings are the texts a page's report data holds (every step's
// line, sentences and dice, the header), decoded as the browser shows them.
func pageStrings(t *testing.T, data string) string {
	t.Helper()
	var d struct {
		Title string
		Head  []string
		Steps []struct {
			Line   string
			Closed string
			Told   []string
			Dice   []string
		}
	}
	if err := json.Unmarshal([]byte(data), &d); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(d.Title + "\n" + strings.Join(d.Head, "\n") + "\n")
	for _, s := range d.Steps {
		b.WriteString(s.Line + "\n" + s.Closed + "\n" + strings.Join(s.Told, "\n") + "\n" + strings.Join(s.Dice, "\n") + "\n")
	}
	return b.String()
}

// Each player's live page, served by pbem serve with [web] on: the link
// in the welcome mail and HELP opens the campaign report as that reader
// sees the game now, in headless Chromium (the script runs under the
// page's strict CSP, the slider moves the shown step); two players'
// pages differ exactly as their exports do (a player's private message
// to the referee is on hers and the referee's, not on the other side's),
// and hold nothing another viewer's export has and theirs lacks; a wrong
// token, another seat's token or a link revoked by REPLACE gives the
// same 404; the headers say no-store, no referrer, nosniff and a CSP
// with a nonce; the token never reaches the server's log or an export.
func TestPlayerPageServedPerViewerInChromium(t *testing.T) {
	cpuBound(t)
	browser := chromiumPath(t)
	addr := freePort(t)
	base := "http://" + addr
	env := []string{"PBEM_WEB_LISTEN=" + addr, "PBEM_WEB_BASE_URL=" + base}
	dir := t.TempDir()
	if out, errOut, code := pbem(t, env, "--data-dir", dir, "new", "--game", "g1", "--ruleset", "gcacw", "--scenario", "harrow-creek",
		"--player", "anna:USA:anna@pbem.localhost:Anna", "--player", "taro:CSA:taro@pbem.localhost:Taro", "--referee", "ref:ref@pbem.localhost"); code != 0 {
		t.Fatalf("new: %s %s", out, errOut)
	}
	// What is tested is what each viewer's page shows (content): served on contentBin.
	srv := startServeContent(t, dir, env...)
	stopped := false
	defer func() {
		if !stopped {
			stopServe(t, srv)
		}
	}()
	for _, o := range []struct{ player, text string }{
		{"anna", "PASS"},
		{"anna", "REFEREE secret plan alpha: hold the ford"},
		{"taro", "HELP"},
	} {
		if out, errOut, code := pbem(t, env, "--data-dir", dir, "order", "g1", "--player", o.player, o.text); code != 0 || !strings.Contains(out, "accepted") {
			t.Fatalf("order %s %q: exit %d\n%s%s", o.player, o.text, code, out, errOut)
		}
	}

	// The links, from the mails as stored (an export keeping secrets):
	// each seat's in its welcome, and taro's again in the answer to HELP.
	full, errOut, code := pbem(t, env, "--data-dir", dir, "export", "--with-secrets", "g1")
	if code != 0 {
		t.Fatalf("export: %s", errOut)
	}
	links := map[string]string{}
	linkRE := regexp.MustCompile(regexp.QuoteMeta(base) + `/p/g1/([a-z]+)/([a-z2-7]{26})`)
	for _, m := range linkRE.FindAllStringSubmatch(full, -1) {
		if old, ok := links[m[1]]; ok && old != m[0] {
			t.Fatalf("two links for %s: %s and %s", m[1], old, m[0])
		}
		links[m[1]] = m[0]
	}
	if len(links) != 3 || strings.Count(full, links["taro"]) < 2 {
		t.Fatalf("the mails carry these page links: %v (taro's %d times, want in the welcome and HELP)", links, strings.Count(full, links["taro"]))
	}
	tokens := map[string]string{}
	for who, l := range links {
		tokens[who] = l[strings.LastIndexByte(l, '/')+1:]
	}
	redacted, _, _ := pbem(t, env, "--data-dir", dir, "export", "g1")
	for who, tok := range tokens {
		if strings.Contains(redacted, tok) {
			t.Fatalf("an export without --with-secrets holds %s's page token", who)
		}
	}

	get := func(method, url string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest(method, url, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	pages := map[string]string{}
	for who, l := range links {
		resp, body := get("GET", l)
		if resp.StatusCode != 200 {
			t.Fatalf("%s's page: %s\n%s", who, resp.Status, body)
		}
		h := resp.Header
		csp := h.Get("Content-Security-Policy")
		nonce := regexp.MustCompile(`script-src 'nonce-([A-Za-z0-9_-]+)'`).FindStringSubmatch(csp)
		if h.Get("Cache-Control") != "no-store" || h.Get("Referrer-Policy") != "no-referrer" || h.Get("X-Content-Type-Options") != "nosniff" ||
			!strings.Contains(csp, "default-src 'none'") || nonce == nil || !strings.Contains(body, `<script nonce="`+nonce[1]+`">`) {
			t.Fatalf("%s's page headers: %v", who, h)
		}
		pages[who] = body
	}

	// Each page is that viewer's export, step for step: the pages differ
	// exactly where the views do.
	texts := map[string]string{}
	for _, who := range []string{"anna", "taro", "ref"} {
		out, errOut, code := pbem(t, env, "--data-dir", dir, "export", "--format", "html", "--as", who, "g1")
		if code != 0 {
			t.Fatalf("export --as %s: %s", who, errOut)
		}
		if diff := sameReport(t, pageData(t, pages[who]), pageData(t, out)); diff != "" {
			t.Fatalf("%s's page is not what pbem export --as %s shows: %s", who, who, diff)
		}
		if texts[who], errOut, code = pbem(t, env, "--data-dir", dir, "export", "--format", "text", "--as", who, "g1"); code != 0 {
			t.Fatalf("export --as %s: %s", who, errOut)
		}
	}
	if pageData(t, pages["anna"]) == pageData(t, pages["taro"]) {
		t.Fatal("anna's and taro's pages are the same, though their views are not")
	}
	for who, want := range map[string]bool{"anna": true, "ref": true, "taro": false} {
		if got := strings.Contains(pageStrings(t, pageData(t, pages[who])), "secret plan alpha"); got != want {
			t.Fatalf("anna's private message to the referee on %s's page: %v, want %v", who, got, want)
		}
	}
	// The leak check: nothing on X's page that another viewer's export
	// has and X's lacks.
	for _, x := range []string{"anna", "taro"} {
		seen := pageStrings(t, pageData(t, pages[x])) + pages[x]
		own := map[string]bool{}
		for _, l := range strings.Split(texts[x], "\n") {
			own[strings.TrimSpace(l)] = true
		}
		for _, y := range []string{"anna", "taro", "ref"} {
			for _, l := range strings.Split(texts[y], "\n") {
				l = strings.TrimSpace(l)
				if len(l) < 12 || own[l] {
					continue
				}
				// A step's line without its seq is what the page shows.
				if _, rest, ok := strings.Cut(l, "  "); ok && len(rest) >= 12 && !own[l] && strings.Contains(seen, rest) && !strings.Contains(texts[x], rest) {
					t.Fatalf("%s's page shows what only %s may see: %q", x, y, rest)
				}
				if strings.Contains(seen, l) {
					t.Fatalf("%s's page shows what only %s may see: %q", x, y, l)
				}
			}
		}
	}

	// A wrong token, one seat's token on another seat, a game that does
	// not exist, and anything but GET: no page, and the same answer.
	wrong := []string{
		base + "/p/g1/anna/" + strings.Repeat("a", 26),
		base + "/p/g1/taro/" + tokens["anna"],
		base + "/p/g2/anna/" + tokens["anna"],
		base + "/p/g1/nobody/" + tokens["anna"],
		base + "/p/g1/anna/" + tokens["anna"] + "/x",
		base + "/",
	}
	var notFound string
	for _, u := range wrong {
		resp, body := get("GET", u)
		if resp.StatusCode != 404 {
			t.Fatalf("GET %s: %s", u, resp.Status)
		}
		if notFound == "" {
			notFound = body
		} else if body != notFound {
			t.Fatalf("two wrong links answer differently: %q and %q", notFound, body)
		}
	}
	if resp, _ := get("POST", links["anna"]); resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("POST to a page: %s", resp.Status)
	}

	// In the browser: the page opens at the game as it stands, its script
	// runs under the CSP, and the slider moves the shown step.
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.WindowSize(1200, 900), chromedp.Flag("user-data-dir", t.TempDir()))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 120*time.Second)
	defer cancel()
	var mu sync.Mutex
	var problems []string
	if err := chromedp.Listen(ctx, func(ev any) {
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
	}); err != nil {
		t.Fatal(err)
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
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
	shown := map[string]string{}
	for _, who := range []string{"anna", "taro", "ref"} {
		if err := chromedp.Do(ctx, chromedp.Navigate(links[who]), chromedp.WaitVisible(chromedp.CSS("#map svg"))); err != nil {
			t.Fatalf("%s's page in Chromium: %v", who, err)
		}
		n := eval(`String(D.steps.length)`)
		end := text("#where")
		if !strings.HasPrefix(end, "step "+n+" of "+n) {
			t.Fatalf("%s's page does not open at the game as it stands: %q (%s steps)", who, end, n)
		}
		if now := text("#now"); !strings.Contains(now, "Orders go by mail") {
			t.Fatalf("%s's page does not say what stands now: %q", who, now)
		}
		// The slider, driven as a hand drives it: a new value and its
		// input event.
		eval(`const s = document.getElementById("slider"); s.value = "0"; s.dispatchEvent(new Event("input")); "moved"`)
		if first := text("#where"); !strings.HasPrefix(first, "step 1 of "+n) {
			t.Fatalf("%s's page: the slider moved to 0, the page shows %q", who, first)
		}
		shown[who] = eval(`document.body.innerText + D.steps.map((s) => s.line).join("\n")`)
	}
	if strings.Contains(shown["taro"], "secret plan alpha") || !strings.Contains(shown["anna"], "secret plan alpha") {
		t.Fatal("in the browser, anna's private message shows on the wrong pages")
	}
	mu.Lock()
	if len(problems) > 0 {
		t.Fatalf("the console says:\n%s", strings.Join(problems, "\n"))
	}
	mu.Unlock()

	// The referee revokes anna's link by giving her seat to her own
	// address again (REPLACE: a new key epoch): the old link opens
	// nothing, the new one (in the new welcome) her page.
	if out, errOut, code := pbem(t, env, "--data-dir", dir, "referee", "g1", "--as", "ref", "REPLACE anna WITH anna@pbem.localhost"); code != 0 {
		t.Fatalf("REPLACE: %s%s", out, errOut)
	}
	if resp, _ := get("GET", links["anna"]); resp.StatusCode != 404 {
		t.Fatalf("a revoked link: %s", resp.Status)
	}
	full, _, _ = pbem(t, env, "--data-dir", dir, "export", "--with-secrets", "g1")
	var renewed string
	for _, m := range linkRE.FindAllStringSubmatch(full, -1) {
		if m[1] == "anna" && m[0] != links["anna"] {
			renewed = m[0]
		}
	}
	if renewed == "" {
		t.Fatal("anna's new welcome carries no new link")
	}
	if resp, _ := get("GET", renewed); resp.StatusCode != 200 {
		t.Fatalf("anna's new link: %s", resp.Status)
	}
	if resp, _ := get("GET", links["taro"]); resp.StatusCode != 200 {
		t.Fatalf("taro's link after anna's seat was renewed: %s", resp.Status)
	}

	logs := stopServe(t, srv)
	stopped = true
	if !strings.Contains(logs, "page served") || !strings.Contains(logs, "seat=anna") {
		t.Fatalf("the server's log does not name the pages served:\n%s", tail(logs, 20))
	}
	for who, tok := range tokens {
		if strings.Contains(logs, tok) {
			t.Fatalf("the server's log holds %s's page token", who)
		}
	}
	if strings.Contains(logs, renewed[strings.LastIndexByte(renewed, '/')+1:]) || strings.Contains(logs, "/p/g1/") {
		t.Fatal("the server's log holds a page path")
	}
}
