package mailhost

import (
	"bufio"
	"bytes"
	"crypto/subtle"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	gomessage "github.com/emersion/go-message"
	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"

	"pbem/store"
)

// idlePollInterval is how often an IDLE session polls its mailbox even
// without a change notification (a safety net; every change made through
// this host notifies).
const idlePollInterval = 5 * time.Second

// imapSession is one IMAP connection over the host's durable mailboxes.
// Its structure follows go-imap's imapmemserver (a user, and a view of the
// selected mailbox with its own tracker of pending updates); every change
// is stored before the command is answered (see Host.write).
type imapSession struct {
	h    *Host
	acct *account // nil until Login
	end  func()   // tells Host.Close this connection's session is over

	sel       *mailbox // the selected mailbox, or nil
	view      *imapserver.SessionTracker
	searchRes imap.UIDSet

	mu     sync.Mutex
	closed bool
	idling chan struct{} // closed when the running Idle returns
}

var _ imapserver.SessionIMAP4rev2 = (*imapSession)(nil)

func (h *Host) newIMAPSession(c *imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
	s := &imapSession{h: h}
	if tc, ok := c.NetConn().(*trackedConn); ok {
		s.end = tc.sessionEnd
	}
	return s, nil, nil
}

// Login checks the password against the host's accounts (names are
// case-insensitive).
func (s *imapSession) Login(username, password string) error {
	a := s.h.account(username)
	if a == nil || subtle.ConstantTimeCompare([]byte(password), []byte(a.password)) != 1 {
		s.h.log.Info("IMAP login failed", "user", username)
		return imapserver.ErrAuthFailed
	}
	s.acct = a
	return nil
}

// Close waits for a running Idle to return, closes the mailbox view and
// reports the session over.
func (s *imapSession) Close() error {
	s.mu.Lock()
	s.closed = true
	idling := s.idling
	s.mu.Unlock()
	if idling != nil {
		<-idling
	}
	s.unselect()
	if s.end != nil {
		s.end()
	}
	return nil
}

func (s *imapSession) unselect() {
	if s.view != nil {
		s.view.Close()
	}
	s.sel, s.view, s.searchRes = nil, nil, nil
}

// Select opens a mailbox (EXAMINE too: the host does not tell them apart).
func (s *imapSession) Select(name string, _ *imap.SelectOptions) (*imap.SelectData, error) {
	mb, err := s.acct.mailbox(name)
	if err != nil {
		return nil, err
	}
	s.unselect()
	mb.mu.Lock()
	defer mb.mu.Unlock()
	s.sel, s.view = mb, mb.tracker.NewSession()
	flags := mb.flagsLocked()
	perm := append(append([]imap.Flag(nil), flags...), imap.FlagWildcard)
	data := &imap.SelectData{Flags: flags, PermanentFlags: perm, NumMessages: uint32(len(mb.msgs)), UIDNext: mb.uidNext, UIDValidity: mb.id}
	for i, m := range mb.msgs {
		if !m.has(imap.FlagSeen) {
			data.FirstUnseenSeqNum = uint32(i + 1)
			break
		}
	}
	return data, nil
}

