package store

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"pbem/events"
)

// mappedRss is how much of the file at path this process has resident
// through its mappings of it, from /proc/self/smaps.
func mappedRss(t *testing.T, path string) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	defer f.Close()
	var total int64
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		switch {
		case len(fields) >= 5 && strings.Contains(fields[0], "-"):
			in = len(fields) >= 6 && strings.Join(fields[5:], " ") == path
		case in && fields[0] == "Rss:" && len(fields) >= 2:
			kb, _ := strconv.ParseInt(fields[1], 10, 64)
			total += kb << 10
		}
	}
	return total
}

// Reading a store maps its pages into the process, and they stayed
// resident after the read, so a server that had loaded ten thousand games
// held a gigabyte of the file it no longer used. The store lets go of
// them as it keeps reading, and what it reads afterwards is intact.
func TestReadingReleasesTheFilePagesItMapped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pbem.db")
	st, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	const games, perGame = 64, 64
	text := func(g, i int) string {
		return strings.Repeat(fmt.Sprintf("game %d order %d: MARCH Newton 2314 2315. ", g, i), 180) // ~8 KB
	}
	for g := range games {
		id := fmt.Sprintf("g%03d", g)
		evs := make([]events.Envelope, perGame)
		for i := range evs {
			evs[i] = order(id, "", text(g, i))
		}
		if _, err := st.Append(id, 0, evs...); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	// A limit below what the test reads (the executable's own pages count).
	if st, err = Open(path, Options{MustExist: true, MappedLimit: 1 << 20}); err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	abs, _ := filepath.Abs(path)

	readAll := func() int64 {
		var n int64
		for g := range games {
			id := fmt.Sprintf("g%03d", g)
			i := 0
			err := st.Read(id, 1, func(e *events.Envelope) error {
				p, err := events.Decode(e)
				if err != nil {
					return err
				}
				if got := p.(*events.OrderReceived).Text; got != text(g, i) {
					return fmt.Errorf("%s seq %d reads %.40q…", id, e.Seq, got)
				}
				i++
				n += int64(len(e.Payload))
				return nil
			})
			if err != nil || i != perGame {
				t.Fatalf("%s: %d events read, %v", id, i, err)
			}
		}
		return n
	}
	read := readAll()
	if got := mappedRss(t, abs); got < read/2 {
		t.Fatalf("after reading %d bytes, %d of the file are resident: the test needs the pages a read touches to stay mapped until released", read, got)
	}
	// Reading on: small reads, past the store's release interval.
	time.Sleep(releaseAfter)
	for range releaseEvery {
		if _, err := st.Head("g000"); err != nil {
			t.Fatal(err)
		}
	}
	if got := mappedRss(t, abs); got > 1<<20 {
		t.Fatalf("%d bytes of the file still resident after reading on; want the %d bytes read long ago released", got, read)
	}
	readAll()
}
