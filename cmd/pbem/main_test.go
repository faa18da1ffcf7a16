package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"pbem/demo/servetest"
	"pbem/internal/mailclient"
)

// pbemBin is the pbem binary the tests run, built once by TestMain with
// the race detector when this test binary has it.
var pbemBin string

// contentBin is pbem built without the race detector (pbemBin when this
// test binary has none). It runs for tests whose subject is what pbem says
// or mails, not the server's concurrency: every command that does not
// serve (pbem), the demos, the audit and export of a played game, what a
// command says of a damaged store, what pbem bench prints (a race-built
// binary's figures would mean nothing), and the servers of the tests of
// what mails and pages say (the referee's commands, press, the player's
// page, pbem order's answers). Under -race the engine and the mail
// composer cost several times the CPU. Every test whose subject is the
// server's concurrency (cluster, kills, the mail hosts, deadlines, a
// damaged game beside good ones, the control socket, NATS, metrics) runs
// its server on pbemBin, and the GCACW demo
// (TestDemoPlaysAWholeGameByMail) plays a whole game on it.
var contentBin string

func TestMain(m *testing.M) {
	if spec := os.Getenv("PBEM_TEST_OTHER_USER"); spec != "" {
		otherUser(spec)
		return
	}
	if os.Getenv("PBEM_TEST_SERVE_CLOCK") != "" {
		os.Exit(serveOnAMovedClock(os.Args[1:]))
	}
	bin, remove, err := servetest.Build()
	if err != nil {
		panic(err)
	}
	pbemBin = bin
	contentBin = bin
	removeContent := func() {}
	if servetest.Race {
		if contentBin, removeContent, err = servetest.BuildWithoutRace(); err != nil {
			panic(err)
		}
	}
	// Short: a demo's data directory in it holds a unix socket.
	if demoTmp, err = os.MkdirTemp("", "dm"); err != nil {
		panic(err)
	}
	if servetest.Race {
		parallelByDefault(6) // every process several times the CPU: fewer at once
	} else {
		parallelByDefault(12)
	}
	code := m.Run()
	remove()
	removeContent()
	os.RemoveAll(demoTmp)
	os.Exit(code)
}

// parallelByDefault runs up to n of this package's tests at once unless
// -test.parallel is given. Its tests spend most of their time waiting on
// servers in other processes (pbem serve, Dovecot, Postfix, nats-server)
// over loopback, each on its own ports and in its own directories, so
// GOMAXPROCS tests at a time (the default) would leave the machine idle.
// The tests that keep a core busy instead say so with cpuBound.
func parallelByDefault(n int) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", strconv.Itoa(n))
	}
}

// cpuSlots holds a token for each CPU-bound test running.
var cpuSlots = make(chan struct{}, runtime.NumCPU())

// cpuBound runs t in parallel as one that keeps a core busy for long (it
// plays whole games, renders reports or measures): no more such tests run
// at once than there are cores, so that they neither starve each other
// past their own time limits nor take the CPU from the tests that wait on
// servers. A test that has parallel subtests must not hold a slot (see
// holdCPU).
func cpuBound(t *testing.T) {
	t.Parallel()
	holdCPU(t)
}

// holdCPU takes a CPU slot for the rest of t. A test holding one must not
// wait for parallel subtests: they need a place among the -test.parallel
// running tests, which tests blocked on a CPU slot may all take, and
// neither would ever go on.
func holdCPU(t *testing.T) {
	cpuSlots <- struct{}{}
	t.Cleanup(func() { <-cpuSlots })
}

// pbem runs a pbem command on contentBin and returns stdout, stderr and
// the exit code. A command (new, order, log, export, ...) does one thing
// at a time in its process: what a test of it reads is what it says, or
// what the server it talks to does, and that server runs race-built
// (startServe). A command that serves in its own process runs on pbemBin
// (pbemUnderRace).
func pbem(t *testing.T, env []string, args ...string) (string, string, int) {
	t.Helper()
	return pbemOn(t, contentBin, env, args...)
}

// pbemUnderRace is pbem on pbemBin, for a command that serves in its own
// process (serve, demo): there the server's goroutines run side by side.
func pbemUnderRace(t *testing.T, env []string, args ...string) (string, string, int) {
	t.Helper()
	return pbemOn(t, pbemBin, env, args...)
}

