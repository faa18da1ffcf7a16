// Package mailhost is the mail host pbem starts when no mail host is
// configured, so that "pbem serve" works out of the box: an IMAP server
// (go-imap v2's imapserver) and an SMTP server (go-smtp) that delivers to
// the IMAP users' INBOXes, both on loopback. A person can point
// Thunderbird or mutt at it, and pbem's own tests use it as a mail host
// they can reach over real sockets.
//
// Mail is durable: every mailbox lives in one bbolt file (Config.Path,
// through store.KV), and every change is fsynced before it is answered —
// SMTP answers 250 only once the message is on disk in every recipient's
// INBOX, IMAP answers APPEND, STORE, EXPUNGE … only once the change is.
// bbolt rather than maildir: a delivery to several recipients, a message
// with its UID and the mailbox's UIDNEXT, a MOVE's copy and expunge are
// each one transaction, all or nothing, where maildir needs a file per
// message plus a UID list and flag renames to keep in step by hand; one
// fsync covers a group of concurrent deliveries; and it is the same
// crash-tested library as pbem's log, checked by the same 'pbem doctor'.
// UIDs and UIDVALIDITY survive restarts, so IMAP clients (and pbem's
// intake) keep their place.
//
// Every account has its own password. Unless Config.OpenDelivery is set,
// SMTP takes mail only from an authenticated user, and only with that
// user's address as the envelope sender and the From: so one player cannot
// send as another. The host never relays (it only accepts mail for its own
// domain and known users), and it has no TLS, so passwords cross the
// connection in clear text: that is why Start refuses to listen on anything
// but a loopback address unless Config.AllowRemote is set.
//
// Delivery follows plus addressing: a RCPT TO of
// pbem+g1.usa.k3v9x2m4q8r7t6w5@<domain> lands in the INBOX of user "pbem".
// User names and domains are case-insensitive (stored in lower case).
package mailhost

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-smtp"

	"pbem/internal/logx"
	"pbem/store"
)

// Defaults for Config.
const (
	DefaultDomain   = "pbem.localhost"
	DefaultAddr     = "127.0.0.1:0"
	DefaultMaxBytes = 10 << 20
)

// Config configures a Host. The zero value is usable.
type Config struct {
	// Path is the file holding the mailboxes, made if it does not exist.
	// Empty: a file in a new temporary directory, removed by Close (for
	// tests, which still exercise the durable host).
	Path string
	// Domain is the mail domain the host accepts mail for
	// (default DefaultDomain).
	Domain string
	// IMAPAddr and SMTPAddr are the listen addresses (default DefaultAddr,
	// a free loopback port each).
	IMAPAddr, SMTPAddr string
	// AllowRemote permits non-loopback listen addresses. The host has no
	// TLS: anyone who can reach it can read passwords and mail on the wire.
	AllowRemote bool
	// Password, when set, gives the password of a user the host has not
	// been given with AddUser (false: no such user). The user's mailboxes
	// are then loaded, or made, when first used: a host with many users
	// starts without reading them all.
	Password func(user string) (string, bool)
	// OpenDelivery accepts mail without AUTH, from any sender, as a
	// domain's inbound server does (a test's stand-in for the players'
	// own mail provider). pbem serve never sets it: its host is also the
	// players' submission server, where a sender must prove who it is.
	OpenDelivery bool
	// MaxBytes caps the size of a message as received over SMTP
	// (default DefaultMaxBytes); larger messages get 552.
	MaxBytes int64
	// Logger receives deliveries at info, SMTP server errors at warn and
	// IMAP server messages at debug (default: discard).
	Logger *slog.Logger
	// Now is the clock used for Received headers and internal dates
	// (default time.Now); tests set it to get deterministic headers.
	Now func() time.Time
}

// Host is a running mail host. Its methods are safe for concurrent use.
type Host struct {
	cfg    Config
	log    *slog.Logger
	db     *store.KV
	tmpDir string // removed by Close, for a host without a Path

	mu    sync.Mutex
	users map[string]*account

	imapSrv  *imapserver.Server
	smtpSrv  *smtp.Server
	imapLn   *trackingListener
	smtpLn   *trackingListener
	conns    *connTracker
	serveWG  sync.WaitGroup // the two Serve goroutines
	imapWG   sync.WaitGroup // one per accepted IMAP connection, until its session closes
	closeOne sync.Once
	closeErr error
}

