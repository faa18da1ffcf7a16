// Command pbem runs American Civil War wargames by email: it takes orders
// from mail, checks them against the rules, rolls the dice, keeps every
// step as an immutable event, and mails each side an ASCII board.
//
// Usage: pbem [--config FILE] [--data-dir DIR] COMMAND [flags] [args]
// Run "pbem help" for the commands, "pbem COMMAND --help" for one.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"pbem/engine"
	"pbem/internal/logx"
	"pbem/internal/termsafe"
	"pbem/mail/compose"
	"pbem/mail/mailhost"
	"pbem/server"
)

// command is one subcommand. Run parses its own flags from fs.
type command struct {
	name    string
	args    string
	summary string
	// remote: when the data directory is held by a running "pbem serve",
	// the command runs inside that server over its control socket.
	remote bool
	// access is what the command does with the store (when it opens one).
	access access
	run    func(a *app, fs *flag.FlagSet, args []string) error
}

func commands() []command {
	return []command{
		{name: "serve", summary: "run pbem: mail in and out, the engine, NATS", run: cmdServe},
		{name: "demo", args: "[--ruleset gcacw|hra|gbacw|gmb] [--max-orders N] [--quiet]", summary: "play a short game by mail end to end, printing every mail", run: cmdDemo},
		{name: "new", args: "--game ID --ruleset NAME --scenario NAME|--scenario-file FILE --player ... ", summary: "create a game", remote: true, access: startStore, run: cmdNew},
		{name: "order", args: "GAME --player ID [--referee] [--wait 30s] [--file FILE | TEXT...]", summary: "submit an order on a player's behalf (as if it came by mail); says whether it was accepted, and why not", remote: true, access: writeStore, run: cmdOrder},
		{name: "referee", args: "GAME --as ID|operator [--reason WHY] [--file FILE | TEXT...]  (flags anywhere)", summary: "give a referee's command on the server: ROLLBACK, PAUSE, SET … (no secret needed here; says whether it was accepted)", remote: true, access: writeStore, run: cmdReferee},
		{name: "games", args: "[--referee ADDRESS]", summary: "list the games: whose move, deadlines (overdue ones marked), pauses, rulings waited for", remote: true, run: cmdGames},
		{name: "log", args: "GAME", summary: "print a game's events readably", remote: true, run: cmdLog},
		{name: "replay", args: "GAME [--at SEQ | --turn N] [--as SIDE] [--full]", summary: "show a game's state and board at any sequence", remote: true, run: cmdReplay},
		{name: "verify", args: "GAME", summary: "check the hash chain, and every die against the revealed seed", remote: true, run: cmdVerify},
		{name: "audit", args: "GAME [--with-secret] [--quiet]", summary: "re-decide every input with the current rules: chain, differences, dice, timeline", remote: true, run: cmdAudit},
		{name: "export", args: "GAME [--format jsonl|text|html]", summary: "write a game's log as JSON lines, or as a readable campaign report", remote: true, run: cmdExport},
		{name: "quarantine", args: "[--show ID]", summary: "list mails that could not become orders, with the reason", remote: true, run: cmdQuarantine},
		{name: "doctor", summary: "examine pbem.db and mailhost.db: every page, every game's hash chain and records", remote: true, run: cmdDoctor},
		{name: "mailboxes", summary: "list the built-in mail host's mailboxes and their passwords (operator only)", remote: true, access: writeStore, run: cmdMailboxes},
		{name: "tick", args: "[--wait 1m]", summary: "apply the server's clock to every game now, as its own ticks do, and return once deadlines passed, reminders and pauses run out are decided and their mails queued", remote: true, run: cmdTick},
		{name: "move", args: "GAME --to NODE", summary: "hand a game to another node of the cluster", remote: true, run: cmdMove},
		{name: "drain", args: "NODE [--undo]", summary: "move every game off a node of the cluster, and keep new games away from it", remote: true, run: cmdDrain},
		{name: "mail", args: "login [--browser]", summary: "log in to the game mailbox's provider by OAuth 2.0 once (Microsoft 365, Gmail); pbem serve then refreshes its tokens", run: cmdMail},
		{name: "config", summary: "print every configuration key, its value, where it came from and how to override it", run: cmdConfig},
		{name: "scenarios", args: "[--long] [RULESET]", summary: "list the built-in scenarios: rule system, sides, map or table, turns, whether a referee is needed", run: cmdScenarios},
		{name: "bench", summary: "measure appends, replay, memory, load, mail latency, throughput and cold start against baselines", run: cmdBench},
	}
}

