package main

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"pbem/engine/play"
	"pbem/server"
)

// Config is pbem's configuration: a TOML file (see pbem.example.toml),
// then environment variables PBEM_<SECTION>_<KEY> over it, then flags.
//
// Every leaf field is a key. Its toml tag names it; its check tag says
// what a valid value is (see checkValue): configKeys walks the struct, so
// the keys, their environment variables and their checks are one table
// that cannot drift from the struct (a test requires a check on every
// key).
type Config struct {
	DataDir string               `toml:"data_dir" check:"nonempty"`
	Log     LogConfig            `toml:"log"`
	NATS    server.NATSConfig    `toml:"nats"`
	Engine  server.EngineConfig  `toml:"engine"`
	Mail    server.MailConfig    `toml:"mail"`
	Metrics server.MetricsConfig `toml:"metrics"`
	Cluster server.ClusterConfig `toml:"cluster"`
	Web     server.WebConfig     `toml:"web"`
}

// server is the configuration of 'pbem serve' (its caller adds the
// logger, the registry, the control function).
func (c Config) server() server.Config {
	return server.Config{DataDir: c.DataDir, NATS: c.NATS, Engine: c.Engine, Mail: c.Mail, Metrics: c.Metrics, Cluster: c.Cluster, Web: c.Web}
}

// LogConfig selects the log format and level.
type LogConfig struct {
	Format string `toml:"format" check:"oneof=text|json"`
	Level  string `toml:"level" check:"oneof=debug|info|warn|error"`
}

func defaultConfig() Config {
	c := Config{DataDir: "pbem-data", Log: LogConfig{Format: "text", Level: "info"}, Engine: server.EngineConfig{SnapshotEvery: 256, Clock: "30s"}}
	c.Mail.Domain, c.Mail.Local, c.Mail.FromName, c.Mail.RatePerHour = "pbem.localhost", "pbem", "pbem", 30
	c.Mail.IMAP.TLS, c.Mail.IMAP.Auth, c.Mail.IMAP.Mailbox, c.Mail.IMAP.Poll = "none", "login", "INBOX", "30s"
	c.Mail.Builtin.IMAP, c.Mail.Builtin.SMTP = "127.0.0.1:1143", "127.0.0.1:1025"
	c.Mail.SMTP.Auth = "plain"
	c.Metrics.StuckAfter = "5m"
	c.Cluster.Lease, c.Cluster.Replicas = "10s", 3
	c.Mail.DKIM, c.Mail.SenderAuth, c.Mail.ConfirmWithin, c.Mail.QuarantineMB = true, "confirm", "48h", 64
	c.Mail.UserSigners = server.DefaultUserSigners()
	return c
}

// configKey is one key of the configuration.
type configKey struct {
	Name  string // "mail.imap.poll"
	Env   string // "PBEM_MAIL_IMAP_POLL"
	Check string
	v     reflect.Value // the field, settable
}

// configKeys lists every key of c, in the struct's order.
func configKeys(c *Config) []configKey {
	var out []configKey
	var walk func(v reflect.Value, prefix string)
	walk = func(v reflect.Value, prefix string) {
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			name := prefix + f.Tag.Get("toml")
			if f.Type.Kind() == reflect.Struct {
				walk(v.Field(i), name+".")
				continue
			}
			out = append(out, configKey{Name: name, Env: "PBEM_" + strings.ToUpper(strings.ReplaceAll(name, ".", "_")),
				Check: f.Tag.Get("check"), v: v.Field(i)})
		}
	}
	walk(reflect.ValueOf(c).Elem(), "")
	return out
}

