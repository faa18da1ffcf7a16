package bench

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"pbem/cluster"
	"pbem/events"
	"pbem/internal/natscluster"
	"pbem/store"
)

// clusterBench measures a node of a three-server NATS cluster (stream R3)
// against the same node's bbolt file alone, and how long a dead node's
// games take to answer again. BenchmarkClusterAppend and 'pbem bench
// --parts cluster' both run it.
type clusterBench struct {
	URLs    []string      // the NATS cluster
	Dir     string        // for the nodes' bbolt files
	Games   int           // games appending at once (and taken over at once)
	PerGame int           // appends of each
	Lease   time.Duration // the nodes' lease
	// MailGames, for 'pbem bench' only: games of the node killed in the
	// end-to-end measurement (mailTakeover; 0: not measured).
	MailGames int
}

// clusterFigures is what one run of a clusterBench measured.
type clusterFigures struct {
	Replicated, Alone float64       // appends/s
	TakeOne, TakeAll  time.Duration // a node's death → its games (one; Games) answering again
	Fsync             time.Duration // one 4 KiB write + fsync on Dir's disk (median of 20)
}

// answering is the first append that succeeds on a game after a takeover:
// the new owner holds the lease, has rebuilt the game from the stream,
// fenced it, and replicated and committed one more event (what answering
// a mail needs, less the intake's poll and the engine's decision).
func answering(n *cluster.Node, game string, seq uint64) bool {
	if !n.Owns(game) {
		return false
	}
	_, err := n.Do(store.Request{Game: game, Expected: seq, Events: []events.Envelope{benchEvent(game, int(seq))}})
	return err == nil
}

// appendRate runs perGame appends on each of games games at once through
// do, and returns appends/s.
func appendRate(do func(store.Request) (store.Result, error), ids []string, perGame int) (float64, error) {
	r := timeWriters(len(ids), func(w int) error {
		for i := range perGame {
			if _, err := do(store.Request{Game: ids[w], Expected: uint64(i), Events: []events.Envelope{benchEvent(ids[w], i)}}); err != nil {
				return fmt.Errorf("%s append %d: %w", ids[w], i, err)
			}
		}
		return nil
	})
	return float64(len(ids)*perGame) / r.d.Seconds(), r.err
}

// run measures once. Nodes and games get names of their own (a run may
// follow another on the same NATS cluster).
func (cb clusterBench) run(ctx context.Context) (clusterFigures, error) {
	var f clusterFigures
	tag := fmt.Sprintf("%x", time.Now().UnixNano())
	var closers []func()
	defer func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}()
	openStore := func(name string) (*store.Store, error) {
		st, err := store.Open(filepath.Join(cb.Dir, name+"-"+tag+".db"), store.Options{})
		if err != nil {
			return nil, err
		}
		closers = append(closers, func() { st.Close() })
		return st, nil
	}
	type node struct {
		*cluster.Node
		nc *nats.Conn
	}
	join := func(name string) (node, error) {
		st, err := openStore(name)
		if err != nil {
			return node{}, err
		}
		nc, err := nats.Connect(strings.Join(cb.URLs, ","))
		if err != nil {
			return node{}, err
		}
		// Quiet: a takeover logs a line per game, which would bury the figures.
		n, err := cluster.Open(ctx, nc, st, cluster.Config{Node: name + "-" + tag, Lease: cb.Lease, Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			nc.Close()
			return node{}, err
		}
		closers = append(closers, func() { n.Close(); nc.Close() })
		return node{n, nc}, nil
	}
	// die stops a node as kill -9 would: no more renewals, no release,
	// its connection gone.
	die := func(n node) { n.Close(); n.nc.Close() }
	ids := func(prefix string, k int) []string {
		out := make([]string, k)
		for i := range out {
			out[i] = fmt.Sprintf("%s-%s-%d", prefix, tag, i)
		}
		return out
	}
	// takeover waits until survivor answers every game in games again.
	takeover := func(survivor node, games []string, seq uint64) (time.Duration, error) {
		start := time.Now()
		left := append([]string(nil), games...)
		for deadline := start.Add(10*cb.Lease + time.Minute); len(left) > 0; time.Sleep(5 * time.Millisecond) {
			var still []string
			for _, g := range left {
				if !answering(survivor.Node, g, seq) {
					still = append(still, g)
				}
			}
			left = still
			if time.Now().After(deadline) {
				return 0, fmt.Errorf("%d of %d games not answering %v after their node died", len(left), len(games), time.Since(start).Round(time.Second))
			}
		}
		return time.Since(start), nil
	}

	f.Fsync = fsyncTime(cb.Dir)
	alone, err := openStore("alone")
	if err != nil {
		return f, err
	}
	if f.Alone, err = appendRate(alone.Do, ids("solo", cb.Games), cb.PerGame); err != nil {
		return f, err
	}
	a, err := join("bench-a")
	if err != nil {
		return f, err
	}
	games := ids("r3", cb.Games)
	if f.Replicated, err = appendRate(a.Do, games, cb.PerGame); err != nil {
		return f, err
	}
	b, err := join("bench-b")
	if err != nil {
		return f, err
	}
	die(a)
	if f.TakeAll, err = takeover(b, games, uint64(cb.PerGame)); err != nil {
		return f, err
	}
	c, err := join("bench-c")
	if err != nil {
		return f, err
	}
	one := ids("one", 1)
	if _, err := appendRate(c.Do, one, cb.PerGame); err != nil {
		return f, err
	}
	die(c)
	f.TakeOne, err = takeover(b, one, uint64(cb.PerGame))
	return f, err
}

