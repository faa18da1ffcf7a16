package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Liveness is per node, ownership per game:
//
//   - A node's lease is its key in pbem_nodes, put every Lease/3 (a
//     heartbeat). Nothing per game is written to keep games: a node with
//     10,000 games writes one key per third of a lease, not 10,000.
//   - A game's owner record in pbem_owners (node, epoch, head) changes only
//     when the game changes hands: a takeover, a move, a release. Its
//     revision is the fence every append carries.
//   - No node compares its clock with another's. Others judge a node's
//     lease by their own monotonic clock: it has lapsed once Lease has
//     passed since they saw its heartbeat's revision change (the bucket's
//     watch). The node itself stops appending, by its own monotonic clock,
//     Lease - Lease/5 after it SENT its last heartbeat that was
//     acknowledged: no observer can have seen that heartbeat before it was
//     sent, so every observer's Lease runs out after the owner stopped.
//     Lease > Lease/3 (renewal) + Lease/5 (margin) leaves a renewal or
//     two of slack. Server-side TTLs (per-key TTL, MaxAge) were not used:
//     they need the bucket made with limit markers, and expire by the wall
//     clock of whichever server leads the bucket at the time, which moves
//     with the leader.
//   - Whatever the clocks do, the stream fences: a takeover publishes a
//     fence on the game's subject, and a stale owner's append expecting an
//     older last sequence is refused by the server.

// selfMargin is how long before others may judge this node lapsed that it
// stops appending.
func (n *Node) selfMargin() time.Duration { return n.cfg.Lease / 5 }

// seenNode is when this node last saw another node's heartbeat change.
type seenNode struct {
	rev uint64
	at  time.Time // this process's monotonic clock
}

// ownedGames lists the games this node owns, sorted.
func (n *Node) ownedGames() []string {
	n.mu.Lock()
	games := make([]string, 0, len(n.owned))
	for g := range n.owned {
		games = append(games, g)
	}
	n.mu.Unlock()
	sort.Strings(games)
	return games
}

// withHead returns l carrying the local head of game (what a takeover
// checks the stream against).
func (n *Node) withHead(game string, l Lease) Lease {
	if h, err := n.st.Head(game); err == nil {
		l.Seq, l.Hash = h.Seq, hexHash(h.Hash)
	}
	return l
}

