package store

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"pbem/events"
)

// The crash test: a child process appends inputs to many games as fast as
// it can and writes each acknowledged append to a side file; the test
// kills it with SIGKILL at random moments, restarts it, and after every
// kill checks the store: every chain verifies, every acknowledged input is
// there at the seq it was acknowledged at, and no input is stored twice.
// The child is this test binary, re-run with PBEM_CRASH_CHILD set.

const crashGames = 16

func TestMain(m *testing.M) {
	if dir := os.Getenv("PBEM_CRASH_CHILD"); dir != "" {
		crashChild(dir)
		return
	}
	if dir := os.Getenv("PBEM_CREATE_CHILD"); dir != "" {
		createChild(dir)
		return
	}
	os.Exit(m.Run())
}

// crashChild appends forever. Input i of game g has the idempotency key
// "g/i"; on restart the child resumes after the last input it recorded as
// acknowledged, so it re-sends any input that was committed but not yet
// acknowledged — which the store must recognise as a duplicate.
func crashChild(dir string) {
	st, err := Open(filepath.Join(dir, "crash.db"), Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "child open:", err)
		os.Exit(3)
	}
	next := map[string]int{}
	for _, a := range readAcks(dir) {
		if a.i+1 > next[a.game] {
			next[a.game] = a.i + 1
		}
	}
	side, err := os.OpenFile(filepath.Join(dir, "acked"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		os.Exit(3)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for g := 0; g < crashGames; g++ {
		wg.Add(1)
		go func(game string, i int) {
			defer wg.Done()
			for ; ; i++ {
				key := fmt.Sprintf("%s/%d", game, i)
				for {
					h, err := st.Head(game)
					if err != nil {
						os.Exit(4)
					}
					e := events.New(game, time.Unix(int64(i), 0), key, &events.OrderReceived{Player: "p", Text: key, MessageID: key})
					res, err := st.Append(game, h.Seq, e)
					if _, ok := err.(*ConflictError); ok {
						continue
					}
					if err != nil {
						os.Exit(5)
					}
					// Committed but not yet acknowledged: widen this window so
					// kills land in it, as a crash after commit would.
					time.Sleep(time.Duration(rand.IntN(400)) * time.Microsecond)
					mu.Lock()
					// One write per ack: a kill may cut a line short, never forge one.
					fmt.Fprintf(side, "%s %d %d\n", game, i, res.First)
					mu.Unlock()
					break
				}
			}
		}(fmt.Sprintf("game%02d", g), next[fmt.Sprintf("game%02d", g)])
	}
	wg.Wait()
}

type ack struct {
	game string
	i    int
	seq  uint64
}

func readAcks(dir string) []ack {
	f, err := os.Open(filepath.Join(dir, "acked"))
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []ack
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.Fields(sc.Text())
		if len(parts) != 3 {
			continue // a line cut short by the kill
		}
		i, err1 := strconv.Atoi(parts[1])
		seq, err2 := strconv.ParseUint(parts[2], 10, 64)
		if err1 != nil || err2 != nil {
			continue
		}
		out = append(out, ack{parts[0], i, seq})
	}
	return out
}

func TestCrashSIGKILLLosesAndDuplicatesNothing(t *testing.T) {
	dir := t.TempDir()
	const kills = 24
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	var totalAcked, totalStored, maxDup int
	for k := 0; k < kills; k++ {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "PBEM_CRASH_CHILD="+dir)
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Let it open the file and get going, then kill it at a random moment.
		time.Sleep(time.Duration(30+rng.IntN(170)) * time.Millisecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		err := cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("kill %d: the child exited by itself (%v): it should append until killed", k+1, err)
		}
		totalAcked, totalStored, maxDup = checkCrashStore(t, dir, k+1)
	}
	t.Logf("crash test: %d SIGKILLs; %d inputs acknowledged, %d stored, all acknowledged present, %d duplicates", kills, totalAcked, totalStored, maxDup)
	if totalAcked < 100 {
		t.Fatalf("only %d appends acknowledged over %d runs: the test did not exercise the store", totalAcked, kills)
	}
}

func checkCrashStore(t *testing.T, dir string, kill int) (acked, stored, dups int) {
	t.Helper()
	st, err := Open(filepath.Join(dir, "crash.db"), Options{})
	if err != nil {
		t.Fatalf("after kill %d: reopen: %v", kill, err)
	}
	defer st.Close()
	byKey := map[string]uint64{}
	gs, err := st.Games()
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range gs {
		if n, err := st.Verify(g.Game); err != nil {
			t.Fatalf("after kill %d: %s chain: %v (after %d good)", kill, g.Game, err, n)
		}
		err := st.Read(g.Game, 1, func(e *events.Envelope) error {
			if _, dup := byKey[e.Key]; dup {
				dups++
				t.Errorf("after kill %d: input %s stored twice", kill, e.Key)
			}
			byKey[e.Key] = e.Seq
			stored++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, a := range readAcks(dir) {
		acked++
		seq, ok := byKey[fmt.Sprintf("%s/%d", a.game, a.i)]
		if !ok {
			t.Fatalf("after kill %d: acknowledged input %s/%d (seq %d) is missing", kill, a.game, a.i, a.seq)
		}
		if seq != a.seq {
			t.Fatalf("after kill %d: input %s/%d acknowledged at seq %d, stored at %d", kill, a.game, a.i, a.seq, seq)
		}
	}
	return acked, stored, dups
}
