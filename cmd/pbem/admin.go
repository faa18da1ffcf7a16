package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"pbem/server"
	"pbem/store"
)

// checker is a file that can examine itself (the store, the mail host).
type checker interface {
	Check() ([]string, error)
}

// errProblems marks a doctor's finding: the problems are printed.
var errProblems = errors.New("problems found")

// cmdDoctor examines the data directory's files: every page of pbem.db
// and mailhost.db, and every game's hash chain, head and records.
func cmdDoctor(a *app, fs *flag.FlagSet, args []string) error {
	if _, err := parseArgs(fs, args, 0); err != nil {
		return err
	}
	bad := 0
	examine := func(name string, c checker) {
		ps, err := c.Check()
		switch {
		case err != nil:
			fmt.Fprintf(a.out, "%s: cannot be examined: %v\n", name, err)
			bad++
		case len(ps) == 0:
			fmt.Fprintf(a.out, "%s: sound\n", name)
		default:
			fmt.Fprintf(a.out, "%s: %d problem(s):\n", name, len(ps))
			for _, p := range ps {
				fmt.Fprintf(a.out, "  %s\n", p)
			}
			bad++
		}
	}
	log, err := a.open()
	if err != nil {
		fmt.Fprintf(a.out, "pbem.db: %v\n", err)
		bad++
	} else if c, ok := log.(checker); ok {
		examine("pbem.db", c)
	}
	if a.mailhost != nil {
		examine(mailhostFile, a.mailhost)
	} else if path := filepath.Join(a.cfg.DataDir, mailhostFile); fileExists(path) {
		kv, err := store.OpenKV(path, store.KVOptions{ReadOnly: true, MustExist: true})
		if err != nil {
			fmt.Fprintf(a.out, "%s: %v\n", mailhostFile, err)
			bad++
		} else {
			examine(mailhostFile, kv)
			kv.Close()
		}
	}
	if bad > 0 {
		return fmt.Errorf("%w in %d file(s) of %s", errProblems, bad, a.cfg.DataDir)
	}
	return nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// cmdMailboxes lists the mailboxes of pbem's own mail host with their
// passwords: the game mailbox, then every other (the seats' of every
// game, those given at creation and those a referee gave later).
func cmdMailboxes(a *app, fs *flag.FlagSet, args []string) error {
	if _, err := parseArgs(fs, args, 0); err != nil {
		return err
	}
	if !a.cfg.Mail.BuiltinHost() {
		return errors.New("pbem uses the mail host configured in [mail], not its own: its mailboxes are that host's business")
	}
	log, err := a.open()
	if err != nil {
		return err
	}
	local := strings.ToLower(a.cfg.Mail.Local)
	pw, err := server.MailboxPassword(log, local)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.out, "the game mailbox (pbem reads it; keep its password to the operator):\n  %-32s user %-12s password %s\n",
		local+"@"+a.cfg.Mail.Domain, local, pw)
	names, err := log.ServerSecretNames(server.MailboxSecret)
	if err != nil {
		return err
	}
	heading := true
	for _, n := range names {
		user := strings.TrimPrefix(n, server.MailboxSecret)
		if user == local {
			continue
		}
		pw, _, err := log.OwnedServerSecret(n, "", nil)
		if err != nil {
			return err
		}
		if heading {
			fmt.Fprintln(a.out, "players', referees' and observers' mailboxes:")
			heading = false
		}
		fmt.Fprintf(a.out, "  %-32s user %-12s password %s\n", user+"@"+strings.ToLower(a.cfg.Mail.Domain), user, pw)
	}
	return nil
}

// cmdConfig prints every configuration key, its value (secrets hidden),
// the environment variable that overrides it, and its check.
func cmdConfig(a *app, fs *flag.FlagSet, args []string) error {
	if _, err := parseArgs(fs, args, 0); err != nil {
		return err
	}
	for _, k := range configKeys(&a.cfg) {
		fmt.Fprintf(a.out, "%-24s = %-28s %-28s %s\n", k.Name, shown(k), k.Env, k.Check)
	}
	return nil
}