// flagsLocked lists the flags in use in mb; mb.mu is held.
func (mb *mailbox) flagsLocked() []imap.Flag {
	seen := map[imap.Flag]bool{}
	var out []imap.Flag
	for _, m := range mb.msgs {
		for _, f := range m.flagList() {
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Unselect closes the selected mailbox.
func (s *imapSession) Unselect() error {
	s.unselect()
	return nil
}

// Create makes a mailbox.
func (s *imapSession) Create(name string, _ *imap.CreateOptions) error {
	_, err := s.acct.create(normName(name))
	return err
}

// Delete deletes a mailbox and its messages; INBOX cannot be deleted.
func (s *imapSession) Delete(name string) error {
	mb, err := s.acct.mailbox(name)
	if err != nil {
		return err
	}
	if mb.nameNow() == inboxName {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Text: "INBOX cannot be deleted"}
	}
	a := s.acct
	return a.h.write(func(tx *store.KVTx) error {
		ub := tx.Bucket(bucketUsers, a.name)
		if ub == nil || ub.Bucket(boxKey(mb.id)) == nil {
			return nil
		}
		return ub.DeleteBucket(boxKey(mb.id))
	}, func() {
		a.mu.Lock()
		if a.boxes[mb.name] == mb {
			delete(a.boxes, mb.name)
		}
		a.mu.Unlock()
		mb.mu.Lock()
		mb.deleted = true
		mb.mu.Unlock()
	})
}

// Rename renames a mailbox; INBOX cannot be renamed.
func (s *imapSession) Rename(name, newName string, _ *imap.RenameOptions) error {
	mb, err := s.acct.mailbox(name)
	if err != nil {
		return err
	}
	newName = normName(newName)
	if mb.nameNow() == inboxName || newName == inboxName {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Text: "INBOX cannot be renamed"}
	}
	if _, err := s.acct.mailbox(newName); err == nil {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAlreadyExists, Text: "Mailbox already exists"}
	}
	a := s.acct
	return a.h.write(func(tx *store.KVTx) error {
		bb := tx.Bucket(bucketUsers, a.name, boxKey(mb.id))
		if bb == nil {
			return fmt.Errorf("mailbox %s of %s is gone", name, a.name)
		}
		meta, err := decodeMeta(bb.Get([]byte(keyMeta)))
		if err != nil {
			return err
		}
		meta.name = newName
		return bb.Put([]byte(keyMeta), meta.encode())
	}, func() {
		a.mu.Lock()
		mb.mu.Lock()
		if a.boxes[mb.name] == mb {
			delete(a.boxes, mb.name)
			a.boxes[newName] = mb
		}
		mb.name = newName
		mb.mu.Unlock()
		a.mu.Unlock()
	})
}

// Subscribe and Unsubscribe set a mailbox's subscription.
func (s *imapSession) Subscribe(name string) error   { return s.subscribe(name, true) }
func (s *imapSession) Unsubscribe(name string) error { return s.subscribe(name, false) }

func (s *imapSession) subscribe(name string, on bool) error {
	mb, err := s.acct.mailbox(name)
	if err != nil {
		return err
	}
	return mb.setSubscribed(on)
}

// List lists the mailboxes matching patterns.
func (s *imapSession) List(w *imapserver.ListWriter, ref string, patterns []string, options *imap.ListOptions) error {
	if len(patterns) == 0 {
		return w.WriteList(&imap.ListData{Attrs: []imap.MailboxAttr{imap.MailboxAttrNoSelect}, Delim: mailboxDelim})
	}
	s.acct.mu.Lock()
	boxes := make([]*mailbox, 0, len(s.acct.boxes))
	for name, mb := range s.acct.boxes {
		for _, p := range patterns {
			if imapserver.MatchList(name, mailboxDelim, ref, p) {
				boxes = append(boxes, mb)
				break
			}
		}
	}
	s.acct.mu.Unlock()
	var l []imap.ListData
	for _, mb := range boxes {
		mb.mu.Lock()
		if !options.SelectSubscribed || mb.subscribed {
			d := imap.ListData{Mailbox: mb.name, Delim: mailboxDelim}
			if mb.subscribed {
				d.Attrs = append(d.Attrs, imap.MailboxAttrSubscribed)
			}
			if options.ReturnStatus != nil {
				d.Status = mb.statusLocked(options.ReturnStatus)
			}
			if !options.SelectSpecialUse {
				l = append(l, d)
			}
		}
		mb.mu.Unlock()
	}
	sort.Slice(l, func(i, j int) bool { return l[i].Mailbox < l[j].Mailbox })
	for i := range l {
		if err := w.WriteList(&l[i]); err != nil {
			return err
		}
	}
	return nil
}

// Status reports on a mailbox.
func (s *imapSession) Status(name string, options *imap.StatusOptions) (*imap.StatusData, error) {
	mb, err := s.acct.mailbox(name)
	if err != nil {
		return nil, err
	}
	mb.mu.Lock()
	defer mb.mu.Unlock()
	return mb.statusLocked(options), nil
}

func (mb *mailbox) statusLocked(options *imap.StatusOptions) *imap.StatusData {
	d := imap.StatusData{Mailbox: mb.name}
	count := func(f imap.Flag) uint32 {
		var n uint32
		for _, m := range mb.msgs {
			if m.has(f) {
				n++
			}
		}
		return n
	}
	if options.NumMessages {
		n := uint32(len(mb.msgs))
		d.NumMessages = &n
	}
	if options.UIDNext {
		d.UIDNext = mb.uidNext
	}
	if options.UIDValidity {
		d.UIDValidity = mb.id
	}
	if options.NumUnseen {
		n := uint32(len(mb.msgs)) - count(imap.FlagSeen)
		d.NumUnseen = &n
	}
	if options.NumDeleted {
		n := count(imap.FlagDeleted)
		d.NumDeleted = &n
	}
	if options.Size {
		var size int64
		for _, m := range mb.msgs {
			size += m.size
		}
		d.Size = &size
	}
	if options.NumRecent {
		n := uint32(0)
		d.NumRecent = &n
	}
	return &d
}

