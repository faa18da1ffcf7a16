package outbox

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"math/big"
	mrand "math/rand/v2"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"pbem/events"
	"pbem/internal/syncbuf"
	"pbem/internal/waitfor"
	"pbem/store"
)

// ---- a real SMTP server on loopback ----

type received struct {
	from string
	to   []string
	data []byte
}

// backend records the messages it accepts and fails on request.
type backend struct {
	mu        sync.Mutex
	msgs      []received
	datas     int                      // DATA commands that reached the backend
	tempFails int                      // answer 421 to the DATA of the next N messages
	reject    map[string]bool          // answer 550 to RCPT TO of these addresses
	dataDelay time.Duration            // pause before answering the end of DATA
	rcptDelay time.Duration            // pause before answering RCPT TO
	got       chan struct{}            // when set, signalled as each message's final dot arrives
	inRcpt    chan struct{}            // when set, signalled as each RCPT TO arrives
	hold      map[string]chan struct{} // the end of DATA to these addresses waits until the channel is closed
	user      string                   // when set, AUTH PLAIN with user/pass is required
	pass      string
	conns     []*smtp.Conn // every connection opened, in order
}

func (b *backend) NewSession(c *smtp.Conn) (smtp.Session, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.conns = append(b.conns, c)
	return &session{b: b}, nil
}

// connCount returns how many connections were opened.
func (b *backend) connCount() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.conns)
}

// hangUp closes every connection from the server's side, as a server
// does with a connection idle too long.
func (b *backend) hangUp() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, c := range b.conns {
		c.Close()
	}
}

func (b *backend) messages() []received {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]received(nil), b.msgs...)
}

func (b *backend) dataCount() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.datas
}

type session struct {
	b      *backend
	authed bool
	from   string
	to     []string
}

func (s *session) AuthMechanisms() []string {
	if s.b.user == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (s *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != s.b.user || pass != s.b.pass {
			return smtp.ErrAuthFailed
		}
		s.authed = true
		return nil
	}), nil
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	if s.b.user != "" && !s.authed {
		return smtp.ErrAuthRequired
	}
	s.from = from
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.b.mu.Lock()
	inRcpt, delay := s.b.inRcpt, s.b.rcptDelay
	s.b.mu.Unlock()
	signal(inRcpt)
	time.Sleep(delay) // not a wait: a slow server, as the test set it
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	if s.b.reject[to] {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user"}
	}
	s.to = append(s.to, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	s.b.mu.Lock()
	s.b.datas++
	got, delay := s.b.got, s.b.dataDelay
	s.b.mu.Unlock()
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	signal(got)
	time.Sleep(delay) // not a wait: a slow server, as the test set it
	s.b.mu.Lock()
	var held []chan struct{}
	for _, to := range s.to {
		if c := s.b.hold[to]; c != nil {
			held = append(held, c)
		}
	}
	s.b.mu.Unlock()
	for _, c := range held {
		<-c
	}
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	if s.b.tempFails > 0 {
		s.b.tempFails--
		return &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
	}
	s.b.msgs = append(s.b.msgs, received{from: s.from, to: s.to, data: data})
	return nil
}

// signal sends on c without blocking, if c is set.
func signal(c chan struct{}) {
	if c != nil {
		select {
		case c <- struct{}{}:
		default:
		}
	}
}

func (s *session) Reset()        { s.from, s.to = "", nil }
func (s *session) Logout() error { return nil }

// serve starts an SMTP server for be on addr ("127.0.0.1:0" for any port)
// in TLS mode mode, and returns its address.
func serve(t *testing.T, be *backend, addr, mode string, cert *tls.Certificate) string {
	t.Helper()
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	srv := smtp.NewServer(be)
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.ReadTimeout = 10 * time.Second
	srv.WriteTimeout = 10 * time.Second
	srv.ErrorLog = log.New(io.Discard, "", 0)
	switch mode {
	case TLSStartTLS:
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{*cert}}
	case TLSImplicit:
		l = tls.NewListener(l, &tls.Config{Certificates: []tls.Certificate{*cert}})
	}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return l.Addr().String()
}

// freeAddr returns a loopback address nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// selfSigned returns a certificate for 127.0.0.1 and a pool trusting it.
func selfSigned(t *testing.T) (*tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "pbem test"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames:              []string{"localhost"},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return &tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}

// ---- the log ----

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "pbem.db"), store.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// queued is a mail.queued event as the caller reads it back from the log.
type queued struct {
	game string
	seq  uint64
	at   time.Time
	q    *events.MailQueued
}

// queue appends q to game's log, as the engine does with a decision.
func queue(t *testing.T, st *store.Store, game string, q *events.MailQueued) queued {
	t.Helper()
	h, err := st.Head(game)
	if err != nil {
		t.Fatal(err)
	}
	res, err := st.Append(game, h.Seq, events.New(game, testAt, "", q))
	if err != nil {
		t.Fatal(err)
	}
	e := res.Events[0]
	return queued{game: game, seq: e.Seq, at: e.Time(), q: q}
}

func (m queued) enqueue(s *Sender, attempt int) { s.Enqueue(m.game, m.seq, m.at, m.q, attempt) }

