package mailhost

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"

	"pbem/events"
	"pbem/store"
)

// The host's mail lives in one bbolt file (through store.KV):
//
//	host/uidvalidity            the last UIDVALIDITY given out
//	users/<name>/<box id>/meta  the mailbox's name, UIDNEXT, subscription
//	users/<name>/<box id>/m/<uid>  a message's internal date, size, flags
//	users/<name>/<box id>/b/<uid>  its bytes
//
// A box id is its UIDVALIDITY (4 bytes, big endian): unique for ever in
// the file, so a mailbox deleted and made again under the same name is a
// new box, and a rename changes only meta. Every change is one durable
// transaction (fsynced before the command that made it is answered; SMTP
// answers 250 only then), and is applied to the index held in memory in
// the order the transactions committed.
const (
	bucketHost  = "host"
	bucketUsers = "users"
	keyMeta     = "meta"
	bucketMsgs  = "m"
	bucketBody  = "b"
)

var keyUIDValidity = []byte("uidvalidity")

// inboxName is the name of the mailbox mail is delivered to; it cannot be
// deleted or renamed, so delivery always has a place to go.
const inboxName = "INBOX"

// mailboxDelim separates the levels of mailbox names.
const mailboxDelim rune = '/'

// account is one user: its mailboxes' index, and a notifier that wakes its
// IDLE sessions when a mailbox changes.
type account struct {
	h        *Host
	name     string
	password string

	mu    sync.Mutex
	boxes map[string]*mailbox // by name

	changes notifier
}

// mailbox is a mailbox's index: everything but the messages' bytes,
// which are read from the file when asked for.
type mailbox struct {
	acct    *account
	id      uint32 // = UIDVALIDITY
	tracker *imapserver.MailboxTracker

	mu         sync.Mutex
	name       string
	uidNext    imap.UID
	subscribed bool
	msgs       []*message // in UID order
	deleted    bool
}

// message is one message of a mailbox's index.
type message struct {
	uid   imap.UID
	t     time.Time
	size  int64
	flags []imap.Flag // canonical (lower case), sorted
}

func boxKey(id uint32) string {
	var k [4]byte
	binary.BigEndian.PutUint32(k[:], id)
	return string(k[:])
}

func uidKey(uid imap.UID) []byte {
	var k [4]byte
	binary.BigEndian.PutUint32(k[:], uint32(uid))
	return k[:]
}

type boxMeta struct {
	name       string
	uidNext    imap.UID
	subscribed bool
}

func (m boxMeta) encode() []byte {
	w := events.NewWriter(nil)
	w.String(m.name)
	w.Uvarint(uint64(m.uidNext))
	w.Bool(m.subscribed)
	return w.Bytes()
}

func decodeMeta(b []byte) (boxMeta, error) {
	r := events.NewReader(b)
	m := boxMeta{name: r.String(), uidNext: imap.UID(r.Uvarint()), subscribed: r.Bool()}
	return m, r.Done()
}

func (m *message) encode() []byte {
	w := events.NewWriter(nil)
	w.Varint(m.t.UnixNano())
	w.Uvarint(uint64(m.size))
	fs := make([]string, len(m.flags))
	for i, f := range m.flags {
		fs[i] = string(f)
	}
	w.Strings(fs)
	return w.Bytes()
}

func decodeMessage(uid imap.UID, b []byte) (*message, error) {
	r := events.NewReader(b)
	m := &message{uid: uid, t: time.Unix(0, r.Varint()), size: int64(r.Uvarint())}
	for _, f := range r.Strings() {
		m.flags = append(m.flags, imap.Flag(f))
	}
	return m, r.Done()
}

// canonicalFlag is the form flags are kept and compared in.
func canonicalFlag(f imap.Flag) imap.Flag { return imap.Flag(strings.ToLower(string(f))) }

// systemFlags maps the canonical form of the system flags to the form
// clients expect to see.
var systemFlags = map[imap.Flag]imap.Flag{}

