package web

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pbem/engine/enginetest"
	"pbem/engine/play"
	"pbem/mail/token"
	"pbem/store"
)

// The handler over a real store: a seat's link opens its page with the
// hygiene headers, and every other request (another seat's token, a
// guessed token, a game that does not exist, a malformed path) gets the
// same 404; anything but GET and HEAD a 405; the log names game and seat,
// never the token.
func TestPlayerPageHandlerAnswersOnlyItsSeatsLink(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "pbem.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	reg := enginetest.RaceRegistry()
	if _, err := play.Create(st, reg, play.NewGame{ID: "g1", Ruleset: "race", Scenario: []byte("target 40"),
		Players: enginetest.RacePlayers, At: time.Unix(1700000000, 0)}); err != nil {
		t.Fatal(err)
	}
	secret := []byte("server secret")
	var logs bytes.Buffer
	h := &Handler{Log: st, Reg: reg, Secret: secret, Logger: slog.New(slog.NewTextHandler(&logs, nil))}
	srv := httptest.NewServer(h)
	defer srv.Close()
	north := Link(srv.URL, secret, "g1", "north", 0)
	if Link("", secret, "g1", "north", 0) != "" {
		t.Fatal("a link without a base URL")
	}

	do := func(method, url string) (*http.Response, string) {
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
	resp, body := do("GET", north)
	if resp.StatusCode != 200 || !strings.Contains(body, "as north (USA) saw it") || !strings.Contains(body, `<section id="now">`) {
		t.Fatalf("north's page: %s\n%s", resp.Status, body)
	}
	for k, v := range map[string]string{"Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff"} {
		if resp.Header.Get(k) != v {
			t.Errorf("%s: %q, want %q", k, resp.Header.Get(k), v)
		}
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.HasPrefix(csp, "default-src 'none';") || !strings.Contains(csp, "script-src 'nonce-") {
		t.Errorf("CSP %q", csp)
	}
	if resp, _ := do("HEAD", north); resp.StatusCode != 200 {
		t.Errorf("HEAD: %s", resp.Status)
	}

	tok := token.Page(secret, "g1", "north", 0)
	tests := []struct {
		name, method, path string
		code               int
	}{
		{"another seat's token", "GET", "/p/g1/south/" + tok, 404},
		{"a guessed token", "GET", "/p/g1/north/" + strings.Repeat("a", token.PageLen), 404},
		{"the token of a later epoch", "GET", "/p/g1/north/" + token.Page(secret, "g1", "north", 1), 404},
		{"another server's token", "GET", "/p/g1/north/" + token.Page([]byte("other"), "g1", "north", 0), 404},
		{"a game that does not exist", "GET", "/p/g9/north/" + tok, 404},
		{"a seat that does not exist", "GET", "/p/g1/east/" + tok, 404},
		{"the reply key", "GET", "/p/g1/north/" + token.Make(secret, "g1", "north"), 404},
		{"a longer path", "GET", "/p/g1/north/" + tok + "/more", 404},
		{"the root", "GET", "/", 404},
		{"POST", "POST", "/p/g1/north/" + tok, 405},
		{"PUT", "PUT", "/p/g1/north/" + tok, 405},
	}
	var notFound string
	for _, tc := range tests {
		resp, body := do(tc.method, srv.URL+tc.path)
		if resp.StatusCode != tc.code {
			t.Errorf("%s: %s, want %d", tc.name, resp.Status, tc.code)
		}
		if tc.code == 404 {
			if notFound == "" {
				notFound = body
			} else if body != notFound {
				t.Errorf("%s answers %q, another wrong link %q", tc.name, body, notFound)
			}
		}
		if resp.Header.Get("Cache-Control") != "no-store" || !strings.HasPrefix(resp.Header.Get("Content-Security-Policy"), "default-src 'none'") {
			t.Errorf("%s: headers %v", tc.name, resp.Header)
		}
	}
	if !strings.Contains(logs.String(), "game=g1 seat=north") || strings.Contains(logs.String(), tok) || strings.Contains(logs.String(), "/p/") {
		t.Fatalf("the log:\n%s", logs.String())
	}
}