func (m queued) render(t *testing.T) []byte {
	t.Helper()
	b, err := Render(m.game, m.seq, m.at, m.q, testHeaders)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// outcome is a delivery event in short form: "sent 1", "temp 2" (a
// temporary failure at attempt 2), "perm 3".
func outcome(p events.Payload) string {
	switch p := p.(type) {
	case *events.MailSent:
		return fmt.Sprintf("sent %d", p.Attempt)
	case *events.MailFailed:
		if p.Permanent {
			return fmt.Sprintf("perm %d", p.Attempt)
		}
		return fmt.Sprintf("temp %d", p.Attempt)
	}
	return ""
}

// deliveries returns game's mail.sent and mail.failed events of mailID.
func deliveries(t *testing.T, st *store.Store, game, mailID string) ([]string, []events.Payload, []events.Envelope) {
	t.Helper()
	if _, err := st.Verify(game); err != nil {
		t.Fatalf("the log does not verify: %v", err)
	}
	evs, err := st.Events(game, 1)
	if err != nil {
		t.Fatal(err)
	}
	var short []string
	var ps []events.Payload
	var envs []events.Envelope
	for _, e := range evs {
		p, err := events.Decode(&e)
		if err != nil {
			t.Fatal(err)
		}
		var id string
		switch p := p.(type) {
		case *events.MailSent:
			id = p.MailID
		case *events.MailFailed:
			id = p.MailID
		default:
			continue
		}
		if id == mailID {
			short = append(short, outcome(p))
			ps = append(ps, p)
			envs = append(envs, e)
		}
	}
	return short, ps, envs
}

// ---- the sender ----

// logBuffer collects the sender's JSON log lines.
type logBuffer struct{ syncbuf.Buffer }

func (l *logBuffer) records(t *testing.T) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(l.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

func testConfig(addr string, logs *logBuffer) Config {
	return Config{
		Addr: addr, TLS: TLSNone, HeloName: "pbem.test",
		From: testHeaders.From, ListDomain: testHeaders.ListDomain,
		MaxAttempts: 8, BackoffBase: time.Millisecond, BackoffMax: 10 * time.Millisecond,
		Timeout: 5 * time.Second, JitterSeed: 1,
		Logger: slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
}

// run starts s.Run and returns a function that stops it and returns its error.
func run(t *testing.T, s *Sender) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	var once sync.Once
	var err error
	stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("Run did not return")
			}
		})
		return err
	}
	t.Cleanup(func() { stop() })
	return stop
}

func waitIdle(t *testing.T, s *Sender) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.WaitIdle(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestSender(t *testing.T) {
	cert, pool := selfSigned(t)
	anna := "anna@example.org"
	tests := []struct {
		name      string
		tls       string
		tempFails int
		reject    string
		to        []string
		auth      [2]string // server's user and password
		cfg       func(*Config)
		want      []string
		delivered bool
	}{
		{name: "success", want: []string{"sent 1"}, delivered: true},
		{name: "two 421s then success", tempFails: 2, want: []string{"sent 3"}, delivered: true},
		{name: "550 is permanent", reject: anna, want: []string{"perm 1"}},
		{name: "550 for one of two recipients fails the mail", to: []string{"bob@example.org", "Anna <" + anna + ">"},
			reject: anna, want: []string{"perm 1"}},
		{name: "421 until MaxAttempts", tempFails: 100, cfg: func(c *Config) { c.MaxAttempts = 3 },
			want: []string{"perm 3"}},
		{name: "two recipients", to: []string{"bob@example.org", "Anna <" + anna + ">"}, want: []string{"sent 1"}, delivered: true},
		{name: "auth plain", auth: [2]string{"pbem", "s3cret"},
			cfg: func(c *Config) { c.Username, c.Password = "pbem", "s3cret" }, want: []string{"sent 1"}, delivered: true},
		{name: "wrong password is temporary", auth: [2]string{"pbem", "s3cret"},
			cfg:  func(c *Config) { c.Username, c.Password, c.MaxAttempts = "pbem", "wrong", 2 },
			want: []string{"perm 2"}},
		{name: "starttls", tls: TLSStartTLS, want: []string{"sent 1"}, delivered: true},
		{name: "starttls with auth", tls: TLSStartTLS, auth: [2]string{"pbem", "s3cret"},
			cfg: func(c *Config) { c.Username, c.Password = "pbem", "s3cret" }, want: []string{"sent 1"}, delivered: true},
		{name: "implicit tls", tls: TLSImplicit, want: []string{"sent 1"}, delivered: true},
		{name: "untrusted certificate is temporary", tls: TLSImplicit,
			cfg:  func(c *Config) { c.TLSConfig = nil; c.MaxAttempts = 2 },
			want: []string{"perm 2"}},
		{name: "unrenderable mail is permanent", to: []string{"not an address"}, want: []string{"perm 1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			be := &backend{tempFails: tt.tempFails, reject: map[string]bool{tt.reject: true},
				user: tt.auth[0], pass: tt.auth[1]}
			addr := serve(t, be, "127.0.0.1:0", tt.tls, cert)
			st := openStore(t)
			logs := &logBuffer{}
			cfg := testConfig(addr, logs)
			if tt.tls != "" {
				cfg.TLS = tt.tls
				cfg.TLSConfig = &tls.Config{RootCAs: pool}
			}
			if tt.cfg != nil {
				tt.cfg(&cfg)
			}
			q := plainMail()
			if tt.to != nil {
				q.To = tt.to
			}
			m := queue(t, st, "g1", q)
			s := New(cfg, st)
			m.enqueue(s, 0)
			before := time.Now()
			stop := run(t, s)
			waitIdle(t, s)
			if err := stop(); err != nil {
				t.Fatalf("Run: %v", err)
			}

			// The log records how the mail ended, not each temporary
			// failure: Status counts those (for metrics).
			got, ps, envs := deliveries(t, st, "g1", q.MailID)
			if strings.Join(got, ", ") != strings.Join(tt.want, ", ") {
				t.Fatalf("events %q; want %q\nlog:\n%s", got, tt.want, logs.String())
			}
			var final string
			var n int
			fmt.Sscanf(tt.want[len(tt.want)-1], "%s %d", &final, &n)
			if final == "sent" {
				n--
			}
			if failed := s.Status().Failed; failed != uint64(n) {
				t.Errorf("Status counts %d failed attempts; want %d", failed, n)
			}
			for i, e := range envs {
				if e.Time().Before(before) || e.Time().After(time.Now()) {
					t.Errorf("event %d recorded at %v, not the time of its attempt", i, e.Time())
				}
				if f, ok := ps[i].(*events.MailFailed); ok && f.Error == "" {
					t.Errorf("mail.failed %d has no error text", i)
				}
			}
			msgs := be.messages()
			if !tt.delivered {
				if len(msgs) != 0 {
					t.Fatalf("server received %d messages; want none", len(msgs))
				}
				return
			}
			if len(msgs) != 1 {
				t.Fatalf("server received %d messages; want 1", len(msgs))
			}
			if want := m.render(t); !bytes.Equal(msgs[0].data, want) {
				t.Errorf("server received\n%s\nRender gives\n%s", msgs[0].data, want)
			}
			if msgs[0].from != "pbem@pbem.example.org" {
				t.Errorf("MAIL FROM %q", msgs[0].from)
			}
			var wantTo []string
			for _, a := range q.To {
				wantTo = append(wantTo, mustParse(t, a).Address)
			}
			if strings.Join(msgs[0].to, " ") != strings.Join(wantTo, " ") {
				t.Errorf("RCPT TO %q; want %q", msgs[0].to, wantTo)
			}
			sent := ps[len(ps)-1].(*events.MailSent)
			if !strings.Contains(sent.Reply, "OK") {
				t.Errorf("mail.sent reply %q; want the server's final reply", sent.Reply)
			}
		})
	}
}

