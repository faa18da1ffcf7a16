package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"pbem/autoplay"
	"pbem/demo"
	"pbem/engine/play"
	"pbem/server"
)

// cmdDemo plays a short GCACW game end to end over real protocols: pbem
// serves on the embedded defaults (its own NATS, its own IMAP and SMTP
// servers, a bbolt file), scripted players and a referee read their mail
// over IMAP and answer over SMTP as a mail client would (quoting the mail
// they answer), and every mail is printed as its recipient receives it.
// With --no-referee the two players play alone, the scenario's house
// rules playing what the seed leaves out. With --campaign it plays a GCACW
// campaign whose assault is fought out as a battle in each tactical
// system in turn, by mail the same way (demo.Campaign).
func cmdDemo(a *app, fs *flag.FlagSet, args []string) error {
	maxOrders := fs.Int("max-orders", 200, "stop after the participants have sent this many mails (a whole game takes about 60-90)")
	timeout := fs.Duration("timeout", 3*time.Minute, "give up after this long")
	quiet := fs.Bool("quiet", false, "print only subjects and replies, not whole mails")
	ruleset := fs.String("ruleset", "gcacw", "the rule system to play: gcacw, hra, gbacw or gmb")
	images := fs.String("images", "on", "on: the mails carry the boards drawn too, as inline pictures; off: the ASCII boards alone (the game's images setting)")
	campaign := fs.Bool("campaign", false, "a GCACW campaign whose assault is fought out as a battle in GBACW, Hair Roller Armies and GM Board Games in turn")
	noReferee := fs.Bool("no-referee", false, "two players alone, no referee (GCACW: the scenario's house rules play what the rules leave out)")
	volume := fs.String("mail", "", "how much mail each participant gets: every (a mail for every action), turn (a digest each turn) or move (a mail only when they must act; the default)")
	if _, err := parseArgs(fs, args, 0); err != nil {
		return err
	}
	if *volume != "" {
		v, err := play.ParseVolume(*volume)
		if err != nil {
			return fmt.Errorf("--mail: %w", err)
		}
		*volume = v
	}
	dir, err := os.MkdirTemp("", "pbem-demo-")
	if err != nil {
		return err
	}
	a.cfg.DataDir = dir
	a.cfg.Mail.Builtin.IMAP, a.cfg.Mail.Builtin.SMTP = "127.0.0.1:0", "127.0.0.1:0"
	a.cfg.Mail.IMAP.Poll = "1s"
	a.cfg.Mail.RatePerHour = 100000 // scripted players write far faster than people
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	ready := make(chan *server.Server, 1)
	done := make(chan error, 1)
	go func() { done <- serve(ctx, a, func(s *server.Server) { ready <- s }) }()
	var srv *server.Server
	select {
	case srv = <-ready:
	case err := <-done:
		return fmt.Errorf("starting pbem: %w", err)
	}
	fmt.Fprintf(a.out, "pbem demo: serving from %s\n  built-in mail host: IMAP %s, SMTP %s, domain %s\n\n",
		dir, srv.Mailhost().IMAPAddr(), srv.Mailhost().SMTPAddr(), a.cfg.Mail.Domain)
	game := "demo"
	if *campaign {
		game = "campaign"
		err = playCampaign(ctx, a, srv, *images, *timeout, *quiet)
	} else {
		script, serr := demoScript(*ruleset)
		if *noReferee {
			script, serr = demoScriptAlone(*ruleset)
		}
		err = serr
		if err == nil {
			err = demo.Play(ctx, demo.Options{Out: a.out, Server: srv, Registry: a.reg, Script: script,
				Domain: a.cfg.Mail.Domain, Settings: a.cfg.Mail.BuiltinDomain(), Images: *images, Volume: *volume,
				MaxOrders: *maxOrders, Timeout: *timeout, Quiet: *quiet})
		}
	}
	stop()
	if serr := <-done; err == nil {
		err = serr
	}
	me := invokedAs()
	fmt.Fprintf(a.out, "\nThe game's log stays in %s: try\n  %s --data-dir %s log %s\n  %s --data-dir %s verify %s\n", dir, me, dir, game, me, dir, game)
	return err
}

// playCampaign plays demo --campaign on the running server: each battle's
// participants play the demo script of its rule system.
func playCampaign(ctx context.Context, a *app, srv *server.Server, images string, timeout time.Duration, quiet bool) error {
	scripts := map[string]autoplay.Script{}
	for _, sys := range []string{"gbacw", "hra", "gmb"} {
		s, err := demoScript(sys)
		if err != nil {
			return err
		}
		scripts[sys] = s
	}
	return demo.Campaign(ctx, demo.CampaignOptions{Out: a.out, Server: srv, Registry: a.reg, Scripts: scripts,
		Domain: a.cfg.Mail.Domain, Settings: a.cfg.Mail.BuiltinDomain(), Images: images, Timeout: timeout, Quiet: quiet})
}

// invokedAs is how to run this pbem again from where it was started:
// "pbem" when that is this binary on the PATH; "go run ./cmd/pbem" (or
// the module's import path away from the checkout's root) for a binary
// 'go run' built and deletes on exit; else the binary's own path.
func invokedAs() string {
	exe, err := os.Executable()
	if err != nil {
		return "pbem"
	}
	if onPath, err := exec.LookPath("pbem"); err == nil && sameFile(onPath, exe) {
		return "pbem"
	}
	if strings.Contains(exe, string(filepath.Separator)+"go-build") {
		if _, err := os.Stat(filepath.Join("cmd", "pbem", "main.go")); err == nil {
			return "go run ./cmd/pbem"
		}
		return "go run pbem/cmd/pbem"
	}
	return exe
}

func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}
