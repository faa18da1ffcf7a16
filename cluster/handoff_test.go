package cluster

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

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
func TestNodeMovesBackAndForthUnderLoadAreNeverRefusedAsNotHanded(t *testing.T) {
	t.Parallel()
	srv := jetStream(t)
	const lease = 150 * time.Millisecond
	nodes := map[string]*testNode{"a": startNode(t, srv, "a", lease), "b": startNode(t, srv, "b", lease)}
	const games, moves = 6, 25
	for i := range games {
		g := fmt.Sprintf("h%d", i)
		if _, err := nodes["a"].Do(store.Request{Game: g, Expected: 0, Events: []events.Envelope{ev(g, "", "created")}}); err != nil {
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
	var refused, other []string
	var wg sync.WaitGroup
	for i := range games {
		g := fmt.Sprintf("h%d", i)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for m := range moves {
				var from string
				deadline := time.Now().Add(10 * time.Second)
				for from = holder(g); from == ""; from = holder(g) {
					if time.Now().After(deadline) {
						mu.Lock()
						other = append(other, g+": no node holds it")
						mu.Unlock()
						return
					}
					time.Sleep(5 * time.Millisecond)
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
					if !nodes[to].Owns(g) {
						mu.Lock()
						other = append(other, fmt.Sprintf("%s: moved to %s, which does not own it", g, to))
						mu.Unlock()
					}
				case strings.Contains(err.Error(), "not handed"):
					mu.Lock()
					refused = append(refused, err.Error())
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
	for i := range games {
		g := fmt.Sprintf("h%d", i)
		if _, err := Audit(t.Context(), nodes["a"].nc, g); err != nil {
			t.Errorf("%s: %v", g, err)
		}
	}
}
