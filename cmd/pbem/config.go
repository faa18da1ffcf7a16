package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// Config is pbem's configuration: a TOML file (see pbem.example.toml),
// then environment variables PBEM_<SECTION>_<KEY> over it, then flags.
type Config struct {
	DataDir string    `toml:"data_dir"`
	Log     LogConfig `toml:"log"`
	NATS    NATSConf  `toml:"nats"`
	Engine  EngineCfg `toml:"engine"`
	Mail    MailCfg   `toml:"mail"`
}

// MailCfg says where mail comes from and goes to. With no IMAP address,
// pbem runs its own mail host on loopback (see Builtin).
type MailCfg struct {
	Domain    string `toml:"domain"`    // the game mailbox's domain
	Local     string `toml:"local"`     // its local part; players reply to local+…@domain
	FromName  string `toml:"from_name"` // display name on pbem's mails
	Templates string `toml:"templates"` // a directory of templates overriding the built-in ones
	// RatePerHour is how many mails one sender may send in an hour; more
	// are quarantined (default 30).
	RatePerHour int `toml:"rate_per_hour"`
	IMAP        struct {
		Addr     string `toml:"addr"`
		TLS      string `toml:"tls"` // none, starttls, tls
		Username string `toml:"username"`
		Password string `toml:"password"`
		Auth     string `toml:"auth"` // login or plain (AUTHENTICATE PLAIN)
		Mailbox  string `toml:"mailbox"`
		Poll     string `toml:"poll"` // e.g. "30s"
	} `toml:"imap"`
	SMTP struct {
		Addr     string `toml:"addr"`
		TLS      string `toml:"tls"`
		Username string `toml:"username"`
		Password string `toml:"password"`
	} `toml:"smtp"`
	Builtin struct {
		IMAP     string `toml:"imap"`     // listen address of the built-in IMAP server
		SMTP     string `toml:"smtp"`     // and SMTP server
		Password string `toml:"password"` // of every mailbox on the built-in host
	} `toml:"builtin"`
}

// LogConfig selects the log format and level.
type LogConfig struct {
	Format string `toml:"format"` // text or json
	Level  string `toml:"level"`  // debug, info, warn, error
}

// NATSConf selects embedded or external NATS.
type NATSConf struct {
	URLs   []string `toml:"urls"`   // external server or cluster; empty: embedded
	Listen string   `toml:"listen"` // embedded server's client address; empty: in-process only
}

// EngineCfg tunes the engine.
type EngineCfg struct {
	SnapshotEvery uint64 `toml:"snapshot_every"`
	// Clock is how often the server's clock is checked against the games'
	// deadlines (a Go duration; default 30s).
	Clock string `toml:"clock"`
}

// clockEvery is the deadline check interval.
func (e EngineCfg) clockEvery() (time.Duration, error) {
	if e.Clock == "" {
		return 30 * time.Second, nil
	}
	d, err := time.ParseDuration(e.Clock)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("engine.clock %q: want a positive duration such as 30s", e.Clock)
	}
	return d, nil
}

func defaultConfig() Config {
	c := Config{DataDir: "pbem-data", Log: LogConfig{Format: "text", Level: "info"}, Engine: EngineCfg{SnapshotEvery: 256}}
	c.Mail.Domain, c.Mail.Local, c.Mail.FromName, c.Mail.RatePerHour = "pbem.localhost", "pbem", "pbem", 30
	c.Mail.Builtin.IMAP, c.Mail.Builtin.SMTP, c.Mail.Builtin.Password = "127.0.0.1:1143", "127.0.0.1:1025", "pbem"
	return c
}

// loadConfig reads path (if not empty) over the defaults, then applies the
// environment.
func loadConfig(path string, env func(string) string) (Config, error) {
	c := defaultConfig()
	if path != "" {
		md, err := toml.DecodeFile(path, &c)
		if err != nil {
			return c, fmt.Errorf("config %s: %w", path, err)
		}
		if und := md.Undecoded(); len(und) > 0 {
			return c, fmt.Errorf("config %s: unknown keys %v", path, und)
		}
	}
	set := func(name string, dst *string) {
		if v := env(name); v != "" {
			*dst = v
		}
	}
	set("PBEM_DATA_DIR", &c.DataDir)
	set("PBEM_LOG_FORMAT", &c.Log.Format)
	set("PBEM_LOG_LEVEL", &c.Log.Level)
	set("PBEM_NATS_LISTEN", &c.NATS.Listen)
	set("PBEM_MAIL_DOMAIN", &c.Mail.Domain)
	set("PBEM_MAIL_LOCAL", &c.Mail.Local)
	set("PBEM_MAIL_TEMPLATES", &c.Mail.Templates)
	set("PBEM_MAIL_IMAP_ADDR", &c.Mail.IMAP.Addr)
	set("PBEM_MAIL_IMAP_TLS", &c.Mail.IMAP.TLS)
	set("PBEM_MAIL_IMAP_USERNAME", &c.Mail.IMAP.Username)
	set("PBEM_MAIL_IMAP_PASSWORD", &c.Mail.IMAP.Password)
	set("PBEM_MAIL_IMAP_AUTH", &c.Mail.IMAP.Auth)
	set("PBEM_MAIL_SMTP_ADDR", &c.Mail.SMTP.Addr)
	set("PBEM_MAIL_SMTP_TLS", &c.Mail.SMTP.TLS)
	set("PBEM_MAIL_SMTP_USERNAME", &c.Mail.SMTP.Username)
	set("PBEM_MAIL_SMTP_PASSWORD", &c.Mail.SMTP.Password)
	set("PBEM_MAIL_BUILTIN_IMAP", &c.Mail.Builtin.IMAP)
	set("PBEM_MAIL_BUILTIN_SMTP", &c.Mail.Builtin.SMTP)
	set("PBEM_MAIL_BUILTIN_PASSWORD", &c.Mail.Builtin.Password)
	if v := env("PBEM_NATS_URLS"); v != "" {
		c.NATS.URLs = nil
		for _, u := range strings.Split(v, ",") {
			if u = strings.TrimSpace(u); u != "" {
				c.NATS.URLs = append(c.NATS.URLs, u)
			}
		}
	}
	if v := env("PBEM_MAIL_RATE_PER_HOUR"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return c, fmt.Errorf("PBEM_MAIL_RATE_PER_HOUR=%q: want a positive number", v)
		}
		c.Mail.RatePerHour = n
	}
	if v := env("PBEM_ENGINE_SNAPSHOT_EVERY"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil || n == 0 {
			return c, fmt.Errorf("PBEM_ENGINE_SNAPSHOT_EVERY=%q: want a positive number", v)
		}
		c.Engine.SnapshotEvery = n
	}
	if v := env("PBEM_ENGINE_CLOCK"); v != "" {
		c.Engine.Clock = v
	}
	if _, err := c.Engine.clockEvery(); err != nil {
		return c, err
	}
	return c, nil
}

func getenv(k string) string { return os.Getenv(k) }