func TestSenderLogs(t *testing.T) {
	be := &backend{tempFails: 1}
	addr := serve(t, be, "127.0.0.1:0", TLSNone, nil)
	st := openStore(t)
	logs := &logBuffer{}
	s := New(testConfig(addr, logs), st)
	m := queue(t, st, "g1", plainMail())
	m.enqueue(s, 0)
	stop := run(t, s)
	waitIdle(t, s)
	stop()

	var attempts, warns, infos int
	for _, r := range logs.records(t) {
		switch r["msg"] {
		case "mail delivery attempt":
			attempts++
			if r["level"] != "DEBUG" {
				t.Errorf("attempt logged at %v", r["level"])
			}
		case "mail failed":
			warns++
			if r["level"] != "WARN" || r["class"] != "temporary" || r["err"] == nil {
				t.Errorf("failure logged as %v", r)
			}
		case "mail sent":
			infos++
			if r["level"] != "INFO" || r["game"] != "g1" || r["mail_id"] != m.q.MailID || r["to"] == nil {
				t.Errorf("success logged as %v", r)
			}
		}
	}
	if attempts != 2 || warns != 1 || infos != 1 {
		t.Errorf("%d attempts, %d warnings, %d successes logged; want 2, 1, 1", attempts, warns, infos)
	}
}

func TestSenderRetriesUntilTheServerIsUp(t *testing.T) {
	addr := freeAddr(t)
	st := openStore(t)
	logs := &logBuffer{}
	cfg := testConfig(addr, logs)
	cfg.MaxAttempts = 1000
	cfg.BackoffBase, cfg.BackoffMax = 5*time.Millisecond, 20*time.Millisecond
	s := New(cfg, st)
	m := queue(t, st, "g1", plainMail())
	m.enqueue(s, 0)
	stop := run(t, s)

	// The failed attempts are counted (for metrics), not recorded in the
	// game's log.
	if !waitfor.True(10*time.Second, func() bool { return s.Status().Failed >= 2 }) {
		t.Fatal("no failed attempt counted while the server was down")
	}
	if st := s.Status(); !strings.HasPrefix(st.LastError, "connect: ") || st.Retrying != 1 {
		t.Errorf("status while the server is down: %+v; want a connection error and one mail retrying", st)
	}
	if got, _, _ := deliveries(t, st, "g1", m.q.MailID); len(got) > 0 {
		t.Fatalf("failed attempts recorded in the game's log: %q", got)
	}
	be := &backend{}
	serve(t, be, addr, TLSNone, nil)
	waitIdle(t, s)
	if err := stop(); err != nil {
		t.Fatal(err)
	}

	got, _, _ := deliveries(t, st, "g1", m.q.MailID)
	if failed := s.Status().Failed; len(got) != 1 || got[0] != fmt.Sprintf("sent %d", failed+1) {
		t.Fatalf("events %q after %d failed attempts; want only sent, at attempt %d", got, failed, failed+1)
	}
	if msgs := be.messages(); len(msgs) != 1 || !bytes.Equal(msgs[0].data, m.render(t)) {
		t.Fatalf("server received %d messages; want the one rendered", len(msgs))
	}
}