// loadConfig reads path (if not empty) over the defaults, then applies the
// environment, then checks every key. Its error names each bad key, where
// its value came from and what it should be.
func loadConfig(path string, env func(string) string) (Config, error) {
	c := defaultConfig()
	var errs []error
	from := map[string]string{}
	if path != "" {
		md, err := toml.DecodeFile(path, &c)
		if err != nil {
			return c, fmt.Errorf("config %s: %w", path, err)
		}
		if und := md.Undecoded(); len(und) > 0 {
			for _, k := range und {
				errs = append(errs, fmt.Errorf("config %s: %q is no key%s", path, k.String(), keyHint(k.String(), configKeys(&c))))
			}
		}
		for _, k := range md.Keys() {
			from[k.String()] = path
		}
	}
	keys := configKeys(&c)
	for _, k := range keys {
		s := env(k.Env)
		if s == "" {
			continue
		}
		if err := setFromEnv(k, s); err != nil {
			errs = append(errs, fmt.Errorf("%s=%q: %w", k.Env, s, err))
			continue
		}
		from[k.Name] = k.Env
	}
	for _, k := range keys {
		if err := checkValue(k.Check, k.v); err != nil {
			where := from[k.Name]
			if where == "" {
				where = "default"
			}
			errs = append(errs, fmt.Errorf("%s = %s (%s): %w", k.Name, shown(k), where, err))
		}
	}
	errs = append(errs, c.crossCheck()...)
	return c, errors.Join(errs...)
}

// keyHint suggests the key meant by a name that is none.
func keyHint(name string, keys []configKey) string {
	last := name[strings.LastIndexByte(name, '.')+1:]
	var near []string
	for _, k := range keys {
		if strings.HasSuffix(k.Name, "."+last) || k.Name == last {
			near = append(near, k.Name)
		}
	}
	if strings.HasSuffix(name, "builtin.password") {
		return " (the built-in mail host gives each mailbox its own password now: 'pbem mailboxes' lists them)"
	}
	if len(near) > 0 {
		return " (did you mean " + strings.Join(near, " or ") + "?)"
	}
	return " (see pbem.example.toml for every key)"
}

// shown is a key's value as an error quotes it: secrets are not repeated.
func shown(k configKey) string {
	if k.Check == "secret" {
		return "(hidden)"
	}
	switch k.v.Kind() {
	case reflect.String:
		return strconv.Quote(k.v.String())
	case reflect.Slice:
		return fmt.Sprintf("%q", k.v.Interface())
	}
	return fmt.Sprint(k.v.Interface())
}

// setFromEnv sets k from an environment variable's text.
func setFromEnv(k configKey, s string) error {
	switch k.v.Kind() {
	case reflect.String:
		k.v.SetString(s)
	case reflect.Int:
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return errors.New("want a whole number")
		}
		k.v.SetInt(int64(n))
	case reflect.Bool:
		b, err := strconv.ParseBool(strings.TrimSpace(s))
		if err != nil {
			return errors.New("want true or false")
		}
		k.v.SetBool(b)
	case reflect.Uint64:
		n, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return errors.New("want a whole number of at least 0")
		}
		k.v.SetUint(n)
	case reflect.Slice:
		var list []string
		for _, u := range strings.Split(s, ",") {
			if u = strings.TrimSpace(u); u != "" {
				list = append(list, u)
			}
		}
		k.v.Set(reflect.ValueOf(list))
	default:
		return fmt.Errorf("internal: key %s of kind %s", k.Name, k.v.Kind())
	}
	return nil
}

