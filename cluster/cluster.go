// Package cluster runs pbem as one node of several on a NATS cluster with
// JetStream: each game has one owner at a time, every append of a game is
// replicated to a three-replica stream before it counts as done, and when
// a node stops renewing its lease another node rebuilds its games from
// the stream and carries on.
//
// Liveness is per node: each node puts its key in the bucket pbem_nodes
// every third of a lease (one write per node, however many games it
// owns). Ownership is per game: a record in the bucket pbem_owners (key:
// the game id; value: node, epoch and the game's head when it last changed
// hands) that changes only when the game changes hands, and only by
// compare-and-set on the key's revision (KeyValue.Create and Update), so
// two nodes never both believe they took the same game from the same
// state. A game is taken over only once its owner's node lease has
// lapsed, judged by the taker's own monotonic clock (see lease.go), or
// when it is moved or released.
//
// Fencing is done by the stream, not by a home-made check. Every append
// of a game is one message on pbem.log.<game> in the stream PBEM_EVENTS,
// published with Nats-Expected-Last-Subject-Sequence set to the stream
// sequence of the game's last message as the owner knows it. A node that
// takes a game first publishes a fence message on the game's subject
// (carrying the revision of the lease it took), so the subject's last
// sequence moves past anything the previous owner knows: an append the
// previous owner sends afterwards (a process that was paused past its
// lease and resumed) is refused by the JetStream server with "wrong last
// sequence", and nothing of it reaches the stream or the new owner's
// store. Every message also carries the lease revision it was written
// under (header Pbem-Lease): the revision of the owner record its writer
// took.
//
// An append is: chain the events on the local head, publish them as one
// message and wait for the stream's acknowledgement (a quorum of the
// three replicas has stored it), then commit them to the local bbolt file
// (fsynced) with the request's side-writes. Only then does the caller
// see success (the intake checkpoints the mail, the outbox queues the
// reply). The local file is always a prefix of the stream.
//
// The package imports no rule system and no engine: it sits between the
// bus (which calls Do for every append) and the store.
package cluster

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"pbem/events"
	"pbem/store"
)

// Names of the JetStream assets.
const (
	StreamName   = "PBEM_EVENTS"
	OwnersBucket = "pbem_owners"
	NodesBucket  = "pbem_nodes"
	SharedBucket = "pbem_shared"
	HeadsBucket  = "pbem_heads"
)

// Headers on stream messages.
const (
	hdrNode  = "Pbem-Node"
	hdrLease = "Pbem-Lease" // the lease revision the message was written under
	hdrFence = "Pbem-Fence" // set on a fence message (no events)
)

// Subject is the stream subject of game's log.
func Subject(game string) string { return "pbem.log." + game }

// Config says which node this is and how long its leases last.
type Config struct {
	// Node is this node's name (letters, digits, '-', '_').
	Node string
	// Lease is how long a node's lease lasts unless renewed (default 10s);
	// it is renewed every Lease/3, and the node stops appending Lease/5
	// before others may judge it lapsed. A dead node's games are taken
	// over within about Lease + Lease/3 + the time to rebuild them.
	Lease time.Duration
	// Replicas of the stream and buckets (default 3; 1 for a one-server
	// NATS).
	Replicas int
	Logger   *slog.Logger
	// Hooks tell the server about games gained and lost.
	Hooks Hooks
}

// Hooks are called by a Node; each may be nil.
type Hooks struct {
	// Rebuild runs write, which appends a game's events from the stream to
	// the local store, and returns its result (the local head after it).
	// serve runs it under its subscription's lock, so that the events
	// written are not delivered as new (they are history: the game is
	// loaded from the store afterwards).
	Rebuild func(game string, write func() (uint64, error)) error
	// Gained is called once the node owns game (after rebuild and fence).
	Gained func(game string)
	// Lost is called when the node no longer owns game.
	Lost func(game string)
}