// Append stores a message in a mailbox.
func (s *imapSession) Append(name string, r imap.LiteralReader, options *imap.AppendOptions) (*imap.AppendData, error) {
	mb, err := s.acct.mailbox(name)
	if err != nil {
		return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeTryCreate, Text: "No such mailbox"}
	}
	body, err := io.ReadAll(io.LimitReader(r, s.h.cfg.MaxBytes+1))
	if err != nil {
		return nil, err
	}
	if int64(len(body)) > s.h.cfg.MaxBytes {
		return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeTooBig, Text: "Message too large"}
	}
	t := options.Time
	if t.IsZero() {
		t = s.h.cfg.Now()
	}
	m := &newMail{box: mb, body: body, t: t, flags: canonicalFlags(options.Flags)}
	if err := s.h.appendMail([]*newMail{m}); err != nil {
		return nil, storageError(err)
	}
	return &imap.AppendData{UIDValidity: mb.id, UID: m.uid}, nil
}

// storageError is the IMAP answer to a change that could not be stored.
func storageError(err error) error {
	return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeServerBug, Text: "The change could not be stored; try again later"}
}

// Poll sends the updates pending for the selected mailbox.
func (s *imapSession) Poll(w *imapserver.UpdateWriter, allowExpunge bool) error {
	if s.view == nil {
		return nil
	}
	return s.view.Poll(w, allowExpunge)
}

// Idle sends updates as they come until stop. It takes the account's
// next change notification before each poll, so a change that lands
// between the two is never missed; a timer polls as a safety net.
func (s *imapSession) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	s.mu.Lock()
	if s.closed || s.acct == nil {
		s.mu.Unlock()
		<-stop
		return nil
	}
	done := make(chan struct{})
	s.idling = done
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.idling = nil
		s.mu.Unlock()
		close(done)
	}()
	tick := time.NewTicker(idlePollInterval)
	defer tick.Stop()
	for {
		changed := s.acct.changes.wait()
		if err := s.Poll(w, true); err != nil {
			return err
		}
		select {
		case <-stop:
			return nil
		case <-changed:
		case <-tick.C:
		}
	}
}

// Namespace reports the one personal namespace.
func (s *imapSession) Namespace() (*imap.NamespaceData, error) {
	return &imap.NamespaceData{Personal: []imap.NamespaceDescriptor{{Delim: mailboxDelim}}}, nil
}

// selected is a message of the selected mailbox picked by a command: its
// sequence number as the session knows it (0: not known to it yet) and a
// copy of its index entry.
type selected struct {
	seq uint32
	m   message
}

// pick returns the messages of the selected mailbox in numSet, as the
// session sees them.
func (s *imapSession) pick(numSet imap.NumSet) []selected {
	mb := s.sel
	mb.mu.Lock()
	defer mb.mu.Unlock()
	numSet = s.staticNumSet(numSet)
	var out []selected
	for i, m := range mb.msgs {
		var in bool
		switch ns := numSet.(type) {
		case imap.SeqSet:
			seq := s.view.EncodeSeqNum(uint32(i + 1))
			in = seq != 0 && ns.Contains(seq)
		case imap.UIDSet:
			in = ns.Contains(m.uid)
		}
		if in {
			c := *m
			c.flags = append([]imap.Flag(nil), m.flags...)
			// Under mb.mu, as the tracker needs: its count of messages
			// moves with the index.
			out = append(out, selected{seq: s.view.EncodeSeqNum(uint32(i + 1)), m: c})
		}
	}
	return out
}

// staticNumSet resolves "*" and the SEARCHRES marker "$"; the selected
// mailbox's mu is held.
func (s *imapSession) staticNumSet(numSet imap.NumSet) imap.NumSet {
	if imap.IsSearchRes(numSet) {
		return s.searchRes
	}
	mb := s.sel
	switch ns := numSet.(type) {
	case imap.SeqSet:
		max := uint32(len(mb.msgs))
		for i := range ns {
			staticRange(&ns[i].Start, &ns[i].Stop, max)
		}
	case imap.UIDSet:
		max := uint32(mb.uidNext) - 1
		for i := range ns {
			staticRange((*uint32)(&ns[i].Start), (*uint32)(&ns[i].Stop), max)
		}
	}
	return numSet
}