// heartbeat renews this node's lease (and says whether it drains). The
// node may append until Lease - selfMargin after the moment it sent an
// acknowledged heartbeat. It reports whether the node's lease had lapsed
// before this renewal (it was paused, or cut off from NATS).
func (n *Node) heartbeat(ctx context.Context, draining bool) (wasLapsed bool, err error) {
	sent := time.Now()
	b := fmt.Appendf(nil, `{"draining":%t}`, draining)
	rev, err := n.nodes.Put(ctx, n.name, b)
	if err != nil {
		return false, err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	wasLapsed = !n.liveUntil.IsZero() && !time.Now().Before(n.liveUntil)
	n.liveUntil = sent.Add(n.cfg.Lease - n.selfMargin())
	n.isDraining = draining
	n.members[n.name] = Member{Draining: draining}
	n.seen[n.name] = seenNode{rev: rev, at: sent}
	if wasLapsed {
		// What this node saw of the others is as old as its pause: give
		// each a whole lease from now, rather than take games from nodes
		// that kept renewing while this one could not see it.
		now := time.Now()
		for k, s := range n.seen {
			if k != n.name {
				s.at = now
				n.seen[k] = s
			}
		}
	}
	return wasLapsed, nil
}

// selfAliveLocked: this node's own lease runs (by its own clock).
func (n *Node) selfAliveLocked(now time.Time) bool { return now.Before(n.liveUntil) }

// aliveLocked: node's lease has not lapsed as this node judges it.
func (n *Node) aliveLocked(node string, now time.Time) bool {
	if node == n.name {
		return n.selfAliveLocked(now)
	}
	return now.Before(n.lapsesLocked(node))
}

// lapsesLocked is when node's lease lapses (lapsed) by this node's clock: a
// lease after its heartbeat was last seen to change, or after this node
// began watching for a node it never saw.
func (n *Node) lapsesLocked(node string) time.Time {
	s, ok := n.seen[node]
	if !ok {
		return n.started.Add(n.cfg.Lease)
	}
	return s.at.Add(n.cfg.Lease)
}

// watchStale is how long the watch may go without delivering this node's
// own heartbeat (put every Lease/3) before this node stops judging others
// by it: a watch that lags or reconnects would make live nodes look
// lapsed.
func (n *Node) watchStale() time.Duration { return 2 * n.cfg.Lease / 3 }

// sawSelfLocked notes that the watch delivered this node's own heartbeat.
// After a gap in the watch, what it said of the others is stale: each is
// given a whole lease from now.
func (n *Node) sawSelfLocked(now time.Time) {
	if !n.watchAt.IsZero() && now.Sub(n.watchAt) > n.watchStale() {
		for k, s := range n.seen {
			if k != n.name {
				s.at = now
				n.seen[k] = s
			}
		}
	}
	n.watchAt = now
}

// watchFreshLocked: the watch delivered this node's own heartbeat lately,
// so its silence about another node means that node is silent.
func (n *Node) watchFreshLocked(now time.Time) bool { return now.Sub(n.watchAt) <= n.watchStale() }

// watch follows both buckets: the initial values are in before it returns.
func (n *Node) watch(ctx context.Context) error {
	for _, w := range []struct {
		kv  jetstream.KeyValue
		put func(key string, value []byte, rev uint64)
		del func(key string)
	}{
		{n.owners, n.sawOwner, func(k string) { n.mu.Lock(); delete(n.view, k); n.mu.Unlock() }},
		{n.nodes, func(k string, v []byte, rev uint64) {
			var m Member
			if err := jsonUnmarshal(v, &m); err != nil {
				return
			}
			now := time.Now()
			n.mu.Lock()
			n.members[k] = m
			if k == n.name {
				n.sawSelfLocked(now)
			} else if s := n.seen[k]; rev != s.rev {
				n.seen[k] = seenNode{rev: rev, at: now}
			}
			n.mu.Unlock()
		}, func(k string) { n.mu.Lock(); delete(n.members, k); delete(n.seen, k); n.mu.Unlock() }},
	} {
		// A cluster still electing its leaders answers slowly: retry, as
		// Open does for the assets. The watcher lives on after this call,
		// so it is not given the attempt's context.
		var kw jetstream.KeyWatcher
		err := retry(ctx, 30*time.Second, func(context.Context) error {
			var err error
			kw, err = w.kv.WatchAll(context.Background())
			return err
		})
		if err != nil {
			return fmt.Errorf("cluster: watching: %w", err)
		}
		ready := make(chan struct{})
		n.wg.Add(1)
		go func() {
			defer n.wg.Done()
			defer kw.Stop()
			initial := true
			for {
				select {
				case <-n.stop:
					return
				case e, ok := <-kw.Updates():
					if !ok {
						return
					}
					if e == nil {
						if initial {
							initial = false
							close(ready)
						}
						continue
					}
					if e.Operation() == jetstream.KeyValuePut {
						w.put(e.Key(), e.Value(), e.Revision())
					} else {
						w.del(e.Key())
					}
				}
			}
		}()
		select {
		case <-ready:
		case <-ctx.Done():
			return fmt.Errorf("cluster: watching: %w", ctx.Err())
		case <-time.After(30 * time.Second):
			return errors.New("cluster: watching: no initial values within 30s")
		}
	}
	return nil
}

// sawOwner records a game's owner record as the watch delivers it. A
// record of a game this node owns that moved past the revision it holds
// means another node took the game: this node drops it at once (its
// appends would be refused by the stream's fence anyway).
func (n *Node) sawOwner(k string, v []byte, rev uint64) {
	l, err := decodeLease(v)
	if err != nil {
		n.lg.Warn("an owner record that does not parse", "game", k, "err", err)
		return
	}
	n.mu.Lock()
	if cur, ok := n.view[k]; !ok || rev >= cur.rev {
		n.view[k] = entry{Lease: l, rev: rev, at: time.Now()}
	}
	o := n.owned[k]
	n.mu.Unlock()
	if o != nil && rev > o.rev {
		why := fmt.Sprintf("its owner record moved to revision %d (%s): another node took it", rev, l.Node)
		if l.Node == "" {
			// This node's own move or release, seen on the watch before
			// Move or Release drops the game itself.
			why = fmt.Sprintf("its owner record moved to revision %d: released (for %q)", rev, l.To)
		}
		n.lose(k, o, why)
	}
}

// loop runs fn every Lease/3 until the node closes. Renewing and taking
// over run in loops of their own: a mass takeover must not hold up the
// heartbeat (the node's own lease would lapse in the middle of it).
func (n *Node) loop(fn func()) {
	defer n.wg.Done()
	t := time.NewTicker(n.cfg.Lease / 3)
	defer t.Stop()
	for {
		select {
		case <-n.stop:
			return
		case <-t.C:
			fn()
		}
	}
}

func (n *Node) draining() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.isDraining
}