// queueMany queues n mails in game g1 and enqueues them in s.
func queueMany(t *testing.T, st *store.Store, s *Sender, n int) []queued {
	t.Helper()
	var ms []queued
	for i := range n {
		q := plainMail()
		q.MailID = fmt.Sprintf("<g1.%d.usa@pbem.example.org>", i)
		m := queue(t, st, "g1", q)
		m.enqueue(s, 0)
		ms = append(ms, m)
	}
	return ms
}

// checkWholeAttempts checks that every message the server accepted has its
// mail.sent, and that no other delivery event exists: no attempt is half
// written. It returns the number of mails sent.
func checkWholeAttempts(t *testing.T, st *store.Store, be *backend, ms []queued) int {
	t.Helper()
	got := map[string]int{}
	for _, msg := range be.messages() {
		for _, m := range ms {
			if bytes.Equal(msg.data, m.render(t)) {
				got[m.q.MailID]++
			}
		}
	}
	sent := 0
	for _, m := range ms {
		evs, _, _ := deliveries(t, st, "g1", m.q.MailID)
		want := ""
		if got[m.q.MailID] == 1 {
			want = "sent 1"
			sent++
		}
		if strings.Join(evs, ",") != want {
			t.Errorf("%s: server received it %d times; events %q", m.q.MailID, got[m.q.MailID], evs)
		}
	}
	return sent
}

func TestSenderStopFinishesATransactionPastTheFinalDot(t *testing.T) {
	be := &backend{dataDelay: 300 * time.Millisecond, got: make(chan struct{}, 1)}
	addr := serve(t, be, "127.0.0.1:0", TLSNone, nil)
	st := openStore(t)
	s := New(testConfig(addr, &logBuffer{}), st)
	ms := queueMany(t, st, s, 5)
	stop := run(t, s)
	select {
	case <-be.got: // the server has the whole first message, and waits
	case <-time.After(10 * time.Second):
		t.Fatal("no delivery started")
	}
	t0 := time.Now()
	if err := stop(); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if d := time.Since(t0); d > 2*time.Second {
		t.Errorf("Run took %v to return", d)
	}
	if sent := checkWholeAttempts(t, st, be, ms); sent != 1 {
		t.Fatalf("%d mails sent; want the one in flight", sent)
	}
	if s.Len() != len(ms)-1 {
		t.Errorf("%d mails still queued; want %d", s.Len(), len(ms)-1)
	}

	// The next run sends the rest, each once.
	be.mu.Lock()
	be.dataDelay = 0
	be.mu.Unlock()
	stop = run(t, s)
	waitIdle(t, s)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if sent := checkWholeAttempts(t, st, be, ms); sent != len(ms) {
		t.Errorf("%d mails sent; want %d", sent, len(ms))
	}
}

// Mails sent back to back share the worker's connection (one greeting,
// one login); when the server has closed it meanwhile, the next mail
// goes out at once over a new one, its first attempt, not a failure.
func TestSenderSendsMailsBackToBackOverOneConnection(t *testing.T) {
	be := &backend{user: "pbem", pass: "secret"}
	addr := serve(t, be, "127.0.0.1:0", TLSNone, nil)
	st := openStore(t)
	cfg := testConfig(addr, &logBuffer{})
	cfg.Workers, cfg.Username, cfg.Password = 1, "pbem", "secret"
	cfg.BackoffBase, cfg.BackoffMax = time.Hour, time.Hour // a failed attempt would not be retried within the test
	s := New(cfg, st)
	ms := queueMany(t, st, s, 5)
	stop := run(t, s)
	waitIdle(t, s)
	if n := be.connCount(); n != 1 {
		t.Errorf("%d mails sent back to back over %d connections; want one", len(ms), n)
	}
	be.hangUp()
	q := plainMail()
	q.MailID = "<g1.after.usa@pbem.example.org>"
	m := queue(t, st, "g1", q)
	m.enqueue(s, 0)
	waitIdle(t, s)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if n := be.connCount(); n != 2 {
		t.Errorf("%d connections after the server closed the first; want 2", n)
	}
	if sent := checkWholeAttempts(t, st, be, append(ms, m)); sent != len(ms)+1 {
		t.Errorf("%d mails sent, each at its first attempt; want %d", sent, len(ms)+1)
	}
}

