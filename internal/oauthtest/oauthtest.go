// Package oauthtest runs an OAuth 2.0 authorization server on loopback
// for tests of pbem's OAuth logins: the provider's side of them (Google's
// or Microsoft's token endpoint, device authorization (RFC 8628) and
// token introspection (RFC 7662)), which the mail servers under test
// (Dovecot's oauth2 passdb) ask about every bearer token. Access tokens
// expire after Lifetime; refresh tokens last until revoked. It is used
// only by tests.
package oauthtest

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"
)

// Authority is one authorization server for one user.
type Authority struct {
	User string
	// TokenURL, DeviceURL, AuthURL and IntrospectURL are its endpoints.
	// AuthURL approves every login at once (the user consented) and
	// sends the browser back to the client's redirect_uri with a code.
	TokenURL, DeviceURL, AuthURL, IntrospectURL string
	// ClientID is the client it knows.
	ClientID string

	mu                               sync.Mutex
	lifetime                         time.Duration
	access                           map[string]time.Time // access token: expiry
	refresh                          map[string]bool      // refresh token: valid
	devices                          map[string]string    // device code: refresh token once approved ("" pending)
	userCode                         map[string]string    // user code: device code
	codes                            map[string]string    // authorization code: its PKCE challenge
	refreshed, introspected, refused int
}

// Start starts an authority for user whose access tokens last lifetime.
func Start(t testing.TB, user string, lifetime time.Duration) *Authority {
	t.Helper()
	a := &Authority{User: user, ClientID: "pbem-test-client", lifetime: lifetime, access: map[string]time.Time{}, refresh: map[string]bool{},
		devices: map[string]string{}, userCode: map[string]string{}, codes: map[string]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /token", a.token)
	mux.HandleFunc("POST /device", a.device)
	mux.HandleFunc("POST /introspect", a.introspect)
	mux.HandleFunc("GET /authorize", a.authorize)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	a.TokenURL, a.DeviceURL, a.AuthURL, a.IntrospectURL = srv.URL+"/token", srv.URL+"/device", srv.URL+"/authorize", srv.URL+"/introspect"
	return a
}

func random() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// Grant returns a new refresh token for the user, as a login would.
func (a *Authority) Grant() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	r := random()
	a.refresh[r] = true
	return r
}

// Revoke revokes every refresh token and access token given so far (the
// user removed the app's access, or an administrator did).
func (a *Authority) Revoke() {
	a.mu.Lock()
	defer a.mu.Unlock()
	clear(a.refresh)
	clear(a.access)
}

// Refreshed returns how many access tokens were handed out for a refresh
// token; Introspected how many tokens were checked, Refused how many
// refreshes were refused.
func (a *Authority) Refreshed() int    { a.mu.Lock(); defer a.mu.Unlock(); return a.refreshed }
func (a *Authority) Introspected() int { a.mu.Lock(); defer a.mu.Unlock(); return a.introspected }
func (a *Authority) Refused() int      { a.mu.Lock(); defer a.mu.Unlock(); return a.refused }

// Active reports whether tok is an access token in force now.
func (a *Authority) Active(tok string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	exp, ok := a.access[tok]
	return ok && time.Now().Before(exp)
}

// Approve approves the device login of userCode (the user entered it on
// the provider's page and consented).
func (a *Authority) Approve(userCode string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	dc, ok := a.userCode[userCode]
	if rt, pending := a.devices[dc]; !ok || !pending || rt != "" {
		return false
	}
	r := random()
	a.refresh[r] = true
	a.devices[dc] = r
	return true
}

func reply(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func (a *Authority) clientOK(r *http.Request) bool {
	id, _, ok := r.BasicAuth()
	if !ok {
		id = r.PostFormValue("client_id")
	}
	return id == a.ClientID
}

// issue makes an access token (a.mu held).
func (a *Authority) issue() map[string]any {
	tok := random()
	a.access[tok] = time.Now().Add(a.lifetime)
	a.refreshed++
	return map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": int(a.lifetime / time.Second)}
}

func (a *Authority) token(w http.ResponseWriter, r *http.Request) {
	if !a.clientOK(r) {
		reply(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client"})
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	switch r.PostFormValue("grant_type") {
	case "refresh_token":
		if !a.refresh[r.PostFormValue("refresh_token")] {
			a.refused++
			reply(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant", "error_description": "Token has been expired or revoked."})
			return
		}
		reply(w, http.StatusOK, a.issue())
	case "urn:ietf:params:oauth:grant-type:device_code":
		rt, ok := a.devices[r.PostFormValue("device_code")]
		switch {
		case !ok:
			reply(w, http.StatusBadRequest, map[string]string{"error": "expired_token"})
		case rt == "":
			reply(w, http.StatusBadRequest, map[string]string{"error": "authorization_pending"})
		default:
			delete(a.devices, r.PostFormValue("device_code"))
			delete(a.userCode, UserCode)
			m := a.issue()
			m["refresh_token"] = rt
			reply(w, http.StatusOK, m)
		}
	case "authorization_code":
		challenge, ok := a.codes[r.PostFormValue("code")]
		delete(a.codes, r.PostFormValue("code"))
		sum := sha256.Sum256([]byte(r.PostFormValue("code_verifier")))
		if !ok || base64.RawURLEncoding.EncodeToString(sum[:]) != challenge {
			reply(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant", "error_description": "unknown code or wrong code_verifier"})
			return
		}
		rt := random()
		a.refresh[rt] = true
		m := a.issue()
		m["refresh_token"] = rt
		reply(w, http.StatusOK, m)
	default:
		reply(w, http.StatusBadRequest, map[string]string{"error": "unsupported_grant_type"})
	}
}

// UserCode is the code the device flow asks the user to enter (one login
// at a time).
const UserCode = "PBEM-TEST"

func (a *Authority) device(w http.ResponseWriter, r *http.Request) {
	if !a.clientOK(r) {
		reply(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client"})
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	dc := random()
	a.devices[dc] = ""
	a.userCode[UserCode] = dc
	reply(w, http.StatusOK, map[string]any{"device_code": dc, "user_code": UserCode, "verification_uri": "https://login.example/device",
		"expires_in": 600, "interval": 1})
}

func (a *Authority) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	redirect, err := url.Parse(q.Get("redirect_uri"))
	if q.Get("client_id") != a.ClientID || err != nil || redirect.Hostname() != "127.0.0.1" || q.Get("code_challenge_method") != "S256" {
		http.Error(w, "bad authorization request", http.StatusBadRequest)
		return
	}
	code := random()
	a.mu.Lock()
	a.codes[code] = q.Get("code_challenge")
	a.mu.Unlock()
	back := redirect.Query()
	back.Set("code", code)
	back.Set("state", q.Get("state"))
	redirect.RawQuery = back.Encode()
	http.Redirect(w, r, redirect.String(), http.StatusFound)
}

func (a *Authority) introspect(w http.ResponseWriter, r *http.Request) {
	tok := r.PostFormValue("token")
	a.mu.Lock()
	a.introspected++
	exp, ok := a.access[tok]
	a.mu.Unlock()
	if !ok || !time.Now().Before(exp) {
		reply(w, http.StatusOK, map[string]any{"active": false})
		return
	}
	reply(w, http.StatusOK, map[string]any{"active": true, "username": a.User, "exp": exp.Unix()})
}