func init() {
	for _, f := range []imap.Flag{imap.FlagSeen, imap.FlagAnswered, imap.FlagFlagged, imap.FlagDeleted, imap.FlagDraft, imap.FlagForwarded,
		imap.FlagMDNSent, imap.FlagJunk, imap.FlagNotJunk, imap.FlagPhishing, imap.FlagImportant} {
		systemFlags[canonicalFlag(f)] = f
	}
}

// flagList returns m's flags as a client sees them.
func (m *message) flagList() []imap.Flag {
	out := make([]imap.Flag, len(m.flags))
	for i, f := range m.flags {
		if sf, ok := systemFlags[f]; ok {
			f = sf
		}
		out[i] = f
	}
	return out
}

func (m *message) has(f imap.Flag) bool {
	_, ok := slices.BinarySearch(m.flags, canonicalFlag(f))
	return ok
}

// applyFlags returns flags changed by op (sorted, canonical, no repeats).
func applyFlags(flags []imap.Flag, op *imap.StoreFlags) []imap.Flag {
	var out []imap.Flag
	switch op.Op {
	case imap.StoreFlagsSet:
	case imap.StoreFlagsAdd, imap.StoreFlagsDel:
		out = slices.Clone(flags)
	}
	for _, f := range op.Flags {
		f = canonicalFlag(f)
		i, found := slices.BinarySearch(out, f)
		switch {
		case op.Op == imap.StoreFlagsDel && found:
			out = slices.Delete(out, i, i+1)
		case op.Op != imap.StoreFlagsDel && !found:
			out = slices.Insert(out, i, f)
		}
	}
	return out
}

func canonicalFlags(fs []imap.Flag) []imap.Flag {
	return applyFlags(nil, &imap.StoreFlags{Op: imap.StoreFlagsSet, Flags: fs})
}

// normName puts a mailbox name in the form it is kept under: INBOX in
// any case is INBOX, and a trailing delimiter is dropped.
func normName(name string) string {
	name = strings.TrimRight(name, string(mailboxDelim))
	if strings.EqualFold(name, inboxName) {
		return inboxName
	}
	return name
}

// write runs fn in a durable transaction of the host's file and, once it
// is committed, apply (in commit order, before write returns). On a
// failed transaction nothing of fn is written, apply is not called, and
// the error says the change could not be stored.
func (h *Host) write(fn func(*store.KVTx) error, apply func()) error {
	done := make(chan error, 1)
	h.db.Do(fn, func(err error) {
		if err == nil && apply != nil {
			apply()
		}
		done <- err
	})
	if err := <-done; err != nil {
		h.log.Error("mail host: a change could not be stored", "err", err)
		return fmt.Errorf("%w: %v", errStorage, err)
	}
	return nil
}

// errStorage is a change the host could not store (a full disk, a
// damaged file): temporary, from the client's side.
var errStorage = errors.New("mail host storage failed")

