package oauth

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"

	"golang.org/x/oauth2"
)

// LoginBrowser runs the authorization-code login of an installed app
// (RFC 8252: a loopback redirect, with PKCE), for a provider that refuses
// the mail scopes in the device flow (Google). It prints the address to
// open; the browser comes back to a listener on 127.0.0.1 of this
// machine. When the browser runs on another machine (pbem on a server),
// its last page fails to load: the operator pastes that page's address
// (http://127.0.0.1:PORT/?state=…&code=…) on in instead. The refresh token
// is stored in the token file.
func LoginBrowser(ctx context.Context, cfg Config, out io.Writer, in io.Reader) error {
	if cfg.AuthURL == "" || cfg.TokenURL == "" {
		return errors.New("mail.oauth needs auth_url and token_url (or a provider: google or microsoft)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("browser login: %w", err)
	}
	defer l.Close()
	oc := cfg.oauth2()
	oc.RedirectURL = "http://" + l.Addr().String() + "/"
	b := make([]byte, 16)
	rand.Read(b)
	state := hex.EncodeToString(b)
	verifier := oauth2.GenerateVerifier()
	link := oc.AuthCodeURL(state, oauth2.AccessTypeOffline, oauth2.ApprovalForce, oauth2.S256ChallengeOption(verifier))

	codes := make(chan string, 2)
	take := func(q url.Values) error {
		if e := q.Get("error"); e != "" {
			return fmt.Errorf("the provider refused the login: %s %s", e, q.Get("error_description"))
		}
		if q.Get("state") != state {
			return errors.New("the address does not belong to this login (its state differs): open the address printed above")
		}
		if q.Get("code") == "" {
			return errors.New("the address carries no code")
		}
		codes <- q.Get("code")
		return nil
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		if err := take(r.URL.Query()); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, "<p>pbem: %s</p>", html.EscapeString(err.Error()))
			return
		}
		fmt.Fprint(w, "<p>pbem is logged in to the mailbox. You may close this page.</p>")
	})}
	go srv.Serve(l)
	defer srv.Close()
	if in != nil {
		go func() {
			sc := bufio.NewScanner(in)
			for sc.Scan() {
				line := strings.TrimSpace(sc.Text())
				if line == "" {
					continue
				}
				u, err := url.Parse(line)
				if err == nil {
					err = take(u.Query())
				}
				if err != nil {
					fmt.Fprintf(out, "That is not the address the browser came back to (%v); paste it again.\n", err)
				}
			}
		}()
	}
	fmt.Fprintf(out, "To let pbem use the game mailbox, open this address in a browser, log in as the mailbox and allow access:\n\n    %s\n\n"+
		"If the browser is on another machine, its last page will not load: copy that page's address\n(it starts with %s) and paste it here.\nWaiting...\n",
		link, oc.RedirectURL)
	var code string
	select {
	case <-ctx.Done():
		return ctx.Err()
	case code = <-codes:
	}
	tok, err := oc.Exchange(cfg.ctx(ctx), code, oauth2.VerifierOption(verifier))
	if err != nil {
		return fmt.Errorf("exchanging the code: %w", (&Source{cfg: cfg}).describe(err))
	}
	return keep(cfg, tok, out)
}