// held returns game's ownership record, if this node holds it, with a
// copy of its lease and revision, read under n.mu.
func (n *Node) held(game string) (*owned, Lease, uint64) {
	n.mu.Lock()
	defer n.mu.Unlock()
	o := n.owned[game]
	if o == nil {
		return nil, Lease{}, 0
	}
	return o, o.lease, o.rev
}

// renew puts this node's heartbeat: one write, however many games the
// node owns. After a lapse (a pause past the lease, a cut from NATS) it
// checks every game it holds against its owner record, and drops those
// another node took meanwhile.
func (n *Node) renew() {
	ctx, cancel := n.ctx()
	defer cancel()
	wasLapsed, err := n.heartbeat(ctx, n.draining())
	if err != nil {
		n.lg.Warn("heartbeat failed", "err", err)
		return
	}
	if !wasLapsed {
		return
	}
	n.lg.Warn("this node's lease had lapsed (paused or cut off); checking the games it held")
	for _, g := range n.ownedGames() {
		o, _, rev := n.held(g)
		if o == nil {
			continue
		}
		gctx, gcancel := n.ctx()
		e, err := n.owners.Get(gctx, g)
		gcancel()
		switch {
		case errors.Is(err, jetstream.ErrKeyNotFound):
			n.lose(g, o, "its owner record is gone")
		case err != nil:
			n.lg.Warn("checking a game's owner record", "game", g, "err", err)
		case e.Revision() != rev:
			n.lose(g, o, "another node took it while this node's lease had lapsed")
		}
	}
}

// takers is how many takeovers a node runs at once: each waits on the
// stream and the owner bucket (replicated writes), and the local commits
// of several share fsyncs (the store commits in groups).
const takers = 8

