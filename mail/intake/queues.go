package intake

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"pbem/store"
)

// In a cluster (Config.Route set) a mail may have to wait: its game's
// owner is dead or paused until another node takes the game over, or the
// game is being rebuilt on its new owner. Such a mail must hold up only
// its own game. So the intake reads the mailbox in UID order as always,
// but hands every mail addressed to a game to that game's queue, which a
// goroutine of its own offers to Take one mail at a time, in order, and
// offers again later (backing off up to Config.RetryEvery) while Take
// fails. Mails addressed to no game are judged at once, as without Route.
//
// The mailbox's checkpoint says "every mail up to here is taken": it is
// advanced only up to just before the oldest mail still waiting in a
// queue, so a restart reads every waiting mail again (and the mails after
// it: those already taken are recognised by their Message-ID and
// fingerprints, and never applied twice).
type queues struct {
	mu sync.Mutex
	// stale: a session found another UIDVALIDITY or checkpoint and made
	// new queues; this one's goroutines finish their mails but write no
	// checkpoint.
	stale     bool
	validity  uint32
	high      uint32            // the highest UID read (queued or taken)
	persisted uint32            // the checkpoint's UID as last written
	waiting   map[uint32]string // UIDs queued and not yet taken, with their game
	byGame    map[string][]queued
	running   map[string]bool
	taken     []imap.UID // taken since the session last marked mails \Seen
}

type queued struct {
	uid uint32
	raw []byte
}

// safe is the checkpoint's UID as far as it may go now: before the
// oldest waiting mail, else the last read.
func (q *queues) safe() uint32 {
	if len(q.waiting) == 0 {
		return q.high
	}
	low := q.high + 1
	for u := range q.waiting {
		low = min(low, u)
	}
	return low - 1
}

// queuesFor returns the intake's queues for a session that starts from
// the checkpoint cp: the same as before when cp is what they last wrote
// under the same UIDVALIDITY, else new ones (the old ones' mails are
// read again from the mailbox).
func (in *Intake) queuesFor(cp store.Checkpoint) *queues {
	in.mu.Lock()
	defer in.mu.Unlock()
	if q := in.queues; q != nil {
		q.mu.Lock()
		same := q.validity == cp.UIDValidity && q.persisted == cp.UID
		if !same {
			q.stale = true
		}
		q.mu.Unlock()
		if same {
			return q
		}
	}
	in.queues = &queues{validity: cp.UIDValidity, high: cp.UID, persisted: cp.UID,
		waiting: map[uint32]string{}, byGame: map[string][]queued{}, running: map[string]bool{}}
	return in.queues
}

// Waiting returns how many mails wait in their games' queues now (with
// Route: their games' owners could not take them yet).
func (in *Intake) Waiting() int {
	in.mu.Lock()
	q := in.queues
	in.mu.Unlock()
	if q == nil {
		return 0
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.waiting)
}

// fetchQueued is fetchNew with Route set: every message after what the
// queues have read, in UID order, handed to its game's queue (or judged
// at once when it is addressed to no game), and the mails taken since
// the last time marked \Seen.
func (in *Intake) fetchQueued(ctx context.Context, c *imapclient.Client, q *queues) error {
	q.mu.Lock()
	from := q.high
	q.mu.Unlock()
	err := in.fetchAfter(ctx, c, from, func(ms []fetched) ([]imap.UID, error) {
		for _, m := range ms {
			if err := in.enqueue(ctx, q, m.uid, m.raw); err != nil {
				return nil, err
			}
		}
		return nil, nil
	}, func([]imap.UID) { in.markSeen(c, q) })
	if err != nil {
		return err
	}
	in.markSeen(c, q)
	return nil
}

// enqueue hands one mail to its game's queue, or takes it at once.
func (in *Intake) enqueue(ctx context.Context, q *queues, uid uint32, raw []byte) error {
	game, _, addressed := in.Addressed(raw)
	q.mu.Lock()
	defer q.mu.Unlock()
	if !addressed {
		// No game, no owner to wait for: judged here at once, with the
		// checkpoint as far as the waiting mails let it go.
		cp := store.Checkpoint{UIDValidity: q.validity, UID: uid}
		if len(q.waiting) > 0 {
			cp.UID = q.safe()
		}
		if q.stale {
			return fmt.Errorf("the mailbox's queues were replaced")
		}
		if err := in.Take(raw, in.cfg.CheckpointKey, cp); err != nil {
			return err // not taken: read again
		}
		q.high, q.persisted = uid, max(q.persisted, cp.UID)
		q.taken = append(q.taken, imap.UID(uid))
		return nil
	}
	q.high = uid
	q.waiting[uid] = game
	q.byGame[game] = append(q.byGame[game], queued{uid: uid, raw: raw})
	if !q.running[game] {
		q.running[game] = true
		go in.drain(ctx, q, game)
	}
	return nil
}

// drain offers game's queued mails to Take one at a time, in order, each
// again after a pause while it cannot be taken, until the queue is empty
// or ctx ends (the mails left are read again by the next run).
func (in *Intake) drain(ctx context.Context, q *queues, game string) {
	const firstWait = 100 * time.Millisecond
	wait := firstWait
	var since time.Time // when the mail at the head first failed
	for {
		q.mu.Lock()
		if len(q.byGame[game]) == 0 || ctx.Err() != nil {
			delete(q.running, game)
			q.mu.Unlock()
			return
		}
		m := q.byGame[game][0]
		q.mu.Unlock()
		err := in.Take(m.raw, "", store.Checkpoint{})
		if err != nil {
			if since.IsZero() {
				since = time.Now()
				in.lg.Warn("a mail waits: its game cannot take it now; other games' mail goes on", "game", game, "uid", m.uid, "err", err)
			} else {
				in.lg.Debug("a mail still waits", "game", game, "uid", m.uid, "for", time.Since(since).Round(time.Millisecond), "err", err)
			}
			select {
			case <-ctx.Done():
			case <-time.After(wait):
			}
			wait = min(2*wait, in.cfg.RetryEvery)
			continue
		}
		if !since.IsZero() {
			in.lg.Info("a waiting mail was taken", "game", game, "uid", m.uid, "waited", time.Since(since).Round(time.Millisecond))
		}
		wait, since = firstWait, time.Time{}
		q.mu.Lock()
		q.byGame[game] = q.byGame[game][1:]
		if len(q.byGame[game]) == 0 {
			delete(q.byGame, game)
		}
		delete(q.waiting, m.uid)
		q.taken = append(q.taken, imap.UID(m.uid))
		if s := q.safe(); s > q.persisted && !q.stale {
			if err := in.log.PutCheckpoint(in.cfg.CheckpointKey, store.Checkpoint{UIDValidity: q.validity, UID: s}); err != nil {
				in.lg.Warn("advancing the mailbox checkpoint", "err", err)
			} else {
				q.persisted = s
			}
		}
		q.mu.Unlock()
	}
}

// markSeen marks the mails taken since the last call \Seen.
func (in *Intake) markSeen(c *imapclient.Client, q *queues) {
	q.mu.Lock()
	done := q.taken
	q.taken = nil
	q.mu.Unlock()
	if len(done) == 0 {
		return
	}
	flags := &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagSeen}}
	if err := c.Store(imap.UIDSetNum(done...), flags, nil).Close(); err != nil {
		in.lg.Warn("marking mails \\Seen", "err", err)
	}
}
