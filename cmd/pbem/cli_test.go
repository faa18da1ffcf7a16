package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// newGame creates game g1 in a new data directory and returns it.
func newGame(t *testing.T, extra ...string) string {
	t.Helper()
	dir := t.TempDir()
	args := append([]string{"--data-dir", dir, "new", "--game", "g1", "--ruleset", "gcacw", "--scenario", "harrow-creek",
		"--player", "anna:USA:anna@pbem.localhost:Anna", "--player", "taro:CSA:taro@pbem.localhost:Taro", "--referee", "ref:ref@pbem.localhost"}, extra...)
	if out, errOut, code := pbem(t, nil, args...); code != 0 {
		t.Fatalf("new: %s %s", out, errOut)
	}
	return dir
}

// pbem new takes only plain addresses and a player for every side of the
// rule system: what it accepts is what mail can be sent to and a game
// that can be played.
func TestNewRefusesBadAddressesAndMissingSides(t *testing.T) {
	t.Parallel()
	crlf := "anna@example.org\r\nBcc: eve@example.org"
	tests := []struct {
		name   string
		player string
		want   string
	}{
		{"a lone @", "anna:USA:@", "not a plain mail address"},
		{"two @", "anna:USA:a@b@c", "not a plain mail address"},
		{"a display name", "anna:USA:A <a@x.test>", "not a plain mail address"},
		{"a line break", "anna:USA:" + crlf, "line break"},
		{"no domain", "anna:USA:anna", "not a plain mail address"},
		{"a bad domain", "anna:USA:anna@exa mple.org", "not a plain mail address"},
		{"pbem's own mailbox", "anna:USA:pbem+x@pbem.localhost", "pbem's own mailbox"},
		{"an address the built-in host cannot deliver to", "anna:USA:anna@example.org", "anna's address anna@example.org cannot get mail: pbem runs its own mail host"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			out, errOut, code := pbem(t, nil, "--data-dir", dir, "new", "--game", "g1", "--ruleset", "gcacw", "--scenario", "harrow-creek",
				"--player", tt.player, "--player", "taro:CSA:taro@pbem.localhost")
			if code == 0 || !strings.Contains(errOut, tt.want) {
				t.Fatalf("exit %d\n%s%s", code, out, errOut)
			}
			if _, err := os.Stat(filepath.Join(dir, "pbem.db")); err == nil {
				if out, _, _ := pbem(t, nil, "--data-dir", dir, "games"); !strings.Contains(out, "no games") {
					t.Fatalf("a game was made:\n%s", out)
				}
			}
		})
	}
	out, errOut, code := pbem(t, nil, "--data-dir", t.TempDir(), "new", "--game", "g1", "--ruleset", "gcacw", "--scenario", "harrow-creek",
		"--player", "anna:USA:anna@pbem.localhost")
	if code == 0 || !strings.Contains(errOut, "no --player plays CSA") {
		t.Fatalf("a one-player game: exit %d\n%s%s", code, out, errOut)
	}
}

// Flags may stand after a command's positional arguments, in every
// command that has both, and "--" ends them.
func TestFlagsAfterPositionalArguments(t *testing.T) {
	t.Parallel()
	dir := newGame(t)
	tests := []struct {
		args []string
		want string
		code int
	}{
		{[]string{"order", "g1", "STATUS", "--player", "anna"}, "recorded in g1", 0},
		{[]string{"order", "g1", "--player", "anna", "--", "--not-a-flag"}, "| --not-a-flag", 1},
		{[]string{"referee", "g1", "--as", "ref", "--reason", "testing", "PAUSE"}, "accepted:", 0},
		{[]string{"log", "g1", "--from", "2"}, "order.received", 0},
		{[]string{"replay", "g1", "--at", "1", "--as", "USA"}, "at seq 1", 0},
		{[]string{"verify", "g1", "--with-secret"}, "all 0 rolls verify", 0},
		{[]string{"audit", "g1", "--quiet"}, "hash chain", 0},
		{[]string{"export", "g1", "--format", "text"}, "g1", 0},
		{[]string{"scenarios", "gcacw"}, "harrow-creek", 0},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out, errOut, code := pbem(t, nil, append([]string{"--data-dir", dir}, tt.args...)...)
			if code != tt.code || !strings.Contains(out, tt.want) {
				t.Fatalf("exit %d\n%s%s", code, out, errOut)
			}
		})
	}
	if out, _, _ := pbem(t, nil, "--data-dir", dir, "log", "g1"); !strings.Contains(out, "| --not-a-flag") {
		t.Fatalf("the text after -- was not taken as the order:\n%s", out)
	}
}