// Start listens on the configured addresses and serves IMAP and SMTP until
// Close.
func Start(cfg Config) (*Host, error) {
	if cfg.Domain == "" {
		cfg.Domain = DefaultDomain
	}
	cfg.Domain = strings.ToLower(cfg.Domain)
	if cfg.IMAPAddr == "" {
		cfg.IMAPAddr = DefaultAddr
	}
	if cfg.SMTPAddr == "" {
		cfg.SMTPAddr = DefaultAddr
	}
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = DefaultMaxBytes
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if !cfg.AllowRemote {
		for _, a := range []struct{ proto, addr string }{{"IMAP", cfg.IMAPAddr}, {"SMTP", cfg.SMTPAddr}} {
			if err := checkLoopback(a.addr); err != nil {
				return nil, fmt.Errorf("mailhost: %s address: %w (the mail host has no TLS, so it listens on loopback only)", a.proto, err)
			}
		}
	}

	h := &Host{
		cfg:   cfg,
		log:   cfg.Logger.With("component", "mailhost"),
		users: make(map[string]*account),
		conns: newConnTracker(),
	}
	if err := h.openFile(); err != nil {
		return nil, err
	}

	imapLn, err := net.Listen("tcp", cfg.IMAPAddr)
	if err != nil {
		h.closeFile()
		return nil, fmt.Errorf("mailhost: IMAP listen on %s: %w", cfg.IMAPAddr, err)
	}
	smtpLn, err := net.Listen("tcp", cfg.SMTPAddr)
	if err != nil {
		imapLn.Close()
		h.closeFile()
		return nil, fmt.Errorf("mailhost: SMTP listen on %s: %w", cfg.SMTPAddr, err)
	}
	h.imapLn = &trackingListener{Listener: imapLn, conns: h.conns, onAccept: func(c *trackedConn) {
		h.imapWG.Add(1)
		c.sessionEnd = sync.OnceFunc(h.imapWG.Done)
	}}
	h.smtpLn = &trackingListener{Listener: smtpLn, conns: h.conns}

	h.imapSrv = imapserver.New(&imapserver.Options{
		NewSession: h.newIMAPSession,
		// IMAP4rev2 makes the server advertise and serve IDLE (and
		// UIDPLUS, MOVE, NAMESPACE...); IMAP4rev1 keeps older clients.
		Caps: imap.CapSet{
			imap.CapIMAP4rev1: {},
			imap.CapIMAP4rev2: {},
		},
		Logger:       logx.Printf{L: h.log.With("proto", "imap"), Level: slog.LevelDebug},
		InsecureAuth: true, // no TLS at all: see the package doc
	})

	s := smtp.NewServer(smtp.BackendFunc(h.newSMTPSession))
	s.Domain = cfg.Domain
	// go-smtp's DATA reader fails once it has returned MaxMessageBytes
	// bytes, before it sees the end of data, so a message of exactly
	// MaxMessageBytes would be refused; allow one more byte and enforce
	// cfg.MaxBytes in Data.
	s.MaxMessageBytes = cfg.MaxBytes + 1
	s.MaxRecipients = maxRecipients
	s.AllowInsecureAuth = true      // no TLS at all: see the package doc
	s.ReadTimeout = 5 * time.Minute // RFC 5321 §4.5.3.2.7
	s.WriteTimeout = time.Minute
	s.ErrorLog = logx.Printf{L: h.log.With("proto", "smtp"), Level: slog.LevelWarn}
	h.smtpSrv = s

	h.serveWG.Add(2)
	go func() {
		defer h.serveWG.Done()
		if err := h.imapSrv.Serve(h.imapLn); err != nil && !errors.Is(err, net.ErrClosed) {
			h.log.Error("IMAP server stopped", "err", err)
		}
	}()
	go func() {
		defer h.serveWG.Done()
		if err := h.smtpSrv.Serve(h.smtpLn); err != nil && !errors.Is(err, net.ErrClosed) {
			h.log.Error("SMTP server stopped", "err", err)
		}
	}()
	h.log.Info("mail host listening", "domain", cfg.Domain, "imap", h.IMAPAddr(), "smtp", h.SMTPAddr())
	return h, nil
}

// maxRecipients caps RCPT TO per message.
const maxRecipients = 100

// checkLoopback reports an error unless addr's host is "localhost" or a
// loopback IP. An empty host means all interfaces and is refused.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%q: %w", addr, err)
	}
	if strings.EqualFold(host, "localhost") {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("%q is not a loopback address", addr)
	}
	return nil
}

// Domain returns the mail domain the host accepts mail for.
func (h *Host) Domain() string { return h.cfg.Domain }

// IMAPAddr returns the IMAP server's host:port.
func (h *Host) IMAPAddr() string { return h.imapLn.Addr().String() }

// SMTPAddr returns the SMTP server's host:port.
func (h *Host) SMTPAddr() string { return h.smtpLn.Addr().String() }

// Stats returns the commits of the host's file so far: each received mail
// and each change of a mailbox is in one, and a commit's fsync is shared
// by the mails that arrive together.
func (h *Host) Stats() store.Stats { return h.db.Stats() }

var userNameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`)

// AddUser lets user name (case-insensitive; letters, digits, '.', '_'
// and '-', no '+') log in with password, with the mailboxes the file
// holds for it (an empty INBOX for a new user). Passwords are not kept in
// the file: whoever runs the host adds its users at each start. Adding a
// user again with the same password does nothing; with another password
// it is an error.
func (h *Host) AddUser(name, password string) error {
	name = strings.ToLower(name)
	if len(name) > 64 || !userNameRE.MatchString(name) {
		return fmt.Errorf("mailhost: add user %q: name must be 1-64 letters, digits, '.', '_' or '-'", name)
	}
	if password == "" {
		return fmt.Errorf("mailhost: add user %q: empty password", name)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if a, ok := h.users[name]; ok {
		if a.password != password {
			return fmt.Errorf("mailhost: add user %q: exists with another password", name)
		}
		return nil
	}
	a, err := h.loadAccount(name, password)
	if err != nil {
		return err
	}
	h.users[name] = a
	return nil
}

// Users returns the user names, sorted.
func (h *Host) Users() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	names := make([]string, 0, len(h.users))
	for n := range h.users {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// account returns user name's account: one added, or one Config.Password
// knows (loaded from the file, or made, on first use).
func (h *Host) account(name string) *account {
	name = strings.ToLower(name)
	h.mu.Lock()
	defer h.mu.Unlock()
	if a := h.users[name]; a != nil || h.cfg.Password == nil || !userNameRE.MatchString(name) || len(name) > 64 {
		return a
	}
	pw, ok := h.cfg.Password(name)
	if !ok || pw == "" {
		return nil
	}
	a, err := h.loadAccount(name, pw)
	if err != nil {
		h.log.Error("mail host: loading a mailbox", "user", name, "err", err)
		return nil
	}
	h.users[name] = a
	return a
}

// Close stops both servers, closes their listeners and every open
// connection, waits for the goroutines serving them, and closes the file
// (every change answered is in it). Calling Close again returns the first
// result.
func (h *Host) Close() error {
	h.closeOne.Do(func() { h.closeErr = h.close() })
	return h.closeErr
}

func (h *Host) close() error {
	var errs []error
	// Stop accepting: with the listeners closed both Serve loops return, so
	// no connection is accepted (and no WaitGroup.Add happens) after this.
	h.conns.shut()
	for _, ln := range []net.Listener{h.imapLn, h.smtpLn} {
		if err := ln.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
			errs = append(errs, fmt.Errorf("mailhost: close listener %s: %w", ln.Addr(), err))
		}
	}
	h.serveWG.Wait()
	// Close every accepted connection, including those the servers have
	// not registered yet (their Close only sees registered ones).
	h.conns.closeAll()
	if err := h.imapSrv.Close(); err != nil {
		errs = append(errs, fmt.Errorf("mailhost: close IMAP server: %w", err))
	}
	h.imapWG.Wait()
	// Shutdown waits for go-smtp's connection goroutines; Close does not.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := h.smtpSrv.Shutdown(ctx); err != nil && !errors.Is(err, net.ErrClosed) {
		errs = append(errs, fmt.Errorf("mailhost: shut down SMTP server: %w", err))
	}
	if err := h.closeFile(); err != nil {
		errs = append(errs, err)
	}
	h.log.Info("mail host closed")
	return errors.Join(errs...)
}

// notifier is a broadcast: wait returns a channel closed by the next
// notify.
type notifier struct {
	mu sync.Mutex
	ch chan struct{}
}

func (n *notifier) wait() <-chan struct{} {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.ch == nil {
		n.ch = make(chan struct{})
	}
	return n.ch
}

func (n *notifier) notify() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.ch != nil {
		close(n.ch)
		n.ch = nil
	}
}

// openFile opens (or makes) the host's file.
func (h *Host) openFile() error {
	path := h.cfg.Path
	if path == "" {
		dir, err := os.MkdirTemp("", "pbem-mailhost-")
		if err != nil {
			return fmt.Errorf("mailhost: %w", err)
		}
		h.tmpDir, path = dir, filepath.Join(dir, "mailhost.db")
	}
	_, statErr := os.Stat(path)
	db, err := store.OpenKV(path, store.KVOptions{Buckets: []string{bucketHost, bucketUsers}})
	if err != nil {
		h.removeTmp()
		return fmt.Errorf("mailhost: %w", err)
	}
	h.db = db
	if errors.Is(statErr, fs.ErrNotExist) {
		// UIDVALIDITY starts from the clock: a mailbox of a new file must
		// not reuse a validity a client remembers from an older one.
		err := db.Update(func(tx *store.KVTx) error {
			return tx.Bucket(bucketHost).Put(keyUIDValidity, binary.BigEndian.AppendUint32(nil, uint32(h.cfg.Now().Unix())))
		})
		if err != nil {
			h.closeFile()
			return fmt.Errorf("mailhost: %w", err)
		}
	}
	return nil
}

func (h *Host) closeFile() error {
	err := h.db.Close()
	h.removeTmp()
	if err != nil {
		return fmt.Errorf("mailhost: close %s: %w", h.db.Path(), err)
	}
	return nil
}

func (h *Host) removeTmp() {
	if h.tmpDir != "" {
		os.RemoveAll(h.tmpDir)
	}
}

// Check examines the host's file (see store.KV.Check).
func (h *Host) Check() ([]string, error) { return h.db.Check() }