// scan takes over the games whose owners' node leases lapsed (or were
// released or handed to this node). Of the live nodes, the one a game was
// handed to takes it, else the least loaded; once a game has waited
// another whole lease, any live node not draining may (the chosen one may
// be stuck). A node whose own lease lapsed takes nothing.
func (n *Node) scan() {
	now := time.Now()
	n.mu.Lock()
	if !n.selfAliveLocked(now) || !n.watchFreshLocked(now) {
		n.mu.Unlock()
		return
	}
	var todo []GameLease
	for g, e := range n.view {
		if n.owned[g] != nil {
			continue
		}
		var since time.Time // when the game began to wait for a taker
		switch {
		case e.Node == n.name && e.To == "":
			// A record in this node's name it does not hold: this node
			// restarted (after a crash). Take it back at once.
			todo = append(todo, GameLease{Game: g, Lease: e.Lease, Rev: e.rev})
			continue
		case e.Node == "":
			since = e.at // released, or handed to e.To
		case n.aliveLocked(e.Node, now):
			continue
		default:
			since = n.lapsesLocked(e.Node)
		}
		taker := ""
		if e.To != "" && n.aliveLocked(e.To, now) {
			taker = e.To
		} else {
			if t, err := n.leastLoadedLocked(now, ""); err == nil {
				taker = t
			}
		}
		late := !now.Before(since.Add(n.cfg.Lease))
		if taker == n.name || (late && !n.isDraining) {
			todo = append(todo, GameLease{Game: g, Lease: e.Lease, Rev: e.rev})
		}
	}
	n.mu.Unlock()
	sort.Slice(todo, func(i, j int) bool { return todo[i].Game < todo[j].Game })
	work := make(chan GameLease)
	var wg sync.WaitGroup
	for range min(takers, len(todo)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for gl := range work {
				l := n.lock(gl.Game)
				l.Lock()
				err := error(nil)
				// Held already (a new game's first take finished meanwhile,
				// or the node's own lease is only late): not taken again.
				if o, _, _ := n.held(gl.Game); o == nil {
					err = n.take(gl.Game, entry{Lease: gl.Lease, rev: gl.Rev}, false)
				}
				l.Unlock()
				if err != nil {
					n.lg.Debug("taking over a game failed (another node may have)", "game", gl.Game, "err", err)
				}
			}
		}()
	}
feed:
	for _, gl := range todo {
		select {
		case <-n.stop:
			break feed
		case work <- gl:
		}
	}
	close(work)
	wg.Wait()
}

// Release gives up every game this node holds, by compare-and-set on
// their owner records, so that other nodes take them at once (a clean
// shutdown).
func (n *Node) Release() {
	games := n.ownedGames()
	for _, g := range games {
		lk := n.lock(g)
		lk.Lock()
		o, l, rev := n.held(g)
		if o != nil {
			l.Node, l.To = "", ""
			l = n.withHead(g, l)
			ctx, cancel := n.ctx()
			if _, err := n.owners.Update(ctx, g, encodeLease(l), rev); err != nil {
				n.lg.Warn("releasing a game", "game", g, "err", err)
			}
			cancel()
			n.lose(g, o, "released at shutdown")
		}
		lk.Unlock()
	}
}

// takeRequest is what a releasing node sends the node it handed a game
// to: the game, and the revision of the owner record it wrote (the hand-off).
// A bare game name (no revision) is taken too.
type takeRequest struct {
	Game string `json:"game"`
	Rev  uint64 `json:"rev"`
}

// onTake answers a request to take a game handed to this node.
func (n *Node) onTake(m *nats.Msg) {
	var req takeRequest
	if json.Unmarshal(m.Data, &req) != nil || req.Game == "" {
		req = takeRequest{Game: string(m.Data)}
	}
	err := n.takeHanded(req.Game, req.Rev)
	reply := "ok"
	if err != nil {
		reply = "error: " + err.Error()
	}
	m.Respond([]byte(reply))
}

// handWait bounds how long a node asked to take a game waits for the
// owner record to reach the revision the releasing node wrote.
const handWait = 5 * time.Second

