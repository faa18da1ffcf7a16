package cluster

import (
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"pbem/events"
	"pbem/internal/waitfor"
	"pbem/store"
)

// A move either hands the game over or fails for a reason that is true:
// never "not handed" because the node it went to took the game by its own
// scan (it saw the hand-off on the watch) before the move's request
// arrived, or read the owner record before the hand-off. Games are moved
// back and forth between two nodes, several at once, while each game's
// owner appends to it; the lease is short, so each node's scan runs often
// and races the requests.
//
// On a three-server cluster the buckets have three replicas, and a direct
// get (what KeyValue.Get does) may be answered by a replica that has not
// applied the hand-off yet.
func TestNodeMovesBackAndForthUnderLoadAreNeverRefusedAsNotHanded(t *testing.T) {
	t.Parallel()
	t.Run("one server", func(t *testing.T) {
		t.Parallel()
		srv := jetStream(t)
		movesBackAndForth(t, srv, srv, 1)
	})
	t.Run("three servers", func(t *testing.T) {
		t.Parallel()
		srvs := jetStreamCluster(t)
		movesBackAndForth(t, srvs[0], srvs[1], 3)
	})
}

func movesBackAndForth(t *testing.T, srvA, srvB *server.Server, replicas int) {
	const lease = 150 * time.Millisecond
	nodes := map[string]*testNode{"a": startNodeOn(t, srvA, "a", lease, replicas), "b": startNodeOn(t, srvB, "b", lease, replicas)}
	const games, moves = 6, 25
	for i := range games {
		g := fmt.Sprintf("h%d", i)
		// A new game's first append on a fresh JetStream cluster may get
		// an answer that leaves its outcome open (the stream still
		// settling its leader); the node then catches up before the next
		// append, so the same creation is sent again, as a caller does.
		var err error
		if !waitfor.True(5*time.Second, func() bool {
			_, err = nodes["a"].Do(store.Request{Game: g, Expected: 0, Events: []events.Envelope{ev(g, "", "created")}})
			h, _ := nodes["a"].st.Head(g)
			return err == nil || h.Seq == 1
		}) {
			t.Fatal(err)
		}
	}
	waitfor.Until(t, 5*time.Second, "b sees every game", func() bool { return len(nodes["b"].Leases()) == games })
	holder := func(g string) string {
		for name, n := range nodes {
			if n.Owns(g) {
				return name
			}
		}
		return ""
	}
	var mu sync.Mutex
	var refused, other, lapsed []string
	var wg sync.WaitGroup
	for i := range games {
		g := fmt.Sprintf("h%d", i)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for m := range moves {
				var from string
				if !waitfor.True(10*time.Second, func() bool { from = holder(g); return from != "" }) {
					mu.Lock()
					other = append(other, g+": no node holds it")
					mu.Unlock()
					return
				}
				to := map[string]string{"a": "b", "b": "a"}[from]
				// Load: an append by the owner just before it moves the game.
				n := nodes[from]
				if h, err := n.st.Head(g); err == nil {
					n.Do(store.Request{Game: g, Expected: h.Seq, Events: []events.Envelope{ev(g, fmt.Sprintf("%s-%d", g, m), "load")}})
				}
				err := n.Move(g, to)
				switch {
				case err == nil:
					// The target confirmed its take; on a loaded machine
					// its 150 ms lease can lapse right after (it then
					// takes the game again or another node does): a true
					// reason, counted with the lapses. A target that never
					// holds the game it confirmed is the failure.
					if !waitfor.True(time.Second, func() bool { return nodes[to].Owns(g) }) {
						mu.Lock()
						if h := holder(g); h != "" {
							lapsed = append(lapsed, fmt.Sprintf("%s: moved to %s, held by %s a moment later", g, to, h))
						} else {
							other = append(other, fmt.Sprintf("%s: moved to %s, which does not own it", g, to))
						}
						mu.Unlock()
					}
				case strings.Contains(err.Error(), "not handed"):
					mu.Lock()
					refused = append(refused, err.Error())
					mu.Unlock()
				case strings.Contains(err.Error(), "not a live member"), strings.Contains(err.Error(), "revision mismatch"), strings.Contains(err.Error(), "hand-off to "+to+" lapsed"):
					// On a loaded machine a 150 ms lease can lapse: the
					// mover then sees the target as dead, the target's
					// take loses to a node that judged it lapsed, or the
					// take request arrives after the hand-off waited a
					// whole lease and another node took the game. True
					// reasons, counted below.
					mu.Lock()
					lapsed = append(lapsed, err.Error())
					mu.Unlock()
				default:
					// The mover may have lost the game meanwhile (a true reason).
					if _, ok := err.(*NotOwnerError); !ok {
						mu.Lock()
						other = append(other, err.Error())
						mu.Unlock()
					}
				}
			}
		}()
	}
	wg.Wait()
	if len(refused) > 0 {
		t.Errorf("%d of %d moves refused as not handed, e.g. %s", len(refused), games*moves, refused[0])
	}
	for _, e := range other {
		t.Errorf("move: %s", e)
	}
	if len(lapsed) > 0 {
		t.Logf("%d of %d moves failed because a lease lapsed under load, e.g. %s", len(lapsed), games*moves, lapsed[0])
	}
	if len(lapsed) > games*moves/2 {
		t.Errorf("%d of %d moves failed on lapsed leases: too few moves were tried to say anything", len(lapsed), games*moves)
	}
	for i := range games {
		g := fmt.Sprintf("h%d", i)
		if _, err := Audit(t.Context(), nodes["a"].nc, g); err != nil {
			t.Errorf("%s: %v", g, err)
		}
	}
}

// jetStreamCluster starts three nats-servers with JetStream in the
// process, routed to one another as one cluster.
func jetStreamCluster(t *testing.T) []*server.Server {
	t.Helper()
	// Cluster ports picked up front: each server routes to all three.
	var ports []int
	var routes []string
	for range 3 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
		routes = append(routes, l.Addr().String())
		l.Close()
	}
	var srvs []*server.Server
	for i := range 3 {
		o := &server.Options{ServerName: fmt.Sprintf("s%d", i), Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(), NoSigs: true,
			Cluster: server.ClusterOpts{Name: "pbem-test", Host: "127.0.0.1", Port: ports[i]},
			Routes:  server.RoutesFromStr("nats://" + strings.Join(routes, ",nats://"))}
		srv, err := server.NewServer(o)
		if err != nil {
			t.Fatal(err)
		}
		go srv.Start()
		t.Cleanup(func() { srv.Shutdown(); srv.WaitForShutdown() })
		srvs = append(srvs, srv)
	}
	for _, srv := range srvs {
		if !srv.ReadyForConnections(20 * time.Second) {
			t.Fatal("nats-server not ready")
		}
	}
	return srvs
}

// startNodeOn is startNode with the stream and buckets made with replicas.
func startNodeOn(t *testing.T, srv *server.Server, name string, lease time.Duration, replicas int) *testNode {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "pbem.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(srv.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	tn := &testNode{st: st, nc: nc}
	n, err := Open(t.Context(), nc, st, Config{Node: name, Lease: lease, Replicas: replicas})
	if err != nil {
		t.Fatal(err)
	}
	tn.Node = n
	t.Cleanup(func() { n.Close(); nc.Close(); st.Close() })
	return tn
}
