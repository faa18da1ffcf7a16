package main

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	bolt "go.etcd.io/bbolt"

	"pbem/autoplay"
	"pbem/events"
	"pbem/store"
)

// playedDataDir plays the Harrow Creek demo game (GCACW) as game
// "audited" to its end, or 400 orders, into a data directory, as 'pbem
// bench' does, and returns a fresh copy of that directory (its store
// closed) for the test to read and damage, and the log. The game keeps a
// core busy for a while under -race, so it is played once for the test
// binary, by whichever test asks first.
func playedDataDir(t *testing.T) (string, []events.Envelope) {
	t.Helper()
	played.once.Do(func() {
		// A CPU slot only while it plays, as playedDemo's: its callers hold
		// none while they wait for it.
		cpuSlots <- struct{}{}
		defer func() { <-cpuSlots }()
		played.dir, played.log, played.err = playGame(filepath.Join(demoTmp, "audited"), "audited", 400)
	})
	if played.err != nil {
		t.Fatal(played.err)
	}
	dir := t.TempDir()
	db, err := os.ReadFile(filepath.Join(played.dir, "pbem.db"))
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "pbem.db"), db, 0o600)
	}
	if err != nil {
		t.Fatal(err)
	}
	return dir, played.log
}

// played is the game playedDataDir plays once.
var played struct {
	once sync.Once
	dir  string
	log  []events.Envelope
	err  error
}

// playGame plays the demo game of GCACW as game, to its end or maxOrders
// orders, into a new data directory dir.
func playGame(dir, game string, maxOrders int) (string, []events.Envelope, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", nil, err
	}
	st, err := store.Open(filepath.Join(dir, "pbem.db"), store.Options{})
	if err != nil {
		return "", nil, err
	}
	defer st.Close()
	s, err := demoScript("gcacw")
	if err != nil {
		return "", nil, err
	}
	cfg := defaultConfig()
	log, err := autoplay.Play(st, registry(), cfg.Mail.Domain, cfg.Mail.Local, game, s, maxOrders)
	return dir, log, err
}