// takeHanded takes game, handed to this node by the owner record's
// revision rev (0: not said). The record is read on the bucket's leader,
// never by a direct get a lagging replica may answer with the record
// before the hand-off; and under the game's lock, after checking whether
// this node holds the game already: its scan, seeing the hand-off on the
// watch, may have taken it before the request arrived (then the record
// names this node, and is not "handed" any more).
func (n *Node) takeHanded(game string, rev uint64) error {
	lk := n.lock(game)
	lk.Lock()
	defer lk.Unlock()
	if o, _, _ := n.held(game); o != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), handWait)
	defer cancel()
	for {
		l, cur, err := n.ownerOnLeader(ctx, game)
		switch {
		case err != nil:
			return fmt.Errorf("game %s: reading its owner record: %w", game, err)
		case cur < rev:
			// Not the revision the releasing node wrote yet: wait for it.
			select {
			case <-ctx.Done():
				return fmt.Errorf("game %s: its owner record is at revision %d, not yet at the hand-off's %d, after %v", game, cur, rev, handWait)
			case <-time.After(20 * time.Millisecond):
			}
			continue
		case l.To == n.name && l.Node == "":
			return n.take(game, entry{Lease: l, rev: cur}, false)
		case cur == 0:
			return fmt.Errorf("game %s has no owner record", game)
		case l.Node == n.name:
			return fmt.Errorf("game %s: its owner record names %s (revision %d), but this node could not take it over (see its log)", game, n.name, cur)
		case l.Node == "":
			return fmt.Errorf("game %s is not handed to %s: its owner record (revision %d) is released for %q", game, n.name, cur, l.To)
		case rev != 0 && cur > rev:
			// Another node took it after the hand-off: it does so only
			// once the hand-off has waited a whole lease (or this node
			// looked dead), so the hand-off lapsed before this request
			// was taken up (a loaded machine), a true reason.
			return fmt.Errorf("game %s: the hand-off to %s lapsed before %s took it, and node %s took it (owner record revision %d, the hand-off's was %d)", game, n.name, n.name, l.Node, cur, rev)
		default:
			return fmt.Errorf("game %s is not handed to %s: node %s took it (owner record revision %d, the hand-off's was %d)", game, n.name, l.Node, cur, rev)
		}
	}
}

// ownerOnLeader reads game's owner record on its bucket's leader: the
// record and its revision (0: no record).
func (n *Node) ownerOnLeader(ctx context.Context, game string) (Lease, uint64, error) {
	seq, h, data, err := lastMsgOnLeader(ctx, n.nc, "KV_"+OwnersBucket, "$KV."+OwnersBucket+"."+game)
	if err != nil || seq == 0 {
		return Lease{}, 0, err
	}
	if op := h.Get("KV-Operation"); op == "DEL" || op == "PURGE" {
		return Lease{}, 0, nil
	}
	l, err := decodeLease(data)
	if err != nil {
		return Lease{}, 0, fmt.Errorf("the owner record does not parse: %w", err)
	}
	return l, seq, nil
}

// Move hands game, which this node owns, to node to: its owner record is
// released for to (by compare-and-set), the game dropped here, and to is
// asked to take it (if it does not answer, its scan takes it; if it is
// dead, another node does once the hand-off has waited a lease).
func (n *Node) Move(game, to string) error {
	if to == n.name {
		return fmt.Errorf("game %s is on %s already", game, to)
	}
	n.mu.Lock()
	_, ok := n.members[to]
	alive := ok && n.aliveLocked(to, time.Now())
	n.mu.Unlock()
	if !alive {
		return fmt.Errorf("node %s is not a live member of the cluster", to)
	}
	lk := n.lock(game)
	lk.Lock()
	o, l, rev := n.held(game)
	if o == nil {
		lk.Unlock()
		return &NotOwnerError{Game: game, Owner: n.Owner(game)}
	}
	l.Node, l.To = "", to
	l = n.withHead(game, l)
	ctx, cancel := n.ctx()
	defer cancel()
	handed, err := n.owners.Update(ctx, game, encodeLease(l), rev)
	if err != nil {
		lk.Unlock()
		if errors.Is(err, jetstream.ErrKeyRevisionMismatch) || isWrongLast(err) {
			n.lose(game, o, "another node took the game")
		}
		return fmt.Errorf("releasing %s: %w", game, err)
	}
	n.lose(game, o, "moved to "+to)
	lk.Unlock()
	req, _ := json.Marshal(takeRequest{Game: game, Rev: handed})
	resp, err := n.nc.Request(NodeSubject(to, "take"), req, 30*time.Second)
	if err != nil {
		return fmt.Errorf("game %s released for %s, which has not confirmed (it takes it at its next scan): %w", game, to, err)
	}
	if s := string(resp.Data); s != "ok" {
		return fmt.Errorf("game %s released for %s: %s", game, to, s)
	}
	return nil
}