// Lease is the value of a game's key in pbem_owners: its owner record. It
// changes only when the game changes hands; whether the owner still holds
// it is its node's lease (pbem_nodes).
type Lease struct {
	Node  string `json:"node"`  // "" once released (at shutdown, or for To)
	Epoch uint64 `json:"epoch"` // 1 for the first owner, +1 at each change of owner
	// Seq and Hash are the game's head when it last changed hands: what
	// the releasing owner held, or what the taker was handed.
	Seq  uint64 `json:"seq"`
	Hash string `json:"hash,omitempty"`
	// To names the node a game is handed to (move, drain).
	To string `json:"to,omitempty"`
}

// Member is the value of a node's key in pbem_nodes (its heartbeat).
type Member struct {
	Draining bool `json:"draining,omitempty"`
}

// NotOwnerError says this node does not own a game (Owner, if known, does).
type NotOwnerError struct {
	Game, Owner string
	Reason      string
}

func (e *NotOwnerError) Error() string {
	s := fmt.Sprintf("game %s is not owned by this node", e.Game)
	if e.Owner != "" {
		s += " (its owner is " + e.Owner + ")"
	}
	if e.Reason != "" {
		s += ": " + e.Reason
	}
	return s
}

// ErrFenced: the stream refused an append because another node took the
// game (its fence message is past what this node knew).
var ErrFenced = errors.New("fenced: another node took the game")

type owned struct {
	rev      uint64 // the owner record's revision this node took
	fenceRev uint64 // the same: carried by every message
	lease    Lease
	last     uint64 // the stream sequence of the game's last message
	recorded uint64 // the head seq last put in pbem_heads
	dirty    bool   // the stream has an append the local store may lack
}

type entry struct {
	Lease
	rev uint64
	at  time.Time // when this node saw this revision (monotonic)
}

// Node is this process's place in the cluster.
type Node struct {
	cfg    Config
	name   string
	nc     *nats.Conn
	js     jetstream.JetStream
	owners jetstream.KeyValue
	nodes  jetstream.KeyValue
	shared jetstream.KeyValue
	heads  jetstream.KeyValue
	stream jetstream.Stream
	st     *store.Store
	lg     *slog.Logger

	mu      sync.Mutex
	owned   map[string]*owned
	view    map[string]entry  // every lease, as the watcher last saw it
	members map[string]Member // every node, as the watcher last saw it
	seen    map[string]seenNode
	// liveUntil is when this node's own lease runs out by its own clock
	// (Lease - selfMargin after it sent its last acknowledged heartbeat).
	liveUntil  time.Time
	watchAt    time.Time // when the watch last delivered this node's own heartbeat
	isDraining bool
	started    time.Time
	locks      map[string]*sync.Mutex
	subs       []*nats.Subscription

	stopOnce sync.Once
	stop     chan struct{}
	wg       sync.WaitGroup
}

// Open joins the cluster on nc: it makes the stream and the buckets if
// they are missing, and starts renewing, watching and taking over. st is
// this node's own store.
func Open(ctx context.Context, nc *nats.Conn, st *store.Store, cfg Config) (*Node, error) {
	if cfg.Node == "" {
		return nil, errors.New("cluster: a node needs a name")
	}
	if cfg.Lease <= 0 {
		cfg.Lease = 10 * time.Second
	}
	if cfg.Replicas <= 0 {
		cfg.Replicas = 3
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, fmt.Errorf("cluster: jetstream: %w", err)
	}
	n := &Node{cfg: cfg, name: cfg.Node, nc: nc, js: js, st: st, lg: cfg.Logger.With("component", "cluster", "node", cfg.Node),
		owned: map[string]*owned{}, view: map[string]entry{}, members: map[string]Member{}, seen: map[string]seenNode{}, started: time.Now(), locks: map[string]*sync.Mutex{},
		stop: make(chan struct{})}
	// Creating the assets may race with other nodes starting, and may meet
	// a cluster still electing leaders: retry for a while.
	err = retry(ctx, 30*time.Second, func(ctx context.Context) error {
		var err error
		n.stream, err = js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
			Name: StreamName, Subjects: []string{"pbem.log.>"}, Replicas: cfg.Replicas, Storage: jetstream.FileStorage,
			Retention: jetstream.LimitsPolicy, Discard: jetstream.DiscardNew, Duplicates: time.Minute,
			// Direct gets let a takeover read a game's subject in batches
			// (readSubject); reads that must see the leader's state use
			// lastOnLeader.
			AllowDirect: true,
			Description: "pbem: every game's log, one message per append"})
		if err != nil {
			return fmt.Errorf("stream %s: %w", StreamName, err)
		}
		for _, b := range []struct {
			name string
			kv   *jetstream.KeyValue
		}{{OwnersBucket, &n.owners}, {NodesBucket, &n.nodes}, {SharedBucket, &n.shared}, {HeadsBucket, &n.heads}} {
			*b.kv, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: b.name, Replicas: cfg.Replicas,
				Storage: jetstream.FileStorage, History: 1})
			if err != nil {
				return fmt.Errorf("bucket %s: %w", b.name, err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("cluster: %w", unreachable(nc, err))
	}
	if err := retry(ctx, 30*time.Second, func(ctx context.Context) error { _, err := n.heartbeat(ctx, false); return err }); err != nil {
		return nil, fmt.Errorf("cluster: joining: %w", unreachable(nc, err))
	}
	sub, err := nc.Subscribe(n.subject("take"), n.onTake)
	if err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	n.subs = append(n.subs, sub)
	if err := n.watch(ctx); err != nil {
		return nil, err
	}
	n.wg.Add(3)
	go n.loop(n.renew)
	go n.loop(n.scan)
	go n.loop(n.recordHeadsEveryLease())
	n.lg.Info("joined the cluster", "lease", cfg.Lease, "replicas", cfg.Replicas)
	return n, nil
}