func pbemOn(t *testing.T, bin string, env []string, args ...string) (string, string, int) {
	t.Helper()
	out, errOut, code, err := servetest.Run(bin, env, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out, errOut, code
}

// runShared is pbem for work shared by several tests, run on bin: a binary
// that does not start gives exit code -1, and the error as its stderr.
func runShared(bin string, env []string, args ...string) (string, string, int) {
	out, errOut, code, err := servetest.Run(bin, env, args...)
	if err != nil {
		return out, err.Error(), -1
	}
	return out, errOut, code
}

func TestHelpUsageAndUnknownCommands(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args     []string
		code     int
		inOut    string
		inErr    string
		describe string
	}{
		{[]string{"help"}, 0, "replay", "", "help lists the commands"},
		{[]string{}, 2, "commands:", "", "no command is a usage error"},
		{[]string{"repaly"}, 2, "", `unknown command "repaly"`, "a typo is named"},
		{[]string{"rep"}, 2, "", "did you mean replay", "a prefix gets a suggestion"},
		{[]string{"replay", "--help"}, 0, "", "usage: pbem replay GAME", "--help on a command"},
		{[]string{"verify", "--help"}, 0, "", "-with-secret", "--help shows flags"},
		{[]string{"new"}, 2, "", "need --game", "missing flags are explained"},
		{[]string{"new", "--game", "g1", "--ruleset", "chess", "--scenario-file", "/dev/null", "--player", "a:USA:a@pbem.localhost"}, 1, "", `unknown ruleset "chess"`, "unknown ruleset"},
		{[]string{"new", "--game", "g1", "--ruleset", "x", "--scenario", "s", "--player", "nonsense"}, 1, "", "want ID:SIDE:ADDRESS", "player syntax"},
	}
	for _, tc := range tests {
		t.Run(tc.describe, func(t *testing.T) {
			out, errOut, code := pbem(t, []string{"PBEM_DATA_DIR=" + t.TempDir()}, tc.args...)
			if code != tc.code || !strings.Contains(out, tc.inOut) || !strings.Contains(errOut, tc.inErr) {
				t.Fatalf("pbem %v: exit %d (want %d)\nstdout: %s\nstderr: %s", tc.args, code, tc.code, out, errOut)
			}
		})
	}
}

func TestConfigFileThenEnvironmentThenFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "pbem.toml")
	os.WriteFile(path, []byte("data_dir = \"from-file\"\n[log]\nlevel = \"debug\"\n[nats]\nurls = [\"nats://a:4222\"]\n"), 0o600)
	env := map[string]string{"PBEM_LOG_LEVEL": "warn", "PBEM_NATS_URLS": "nats://b:4222, nats://c:4222"}
	c, err := loadConfig(path, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if c.DataDir != "from-file" || c.Log.Level != "warn" || len(c.NATS.URLs) != 2 || c.NATS.URLs[1] != "nats://c:4222" || c.Engine.SnapshotEvery != 256 {
		t.Fatalf("config: %+v", c)
	}
	os.WriteFile(path, []byte("data_dir = \"x\"\nnonsense = 1\n"), 0o600)
	if _, err := loadConfig(path, func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), "nonsense") {
		t.Fatalf("unknown key: %v", err)
	}
	if _, err := loadConfig("", func(k string) string {
		if k == "PBEM_ENGINE_SNAPSHOT_EVERY" {
			return "zero"
		}
		return ""
	}); err == nil {
		t.Fatal("bad env value accepted")
	}
	// The example file shipped beside the command must load as it is.
	if _, err := loadConfig("pbem.example.toml", func(string) string { return "" }); err != nil {
		t.Fatalf("pbem.example.toml: %v", err)
	}
}

// startServe runs 'pbem serve' and waits for its control socket.
func startServe(t *testing.T, dataDir string, env ...string) *exec.Cmd {
	t.Helper()
	return startServeCmd(t, exec.Command(pbemBin, "--data-dir", dataDir, "serve"), dataDir, env...)
}

// startServeContent is startServe on contentBin, for a test whose subject
// is what the served game mails (see contentBin), not the server's
// concurrency.
func startServeContent(t *testing.T, dataDir string, env ...string) *exec.Cmd {
	t.Helper()
	return startServeCmd(t, exec.Command(contentBin, "--data-dir", dataDir, "serve"), dataDir, env...)
}

// startServeClocked runs 'pbem serve' as startServe does, on a clock the
// test moves on: the server sees the wall clock plus every duration
// passed to forward so far. It is this test binary that serves (see
// serveOnAMovedClock), for the pbem binary runs on the wall clock alone.
//
// forward returns the time the server's clock shows at least once the
// move is read: 'pbem tick' (mailGame.tick) applies it when it does.
func startServeClocked(t *testing.T, dataDir string, env ...string) (cmd *exec.Cmd, forward func(time.Duration) time.Time) {
	t.Helper()
	cmd = exec.Command(os.Args[0], "--data-dir", dataDir, "serve")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	startServeCmd(t, cmd, dataDir, append(env, "PBEM_TEST_SERVE_CLOCK=1")...)
	var ahead time.Duration
	return cmd, func(d time.Duration) time.Time {
		t.Helper()
		ahead += d
		at := time.Now().Add(ahead)
		if _, err := fmt.Fprintln(in, d); err != nil {
			t.Fatalf("moving the server's clock on: %v", err)
		}
		return at
	}
}