// fsyncTime is the median time of a 4 KiB write and fsync in dir.
func fsyncTime(dir string) time.Duration {
	fh, err := os.CreateTemp(dir, "fsync-")
	if err != nil {
		return 0
	}
	defer os.Remove(fh.Name())
	defer fh.Close()
	buf := make([]byte, 4096)
	var ds []time.Duration
	for range 20 {
		start := time.Now()
		fh.Write(buf)
		if fh.Sync() != nil {
			return 0
		}
		ds = append(ds, time.Since(start))
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[len(ds)/2]
}

// benchCluster is 'pbem bench --parts cluster': three nats-server
// processes started from natsBin in dir, then one clusterBench run.
func benchCluster(a *app, natsBin, dir string, cb clusterBench) error {
	fmt.Fprintf(a.out, "cluster: %d games appending at once, %d appends each, through a node of 3 nats-server processes on loopback\n", cb.Games, cb.PerGame)
	if natsBin == "" {
		fmt.Fprintf(a.out, "  skipped: needs a nats-server binary (--nats-server PATH or NATS_SERVER_BIN; 'go build -o nats-server github.com/nats-io/nats-server/v2' builds one)\n\n")
		return nil
	}
	ndir := filepath.Join(dir, "nats")
	procs, err := natscluster.Start(natsBin, ndir, false)
	if err != nil {
		return fmt.Errorf("cluster bench: %w", err)
	}
	defer natscluster.Stop(procs)
	defer os.RemoveAll(ndir)
	cb.URLs, cb.Dir = natscluster.URLs(procs), dir
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	f, err := cb.run(ctx)
	if err != nil {
		return fmt.Errorf("cluster bench: %w", err)
	}
	fmt.Fprintf(a.out, "(JetStream stream R3, file storage, sync_interval: always; an append counts once the stream's quorum and the node's bbolt file both fsynced it)\n")
	line(a, "appends/s replicated (R3 + bbolt)", f.Replicated, f.Alone, "/s", "(baseline: the same appends to bbolt alone, no replication)")
	fmt.Fprintf(a.out, "  a node's death (no release: its leases run out) to its games answering again, lease %v\n", cb.Lease)
	fmt.Fprintf(a.out, "  %-34s %12v\n", "1 game", f.TakeOne.Round(time.Millisecond))
	fmt.Fprintf(a.out, "  %-34s %12v\n", fmt.Sprintf("%d games", cb.Games), f.TakeAll.Round(time.Millisecond))
	fmt.Fprintf(a.out, "  %-34s %12v   (a lease runs out 2/3 to 1 lease after its last renewal, the next scan comes within lease/3;\n"+
		"  %34s %12s    games are taken one at a time, each adding its rebuild. 'Answering': owned, rebuilt from the stream,\n"+
		"  %34s %12s    fenced, and one append in; a mail adds the intake's poll and the decision, measured next)\n",
		"bound for one game", (cb.Lease + cb.Lease/3).Round(time.Millisecond), "", "", "", "")
	if cb.MailGames > 0 {
		exe, err := os.Executable()
		if err != nil {
			return err
		}
		mdir, err := os.MkdirTemp(dir, "nodes-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(mdir)
		// A cluster of its own: the in-process nodes above died without
		// releasing their games, and 'pbem serve' nodes joining the same
		// buckets would spend the measurement taking those over.
		mprocs, err := natscluster.Start(natsBin, filepath.Join(mdir, "nats"), false)
		if err != nil {
			return fmt.Errorf("cluster bench, by mail: %w", err)
		}
		defer natscluster.Stop(mprocs)
		mf, err := mailTakeover(exe, natscluster.URLs(mprocs), mdir, cb.MailGames, cb.Lease)
		if err != nil {
			return fmt.Errorf("cluster bench, by mail: %w", err)
		}
		fmt.Fprintf(a.out, "  end to end: 3 'pbem serve' nodes reading one mailbox; the one owning %d games killed (SIGKILL), an order mailed to each game at once\n", cb.MailGames)
		fmt.Fprintf(a.out, "  %-34s %12v\n", "first game's reply", mf.First.Round(time.Millisecond))
		fmt.Fprintf(a.out, "  %-34s %12v\n", fmt.Sprintf("every game's reply (%d)", cb.MailGames), mf.All.Round(time.Millisecond))
		fmt.Fprintf(a.out, "  a healthy game's reply, an order to another node's game mailed just before it (lease %v)\n", cb.Lease)
		fmt.Fprintf(a.out, "  %-34s %12v\n", "all nodes up (baseline)", mf.Normal.Round(time.Millisecond))
		fmt.Fprintf(a.out, "  %-34s %12v\n", "the other node stopped (SIGSTOP)", mf.Paused.Round(time.Millisecond))
		fmt.Fprintf(a.out, "  %-34s %12v   (waiting on the other node would take 2/3 of a lease at least: %v)\n", "the other node dead (SIGKILL)", mf.Dead.Round(time.Millisecond), (2 * cb.Lease / 3).Round(time.Millisecond))
	}
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Fprintf(a.out, "  this machine: %d CPUs, load %s, one 4 KiB write+fsync %v on the bench's disk.\n", runtime.NumCPU(), strings.Join(strings.Fields(string(load))[:min(3, len(strings.Fields(string(load))))], " "), f.Fsync.Round(10*time.Microsecond))
	fmt.Fprintf(a.out, "  What it limits: the three servers, their fsyncs and the node share these CPUs and one disk here, so a replicated\n"+
		"  append waits for two servers' fsyncs contending on that disk, then the node's own, and the servers' CPU is taken from\n"+
		"  the node's; on three machines each server fsyncs its own disk at once. The takeover time is set by the lease, not the machine.\n\n")
	return nil
}
