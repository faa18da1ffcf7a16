//go:build linux

// Package dovecottest runs a throwaway Dovecot (Debian's dovecot-imapd,
// which scripts/test installs) for tests that need an IMAP server pbem did
// not write: on a loopback port, with its config, sockets, state, logs and
// the user's maildir in the test's temp dir, as a child process group
// killed when the test ends. It is used only by tests.
package dovecottest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"

	"pbem/internal/daemontest"
)

// The end-to-end test against a real Dovecot (Debian's dovecot-imapd, which
// scripts/test installs): a throwaway instance on a loopback port, with its
// config, sockets, state, logs and the user's maildir in the test's temp
// dir, run as a child process group and killed at the end.

// User and Password log in to the instance (the game mailbox).
const User, Password = "pbem", "secret"

// Server is one throwaway Dovecot instance.
type Server struct {
	Addr string // host:port (plain, or STARTTLS with StartTLS)
	// Maildir is the game mailbox's maildir, and MailUID and MailGID the
	// owner Dovecot reads it as: a mail server beside it (postfixtest)
	// delivers there.
	Maildir          string
	MailUID, MailGID int
	TLSAddr          string         // host:port of implicit TLS (StartTLS only)
	Roots            *x509.CertPool // trusts the instance's certificate (StartTLS only)
	SASLSocket       string         // Dovecot's auth socket for Postfix (StartOAuth only)
	logPath          string         // Dovecot's own log
	outPath          string         // the master's stdout and stderr
	cmd              *exec.Cmd
	exited           <-chan struct{} // closed once the master has been waited for

	stopOnce sync.Once
	stopErr  error
}

func dovecotBinary(t testing.TB) string {
	t.Helper()
	if p, err := exec.LookPath("dovecot"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/sbin/dovecot"); err == nil {
		return "/usr/sbin/dovecot"
	}
	t.Fatal("dovecot not found (neither on PATH nor /usr/sbin/dovecot): run scripts/test, which installs Debian's dovecot-imapd " +
		"(or: apt-get install dovecot-imapd)")
	return ""
}

func lookupUser(t testing.TB, name string) *user.User {
	t.Helper()
	u, err := user.Lookup(name)
	if err != nil {
		t.Fatalf("system user %q: %v (Debian's dovecot-core creates dovenull and dovecot: run scripts/test)", name, err)
	}
	return u
}

