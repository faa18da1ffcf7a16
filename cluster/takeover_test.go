package cluster

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"pbem/events"
	"pbem/internal/syncbuf"
	"pbem/internal/waitfor"
	"pbem/store"
)

// A node taking a game over checks the stream against the head the old
// owner last recorded in its lease. A stream whose chain does not hold
// that head (another event at that seq, or a chain that ends before it)
// is not the log the old owner acknowledged: the takeover is refused,
// loudly (an ERROR naming the game and why), nothing of the game is
// written to the taker's store, no fence is published, and the game stays
// unowned rather than carrying on from a log that lost acknowledged
// events. The lease as it was recorded is taken over normally (the
// control case: the check refuses only a mismatch).
func TestNodeTakeoverRefusesAStreamWithoutTheOldOwnersLastHead(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		tamper func(l map[string]any, head store.Head)
		want   string // in the taker's error log; "" for a takeover
	}{
		{"the head as recorded", func(map[string]any, store.Head) {}, ""},
		{"another event at the recorded seq", func(l map[string]any, h store.Head) {
			l["seq"], l["hash"] = h.Seq-1, h.Hash.Hex() // seq 2 carries seq 3's hash: not this chain
		}, "not the head its owner reported"},
		{"a recorded head past the stream's end", func(l map[string]any, h store.Head) {
			l["seq"], l["hash"] = h.Seq+2, h.Hash.Hex()
		}, "before the head"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := jetStream(t)
			const lease = 600 * time.Millisecond
			a := startNode(t, srv, "a", lease)
			if _, err := a.Do(store.Request{Game: "g1", Expected: 0, Events: []events.Envelope{ev("g1", "m1", "one"), ev("g1", "m2", "two")}}); err != nil {
				t.Fatal(err)
			}
			if _, err := a.Do(store.Request{Game: "g1", Expected: 2, Events: []events.Envelope{ev("g1", "m3", "three")}}); err != nil {
				t.Fatal(err)
			}
			head, _ := a.st.Head("g1")
			// a records its head in the cluster (in its lease, or in a
			// bucket of heads apart from the leases, where the cluster keeps
			// one: the record the takeover reads), then stops.
			nc, err := nats.Connect(srv.ClientURL())
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			js, _ := jetstream.New(nc)
			var where []jetstream.KeyValue
			for _, name := range []string{"pbem_heads", OwnersBucket} {
				if kv, err := js.KeyValue(t.Context(), name); err == nil {
					where = append(where, kv)
				}
			}
			var recorded map[string]any
			var rev uint64
			var kv jetstream.KeyValue
			waitfor.Until(t, 10*lease, "a records its head", func() bool {
				for _, k := range where {
					e, err := k.Get(t.Context(), "g1")
					if err != nil {
						continue
					}
					recorded, rev, kv = map[string]any{}, e.Revision(), k
					json.Unmarshal(e.Value(), &recorded)
					if recorded["hash"] == head.Hash.Hex() {
						return true
					}
				}
				return false
			})
			a.Node.Close()
			// What a stream that lost acknowledged events looks like from the
			// record: the head recorded there is not in the stream's chain.
			tc.tamper(recorded, head)
			b, _ := json.Marshal(recorded)
			if _, err := kv.Update(t.Context(), "g1", b, rev); err != nil {
				t.Fatalf("tampering the recorded head (a wrote it again after Close?): %v", err)
			}

			logs := &syncbuf.Buffer{}
			b2 := startNodeLogging(t, srv, "b", lease, slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
			if tc.want == "" {
				waitfor.Until(t, 10*lease, "b takes g1 over", func() bool { return b2.Owns("g1") })
				if h, _ := b2.st.Head("g1"); h != head {
					t.Fatalf("b rebuilt %+v, a had %+v", h, head)
				}
				return
			}
			waitfor.Until(t, 20*time.Second, "b refuses the takeover loudly", func() bool {
				return b2.Owns("g1") || strings.Contains(logs.String(), "level=ERROR") && strings.Contains(logs.String(), tc.want)
			})
			if b2.Owns("g1") {
				t.Fatal("b owns g1, rebuilt from a stream without the old owner's last head")
			}
			if h, _ := b2.st.Head("g1"); h.Seq != 0 {
				t.Fatalf("b's store took %d events of a stream it refused", h.Seq)
			}
			if b2.has(&b2.gained, "g1") {
				t.Fatal("b's Gained hook was called for a refused takeover")
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			ws, err := Audit(ctx, nc, "g1")
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range ws {
				if w.Fence && w.Node == "b" {
					t.Fatal("b fenced a game it refused to take")
				}
			}
			var errLine string
			for _, l := range strings.Split(logs.String(), "\n") {
				if strings.Contains(l, "level=ERROR") {
					errLine = l
					break
				}
			}
			if !strings.Contains(errLine, "game=g1") || !strings.Contains(errLine, tc.want) {
				t.Fatalf("the refusal does not name the game and why: %s", errLine)
			}
		})
	}
}