// flipByte changes one byte of event seq of game in the bbolt file, behind
// the store's back.
func flipByte(t *testing.T, dir, game string, seq uint64) {
	t.Helper()
	db, err := bolt.Open(filepath.Join(dir, "pbem.db"), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("log")).Bucket([]byte(game))
		key := binary.BigEndian.AppendUint64(nil, seq)
		v := append([]byte(nil), b.Get(key)...)
		v[len(v)-3] ^= 0x01
		return b.Put(key, v)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestAuditAndExportAFinishedGame(t *testing.T) {
	// Not cpuBound: playedDataDir holds a CPU slot while it plays, and
	// the commands run on contentBin.
	t.Parallel()
	dir, log := playedDataDir(t)
	var ended bool
	for i := range log {
		ended = ended || log[i].Type == events.TypeGameEnded
	}
	if !ended {
		t.Fatal("the demo game did not end within 400 orders")
	}
	tests := []struct {
		name   string
		args   []string
		code   int
		want   []string
		absent []string
	}{
		{"audit", []string{"audit", "audited"}, 0,
			[]string{"intact", "decisions: all ", "re-decided alike", "the seed revealed at the end of the game matches the commitment", "rolls verify",
				"counts: ", "\ntimeline:\n", "ref (referee): RULE DONE → accepted: ", " → accepted: ", " → rejected: ", "game ended: "}, nil},
		{"audit quietly", []string{"audit", "--quiet", "audited"}, 0, []string{"intact", "rolls verify"}, []string{"timeline:"}},
		{"audit with the stored secret", []string{"audit", "audited", "--with-secret"}, 0, []string{"the server's stored seed matches"}, nil},
		{"export text", []string{"export", "--format", "text", "audited"}, 0,
			[]string{"campaign report: game audited, gcacw", "=== board after turn 1 ended", "=== final board", " → accepted: "},
			[]string{"decisions (seq"}},
		{"export html", []string{"export", "--format", "html", "audited"}, 0,
			[]string{"<!DOCTYPE html>", "<h1>campaign report: game audited, gcacw", `"parts":["\u003csvg`, `"kind":"end"`, "die #", "</html>\n", " → accepted", " → rejected: "},
			[]string{"<link", " src=", "<img", "@import", "fetch("}},
		{"export in an unknown format", []string{"export", "--format", "xml", "audited"}, 2, nil, nil},
		{"audit an unknown game", []string{"audit", "nosuch"}, 1, nil, nil},
	}
	// The commands only read the store; the byte is flipped after them
	// all. They run one after another: each takes a second or two, and as
	// parallel subtests they waited minutes for a place behind the
	// package's end-to-end tests (the package ended with them).
	t.Run("reading", func(t *testing.T) {
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				out, errOut, code := pbem(t, nil, append([]string{"--data-dir", dir}, tc.args...)...)
				if code != tc.code {
					t.Fatalf("exit %d, want %d\n%s\n%s", code, tc.code, tail(out, 30), errOut)
				}
				for _, w := range tc.want {
					if !strings.Contains(out, w) {
						t.Errorf("output lacks %q:\n%s", w, tail(out, 30))
					}
				}
				for _, w := range tc.absent {
					if strings.Contains(out, w) {
						t.Errorf("output has %q", w)
					}
				}
			})
		}

		t.Run("export jsonl round-trips", func(t *testing.T) {
			out, errOut, code := pbem(t, nil, "--data-dir", dir, "export", "audited")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if len(lines) != len(log) {
				t.Fatalf("%d lines for %d events", len(lines), len(log))
			}
			for i, l := range lines {
				var e struct {
					Seq     uint64          `json:"seq"`
					Type    string          `json:"type"`
					At      string          `json:"at"`
					Prev    string          `json:"prev"`
					Hash    string          `json:"hash"`
					Payload json.RawMessage `json:"payload"`
				}
				if err := json.Unmarshal([]byte(l), &e); err != nil {
					t.Fatalf("line %d: %v\n%s", i+1, err, l)
				}
				if e.Seq != log[i].Seq || e.Type != log[i].Type || e.Hash != log[i].Hash.Hex() || e.Prev != log[i].Prev.Hex() || len(e.Payload) < 2 {
					t.Fatalf("line %d does not match event %d: %s", i+1, log[i].Seq, l)
				}
				if e.Type == events.TypeMailQueued {
					var m struct{ Body string }
					if err := json.Unmarshal(e.Payload, &m); err != nil || m.Body == "" {
						t.Fatalf("line %d: mail body not in plain text: %v %s", i+1, err, l)
					}
				}
			}
		})

		// The default export carries no credential of the game's
		// mails (reply keys and addresses, the referee's secret); with
		// --with-secrets it is a full backup, and says so.
		t.Run("export holds no credential unless asked", func(t *testing.T) {
			cred := regexp.MustCompile(`(?m)(Key: [a-z2-7]{8,}|Secret: [a-z2-7]{8,}|pbem\+[^@\s"]+@)`)
			for _, format := range []string{"jsonl", "text", "html"} {
				out, errOut, code := pbem(t, nil, "--data-dir", dir, "export", "--format", format, "audited")
				if code != 0 {
					t.Fatalf("%s: exit %d: %s", format, code, errOut)
				}
				if m := cred.FindString(out); m != "" {
					t.Fatalf("the default %s export holds a credential: %q", format, m)
				}
			}
			out, errOut, code := pbem(t, nil, "--data-dir", dir, "export", "audited")
			if code != 0 || !strings.Contains(out, "Key: [redacted]") || !strings.Contains(out, "Secret: [redacted]") {
				t.Fatalf("the default export does not mark what it left out (exit %d): %s", code, errOut)
			}
			full, errOut, code := pbem(t, nil, "--data-dir", dir, "export", "--with-secrets", "audited")
			if code != 0 || len(cred.FindAllString(full, -1)) < 3 || !strings.Contains(errOut, "holds every reply key") {
				t.Fatalf("--with-secrets: exit %d, %d credentials, stderr %q", code, len(cred.FindAllString(full, -1)), errOut)
			}
		})

		// Export and log --as a player show that player's view:
		// their own mails only, and no other player's order text.
		t.Run("export and log as a player", func(t *testing.T) {
			for _, args := range [][]string{{"export", "--as", "anna", "audited"}, {"log", "--as", "USA", "audited"}} {
				out, errOut, code := pbem(t, nil, append([]string{"--data-dir", dir}, args...)...)
				if code != 0 {
					t.Fatalf("%v: exit %d: %s", args, code, errOut)
				}
				if strings.Contains(out, "taro@") || !strings.Contains(out, "anna@") {
					t.Fatalf("%v shows another player's mails, or not anna's own:\n%s", args, tail(out, 20))
				}
			}
			out, _, _ := pbem(t, nil, "--data-dir", dir, "log", "--as", "taro", "audited")
			whole, _, _ := pbem(t, nil, "--data-dir", dir, "log", "audited")
			if !strings.Contains(whole, "| QUEUE MARCH") || strings.Count(out, "| ") >= strings.Count(whole, "| ") || !strings.Contains(out, "the text is the sender's") {
				t.Fatalf("log --as taro shows every order's text:\n%s", tail(out, 20))
			}
			if _, errOut, code := pbem(t, nil, "--data-dir", dir, "log", "--as", "nobody", "audited"); code != 2 || !strings.Contains(errOut, "no player or side") {
				t.Fatalf("--as nobody: exit %d %s", code, errOut)
			}
		})

		// The HTML report --as a player is what that player saw: the
		// board drawn as their side sees it (the enemy's ZOC shaded, which the
		// referee's board has not), and none of the other side's rejected
		// orders, which the referee's report lists.
		t.Run("export html as a player", func(t *testing.T) {
			ref, _, code := pbem(t, nil, "--data-dir", dir, "export", "--format", "html", "audited")
			anna, errOut, code2 := pbem(t, nil, "--data-dir", dir, "export", "--format", "html", "--as", "anna", "audited")
			if code != 0 || code2 != 0 {
				t.Fatalf("exit %d, %d: %s", code, code2, errOut)
			}
			zoc := `id=\"zoc\"`
			if strings.Contains(ref, zoc) || !strings.Contains(anna, zoc) || !strings.Contains(anna, "as anna (USA) saw it") && !strings.Contains(anna, "as anna") {
				t.Fatalf("ZOC in the referee's report: %v, in anna's: %v", strings.Contains(ref, zoc), strings.Contains(anna, zoc))
			}
			typo := "QUEUE MARCH Starlng 0810" // in Taro's plan, which is rejected whole
			if !strings.Contains(ref, typo) || strings.Contains(anna, typo) {
				t.Fatalf("taro's rejected order: in the referee's report %v, in anna's %v", strings.Contains(ref, typo), strings.Contains(anna, typo))
			}
		})
	})

	t.Run("a flipped byte is located by seq", func(t *testing.T) {
		flipByte(t, dir, "audited", 7)
		out, errOut, code := pbem(t, nil, "--data-dir", dir, "audit", "audited")
		if code != 1 || !strings.Contains(out, "hash chain: BROKEN at seq 7:") || !strings.Contains(errOut, "broken at seq 7") {
			t.Fatalf("exit %d\n%s\n%s", code, tail(out, 30), errOut)
		}
	})
}