// dovecotConfig returns the config of a Dovecot on 127.0.0.1:port with
// everything under dir. Run as root, it is an ordinary privilege-separated
// Dovecot: login processes as dovenull, internal ones as dovecot, and the
// mail as nobody, since Dovecot refuses mail access as root (and a
// passwd-file UID of 0). Run as another user, everything runs as that user
// and the chroots that need root are turned off.
func dovecotConfig(t testing.TB, dir string, port, imapsPort int, ssl, introspect string) string {
	t.Helper()
	loginUser, internalUser, mailUID, mailGID := "", "", "", ""
	rootless := ""
	if os.Geteuid() == 0 {
		loginUser = lookupUser(t, "dovenull").Username
		internalUser = lookupUser(t, "dovecot").Username
		nobody := lookupUser(t, "nobody")
		mailUID, mailGID = nobody.Uid, nobody.Gid
		// The auth process (as dovecot) reads the passwd-file and the mail
		// processes (as nobody) the maildir: both must get through the
		// instance's directory's parent (the package's own base dir).
		if err := os.Chmod(filepath.Dir(dir), 0o711); err != nil {
			t.Fatal(err)
		}
		for d := filepath.Dir(dir); d != filepath.Dir(d); d = filepath.Dir(d) {
			if fi, err := os.Stat(d); err != nil || fi.Mode().Perm()&0o001 == 0 {
				t.Fatalf("%s cannot be traversed by Dovecot's unprivileged processes: set TMPDIR to a directory under one they can (like /tmp)", d)
			}
		}
	} else {
		me, err := user.Current()
		if err != nil {
			t.Fatal(err)
		}
		group, err := user.LookupGroupId(me.Gid)
		if err != nil {
			t.Fatal(err)
		}
		loginUser, internalUser, mailUID, mailGID = me.Username, me.Username, me.Uid, me.Gid
		rootless = "default_internal_group = " + group.Name + "\n" +
			"service anvil {\n  chroot =\n}\nservice imap-login {\n  chroot =\n}\n"
	}
	home := filepath.Join(dir, "home", User)
	if err := os.MkdirAll(filepath.Dir(home), 0o711); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(home, 0o700); err != nil && !os.IsExist(err) {
		t.Fatal(err)
	}
	uid, _ := strconv.Atoi(mailUID)
	gid, _ := strconv.Atoi(mailGID)
	if err := os.Chown(home, uid, gid); err != nil {
		t.Fatal(err)
	}
	users := filepath.Join(dir, "users")
	line := fmt.Sprintf("%s:{PLAIN}%s:%s:%s::%s::\n", User, Password, mailUID, mailGID, home)
	if err := os.WriteFile(users, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	oauth := ""
	if introspect != "" {
		ext := filepath.Join(dir, "dovecot-oauth2.conf.ext")
		conf := fmt.Sprintf(`introspection_mode = post
introspection_url = %s
force_introspection = yes
username_attribute = username
active_attribute = active
active_value = true
`, introspect)
		if err := os.WriteFile(ext, []byte(conf), 0o644); err != nil {
			t.Fatal(err)
		}
		// The oauth2 passdb checks every bearer token with the test's
		// introspection endpoint; passwords still log in (the tests'
		// own sessions). auth-sasl is the socket a Postfix beside it
		// authenticates SMTP clients on (smtpd_sasl_type = dovecot).
		oauth = fmt.Sprintf(`auth_mechanisms = plain login xoauth2 oauthbearer
passdb {
  driver = oauth2
  mechanisms = xoauth2 oauthbearer
  args = %s
}
service auth {
  unix_listener auth-sasl {
    mode = 0666
  }
}
`, ext)
	}
	return fmt.Sprintf(`# Throwaway Dovecot for pbem's intake test.
protocols = imap
listen = 127.0.0.1
base_dir = %[1]s/run
state_dir = %[1]s/state
log_path = %[1]s/dovecot.log
%[9]s
disable_plaintext_auth = no
default_login_user = %[2]s
default_internal_user = %[3]s
first_valid_uid = %[4]s
last_valid_uid = %[4]s
first_valid_gid = %[5]s
last_valid_gid = %[5]s
mail_location = maildir:~/Maildir
%[11]s
passdb {
  driver = passwd-file
  args = scheme=PLAIN %[6]s
}
userdb {
  driver = passwd-file
  args = %[6]s
}
service imap-login {
  inet_listener imap {
    port = %[7]d
  }
  inet_listener imaps {
    port = %[10]d
  }
}
%[8]s`, dir, loginUser, internalUser, mailUID, mailGID, users, port, rootless, ssl, imapsPort, oauth)
}

// freePort returns a loopback port that was free a moment ago.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Start starts a throwaway Dovecot without TLS and returns once it answers
// with its IMAP greeting. It is stopped, with every process it started,
// when the test ends.
func Start(t testing.TB) *Server { t.Helper(); return start(t, false, "") }

// StartOAuth is Start with Dovecot's oauth2 passdb: besides the password,
// the user logs in by AUTHENTICATE XOAUTH2 or OAUTHBEARER with a bearer
// token that Dovecot checks, at every login, by POSTing it to
// introspectURL (RFC 7662; the answer's "username" must be User and its
// "active" true). SASLSocket is Dovecot's authentication socket for a
// Postfix beside it.
func StartOAuth(t testing.TB, introspectURL string) *Server {
	t.Helper()
	return start(t, false, introspectURL)
}

// StartTLS is Start with TLS: STARTTLS on Addr, implicit TLS on TLSAddr,
// with a self-signed certificate for 127.0.0.1 that Roots trusts.
func StartTLS(t testing.TB) *Server { t.Helper(); return start(t, true, "") }

func start(t testing.TB, withTLS bool, introspect string) *Server {
	t.Helper()
	bin := dovecotBinary(t)
	// A short directory of its own (t.TempDir() nests under the test's
	// name, too deep for Dovecot's socket paths); only it is made
	// traversable below, never a directory the package did not create.
	base, err := os.MkdirTemp("", "dc-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) }) // runs after the instance is stopped
	dir := filepath.Join(base, "d")
	if err := os.Mkdir(dir, 0o711); err != nil { // traversed by Dovecot's own users
		t.Fatal(err)
	}
	// Unix sockets live in base_dir; their paths must stay under 108 bytes.
	if n := len(filepath.Join(dir, "run", "token-login", "imap-urlauth")); n > 100 {
		t.Fatalf("temp dir %s is too deep for Dovecot's sockets (%d bytes): use a shorter TMPDIR", dir, n)
	}
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		d := &Server{logPath: filepath.Join(dir, "dovecot.log"), outPath: filepath.Join(dir, "dovecot.out")}
		if introspect != "" {
			d.SASLSocket = filepath.Join(dir, "run", "auth-sasl")
		}
		port := freePort(t)
		d.Addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
		ssl, imapsPort := "ssl = no", 0
		if withTLS {
			imapsPort = freePort(t)
			d.TLSAddr = net.JoinHostPort("127.0.0.1", strconv.Itoa(imapsPort))
			var certFile, keyFile string
			certFile, keyFile, d.Roots = selfSigned(t, dir)
			ssl = fmt.Sprintf("ssl = yes\nssl_cert = <%s\nssl_key = <%s", certFile, keyFile)
		}
		conf := filepath.Join(dir, "dovecot.conf")
		if err := os.WriteFile(conf, []byte(dovecotConfig(t, dir, port, imapsPort, ssl, introspect)), 0o644); err != nil {
			t.Fatal(err)
		}
		os.RemoveAll(filepath.Join(dir, "run")) // a failed attempt's master.pid
		d.cmd = exec.Command(bin, "-F", "-c", conf)
		d.cmd.Dir = dir
		exited, err := daemontest.Spawn(d.cmd, d.outPath)
		if err != nil {
			t.Fatal(err)
		}
		d.exited = exited
		t.Cleanup(func() {
			if err := d.Stop(); err != nil {
				t.Error(err)
			}
		})
		if lastErr = d.waitGreeting(10 * time.Second); lastErr == nil {
			home := filepath.Join(dir, "home", User)
			if fi, err := os.Stat(home); err == nil {
				st := fi.Sys().(*syscall.Stat_t)
				d.Maildir, d.MailUID, d.MailGID = filepath.Join(home, "Maildir"), int(st.Uid), int(st.Gid)
			}
			t.Cleanup(func() {
				if t.Failed() {
					t.Logf("dovecot log:\n%s", d.Logs())
				}
			})
			return d
		}
		if err := d.Stop(); err != nil {
			t.Error(err)
		}
		if !strings.Contains(d.Logs(), "in use") { // only a lost race for the port is worth another try
			break
		}
	}
	t.Fatalf("dovecot did not start: %v", lastErr)
	return nil
}

func (d *Server) Logs() string {
	var b strings.Builder
	for _, p := range []string{d.outPath, d.logPath} {
		if data, err := os.ReadFile(p); err == nil {
			b.Write(data)
		}
	}
	return b.String()
}

// waitGreeting waits until the port answers with an IMAP greeting.
func (d *Server) waitGreeting(timeout time.Duration) error {
	return daemontest.WaitGreeting(d.Addr, "* OK", d.exited, d.Logs, timeout)
}

// stop kills the instance, every process of its group, and waits until
// none is left running. It may be called again.
func (d *Server) Stop() error {
	d.stopOnce.Do(func() { d.stopErr = d.kill() })
	return d.stopErr
}

func (d *Server) kill() error {
	return daemontest.Kill(d.cmd.Process.Pid, d.exited) // Setpgid: the master leads its group
}

// dial logs in to the instance as the game mailbox's user and selects the
// INBOX.
func (d *Server) Dial(t testing.TB, opts *imapclient.Options) *imapclient.Client {
	t.Helper()
	c, err := imapclient.DialInsecure(d.Addr, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Login(User, Password).Wait(); err != nil {
		t.Fatalf("login: %v", err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatalf("select: %v", err)
	}
	return c
}

// selfSigned writes a self-signed ECDSA certificate for 127.0.0.1 and its
// key into dir, and returns their paths and a pool that trusts it.
func selfSigned(t testing.TB, dir string) (certFile, keyFile string, roots *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "pbem test dovecot"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA:         true, BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	roots = x509.NewCertPool()
	roots.AddCert(cert)
	return certFile, keyFile, roots
}
