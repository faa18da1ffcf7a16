//go:build linux

package main

import (
	"encoding/binary"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// A game whose log is damaged does not hold up the server:
// it starts (the damaged game's unsent mails wait for it to be mended),
// the intake goes on past a mail that names the damaged game, and the
// other game's mail is answered as ever.
func TestADamagedGameDoesNotStopTheOthersMail(t *testing.T) {
	t.Parallel()
	g := newMailGame(t)
	g.pbem("new", "--game", "g2", "--ruleset", "gcacw", "--scenario", "harrow-creek",
		"--player", "anna:USA:anna@players.test:Anna", "--player", "taro:CSA:taro@players.test:Taro")
	// g2 loses its first event behind the store's back: its log no longer
	// folds (a game must begin with game.created).
	db, err := bolt.Open(filepath.Join(g.dir, "pbem.db"), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("log")).Bucket([]byte("g2")).Delete(binary.BigEndian.AppendUint64(nil, 1))
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	srv := startServe(t, g.dir, g.env...)
	defer stopServe(t, srv)

	welcome := g.next("anna", "welcome")
	if !strings.Contains(welcome.Subject, "g1") {
		t.Fatalf("anna's welcome is not g1's: %s", welcome.Subject)
	}
	// A mail naming the damaged game (its key cannot be right: g2's
	// welcome never went out), then one for the good game: the good one
	// is answered.
	damaged := welcome
	damaged.ReplyTo = strings.Replace(welcome.ReplyTo, "+g1.", "+g2.", 1)
	damaged.Subject = strings.Replace(welcome.Subject, "[pbem g1]", "[pbem g2]", 1)
	g.send("anna", damaged, "STATUS")
	g.send("anna", welcome, "STATUS")
	status := g.next("anna", "status")
	if !strings.Contains(status.Subject, "g1") {
		t.Fatalf("the answer is not g1's: %s", status.Subject)
	}
	g.actions(2)
	// The damaged game says why it cannot be shown, at once.
	start := time.Now()
	_, errOut, code := pbem(t, g.env, "--data-dir", g.dir, "replay", "g2")
	if code == 0 || !strings.Contains(errOut, "g2") || time.Since(start) > 20*time.Second {
		t.Fatalf("replay of the damaged game: exit %d after %v: %s", code, time.Since(start), errOut)
	}
}