// registry is the explicit list of rule systems this binary offers.
func registry() *engine.Registry { return engine.NewRegistryOf(systems()...) }

// app is what a command runs with.
type app struct {
	cfg    Config
	out    io.Writer
	errOut io.Writer
	lg     *slog.Logger
	reg    *engine.Registry
	// log is the open store (or, inside serve, the bus over it). Commands
	// get it from open(), which opens the store on first use.
	log     logStore
	closeFn func() error
	// comp renders mails; secret keys reply tokens (see composer()).
	comp   *compose.Composer
	secret []byte
	// inServer is set for commands run inside 'pbem serve'.
	inServer bool
	// access is the running command's (see open).
	access access
	// mailhost is the server's built-in mail host, for commands run in it.
	mailhost *mailhost.Host
	// node is the server's place in a cluster (nil: a server alone); ctl
	// is the running command as it would be handed to another node, and
	// forwardedHere says it was (it runs here, whoever owns the game).
	node          *server.Node
	ctl           ctlRequest
	forwardedHere bool
	// files are the bytes of the files the command's flags name, read
	// where the command was typed (see argFiles).
	files map[string][]byte
	// tick applies the running server's clock (server.Inside.Tick; nil
	// outside a server).
	tick func(ctx context.Context) (time.Time, int, error)
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// errUsage marks an error whose message is usage help (exit status 2).
var errUsage = errors.New("usage")

// run runs one command. Everything it prints passes through a
// termsafe.Writer: players' text, mail headers and quarantined mails are
// hostile input, and their control characters and bidi overrides are
// shown escaped rather than acted on by the terminal.
func run(args []string, stdout, stderr io.Writer) int {
	safeOut, safeErr := termsafe.NewWriter(stdout), termsafe.NewWriter(stderr)
	defer safeOut.Flush()
	defer safeErr.Flush()
	return runSafe(args, safeOut, safeErr)
}

func runSafe(args []string, stdout, stderr io.Writer) int {
	top := flag.NewFlagSet("pbem", flag.ContinueOnError)
	top.SetOutput(stderr)
	cfgPath := top.String("config", "", globalFlags[0].usage)
	dataDir := top.String("data-dir", "", globalFlags[1].usage)
	top.Usage = func() { usage(stderr) }
	if err := top.Parse(args); err != nil {
		return 2
	}
	rest := top.Args()
	if len(rest) == 0 || rest[0] == "help" || rest[0] == "-h" {
		usage(stdout)
		if len(rest) == 0 {
			return 2
		}
		return 0
	}
	cfg, err := loadConfig(*cfgPath, getenv)
	if err != nil {
		fmt.Fprintln(stderr, "pbem:", err)
		return 1
	}
	if *dataDir != "" {
		cfg.DataDir = *dataDir
	}
	lg, err := logx.New(stderr, cfg.Log.Format, cfg.Log.Level)
	if err != nil {
		fmt.Fprintln(stderr, "pbem:", err)
		return 1
	}
	slog.SetDefault(lg)
	var c *command
	for _, cc := range commands() {
		if cc.name == rest[0] {
			c = &cc
			break
		}
	}
	if c == nil {
		fmt.Fprintf(stderr, "pbem: unknown command %q%s\n\n", rest[0], suggest(rest[0]))
		usage(stderr)
		return 2
	}
	a := &app{cfg: cfg, out: stdout, errOut: stderr, lg: lg, reg: registry()}
	defer a.close()
	err = a.runCommand(c, rest[1:])
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	case errors.Is(err, errRemote):
		// Ran in the server: it printed its own output and error.
		return 1
	}
	fmt.Fprintln(stderr, "pbem:", err)
	return 1
}

