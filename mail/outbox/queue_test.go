package outbox

import (
	"fmt"
	"testing"
	"time"

	"pbem/events"
)

// queueOf is a Sender with nothing to send through: only its queue is
// used.
func queueOf(now func() time.Time) *Sender {
	return New(Config{Addr: "127.0.0.1:1", Now: now}, nil)
}

// next gives the mail due first of a game with none in flight, each
// game's in the order they were queued, and nothing while every game
// with mail has one in flight; a retry waits its turn by its due time.
func TestNextTakesTheMailDueFirstOfAGameWithNoneInFlight(t *testing.T) {
	at := time.Unix(1_700_000_000, 0)
	s := queueOf(func() time.Time { return at })
	for i, g := range []string{"a", "b", "a", "c", "b"} {
		s.Enqueue(g, uint64(i+1), at, &events.MailQueued{MailID: fmt.Sprint("m", i)}, 0)
	}
	var got []string
	var flying []*item
	for {
		it, _ := s.next()
		if it == nil {
			break
		}
		got = append(got, it.game+":"+it.q.MailID)
		flying = append(flying, it)
	}
	if want := "[a:m0 b:m1 c:m3]"; fmt.Sprint(got) != want {
		t.Fatalf("taken while none is done: %v, want %v", got, want)
	}
	// a's mail fails for a while (its next try in a minute); b's is done.
	s.mu.Lock()
	s.change(flying[0], func() { flying[0].due, flying[0].inflight = at.Add(time.Minute), false })
	s.remove(flying[1])
	s.mu.Unlock()
	got = got[:0]
	for {
		it, _ := s.next()
		if it == nil {
			break
		}
		got = append(got, it.game+":"+it.q.MailID)
	}
	// a's first mail is due in a minute, its second now: with none of a's
	// in flight, the one due first goes (a:m2), and b's next (b:m4).
	if want := "[a:m2 b:m4]"; fmt.Sprint(got) != want {
		t.Fatalf("taken after a retry and a mail done: %v, want %v", got, want)
	}
	if it, wait := s.next(); it != nil || wait != -1 {
		t.Fatalf("with every game's mail in flight: %v, %v", it, wait)
	}
}

// BenchmarkNextWithABacklog takes the next mail of a backlog of 5,000
// replies in 16 games and puts it back done, as the workers do when a
// burst of orders has left the outbox behind; before the queue was
// indexed each call looked through the whole backlog.
func BenchmarkNextWithABacklog(b *testing.B) {
	at := time.Unix(1_700_000_000, 0)
	s := queueOf(func() time.Time { return at })
	n := 0
	enqueue := func() {
		n++
		s.Enqueue(fmt.Sprintf("g%02d", n%16), uint64(n), at, &events.MailQueued{MailID: fmt.Sprint("m", n)}, 0)
	}
	for range 5000 {
		enqueue()
	}
	b.ReportAllocs()
	for b.Loop() {
		it, _ := s.next()
		if it == nil {
			b.Fatal("nothing due")
		}
		s.mu.Lock()
		s.remove(it)
		s.mu.Unlock()
		enqueue()
	}
}
