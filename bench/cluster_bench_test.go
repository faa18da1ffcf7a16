//go:build linux

package bench

import (
	"os"
	"testing"
	"time"

	"pbem/internal/natscluster"
)

// BenchmarkClusterAppend measures durable appends on one node of a
// three-server NATS cluster (stream R3, every server fsyncing every write)
// beside the same appends to the node's bbolt file alone, in the same
// run, 64 games appending at once; and the time from a node's death to
// its games answering again, one game and 64 (go test -run XXX -bench
// ClusterAppend -benchtime 1x ./bench/). 'pbem bench --parts cluster'
// runs the same measurement (clusterBench).
func BenchmarkClusterAppend(b *testing.B) {
	procs := startNATSCluster(b)
	cb := clusterBench{URLs: natscluster.URLs(procs), Games: 64, PerGame: 50, Lease: 2 * time.Second}
	for range b.N {
		cb.Dir = b.TempDir()
		f, err := cb.run(b.Context())
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(f.Replicated, "appends/s-replicated")
		b.ReportMetric(f.Alone, "appends/s-bbolt-alone")
		b.ReportMetric(f.TakeOne.Seconds(), "s-takeover-of-1-game")
		b.ReportMetric(f.TakeAll.Seconds(), "s-takeover-of-64-games")
		sync := "sync_interval always"
		if os.Getenv("PBEM_BENCH_NATS_SYNC") == "default" {
			sync = "JetStream's default sync interval"
		}
		b.Logf("appends/s: %.0f replicated (R3, %s) beside %.0f to bbolt alone; after their node died, 1 game answered again in %v, %d games in %v (lease %v)",
			f.Replicated, sync, f.Alone, f.TakeOne.Round(10*time.Millisecond), cb.Games, f.TakeAll.Round(10*time.Millisecond), cb.Lease)
	}
}
