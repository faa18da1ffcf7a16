// Package oauth logs pbem in to the game mailbox's IMAP and SMTP servers
// with OAuth 2.0 bearer tokens (SASL XOAUTH2 or OAUTHBEARER, RFC 7628),
// as Gmail and Microsoft 365 require: it keeps the refresh token in a file
// of the data directory (mode 0600), turns it into short-lived access
// tokens on demand with golang.org/x/oauth2, and runs the one-time
// device-code login (RFC 8628) that obtains it.
//
// Tokens never reach a log or an error message: errors name the file and
// the token endpoint, and what the operator should do.
package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
)

// Config says where tokens come from.
type Config struct {
	ClientID, ClientSecret string
	// TokenURL is the token endpoint (refreshing, and the device flow's
	// polling); DeviceURL the device authorization endpoint; AuthURL the
	// authorization endpoint of the browser login (LoginBrowser).
	TokenURL, DeviceURL, AuthURL string
	Scopes                       []string
	// TokenFile holds the refresh token (JSON, mode 0600).
	TokenFile string
	// Browser makes Login use the browser login (the provider refuses
	// the mail scopes in the device flow).
	Browser bool
	// HTTPClient, if set, talks to the endpoints (a private CA, say).
	HTTPClient *http.Client
}

// Provider presets: the endpoints and scopes of the big mail providers, so
// that a configuration names the provider and its client ID only.
type Provider struct {
	TokenURL, DeviceURL, AuthURL string
	Scopes                       []string
	// Browser: the provider refuses the mail scopes in the device flow
	// (Google does), so 'pbem mail login' uses LoginBrowser.
	Browser bool
}

// Providers by the name mail.oauth.provider gives them. Microsoft's
// endpoints take the tenant ("common", "organizations", "consumers" or a
// tenant ID) in place of {tenant}.
var Providers = map[string]Provider{
	"google": {
		TokenURL:  "https://oauth2.googleapis.com/token",
		DeviceURL: "https://oauth2.googleapis.com/device/code",
		AuthURL:   "https://accounts.google.com/o/oauth2/v2/auth",
		Scopes:    []string{"https://mail.google.com/"},
		Browser:   true,
	},
	"microsoft": {
		TokenURL:  "https://login.microsoftonline.com/{tenant}/oauth2/v2.0/token",
		DeviceURL: "https://login.microsoftonline.com/{tenant}/oauth2/v2.0/devicecode",
		AuthURL:   "https://login.microsoftonline.com/{tenant}/oauth2/v2.0/authorize",
		Scopes: []string{"https://outlook.office.com/IMAP.AccessAsUser.All", "https://outlook.office.com/SMTP.Send",
			"offline_access"},
	},
}

// Preset fills cfg's empty endpoints and scopes from the named provider
// ("" or "custom": none), for tenant where the provider has tenants.
func Preset(cfg Config, provider, tenant string) (Config, error) {
	if provider == "" || provider == "custom" {
		return cfg, nil
	}
	p, ok := Providers[provider]
	if !ok {
		return cfg, fmt.Errorf("oauth provider %q: use google, microsoft or custom", provider)
	}
	if tenant == "" {
		tenant = "common"
	}
	if cfg.TokenURL == "" {
		cfg.TokenURL = strings.ReplaceAll(p.TokenURL, "{tenant}", tenant)
	}
	if cfg.DeviceURL == "" {
		cfg.DeviceURL = strings.ReplaceAll(p.DeviceURL, "{tenant}", tenant)
	}
	if cfg.AuthURL == "" {
		cfg.AuthURL = strings.ReplaceAll(p.AuthURL, "{tenant}", tenant)
	}
	cfg.Browser = cfg.Browser || p.Browser
	if len(cfg.Scopes) == 0 {
		cfg.Scopes = p.Scopes
	}
	return cfg, nil
}

