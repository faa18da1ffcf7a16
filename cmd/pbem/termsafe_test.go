package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pbem/store"
)

// What pbem prints shows control characters and bidi
// overrides escaped, in every command: a player's text, a scenario file's
// name and a quarantined mail carry ESC, OSC, C1 and U+202E here.
func TestCLIOutputShowsControlsAndBidiEscaped(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	scen, err := os.ReadFile("../../engine/gcacw/scenarios/harrow-creek.txt")
	if err != nil {
		t.Fatal(err)
	}
	hostile := filepath.Join(dir, "harrow\x1b[2J\u202ecreek.txt")
	if err := os.WriteFile(hostile, scen, 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) string {
		t.Helper()
		out, errOut, code := pbem(t, nil, append([]string{"--data-dir", dir}, args...)...)
		if code != 0 {
			t.Fatalf("pbem %v: %d %s %s", args, code, out, errOut)
		}
		return out + errOut
	}
	run("new", "--game", "g1", "--ruleset", "gcacw", "--scenario-file", hostile,
		"--player", "anna:USA:anna@pbem.localhost:Anna", "--player", "taro:CSA:taro@pbem.localhost:Taro")
	// pbem order says the order was rejected (exit 1), its text escaped.
	if out, errOut, _ := pbem(t, nil, "--data-dir", dir, "order", "g1", "--player", "anna", "MARCH \x1b]0;owned\x07Lyle \u202e1605 \u009b31m"); !strings.Contains(out, "rejected") ||
		strings.ContainsAny(out+errOut, "\x1b\u202e\u009b\x07") {
		t.Fatalf("order: %q %q", out, errOut)
	}
	st, err := store.Open(filepath.Join(dir, "pbem.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st.Quarantine(store.Quarantined{At: time.Now(), From: "eve@x.test", Subject: "hi \x1b[31mred", Reason: "no reply token",
		Raw: []byte("From: eve@x.test\r\nSubject: hi \x1b[31mred\r\n\r\n\x1b]0;title\x07\u202eevil\r\n")}, store.Checkpoint{})
	st.Close()
	quarantine := run("quarantine")
	id := strings.Fields(quarantine)[0]
	outputs := map[string]string{
		"log":               run("log", "g1"),
		"audit":             run("audit", "g1"),
		"export text":       run("export", "g1", "--format", "text"),
		"replay":            run("replay", "g1"),
		"quarantine":        quarantine,
		"quarantine --show": run("quarantine", "--show", id),
	}
	for name, out := range outputs {
		if strings.ContainsAny(out, "\x1b\u202e\u009b\x07") {
			t.Errorf("%s prints a raw control or bidi character:\n%q", name, out)
		}
		if !strings.Contains(out, `\x1b`) && !strings.Contains(out, `\u202e`) {
			t.Errorf("%s does not show the escapes:\n%s", name, out)
		}
	}
	// A jsonl export stays valid JSON that means what the log holds.
	jsonl := run("export", "g1", "--format", "jsonl")
	found := false
	for _, l := range strings.Split(strings.TrimSpace(jsonl), "\n") {
		var e struct {
			Payload struct{ Text string }
		}
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("export line is not JSON: %v\n%s", err, l)
		}
		found = found || e.Payload.Text == "MARCH \x1b]0;owned\x07Lyle \u202e1605 \u009b31m"
	}
	if !found || strings.ContainsRune(jsonl, 0x202e) {
		t.Fatalf("jsonl export:\n%s", jsonl)
	}
}
