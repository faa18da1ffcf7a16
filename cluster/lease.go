package cluster

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

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

// heartbeat records this node as alive for one lease (and whether it
// drains).
func (n *Node) heartbeat(ctx context.Context, draining bool) error {
	m := Member{Expires: n.now().Add(n.cfg.Lease).UnixMilli(), Draining: draining}
	b := []byte(fmt.Sprintf(`{"expires":%d,"draining":%t}`, m.Expires, m.Draining))
	if _, err := n.nodes.Put(ctx, n.name, b); err != nil {
		return err
	}
	n.mu.Lock()
	n.members[n.name] = m
	n.mu.Unlock()
	return nil
}

// watch follows both buckets: the initial values are in before it returns.
func (n *Node) watch(ctx context.Context) error {
	for _, w := range []struct {
		kv  jetstream.KeyValue
		put func(key string, value []byte, rev uint64)
		del func(key string)
	}{
		{n.owners, func(k string, v []byte, rev uint64) {
			l, err := decodeLease(v)
			if err != nil {
				n.lg.Warn("a lease that does not parse", "game", k, "err", err)
				return
			}
			n.mu.Lock()
			if cur, ok := n.view[k]; !ok || rev >= cur.rev {
				n.view[k] = entry{Lease: l, rev: rev}
			}
			n.mu.Unlock()
		}, func(k string) { n.mu.Lock(); delete(n.view, k); n.mu.Unlock() }},
		{n.nodes, func(k string, v []byte, _ uint64) {
			var m Member
			if err := jsonUnmarshal(v, &m); err != nil {
				return
			}
			n.mu.Lock()
			n.members[k] = m
			n.mu.Unlock()
		}, func(k string) { n.mu.Lock(); delete(n.members, k); n.mu.Unlock() }},
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

// loop renews this node's leases and takes over games whose owners
// stopped renewing, every Lease/3.
func (n *Node) loop() {
	defer n.wg.Done()
	t := time.NewTicker(n.cfg.Lease / 3)
	defer t.Stop()
	for {
		select {
		case <-n.stop:
			return
		case <-t.C:
			n.renew()
			n.scan()
		}
	}
}

func (n *Node) draining() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.members[n.name].Draining
}

// held returns game's ownership record, if this node holds it, with a
// copy of its lease and revision, read under n.mu (renew replaces them
// there while appends, moves and releases read them).
func (n *Node) held(game string) (*owned, Lease, uint64) {
	n.mu.Lock()
	defer n.mu.Unlock()
	o := n.owned[game]
	if o == nil {
		return nil, Lease{}, 0
	}
	return o, o.lease, o.rev
}

// renew extends every lease this node holds by compare-and-set on its
// revision: a revision that moved means another node took the game.
func (n *Node) renew() {
	ctx, cancel := n.ctx()
	defer cancel()
	if err := n.heartbeat(ctx, n.draining()); err != nil {
		n.lg.Warn("heartbeat failed", "err", err)
	}
	games := n.ownedGames()
	for _, g := range games {
		o, held, heldRev := n.held(g)
		if o == nil {
			continue
		}
		if held.expired(n.now()) {
			// Paused or cut off past the lease: another node may own it now.
			// Ask the bucket rather than renew blindly: Update by revision
			// settles it either way.
			n.lg.Warn("renewing a lease that ran out", "game", g)
		}
		l := held
		l.Expires = n.now().Add(n.cfg.Lease).UnixMilli()
		l = n.withHead(g, l)
		rev, err := n.owners.Update(ctx, g, encodeLease(l), heldRev)
		switch {
		case errors.Is(err, jetstream.ErrKeyRevisionMismatch), isWrongLast(err), errors.Is(err, jetstream.ErrKeyNotFound):
			n.lose(g, o, "another node took the lease")
		case err != nil:
			n.lg.Warn("renewing a lease failed; retrying", "game", g, "err", err)
		default:
			n.mu.Lock()
			if n.owned[g] == o {
				o.rev, o.lease = rev, l
				n.view[g] = entry{Lease: l, rev: rev}
			}
			n.mu.Unlock()
		}
	}
}

// scan takes over the games whose leases ran out (or were handed to this
// node). Of the live nodes, the one a lease was handed to takes it, else
// the least loaded; once a lease has been out for another whole lease,
// any live node may (the chosen one may be stuck).
func (n *Node) scan() {
	now := n.now()
	n.mu.Lock()
	var todo []GameLease
	for g, e := range n.view {
		if n.owned[g] != nil || !e.expired(now) {
			continue
		}
		taker := ""
		if m, ok := n.members[e.To]; e.To != "" && ok && now.UnixMilli() < m.Expires {
			taker = e.To
		} else if t, err := n.leastLoadedLocked(now, ""); err == nil {
			taker = t
		}
		late := now.UnixMilli() >= e.Expires+n.cfg.Lease.Milliseconds()
		if taker == n.name || (late && !n.members[n.name].Draining) {
			todo = append(todo, GameLease{Game: g, Lease: e.Lease, Rev: e.rev})
		}
	}
	// A lease in this node's name it does not hold: this node restarted
	// (after a crash) before the lease ran out. Take it back at once.
	for g, e := range n.view {
		if n.owned[g] == nil && e.Node == n.name && !e.expired(now) && e.To == "" {
			todo = append(todo, GameLease{Game: g, Lease: e.Lease, Rev: e.rev})
		}
	}
	n.mu.Unlock()
	sort.Slice(todo, func(i, j int) bool { return todo[i].Game < todo[j].Game })
	for _, gl := range todo {
		select {
		case <-n.stop:
			return
		default:
		}
		l := n.lock(gl.Game)
		l.Lock()
		err := n.take(gl.Game, entry{Lease: gl.Lease, rev: gl.Rev}, false)
		l.Unlock()
		if err != nil {
			n.lg.Debug("taking over a game failed (another node may have)", "game", gl.Game, "err", err)
		}
	}
}

// Release gives up every lease this node holds, by compare-and-set, so
// that other nodes take the games at once (a clean shutdown).
func (n *Node) Release() {
	games := n.ownedGames()
	for _, g := range games {
		lk := n.lock(g)
		lk.Lock()
		o, l, rev := n.held(g)
		if o != nil {
			l.Expires = 0
			l = n.withHead(g, l)
			ctx, cancel := n.ctx()
			if _, err := n.owners.Update(ctx, g, encodeLease(l), rev); err != nil {
				n.lg.Warn("releasing a lease", "game", g, "err", err)
			}
			cancel()
			n.lose(g, o, "released at shutdown")
		}
		lk.Unlock()
	}
}

// onTake answers a request to take a game handed to this node.
func (n *Node) onTake(m *nats.Msg) {
	game := string(m.Data)
	err := n.takeHanded(game)
	reply := "ok"
	if err != nil {
		reply = "error: " + err.Error()
	}
	m.Respond([]byte(reply))
}

func (n *Node) takeHanded(game string) error {
	ctx, cancel := n.ctx()
	defer cancel()
	e, err := n.owners.Get(ctx, game)
	if err != nil {
		return fmt.Errorf("game %s: %w", game, err)
	}
	l, err := decodeLease(e.Value())
	if err != nil {
		return err
	}
	if l.To != n.name || !l.expired(n.now()) {
		return fmt.Errorf("game %s is not handed to %s", game, n.name)
	}
	lk := n.lock(game)
	lk.Lock()
	defer lk.Unlock()
	if n.Owns(game) {
		return nil
	}
	return n.take(game, entry{Lease: l, rev: e.Revision()}, false)
}

// Move hands game, which this node owns, to node to: the lease is
// released for it (by compare-and-set), the game dropped here, and to is
// asked to take it (if it does not answer, its scan takes it; if it is
// dead, another node does once the hand-off has waited a lease).
func (n *Node) Move(game, to string) error {
	if to == n.name {
		return fmt.Errorf("game %s is on %s already", game, to)
	}
	n.mu.Lock()
	m, ok := n.members[to]
	n.mu.Unlock()
	if !ok || n.now().UnixMilli() >= m.Expires {
		return fmt.Errorf("node %s is not a live member of the cluster", to)
	}
	lk := n.lock(game)
	lk.Lock()
	o, l, rev := n.held(game)
	if o == nil {
		lk.Unlock()
		return &NotOwnerError{Game: game, Owner: n.Owner(game)}
	}
	l.Expires, l.To = 0, to
	l = n.withHead(game, l)
	ctx, cancel := n.ctx()
	defer cancel()
	_, err := n.owners.Update(ctx, game, encodeLease(l), rev)
	if err != nil {
		lk.Unlock()
		if errors.Is(err, jetstream.ErrKeyRevisionMismatch) || isWrongLast(err) {
			n.lose(game, o, "another node took the lease")
		}
		return fmt.Errorf("releasing %s: %w", game, err)
	}
	n.lose(game, o, "moved to "+to)
	lk.Unlock()
	resp, err := n.nc.Request(NodeSubject(to, "take"), []byte(game), 30*time.Second)
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
	err := n.heartbeat(ctx, true)
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
	return n.heartbeat(ctx, false)
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