func TestSenderStopAbandonsATransactionBeforeTheFinalDot(t *testing.T) {
	// The server is slow to answer RCPT TO: stopping must not wait for it.
	be := &backend{rcptDelay: 3 * time.Second, inRcpt: make(chan struct{}, 1)}
	addr := serve(t, be, "127.0.0.1:0", TLSNone, nil)
	st := openStore(t)
	s := New(testConfig(addr, &logBuffer{}), st)
	ms := queueMany(t, st, s, 3)
	stop := run(t, s)
	select {
	case <-be.inRcpt:
	case <-time.After(10 * time.Second):
		t.Fatal("no delivery started")
	}
	t0 := time.Now()
	if err := stop(); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if d := time.Since(t0); d > time.Second {
		t.Errorf("Run took %v to return", d)
	}
	if sent := checkWholeAttempts(t, st, be, ms); sent != 0 {
		t.Fatalf("%d mails sent; want none", sent)
	}
	if s.Len() != len(ms) {
		t.Errorf("%d mails still queued; want %d (an abandoned attempt is no attempt)", s.Len(), len(ms))
	}

	be.mu.Lock()
	be.rcptDelay = 0
	be.mu.Unlock()
	stop = run(t, s)
	waitIdle(t, s)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if sent := checkWholeAttempts(t, st, be, ms); sent != len(ms) {
		t.Errorf("%d mails sent; want %d", sent, len(ms))
	}
}

// failingLog refuses appends while refuse is above 0 (counting down; -1:
// for ever), as a full disk or a failing file would.
type failingLog struct {
	Appender
	refuse  atomic.Int64
	refused atomic.Int64 // appends refused so far
}

func (f *failingLog) Do(r store.Request) (store.Result, error) {
	if n := f.refuse.Load(); n != 0 {
		f.refused.Add(1)
		if n > 0 {
			f.refuse.Add(-1)
		}
		return store.Result{}, errors.New("no space left on device")
	}
	return f.Appender.Do(r)
}

// heldLog holds every append until release is closed, as a slow commit
// would.
type heldLog struct {
	Appender
	release chan struct{}
}

func (h *heldLog) Do(r store.Request) (store.Result, error) {
	<-h.release
	return h.Appender.Do(r)
}

// A worker sends the next mail while the mail.sent of the one before is
// still being committed: recording is pipelined, and each mail is still
// recorded once. That holds for a mail of another game and for the next
// mail of the same game, which goes once the server has taken the one
// before it: a game's mails still reach the server in order.
func TestSenderSendsTheNextMailWhileTheLastOneIsRecorded(t *testing.T) {
	for _, c := range []struct {
		name  string
		games []string
	}{
		{"of another game", []string{"g1", "g2"}},
		{"of the same game", []string{"g1", "g1", "g1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			be := &backend{}
			addr := serve(t, be, "127.0.0.1:0", TLSNone, nil)
			st := openStore(t)
			held := &heldLog{Appender: st, release: make(chan struct{})}
			cfg := testConfig(addr, &logBuffer{})
			cfg.Workers = 1
			s := New(cfg, held)
			var ms []queued
			for i, game := range c.games {
				q := plainMail()
				q.MailID = fmt.Sprintf("<%s.%d.usa@pbem.example.org>", game, i+1)
				m := queue(t, st, game, q)
				m.enqueue(s, 0)
				ms = append(ms, m)
			}
			stop := run(t, s)
			if !waitfor.True(10*time.Second, func() bool { return len(be.messages()) >= len(ms) }) {
				close(held.release)
				t.Fatalf("%d of %d mails sent while the first one's record was held; want every one", len(be.messages()), len(ms))
			}
			close(held.release)
			waitIdle(t, s)
			if err := stop(); err != nil {
				t.Fatal(err)
			}
			for i, m := range ms {
				if evs, _, _ := deliveries(t, st, m.game, m.q.MailID); strings.Join(evs, ",") != "sent 1" {
					t.Errorf("%s: events %q, want sent once", m.q.MailID, evs)
				}
				if got := string(be.messages()[i].data); !strings.Contains(got, m.q.MailID) {
					t.Errorf("mail %d the server received is not %s, the %d. queued:\n%s", i+1, m.q.MailID, i+1, got)
				}
			}
		})
	}
}

// A game's mails to each reader go out one after the other, in the order
// they were queued, and its readers' side by side: while the server
// holds the mail to one player, the mail to the other goes, and the
// first player's next mail waits for the one held.
func TestSenderSendsEachReadersMailsInOrderAndTheReadersSideBySide(t *testing.T) {
	anna := make(chan struct{})
	be := &backend{hold: map[string]chan struct{}{"anna@example.org": anna}}
	addr := serve(t, be, "127.0.0.1:0", TLSNone, nil)
	st := openStore(t)
	s := New(testConfig(addr, &logBuffer{}), st)
	var ms []queued
	for i, to := range []string{"Anna Nowak <anna@example.org>", "anna@example.org", "Taro <taro@example.jp>"} {
		q := plainMail()
		q.To = []string{to}
		q.MailID = fmt.Sprintf("<g1.%d@pbem.example.org>", i+1)
		m := queue(t, st, "g1", q)
		m.enqueue(s, 0)
		ms = append(ms, m)
	}
	stop := run(t, s)
	defer func() {
		if err := stop(); err != nil {
			t.Fatal(err)
		}
	}()
	if !waitfor.True(10*time.Second, func() bool { return len(be.messages()) >= 1 && be.dataCount() >= 2 }) {
		close(anna)
		t.Fatal("the mail to Taro waited for the one held for Anna")
	}
	if got := be.messages(); len(got) != 1 || !strings.Contains(string(got[0].data), ms[2].q.MailID) {
		close(anna)
		t.Fatalf("while Anna's first mail is held, the server has %d mails; want Taro's alone", len(got))
	}
	if n := be.dataCount(); n != 2 {
		close(anna)
		t.Fatalf("%d mails reached DATA while Anna's first is held; want hers and Taro's, not her second", n)
	}
	close(anna)
	waitIdle(t, s)
	var order []string
	for _, m := range be.messages() {
		for _, q := range ms {
			if strings.Contains(string(m.data), q.q.MailID) {
				order = append(order, q.q.MailID)
			}
		}
	}
	if want := []string{ms[2].q.MailID, ms[0].q.MailID, ms[1].q.MailID}; fmt.Sprint(order) != fmt.Sprint(want) {
		t.Fatalf("the server received %v; want %v (Taro's first, then Anna's in order)", order, want)
	}
}