// Drain marks this node as draining (no new games, no takeovers) and
// moves every game it owns to the least-loaded other node. It returns
// what went where.
func (n *Node) Drain() ([]string, error) {
	ctx, cancel := n.ctx()
	_, err := n.heartbeat(ctx, true)
	cancel()
	if err != nil {
		return nil, err
	}
	games := n.ownedGames()
	var out []string
	var errs []error
	for _, g := range games {
		to, err := n.LeastLoaded(n.name)
		if err == nil {
			err = n.Move(g, to)
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, g+" -> "+to)
	}
	return out, errors.Join(errs...)
}

// Undrain lets this node take games again.
func (n *Node) Undrain() error {
	ctx, cancel := n.ctx()
	defer cancel()
	_, err := n.heartbeat(ctx, false)
	return err
}

// SharedSecret returns the cluster's secret called name, made by gen by
// the first node that asks (every node keys reply tokens alike, so a game
// moved to another node still knows its players' keys).
func (n *Node) SharedSecret(name string, gen func() ([]byte, error)) ([]byte, error) {
	ctx, cancel := n.ctx()
	defer cancel()
	for range 5 {
		e, err := n.shared.Get(ctx, name)
		if err == nil {
			return e.Value(), nil
		}
		if !errors.Is(err, jetstream.ErrKeyNotFound) {
			return nil, fmt.Errorf("shared secret %s: %w", name, err)
		}
		v, err := gen()
		if err != nil {
			return nil, err
		}
		if _, err := n.shared.Create(ctx, name, v); err == nil {
			return v, nil
		} else if !errors.Is(err, jetstream.ErrKeyExists) {
			return nil, fmt.Errorf("shared secret %s: %w", name, err)
		}
	}
	return nil, fmt.Errorf("shared secret %s: could not read or make it", name)
}

// The last head an owner acknowledged is what a takeover checks the
// stream against (a stream that lost acknowledged appends is refused).
// The owner record holds the head as of the game's last change of hands;
// pbem_heads holds a fresher one, put by the owner at most once a lease
// for each game whose head moved in that lease: writes follow the games'
// activity (a game waiting a week for its orders costs nothing), not their
// number, and the owner record stays unwritten between hand-overs.
type headRecord struct {
	Epoch uint64 `json:"epoch"`
	Seq   uint64 `json:"seq"`
	Hash  string `json:"hash"`
}

// recordHeads puts the heads of the games this node owns that moved since
// they were last put.
func (n *Node) recordHeads() {
	for _, g := range n.ownedGames() {
		o, l, _ := n.held(g)
		if o == nil {
			continue
		}
		h, err := n.st.Head(g)
		n.mu.Lock()
		moved := err == nil && h.Seq != o.recorded
		n.mu.Unlock()
		if !moved {
			continue
		}
		b, _ := json.Marshal(headRecord{Epoch: l.Epoch, Seq: h.Seq, Hash: hexHash(h.Hash)})
		ctx, cancel := n.ctx()
		_, err = n.heads.Put(ctx, g, b)
		cancel()
		if err != nil {
			n.lg.Warn("recording a game's head", "game", g, "err", err)
			continue
		}
		n.mu.Lock()
		o.recorded = h.Seq
		n.mu.Unlock()
	}
}

// lastHead is the head a takeover checks the stream against: the owner
// record's, or the fresher one its owner put in pbem_heads under the same
// epoch.
func (n *Node) lastHead(ctx context.Context, game string, cur Lease) Lease {
	e, err := n.heads.Get(ctx, game)
	if err != nil {
		if !errors.Is(err, jetstream.ErrKeyNotFound) {
			n.lg.Warn("reading a game's last head; checking the owner record's", "game", game, "err", err)
		}
		return cur
	}
	var h headRecord
	if json.Unmarshal(e.Value(), &h) == nil && h.Epoch == cur.Epoch && h.Seq > cur.Seq {
		cur.Seq, cur.Hash = h.Seq, h.Hash
	}
	return cur
}

// recordHeadsEveryLease returns a step for loop (every Lease/3) that
// records heads every third step: once a lease.
func (n *Node) recordHeadsEveryLease() func() {
	step := 0
	return func() {
		if step++; step%3 == 0 {
			n.recordHeads()
		}
	}
}
