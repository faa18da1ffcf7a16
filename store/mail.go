package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"net/mail"
	"sort"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"pbem/events"
)

// Checkpoint is how far a mailbox has been read: every message with a UID
// up to UID, under UIDValidity, has been committed (as an event or to the
// quarantine). It is written in the same transaction as what the message
// produced, so a crash between the two cannot happen.
type Checkpoint struct {
	UIDValidity uint32
	UID         uint32
}

// Checkpoint returns the checkpoint of mailbox (zero if none).
func (s *Store) Checkpoint(mailbox string) (Checkpoint, error) {
	var cp Checkpoint
	err := s.view(func(tx *bolt.Tx) error {
		if v := tx.Bucket(bCkpt).Get([]byte(mailbox)); len(v) == 8 {
			cp = Checkpoint{binary.BigEndian.Uint32(v), binary.BigEndian.Uint32(v[4:])}
		}
		return nil
	})
	return cp, err
}

// putCheckpoint advances mailbox's checkpoint inside tx. Under the same
// UIDValidity it never moves back.
func putCheckpoint(tx *bolt.Tx, mailbox string, cp Checkpoint) error {
	b := tx.Bucket(bCkpt)
	if v := b.Get([]byte(mailbox)); len(v) == 8 {
		old := Checkpoint{binary.BigEndian.Uint32(v), binary.BigEndian.Uint32(v[4:])}
		if old.UIDValidity == cp.UIDValidity && old.UID >= cp.UID {
			return nil
		}
	}
	v := make([]byte, 8)
	binary.BigEndian.PutUint32(v, cp.UIDValidity)
	binary.BigEndian.PutUint32(v[4:], cp.UID)
	return b.Put([]byte(mailbox), v)
}

// PutCheckpoint advances a checkpoint on its own (for a message that
// produced nothing worth keeping).
func (s *Store) PutCheckpoint(mailbox string, cp Checkpoint) error {
	return s.update(func(tx *bolt.Tx) error { return putCheckpoint(tx, mailbox, cp) })
}

// Quarantined is a mail that could not become an order, kept with the
// reason and bounded evidence of it, for the operator.
type Quarantined struct {
	ID      string // see quarantineID: the same mail twice is one record
	At      time.Time
	Mailbox string
	UID     uint32
	From    string
	Subject string
	Reason  string
	// Raw is the evidence kept: the whole mail when it is small, else its
	// header (up to MaxEvidenceHeader bytes) and the first
	// EvidenceBodyBytes of the rest.
	Raw []byte
	// Size is the whole mail's size; RestSHA256 the hex SHA-256 of the
	// bytes after Raw ("" when Raw is the whole mail).
	Size       int64
	RestSHA256 string
}

// The evidence kept of a quarantined mail: its header, the
// first 64 KiB after it and a hash of the rest, so that a flood of large
// mails from strangers cannot fill the disk.
const (
	MaxEvidenceHeader = 64 << 10
	EvidenceBodyBytes = 64 << 10
)

// evidence returns what is kept of raw: up to the end of its header (at
// most MaxEvidenceHeader bytes) plus EvidenceBodyBytes, and the hex
// SHA-256 of what is cut ("" when nothing is).
func evidence(raw []byte) ([]byte, string) {
	head := bytes.Index(raw, []byte("\r\n\r\n"))
	if head >= 0 {
		head += 4
	}
	if lf := bytes.Index(raw, []byte("\n\n")); lf >= 0 && (head < 0 || lf+2 < head) {
		head = lf + 2
	}
	if head < 0 || head > MaxEvidenceHeader {
		head = MaxEvidenceHeader
	}
	keep := min(len(raw), head+EvidenceBodyBytes)
	if keep == len(raw) {
		return raw, ""
	}
	sum := sha256.Sum256(raw[keep:])
	return raw[:keep], hex.EncodeToString(sum[:])
}

func (q *Quarantined) encode() []byte {
	w := events.NewWriter(nil)
	w.Varint(q.At.UnixNano())
	w.String(q.Mailbox)
	w.Uvarint(uint64(q.UID))
	w.String(q.From)
	w.String(q.Subject)
	w.String(q.Reason)
	w.Blob(q.Raw)
	w.Varint(q.Size)
	w.String(q.RestSHA256)
	return w.Bytes()
}

func decodeQuarantined(id string, b []byte) (Quarantined, error) {
	r := events.NewReader(b)
	q := Quarantined{ID: id, At: time.Unix(0, r.Varint()).UTC(), Mailbox: r.String(), UID: uint32(r.Uvarint()),
		From: r.String(), Subject: r.String(), Reason: r.String(), Raw: r.Blob()}
	q.Size = int64(len(q.Raw))
	if r.Err() == nil && r.Len() > 0 { // records written before the evidence was bounded end here
		q.Size, q.RestSHA256 = r.Varint(), r.String()
	}
	return q, r.Done()
}

