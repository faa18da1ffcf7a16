package intake

import (
	"sort"
	"sync"
	"time"
)

// limiter counts mails in a sliding window per key, in bounded memory: at
// most burst times per key, and at most maxKeys keys (past that, the key
// idle longest is forgotten, so a flood of made-up senders costs memory
// only up to the bound).
//
// The keys (see rateKey) are per authenticated player, per player for
// mail that is not authenticated but whose envelope agrees with From, and
// per envelope sender for mail whose envelope does not: forged mail
// counts against the forger's envelope, never against the player whose
// From it borrows.
type limiter struct {
	mu      sync.Mutex
	burst   int
	window  time.Duration
	maxKeys int
	keys    map[string]*bucket
}

type bucket struct {
	hits []int64 // unix ns, oldest first, at most burst
	told int64   // when the player was last told of the limit (unix ns)
	last int64   // newest hit or telling, for eviction
}

func newLimiter(burst int, window time.Duration, maxKeys int) *limiter {
	return &limiter{burst: burst, window: window, maxKeys: maxKeys, keys: map[string]*bucket{}}
}

// get returns key's bucket, made if new, with hits older than the window
// at now dropped.
func (l *limiter) get(key string, now int64) *bucket {
	b := l.keys[key]
	if b == nil {
		if len(l.keys) >= l.maxKeys {
			l.evict(now)
		}
		b = &bucket{}
		l.keys[key] = b
	}
	keep := b.hits[:0]
	for _, t := range b.hits {
		if now-t < int64(l.window) {
			keep = append(keep, t)
		}
	}
	b.hits = keep
	return b
}

// evict forgets the keys with nothing in the window, or else the one idle
// longest.
func (l *limiter) evict(now int64) {
	oldest, oldestKey := int64(0), ""
	for k, b := range l.keys {
		if now-b.last >= int64(l.window) {
			delete(l.keys, k)
			continue
		}
		if oldestKey == "" || b.last < oldest {
			oldest, oldestKey = b.last, k
		}
	}
	if len(l.keys) >= l.maxKeys && oldestKey != "" {
		delete(l.keys, oldestKey)
	}
}

// allow reports whether a mail under key at now is within the limit, and
// if so counts it.
func (l *limiter) allow(key string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	t := now.UnixNano()
	b := l.get(key, t)
	if len(b.hits) >= l.burst {
		return false
	}
	b.hits = append(b.hits, t)
	b.last = max(b.last, t)
	return true
}

// record counts a mail taken at t (seeding the limiter from the log),
// keeping hits in order.
func (l *limiter) record(key string, t time.Time, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(t) >= l.window {
		return
	}
	b := l.get(key, now.UnixNano())
	ns := t.UnixNano()
	b.hits = append(b.hits, ns)
	sort.Slice(b.hits, func(i, j int) bool { return b.hits[i] < b.hits[j] })
	if len(b.hits) > l.burst {
		b.hits = b.hits[len(b.hits)-l.burst:]
	}
	b.last = max(b.last, ns)
}

// tell reports whether the player behind key should be told of the limit
// now (once per window), and if so remembers it.
func (l *limiter) tell(key string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	t := now.UnixNano()
	b := l.get(key, t)
	if b.told != 0 && t-b.told < int64(l.window) {
		return false
	}
	b.told, b.last = t, max(b.last, t)
	return true
}

// told records that the player behind key was told at t (from the log).
func (l *limiter) told(key string, t time.Time, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(t) >= l.window {
		return
	}
	b := l.get(key, now.UnixNano())
	b.told = max(b.told, t.UnixNano())
	b.last = max(b.last, t.UnixNano())
}

// until returns when key's oldest hit leaves the window (when a mail is
// taken again).
func (l *limiter) until(key string, now time.Time) time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.get(key, now.UnixNano())
	if len(b.hits) == 0 {
		return now
	}
	return time.Unix(0, b.hits[0]).Add(l.window)
}

// size returns the number of keys held.
func (l *limiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.keys)
}

// rateKey is the limiter key of a mail from player of game whose sender
// was authenticated as a (see limiter).
func rateKey(game, player string, a senderAuth) string {
	switch {
	case a.how != "":
		return "auth\x00" + game + "\x00" + player
	case a.sender != "":
		return "sender\x00" + a.sender
	}
	return "unauth\x00" + game + "\x00" + player
}

// observerRateKey is the limiter key of an observer's mails.
func observerRateKey(game, addr string) string { return "observer\x00" + game + "\x00" + addr }

// noticeKeyFor is the limiter key of a notice that a mail from player's
// registered address causes, by who could have sent that mail: none ("",
// never held back) when its sender is authenticated, since the player's
// own mail always gets its answer; the envelope sender's when the
// envelope is not From (the forger's own budget); else the budget of the
// seat's unauthenticated mail, which forgers can spend, apart from the
// player's authenticated mail.
func noticeKeyFor(game, player string, a senderAuth) string {
	switch {
	case a.how != "":
		return ""
	case a.sender != "":
		return "notice\x00sender\x00" + a.sender
	}
	return "notice\x00unauth\x00" + game + "\x00" + player
}
