//go:build linux

package main

import (
	"slices"
	"strings"
	"testing"
)

// Press by mail, against a live 'pbem serve': a player's PRESS reaches
// the player it names, one mail saying who wrote it and to whom; its
// writer is told it was sent; the referee (who reads no press by
// default) and an observer get nothing of it, and pbem log and replay
// --as show it to its writer and recipient alone.
func TestPressByMail(t *testing.T) {
	t.Parallel()
	g := newMailGame(t)
	// What is tested is who is told what of a press message (content): served on contentBin.
	srv := startServeContent(t, g.dir, g.env...)
	defer stopServe(t, srv)
	secret, welcome := g.welcomesOnly()
	g.command(welcome, secret, "OBSERVER ADD kim@players.test")
	g.next("kim", "the referee changed the game")

	// HELP lists it.
	g.send("anna", g.newest("anna"), "HELP")
	bodyHas(t, "Anna's HELP", g.next("anna", "help").Body, "PRESS TO <who>: <text>")

	g.send("anna", g.newest("anna"), "PRESS TO taro: Meet me at the mill at dawn.\n\nBring the cider.")
	m := g.next("taro", "press from Anna (USA)")
	bodyHas(t, "Taro's press", m.Body, "Anna (USA) writes to you, in game g1:", "    Meet me at the mill at dawn.", "    Bring the cider.",
		"reply to this mail with PRESS TO anna: <your answer>")
	bodyHas(t, "Anna's receipt", squeezed(g.next("anna", "your message was sent").Body), "PRESS to taro (taro): Meet me at the mill at dawn.",
		"the referees do not read it")

	// Taro answers the whole game; the referee and the observer see
	// nothing of either.
	g.send("taro", m, "PRESS ALL: The mill is ours.")
	bodyHas(t, "Anna's press", g.next("anna", "press from Taro (CSA)").Body, "Taro (CSA) writes to you (press to ALL), in game g1:", "The mill is ours.")
	g.next("taro", "your message was sent")
	g.quiet("carol", "body:mill")
	g.quiet("kim", "body:mill")

	// pbem log, export (its records, campaign report and web page) and
	// replay --at (each press's decision) --as: the writers and the
	// recipients read it, no one else does.
	var at []string
	seq := ""
	for _, l := range strings.Split(g.pbem("log", "g1"), "\n") {
		if f := strings.Fields(l); len(f) > 3 && strings.HasPrefix(f[3], "order.accepted") {
			seq = f[0]
		}
		if strings.Contains(l, "pbem.press") && (strings.Contains(l, "cider") || strings.Contains(l, "mill is ours")) && !slices.Contains(at, seq) {
			at = append(at, seq)
		}
	}
	if len(at) != 2 {
		t.Fatalf("the log holds %d press decisions, want 2:\n%s", len(at), g.pbem("log", "g1"))
	}
	for _, tc := range []struct {
		as   string
		sees bool
	}{{"anna", true}, {"taro", true}, {"carol", false}, {"referee", false}, {"observer", false}} {
		for _, cmd := range [][]string{{"log", "g1"}, {"export", "g1"}, {"export", "g1", "--format", "text"}, {"export", "g1", "--format", "html"}, {"replay", "g1", "--at", at[0]}, {"replay", "g1", "--at", at[1]}} {
			cmd = append(cmd, "--as", tc.as)
			out := g.pbem(cmd...)
			some := strings.Contains(out, "cider") || strings.Contains(out, "mill is ours") || strings.Contains(out, "Meet me at the mill")
			all := strings.Contains(out, "cider") && strings.Contains(out, "mill is ours")
			if cmd[0] == "replay" {
				all = some && strings.Contains(out, "told at seq ") // one press at each seq
			}
			switch {
			case !tc.sees && some:
				t.Errorf("pbem %s shows press:\n%s", strings.Join(cmd, " "), out)
			case tc.sees && !all:
				t.Errorf("pbem %s lacks the press:\n%s", strings.Join(cmd, " "), out)
			}
		}
	}
	if audit := g.pbem("audit", "g1"); !strings.Contains(audit, "re-decided alike") {
		t.Fatalf("audit:\n%s", audit)
	}
}