func (c Config) oauth2() *oauth2.Config {
	return &oauth2.Config{ClientID: c.ClientID, ClientSecret: c.ClientSecret, Scopes: c.Scopes,
		Endpoint: oauth2.Endpoint{TokenURL: c.TokenURL, DeviceAuthURL: c.DeviceURL, AuthURL: c.AuthURL}}
}

func (c Config) ctx(ctx context.Context) context.Context {
	if c.HTTPClient != nil {
		return context.WithValue(ctx, oauth2.HTTPClient, c.HTTPClient)
	}
	return ctx
}

// stored is the token file's content.
type stored struct {
	RefreshToken string    `json:"refresh_token"`
	TokenURL     string    `json:"token_url"`
	Saved        time.Time `json:"saved"`
}

// ErrNoToken says the token file does not exist yet: pbem mail login has
// not been run.
var ErrNoToken = errors.New("no refresh token")

var errDamaged = errors.New("oauth token file is damaged")

func readFile(path string) (stored, error) {
	var s stored
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return s, fmt.Errorf("%w in %s: run 'pbem mail login' once to log in to the mail provider", ErrNoToken, path)
	}
	if err != nil {
		return s, fmt.Errorf("oauth token file: %w", err)
	}
	if err := json.Unmarshal(data, &s); err != nil || s.RefreshToken == "" {
		return s, fmt.Errorf("%w: %s has no refresh token in it: run 'pbem mail login' again", errDamaged, path)
	}
	return s, nil
}

// writeFile replaces the token file atomically, readable by its owner only.
func writeFile(path string, s stored) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("oauth token file: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".oauth-token-*")
	if err != nil {
		return fmt.Errorf("oauth token file: %w", err)
	}
	defer os.Remove(f.Name())
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return fmt.Errorf("oauth token file: %w", err)
	}
	if _, err := f.Write(append(data, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("oauth token file: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("oauth token file: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("oauth token file: %w", err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("oauth token file: %w", err)
	}
	return nil
}

// Source hands out access tokens, refreshing them with the stored refresh
// token shortly before they expire. It is safe for concurrent use (the
// intake and the outbox's workers share one). A refresh token the
// provider refused is not offered again until the file changes (pbem mail
// login writes a new one), so a revoked grant costs one request per
// attempt at most, not a storm.
type Source struct {
	cfg        Config
	mu         sync.Mutex
	tok        *oauth2.Token
	got        time.Time // when tok was obtained
	refused    string    // the refresh token the endpoint refused, and why
	needsLogin bool      // the last failure was a refused refresh token or no token file
	why        error
	refresh    int // refreshes done, for tests and metrics
	failed     int // refreshes failed
	failing    time.Time
	lastErr    string
}

// Status is what a source reports on itself, for metrics and health.
type Status struct {
	Refreshes, Failures int
	// FailingSince is when getting a token began failing (zero while it
	// works); LastError says why, and NeedsLogin whether only a new
	// 'pbem mail login' can mend it.
	FailingSince time.Time
	LastError    string
	NeedsLogin   bool
}

// Status reports the source's state now.
func (s *Source) Status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Status{Refreshes: s.refresh, Failures: s.failed, FailingSince: s.failing, LastError: s.lastErr,
		NeedsLogin: !s.failing.IsZero() && s.needsLogin}
}

// NewSource returns a source over cfg's token file.
func NewSource(cfg Config) *Source { return &Source{cfg: cfg} }

// Refreshes returns how many access tokens the source has obtained.
func (s *Source) Refreshes() int { s.mu.Lock(); defer s.mu.Unlock(); return s.refresh }

// early is how long before its expiry an access token is replaced, so
// that a login never presents one about to lapse: 30s, or a tenth of its
// lifetime if that is shorter.
func early(got, expiry time.Time) time.Duration {
	return min(30*time.Second, expiry.Sub(got)/10)
}

// Token returns a valid access token.
func (s *Source) Token(ctx context.Context) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	tok, err := s.token(ctx)
	if err != nil {
		s.failed++
		if s.failing.IsZero() {
			s.failing = time.Now()
		}
		s.lastErr = err.Error()
		var re *RefreshError
		s.needsLogin = errors.Is(err, ErrNoToken) || errors.Is(err, errDamaged) || errors.As(err, &re) && re.Code == "invalid_grant"
		return "", err
	}
	s.failing, s.lastErr, s.needsLogin = time.Time{}, "", false
	return tok, nil
}

