package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// Every key is checked (a check tag on every field of Config), and the
// checks are ones checkValue knows: a key added without a check fails
// here, not in an operator's hands.
func TestEveryConfigKeyHasACheck(t *testing.T) {
	t.Parallel()
	c := defaultConfig()
	keys := configKeys(&c)
	if len(keys) < 30 {
		t.Fatalf("only %d keys found", len(keys))
	}
	for _, k := range keys {
		if k.Check == "" {
			t.Errorf("key %s has no check", k.Name)
			continue
		}
		if err := checkValue(k.Check, reflect.ValueOf(sample(t, k))); err != nil {
			t.Errorf("key %s: its sample value fails its own check %q: %v", k.Name, k.Check, err)
		}
	}
}

// sample is a valid value of k's check other than the default.
func sample(t *testing.T, k configKey) any {
	check := strings.TrimSuffix(k.Check, "?")
	switch {
	case strings.HasPrefix(check, "oneof="):
		words := strings.Split(strings.TrimPrefix(check, "oneof="), "|")
		return words[len(words)-1]
	case strings.HasPrefix(check, "int>="):
		if k.v.Kind() == reflect.Uint64 {
			return uint64(77)
		}
		return 77
	case strings.HasPrefix(check, "duration>="):
		return "7m"
	}
	switch check {
	case "hostport":
		return "127.0.0.1:7"
	case "baseurl":
		return "https://seven.example"
	case "domain":
		return "seven.example"
	case "localpart":
		return "seven"
	case "dir":
		return t.TempDir()
	case "file":
		f := filepath.Join(t.TempDir(), "f")
		os.WriteFile(f, []byte("x"), 0o600)
		return f
	case "natsurls":
		return []string{"nats://a.example:7", "tls://b.example:7"}
	case "domains":
		return []string{"a.example", "b.example"}
	case "span":
		return "7d"
	case "bool":
		return !k.v.Bool()
	}
	return "seven"
}

// Every key can be set from the environment, under the name the README
// promises: PBEM_<SECTION>_<KEY>. The table is the struct, so no key can
// be left out (PBEM_MAIL_IMAP_POLL, _MAILBOX and PBEM_MAIL_FROM_NAME were).
func TestEveryConfigKeyIsSetFromTheEnvironment(t *testing.T) {
	t.Parallel()
	c := defaultConfig()
	for _, k := range configKeys(&c) {
		t.Run(k.Env, func(t *testing.T) {
			v := sample(t, k)
			var text string
			switch v := v.(type) {
			case []string:
				text = strings.Join(v, ",")
			default:
				text = fmt.Sprint(v)
			}
			got, _ := loadConfig("", func(name string) string {
				if name == k.Env {
					return text
				}
				return ""
			})
			for _, gk := range configKeys(&got) {
				if gk.Name == k.Name && !reflect.DeepEqual(gk.v.Interface(), v) {
					t.Fatalf("%s=%q gave %s = %v", k.Env, text, k.Name, gk.v.Interface())
				}
			}
		})
	}
	for _, name := range []string{"PBEM_MAIL_IMAP_POLL", "PBEM_MAIL_IMAP_MAILBOX", "PBEM_MAIL_FROM_NAME", "PBEM_DATA_DIR", "PBEM_NATS_URLS", "PBEM_METRICS_LISTEN"} {
		if !slices.ContainsFunc(configKeys(&c), func(k configKey) bool { return k.Env == name }) {
			t.Errorf("no key is set by %s", name)
		}
	}
}