// The outbox never gives up on a log that refuses an attempt's outcome:
// it records the outcome again with backoff (it does not send the mail
// again), sends nothing new meanwhile, shows the failure in Status, and
// goes on once the log takes it.
func TestSenderRecordsAnOutcomeTheLogRefusedAndSendsNothingNewMeanwhile(t *testing.T) {
	be := &backend{}
	addr := serve(t, be, "127.0.0.1:0", TLSNone, nil)
	st := openStore(t)
	logs := &logBuffer{}
	broken := &failingLog{Appender: st}
	broken.refuse.Store(-1)
	cfg := testConfig(addr, logs)
	cfg.RecordBase, cfg.RecordMax = time.Millisecond, 5*time.Millisecond
	s := New(cfg, broken)
	first := queue(t, st, "g1", plainMail())
	first.enqueue(s, 0)
	stop := run(t, s)
	if !waitfor.True(10*time.Second, func() bool { return !s.Status().StoreFailingSince.IsZero() && len(be.messages()) > 0 }) {
		t.Fatal("the refused outcome does not show in Status")
	}
	// A second mail while the log refuses: not sent.
	q2 := plainMail()
	q2.MailID = "<g1.second@pbem.example.org>"
	second := queue(t, st, "g1", q2)
	refused := broken.refused.Load()
	second.enqueue(s, 0)
	// The second mail is due at once, the first's record only after its
	// backoff: a worker that looks at the queue after the enqueue and
	// tries the record again has passed the second by. Some such tries
	// later, a second mail wrongly taken would have reached the server.
	waitfor.Until(t, 10*time.Second, "the outbox to try the refused record again", func() bool { return broken.refused.Load() >= refused+5 })
	if st := s.Status(); len(be.messages()) != 1 || st.Unrecorded != 1 || st.Queued != 2 {
		t.Fatalf("while the log refuses: %d messages sent, status %+v", len(be.messages()), st)
	}
	broken.refuse.Store(0)
	waitIdle(t, s)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	for _, m := range []queued{first, second} {
		if got, _, _ := deliveries(t, st, "g1", m.q.MailID); strings.Join(got, ",") != "sent 1" {
			t.Fatalf("%s: events %q; want sent 1", m.q.MailID, got)
		}
	}
	if n := len(be.messages()); n != 2 {
		t.Fatalf("server received %d messages; want each mail once", n)
	}
	if st := s.Status(); !st.StoreFailingSince.IsZero() || st.Sent != 2 {
		t.Fatalf("status after recovery %+v", st)
	}
	// Logged without flooding: one error for the whole stretch, one line
	// for the recovery.
	var errs, recovered int
	for _, r := range logs.records(t) {
		switch {
		case r["level"] == "ERROR":
			errs++
		case r["msg"] == "outbox records attempts in the log again":
			recovered++
		}
	}
	if errs != 1 || recovered != 1 {
		t.Fatalf("%d error lines and %d recovery lines logged; want 1 and 1", errs, recovered)
	}
}

// An attempt whose outcome the log never took before the outbox stopped
// is made again by the next run: at least once, never lost.
func TestSenderDeliversAtLeastOnce(t *testing.T) {
	be := &backend{}
	addr := serve(t, be, "127.0.0.1:0", TLSNone, nil)
	st := openStore(t)
	logs := &logBuffer{}
	broken := &failingLog{Appender: st}
	broken.refuse.Store(-1)
	s := New(testConfig(addr, logs), broken)
	m := queue(t, st, "g1", plainMail())
	m.enqueue(s, 0)
	stop := run(t, s)
	if !waitfor.True(10*time.Second, func() bool { return len(be.messages()) > 0 }) {
		t.Fatal("nothing sent")
	}
	if err := stop(); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if got, _, _ := deliveries(t, st, "g1", m.q.MailID); len(got) != 0 {
		t.Fatalf("events %q; want none", got)
	}

	// A restart reads the log: no attempt recorded, so the mail goes again.
	s2 := New(testConfig(addr, logs), st)
	m.enqueue(s2, 0)
	stop = run(t, s2)
	waitIdle(t, s2)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := deliveries(t, st, "g1", m.q.MailID); strings.Join(got, ",") != "sent 1" {
		t.Fatalf("events %q; want sent 1", got)
	}
	msgs := be.messages()
	if len(msgs) != 2 || !bytes.Equal(msgs[0].data, msgs[1].data) {
		t.Fatalf("server received %d messages; want the same bytes twice", len(msgs))
	}
	if !bytes.Contains(msgs[1].data, []byte("Message-ID: "+m.q.MailID+"\r\n")) {
		t.Error("the resend does not carry the mail's Message-ID")
	}
}

