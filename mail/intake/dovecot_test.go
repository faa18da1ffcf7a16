//go:build linux

package intake

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"pbem/events"
	"pbem/internal/dovecottest"
	"pbem/internal/waitfor"
	"pbem/store"
)

// appendMail appends raw to the INBOX and returns its UID (Dovecot has
// UIDPLUS) and when the APPEND completed.
func appendMail(t *testing.T, c *imapclient.Client, raw []byte) (*imap.AppendData, time.Time) {
	t.Helper()
	cmd := c.Append("INBOX", int64(len(raw)), nil)
	if _, err := cmd.Write(raw); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := cmd.Wait()
	if err != nil {
		t.Fatalf("append: %v", err)
	}
	if data.UID == 0 || data.UIDValidity == 0 {
		t.Fatalf("append: no APPENDUID in %+v", data)
	}
	return data, time.Now()
}

// commitLog is the store, with a note of every commit the intake makes.
type commitLog struct {
	*store.Store
	commits chan commit
}

type commit struct {
	at          time.Time
	key         string // an event's idempotency key (the Message-ID)
	quarantined uint32 // a quarantined mail's UID
	duplicate   bool
}

func (l *commitLog) Do(r store.Request) (store.Result, error) {
	res, err := l.Store.Do(r)
	if err == nil {
		l.commits <- commit{at: time.Now(), key: r.Events[0].Key, duplicate: res.Duplicate}
	}
	return res, err
}

func (l *commitLog) Quarantine(q store.Quarantined, cp store.Checkpoint) (string, error) {
	id, err := l.Store.Quarantine(q, cp)
	if err == nil {
		l.commits <- commit{at: time.Now(), quarantined: q.UID}
	}
	return id, err
}

func (l *commitLog) next(t *testing.T) commit {
	t.Helper()
	select {
	case c := <-l.commits:
		return c
	case <-time.After(10 * time.Second):
		t.Fatal("timed out waiting for the intake to commit a mail")
		return commit{}
	}
}

// waitSeen waits until every message of uids is flagged \Seen.
func waitSeen(t *testing.T, c *imapclient.Client, uids ...imap.UID) {
	t.Helper()
	waitfor.Until(t, 15*time.Second, fmt.Sprintf("\\Seen on UIDs %v", uids), func() bool {
		if err := c.Noop().Wait(); err != nil {
			t.Fatal(err)
		}
		msgs, err := c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{UID: true, Flags: true}).Collect()
		if err != nil {
			t.Fatal(err)
		}
		seen := 0
		for _, m := range msgs {
			for _, f := range m.Flags {
				if f == imap.FlagSeen {
					seen++
				}
			}
		}
		return seen == len(uids)
	})
}