// A command that reads never makes a store: not in a new directory, not
// over an empty pbem.db (the evidence of a loss), not where mailhost.db
// says the directory is not new.
func TestReadingCommandsMakeNoStore(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"games"}, {"log", "g1"}, {"verify", "g1"}, {"quarantine"}, {"doctor"}, {"order", "g1", "--player", "a", "X"}} {
		dir := t.TempDir()
		out, errOut, code := pbem(t, nil, append([]string{"--data-dir", dir}, args...)...)
		if code == 0 || !strings.Contains(errOut+out, "no pbem.db in") {
			t.Errorf("%v in an empty directory: exit %d\n%s%s", args, code, out, errOut)
		}
		if _, err := os.Stat(filepath.Join(dir, "pbem.db")); err == nil {
			t.Errorf("%v made pbem.db", args)
		}
		os.WriteFile(filepath.Join(dir, "pbem.db"), nil, 0o600)
		out, errOut, code = pbem(t, nil, append([]string{"--data-dir", dir}, args...)...)
		if code == 0 || !strings.Contains(errOut+out, "empty (0 bytes)") || strings.Contains(errOut, "goroutine") {
			t.Errorf("%v on an empty pbem.db: exit %d\n%s%s", args, code, out, errOut)
		}
		if fi, _ := os.Stat(filepath.Join(dir, "pbem.db")); fi.Size() != 0 {
			t.Errorf("%v wrote to an empty pbem.db", args)
		}
	}
	// Neither serve nor new makes a new pbem.db beside an old mailhost.db.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "mailhost.db"), []byte("x"), 0o600)
	out, errOut, code := pbem(t, nil, "--data-dir", dir, "new", "--game", "g1", "--ruleset", "gcacw", "--scenario", "harrow-creek",
		"--player", "anna:USA:anna@pbem.localhost", "--player", "taro:CSA:taro@pbem.localhost")
	if code == 0 || !strings.Contains(errOut, "pbem.db was moved or lost") {
		t.Fatalf("new beside a lone mailhost.db: exit %d\n%s%s", code, out, errOut)
	}
}

// readmeExamples returns the commands of the README's "Using it" block,
// each as its arguments after "pbem".
func readmeExamples(t *testing.T) [][]string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "## Using it")
	_, block, ok2 := strings.Cut(rest, "```sh\n")
	block, _, ok3 := strings.Cut(block, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("README has no sh block under 'Using it'")
	}
	var cmds [][]string
	for _, line := range strings.Split(strings.ReplaceAll(block, "\\\n", " "), "\n") {
		if i := strings.Index(line, "  #"); i >= 0 {
			line = line[:i]
		}
		words := shellWords(t, line)
		if len(words) == 0 {
			continue
		}
		if words[0] != "pbem" {
			t.Fatalf("README example %q does not start with pbem", line)
		}
		cmds = append(cmds, words[1:])
	}
	return cmds
}

// shellWords splits a line as sh does for what the README uses: blanks,
// and single quotes.
func shellWords(t *testing.T, line string) []string {
	var words []string
	var w strings.Builder
	in, quoted := false, false
	for _, r := range line {
		switch {
		case r == '\'':
			quoted, in = !quoted, true
		case (r == ' ' || r == '\t') && !quoted:
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		default:
			w.WriteRune(r)
			in = true
		}
	}
	if quoted {
		t.Fatalf("unbalanced quote in %q", line)
	}
	if in {
		words = append(words, w.String())
	}
	return words
}

// The README's examples run as written, in order, against a running
// server (through its control socket) — all but demo and bench, which run
// servers and measurements of their own for minutes and have their own
// tests (TestHRADemo…, TestBench…).
func TestREADMEExamplesRunAsWritten(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env := []string{"PBEM_DATA_DIR=" + dir}
	// What is tested is the examples' text: on contentBin.
	srv := startServeContent(t, dir)
	defer stopServe(t, srv)
	ran := 0
	for _, args := range readmeExamples(t) {
		if args[0] == "demo" || args[0] == "bench" {
			continue
		}
		out, errOut, code := pbem(t, env, args...)
		if code != 0 || strings.Contains(errOut, "goroutine ") {
			t.Errorf("pbem %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
		}
		ran++
	}
	if ran < 12 {
		t.Fatalf("only %d README examples ran", ran)
	}
}

// pbem order refuses an order from someone the game takes none from
// before it records anything: the log is as it was.
func TestOrderFromNoPlayerIsRefusedAndNotRecorded(t *testing.T) {
	t.Parallel()
	dir := newGame(t)
	before, _, _ := pbem(t, nil, "--data-dir", dir, "log", "g1")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--player", "nobody", "MARCH"}, `"nobody" is no player of game g1 (its players: anna, taro)`},
		{[]string{"--player", "ref", "MARCH"}, `"ref" plays no side in game g1`},
		{[]string{"--player", "anna", "--referee", "SET x"}, `"anna" is not a referee of game g1 (its referees: ref)`},
	}
	for _, tt := range tests {
		out, errOut, code := pbem(t, nil, append([]string{"--data-dir", dir, "order", "g1"}, tt.args...)...)
		if code == 0 || !strings.Contains(errOut, tt.want) || !strings.Contains(errOut, "nothing was recorded") || strings.Contains(out, "recorded in") {
			t.Errorf("order %v: exit %d\n%s%s\nwant it refused: %s", tt.args, code, out, errOut, tt.want)
		}
	}
	if after, _, _ := pbem(t, nil, "--data-dir", dir, "log", "g1"); after != before {
		t.Fatalf("refused orders changed the log:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}