// With the default MaxAttempts a temporary failure is never final: the
// mail waits for as long as the server does, and repeated failures are
// logged once a minute, not once per attempt.
func TestSenderNeverGivesUpByDefault(t *testing.T) {
	be := &backend{tempFails: 40}
	addr := serve(t, be, "127.0.0.1:0", TLSNone, nil)
	st := openStore(t)
	logs := &logBuffer{}
	cfg := testConfig(addr, logs)
	cfg.MaxAttempts = 0
	cfg.BackoffBase, cfg.BackoffMax = time.Millisecond, 2*time.Millisecond
	s := New(cfg, st)
	m := queue(t, st, "g1", plainMail())
	m.enqueue(s, 0)
	stop := run(t, s)
	waitIdle(t, s)
	stop()
	got, _, _ := deliveries(t, st, "g1", m.q.MailID)
	if len(got) != 1 || got[0] != "sent 41" || s.Status().Failed != 40 {
		t.Fatalf("events %q, %d failed attempts counted; want 40 temporary failures counted, then sent (the only event)", got, s.Status().Failed)
	}
	warns := 0
	for _, r := range logs.records(t) {
		if r["msg"] == "mail failed" && r["level"] == "WARN" {
			warns++
		}
	}
	if warns != 1 {
		t.Fatalf("%d warnings for 40 failures alike within a minute; want 1", warns)
	}
}

// interleaving appends an event of its own to the game just before each
// of the sender's appends, as the engine does when it decides meanwhile.
type interleaving struct {
	Appender
	st *store.Store
	n  atomic.Int32
}

func (l *interleaving) Do(r store.Request) (store.Result, error) {
	h, err := l.st.Head(r.Game)
	if err != nil {
		return store.Result{}, err
	}
	other := events.New(r.Game, time.Unix(1_700_000_000, 0), "", &events.OrderReceived{Player: "usa", Text: "STATUS"})
	if _, err := l.st.Do(store.Request{Game: r.Game, Expected: h.Seq, Events: []events.Envelope{other}}); err != nil {
		return store.Result{}, err
	}
	l.n.Add(1)
	return l.Appender.Do(r)
}

// A mail's outcome is recorded after whatever the game's log holds by
// then: another writer's appends meanwhile cost it nothing.
func TestSenderRecordsAfterWhatOthersAppendedMeanwhile(t *testing.T) {
	be := &backend{}
	addr := serve(t, be, "127.0.0.1:0", TLSNone, nil)
	st := openStore(t)
	log := &interleaving{Appender: st, st: st}
	s := New(testConfig(addr, &logBuffer{}), log)
	m := queue(t, st, "g1", plainMail())
	m.enqueue(s, 0)
	stop := run(t, s)
	waitIdle(t, s)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := deliveries(t, st, "g1", m.q.MailID); strings.Join(got, ",") != "sent 1" {
		t.Fatalf("events %q; want sent 1", got)
	}
	if log.n.Load() != 1 {
		t.Errorf("%d appends by the sender; want 1 (no retry)", log.n.Load())
	}
	h, _ := st.Head("g1")
	evs, err := st.Events("g1", h.Seq)
	if err != nil || len(evs) != 1 || evs[0].Type != events.TypeMailSent {
		t.Fatalf("the last event is not the mail's outcome: %v %+v", err, evs)
	}
}

func TestSenderContinuesCountingAfterRestart(t *testing.T) {
	be := &backend{tempFails: 1}
	addr := serve(t, be, "127.0.0.1:0", TLSNone, nil)
	st := openStore(t)
	s := New(testConfig(addr, &logBuffer{}), st) // MaxAttempts 8
	m := queue(t, st, "g1", plainMail())
	m.enqueue(s, 7) // the log records 7 attempts
	stop := run(t, s)
	waitIdle(t, s)
	stop()
	if got, _, _ := deliveries(t, st, "g1", m.q.MailID); strings.Join(got, ",") != "perm 8" {
		t.Fatalf("events %q; want perm 8", got)
	}
}

func TestSenderCancel(t *testing.T) {
	be := &backend{tempFails: 1}
	addr := serve(t, be, "127.0.0.1:0", TLSNone, nil)
	st := openStore(t)
	cfg := testConfig(addr, &logBuffer{})
	cfg.BackoffBase, cfg.BackoffMax = time.Hour, time.Hour
	s := New(cfg, st)
	a := queue(t, st, "g1", plainMail())
	b := queue(t, st, "g1", intlMail())
	a.enqueue(s, 0)
	a.enqueue(s, 0) // a duplicate is ignored
	b.enqueue(s, 0)
	s.Cancel("g1", b.q.MailID) // sent elsewhere
	if s.Len() != 1 {
		t.Fatalf("%d queued; want 1", s.Len())
	}
	stop := run(t, s)
	if !waitfor.True(10*time.Second, func() bool { return s.Status().Retrying == 1 }) {
		t.Fatal("no failed attempt")
	}
	// a waits an hour for its retry; cancelling it empties the queue.
	s.Cancel("g1", a.q.MailID)
	waitIdle(t, s)
	stop()
	if got, _, _ := deliveries(t, st, "g1", b.q.MailID); len(got) != 0 {
		t.Errorf("cancelled mail has events %q", got)
	}
	if n := be.dataCount(); n != 1 {
		t.Errorf("%d attempts reached the server; want 1", n)
	}
}

