package store

import (
	"hash/maphash"
	"slices"

	"pbem/events"
)

// recentKeys is what the committer knows of one game's log after its
// last commit that appended to it: the head it left, how far the index
// of idempotency keys reached, and a hash of each key not in the index
// yet. An append that finds the game at that head takes the index mark
// from here instead of the file, and reads the unindexed events only
// when one of its keys hashes like one of theirs: without it, each
// append read up to indexLag events and two index values to learn
// that its keys were new, a third of its work inside the commit.
//
// Only the store's appends write a log, and a game's state at a head
// (same seq, same chained hash) is the same wherever it is read, so an
// entry whose head is the transaction's head is exact. An entry is
// written once its commit is durable, never from an append that failed.
type recentKeys struct {
	head    Head
	indexed uint64 // indexedThrough's seq
	marked  bool   // indexedThrough's mark
	hashes  []uint64
}

// recentGames bounds the committer's entries: past it they are all
// dropped (they only save reads).
const recentGames = 1 << 14

// recentCache is the committer's recentKeys, by game. It is used by the
// group's goroutine alone (apply and done both run there), so it takes
// no lock.
type recentCache struct {
	seed  maphash.Seed
	games map[string]*recentKeys
}

func newRecentCache() *recentCache {
	return &recentCache{seed: maphash.MakeSeed(), games: map[string]*recentKeys{}}
}

// at returns game's entry if its last commit left it at h, else nil.
func (c *recentCache) at(game string, h Head) *recentKeys {
	rk := c.games[game]
	if rk == nil || rk.head != h {
		return nil
	}
	return rk
}

// set records game's entry after a durable commit.
func (c *recentCache) set(game string, rk *recentKeys) {
	if len(c.games) >= recentGames && c.games[game] == nil {
		clear(c.games)
	}
	c.games[game] = rk
}

func (c *recentCache) hash(key string) uint64 { return maphash.String(c.seed, key) }

// mayHold reports whether one of keys ("" and those found, found[i] != 0,
// skipped) may be the key of one of rk's unindexed events.
func (c *recentCache) mayHold(rk *recentKeys, keys []string, found []uint64) bool {
	for i, k := range keys {
		if k != "" && found[i] == 0 && slices.Contains(rk.hashes, c.hash(k)) {
			return true
		}
	}
	return false
}

// after returns the entry for the head an append leaves, given the
// entry for the head it found (nil: unknown, and so is the result) and
// the events it wrote; indexed says the append indexed every key.
func (c *recentCache) after(rk *recentKeys, h Head, indexed bool, out []events.Envelope) *recentKeys {
	switch {
	case indexed:
		return &recentKeys{head: h, indexed: h.Seq, marked: true}
	case rk == nil:
		return nil
	}
	next := &recentKeys{head: h, indexed: rk.indexed, marked: true, hashes: slices.Clip(rk.hashes)}
	for _, e := range out {
		if e.Key != "" {
			next.hashes = append(next.hashes, c.hash(e.Key))
		}
	}
	return next
}