func staticRange(start, stop *uint32, max uint32) {
	dyn := false
	if *start == 0 {
		*start, dyn = max, true
	}
	if *stop == 0 {
		*stop, dyn = max, true
	}
	if dyn && *start > *stop {
		*start, *stop = *stop, *start
	}
}

// Fetch writes the asked items of the messages in numSet; a body section
// without PEEK marks a message \Seen (stored first).
func (s *imapSession) Fetch(w *imapserver.FetchWriter, numSet imap.NumSet, options *imap.FetchOptions) error {
	msgs := s.pick(numSet)
	markSeen := false
	for _, bs := range options.BodySection {
		if !bs.Peek {
			markSeen = true
		}
	}
	if markSeen {
		var uids []imap.UID
		for _, sm := range msgs {
			if !sm.m.has(imap.FlagSeen) {
				uids = append(uids, sm.m.uid)
			}
		}
		if err := s.sel.setFlags(uids, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagSeen}}, nil); err != nil {
			return storageError(err)
		}
	}
	needBody := options.Envelope || options.BodyStructure != nil || len(options.BodySection) > 0 ||
		len(options.BinarySection) > 0 || len(options.BinarySectionSize) > 0
	for _, sm := range msgs {
		seq := sm.seq
		if seq == 0 {
			continue
		}
		var body []byte
		if needBody {
			var err error
			if body, err = s.sel.body(sm.m.uid); err != nil {
				return storageError(err)
			}
			if body == nil {
				continue // expunged meanwhile
			}
		}
		if err := fetchOne(w.CreateMessage(seq), &sm.m, body, options); err != nil {
			return err
		}
	}
	return nil
}

func fetchOne(w *imapserver.FetchResponseWriter, m *message, body []byte, options *imap.FetchOptions) error {
	w.WriteUID(m.uid)
	if options.Flags {
		w.WriteFlags(m.flagList())
	}
	if options.InternalDate {
		w.WriteInternalDate(m.t)
	}
	if options.RFC822Size {
		w.WriteRFC822Size(m.size)
	}
	if options.Envelope {
		if h, err := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(body))); err == nil {
			w.WriteEnvelope(imapserver.ExtractEnvelope(h))
		} else {
			w.WriteEnvelope(nil)
		}
	}
	if options.BodyStructure != nil {
		w.WriteBodyStructure(imapserver.ExtractBodyStructure(bytes.NewReader(body)))
	}
	for _, bs := range options.BodySection {
		buf := imapserver.ExtractBodySection(bytes.NewReader(body), bs)
		wc := w.WriteBodySection(bs, int64(len(buf)))
		_, werr := wc.Write(buf)
		if cerr := wc.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return werr
		}
	}
	for _, bs := range options.BinarySection {
		buf := imapserver.ExtractBinarySection(bytes.NewReader(body), bs)
		wc := w.WriteBinarySection(bs, int64(len(buf)))
		_, werr := wc.Write(buf)
		if cerr := wc.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return werr
		}
	}
	for _, bss := range options.BinarySectionSize {
		w.WriteBinarySectionSize(bss, imapserver.ExtractBinarySectionSize(bytes.NewReader(body), bss))
	}
	return w.Close()
}

// Store changes the flags of the messages in numSet.
func (s *imapSession) Store(w *imapserver.FetchWriter, numSet imap.NumSet, flags *imap.StoreFlags, _ *imap.StoreOptions) error {
	msgs := s.pick(numSet)
	uids := make([]imap.UID, len(msgs))
	for i, sm := range msgs {
		uids[i] = sm.m.uid
	}
	if err := s.sel.setFlags(uids, flags, s.view); err != nil {
		return storageError(err)
	}
	if !flags.Silent {
		return s.Fetch(w, numSet, &imap.FetchOptions{Flags: true})
	}
	return nil
}

// Expunge removes the messages flagged \Deleted (of uids, if given).
func (s *imapSession) Expunge(_ *imapserver.ExpungeWriter, uids *imap.UIDSet) error {
	mb := s.sel
	mb.mu.Lock()
	var gone []imap.UID
	for _, m := range mb.msgs {
		if (uids == nil || uids.Contains(m.uid)) && m.has(imap.FlagDeleted) {
			gone = append(gone, m.uid)
		}
	}
	mb.mu.Unlock()
	// The EXPUNGE responses reach this session, like every other, through
	// the mailbox's tracker.
	if err := mb.expunge(gone); err != nil {
		return storageError(err)
	}
	return nil
}

