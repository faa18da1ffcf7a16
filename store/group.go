package store

import (
	"slices"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// job is one unit of work for a group committer: apply writes it inside
// the shared transaction (it may run more than once, so it must recompute
// everything from the transaction's view); fail records an error that
// failed the transaction with the job alone in it; done is called once,
// after the transaction committed or failed, in the order jobs were
// queued.
type job interface {
	apply(tx *bolt.Tx) error
	fail(err error)
	done()
}

// group commits queued jobs to one bbolt file, as many as are waiting
// per transaction: one fsync for the lot. Both the event log (Store) and
// the other files (KV) write through one.
//
// Writers released by a commit come straight back with their next job,
// but not all at the same instant; taking only what is queued at that
// moment splits them into alternating half batches. So the loop also
// waits a little (at most gatherWait, far below one fsync) for as many
// jobs as the largest of the last few batches carried (gatherMemory). A
// lone writer's batches are one, so it never waits: no fixed delay,
// unlike bbolt's Batch timer.
//
// Expecting only the last batch's size let a busy server fall into small
// batches and stay there: one short batch made the next expect little,
// more commits carried fewer jobs each, and every stage waited longer
// for its commit. pbem bench's throughput, 2000 orders in 16 games, in
// turn on one machine: 724, 719, 896 orders/s expecting the last batch;
// 929, 917, 916 expecting the largest of the last eight (mail → reply
// latency unchanged: p50 3.4-3.7 ms above the floor either way).
type group struct {
	db       *bolt.DB
	maxBatch int
	// onCommit, when set, is called after each transaction with the number
	// of jobs it carried and the time it took, fsync included (for
	// statistics).
	onCommit func(jobs int, took time.Duration)

	jobs    chan job
	stop    chan struct{}
	stopped chan struct{}
	closeMu sync.RWMutex
	closed  bool
}

func newGroup(db *bolt.DB, maxBatch int, onCommit func(int, time.Duration)) *group {
	g := &group{db: db, maxBatch: maxBatch, onCommit: onCommit,
		jobs: make(chan job, 4096), stop: make(chan struct{}), stopped: make(chan struct{})}
	go g.loop()
	return g
}

// do queues j and returns false if the group is closed (j is not run).
// j.done is called once j is committed or has failed.
func (g *group) do(j job) bool {
	g.closeMu.RLock()
	defer g.closeMu.RUnlock()
	if g.closed {
		return false
	}
	g.jobs <- j
	return true
}

// close finishes the jobs already queued, then stops the loop.
func (g *group) close() {
	g.closeMu.Lock()
	if g.closed {
		g.closeMu.Unlock()
		return
	}
	g.closed = true
	g.closeMu.Unlock()
	close(g.stop)
	<-g.stopped
}

// gatherWait bounds how long a commit waits for the writers of the
// previous batch to come back (an fsync here takes about 2 ms).
const gatherWait = 300 * time.Microsecond

// gatherMemory is how many of the last batches a commit looks back on for
// the jobs it waits for.
const gatherMemory = 8

func (g *group) loop() {
	defer close(g.stopped)
	batch := make([]job, 0, g.maxBatch)
	var recent [gatherMemory]int // the last batches' sizes
	expect, k := 1, 0
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case j := <-g.jobs:
			batch = append(batch[:0], j)
		case <-g.stop:
			// Finish what is queued, then stop: no acknowledged write is lost.
			for {
				select {
				case j := <-g.jobs:
					g.commit([]job{j})
				default:
					return
				}
			}
		}
		g.drain(&batch)
		if len(batch) < expect {
			timer.Reset(gatherWait)
		gather:
			for len(batch) < expect && len(batch) < g.maxBatch {
				select {
				case j := <-g.jobs:
					batch = append(batch, j)
					g.drain(&batch)
				case <-timer.C:
					break gather
				}
			}
			if !timer.Stop() {
				select {
				case <-timer.C:
				default:
				}
			}
		}
		recent[k%gatherMemory] = len(batch)
		k++
		expect = slices.Max(recent[:])
		g.commit(batch)
	}
}

func (g *group) drain(batch *[]job) {
	for len(*batch) < g.maxBatch {
		select {
		case j := <-g.jobs:
			*batch = append(*batch, j)
		default:
			return
		}
	}
}

// commit runs batch in one transaction. A failed transaction writes
// nothing: each job is then retried alone, so one bad job (or one that
// meets a full disk first) cannot fail the others for good.
func (g *group) commit(batch []job) {
	start := time.Now()
	err := guard(func() error {
		return g.db.Update(func(tx *bolt.Tx) error {
			for _, j := range batch {
				if err := j.apply(tx); err != nil {
					return err
				}
			}
			return nil
		})
	})
	if err != nil {
		if len(batch) > 1 {
			for _, j := range batch {
				g.commit([]job{j})
			}
			return
		}
		batch[0].fail(err)
	}
	if g.onCommit != nil {
		g.onCommit(len(batch), time.Since(start))
	}
	for _, j := range batch {
		j.done()
	}
}
