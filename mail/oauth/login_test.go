package oauth_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"pbem/internal/oauthtest"
	"pbem/internal/waitfor"
	"pbem/mail/oauth"
)

// syncWriter is a writer the login and the test share.
type syncWriter struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}
func (w *syncWriter) String() string { w.mu.Lock(); defer w.mu.Unlock(); return w.b.String() }

var linkRE = regexp.MustCompile(`(?m)^    (http\S+/authorize\S+)$`)

// The browser login (Google's way: no mail scopes by device code) gets a
// refresh token that then refreshes, whether the browser comes back to
// pbem's loopback listener or the operator pastes the address it came
// back to (the browser on another machine).
func TestOAuthBrowserLoginStoresARefreshTokenThatWorks(t *testing.T) {
	for _, paste := range []bool{false, true} {
		name := map[bool]string{false: "browser on this machine", true: "address pasted"}[paste]
		t.Run(name, func(t *testing.T) {
			a := oauthtest.Start(t, "pbem", time.Hour)
			cfg := oauth.Config{ClientID: a.ClientID, TokenURL: a.TokenURL, AuthURL: a.AuthURL, Scopes: []string{"https://mail.google.com/"},
				TokenFile: filepath.Join(t.TempDir(), "oauth-token.json"), Browser: true}
			out := &syncWriter{}
			in, typed := io.Pipe()
			defer typed.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- oauth.Login(ctx, cfg, out, in) }()
			var link string
			limit, _ := ctx.Deadline()
			waitfor.True(time.Until(limit), func() bool {
				if m := linkRE.FindStringSubmatch(out.String()); m != nil {
					link = m[1]
				}
				return link != ""
			})
			if paste {
				// The browser elsewhere: its redirect to 127.0.0.1 fails
				// there, and the operator pastes the address.
				c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
				resp, err := c.Get(link)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				go typed.Write([]byte("not an address\n" + resp.Header.Get("Location") + "\n"))
			} else {
				resp, err := http.Get(link)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if !strings.Contains(string(body), "logged in") {
					t.Fatalf("the browser's last page: %s", body)
				}
			}
			if err := <-done; err != nil {
				t.Fatalf("login: %v\n%s", err, out.String())
			}
			if fi, err := os.Stat(cfg.TokenFile); err != nil || fi.Mode().Perm() != 0o600 {
				t.Fatalf("token file %v %v", fi, err)
			}
			tok, err := oauth.NewSource(cfg).Token(context.Background())
			if err != nil || !a.Active(tok) {
				t.Fatalf("the stored refresh token gave %q, %v", tok, err)
			}
			if paste && !strings.Contains(out.String(), "paste it again") {
				t.Errorf("a pasted line that is no address was not answered:\n%s", out.String())
			}
		})
	}
}