// Copy copies messages to another mailbox.
func (s *imapSession) Copy(numSet imap.NumSet, dest string) (*imap.CopyData, error) {
	data, _, err := s.copy(numSet, dest)
	return data, err
}

// Move moves messages to another mailbox: copied, then expunged here.
func (s *imapSession) Move(w *imapserver.MoveWriter, numSet imap.NumSet, dest string) error {
	data, moved, err := s.copy(numSet, dest)
	if err != nil {
		return err
	}
	if err := s.sel.expunge(moved); err != nil {
		return storageError(err)
	}
	return w.WriteCopyData(data)
}

func (s *imapSession) copy(numSet imap.NumSet, destName string) (*imap.CopyData, []imap.UID, error) {
	dest, err := s.acct.mailbox(destName)
	if err != nil {
		return nil, nil, &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeTryCreate, Text: "No such mailbox"}
	}
	if dest == s.sel {
		return nil, nil, &imap.Error{Type: imap.StatusResponseTypeNo, Text: "Source and destination mailboxes are identical"}
	}
	var ms []*newMail
	var src []imap.UID
	for _, sm := range s.pick(numSet) {
		body, err := s.sel.body(sm.m.uid)
		if err != nil {
			return nil, nil, storageError(err)
		}
		if body == nil {
			continue
		}
		ms = append(ms, &newMail{box: dest, body: body, t: sm.m.t, flags: sm.m.flags})
		src = append(src, sm.m.uid)
	}
	if err := s.h.appendMail(ms); err != nil {
		return nil, nil, storageError(err)
	}
	data := &imap.CopyData{UIDValidity: dest.id}
	for i, m := range ms {
		data.SourceUIDs.AddNum(src[i])
		data.DestUIDs.AddNum(m.uid)
	}
	return data, src, nil
}

// Search finds the messages matching criteria. Messages' bytes are read
// only for criteria that need them.
func (s *imapSession) Search(kind imapserver.NumKind, criteria *imap.SearchCriteria, options *imap.SearchOptions) (*imap.SearchData, error) {
	mb := s.sel
	mb.mu.Lock()
	s.staticCriteria(criteria)
	type cand struct {
		seq uint32 // the session's sequence number (0: not visible to it)
		m   message
	}
	cands := make([]cand, len(mb.msgs))
	for i, m := range mb.msgs {
		cands[i] = cand{s.view.EncodeSeqNum(uint32(i + 1)), *m}
	}
	mb.mu.Unlock()
	var data imap.SearchData
	var seqSet imap.SeqSet
	var uidSet imap.UIDSet
	for i := range cands {
		c := &cands[i]
		lm := &lazyMessage{message: &c.m, box: mb}
		ok, err := lm.match(c.seq, criteria)
		if err != nil {
			return nil, storageError(err)
		}
		if !ok {
			continue
		}
		uidSet.AddNum(c.m.uid)
		var num uint32
		switch kind {
		case imapserver.NumKindSeq:
			if c.seq == 0 {
				continue
			}
			seqSet.AddNum(c.seq)
			num = c.seq
		case imapserver.NumKindUID:
			num = uint32(c.m.uid)
		}
		if data.Min == 0 || num < data.Min {
			data.Min = num
		}
		if num > data.Max {
			data.Max = num
		}
		data.Count++
	}
	if kind == imapserver.NumKindSeq {
		data.All = seqSet
	} else {
		data.All = uidSet
	}
	if options.ReturnSave {
		s.searchRes = uidSet
	}
	return &data, nil
}

// staticCriteria resolves "*" and "$" in criteria; the mailbox's mu is held.
func (s *imapSession) staticCriteria(c *imap.SearchCriteria) {
	seqs := make([]imap.SeqSet, 0, len(c.SeqNum))
	for _, ss := range c.SeqNum {
		switch ns := s.staticNumSet(ss).(type) {
		case imap.SeqSet:
			seqs = append(seqs, ns)
		case imap.UIDSet:
			c.UID = append(c.UID, ns)
		}
	}
	c.SeqNum = seqs
	for i, us := range c.UID {
		c.UID[i] = s.staticNumSet(us).(imap.UIDSet)
	}
	for i := range c.Not {
		s.staticCriteria(&c.Not[i])
	}
	for i := range c.Or {
		s.staticCriteria(&c.Or[i][0])
		s.staticCriteria(&c.Or[i][1])
	}
}

