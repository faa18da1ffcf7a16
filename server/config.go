package server

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"pbem/engine/play"
	"pbem/mail/intake"
	"pbem/mail/oauth"
)

// The configuration's sections the server runs with. Their toml tags name
// the keys of pbem's configuration file, and their check tags say what a
// valid value is (cmd/pbem reads and checks the file).

// ClusterConfig makes this server one node of several on a NATS cluster with
// JetStream (see package cluster). Empty node: one server alone, as
// always.
type ClusterConfig struct {
	// Node is this node's name; setting it joins the cluster at nats.urls.
	Node string `toml:"node" check:"nodename?"`
	// Lease is how long a node's lease lasts unless renewed (one heartbeat
	// per node every third of it, whatever its games); a dead node's games
	// are taken over after about this long, judged by each node's own clock.
	Lease string `toml:"lease" check:"duration>=500ms"`
	// Replicas of the stream and buckets: 3 on a three-server cluster.
	Replicas int `toml:"replicas" check:"int>=1"`
}

// MailConfig says where mail comes from and goes to. With no IMAP address,
// pbem runs its own mail host on loopback (see Builtin).
type MailConfig struct {
	Domain    string `toml:"domain" check:"domain"`   // the game mailbox's domain
	Local     string `toml:"local" check:"localpart"` // its local part; players reply to local+…@domain
	FromName  string `toml:"from_name" check:"text"`  // display name on pbem's mails
	Templates string `toml:"templates" check:"dir?"`  // a directory of templates overriding the built-in ones
	// RatePerHour is how many mails are taken in an hour per
	// authenticated player, per player for unauthenticated mail, and per
	// envelope sender for mail whose envelope differs from From; more are
	// refused, the player told once (default 30).
	RatePerHour int `toml:"rate_per_hour" check:"int>=1"`
	// Sender authentication (see README): the authserv-id of the host
	// that receives the game's mail, whose Authentication-Results are
	// trusted; whether pbem checks DKIM itself where there are none; the
	// sender-auth mode of games without their own setting (strict,
	// confirm, lenient); how long a held order waits for confirmation.
	AuthServID string `toml:"authserv_id" check:"text"`
	// UserSigners are the DKIM signing domains that let no user send as
	// another, so that their signature names the player (default: the
	// big mailbox providers, intake.DefaultUserSigners).
	UserSigners   []string `toml:"user_signers" check:"domains"`
	DKIM          bool     `toml:"dkim" check:"bool"`
	SenderAuth    string   `toml:"sender_auth" check:"oneof=strict|confirm|lenient"`
	ConfirmWithin string   `toml:"confirm_within" check:"span"`
	// QuarantineMB caps the quarantine (MiB); the oldest records are
	// pruned past it (default 64).
	QuarantineMB int `toml:"quarantine_mb" check:"int>=1"`
	IMAP         struct {
		Addr     string `toml:"addr" check:"hostport?"`
		TLS      string `toml:"tls" check:"oneof=none|starttls|tls"`
		Username string `toml:"username" check:"text"`
		Password string `toml:"password" check:"secret"`
		// Auth: login, plain (AUTHENTICATE PLAIN), or by OAuth 2.0 (see
		// OAuth): xoauth2 or oauthbearer.
		Auth    string `toml:"auth" check:"oneof=login|plain|xoauth2|oauthbearer"`
		Mailbox string `toml:"mailbox" check:"nonempty"`
		Poll    string `toml:"poll" check:"duration>=100ms"` // e.g. "30s"
	} `toml:"imap"`
	SMTP struct {
		Addr     string `toml:"addr" check:"hostport?"`
		TLS      string `toml:"tls" check:"oneof=|none|starttls|tls"`
		Username string `toml:"username" check:"text"`
		Password string `toml:"password" check:"secret"`
		// Auth: plain (with Password), or by OAuth 2.0: xoauth2 or
		// oauthbearer.
		Auth string `toml:"auth" check:"oneof=plain|xoauth2|oauthbearer"`
	} `toml:"smtp"`
	// OAuth is how pbem gets the access tokens of the xoauth2 and
	// oauthbearer logins: the provider's endpoints (or a provider's name),
	// pbem's client registration there, and the file of the refresh token
	// 'pbem mail login' obtains.
	OAuth struct {
		Provider     string `toml:"provider" check:"oneof=|google|microsoft|custom"`
		Tenant       string `toml:"tenant" check:"text"` // microsoft: common, organizations, consumers or the tenant's ID
		ClientID     string `toml:"client_id" check:"text"`
		ClientSecret string `toml:"client_secret" check:"secret"`
		TokenURL     string `toml:"token_url" check:"text"`
		DeviceURL    string `toml:"device_url" check:"text"`
		AuthURL      string `toml:"auth_url" check:"text"`
		Scopes       string `toml:"scopes" check:"text"`     // space-separated; empty: the provider's
		TokenFile    string `toml:"token_file" check:"text"` // empty: oauth-token.json in the data directory
	} `toml:"oauth"`
	Builtin struct {
		IMAP string `toml:"imap" check:"hostport"` // listen address of the built-in IMAP server
		SMTP string `toml:"smtp" check:"hostport"` // and SMTP server
	} `toml:"builtin"`
}