// Bad values are refused with the key, where the value came from and what
// is wanted; unknown keys name a real one.
func TestBadConfigValuesAreRefusedClearly(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		file     string
		env      map[string]string
		want     []string
		unwanted string
	}{
		{name: "a TLS mode that is none", file: "[mail.imap]\ntls = \"sometimes\"\n",
			want: []string{`mail.imap.tls = "sometimes"`, "want none, starttls, tls"}},
		{name: "a negative rate", file: "[mail]\nrate_per_hour = -5\n",
			want: []string{"mail.rate_per_hour = -5", "at least 1"}},
		{name: "a clock that would burn a core", env: map[string]string{"PBEM_ENGINE_CLOCK": "1ns"},
			want: []string{`engine.clock = "1ns" (PBEM_ENGINE_CLOCK)`, "at least 100ms"}},
		{name: "a poll that is no duration", env: map[string]string{"PBEM_MAIL_IMAP_POLL": "often"},
			want: []string{"mail.imap.poll", "a duration"}},
		{name: "a word for a number", env: map[string]string{"PBEM_ENGINE_SNAPSHOT_EVERY": "zero"},
			want: []string{"PBEM_ENGINE_SNAPSHOT_EVERY", "whole number"}},
		{name: "a line break in a name", env: map[string]string{"PBEM_MAIL_FROM_NAME": "pbem\r\nBcc: x@y"},
			want: []string{"mail.from_name", "control characters"}},
		{name: "a secret is not repeated", file: "[mail.smtp]\npassword = \"hunter2\\n\"\n",
			want: []string{"mail.smtp.password = (hidden)"}, unwanted: "hunter2"},
		{name: "an address without a port", env: map[string]string{"PBEM_MAIL_BUILTIN_IMAP": "localhost"},
			want: []string{"mail.builtin.imap", "host:port"}},
		{name: "a domain that is none", env: map[string]string{"PBEM_MAIL_DOMAIN": "not a domain"},
			want: []string{"mail.domain", "domain name"}},
		{name: "a NATS URL of another scheme", env: map[string]string{"PBEM_NATS_URLS": "http://x:1"},
			want: []string{"nats.urls", "nats://host:4222"}},
		{name: "a NATS listener without a login", env: map[string]string{"PBEM_NATS_LISTEN": "127.0.0.1:4222"},
			want: []string{"nats.user and nats.password"}},
		{name: "IMAP without SMTP", env: map[string]string{"PBEM_MAIL_IMAP_ADDR": "imap.example:993"},
			want: []string{"mail.imap.addr and mail.smtp.addr"}},
		{name: "a plaintext IMAP login to another host", env: map[string]string{"PBEM_MAIL_IMAP_ADDR": "imap.example:143", "PBEM_MAIL_SMTP_ADDR": "smtp.example:587",
			"PBEM_MAIL_IMAP_USERNAME": "pbem", "PBEM_MAIL_IMAP_PASSWORD": "pw"},
			want: []string{`mail.imap.tls = "none"`, "clear text to imap.example:143", "not on loopback"}, unwanted: "pw"},
		{name: "a plaintext SMTP login to another host", env: map[string]string{"PBEM_MAIL_IMAP_ADDR": "imap.example:993", "PBEM_MAIL_IMAP_TLS": "tls",
			"PBEM_MAIL_SMTP_ADDR": "10.0.0.7:25", "PBEM_MAIL_SMTP_TLS": "none", "PBEM_MAIL_SMTP_USERNAME": "pbem"},
			want: []string{`mail.smtp.tls = "none"`, "clear text to 10.0.0.7:25"}},
		{name: "an unknown key names a real one", file: "[mail]\nallowremote = true\npoll = \"1s\"\n",
			want: []string{`"mail.allowremote" is no key`, `"mail.poll" is no key (did you mean mail.imap.poll?)`}},
		{name: "the old shared password", file: "[mail.builtin]\npassword = \"pbem\"\n",
			want: []string{"each mailbox its own password"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := ""
			if tt.file != "" {
				path = filepath.Join(t.TempDir(), "pbem.toml")
				os.WriteFile(path, []byte(tt.file), 0o600)
			}
			_, err := loadConfig(path, func(k string) string { return tt.env[k] })
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not say %q:\n%v", w, err)
				}
			}
			if tt.unwanted != "" && strings.Contains(err.Error(), tt.unwanted) {
				t.Errorf("error repeats %q:\n%v", tt.unwanted, err)
			}
		})
	}
}

// The example file shipped beside the command lists every key, and no
// key that is none: it is the documentation of the configuration.
func TestExampleConfigListsEveryKey(t *testing.T) {
	t.Parallel()
	var m map[string]any
	md, err := toml.DecodeFile("pbem.example.toml", &m)
	if err != nil {
		t.Fatal(err)
	}
	var inFile []string
	for _, k := range md.Keys() {
		if md.Type(k...) != "Hash" {
			inFile = append(inFile, k.String())
		}
	}
	c := defaultConfig()
	var keys []string
	for _, k := range configKeys(&c) {
		keys = append(keys, k.Name)
	}
	slices.Sort(inFile)
	slices.Sort(keys)
	if !slices.Equal(inFile, keys) {
		t.Fatalf("pbem.example.toml has\n%v\nthe configuration has\n%v", inFile, keys)
	}
	if _, err := loadConfig("pbem.example.toml", func(string) string { return "" }); err != nil {
		t.Fatalf("pbem.example.toml: %v", err)
	}
}

// A password may go in clear text only to this machine: a mail host on
// loopback with tls = "none", or one elsewhere over TLS, is accepted.
func TestPlaintextLoginOnlyOnLoopback(t *testing.T) {
	for _, env := range []map[string]string{
		{"PBEM_MAIL_IMAP_ADDR": "127.0.0.1:143", "PBEM_MAIL_SMTP_ADDR": "localhost:25", "PBEM_MAIL_SMTP_TLS": "none"},
		{"PBEM_MAIL_IMAP_ADDR": "[::1]:143", "PBEM_MAIL_SMTP_ADDR": "[::1]:25"},
		{"PBEM_MAIL_IMAP_ADDR": "imap.example:993", "PBEM_MAIL_IMAP_TLS": "tls", "PBEM_MAIL_SMTP_ADDR": "smtp.example:587", "PBEM_MAIL_SMTP_TLS": "starttls"},
		{"PBEM_MAIL_IMAP_ADDR": "imap.example:143", "PBEM_MAIL_IMAP_TLS": "starttls", "PBEM_MAIL_SMTP_ADDR": "smtp.example:587"},
	} {
		env["PBEM_MAIL_IMAP_USERNAME"], env["PBEM_MAIL_IMAP_PASSWORD"] = "pbem", "pw"
		env["PBEM_MAIL_SMTP_USERNAME"], env["PBEM_MAIL_SMTP_PASSWORD"] = "pbem", "pw"
		if _, err := loadConfig("", func(k string) string { return env[k] }); err != nil {
			t.Errorf("%v: refused: %v", env, err)
		}
	}
}
