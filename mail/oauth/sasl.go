package oauth

import (
	"fmt"
	"strings"

	"github.com/emersion/go-sasl"
)

// Mechanisms pbem logs in with by OAuth.
const (
	XOAuth2     = "xoauth2"     // Google's and Microsoft's XOAUTH2
	OAuthBearer = "oauthbearer" // RFC 7628
)

// IsMechanism reports whether auth names an OAuth mechanism.
func IsMechanism(auth string) bool {
	a := strings.ToLower(auth)
	return a == XOAuth2 || a == OAuthBearer
}

// SASL returns the SASL client of mechanism mech (XOAuth2 or OAuthBearer)
// presenting token for user; host and port are the server's, which
// OAUTHBEARER sends along.
func SASL(mech, user, token, host string, port int) (sasl.Client, error) {
	switch strings.ToLower(mech) {
	case XOAuth2:
		return &xoauth2Client{user: user, token: token}, nil
	case OAuthBearer:
		return sasl.NewOAuthBearerClient(&sasl.OAuthBearerOptions{Username: user, Token: token, Host: host, Port: port}), nil
	}
	return nil, fmt.Errorf("oauth mechanism %q: use %s or %s", mech, XOAuth2, OAuthBearer)
}

// xoauth2Client is the XOAUTH2 mechanism
// (https://developers.google.com/gmail/imap/xoauth2-protocol), which
// go-sasl no longer carries.
type xoauth2Client struct{ user, token string }

func (c *xoauth2Client) Start() (string, []byte, error) {
	return "XOAUTH2", []byte("user=" + c.user + "\x01auth=Bearer " + c.token + "\x01\x01"), nil
}

// Next gets the server's error challenge (a JSON status): the token was
// refused, and the exchange is cancelled.
func (c *xoauth2Client) Next(challenge []byte) ([]byte, error) {
	return nil, fmt.Errorf("xoauth2: the server refused the token: %s", strings.TrimSpace(string(challenge)))
}
