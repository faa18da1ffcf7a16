package main

import (
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pbem/engine"
	"pbem/engine/enginetest"
	"pbem/engine/play"
	"pbem/internal/syncbuf"
	"pbem/store"
)

// brokenBoard is the reference rule system whose Render panics, as a bug
// in a rule system's board would.
type brokenBoard struct{ engine.Ruleset }

var brokenTallies map[string]int // never made: writing to it panics

func (brokenBoard) Name() string { return "broken" }
func (brokenBoard) Render(engine.View) engine.Board {
	brokenTallies["board"]++
	return engine.Board{}
}

// A command run in the server through the control socket ('pbem replay'
// on a live server) whose rule system panics fails with an error, and
// the server goes on answering commands.
func TestPanickingControlCommandFailsAndTheServerGoesOn(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "pbem.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	reg := engine.NewRegistry(enginetest.Race, func() engine.Ruleset { return brokenBoard{enginetest.Race()} })
	at := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	for id, rs := range map[string]string{"buggy": "broken", "sound": "race"} {
		if _, err := play.Create(st, reg, play.NewGame{ID: id, Ruleset: rs, Scenario: []byte("target 5"), Players: enginetest.RacePlayers, At: at}); err != nil {
			t.Fatal(err)
		}
	}
	var logs syncbuf.Buffer
	base := &app{cfg: defaultConfig(), reg: reg, log: st, lg: slog.New(slog.NewTextHandler(&logs, nil)), inServer: true}
	resp := base.control(ctlRequest{Cmd: "replay", Args: []string{"buggy"}}, false)
	if !strings.Contains(resp.Err, "panicked") || strings.Contains(resp.Err+resp.Out, "goroutine") {
		t.Errorf("replay of the broken game: err %q, out %q", resp.Err, resp.Out)
	}
	if !strings.Contains(logs.String(), "level=ERROR") || !strings.Contains(logs.String(), "stack=") {
		t.Errorf("the panic is not logged with its stack:\n%s", logs.String())
	}
	resp = base.control(ctlRequest{Cmd: "replay", Args: []string{"sound"}}, false)
	if resp.Err != "" || !strings.Contains(resp.Out, "USA") {
		t.Errorf("replay of the sound game after it: err %q, out %q", resp.Err, resp.Out)
	}
}