func quarTimeKey(at time.Time, id string) []byte {
	return append(seqKey(uint64(at.UnixNano())), id...)
}

var (
	keyQuarBytes  = []byte("bytes")
	keyQuarPruned = []byte("pruned")
)

func getCount(b *bolt.Bucket, k []byte) int64 {
	v := b.Get(k)
	if len(v) != 8 {
		return 0
	}
	return int64(binary.BigEndian.Uint64(v))
}

func putCount(b *bolt.Bucket, k []byte, n int64) error { return b.Put(k, seqKey(uint64(n))) }

// indexQuarantine builds the age index and the byte count of a quarantine
// written before they existed.
func indexQuarantine(tx *bolt.Tx) error {
	stats := tx.Bucket(bQuarS)
	if stats.Get(keyQuarBytes) != nil {
		return nil
	}
	idx := tx.Bucket(bQuarT)
	var total int64
	err := tx.Bucket(bQuar).ForEach(func(k, v []byte) error {
		q, err := decodeQuarantined(string(k), v)
		if err != nil {
			return nil // a damaged record is listed as such, not indexed
		}
		total += int64(len(v))
		return idx.Put(quarTimeKey(q.At, q.ID), seqKey(uint64(len(v))))
	})
	if err != nil {
		return err
	}
	return putCount(stats, keyQuarBytes, total)
}

// quarantineID is the id of a quarantined mail's record: the hex SHA-256
// of its Message-ID and its body when it has a Message-ID, else of the
// whole mail. A mail its sender sent again because the answer to the
// first delivery was lost (a kill cut the 250) arrives with trace headers
// of its own (Received, Delivered-To …), but it is one record.
func quarantineID(raw []byte) string {
	h := sha256.New()
	if m, err := mail.ReadMessage(bytes.NewReader(raw)); err == nil {
		if id := strings.TrimSpace(m.Header.Get("Message-Id")); id != "" {
			fmt.Fprintf(h, "Message-ID %s\x00", id)
			if _, err := io.Copy(h, m.Body); err == nil {
				return hex.EncodeToString(h.Sum(nil))
			}
			h.Reset()
		}
	}
	h.Write(raw)
	return hex.EncodeToString(h.Sum(nil))
}

// Quarantine stores q, keeping bounded evidence of its raw bytes (its ID
// is computed from the whole mail, see quarantineID), prunes the oldest
// records past the quarantine's cap, and advances the mailbox's
// checkpoint, in one transaction. A mail already there is kept as it was.
func (s *Store) Quarantine(q Quarantined, cp Checkpoint) (string, error) {
	q.ID = quarantineID(q.Raw)
	q.Size = int64(len(q.Raw))
	q.Raw, q.RestSHA256 = evidence(q.Raw)
	err := s.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bQuar)
		if b.Get([]byte(q.ID)) == nil {
			rec := q.encode()
			if err := b.Put([]byte(q.ID), rec); err != nil {
				return err
			}
			if err := tx.Bucket(bQuarT).Put(quarTimeKey(q.At, q.ID), seqKey(uint64(len(rec)))); err != nil {
				return err
			}
			stats := tx.Bucket(bQuarS)
			if err := putCount(stats, keyQuarBytes, getCount(stats, keyQuarBytes)+int64(len(rec))); err != nil {
				return err
			}
			if err := s.pruneQuarantine(tx); err != nil {
				return err
			}
		}
		if q.Mailbox == "" {
			return nil
		}
		return putCheckpoint(tx, q.Mailbox, cp)
	})
	if err != nil {
		return "", fmt.Errorf("quarantine: %w", err)
	}
	return q.ID, nil
}

// pruneQuarantine deletes the oldest records until the quarantine is
// within its cap, counting them.
func (s *Store) pruneQuarantine(tx *bolt.Tx) error {
	stats := tx.Bucket(bQuarS)
	total, pruned := getCount(stats, keyQuarBytes), getCount(stats, keyQuarPruned)
	if total <= s.opts.QuarantineBytes {
		return nil
	}
	c := tx.Bucket(bQuarT).Cursor()
	for k, v := c.First(); k != nil && total > s.opts.QuarantineBytes; k, v = c.First() {
		if err := tx.Bucket(bQuar).Delete(k[8:]); err != nil {
			return err
		}
		if err := c.Delete(); err != nil {
			return err
		}
		total -= int64(binary.BigEndian.Uint64(v))
		pruned++
	}
	if err := putCount(stats, keyQuarBytes, total); err != nil {
		return err
	}
	return putCount(stats, keyQuarPruned, pruned)
}

