package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
	"pbem/store"
)

// Log writes game's events from seq from on readably, the closed
// branches a rollback left marked: all of them, or, when v is not nil, as
// the viewer v (named who) saw each step. g is the game replayed to its
// end (for its branches).
func Log(w io.Writer, log play.Source, reg *engine.Registry, g *play.Game, from uint64, v *engine.Viewer, who string) error {
	game := g.ID
	print := func(e *events.Envelope, p events.Payload) {
		if e.Seq < from {
			return
		}
		br, closed := play.InBranch(g.Branches, e.Seq)
		if closed && (e.Seq == br.From || e.Seq == from) {
			fmt.Fprintf(w, "       ┌─ seqs %d–%d: a closed branch, rolled back at seq %d (kept in the log; 'pbem replay %s --at SEQ' shows it)\n", br.From, br.To, br.By, game)
		}
		d := play.LogEntry(e, p)
		if closed {
			d = "     │" + strings.ReplaceAll(strings.TrimSuffix(d, "\n"), "\n", "\n     │") + "\n"
		}
		fmt.Fprint(w, d)
		if closed && e.Seq == br.To {
			fmt.Fprintf(w, "       └─ end of the closed branch\n")
		}
	}
	if v == nil {
		return log.Read(game, from, func(e *events.Envelope) error {
			p, err := events.Decode(e)
			if err != nil {
				fmt.Fprintf(w, "%5d  %s  %-19s (undecodable: %v)\n", e.Seq, e.Time().Format("2006-01-02 15:04:05Z"), e.Type, err)
				return nil
			}
			print(e, p)
			return nil
		})
	}
	fmt.Fprintf(w, "game %s as %s saw it at each step\n", game, who)
	return play.CutLog(log, reg, game, *v, func(_ *play.Game, e *events.Envelope, p events.Payload) error {
		if p != nil {
			print(e, p)
		}
		return nil
	})
}

// VerifyLog is what Verify reads of the log.
type VerifyLog interface {
	Read(game string, from uint64, fn func(*events.Envelope) error) error
	Head(game string) (store.Head, error)
	Verify(game string) (uint64, error)
	Secret(game string) ([]byte, error)
}

// Verify checks game's hash chain, and every die against the seed
// revealed at the end of the game (before it ends, with withSecret,
// against the server's stored seed), and writes what it found to w; an
// error says what does not verify.
func Verify(w io.Writer, log VerifyLog, game string, withSecret bool) error {
	n, err := log.Verify(game)
	if err != nil {
		return fmt.Errorf("hash chain: %d events intact, then: %w", n, err)
	}
	h, _ := log.Head(game)
	fmt.Fprintf(w, "hash chain: %d events, intact; head %s\n", n, h.Hash.Hex())
	// A campaign and its battles (engine/play/link.go): each link
	// checked against the other game's log.
	links, err := play.VerifyLinks(log, game)
	for _, l := range links {
		fmt.Fprintf(w, "link: %s\n", l)
	}
	if err != nil {
		return err
	}
	var commit events.Hash
	var seed []byte
	var dice []events.Die
	err = log.Read(game, 1, func(e *events.Envelope) error {
		switch e.Type {
		case events.TypeGameCreated, events.TypeOrderAccepted, events.TypeOrderAcceptedV1, events.TypeGameEnded:
		default:
			return nil
		}
		p, err := events.Decode(e)
		if err != nil {
			return err
		}
		switch p := p.(type) {
		case *events.GameCreated:
			commit = p.SeedCommitment
		case *events.OrderAccepted:
			dice = append(dice, p.Dice...)
		case *events.GameEnded:
			seed = p.Seed
		}
		return nil
	})
	if err != nil {
		return err
	}
	source := "the seed revealed at the end of the game"
	if seed == nil {
		if !withSecret {
			fmt.Fprintf(w, "dice: %d rolls; the seed is not revealed yet, so they can be checked when the game ends\n", len(dice))
			return nil
		}
		if seed, err = log.Secret(game); err != nil {
			return err
		}
		source = "the server's stored seed"
	}
	if play.Commit(seed) != commit {
		return fmt.Errorf("dice: %s does not match the commitment logged at creation (%s)", source, commit.Hex())
	}
	sort.Slice(dice, func(i, j int) bool { return dice[i].Index < dice[j].Index })
	var bad []string
	for i, d := range dice {
		if d.Index != uint64(i) {
			bad = append(bad, fmt.Sprintf("roll #%d is missing or repeated", i))
			break
		}
		if err := play.VerifyDie(seed, game, d); err != nil {
			bad = append(bad, err.Error())
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("dice: %d of %d rolls do not verify:\n  %s", len(bad), len(dice), strings.Join(bad, "\n  "))
	}
	fmt.Fprintf(w, "dice: %s matches the commitment; all %d rolls verify\n", source, len(dice))
	return nil
}