// loadAccount reads user name's mailboxes from the file, or makes its
// INBOX if it has none.
func (h *Host) loadAccount(name, password string) (*account, error) {
	a := &account{h: h, name: name, password: password, boxes: map[string]*mailbox{}}
	err := h.db.View(func(tx *store.KVTx) error {
		ub := tx.Bucket(bucketUsers, name)
		if ub == nil {
			return nil
		}
		return ub.Buckets(func(id string, bb *store.KVBucket) error {
			if len(id) != 4 {
				return fmt.Errorf("user %s: a mailbox under a bad key %x", name, id)
			}
			meta, err := decodeMeta(bb.Get([]byte(keyMeta)))
			if err != nil {
				return fmt.Errorf("user %s: mailbox %x: %w", name, id, err)
			}
			mb := &mailbox{acct: a, id: binary.BigEndian.Uint32([]byte(id)), name: meta.name, uidNext: meta.uidNext, subscribed: meta.subscribed}
			if ms := bb.Bucket(bucketMsgs); ms != nil {
				err := ms.ForEach(func(k, v []byte) error {
					if len(k) != 4 {
						return fmt.Errorf("a message under a bad key %x", k)
					}
					m, err := decodeMessage(imap.UID(binary.BigEndian.Uint32(k)), v)
					if err != nil {
						return fmt.Errorf("message %d: %w", binary.BigEndian.Uint32(k), err)
					}
					mb.msgs = append(mb.msgs, m)
					return nil
				})
				if err != nil {
					return fmt.Errorf("user %s: mailbox %s: %w", name, meta.name, err)
				}
			}
			mb.tracker = imapserver.NewMailboxTracker(uint32(len(mb.msgs)))
			a.boxes[mb.name] = mb
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("mailhost: load %s: %w", name, err)
	}
	if a.boxes[inboxName] == nil {
		if _, err := a.create(inboxName); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// create makes mailbox name (already normalised).
func (a *account) create(name string) (*mailbox, error) {
	a.mu.Lock()
	exists := a.boxes[name] != nil
	a.mu.Unlock()
	if exists {
		return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAlreadyExists, Text: "Mailbox already exists"}
	}
	var id uint32
	var mb *mailbox
	err := a.h.write(func(tx *store.KVTx) error {
		hb := tx.Bucket(bucketHost)
		id = binary.BigEndian.Uint32(hb.Get(keyUIDValidity)) + 1
		if err := hb.Put(keyUIDValidity, binary.BigEndian.AppendUint32(nil, id)); err != nil {
			return err
		}
		bb, err := tx.CreateBucket(bucketUsers, a.name, boxKey(id))
		if err != nil {
			return err
		}
		return bb.Put([]byte(keyMeta), boxMeta{name: name, uidNext: 1}.encode())
	}, func() {
		mb = &mailbox{acct: a, id: id, name: name, uidNext: 1, tracker: imapserver.NewMailboxTracker(0)}
		a.mu.Lock()
		a.boxes[name] = mb
		a.mu.Unlock()
	})
	return mb, err
}

// nameNow returns mb's name (a rename may change it at any time).
func (mb *mailbox) nameNow() string {
	mb.mu.Lock()
	defer mb.mu.Unlock()
	return mb.name
}

// mailbox returns mailbox name, or the IMAP error for a missing one.
func (a *account) mailbox(name string) (*mailbox, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	mb := a.boxes[normName(name)]
	if mb == nil {
		return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeNonExistent, Text: "No such mailbox"}
	}
	return mb, nil
}

// newMail is a message to append.
type newMail struct {
	box   *mailbox
	body  []byte
	t     time.Time
	flags []imap.Flag
	uid   imap.UID // given by the transaction
}

// appendMail stores every mail in ms in one durable transaction and then
// adds them to their mailboxes' indexes: all of them or none.
func (h *Host) appendMail(ms []*newMail) error {
	return h.write(func(tx *store.KVTx) error {
		next := map[*mailbox]imap.UID{}
		for _, m := range ms {
			bb := tx.Bucket(bucketUsers, m.box.acct.name, boxKey(m.box.id))
			if bb == nil {
				return fmt.Errorf("mailbox %d of %s is gone", m.box.id, m.box.acct.name)
			}
			meta, err := decodeMeta(bb.Get([]byte(keyMeta)))
			if err != nil {
				return err
			}
			if n, ok := next[m.box]; ok {
				meta.uidNext = n
			}
			m.uid = meta.uidNext
			meta.uidNext++
			next[m.box] = meta.uidNext
			rec := &message{uid: m.uid, t: m.t, size: int64(len(m.body)), flags: m.flags}
			msgs, err := bb.CreateBucket(bucketMsgs)
			if err != nil {
				return err
			}
			body, err := bb.CreateBucket(bucketBody)
			if err != nil {
				return err
			}
			if err := msgs.Put(uidKey(m.uid), rec.encode()); err != nil {
				return err
			}
			if err := body.Put(uidKey(m.uid), m.body); err != nil {
				return err
			}
			if err := bb.Put([]byte(keyMeta), meta.encode()); err != nil {
				return err
			}
		}
		return nil
	}, func() {
		for _, m := range ms {
			mb := m.box
			mb.mu.Lock()
			mb.msgs = append(mb.msgs, &message{uid: m.uid, t: m.t, size: int64(len(m.body)), flags: m.flags})
			mb.uidNext = m.uid + 1
			mb.tracker.QueueNumMessages(uint32(len(mb.msgs)))
			mb.mu.Unlock()
			mb.acct.changes.notify()
		}
	})
}

// body reads the bytes of message uid of mb (nil if it is gone).
func (mb *mailbox) body(uid imap.UID) ([]byte, error) {
	var b []byte
	err := mb.acct.h.db.View(func(tx *store.KVTx) error {
		if bb := tx.Bucket(bucketUsers, mb.acct.name, boxKey(mb.id), bucketBody); bb != nil {
			b = slices.Clone(bb.Get(uidKey(uid)))
		}
		return nil
	})
	return b, err
}

// setFlags applies op to the messages uids of mb, durably, then to the
// index, and queues the FETCH FLAGS updates (for every session but
// source, which may be nil).
func (mb *mailbox) setFlags(uids []imap.UID, op *imap.StoreFlags, source *imapserver.SessionTracker) error {
	if len(uids) == 0 {
		return nil
	}
	return mb.acct.h.write(func(tx *store.KVTx) error {
		ms := tx.Bucket(bucketUsers, mb.acct.name, boxKey(mb.id), bucketMsgs)
		if ms == nil {
			return fmt.Errorf("mailbox %d of %s is gone", mb.id, mb.acct.name)
		}
		for _, uid := range uids {
			v := ms.Get(uidKey(uid))
			if v == nil {
				continue // expunged meanwhile
			}
			m, err := decodeMessage(uid, v)
			if err != nil {
				return err
			}
			m.flags = applyFlags(m.flags, op)
			if err := ms.Put(uidKey(uid), m.encode()); err != nil {
				return err
			}
		}
		return nil
	}, func() {
		mb.mu.Lock()
		defer mb.mu.Unlock()
		for _, uid := range uids {
			i, ok := mb.find(uid)
			if !ok {
				continue
			}
			m := mb.msgs[i]
			m.flags = applyFlags(m.flags, op)
			mb.tracker.QueueMessageFlags(uint32(i+1), m.uid, m.flagList(), source)
		}
		mb.acct.changes.notify()
	})
}

// find returns the index of uid in mb.msgs; mb.mu is held.
func (mb *mailbox) find(uid imap.UID) (int, bool) {
	return slices.BinarySearchFunc(mb.msgs, uid, func(m *message, uid imap.UID) int { return int(int64(m.uid) - int64(uid)) })
}

// expunge removes the messages uids of mb, durably, then from the index,
// queueing the EXPUNGE updates.
func (mb *mailbox) expunge(uids []imap.UID) error {
	if len(uids) == 0 {
		return nil
	}
	return mb.acct.h.write(func(tx *store.KVTx) error {
		bb := tx.Bucket(bucketUsers, mb.acct.name, boxKey(mb.id))
		if bb == nil {
			return fmt.Errorf("mailbox %d of %s is gone", mb.id, mb.acct.name)
		}
		for _, name := range []string{bucketMsgs, bucketBody} {
			if b := bb.Bucket(name); b != nil {
				for _, uid := range uids {
					if err := b.Delete(uidKey(uid)); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}, func() {
		mb.mu.Lock()
		defer mb.mu.Unlock()
		// Highest first, so the sequence numbers queued stay right.
		for i := len(mb.msgs) - 1; i >= 0; i-- {
			if slices.Contains(uids, mb.msgs[i].uid) {
				mb.msgs = slices.Delete(mb.msgs, i, i+1)
				mb.tracker.QueueExpunge(uint32(i + 1))
			}
		}
		mb.acct.changes.notify()
	})
}

// setSubscribed stores and applies mb's subscription.
func (mb *mailbox) setSubscribed(on bool) error {
	return mb.acct.h.write(func(tx *store.KVTx) error {
		bb := tx.Bucket(bucketUsers, mb.acct.name, boxKey(mb.id))
		if bb == nil {
			return fmt.Errorf("mailbox %d of %s is gone", mb.id, mb.acct.name)
		}
		meta, err := decodeMeta(bb.Get([]byte(keyMeta)))
		if err != nil {
			return err
		}
		meta.subscribed = on
		return bb.Put([]byte(keyMeta), meta.encode())
	}, func() {
		mb.mu.Lock()
		mb.subscribed = on
		mb.mu.Unlock()
	})
}