// QuarantineStats are the quarantine's totals.
type QuarantineStats struct {
	Bytes  int64 // the records' size
	Pruned int64 // records pruned, oldest first, to keep within the cap
}

// QuarantineStats returns the quarantine's totals.
func (s *Store) QuarantineStats() (QuarantineStats, error) {
	var st QuarantineStats
	err := s.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bQuarS)
		if b == nil { // a store of before the cap, open read-only
			return nil
		}
		st = QuarantineStats{Bytes: getCount(b, keyQuarBytes), Pruned: getCount(b, keyQuarPruned)}
		return nil
	})
	return st, err
}

// QuarantineList returns the quarantined mails, oldest first.
func (s *Store) QuarantineList() ([]Quarantined, error) {
	var out []Quarantined
	err := s.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bQuar).ForEach(func(k, v []byte) error {
			q, err := decodeQuarantined(string(k), v)
			if err != nil {
				return fmt.Errorf("quarantine record %s: %w", k, err)
			}
			out = append(out, q)
			return nil
		})
	})
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].At.Equal(out[j].At) {
			return out[i].At.Before(out[j].At)
		}
		return out[i].ID < out[j].ID
	})
	return out, err
}

// putRaw keeps the raw bytes of the mail behind game's event seq, as
// evidence, inside tx.
func putRaw(tx *bolt.Tx, game string, seq uint64, raw []byte) error {
	b, err := tx.Bucket(bRaw).CreateBucketIfNotExists([]byte(game))
	if err != nil {
		return err
	}
	return b.Put(seqKey(seq), raw)
}

// Raw returns the raw mail behind game's event seq, if one was kept.
func (s *Store) Raw(game string, seq uint64) ([]byte, bool, error) {
	var raw []byte
	err := s.view(func(tx *bolt.Tx) error {
		if b := tx.Bucket(bRaw).Bucket([]byte(game)); b != nil {
			if v := b.Get(seqKey(seq)); v != nil {
				raw = append([]byte(nil), v...)
			}
		}
		return nil
	})
	return raw, raw != nil, err
}

// Server-wide secrets live in the secret bucket beside the games' dice
// seeds, under keys no game id can have: serverKey(name) holds the
// secret, ownerKey(name) who made it (see OwnedServerSecret).
const (
	serverPrefix = "\x00server:"
	ownerPrefix  = "\x00owner:"
)

func serverKey(name string) []byte { return []byte(serverPrefix + name) }
func ownerKey(name string) []byte  { return []byte(ownerPrefix + name) }

// ServerSecret returns the named server-wide secret (the reply-token
// key, a mailbox's password), creating it from gen on first use. Secrets
// are kept beside the log, never in it.
func (s *Store) ServerSecret(name string, gen func() ([]byte, error)) ([]byte, error) {
	secret, _, err := s.OwnedServerSecret(name, "", gen)
	return secret, err
}

// OwnedServerSecret is ServerSecret that also records, when it creates
// the secret, who it was made for, and returns who that was ("" for a
// secret made without an owner): in one transaction, so of two callers
// racing to make a secret exactly one owner is kept, and a caller can
// tell a secret made for it (owner == its own, also when it asks again
// after a crash) from one that existed before. A nil gen only looks: an
// absent secret is then nil, with no error.
func (s *Store) OwnedServerSecret(name, owner string, gen func() ([]byte, error)) (secret []byte, madeFor string, err error) {
	err = s.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bSecret)
		secret, madeFor = bytes.Clone(b.Get(serverKey(name))), string(b.Get(ownerKey(name)))
		return nil
	})
	if err != nil || secret != nil || gen == nil {
		return secret, madeFor, err
	}
	err = s.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bSecret)
		if v := b.Get(serverKey(name)); v != nil {
			secret, madeFor = bytes.Clone(v), string(b.Get(ownerKey(name)))
			return nil
		}
		v, err := gen()
		if err != nil {
			return err
		}
		if len(v) == 0 {
			return fmt.Errorf("server secret %s: made empty", name)
		}
		secret, madeFor = v, owner
		if owner != "" {
			if err := b.Put(ownerKey(name), []byte(owner)); err != nil {
				return err
			}
		}
		return b.Put(serverKey(name), v)
	})
	return secret, madeFor, err
}

// ServerSecretNames returns the names of the server-wide secrets that
// begin with prefix, sorted (their values are not read).
func (s *Store) ServerSecretNames(prefix string) ([]string, error) {
	var names []string
	err := s.view(func(tx *bolt.Tx) error {
		c := tx.Bucket(bSecret).Cursor()
		p := serverKey(prefix)
		for k, _ := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, _ = c.Next() {
			names = append(names, string(k[len(serverPrefix):]))
		}
		return nil
	})
	return names, err
}