// NATSConfig selects embedded or external NATS, and how to authenticate.
type NATSConfig struct {
	URLs []string `toml:"urls" check:"natsurls"` // external server or cluster; empty: embedded
	// Listen is the embedded server's client address; empty: in-process
	// only. A listener requires User and Password.
	Listen string `toml:"listen" check:"hostport?"`
	// User and Password authenticate to an external server, and are what
	// the embedded server's listener requires.
	User     string `toml:"user" check:"text"`
	Password string `toml:"password" check:"secret"`
	// Creds is a credentials file (JWT and NKey seed) and NKey a file
	// holding an NKey seed, for an external server.
	Creds string `toml:"creds" check:"file?"`
	NKey  string `toml:"nkey" check:"file?"`
	// TLSCA verifies an external server; TLSCert and TLSKey are this
	// client's certificate, for servers that ask for one.
	TLSCA   string `toml:"tls_ca" check:"file?"`
	TLSCert string `toml:"tls_cert" check:"file?"`
	TLSKey  string `toml:"tls_key" check:"file?"`
}

// EngineConfig tunes the engine.
type EngineConfig struct {
	SnapshotEvery uint64 `toml:"snapshot_every" check:"int>=1"`
	// Clock is how often the server's clock is checked against the games'
	// deadlines (a Go duration; default 30s).
	Clock string `toml:"clock" check:"duration>=100ms"`
}

// MetricsConfig serves metrics and a health check over HTTP.
type MetricsConfig struct {
	// Listen is the address of /metrics and /healthz; empty: none.
	Listen string `toml:"listen" check:"hostport?"`
	// StuckAfter is how long the outbox or the intake may fail before
	// /healthz says so.
	StuckAfter string `toml:"stuck_after" check:"duration>=1s"`
}

// WebConfig serves each participant's live page of a game (package web).
type WebConfig struct {
	// Listen is the pages' HTTP address; empty: none (the default).
	Listen string `toml:"listen" check:"hostport?"`
	// BaseURL is the address players open (a TLS proxy in front of
	// Listen, or Listen itself); with it, the welcome mails and the
	// answers to HELP carry each reader's link.
	BaseURL string `toml:"base_url" check:"baseurl?"`
}

// UsesOAuth reports whether IMAP or SMTP logs in by OAuth 2.0.
func (m MailConfig) UsesOAuth() bool {
	return oauth.IsMechanism(m.IMAP.Auth) || oauth.IsMechanism(m.SMTP.Auth)
}

// OAuthTokenFile is where the refresh token is kept for a server whose
// data directory is dataDir.
func (m MailConfig) OAuthTokenFile(dataDir string) string {
	if m.OAuth.TokenFile != "" {
		return m.OAuth.TokenFile
	}
	return filepath.Join(dataDir, OAuthTokenFile)
}

// OAuthTokenFile is the refresh token's file in the data directory.
const OAuthTokenFile = "oauth-token.json"

// OAuthConfig is the token source's configuration.
func (m MailConfig) OAuthConfig(dataDir string) (oauth.Config, error) {
	o := m.OAuth
	cfg := oauth.Config{ClientID: o.ClientID, ClientSecret: o.ClientSecret, TokenURL: o.TokenURL, DeviceURL: o.DeviceURL, AuthURL: o.AuthURL,
		Scopes: strings.Fields(o.Scopes), TokenFile: m.OAuthTokenFile(dataDir)}
	return oauth.Preset(cfg, o.Provider, o.Tenant)
}

// CheckOAuth says what is missing for the OAuth logins the configuration
// asks for, if any.
func (m MailConfig) CheckOAuth() []error {
	if !m.UsesOAuth() {
		return nil
	}
	var errs []error
	if m.OAuth.ClientID == "" {
		errs = append(errs, errors.New("mail.oauth.client_id: the xoauth2 and oauthbearer logins need pbem's client ID at the mail provider (see README, 'The game mailbox at a provider')"))
	}
	if m.OAuth.Provider == "" || m.OAuth.Provider == "custom" {
		if m.OAuth.TokenURL == "" {
			errs = append(errs, errors.New("mail.oauth: set provider (google or microsoft) or token_url"))
		}
	}
	for _, who := range []struct{ key, auth, user string }{{"imap", m.IMAP.Auth, m.IMAP.Username}, {"smtp", m.SMTP.Auth, m.SMTP.Username}} {
		if oauth.IsMechanism(who.auth) && who.user == "" {
			errs = append(errs, fmt.Errorf("mail.%s.username: the %s login names the mailbox's address (the account the token is for)", who.key, who.auth))
		}
	}
	return errs
}

// clockEvery is the deadline check interval.
func (e EngineConfig) clockEvery() time.Duration {
	d, _ := time.ParseDuration(e.Clock)
	return d
}

// lease is the cluster lease as a duration.
func (c ClusterConfig) lease() time.Duration {
	d, _ := time.ParseDuration(c.Lease)
	return d
}

// DefaultUserSigners is the default of mail.user_signers: the big
// mailbox providers, whose DKIM signature names the user.
func DefaultUserSigners() []string { return slices.Clone(intake.DefaultUserSigners) }

// senders is the intake's sender authentication as configured (its keys
// are checked by loadConfig).
func (m MailConfig) senders() (intake.AuthConfig, error) {
	a := intake.AuthConfig{ServID: m.AuthServID, NoDKIM: !m.DKIM, Mode: strings.ToLower(m.SenderAuth), UserSigners: m.UserSigners}
	if !intake.ValidMode(a.Mode) {
		return a, fmt.Errorf("mail.sender_auth %q: want strict, confirm or lenient", m.SenderAuth)
	}
	d, err := play.ParseSpan(m.ConfirmWithin)
	if err != nil || d <= 0 {
		return a, fmt.Errorf("mail.confirm_within %q: want a span of time such as 48h or 2d", m.ConfirmWithin)
	}
	a.ConfirmWithin = d
	return a, nil
}
