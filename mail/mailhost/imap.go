package mailhost

import (
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
)

// idlePollInterval is how often an IDLE session polls its mailbox even
// without a change notification (a safety net; every change made through
// this host notifies).
const idlePollInterval = 5 * time.Second

// imapSession is an imapmemserver.UserSession bound to one of the host's
// accounts. Beyond Login it overrides Idle (see there), the commands that
// change a mailbox (to wake the account's IDLE sessions) and Close (to let
// Host.Close wait for it).
type imapSession struct {
	*imapmemserver.UserSession // nil until Login

	h    *Host
	acct *account // nil until Login
	end  func()   // tells Host.Close this connection's session is over

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
	if a == nil {
		return imapserver.ErrAuthFailed
	}
	if err := a.user.Login(a.name, password); err != nil {
		return err
	}
	s.acct = a
	s.UserSession = imapmemserver.NewUserSession(a.user)
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
	err := s.UserSession.Close() // nil-safe
	if s.end != nil {
		s.end()
	}
	return err
}

// Idle replaces imapmemserver's, which goes through
// imapserver.SessionTracker.Idle: that one only learns of updates queued
// after it has registered, and the server sends "+ idling" to the client
// before it starts it, so a message appended in between was announced only
// after IDLE ended. Here every wake-up (change notification, timer) first
// takes the next notification channel and then polls, so no change can
// fall between the two.
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
		if err := s.UserSession.Poll(w, true); err != nil {
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

// Append appends to a mailbox and wakes the account's IDLE sessions.
func (s *imapSession) Append(mailbox string, r imap.LiteralReader, options *imap.AppendOptions) (*imap.AppendData, error) {
	defer s.acct.changes.notify()
	return s.UserSession.Append(mailbox, r, options)
}

// Copy copies messages and wakes the account's IDLE sessions.
func (s *imapSession) Copy(numSet imap.NumSet, dest string) (*imap.CopyData, error) {
	defer s.acct.changes.notify()
	return s.UserSession.Copy(numSet, dest)
}

// Move moves messages and wakes the account's IDLE sessions.
func (s *imapSession) Move(w *imapserver.MoveWriter, numSet imap.NumSet, dest string) error {
	defer s.acct.changes.notify()
	return s.UserSession.Move(w, numSet, dest)
}

// Expunge expunges messages and wakes the account's IDLE sessions.
func (s *imapSession) Expunge(w *imapserver.ExpungeWriter, uids *imap.UIDSet) error {
	defer s.acct.changes.notify()
	return s.UserSession.Expunge(w, uids)
}

// Store changes flags and wakes the account's IDLE sessions.
func (s *imapSession) Store(w *imapserver.FetchWriter, numSet imap.NumSet, flags *imap.StoreFlags, options *imap.StoreOptions) error {
	defer s.acct.changes.notify()
	return s.UserSession.Store(w, numSet, flags, options)
}
