package intake

import (
	"bufio"
	"bytes"
	"context"
	"net"
	"net/textproto"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-msgauth/authres"
)

// keyCache looks up DKIM keys (the TXT records at selector._domainkey.
// domain) for the intake: each name once at a time, with a short timeout,
// its answer kept for keyTTL and its failure for failTTL, so that a mail
// whose key server never answers costs one timeout, not one per mail, and
// the lookups of a batch of mails run at once (prefetch) instead of one
// after another. The standard resolver does not give the records' TTLs:
// keyTTL and failTTL are caps below any key rotation a signer announces.
type keyCache struct {
	lookup  func(ctx context.Context, name string) ([]string, error)
	timeout time.Duration
	now     func() time.Time

	mu      sync.Mutex
	entries map[string]*keyEntry
}

type keyEntry struct {
	done    chan struct{} // closed when the lookup ended
	txt     []string
	err     error
	expires time.Time
}

const (
	keyTTL        = time.Hour
	failTTL       = 5 * time.Minute
	keyTimeout    = 2 * time.Second
	maxKeyEntries = 4096
)

func newKeyCache(lookup func(ctx context.Context, name string) ([]string, error), now func() time.Time) *keyCache {
	if lookup == nil {
		lookup = net.DefaultResolver.LookupTXT
	}
	if now == nil {
		now = time.Now
	}
	return &keyCache{lookup: lookup, timeout: keyTimeout, now: now, entries: map[string]*keyEntry{}}
}

// entry returns name's entry, starting its lookup if none is cached.
func (c *keyCache) entry(name string) *keyEntry {
	name = strings.ToLower(strings.TrimSuffix(name, "."))
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	if e := c.entries[name]; e != nil {
		select {
		case <-e.done:
			if now.Before(e.expires) {
				return e
			}
		default:
			return e // still looking
		}
	}
	if len(c.entries) >= maxKeyEntries {
		for k, e := range c.entries {
			select {
			case <-e.done:
				if !now.Before(e.expires) || len(c.entries) >= maxKeyEntries {
					delete(c.entries, k)
				}
			default:
			}
		}
	}
	e := &keyEntry{done: make(chan struct{})}
	c.entries[name] = e
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
		defer cancel()
		txt, err := c.lookup(ctx, name)
		ttl := keyTTL
		if err != nil {
			ttl = failTTL
		}
		c.mu.Lock()
		e.txt, e.err, e.expires = txt, err, c.now().Add(ttl)
		c.mu.Unlock()
		close(e.done)
	}()
	return e
}

// LookupTXT is the lookup dkim.VerifyOptions takes: the cached answer,
// waiting at most the timeout for one being looked up.
func (c *keyCache) LookupTXT(name string) ([]string, error) {
	e := c.entry(name)
	<-e.done
	c.mu.Lock()
	defer c.mu.Unlock()
	return e.txt, e.err
}

// prefetch starts the key lookups a raw mail's DKIM signatures need,
// without waiting for them: all of them when servID (mail.authserv_id) is
// empty, else only for a mail without the receiving host's field on top,
// the one mail whose signatures pbem checks itself.
func (c *keyCache) prefetch(raw []byte, servID string) {
	h, err := textproto.NewReader(bufio.NewReader(bytes.NewReader(raw))).ReadMIMEHeader()
	if err != nil && len(h) == 0 {
		return
	}
	if ar := h.Values("Authentication-Results"); servID != "" && len(ar) > 0 {
		if id, _, _ := authres.Parse(stripComments(ar[0])); strings.EqualFold(id, servID) {
			return
		}
	}
	sigs := h.Values("Dkim-Signature")
	for i, sig := range sigs {
		if i == maxDKIMSignatures {
			break
		}
		d, s := dkimTag(sig, "d"), dkimTag(sig, "s")
		if d != "" && s != "" {
			c.entry(s + "._domainkey." + d)
		}
	}
}

// keyLookup adapts AuthConfig.LookupTXT (nil: DNS) to a lookup bounded by
// its context.
func keyLookup(f func(domain string) ([]string, error)) func(ctx context.Context, name string) ([]string, error) {
	if f == nil {
		return net.DefaultResolver.LookupTXT
	}
	return func(ctx context.Context, name string) ([]string, error) {
		type answer struct {
			txt []string
			err error
		}
		ch := make(chan answer, 1)
		go func() {
			txt, err := f(name)
			ch <- answer{txt, err}
		}()
		select {
		case a := <-ch:
			return a.txt, a.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// noticeWho names the sender behind a notice key, for the intake log.
func noticeWho(key string) string {
	if a, ok := strings.CutPrefix(key, "notice\x00sender\x00"); ok {
		return "the envelope sender " + a
	}
	return "anyone writing in the player's name"
}
