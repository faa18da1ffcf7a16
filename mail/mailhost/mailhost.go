// Package mailhost is the mail host pbem starts when no mail host is
// configured, so that "pbem serve" works out of the box: an IMAP server
// (go-imap v2's imapserver over its in-memory imapmemserver backend) and an
// SMTP server (go-smtp) that delivers to the IMAP users' INBOXes, both on
// loopback. A person can point Thunderbird or mutt at it (IMAP with plain
// LOGIN, SMTP with or without AUTH PLAIN), and pbem's own tests use it as a
// mail host they can reach over real sockets.
//
// It is a local host for play and tests, not a production MTA: mail lives in
// memory and is lost when the host closes; it never relays (it only accepts
// mail for its own domain and known users); and it has no TLS, so passwords
// cross the connection in clear text. That is why Start refuses to listen
// on anything but a loopback address unless Config.AllowRemote is set.
//
// Delivery follows plus addressing: a RCPT TO of
// pbem+g1.usa.k3v9x2m4q8r7t6w5@<domain> lands in the INBOX of user "pbem".
// User names and domains are case-insensitive (stored in lower case).
package mailhost

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/emersion/go-smtp"

	"pbem/internal/logx"
)

// Defaults for Config.
const (
	DefaultDomain   = "pbem.localhost"
	DefaultAddr     = "127.0.0.1:0"
	DefaultMaxBytes = 10 << 20
)

// Config configures a Host. The zero value is usable.
type Config struct {
	// Domain is the mail domain the host accepts mail for
	// (default DefaultDomain).
	Domain string
	// IMAPAddr and SMTPAddr are the listen addresses (default DefaultAddr,
	// a free loopback port each).
	IMAPAddr, SMTPAddr string
	// AllowRemote permits non-loopback listen addresses. The host has no
	// TLS: anyone who can reach it can read passwords and mail on the wire.
	AllowRemote bool
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
	cfg Config
	log *slog.Logger

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

// account is one user: the imapmemserver user holding the mailboxes, the
// password (to answer SMTP AUTH and detect AddUser conflicts), and a
// notifier that wakes this user's IDLE sessions when a mailbox changes.
type account struct {
	name     string
	password string
	user     *imapmemserver.User
	changes  notifier
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
				return nil, fmt.Errorf("mailhost: %s address: %w (the mail host has no TLS; set AllowRemote to listen anyway)", a.proto, err)
			}
		}
	}

	h := &Host{
		cfg:   cfg,
		log:   cfg.Logger.With("component", "mailhost"),
		users: make(map[string]*account),
		conns: newConnTracker(),
	}

	imapLn, err := net.Listen("tcp", cfg.IMAPAddr)
	if err != nil {
		return nil, fmt.Errorf("mailhost: IMAP listen on %s: %w", cfg.IMAPAddr, err)
	}
	smtpLn, err := net.Listen("tcp", cfg.SMTPAddr)
	if err != nil {
		imapLn.Close()
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

var userNameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`)

// AddUser creates user name (case-insensitive; letters, digits, '.', '_'
// and '-', no '+') with password and an empty INBOX. Adding an existing
// user again with the same password does nothing; with another password it
// is an error.
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
	u := imapmemserver.NewUser(name, password)
	if err := u.Create("INBOX", nil); err != nil {
		return fmt.Errorf("mailhost: add user %q: create INBOX: %w", name, err)
	}
	h.users[name] = &account{name: name, password: password, user: u}
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

func (h *Host) account(name string) *account {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.users[strings.ToLower(name)]
}

// Close stops both servers, closes their listeners and every open
// connection, and waits for the goroutines serving them. Mail held by the
// host is gone afterwards. Calling Close again returns the first result.
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
