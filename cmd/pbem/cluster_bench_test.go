//go:build linux

package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"pbem/cluster"
	"pbem/events"
	"pbem/store"
)

// BenchmarkClusterAppend measures durable appends on one node of a
// three-server NATS cluster (stream R3, every server fsyncing every write)
// beside the same appends to the node's bbolt file alone, in the same
// run, 64 games appending at once; and the time from a node's stop to
// another node owning its games, rebuilt (go test -run XXX -bench
// ClusterAppend -benchtime 1x ./cmd/pbem/).
func BenchmarkClusterAppend(b *testing.B) {
	procs := startNATSCluster(b)
	nc, err := nats.Connect(strings.Join(natsURLs(procs), ","))
	if err != nil {
		b.Fatal(err)
	}
	defer nc.Close()
	const games, perGame = 64, 50
	run := func(do func(store.Request) (store.Result, error), prefix string) float64 {
		start := time.Now()
		var wg sync.WaitGroup
		for g := range games {
			wg.Add(1)
			go func() {
				defer wg.Done()
				id := fmt.Sprintf("%s%d", prefix, g)
				for i := range perGame {
					e := events.New(id, time.Unix(1700000000, 0), "", &events.OrderReceived{Player: "usa", Text: "MARCH Lyle 1605"})
					if _, err := do(store.Request{Game: id, Expected: uint64(i), Events: []events.Envelope{e}}); err != nil {
						b.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
		return float64(games*perGame) / time.Since(start).Seconds()
	}
	open := func() *store.Store {
		st, err := store.Open(filepath.Join(b.TempDir(), "pbem.db"), store.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { st.Close() })
		return st
	}
	const lease = 2 * time.Second
	for range b.N {
		alone := run(open().Do, "solo")
		st := open()
		a, err := cluster.Open(b.Context(), nc, st, cluster.Config{Node: "bench-a", Lease: lease})
		if err != nil {
			b.Fatal(err)
		}
		prefix := fmt.Sprintf("r%d-", time.Now().UnixNano())
		replicated := run(a.Do, prefix)
		b.ReportMetric(replicated, "appends/s-replicated")
		b.ReportMetric(alone, "appends/s-bbolt-alone")

		nc2, _ := nats.Connect(strings.Join(natsURLs(procs), ","))
		other, err := cluster.Open(b.Context(), nc2, open(), cluster.Config{Node: "bench-b", Lease: lease})
		if err != nil {
			b.Fatal(err)
		}
		stop := time.Now()
		a.Close() // stops renewing, as a dead node does
		for len(ownedBy(other)) < games {
			time.Sleep(10 * time.Millisecond)
		}
		took := time.Since(stop)
		b.ReportMetric(took.Seconds(), "s-takeover-of-64-games")
		// Reading the 64 games' subjects back: the takeover's batched
		// reader (through Audit, which reads as a rebuild does) beside one
		// request per message (how a rebuild read before), same run.
		startRead := time.Now()
		for g := range games {
			if _, err := cluster.Audit(b.Context(), nc, fmt.Sprintf("%s%d", prefix, g)); err != nil {
				b.Fatal(err)
			}
		}
		batched := time.Since(startRead)
		startRead = time.Now()
		js, _ := jetstream.New(nc)
		s, err := js.Stream(b.Context(), cluster.StreamName)
		if err != nil {
			b.Fatal(err)
		}
		for g := range games {
			subj := cluster.Subject(fmt.Sprintf("%s%d", prefix, g))
			for seq := uint64(1); ; {
				m, err := s.GetMsg(b.Context(), seq, jetstream.WithGetMsgSubject(subj))
				if errors.Is(err, jetstream.ErrMsgNotFound) {
					break
				}
				if err != nil {
					b.Fatal(err)
				}
				seq = m.Sequence + 1
			}
		}
		oneByOne := time.Since(startRead)
		b.ReportMetric(batched.Seconds(), "s-read-64-logs-batched")
		b.ReportMetric(oneByOne.Seconds(), "s-read-64-logs-one-per-request")
		b.Logf("reading 64 games' logs (%d appends each) from the stream: %v batched, %v one message per request",
			perGame, batched.Round(time.Millisecond), oneByOne.Round(time.Millisecond))
		sync := "sync_interval always"
		if os.Getenv("PBEM_BENCH_NATS_SYNC") == "default" {
			sync = "JetStream's default sync interval"
		}
		b.Logf("appends/s: %.0f replicated (R3, %s) beside %.0f to bbolt alone; %d games taken over %v after their node stopped (lease %v)",
			replicated, sync, alone, games, took.Round(10*time.Millisecond), lease)
		other.Close()
		nc2.Close()
	}
}

func ownedBy(n *cluster.Node) []string {
	var out []string
	for _, l := range n.Leases() {
		if l.Node == n.Name() && n.Owns(l.Game) {
			out = append(out, l.Game)
		}
	}
	return out
}
