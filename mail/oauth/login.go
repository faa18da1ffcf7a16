package oauth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"golang.org/x/oauth2"
)

// Login runs the device-code flow (RFC 8628) once: it asks the provider
// for a code, tells the operator on out where to enter it, waits until
// they have (or ctx is done), and stores the refresh token in the token
// file. The access token it also gets is not kept. With cfg.Browser it
// runs LoginBrowser instead, reading a pasted address from in.
func Login(ctx context.Context, cfg Config, out io.Writer, in io.Reader) error {
	if cfg.ClientID == "" {
		return errors.New("mail.oauth.client_id is not set: register pbem with the provider first (see README)")
	}
	if cfg.Browser {
		return LoginBrowser(ctx, cfg, out, in)
	}
	if cfg.DeviceURL == "" || cfg.TokenURL == "" {
		return errors.New("mail.oauth needs device_url and token_url (or a provider: google or microsoft)")
	}
	oc := cfg.oauth2()
	ctx = cfg.ctx(ctx)
	da, err := oc.DeviceAuth(ctx)
	if err != nil {
		return fmt.Errorf("device authorization at %s: %w", cfg.DeviceURL, (&Source{cfg: cfg}).describe(err))
	}
	uri := da.VerificationURIComplete
	if uri == "" {
		uri = da.VerificationURI
	}
	fmt.Fprintf(out, "To let pbem use the game mailbox, open\n\n    %s\n\nand enter the code\n\n    %s\n\n", uri, da.UserCode)
	if !da.Expiry.IsZero() {
		fmt.Fprintf(out, "(within %s). Waiting...\n", time.Until(da.Expiry).Round(time.Second))
	}
	tok, err := oc.DeviceAccessToken(ctx, da)
	if err != nil {
		return fmt.Errorf("waiting for the login: %w", (&Source{cfg: cfg}).describe(err))
	}
	if tok.RefreshToken == "" {
		return fmt.Errorf("the provider gave no refresh token: add the offline_access scope (Microsoft) or check the client's type (Google: TVs and Limited Input devices)")
	}
	return keep(cfg, tok, out)
}

// keep stores tok's refresh token in the token file.
func keep(cfg Config, tok *oauth2.Token, out io.Writer) error {
	if tok.RefreshToken == "" {
		return fmt.Errorf("the provider gave no refresh token: add the offline_access scope (Microsoft) or check the client's type")
	}
	if err := writeFile(cfg.TokenFile, stored{RefreshToken: tok.RefreshToken, TokenURL: cfg.TokenURL, Saved: time.Now().UTC()}); err != nil {
		return err
	}
	fmt.Fprintf(out, "Logged in. The refresh token is in %s (readable by this user only); pbem serve uses it from now on.\n", cfg.TokenFile)
	return nil
}