// lazyMessage reads a message's bytes the first time a criterion needs
// them.
type lazyMessage struct {
	*message
	box    *mailbox
	body   []byte
	loaded bool
}

func (lm *lazyMessage) entity() (*gomessage.Entity, error) {
	if !lm.loaded {
		b, err := lm.box.body(lm.uid)
		if err != nil {
			return nil, err
		}
		lm.body, lm.loaded = b, true
	}
	e, _ := gomessage.Read(bytes.NewReader(lm.body))
	if e == nil {
		e, _ = gomessage.New(gomessage.Header{}, bytes.NewReader(nil))
	}
	return e, nil
}

func (lm *lazyMessage) match(seq uint32, c *imap.SearchCriteria) (bool, error) {
	for _, ss := range c.SeqNum {
		if seq == 0 || !ss.Contains(seq) {
			return false, nil
		}
	}
	for _, us := range c.UID {
		if !us.Contains(lm.uid) {
			return false, nil
		}
	}
	if !matchDate(lm.t, c.Since, c.Before) {
		return false, nil
	}
	for _, f := range c.Flag {
		if !lm.has(f) {
			return false, nil
		}
	}
	for _, f := range c.NotFlag {
		if lm.has(f) {
			return false, nil
		}
	}
	if c.Larger != 0 && lm.size <= c.Larger || c.Smaller != 0 && lm.size >= c.Smaller {
		return false, nil
	}
	if len(c.Header) > 0 || !c.SentSince.IsZero() || !c.SentBefore.IsZero() || len(c.Text) > 0 || len(c.Body) > 0 {
		e, err := lm.entity()
		if err != nil {
			return false, err
		}
		h := mail.Header{Header: e.Header}
		for _, hc := range c.Header {
			if !matchFields(h.FieldsByKey(hc.Key), hc.Value) {
				return false, nil
			}
		}
		if !c.SentSince.IsZero() || !c.SentBefore.IsZero() {
			t, err := h.Date()
			if err != nil || !matchDate(t, c.SentSince, c.SentBefore) {
				return false, nil
			}
		}
		for _, text := range c.Text {
			if e, err = lm.entity(); err != nil || !matchEntity(e, text, true) {
				return false, err
			}
		}
		for _, text := range c.Body {
			if e, err = lm.entity(); err != nil || !matchEntity(e, text, false) {
				return false, err
			}
		}
	}
	for i := range c.Not {
		ok, err := lm.match(seq, &c.Not[i])
		if err != nil || ok {
			return false, err
		}
	}
	for i := range c.Or {
		a, err := lm.match(seq, &c.Or[i][0])
		if err != nil {
			return false, err
		}
		b, err := lm.match(seq, &c.Or[i][1])
		if err != nil {
			return false, err
		}
		if !a && !b {
			return false, nil
		}
	}
	return true, nil
}

// matchDate compares dates without their time zones, as RFC 3501 asks.
func matchDate(t, since, before time.Time) bool {
	t = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	return (since.IsZero() || !t.Before(since)) && (before.IsZero() || t.Before(before))
}

func matchFields(fields gomessage.HeaderFields, pattern string) bool {
	if pattern == "" {
		return fields.Len() > 0
	}
	pattern = strings.ToLower(pattern)
	for fields.Next() {
		if v, _ := fields.Text(); strings.Contains(strings.ToLower(v), pattern) {
			return true
		}
	}
	return false
}

func matchEntity(e *gomessage.Entity, pattern string, withHeader bool) bool {
	if pattern == "" {
		return true
	}
	if withHeader && matchFields(e.Header.Fields(), pattern) {
		return true
	}
	if mr := e.MultipartReader(); mr != nil {
		for {
			part, err := mr.NextPart()
			if err != nil {
				return false
			}
			if matchEntity(part, pattern, withHeader) {
				return true
			}
		}
	}
	t, _, err := e.Header.ContentType()
	if err != nil || !strings.HasPrefix(t, "text/") && !strings.HasPrefix(t, "message/") {
		return false
	}
	b, err := io.ReadAll(e.Body)
	return err == nil && bytes.Contains(bytes.ToLower(b), bytes.ToLower([]byte(pattern)))
}
