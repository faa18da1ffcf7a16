package intake

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"pbem/events"
	"pbem/internal/waitfor"
	"pbem/mail/token"
)

// Mails of several games that wait in the mailbox together are read as
// one batch, and their orders are committed in one transaction with the
// mailbox's checkpoint: one fsync for the lot, and no mail is taken
// without the checkpoint passing it, or the checkpoint passes a mail not
// taken. Each game's orders are in its log in the order they came. A
// copy of a mail of the batch under a new Message-ID is answered as a
// copy (the player is told), which takes a transaction of its own, and
// the checkpoint still ends past the whole batch.
func TestABatchOfSeveralGamesMailsIsOneCommitWithItsCheckpoint(t *testing.T) {
	for _, c := range []struct {
		name    string
		copies  bool
		commits uint64 // the store's transactions while the batch is taken (0: not checked)
	}{
		{"every mail new", false, 1},
		{"with a copy of one of them", true, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := newGame(t)
			gc := &events.GameCreated{Ruleset: "gcacw", Players: []events.Player{
				{ID: "usa", Side: "USA", Addresses: []string{"anna@example.org"}},
				{ID: "csa", Side: "CSA", Addresses: []string{"taro@example.jp"}},
			}}
			if _, err := st.Append("g2", 0, events.New("g2", time.Unix(0, 0), "", gc)); err != nil {
				t.Fatal(err)
			}
			host := startHost(t, "127.0.0.1:0", "127.0.0.1:0")
			defer host.Close()
			type sent struct{ game, id, text string }
			var all []sent
			for i := range 3 {
				for _, game := range []string{"g1", "g2"} {
					s := sent{game, fmt.Sprintf("<%s-%d@x>", game, i), fmt.Sprintf("MARCH Unit%d 2314 2315\n", i)}
					all = append(all, s)
					deliver(t, host, "anna@example.org", mail("anna@example.org", token.Address(secret, "pbem", domain, game, "usa"), "Re: [pbem "+game+"] your move", s.id, "", s.text))
				}
			}
			if c.copies {
				// The first mail of g2 again, under a Message-ID of its own.
				deliver(t, host, "anna@example.org", mail("anna@example.org", token.Address(secret, "pbem", domain, "g2", "usa"), "Re: [pbem g2] your move", "<copy@x>", "", all[1].text))
			}
			before := st.Stats().Commits
			in := New(Config{Addr: host.IMAPAddr(), Username: "pbem", Password: "secret", Local: "pbem", Domain: domain, Secret: secret, Senders: transportAuth}, st)
			ctx, cancel := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			wg.Go(func() { in.Run(ctx) })
			defer func() { cancel(); wg.Wait() }()
			n := len(all)
			if c.copies {
				n++
			}
			waitfor.Until(t, 15*time.Second, "every mail taken and the checkpoint past them", func() bool {
				cp, _ := st.Checkpoint("INBOX")
				return in.Processed() >= n && cp.UID >= uint32(n)
			})
			if c.commits != 0 {
				if got := st.Stats().Commits - before; got != c.commits {
					t.Errorf("%d transactions for the batch; want %d", got, c.commits)
				}
			}
			if cp, _ := st.Checkpoint("INBOX"); cp.UID != uint32(n) {
				t.Errorf("checkpoint at UID %d; want %d, past the whole batch", cp.UID, n)
			}
			for _, game := range []string{"g1", "g2"} {
				es, err := st.Events(game, 2)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				refused := 0
				for i := range es {
					p, _ := events.Decode(&es[i])
					switch p := p.(type) {
					case *events.OrderReceived:
						got = append(got, p.MessageID)
					case *events.MailRefused:
						if p.Kind == events.RefusedReplay && p.MessageID == "<copy@x>" {
							refused++
						}
					}
				}
				var want []string
				for _, s := range all {
					if s.game == game {
						want = append(want, s.id)
					}
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("%s's orders %v; want %v, in the order they came", game, got, want)
				}
				if wantRefused := 0; c.copies && game == "g2" && refused != 1 || !c.copies && refused != wantRefused {
					t.Errorf("%s: %d refusals of the copy; want one in g2 when there is a copy", game, refused)
				}
			}
		})
	}
}