var (
	domainRE    = regexp.MustCompile(`^(?i)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$`)
	nodeNameRE  = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	localpartRE = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`)
)

// checkValue checks v against a check tag:
//
//	nonempty          any text but the empty one
//	text              any text without control characters (CR, LF …)
//	secret            the same, never repeated in an error
//	oneof=a|b|c       one of the words ("oneof=|a|b": empty too)
//	int>=N            a whole number of at least N
//	duration>=D       a Go duration (30s, 5m) of at least D
//	span              a span of time as players write it (48h, 2d), above 0
//	bool              true or false (TOML's own)
//	hostport          host:port with a port number; with ?, empty too
//	domain            a domain name
//	localpart         a mailbox's local part: letters, digits, . _ -
//	nodename          a cluster node name: letters, digits, - _
//	dir?, file?       empty, or an existing directory / file
//	natsurls          nats://, tls://, ws:// or wss:// URLs with a host
//	baseurl?          empty, or an http:// or https:// URL with a host and no query
func checkValue(check string, v reflect.Value) error {
	optional := strings.HasSuffix(check, "?")
	check = strings.TrimSuffix(check, "?")
	if v.Kind() == reflect.String {
		s := v.String()
		if strings.ContainsFunc(s, func(r rune) bool { return r < ' ' || r == 0x7f }) {
			return errors.New("control characters (a line break?) are not allowed")
		}
		if optional && s == "" {
			return nil
		}
	}
	name, arg, _ := strings.Cut(check, "=")
	if i := strings.Index(check, ">="); i >= 0 {
		name, arg = check[:i], check[i+2:]
	}
	switch name {
	case "text", "secret", "bool":
		return nil
	case "span":
		if d, err := play.ParseSpan(v.String()); err != nil || d <= 0 {
			return errors.New("want a span of time such as 48h or 2d")
		}
	case "nonempty":
		if strings.TrimSpace(v.String()) == "" {
			return errors.New("must not be empty")
		}
	case "oneof":
		words := strings.Split(arg, "|")
		for _, w := range words {
			if v.String() == w {
				return nil
			}
		}
		var shown []string
		for _, w := range words {
			if w == "" {
				w = `"" (the default)`
			}
			shown = append(shown, w)
		}
		return fmt.Errorf("want %s", strings.Join(shown, ", "))
	case "int":
		min, _ := strconv.ParseInt(arg, 10, 64)
		var n int64
		if v.Kind() == reflect.Uint64 {
			if v.Uint() > 1<<62 {
				return errors.New("too large")
			}
			n = int64(v.Uint())
		} else {
			n = v.Int()
		}
		if n < min {
			return fmt.Errorf("want a whole number of at least %d", min)
		}
	case "duration":
		min, _ := time.ParseDuration(arg)
		d, err := time.ParseDuration(v.String())
		if err != nil {
			return fmt.Errorf("want a duration such as 30s or 5m")
		}
		if d < min {
			return fmt.Errorf("want at least %s", min)
		}
	case "baseurl":
		u, err := url.Parse(v.String())
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
			return errors.New("want an http:// or https:// address such as https://pbem.example.org")
		}
	case "hostport":
		host, port, err := net.SplitHostPort(v.String())
		if err != nil {
			return fmt.Errorf("want host:port, such as 127.0.0.1:1143")
		}
		if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
			return fmt.Errorf("port %q is not a port number", port)
		}
		if host != "" && net.ParseIP(host) == nil && !domainRE.MatchString(host) {
			return fmt.Errorf("host %q is neither an IP address nor a host name", host)
		}
	case "domain":
		if !domainRE.MatchString(v.String()) {
			return errors.New("want a domain name, such as pbem.example.org")
		}
	case "nodename":
		if !nodeNameRE.MatchString(v.String()) {
			return errors.New("want a node name: letters, digits, '-' or '_'")
		}
	case "localpart":
		if !localpartRE.MatchString(v.String()) {
			return errors.New("want a mailbox name: lower-case letters, digits, '.', '_' or '-' (no '+': pbem adds it)")
		}
	case "dir", "file":
		fi, err := os.Stat(v.String())
		switch {
		case err != nil:
			return err
		case name == "dir" && !fi.IsDir():
			return errors.New("not a directory")
		case name == "file" && fi.IsDir():
			return errors.New("a directory, not a file")
		}
	case "domains":
		for i := range v.Len() {
			if d := v.Index(i).String(); !domainRE.MatchString(d) {
				return fmt.Errorf("%q: want a domain name, such as gmail.com", d)
			}
		}
	case "natsurls":
		for i := range v.Len() {
			s := v.Index(i).String()
			u, err := url.Parse(s)
			if err != nil || u.Host == "" || !map[string]bool{"nats": true, "tls": true, "ws": true, "wss": true}[u.Scheme] {
				return fmt.Errorf("%q: want a URL such as nats://host:4222 (nats, tls, ws or wss)", s)
			}
		}
	default:
		return fmt.Errorf("internal: unknown check %q", check)
	}
	return nil
}

// crossCheck checks what no single key can.
func (c *Config) crossCheck() []error {
	var errs []error
	if (c.Mail.IMAP.Addr == "") != (c.Mail.SMTP.Addr == "") {
		errs = append(errs, errors.New("mail.imap.addr and mail.smtp.addr: set both (a mail host of your own) or neither (pbem's built-in host)"))
	}
	imap, smtp := c.Mail.IMAP, c.Mail.SMTP
	if imap.TLS == "none" && (imap.Username != "" || imap.Password != "") && !onLoopback(imap.Addr) {
		errs = append(errs, fmt.Errorf("mail.imap.tls = \"none\" would send the IMAP password in clear text to %s, which is not on loopback: set mail.imap.tls to tls or starttls (or reach the host through a loopback tunnel)", imap.Addr))
	}
	if smtp.TLS == "none" && smtp.Username != "" && !onLoopback(smtp.Addr) {
		errs = append(errs, fmt.Errorf("mail.smtp.tls = \"none\" would send the SMTP password in clear text to %s, which is not on loopback: set mail.smtp.tls to tls or starttls, or leave it empty (starttls off loopback)", smtp.Addr))
	}
	errs = append(errs, c.Mail.CheckOAuth()...)
	if c.NATS.Listen != "" && len(c.NATS.URLs) > 0 {
		errs = append(errs, errors.New("nats.listen is the embedded server's listener, and nats.urls an external server: set one, not both"))
	}
	if c.NATS.Listen != "" && (c.NATS.User == "" || c.NATS.Password == "") {
		errs = append(errs, errors.New("nats.listen opens the embedded NATS to other processes: set nats.user and nats.password, which it will require"))
	}
	if (c.NATS.User == "") != (c.NATS.Password == "") {
		errs = append(errs, errors.New("nats.user and nats.password: set both or neither"))
	}
	if (c.NATS.TLSCert == "") != (c.NATS.TLSKey == "") {
		errs = append(errs, errors.New("nats.tls_cert and nats.tls_key: set both or neither"))
	}
	n := 0
	for _, set := range []bool{c.NATS.User != "", c.NATS.Creds != "", c.NATS.NKey != ""} {
		if set {
			n++
		}
	}
	if n > 1 {
		errs = append(errs, errors.New("nats: use one of user/password, creds and nkey"))
	}
	if len(c.NATS.URLs) == 0 && (c.NATS.Creds != "" || c.NATS.NKey != "" || c.NATS.TLSCA != "" || c.NATS.TLSCert != "") {
		errs = append(errs, errors.New("nats.creds, nats.nkey and nats.tls_* are for an external server: set nats.urls too"))
	}
	if c.Cluster.Node != "" {
		if len(c.NATS.URLs) == 0 {
			errs = append(errs, errors.New("cluster.node joins a NATS cluster with JetStream: set nats.urls to its servers"))
		}
		if c.Mail.IMAP.Addr == "" {
			errs = append(errs, errors.New("cluster.node: every node reads and sends the same mail, so the built-in mail host (one node's disk) will not do: set mail.imap.addr and mail.smtp.addr"))
		}
	}
	return errs
}

// onLoopback says whether addr (host:port) is on this machine's loopback:
// localhost or a loopback address. An empty addr is the built-in host's.
func onLoopback(addr string) bool {
	if addr == "" {
		return true
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return host == "localhost" || ip != nil && ip.IsLoopback()
}

func getenv(k string) string { return os.Getenv(k) }