func TestRunTwice(t *testing.T) {
	s := New(testConfig(freeAddr(t), &logBuffer{}), openStore(t))
	stop := run(t, s)
	waitfor.Until(t, 10*time.Second, "the first Run to be running", s.running.Load)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := s.Run(ctx); err == nil {
		t.Error("a second Run ran")
	}
	stop()
}

func TestIsPermanent(t *testing.T) {
	smtpErr := func(code int) error { return &smtp.SMTPError{Code: code, Message: "x"} }
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"render", &stageError{stageRender, errors.New("no recipients")}, true},
		{"550 at RCPT", &stageError{stageRcpt, fmt.Errorf("<a@b>: %w", smtpErr(550))}, true},
		{"552 at MAIL", &stageError{stageMail, smtpErr(552)}, true},
		{"554 at DATA", &stageError{stageData, smtpErr(554)}, true},
		{"421 at DATA", &stageError{stageData, smtpErr(421)}, false},
		{"451 at RCPT", &stageError{stageRcpt, smtpErr(451)}, false},
		{"535 at AUTH", &stageError{stageAuth, smtpErr(535)}, false},
		{"554 greeting", &stageError{stageHello, smtpErr(554)}, false},
		{"connection refused", &stageError{stageConnect, &net.OpError{Op: "dial", Err: errors.New("refused")}}, false},
		{"EOF in DATA", &stageError{stageData, io.EOF}, false},
		{"timeout", &stageError{stageData, &net.OpError{Op: "read", Err: errors.New("i/o timeout")}}, false},
		{"unclassified", errors.New("?"), false},
	}
	for _, tt := range tests {
		if got := isPermanent(tt.err); got != tt.want {
			t.Errorf("%s: permanent = %v; want %v", tt.name, got, tt.want)
		}
	}
}

func TestBackoff(t *testing.T) {
	base, max := 2*time.Second, 10*time.Minute
	tests := []struct {
		n      int
		lo, hi time.Duration
	}{
		{1, time.Second, 2 * time.Second},
		{2, 2 * time.Second, 4 * time.Second},
		{5, 16 * time.Second, 32 * time.Second},
		{9, 256 * time.Second, 512 * time.Second},
		{10, 5 * time.Minute, 10 * time.Minute},
		{1000, 5 * time.Minute, 10 * time.Minute},
	}
	r := mrand.New(mrand.NewPCG(1, 2))
	for _, tt := range tests {
		for range 100 {
			if d := backoff(base, max, tt.n, r); d < tt.lo || d > tt.hi {
				t.Fatalf("backoff after attempt %d = %v; want in [%v, %v]", tt.n, d, tt.lo, tt.hi)
			}
		}
	}
	a, b := mrand.New(mrand.NewPCG(7, 7)), mrand.New(mrand.NewPCG(7, 7))
	for n := 1; n < 10; n++ {
		if backoff(base, max, n, a) != backoff(base, max, n, b) {
			t.Fatal("the same seed gives different delays")
		}
	}
}

func TestConfigValidate(t *testing.T) {
	ok := Config{Addr: "127.0.0.1:25", From: testHeaders.From, ListDomain: "lists.example.org"}
	tests := []struct {
		name   string
		change func(*Config)
		want   string
	}{
		{"valid", func(*Config) {}, ""},
		{"no port", func(c *Config) { c.Addr = "localhost" }, "smtp addr"},
		{"bad tls mode", func(c *Config) { c.TLS = "ssl" }, "tls mode"},
		{"bad from", func(c *Config) { c.From = "pbem" }, "from"},
		{"no list domain", func(c *Config) { c.ListDomain = "" }, "list domain"},
		{"auth in clear off loopback", func(c *Config) { c.Addr, c.TLS, c.Username = "mail.example.org:25", TLSNone, "u" }, "clear text"},
		{"auth in clear on loopback", func(c *Config) { c.TLS, c.Username = TLSNone, "u" }, ""},
		{"auth with starttls", func(c *Config) { c.Addr, c.TLS, c.Username = "mail.example.org:587", TLSStartTLS, "u" }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := ok
			tt.change(&c)
			err := c.Validate()
			if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
				t.Fatalf("Validate = %v; want %q", err, tt.want)
			}
		})
	}
	if c := (Config{Addr: "mail.example.org:587"}).withDefaults(); c.TLS != TLSStartTLS {
		t.Errorf("default TLS for a remote host is %q", c.TLS)
	}
	if c := (Config{Addr: "[::1]:25", From: "a@pbem.example.org"}).withDefaults(); c.TLS != TLSNone || c.HeloName != "pbem.example.org" {
		t.Errorf("defaults for loopback: TLS %q, HELO %q", c.TLS, c.HeloName)
	}
}