// Name is this node's name.
func (n *Node) Name() string { return n.name }

// Conn is the node's NATS connection.
func (n *Node) Conn() *nats.Conn { return n.nc }

// subject is a request subject of this node's.
func (n *Node) subject(kind string) string { return NodeSubject(n.name, kind) }

// NodeSubject is the subject node answers requests of kind on.
func NodeSubject(node, kind string) string { return "pbem.node." + node + "." + kind }

func retry(ctx context.Context, within time.Duration, fn func(ctx context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, within)
	defer cancel()
	wait := 100 * time.Millisecond
	for {
		actx, acancel := context.WithTimeout(ctx, 5*time.Second)
		err := fn(actx)
		acancel()
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
		wait = min(2*wait, 2*time.Second)
	}
}

// Close stops renewing (the leases run out, and other nodes take the
// games) and stops the loops. It does not close the connection.
func (n *Node) Close() {
	n.stopOnce.Do(func() {
		close(n.stop)
		for _, s := range n.subs {
			s.Unsubscribe()
		}
		n.wg.Wait()
	})
}

func (n *Node) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 5*time.Second)
}

// lock returns game's append lock: appends of one game on this node run
// one at a time, so the local head a message is chained on is the head
// the store commits it on.
func (n *Node) lock(game string) *sync.Mutex {
	n.mu.Lock()
	defer n.mu.Unlock()
	l := n.locks[game]
	if l == nil {
		l = &sync.Mutex{}
		n.locks[game] = l
	}
	return l
}

// Owns reports whether this node holds game now (and its own node lease
// runs).
func (n *Node) Owns(game string) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	o := n.owned[game]
	return o != nil && n.selfAliveLocked(time.Now())
}

// Owner returns the node that owns game as far as this node has seen,
// or the node it is being handed to ("" for a game no node has, or one
// released for any node to take).
func (n *Node) Owner(game string) string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if o := n.owned[game]; o != nil {
		return n.name
	}
	if e := n.view[game]; e.Node == "" {
		return e.To // handed to To, which takes it in a moment
	}
	return n.view[game].Node
}

