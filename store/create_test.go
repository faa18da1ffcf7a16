package store

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// createChild makes new stores and KV files one after another, as fast as
// it can, until it is killed (see TestKilledCreationLeavesNoDamagedFile).
func createChild(dir string) {
	fmt.Println("started") // the parent times its kill from here
	for i := 0; ; i++ {
		name := filepath.Join(dir, fmt.Sprintf("%d-%d", os.Getpid(), i))
		var err error
		if i%2 == 0 {
			var st *Store
			if st, err = Open(name+".db", Options{}); err == nil {
				err = st.Close()
			}
		} else {
			var kv *KV
			if kv, err = OpenKV(name+".kv", KVOptions{Buckets: []string{"host", "users"}}); err == nil {
				err = kv.Close()
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "child create:", err)
			os.Exit(3)
		}
	}
}

// A process killed with SIGKILL while it makes a new store or KV file
// leaves either no file or a whole one: every file that has its name
// opens and checks sound, and the temporary files of cut creations are
// removed when the file is next opened for writing.
func TestKilledCreationLeavesNoDamagedFile(t *testing.T) {
	dir := t.TempDir()
	const kills = 40
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 2))
	var files, leftovers int
	for k := 1; k <= kills; k++ {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "PBEM_CREATE_CHILD="+dir)
		cmd.Stderr = os.Stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Once it runs (a race-enabled binary takes a while to start),
		// kill it at a random moment of its first few creations.
		if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
			t.Fatalf("kill %d: the child did not start: %v", k, err)
		}
		time.Sleep(time.Duration(rng.IntN(40)) * time.Millisecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		err = cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("kill %d: the child exited by itself (%v): it should create files until killed", k, err)
		}
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var cut []string
	for _, e := range ents {
		path := filepath.Join(dir, e.Name())
		switch {
		case strings.Contains(e.Name(), creatingInfix):
			leftovers++
			cut = append(cut, path[:strings.Index(path, creatingInfix)])
		case strings.HasSuffix(e.Name(), ".db"):
			files++
			st, err := Open(path, Options{ReadOnly: true, MustExist: true})
			if err != nil {
				t.Fatalf("%s: %v", e.Name(), err)
			}
			if ps, err := st.Check(); err != nil || len(ps) > 0 {
				t.Errorf("%s: check: %v %v", e.Name(), ps, err)
			}
			st.Close()
		case strings.HasSuffix(e.Name(), ".kv"):
			files++
			kv, err := OpenKV(path, KVOptions{ReadOnly: true, MustExist: true, Buckets: []string{"host", "users"}})
			if err != nil {
				t.Fatalf("%s: %v", e.Name(), err)
			}
			if ps, err := kv.Check(); err != nil || len(ps) > 0 {
				t.Errorf("%s: check: %v %v", e.Name(), ps, err)
			}
			kv.Close()
		}
	}
	// The next writer of a cut creation's file removes its leftover (and
	// makes the file, whole).
	for _, path := range cut {
		var err error
		if strings.HasSuffix(path, ".db") {
			var st *Store
			if st, err = Open(path, Options{}); err == nil {
				st.Close()
			}
		} else {
			var kv *KV
			if kv, err = OpenKV(path, KVOptions{Buckets: []string{"host", "users"}}); err == nil {
				kv.Close()
			}
		}
		if err != nil {
			t.Fatalf("open %s after a cut creation: %v", path, err)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*"+creatingInfix+"*")); len(left) > 0 {
		t.Errorf("temporary files of cut creations left after their files were opened: %v", left)
	}
	t.Logf("%d kills: %d files made whole, %d creations cut (their temporary files removed at the next open)", kills, files, leftovers)
	if files+leftovers < kills/2 || leftovers == 0 {
		t.Fatalf("%d files made and %d creations cut in %d runs: the test did not exercise creation", files, leftovers, kills)
	}
}

// A file made by another process between the look for it and the link is
// the one opened: creation never replaces a file that has its name.
func TestCreateNeverReplacesAFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pbem.db")
	first, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := first.Append("g1", 0, order("g1", "k1", "a")); err != nil {
		t.Fatal(err)
	}
	first.Close()
	if err := createFile(path, fileOptions{buckets: topBuckets, lockTimeout: time.Second}); err != nil {
		t.Fatal(err)
	}
	st, err := Open(path, Options{MustExist: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if h, err := st.Head("g1"); err != nil || h.Seq != 1 {
		t.Fatalf("after a second creation: head %+v, %v; want the first file's game at seq 1", h, err)
	}
	if left, _ := filepath.Glob(path + creatingInfix + "*"); len(left) > 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}
