package intake

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"pbem/internal/waitfor"
	"pbem/mail/token"
	"pbem/store"
)

// clusterRoute stands for a cluster node's routing: g1 is this node's,
// g2's owner cannot be reached until reachable, g3 is known to the
// cluster and being rebuilt here (judged here, but not in the store yet)
// until moved, after which another node takes its mail.
type clusterRoute struct {
	mu        sync.Mutex
	reachable bool
	moved     bool
	handed    map[string]int // game -> mails handed to another node
	offers    map[string]int // game -> times asked
}

func (r *clusterRoute) route(game string, raw []byte) (bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.offers[game]++
	switch {
	case game == "g2" && !r.reachable:
		return false, errors.New("node n2: nats: no responders available for request")
	case game == "g2", game == "g3" && r.moved:
		r.handed[game]++
		return true, nil
	}
	return false, nil
}

func (r *clusterRoute) count(m map[string]int, game string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return m[game]
}

// With Route set (a cluster node), a mail whose game's owner cannot be
// reached, and one for a game the cluster knows but this node has not
// loaded yet, each wait in their game's queue: a later mail for another
// game is taken at once, nothing is quarantined, and the checkpoint
// stays before the oldest waiting mail, so that a restart reads the
// waiting mails again (and does not take twice what was taken). Once the
// owners answer, the waiting mails are taken and the checkpoint moves on.
func TestRoutedIntakeSetsAsideAnUnreachableGamesMailAndTakesTheOthers(t *testing.T) {
	st := newGame(t)
	host := startHost(t, "127.0.0.1:0", "127.0.0.1:0")
	defer host.Close()
	r := &clusterRoute{handed: map[string]int{}, offers: map[string]int{}}
	start := func() (*Intake, func()) {
		in := New(Config{Addr: host.IMAPAddr(), Username: "pbem", Password: "secret", Local: "pbem", Domain: domain, Secret: secret, Senders: transportAuth,
			PollEvery: 200 * time.Millisecond, RetryEvery: 100 * time.Millisecond, Route: r.route,
			Known: func(game string) bool { return game == "g1" || game == "g2" || game == "g3" }}, st)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { in.Run(ctx); close(done) }()
		return in, func() { cancel(); <-done }
	}
	in, stop := start()
	to := func(game string) string { return token.Address(secret, "pbem", domain, game, "usa") }
	deliver(t, host, "anna@example.org", mail("anna@example.org", to("g2"), "Re: x", "<w2@x>", "", "PASS\n"))
	deliver(t, host, "anna@example.org", mail("anna@example.org", to("g3"), "Re: x", "<w3@x>", "", "PASS\n"))
	deliver(t, host, "anna@example.org", mail("anna@example.org", reply("usa"), "Re: x", "<o1@x>", "", "PASS\n"))

	waitfor.Until(t, 15*time.Second, "g1's order, behind the two waiting mails", func() bool { es, _ := st.Events("g1", 2); return len(es) == 1 })
	waitfor.Until(t, 15*time.Second, "g2's mail offered again", func() bool { return r.count(r.offers, "g2") >= 3 })
	if w := in.Waiting(); w != 2 {
		t.Fatalf("%d mails waiting, want g2's and g3's", w)
	}
	if q, _ := st.QuarantineList(); len(q) != 0 {
		t.Fatalf("quarantined while their games were not ready: %+v", q)
	}
	if cp, _ := st.Checkpoint("INBOX"); cp.UID != 0 {
		t.Fatalf("checkpoint %+v past the oldest waiting mail (UID 1)", cp)
	}

	// A restart reads the waiting mails again; g1's order is not taken twice.
	stop()
	offered := r.count(r.offers, "g2")
	in, stop = start()
	defer func() { stop() }()
	waitfor.Until(t, 15*time.Second, "g2's mail read again after the restart", func() bool { return r.count(r.offers, "g2") > offered })
	waitfor.Until(t, 15*time.Second, "g1's order read again", func() bool { return in.Processed() >= 1 })
	if es, _ := st.Events("g1", 2); len(es) != 1 {
		t.Fatalf("g1 has %d orders after the restart, want 1", len(es))
	}

	r.mu.Lock()
	r.reachable, r.moved = true, true
	r.mu.Unlock()
	waitfor.Until(t, 15*time.Second, "the waiting mails taken", func() bool { return in.Waiting() == 0 })
	waitfor.Until(t, 15*time.Second, "the checkpoint past every mail", func() bool { cp, _ := st.Checkpoint("INBOX"); return cp.UID == 3 })
	if r.count(r.handed, "g2") != 1 || r.count(r.handed, "g3") != 1 {
		t.Fatalf("handed to their owners: %v", r.handed)
	}
	if q, _ := st.QuarantineList(); len(q) != 0 {
		t.Fatalf("quarantined: %+v", q)
	}
}

// A mail for a game the cluster knows (Config.Known) that this node's
// store does not have is not quarantined as for an unknown game: Take
// says the game is not ready, and commits nothing. A game nobody knows
// is quarantined as before.
func TestTakeSaysNotReadyForAGameTheClusterKnowsButThisNodeHasNot(t *testing.T) {
	st := newGame(t)
	in := New(Config{Local: "pbem", Domain: domain, Secret: secret, Senders: transportAuth, Known: func(game string) bool { return game == "g7" }}, st)
	to := func(game string) string { return token.Address(secret, "pbem", domain, game, "usa") }
	err := in.Take(mail("anna@example.org", to("g7"), "Re: x", "<k7@x>", "", "PASS\n"), "INBOX", store.Checkpoint{UIDValidity: 1, UID: 1})
	var nr *NotReadyError
	if !errors.As(err, &nr) || nr.Game != "g7" {
		t.Fatalf("Take: %v, want a NotReadyError for g7", err)
	}
	if cp, _ := st.Checkpoint("INBOX"); cp.UID != 0 {
		t.Fatalf("checkpoint %+v moved past a mail not taken", cp)
	}
	if err := in.Take(mail("anna@example.org", to("g8"), "Re: x", "<k8@x>", "", "PASS\n"), "INBOX", store.Checkpoint{UIDValidity: 1, UID: 2}); err != nil {
		t.Fatal(err)
	}
	q, _ := st.QuarantineList()
	if len(q) != 1 || !strings.Contains(q[0].Reason, `unknown game "g8"`) {
		t.Fatalf("quarantine %+v, want only g8's mail as an unknown game's", q)
	}
}