// Do appends r: replicated to the stream first, then committed to the
// local store. It is the bus's appender in cluster mode. A game this node
// does not own gives a *NotOwnerError, unless r creates it (Expected 0 and
// no lease anywhere): then the node takes a new lease for it first.
func (n *Node) Do(r store.Request) (store.Result, error) {
	if r.Game == "" || len(r.Events) == 0 {
		return store.Result{}, errors.New("append: need a game and at least one event")
	}
	l := n.lock(r.Game)
	l.Lock()
	defer l.Unlock()
	expected := r.Expected
	if r.AtHead {
		expected = max(expected, 1) // never a game's creation
	}
	o, err := n.holding(r.Game, expected)
	if err != nil {
		return store.Result{}, err
	}
	if r.AtHead {
		// This node writes the game's log alone, under the game's lock:
		// the head read now is the one the append follows.
		h, err := n.st.Head(r.Game)
		if err != nil {
			return store.Result{}, err
		}
		if h.Seq == 0 {
			return store.Result{}, fmt.Errorf("append at head of game %s: %w", r.Game, store.ErrNoGame)
		}
		r.Expected, r.AtHead = h.Seq, false
	}
	// Every idempotency key of the request, not only the first event's:
	// the store takes a request one of whose keys it has as a duplicate
	// and writes none of its events, so a request published before that
	// check would be in the stream and not in the local store, and the
	// next append would chain on a head the stream has moved past (the
	// same seq twice in the stream).
	for _, key := range append([]string{r.Events[0].Key}, r.Keys...) {
		if key == "" {
			continue
		}
		if _, dup, err := n.st.Lookup(r.Game, key); err != nil {
			return store.Result{}, err
		} else if dup {
			// Nothing new: the store records the checkpoint and says which seq.
			return n.st.Do(r)
		}
	}
	h, err := n.st.Head(r.Game)
	if err != nil {
		return store.Result{}, err
	}
	if h.Seq != r.Expected {
		return store.Result{}, &store.ConflictError{Game: r.Game, Expected: r.Expected, Actual: h.Seq}
	}
	rec := record{Events: make([]events.Envelope, len(r.Events)), Keys: r.Keys, Secret: r.Secret, Raw: r.Raw}
	prev := h.Hash
	for i := range r.Events {
		e := r.Events[i]
		e.Chain(h.Seq+1+uint64(i), prev)
		prev = e.Hash
		rec.Events[i] = e
	}
	seq, err := n.publish(r.Game, o, rec.marshal(), appendID(r.Game, o, rec.Events), false)
	if err != nil {
		return store.Result{}, fmt.Errorf("append to %s: replicating: %w", r.Game, err)
	}
	o.last = seq
	r.Events = rec.Events
	res, err := n.st.Do(r)
	if err != nil {
		// The stream has it and the store may not: catch up before the next append.
		o.dirty = true
		return res, err
	}
	if res.Duplicate || len(res.Events) != len(rec.Events) {
		// Not expected (every key was looked up above), but the stream
		// has the events and the store does not: catch up before the next
		// append rather than chain it on a head the stream has passed.
		o.dirty = true
		return res, fmt.Errorf("append to %s: the store did not take what the stream took (duplicate %t, %d of %d events)", r.Game, res.Duplicate, len(res.Events), len(rec.Events))
	}
	for i := range res.Events {
		if res.Events[i].Hash != rec.Events[i].Hash {
			o.dirty = true
			return res, fmt.Errorf("append to %s: the store chained seq %d differently from the stream", r.Game, res.Events[i].Seq)
		}
	}
	return res, nil
}