// serveOnAMovedClock runs pbem with args (serve) in this test binary, on
// the wall clock plus the durations read from stdin, one a line (see
// startServeClocked).
func serveOnAMovedClock(args []string) int {
	c := &movedClock{}
	go func() {
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			d, err := time.ParseDuration(sc.Text())
			if err != nil {
				fmt.Fprintln(os.Stderr, "serveOnAMovedClock:", err)
				os.Exit(2)
			}
			c.ahead.Add(int64(d))
		}
	}()
	serveClock = c
	return run(args, os.Stdout, os.Stderr)
}

// movedClock is the wall clock, ahead by what the test has moved it on.
type movedClock struct{ ahead atomic.Int64 }

func (c *movedClock) Now() time.Time { return time.Now().Add(time.Duration(c.ahead.Load())) }

func startServeCmd(t *testing.T, cmd *exec.Cmd, dataDir string, env ...string) *exec.Cmd {
	t.Helper()
	// The built-in mail host on free ports, so tests never collide.
	cmd.Env = append(append(os.Environ(), "PBEM_MAIL_BUILTIN_IMAP=127.0.0.1:0", "PBEM_MAIL_BUILTIN_SMTP=127.0.0.1:0"), env...)
	return servetest.Start(t, cmd, dataDir)
}

// stopServe stops a server startServe started, and returns its log.
func stopServe(t *testing.T, cmd *exec.Cmd) string {
	t.Helper()
	return servetest.Stop(t, cmd)
}

func TestServeAnswersCommandsOverItsSocketAndStopsCleanly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := startServe(t, dir, "PBEM_LOG_FORMAT=json")
	// The store is locked by serve; the command runs inside it.
	out, errOut, code := pbem(t, nil, "--data-dir", dir, "games")
	if code != 0 || !strings.Contains(out, "no games yet") {
		t.Fatalf("games via serve: %d %q %q", code, out, errOut)
	}
	// A second server on the same data directory is refused.
	_, errOut, code = pbemUnderRace(t, nil, "--data-dir", dir, "serve")
	if code != 1 || !strings.Contains(errOut, "another pbem serve is running") {
		t.Fatalf("second serve: %d %q", code, errOut)
	}
	logs := stopServe(t, srv)
	for _, want := range []string{`"msg":"pbem serving"`, `"msg":"embedded NATS running in-process"`, `"msg":"pbem stopped cleanly"`,
		`LOCAL MAIL HOST`, `"msg":"reading mailbox"`} {
		if !strings.Contains(logs, want) {
			t.Errorf("serve's JSON log lacks %s:\n%s", want, logs)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "pbem.sock")); !os.IsNotExist(err) {
		t.Fatal("control socket left behind")
	}
	// With serve stopped, commands open the store themselves.
	if out, _, code := pbem(t, nil, "--data-dir", dir, "games"); code != 0 || !strings.Contains(out, "no games yet") {
		t.Fatalf("games without serve: %d %q", code, out)
	}
}

// otherUser is the other user's process of the socket test (the test
// binary run with PBEM_TEST_OTHER_USER=SOCKET): it connects to the control
// socket and asks for the games until its standard input closes (the test
// closes it once the server has restarted for the last time), and prints
// how often it connected and how often it got an answer.
func otherUser(sock string) {
	stop := make(chan struct{})
	go func() {
		io.Copy(io.Discard, os.Stdin)
		close(stop)
	}()
	tries, answers := 0, 0
	for {
		select {
		case <-stop:
			fmt.Println(tries, answers)
			return
		case <-time.After(time.Millisecond): // a new attempt every millisecond
		}
		c, err := net.DialTimeout("unix", sock, time.Second)
		if err != nil {
			continue
		}
		tries++
		c.SetDeadline(time.Now().Add(2 * time.Second))
		c.Write([]byte(`{"cmd":"games","args":[]}` + "\n"))
		if b := make([]byte, 4096); func() bool { k, _ := c.Read(b); return k > 0 }() {
			answers++
		}
		c.Close()
	}
}

func freeAddr(t testing.TB) string { t.Helper(); return servetest.FreeAddr(t) }

// readInbox returns every mail in user's INBOX on the IMAP server at addr
// (nil if it cannot be read).
func readInbox(t *testing.T, addr, user, password string) [][]byte {
	return mailclient.Inbox(addr, user, password)
}