func TestDovecotOrderMailBecomesAnEvent(t *testing.T) {
	dc := dovecottest.Start(t)
	st := newGame(t)
	log := &commitLog{Store: st, commits: make(chan commit, 64)}
	in := New(Config{Addr: dc.Addr, Username: dovecottest.User, Password: dovecottest.Password, Local: "pbem", Domain: domain, Secret: secret, Senders: transportAuth,
		PollEvery: 200 * time.Millisecond}, log)
	var stopIntake func()
	run := func() {
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { defer wg.Done(); in.Run(ctx) }()
		var once sync.Once
		stopIntake = func() { once.Do(func() { cancel(); wg.Wait() }) }
	}
	run()
	t.Cleanup(func() { stopIntake() })
	waitfor.Until(t, 15*time.Second, "the intake to log in to Dovecot", func() bool { return in.Sessions() >= 1 })

	// Another session IDLEs on the INBOX, to see Dovecot's own notification
	// delay next to the intake's (which also polls every 200 ms).
	exists := make(chan time.Time, 16)
	watcher := dc.Dial(t, &imapclient.Options{UnilateralDataHandler: &imapclient.UnilateralDataHandler{
		Mailbox: func(d *imapclient.UnilateralDataMailbox) {
			if d.NumMessages != nil {
				select {
				case exists <- time.Now():
				default:
				}
			}
		},
	}})
	idle, err := watcher.Idle()
	if err != nil {
		t.Fatal(err)
	}
	c := dc.Dial(t, nil)

	latency := func(what string, appended time.Time, committed commit) {
		idleNote := "no IDLE notification yet"
		select {
		case at := <-exists:
			idleNote = fmt.Sprintf("Dovecot's IDLE notification to another session after %v", at.Sub(appended).Round(time.Millisecond))
		case <-time.After(time.Until(appended.Add(time.Second))):
		}
		t.Logf("%s: APPEND completed → committed in %v (%s)", what, committed.at.Sub(appended).Round(time.Millisecond), idleNote)
	}

	// An order from a registered player to their reply address.
	order := mail("anna@example.org", reply("usa"), "Re: [pbem g1] your move", "<d1@x>", "", "MARCH Newton 2314 2315\n")
	a1, at1 := appendMail(t, c, order)
	c1 := log.next(t)
	if c1.key != "<d1@x>" || c1.duplicate {
		t.Fatalf("first commit %+v, want the order <d1@x>", c1)
	}
	latency("order", at1, c1)

	// A stranger's mail: quarantined, never an order.
	stranger := mail("who@else.example", "pbem@"+domain, "hello", "<q1@x>", "", "Is this the game?\n")
	a2, at2 := appendMail(t, c, stranger)
	c2 := log.next(t)
	if c2.quarantined != uint32(a2.UID) {
		t.Fatalf("second commit %+v, want the stranger's mail (UID %d) quarantined", c2, a2.UID)
	}
	latency("stranger", at2, c2)
	idle.Close()
	if err := idle.Wait(); err != nil {
		t.Fatal(err)
	}

	es, err := st.Events("g1", 2)
	if err != nil || len(es) != 1 {
		t.Fatalf("events after the creation: %d (%v), want 1", len(es), err)
	}
	p, err := events.Decode(&es[0])
	if err != nil {
		t.Fatal(err)
	}
	if o, ok := p.(*events.OrderReceived); !ok || o.Player != "usa" || o.Text != "MARCH Newton 2314 2315\n" || o.MessageID != "<d1@x>" || o.Source != "mail" {
		t.Fatalf("event %T %+v, want usa's order", p, p)
	}
	if raw, ok, _ := st.Raw("g1", es[0].Seq); !ok || string(raw) != string(order) {
		t.Fatal("the order's raw mail is not kept with its event")
	}
	q, err := st.QuarantineList()
	if err != nil || len(q) != 1 {
		t.Fatalf("quarantine %+v (%v), want the stranger's mail", q, err)
	}
	if q[0].From != "who@else.example" || q[0].UID != uint32(a2.UID) || q[0].Mailbox != "INBOX" ||
		!strings.Contains(q[0].Reason, "no reply token") || string(q[0].Raw) != string(stranger) {
		t.Fatalf("quarantined %+v", q[0])
	}
	if cp, _ := st.Checkpoint("INBOX"); cp != (store.Checkpoint{UIDValidity: a1.UIDValidity, UID: uint32(a2.UID)}) {
		t.Fatalf("checkpoint %+v, want UIDVALIDITY %d UID %d", cp, a1.UIDValidity, a2.UID)
	}
	waitSeen(t, c, a1.UID, a2.UID)

	// The intake restarts: it goes on from its checkpoint, takes a new
	// order and takes nothing twice.
	stopIntake()
	sessions, processed := in.Sessions(), in.Processed()
	run()
	waitfor.Until(t, 15*time.Second, "the restarted intake to log in", func() bool { return in.Sessions() > sessions })
	next := mail("anna@example.org", reply("usa"), "Re: [pbem g1] your move", "<d3@x>", "", "PASS\n")
	a3, at3 := appendMail(t, c, next)
	c3 := log.next(t)
	if c3.key != "<d3@x>" || c3.duplicate {
		t.Fatalf("first commit after the restart %+v, want the new order <d3@x> (earlier mails read again?)", c3)
	}
	t.Logf("order after restart: APPEND completed → committed in %v", c3.at.Sub(at3).Round(time.Millisecond))
	es, _ = st.Events("g1", 2)
	if len(es) != 2 {
		t.Fatalf("%d orders after the restart, want 2", len(es))
	}
	p, _ = events.Decode(&es[1])
	if o, ok := p.(*events.OrderReceived); !ok || o.Player != "usa" || o.MessageID != "<d3@x>" || o.Text != "PASS\n" {
		t.Fatalf("second event %T %+v, want usa's PASS", p, p)
	}
	if q, _ := st.QuarantineList(); len(q) != 1 {
		t.Fatalf("quarantine after the restart: %d mails, want 1", len(q))
	}
	if cp, _ := st.Checkpoint("INBOX"); cp != (store.Checkpoint{UIDValidity: a1.UIDValidity, UID: uint32(a3.UID)}) {
		t.Fatalf("checkpoint after the restart %+v, want UID %d", cp, a3.UID)
	}
	waitSeen(t, c, a1.UID, a2.UID, a3.UID)
	// The restarted intake counted the new mail and nothing else.
	waitfor.Until(t, 15*time.Second, "the new mail counted", func() bool { return in.Processed() >= processed+1 })
	if n := in.Processed(); n != processed+1 {
		t.Fatalf("processed %d mails after the restart, want %d", n, processed+1)
	}
	select {
	case extra := <-log.commits:
		t.Fatalf("unexpected further commit %+v", extra)
	default:
	}
}