// holding returns the game's ownership if this node may append to it
// now, taking a new game's first lease, and catching the store up with
// the stream if an earlier local commit failed. Called under the game's lock.
func (n *Node) holding(game string, expected uint64) (*owned, error) {
	n.mu.Lock()
	o := n.owned[game]
	seen, known := n.view[game]
	n.mu.Unlock()
	if o == nil {
		if expected != 0 {
			return nil, &NotOwnerError{Game: game, Owner: seen.Node}
		}
		if known {
			return nil, fmt.Errorf("game %s exists on node %s", game, seen.Node)
		}
		if err := n.take(game, entry{}, true); err != nil {
			return nil, err
		}
		n.mu.Lock()
		o = n.owned[game]
		n.mu.Unlock()
		if o == nil {
			return nil, &NotOwnerError{Game: game, Reason: "lost at once"}
		}
	}
	// This node's own lease must run, by its own clock: once it has not
	// renewed it for Lease - selfMargin, another node may soon judge it
	// lapsed and take the game (the stream would refuse a late append
	// after the taker's fence anyway).
	n.mu.Lock()
	alive := n.selfAliveLocked(time.Now())
	n.mu.Unlock()
	if !alive {
		return nil, &NotOwnerError{Game: game, Reason: "this node's lease has lapsed (it was paused or cut off from NATS) and is not renewed yet"}
	}
	if o.dirty {
		if err := n.catchUp(game, o); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// catchUp brings the local store and o.last up to the stream after an
// append whose outcome this node does not know (the stream took it and
// the store did not, or the answer was lost and the message may have got
// in after all, or may still). The subject's last message must be this
// node's, written under the lease it holds: else another node has taken
// the game, and this node drops it. Called under the game's lock.
func (n *Node) catchUp(game string, o *owned) error {
	ctx, cancel := n.ctx()
	defer cancel()
	last, hdr, err := lastOnLeader(ctx, n.nc, Subject(game))
	if err != nil {
		return fmt.Errorf("game %s: the stream's last message: %w", game, err)
	}
	if last != 0 && leaseOf(hdr) != o.fenceRev {
		n.lose(game, o, "another node wrote to the game")
		return &NotOwnerError{Game: game, Reason: "another node wrote to the game"}
	}
	// Not through the Rebuild hook: these are this node's own appends,
	// news to its subscribers (the runner folds them, the outbox sends
	// the mails they queue), not history from another owner.
	if _, err := n.rebuild(ctx, game, last, Lease{}, false); err != nil {
		return err
	}
	o.last = last
	o.dirty = false
	return nil
}

// publish sends one message on game's subject, expecting the subject's
// last message to be o.last, and returns its stream sequence. msgID names
// the message's content (see appendID): the stream's de-duplication
// answers a message sent again with the first one's sequence, which is
// right only for the same content.
//
// When the answer is not a success, the subject's last message, read on
// the leader, settles it: the message itself (the answer was lost: a
// timeout while the NATS cluster elects a leader, or a copy the server
// still had in process) is a success; a message written under another
// lease means another node fenced the game, and this node drops it;
// anything else (nothing new, or an append of this node's own it did not
// know had landed) leaves the outcome open: the game is marked to catch
// up with the stream before its next append (catchUp), since a message
// the server still has in process may land after this answer.
func (n *Node) publish(game string, o *owned, data []byte, msgID string, fence bool) (uint64, error) {
	m := nats.NewMsg(Subject(game))
	m.Data = data
	m.Header.Set(hdrNode, n.name)
	m.Header.Set(hdrLease, strconv.FormatUint(o.fenceRev, 10))
	if fence {
		m.Header.Set(hdrFence, strconv.FormatUint(o.fenceRev, 10))
	}
	ctx, cancel := n.ctx()
	defer cancel()
	ack, err := n.js.PublishMsg(ctx, m, jetstream.WithExpectLastSequencePerSubject(o.last), jetstream.WithMsgID(msgID))
	if err == nil {
		return ack.Sequence, nil
	}
	ctx2, cancel2 := n.ctx()
	defer cancel2()
	last, hdr, lerr := lastOnLeader(ctx2, n.nc, Subject(game))
	switch {
	case lerr == nil && hdr.Get(jetstream.MsgIDHeader) == msgID:
		return last, nil
	case lerr == nil && last != o.last && leaseOf(hdr) != o.fenceRev:
		if !fence {
			n.lose(game, o, "the stream refused an append: another node fenced the game")
		}
		return 0, fmt.Errorf("%w: the game's subject is at %d (%v)", ErrFenced, last, err)
	case fence:
		if isWrongLast(err) {
			return 0, fmt.Errorf("%w (%v)", ErrFenced, err) // read the stream again and retry
		}
		return 0, err
	default:
		o.dirty = true
		return 0, fmt.Errorf("the stream's answer leaves the append's outcome open; the game catches up with the stream before its next append: %w", err)
	}
}

// appendID is the de-duplication id of an append: the game, the seq of
// its first event, the lease it is written under and the hash of its last
// event (which chains every event of the append). A retry of the same
// append is the same message; another append at the same seq is not,
// and the stream's expected-last check settles it.
func appendID(game string, o *owned, evs []events.Envelope) string {
	return fmt.Sprintf("%s/%d/%d/%s", game, evs[0].Seq, o.fenceRev, evs[len(evs)-1].Hash.Hex()[:32])
}

// leaseOf is the lease revision a stream message was written under, from
// its headers (0 if it has none).
func leaseOf(h nats.Header) uint64 {
	rev, _ := strconv.ParseUint(h.Get(hdrLease), 10, 64)
	return rev
}

func isWrongLast(err error) bool {
	var apiErr *jetstream.APIError
	if !errors.As(err, &apiErr) {
		return false
	}
	return apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence || apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant
}

// lastSeq is the stream sequence of game's last message (0: none).
func (n *Node) lastSeq(ctx context.Context, game string) (uint64, error) {
	seq, _, err := lastOnLeader(ctx, n.nc, Subject(game))
	if err != nil {
		return 0, fmt.Errorf("game %s: the stream's last message: %w", game, err)
	}
	return seq, nil
}

// lose drops game (the lease was taken, or the stream refused us).
func (n *Node) lose(game string, o *owned, why string) {
	n.mu.Lock()
	cur := n.owned[game]
	if cur == nil || (o != nil && cur != o) {
		n.mu.Unlock()
		return
	}
	delete(n.owned, game)
	n.mu.Unlock()
	n.lg.Warn("game lost", "game", game, "why", why)
	if h := n.cfg.Hooks.Lost; h != nil {
		h(game)
	}
}

func encodeLease(l Lease) []byte {
	b, _ := json.Marshal(l)
	return b
}

func decodeLease(b []byte) (Lease, error) {
	var l Lease
	err := json.Unmarshal(b, &l)
	return l, err
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

// take takes game's lease from what was seen (cur), rebuilds the game from
// the stream, checks it, fences it and calls Gained. isNew takes the first
// lease of a new game (the key must not exist).
func (n *Node) take(game string, cur entry, isNew bool) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := time.Now()
	if !isNew {
		// The head to check the stream against, carried on in the record.
		cur.Lease = n.lastHead(ctx, game, cur.Lease)
	}
	l := Lease{Node: n.name, Epoch: cur.Epoch + 1, Seq: cur.Seq, Hash: cur.Hash}
	var rev uint64
	var err error
	if isNew {
		rev, err = n.owners.Create(ctx, game, encodeLease(l))
		if errors.Is(err, jetstream.ErrKeyExists) {
			return fmt.Errorf("game %s exists", game)
		}
	} else {
		rev, err = n.owners.Update(ctx, game, encodeLease(l), cur.rev)
	}
	if err != nil {
		return fmt.Errorf("taking the lease of %s: %w", game, err)
	}
	o := &owned{rev: rev, fenceRev: rev, lease: l}
	// The lease is ours; now make the stream ours. A previous owner still
	// writing gets its append in before our fence or not at all.
	for attempt := 0; ; attempt++ {
		last, err := n.lastSeq(ctx, game)
		if err == nil {
			_, err = n.rebuild(ctx, game, last, cur.Lease, true)
		}
		if err == nil {
			o.last = last
			var fenceSeq uint64
			fenceSeq, err = n.publish(game, o, nil, fmt.Sprintf("%s/fence/%d", game, rev), true)
			if err == nil {
				o.last = fenceSeq
				break
			}
		}
		if attempt >= 20 || ctx.Err() != nil {
			n.lg.Error("could not take a game over; its lease runs out and another node will try", "game", game, "err", err)
			return err
		}
		if !errors.Is(err, ErrFenced) {
			time.Sleep(200 * time.Millisecond)
		}
	}
	n.mu.Lock()
	n.owned[game] = o
	if v, ok := n.view[game]; !ok || rev >= v.rev {
		n.view[game] = entry{Lease: l, rev: rev, at: time.Now()}
	}
	n.mu.Unlock()
	if isNew {
		n.lg.Info("new game's lease taken", "game", game, "rev", rev)
	} else {
		n.lg.Warn("game taken over", "game", game, "from", cur.Node, "epoch", l.Epoch, "rev", rev, "head", cur.Seq, "in", time.Since(start).Round(time.Millisecond))
	}
	if h := n.cfg.Hooks.Gained; h != nil {
		h(game)
	}
	return nil
}

// rebuild brings the local store up to the stream's message last for
// game: it reads every message of the game, checks the whole hash chain,
// checks that the local store's events are the stream's, that the chain
// holds the head the previous owner last reported (seen), and appends
// what the store lacks: as history (through Hooks.Rebuild, so not
// delivered as new events) when the game is taken over, plainly when the
// node catches up with its own appends. It returns the local head's seq.
func (n *Node) rebuild(ctx context.Context, game string, last uint64, seen Lease, history bool) (uint64, error) {
	local, err := n.st.Head(game)
	if err != nil {
		return 0, err
	}
	if last == 0 {
		if local.Seq != 0 {
			return 0, fmt.Errorf("game %s: the local store has %d events the stream does not", game, local.Seq)
		}
		return 0, nil
	}
	v := events.Verifier{Game: game}
	var missing []record
	var fenceRev uint64
	var seenOK bool
	repeats, err := readSubject(ctx, n.nc, game, last, func(seq uint64, h nats.Header, data []byte) error {
		rev := leaseOf(h)
		if rev < fenceRev {
			return fmt.Errorf("game %s: stream message %d was written under lease %d after lease %d's fence", game, seq, rev, fenceRev)
		}
		if f := h.Get(hdrFence); f != "" {
			fenceRev = rev
			return nil
		}
		rec, err := unmarshalRecord(data)
		if err != nil {
			return fmt.Errorf("game %s: stream message %d: %w", game, seq, err)
		}
		var keep record
		for i := range rec.Events {
			e := &rec.Events[i]
			if err := v.Next(e); err != nil {
				return fmt.Errorf("game %s: the stream's chain: %w", game, err)
			}
			if seen.Seq != 0 && e.Seq == seen.Seq {
				if e.Hash.Hex() != seen.Hash {
					return fmt.Errorf("game %s: seq %d in the stream is not the head its owner reported", game, e.Seq)
				}
				seenOK = true
			}
			if e.Seq == local.Seq && e.Hash != local.Hash {
				return fmt.Errorf("game %s: the local store's seq %d differs from the stream's", game, e.Seq)
			}
			if e.Seq > local.Seq {
				keep.Events = append(keep.Events, *e)
			}
		}
		if len(keep.Events) > 0 {
			if len(keep.Events) == len(rec.Events) {
				keep.Keys, keep.Secret, keep.Raw = rec.Keys, rec.Secret, rec.Raw
			}
			missing = append(missing, keep)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	if len(repeats) > 0 {
		n.lg.Warn("the stream holds an append twice; the repeat is passed over", "game", game, "stream_seqs", repeats)
	}
	if v.Seq() < local.Seq {
		return 0, fmt.Errorf("game %s: the local store holds %d events, the stream %d", game, local.Seq, v.Seq())
	}
	if seen.Seq != 0 && !seenOK {
		return 0, fmt.Errorf("game %s: the stream ends at %d, before the head %d its owner reported", game, v.Seq(), seen.Seq)
	}
	write := func() (uint64, error) {
		head := local.Seq
		for _, rec := range missing {
			res, err := n.st.Do(store.Request{Game: game, Expected: head, Events: rec.Events, Keys: rec.Keys, Secret: rec.Secret, Raw: rec.Raw})
			if err != nil {
				return head, fmt.Errorf("game %s: writing the stream's events to the store: %w", game, err)
			}
			if res.Duplicate || res.Events[len(res.Events)-1].Hash != rec.Events[len(rec.Events)-1].Hash {
				return head, fmt.Errorf("game %s: the store does not take the stream's events as they are", game)
			}
			head = res.Last
		}
		return head, nil
	}
	if len(missing) == 0 {
		return local.Seq, nil
	}
	var head uint64
	if h := n.cfg.Hooks.Rebuild; h != nil && history {
		err = h(game, func() (uint64, error) { var err error; head, err = write(); return head, err })
	} else {
		head, err = write()
	}
	if err != nil {
		return 0, err
	}
	n.lg.Info("game rebuilt from the stream", "game", game, "events", v.Seq(), "written", head-local.Seq)
	return head, nil
}

// Leases returns every game's lease as this node last saw it, sorted by game.
func (n *Node) Leases() []GameLease {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := make([]GameLease, 0, len(n.view))
	for g, e := range n.view {
		out = append(out, GameLease{Game: g, Lease: e.Lease, Rev: e.rev})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Game < out[j].Game })
	return out
}

// GameLease is one game's lease.
type GameLease struct {
	Game string
	Lease
	Rev uint64
}

// Members returns every node as last seen, sorted by name.
func (n *Node) Members() []NodeState {
	n.mu.Lock()
	defer n.mu.Unlock()
	now := time.Now()
	load := n.loadLocked()
	out := make([]NodeState, 0, len(n.members))
	for name, m := range n.members {
		left := n.liveUntil.Sub(now)
		if name != n.name {
			left = n.lapsesLocked(name).Sub(now)
		}
		out = append(out, NodeState{Name: name, Alive: n.aliveLocked(name, now), Draining: m.Draining, Games: load[name], LeaseLeft: max(left, 0)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// NodeState is a node as seen from here.
type NodeState struct {
	Name            string
	Alive, Draining bool
	Games           int
	// LeaseLeft is how long until the node's lease lapses unless renewed,
	// by this node's own clock (for this node: until it stops appending).
	LeaseLeft time.Duration
}

func (n *Node) loadLocked() map[string]int {
	load := map[string]int{}
	for _, e := range n.view {
		if e.Node != "" {
			load[e.Node]++
		}
	}
	return load
}

// LeastLoaded returns the live node, not draining, owning the fewest
// games (ties: the first by name), leaving out except.
func (n *Node) LeastLoaded(except string) (string, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.leastLoadedLocked(time.Now(), except)
}

func (n *Node) leastLoadedLocked(now time.Time, except string) (string, error) {
	load := n.loadLocked()
	best, bestN := "", 0
	names := make([]string, 0, len(n.members))
	for name := range n.members {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		m := n.members[name]
		if name == except || m.Draining || !n.aliveLocked(name, now) {
			continue
		}
		if best == "" || load[name] < bestN {
			best, bestN = name, load[name]
		}
	}
	if best == "" {
		return "", errors.New("no live node to take the game")
	}
	return best, nil
}

func hexHash(h events.Hash) string {
	if h.IsZero() {
		return ""
	}
	return hex.EncodeToString(h[:])
}

// Written is one message of a game's stream subject, as Audit reads it.
type Written struct {
	StreamSeq uint64
	Node      string
	Lease     uint64 // the lease revision it was written under
	Fence     bool
	// Repeat: the message repeats the one before it (the same append
	// stored twice); readers pass it over, and it has no Events here.
	Repeat bool
	Events []events.Envelope
}

// Audit reads game's whole subject from the stream on nc and checks that
// one writer at a time wrote it: every message after a fence was written
// under that fence's lease, fences' leases only grow, and the events
// chain from the first to the last. It returns the messages read, in
// stream order, repeats marked.
func Audit(ctx context.Context, nc *nats.Conn, game string) ([]Written, error) {
	var out []Written
	var fence uint64
	v := events.Verifier{Game: game}
	last, _, err := lastOnLeader(ctx, nc, Subject(game))
	if err != nil {
		return nil, err
	}
	repeats, err := readSubject(ctx, nc, game, last, func(seq uint64, h nats.Header, data []byte) error {
		w := Written{StreamSeq: seq, Node: h.Get(hdrNode), Fence: h.Get(hdrFence) != ""}
		w.Lease = leaseOf(h)
		if w.Fence {
			if w.Lease <= fence {
				return fmt.Errorf("stream message %d: a fence for lease %d after lease %d's", seq, w.Lease, fence)
			}
			fence = w.Lease
		} else {
			if w.Lease != fence {
				return fmt.Errorf("stream message %d: written by %s under lease %d while lease %d held the game: two writers", seq, w.Node, w.Lease, fence)
			}
			rec, err := unmarshalRecord(data)
			if err != nil {
				return fmt.Errorf("stream message %d: %w", seq, err)
			}
			w.Events = rec.Events
			for i := range rec.Events {
				if err := v.Next(&rec.Events[i]); err != nil {
					out = append(out, w) // the message that broke the chain, for the caller to show
					return err
				}
			}
		}
		out = append(out, w)
		return nil
	})
	for _, seq := range repeats {
		out = append(out, Written{StreamSeq: seq, Repeat: true})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].StreamSeq < out[j].StreamSeq })
	return out, err
}
