//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A command given with --file on a node that does not own its game runs
// on the owner, with the text of the file as the person who typed the
// command has it: a path relative to the directory they typed it in, or
// their standard input ('--file -'), never a file of that name on the
// owner's disk or the servers' own standard input.
func TestClusterCommandWithFileIsForwardedToTheOwnerWithTheFilesText(t *testing.T) {
	t.Parallel()
	r := newClusterRig(t)
	if out, errOut, code := r.pbem("n1", "new", "--game", "g1", "--ruleset", "gcacw", "--scenario", "harrow-creek",
		"--player", "anna:USA:anna@players.test:Anna", "--player", "taro:CSA:taro@players.test:Taro"); code != 0 {
		t.Fatalf("new: %s %s", out, errOut)
	}
	owner := r.owners("n2")["g1"]
	other := ""
	for _, n := range []string{"n1", "n2", "n3"} {
		if n != owner && other == "" {
			other = n
		}
	}
	if owner == "" {
		t.Fatalf("g1 has no owner: %v", r.owners("n2"))
	}
	// The person's own directory, which no server runs in.
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "orders.txt"), []byte("STATUS\n# from-a-file-7f3a\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(stdin string, args ...string) string {
		t.Helper()
		cmd := exec.Command(pbemBin, append([]string{"--data-dir", r.dirs[other]}, args...)...)
		cmd.Dir, cmd.Env = home, append(os.Environ(), r.env...)
		cmd.Stdin = strings.NewReader(stdin)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("pbem %v on %s (g1's owner is %s): %v\n%s\n%s", args, other, owner, err, out.String(), r.logs())
		}
		if !strings.Contains(out.String(), "recorded in g1") {
			t.Fatalf("pbem %v: %s", args, out.String())
		}
		return out.String()
	}
	run("", "order", "g1", "--player", "anna", "--file", "orders.txt")
	run("STATUS\n# from-stdin-91c2\n", "order", "g1", "--player", "taro", "--file", "-")

	out, _, code := r.pbem(owner, "log", "g1")
	if code != 0 {
		t.Fatalf("log on the owner: %s", out)
	}
	for _, want := range []string{"from-a-file-7f3a", "from-stdin-91c2"} {
		if !strings.Contains(out, want) {
			t.Errorf("the owner's log lacks the order whose text has %s:\n%s", want, tail(out, 20))
		}
	}
	// A file the person names that does not exist is an error of the
	// command, said to them, and nothing is recorded.
	cmd := exec.Command(pbemBin, "--data-dir", r.dirs[other], "order", "g1", "--player", "anna", "--file", "no-such-file.txt")
	cmd.Dir, cmd.Env = home, append(os.Environ(), r.env...)
	b, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(b), "no-such-file.txt") {
		t.Fatalf("a missing file: %v\n%s", err, b)
	}
}
