package bus

import (
	"errors"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
)

// reachLogEvery bounds how often a NATS that stays unreachable is logged
// again after its first failure.
const reachLogEvery = 10 * time.Second

// reach says, in the log, when NATS cannot be reached: the first failed
// connection attempt at once, with the URLs and the error, then again at
// most every reachLogEvery while it lasts, and when it is reached after
// failures.
type reach struct {
	urls string // redacted: a password in a URL is never logged
	mu   sync.Mutex
	// failures since the last connection, and when they were last logged.
	failures int
	logged   time.Time
}

func newReach(urls []string) *reach {
	shown := make([]string, len(urls))
	for i, s := range urls {
		shown[i] = "(a URL that does not parse)"
		if u, err := url.Parse(s); err == nil {
			shown[i] = u.Redacted()
		}
	}
	return &reach{urls: strings.Join(shown, ",")}
}

// options are the connection's handlers of failed and made connections.
func (r *reach) options(b *Bus) []nats.Option {
	return []nats.Option{
		nats.ReconnectErrHandler(func(_ *nats.Conn, err error) { r.failed(b, err) }),
		nats.ConnectHandler(func(c *nats.Conn) { r.reached(b, c) }),
	}
}

func (r *reach) failed(b *Bus, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failures++
	now := time.Now()
	switch {
	case r.logged.IsZero() && errors.Is(err, nats.ErrNoServers):
		// The first failure of a connection that never was says only
		// this; the next attempt, a moment later, says why.
		return
	case r.logged.IsZero():
		b.lg.Error("cannot reach NATS; retrying", "urls", r.urls, "err", err)
	case now.Sub(r.logged) >= reachLogEvery:
		b.lg.Error("still cannot reach NATS; retrying", "urls", r.urls, "attempts", r.failures, "err", err)
	default:
		return
	}
	r.logged = now
}

// reset forgets the failures: the connection is made.
func (r *reach) reset() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := r.failures
	r.failures, r.logged = 0, time.Time{}
	return n
}

func (r *reach) reached(b *Bus, c *nats.Conn) {
	if n := r.reset(); n > 0 {
		b.lg.Info("NATS reached", "url", c.ConnectedUrlRedacted(), "failed_attempts", n)
	}
}