// token is Token, with s.mu held.
func (s *Source) token(ctx context.Context) (string, error) {
	if s.tok != nil && s.tok.AccessToken != "" && (s.tok.Expiry.IsZero() || time.Until(s.tok.Expiry) > early(s.got, s.tok.Expiry)) {
		return s.tok.AccessToken, nil
	}
	st, err := readFile(s.cfg.TokenFile)
	if err != nil {
		return "", err
	}
	if st.RefreshToken == s.refused {
		return "", s.why
	}
	ctx, cancel := context.WithTimeout(s.cfg.ctx(ctx), 30*time.Second)
	defer cancel()
	tok, err := s.cfg.oauth2().TokenSource(ctx, &oauth2.Token{RefreshToken: st.RefreshToken}).Token()
	if err != nil {
		err = s.describe(err)
		var re *oauth2.RetrieveError
		if errors.As(err, &re) && re.ErrorCode == "invalid_grant" {
			s.refused, s.why = st.RefreshToken, err
		}
		return "", err
	}
	s.tok, s.got = tok, time.Now()
	s.refresh++
	if tok.RefreshToken != "" && tok.RefreshToken != st.RefreshToken {
		// The provider rotated the refresh token (Microsoft does): keep
		// the new one, or the next start would present a spent one.
		st.RefreshToken, st.Saved = tok.RefreshToken, time.Now().UTC()
		if err := writeFile(s.cfg.TokenFile, st); err != nil {
			return "", err
		}
	}
	return tok.AccessToken, nil
}

// Invalidate forgets the cached access token (the server refused it), so
// that the next Token refreshes.
func (s *Source) Invalidate() { s.mu.Lock(); s.tok = nil; s.mu.Unlock() }

// IsTokenError reports whether err is the token source's: no token file,
// or a failed refresh.
func IsTokenError(err error) bool {
	var re *RefreshError
	return errors.Is(err, ErrNoToken) || errors.As(err, &re) || errors.Is(err, errDamaged)
}

// RefreshError is a failed refresh, described without any token.
type RefreshError struct {
	TokenURL, File string
	Status         int    // the endpoint's HTTP status, 0 when it was not reached
	Code, Desc     string // RFC 6749's error and error_description
	Err            error
}

func (e *RefreshError) Error() string {
	switch {
	case e.Code == "invalid_grant":
		return fmt.Sprintf("oauth: %s refused the refresh token in %s (invalid_grant: %s): it was revoked or has expired; run 'pbem mail login' again",
			e.TokenURL, e.File, e.Desc)
	case e.Status != 0:
		return fmt.Sprintf("oauth: refreshing the access token at %s failed: HTTP %d %s %s", e.TokenURL, e.Status, e.Code, e.Desc)
	}
	return fmt.Sprintf("oauth: refreshing the access token at %s failed: %v", e.TokenURL, e.Err)
}

func (e *RefreshError) Unwrap() error { return e.Err }

// describe wraps a refresh failure without any part of the response that
// could carry a token (RetrieveError's text may quote the body).
func (s *Source) describe(err error) error {
	re := &RefreshError{TokenURL: s.cfg.TokenURL, File: s.cfg.TokenFile, Err: err}
	var r *oauth2.RetrieveError
	if errors.As(err, &r) {
		re.Code, re.Desc = r.ErrorCode, r.ErrorDescription
		if r.Response != nil {
			re.Status = r.Response.StatusCode
		}
		re.Err = &oauth2.RetrieveError{Response: r.Response, ErrorCode: r.ErrorCode, ErrorDescription: r.ErrorDescription}
	}
	return re
}
