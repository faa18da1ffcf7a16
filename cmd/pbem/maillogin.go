package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"pbem/mail/oauth"
)

// cmdMail is 'pbem mail login': the one-time OAuth 2.0 login to the game
// mailbox's provider (see package oauth), which stores the refresh token
// 'pbem serve' then uses.
func cmdMail(a *app, fs *flag.FlagSet, args []string) error {
	browser := fs.Bool("browser", false, "log in through a browser (an authorization code to this machine's loopback) rather than by a device code; the default for google")
	pos, err := parseArgs(fs, args, -1)
	if err != nil {
		return err
	}
	if len(pos) != 1 || pos[0] != "login" {
		return fmt.Errorf("%w: the only mail command is 'login'", errUsage)
	}
	if !a.cfg.Mail.UsesOAuth() {
		return errors.New("mail.imap.auth and mail.smtp.auth log in by password: set them to xoauth2 (or oauthbearer) and fill [mail.oauth] first (see README, 'The game mailbox at a provider')")
	}
	if errs := a.cfg.Mail.CheckOAuth(); len(errs) > 0 {
		return errors.Join(errs...)
	}
	cfg, err := a.cfg.Mail.OAuthConfig(a.cfg.DataDir)
	if err != nil {
		return err
	}
	cfg.Browser = cfg.Browser || *browser
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	return oauth.Login(ctx, cfg, a.out, os.Stdin)
}