func (a *app) runCommand(c *command, args []string) error {
	fs := flag.NewFlagSet("pbem "+c.name, flag.ContinueOnError)
	fs.SetOutput(a.errOut)
	fs.Usage = func() { commandUsage(fs, c) }
	if c.remote && a.log == nil && !a.inServer {
		// The files the command names are read here, where they are meant.
		files, err := argFiles(c.name, args, os.Stdin)
		if err != nil {
			return err
		}
		a.files = files
		// If a running server holds the store, run the command there.
		if handled, err := a.tryRemote(c.name, args); handled {
			return err
		}
	}
	if a.cfg.Cluster.Node != "" && !a.inServer && (c.access == writeStore || c.access == startStore) {
		return fmt.Errorf("this data directory is node %s of a cluster: 'pbem %s' runs only through its running 'pbem serve' (so that the game's owner writes it)", a.cfg.Cluster.Node, c.name)
	}
	a.access = c.access
	a.ctl = ctlRequest{Cmd: c.name, Args: args, Files: a.files}
	err := c.run(a, fs, args)
	if fw, ok := err.(*forwarded); ok {
		return fw.err
	}
	if errors.Is(err, errUsage) {
		fmt.Fprintf(a.errOut, "pbem %s: %s\n\n", c.name, strings.TrimPrefix(err.Error(), errUsage.Error()+": "))
		fs.Usage()
	}
	return err
}

// parseArgs parses a command's flags wherever they stand among args
// ("pbem referee GAME --as ref 'CMD'" as well as "pbem referee --as ref
// GAME 'CMD'"); after "--" every argument is positional. It returns the
// positional arguments; want, unless negative, is how many there must be.
func parseArgs(fs *flag.FlagSet, args []string, want int) ([]string, error) {
	pos, err := parseAnywhere(fs, args)
	if err != nil {
		return nil, err
	}
	if want >= 0 && len(pos) != want {
		switch want {
		case 0:
			return nil, fmt.Errorf("%w: unexpected argument %q", errUsage, pos[0])
		case 1:
			return nil, fmt.Errorf("%w: need exactly one GAME", errUsage)
		}
		return nil, fmt.Errorf("%w: need %d arguments, got %d", errUsage, want, len(pos))
	}
	return pos, nil
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "pbem runs American Civil War wargames by email.")
	fmt.Fprintln(w, "\nusage: pbem [--config FILE] [--data-dir DIR] COMMAND [flags] [args]\n\ncommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'pbem COMMAND --help' for a command's flags.")
}

// globalFlags are pbem's own flags, given before the command.
var globalFlags = []struct{ name, arg, usage string }{
	{"config", "FILE", "configuration file (TOML); see pbem.example.toml"},
	{"data-dir", "DIR", "data directory (overrides the config and PBEM_DATA_DIR)"},
}

// globalsOf names the global flags command c uses: the configuration
// for all but scenarios, and the data directory for all but scenarios,
// demo and bench (which run in directories of their own).
func globalsOf(c *command) []string {
	switch c.name {
	case "scenarios":
		return nil
	case "demo", "bench":
		return []string{"config"}
	}
	return []string{"config", "data-dir"}
}

// commandUsage prints a command's --help: how to call it, what it does,
// its flags, and the global flags it uses.
func commandUsage(fs *flag.FlagSet, c *command) {
	w := fs.Output()
	globals := globalsOf(c)
	fmt.Fprintf(w, "usage: pbem %s\n\n%s.\n", strings.TrimSpace(c.name+" "+c.args), c.summary)
	var hasFlags bool
	fs.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		fmt.Fprintln(w, "\nflags (before or after the arguments):")
		fs.PrintDefaults()
	}
	if len(globals) == 0 {
		fmt.Fprintln(w, "\nIt reads no configuration and no data directory.")
		return
	}
	var call []string
	for _, g := range globalFlags {
		if slices.Contains(globals, g.name) {
			call = append(call, "[--"+g.name+" "+g.arg+"]")
		}
	}
	fmt.Fprintf(w, "\nglobal flags, before the command (pbem %s %s …):\n", strings.Join(call, " "), c.name)
	for _, g := range globalFlags {
		if slices.Contains(globals, g.name) {
			fmt.Fprintf(w, "  --%s %s\n    \t%s\n", g.name, g.arg, g.usage)
		}
	}
	fmt.Fprintln(w, "\nEvery configuration key can also be set by its environment variable;\n'pbem config' lists them with their values.")
}

func suggest(name string) string {
	var names []string
	for _, c := range commands() {
		if strings.HasPrefix(c.name, name) || strings.HasPrefix(name, c.name) {
			names = append(names, c.name)
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return ""
	}
	return " (did you mean " + strings.Join(names, " or ") + "?)"
}

func (a *app) socketPath() string { return server.SocketPath(a.cfg.DataDir) }

func (a *app) close() {
	if a.closeFn != nil {
		if err := a.closeFn(); err != nil {
			a.lg.Error("closing", "err", err)
		}
		a.closeFn = nil
	}
}
